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
from campaign_rules._campaign.sites import KIND_AT
from campaign_rules._core.findings import PathThen, ReadyFindings
from campaign_rules._core.json import (
    as_string,
    is_object,
    json_type,
    member_path,
)
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS
from campaign_rules._core.object_reading import Site
from campaign_rules._core.pointers import member_pointer, pointer_of_path
from campaign_rules._core.violations import Finding
from campaign_rules._rules._common import article_of, with_article

__all__ = [
    "known_members_only",
    "members_have_json_types",
    "payload_is_object",
    "required_members_present",
]


# The JSON types of every member of every shape in words, said once rather than for each
# member of another type, keyed by the shapes' own tuples. A list rather than `map`:
# compiled, `with_article` is then called natively.
_EXPECTED: Final = {
    types: " or ".join([with_article(kind) for kind in types])
    for shape in (CAMPAIGN_MEMBERS, SCHEDULE_MEMBERS, WINDOW_MEMBERS, CYCLES_MEMBERS)
    for types in shape.values()
}


# What the shape rules say of a known member, made once for each member (`ReadyFindings`).
_IS_REQUIRED: Final = ReadyFindings(
    PathThen("is required"),
    [(path, name) for path, kind in KIND_AT.items() for name in kind.required],
)
_MUST_BE: Final = {
    types: ReadyFindings(
        PathThen(f"must be {expected}"),
        [
            (path, name)
            for path, kind in KIND_AT.items()
            for name, its_types in kind.shape.items()
            if its_types == types
        ],
    )
    for types, expected in _EXPECTED.items()
}


def payload_is_object(doc: Document, findings: list[Finding]) -> None:
    """Reads the decoded body as it is; reports at the root, naming the JSON type found."""
    if not is_object(doc.payload):
        kind = article_of(doc.payload)
        findings.append(Finding(None, f"the request body must be a JSON object, not {kind}"))


def known_members_only(doc: Document, findings: list[Finding]) -> None:
    """Walks the objects in force (`Document.sites`), but a block that is not closed.

    An object too large to read is reported at its own path, and not read; each name its shape
    lacks, at the member's path; names that are not strings, once, at the object.
    """
    for site in doc.sites:
        members = site.members
        # The common case, read when the site was made: a plain object whose names are all plain
        # strings (`read_object` gave it back as it is), each of them known.
        if members is site.raw and site.all_known:
            continue
        where = site.path or "the request body"
        if members is None:  # a site leaves unread only an object too large to read
            findings.append(
                Finding(site.path, f"{where} has more than {OBJECT_MAX_MEMBERS} members")
            )
        elif site.kind.closed:
            _report_unknown_names(site, members, where, findings)


def _report_unknown_names(
    site: Site, members: dict[str, object], where: str, findings: list[Finding]
) -> None:
    """Each name of `site` that its shape lacks, at its path; names that are not strings, once.

    `members` is the site's members, as read.
    """
    has_unnamed = False
    # Its own keys view runs no code of the keys or of a dict subclass; a plain object whose
    # names are all plain strings is its own members, walked as they are (calling for the view
    # costs a call a site).
    names: Iterable[object] = members if members is site.raw else dict.keys(site.raw)  # type: ignore[arg-type]
    for name in names:
        # `as_string` asks `issubclass` (a generic call compiled) only of a name
        # that is not a plain `str`.
        text = as_string(name)
        if text is None:
            has_unnamed = True
        elif text not in site.kind.shape:
            # The message does not repeat the name: the path carries it (D-hostile-input). The
            # path may cut the name, or read like a nested one: the pointer holds it exactly.
            path = member_path(site.path, text)
            pointer = member_pointer(pointer_of_path(site.path), text)
            findings.append(Finding(path, f"this is not a known field of {where}", pointer))
    if has_unnamed:
        findings.append(Finding(site.path, f"{where} has members whose names are not strings"))


def required_members_present(doc: Document, findings: list[Finding]) -> None:
    """Walks the objects in force whose members were read; reports each absent one at its path.

    An object too large to read is `known_members_only`'s.
    """
    for site in doc.sites:
        members = site.members
        # Unread, or holding every required member: counted when the site was made, for one
        # comparison where each name was looked up.
        if members is None or site.required_absent == 0:
            continue
        for name in site.kind.required:
            if name not in members:
                findings.append(_IS_REQUIRED.at(site.path, name))


def members_have_json_types(doc: Document, findings: list[Finding]) -> None:
    """Walks the readable objects in force; reports a member of another type at its path.

    Only the members whose value is not of the plain class of their first type, found when the
    site was made, are looked at, and those the site leaves to another rule are skipped.
    """
    for site in doc.sites:
        members = site.members
        if members is None:
            continue
        # Only the members whose value is not of its type's first class (an exact `str`, `int`,
        # ...), found when the site was made; the others are of their type.
        for name in site.to_type_check:
            types = site.kind.shape[name]
            if name not in site.kind.left_to_others and json_type(members[name]) not in types:
                findings.append(_MUST_BE[types].at(site.path, name))
