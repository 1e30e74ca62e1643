"""JSON Pointers (RFC 6901) of the members a violation is about.

A violation's `field` is a dotted path (`cycles.filter_tags[2]`), which a member name holding
`.` or `[` makes ambiguous; its `pointer` is not: each name is one reference token, with `~`
and `/` escaped. The rules name the members of the spec's shapes by their field paths, whose
names hold neither (`pointer_of_path` turns those into pointers); a name the payload chose
is given its pointer by the rule that reports it (`member_pointer`), never parsed back from a
path.
"""

from __future__ import annotations

__all__ = ["escaped_token", "member_pointer", "pointer_of_path"]


def escaped_token(name: str) -> str:
    """`name` as a reference token of a JSON Pointer: `~` as `~0`, `/` as `~1` (RFC 6901)."""
    if "~" in name or "/" in name:
        return name.replace("~", "~0").replace("/", "~1")
    return name


def member_pointer(parent: str, name: str) -> str:
    """The pointer of member `name` of the value at the pointer `parent` (`""`: the body)."""
    return f"{parent}/{escaped_token(name)}"


def pointer_of_path(path: str | None) -> str:
    """The pointer of the field path `path`, a dotted path of names without `.` or `[`.

    `None` (the body as a whole) is `""`; `cycles.filter_tags[2]` is `/cycles/filter_tags/2`.
    """
    if path is None:
        return ""
    if "[" in path:
        path = path.replace("]", "").replace("[", ".")
    if "~" in path or "/" in path:
        return "/" + "/".join([escaped_token(token) for token in path.split(".")])
    return "/" + path.replace(".", "/")
