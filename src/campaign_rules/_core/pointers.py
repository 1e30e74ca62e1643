"""JSON Pointers (RFC 6901) of the members a violation is about.

A violation's `field` is a dotted path (`cycles.filter_tags[2]`), which a member name holding
`.` or `[` makes ambiguous; its `pointer` is not: each name is one reference token, with `~`
and `/` escaped. The rules name the members of the spec's shapes by their field paths, whose
names hold neither (`pointer_of_path` turns those into pointers); a name the payload chose
is given its pointer by the rule that reports it (`member_pointer`), never parsed back from a
path.

A pointer is exact, however long the names it holds: the API gives it whole. An output, which
writes one for each violation, writes it bounded (`output_pointer`, D-shown-text).
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.limits import POINTER_OUTPUT_MAX_LENGTH

__all__ = [
    "OUTPUT_POINTER_CUT",
    "escaped_token",
    "member_pointer",
    "output_pointer",
    "pointer_of_path",
]

# What stands for the characters an output leaves out of a long pointer. No JSON Pointer holds
# it (RFC 6901: `~` is followed by `0` or `1`), so a shortened pointer is never read as another
# member's, and a reader that resolves it refuses it.
OUTPUT_POINTER_CUT: Final = "~…"
# An output keeps this many characters of a long pointer's head, and of its tail the rest of
# `POINTER_OUTPUT_MAX_LENGTH`: the member of the body it is in, and its own member.
_HEAD_LENGTH: Final = 128
_TAIL_LENGTH: Final = POINTER_OUTPUT_MAX_LENGTH - _HEAD_LENGTH - len(OUTPUT_POINTER_CUT)


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


def output_pointer(pointer: str) -> str:
    """`pointer` as an output writes it: whole up to `POINTER_OUTPUT_MAX_LENGTH` characters.

    A longer one is its first 128 characters, `OUTPUT_POINTER_CUT` and its last characters, 256
    in all: an output holds at most that for each violation, whatever the names in the body.
    """
    if len(pointer) <= POINTER_OUTPUT_MAX_LENGTH:
        return pointer
    return pointer[:_HEAD_LENGTH] + OUTPUT_POINTER_CUT + pointer[-_TAIL_LENGTH:]
