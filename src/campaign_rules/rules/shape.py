"""Rules on the shape of the payload: an object, known members, required members, JSON types.

They apply to every object in force (`Document.sites`): the payload, the schedules and their
windows, and an enabled cycles block.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    SCHEDULE_MEMBERS,
    WINDOW_MEMBERS,
)
from campaign_rules._core.json import (
    PLAIN_CLASSES,
    is_object,
    is_oversized_object,
    json_type,
    member_path,
)
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS
from campaign_rules._core.violations import Finding
from campaign_rules.rules._common import article_of, with_article

__all__ = [
    "known_members_only",
    "members_have_json_types",
    "payload_is_object",
    "required_members_present",
]

# The built-in class of the first JSON type of each member name, for `members_have_json_types`:
# one look-up by a string, whose hash is kept, where a look-up by the types' tuple hashes the
# tuple each time. A name two shapes give different types has no class here (`None`), and is
# still checked, through `json_type`.
_FIRST_CLASS: Final[dict[str, type | None]] = {}
for _shape in (CAMPAIGN_MEMBERS, SCHEDULE_MEMBERS, WINDOW_MEMBERS, CYCLES_MEMBERS):
    for _name, _types in _shape.items():
        _first = PLAIN_CLASSES[_types[0]]
        _FIRST_CLASS[_name] = _first if _FIRST_CLASS.get(_name, _first) is _first else None


def payload_is_object(doc: Document, findings: list[Finding]) -> None:
    """The request body is a JSON object."""
    if not is_object(doc.payload):
        kind = article_of(doc.payload)
        findings.append(Finding(None, f"the request body must be a JSON object, not {kind}"))


def known_members_only(doc: Document, findings: list[Finding]) -> None:
    """Every object holds only the members its spec table lists."""
    for site in doc.sites:
        members = site.members
        # The common case, checked at once: a plain object whose names are all plain strings
        # (`read_object` gave it back as it is), each of them known.
        if members is site.raw and members is not None and members.keys() <= site.shape.keys():
            continue
        where = site.path or "the request body"
        if is_oversized_object(site.raw):
            findings.append(
                Finding(site.path, f"{where} has more than {OBJECT_MAX_MEMBERS} members")
            )
            continue
        if not site.closed:
            continue
        # Iterating a dict's own keys view runs no code of the keys or of a dict subclass.
        names: Iterable[object] = dict.keys(site.raw)  # type: ignore[arg-type]
        has_unnamed = False
        for name in names:
            if not issubclass(type(name), str):
                has_unnamed = True
            elif str.__str__(name) not in site.shape:
                # The message does not repeat the name: the path carries it (D-hostile-input).
                path = member_path(site.path, str.__str__(name))
                findings.append(Finding(path, f"this is not a known field of {where}"))
        if has_unnamed:
            findings.append(Finding(site.path, f"{where} has members whose names are not strings"))


def required_members_present(doc: Document, findings: list[Finding]) -> None:
    """Every object holds its required members."""
    for site in doc.sites:
        members = site.members
        if members is None:
            continue
        for name in site.required:
            if name not in members:
                path = member_path(site.path, name)
                findings.append(Finding(path, f"{path} is required"))


def members_have_json_types(doc: Document, findings: list[Finding]) -> None:
    """Every known member holds a value of its JSON type."""
    for site in doc.sites:
        members = site.members
        if members is None:
            continue
        shape, left_to_others = site.shape, site.left_to_others
        for name, value in members.items():
            # The common case first: an exact `str`, `int`, ... is of its type without asking
            # `json_type`. (A name of another shape has that shape's class, and a value of it
            # skips only what `types is None` below would skip.)
            if type(value) is _FIRST_CLASS.get(name):
                continue
            types = shape.get(name)
            if types is None or name in left_to_others:
                continue  # unknown, or a member whose type another rule owns
            if json_type(value) not in types:
                path = member_path(site.path, name)
                findings.append(
                    Finding(path, f"{path} must be {' or '.join(map(with_article, types))}")
                )
