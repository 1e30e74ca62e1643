"""Rules on response bodies: what an SDK reads, and what a server may check before it sends.

Each rule reads one `ResponseReading`: the body walked once against its documented shape
(`_wire.shapes`). Strict about what the spec documents, tolerant of what it does not list
(D-tolerant-reading); a broken body is the server's fault, so these rules yield
`SERVER_ERROR` (D-response-violations).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from campaign_rules._core.json import (
    as_integer,
    as_string,
    is_object,
    json_type,
    member_path,
    plain_json_problem,
)
from campaign_rules._core.limits import (
    ERROR_STATUSES,
    JSON_INTEGERS,
    RESPONSE_MAP_MAX_MEMBERS,
    RESPONSE_OPAQUE_MAX_DEPTH,
    RESPONSE_OPAQUE_MAX_VALUES,
)
from campaign_rules._core.pointers import member_pointer, pointer_of_path
from campaign_rules._core.violations import Finding
from campaign_rules._rules._common import article_of, with_article
from campaign_rules._wire.reading import ResponseReading

__all__ = [
    "body_is_object",
    "error_body_has_a_known_shape",
    "error_status_is_an_error_status",
    "integers_are_interoperable",
    "maps_hold_strings",
    "members_have_json_types",
    "opaque_members_hold_plain_json",
    "required_members_present",
    "sizes_within_caps",
    "values_have_formats",
]


def body_is_object(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reads the decoded body as it is; reports at the root, naming the JSON type found."""
    if not is_object(reading.body):
        kind = article_of(reading.body)
        findings.append(Finding(None, f"the response body must be a JSON object, not {kind}"))


def error_body_has_a_known_shape(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reports at `error` an object body that fitted neither error shape (`ResponseReading.shape`).

    A body that is not an object is `body_is_object`'s.
    """
    if is_object(reading.body) and reading.shape is None:
        findings.append(
            Finding("error", "error must be an error key (a string) or a status (an integer)")
        )


_ERROR_RANGE: Final = f"from {ERROR_STATUSES.start} to {ERROR_STATUSES.stop - 1}"


def error_status_is_an_error_status(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reads the status an error body came with as any JSON integer is; reports at the root.

    An integral float is the integer, and an `int` subclass such as `http.HTTPStatus` is read
    without running any of its methods.
    """
    if as_integer(reading.status) not in ERROR_STATUSES:
        findings.append(
            Finding(None, f"the status of an error body must be an integer {_ERROR_RANGE}")
        )


def sizes_within_caps(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reports what the walk found too large to read, at its path; nothing inside it is walked."""
    for path, cap in reading.oversized:
        findings.append(Finding(path, f"{path or 'the response body'} {cap}"))


def required_members_present(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reports each absent member the walk found in a documented object, at its path."""
    for path in reading.missing:
        findings.append(Finding(path, f"{path} is required"))


def members_have_json_types(reading: ResponseReading, findings: list[Finding]) -> None:
    """Checks each node the walk reached (`ResponseReading.nodes`); reports at the node's path.

    `null` passes where the member is nullable, or optional.
    """
    for node in reading.nodes:
        member, kind = node.member, json_type(node.value)
        if kind == member.type or (kind == "null" and (member.nullable or not member.required)):
            continue
        expected = with_article(member.type) + (" or null" if member.nullable else "")
        findings.append(Finding(node.path, f"{node.path} must be {expected}"))


def values_have_formats(reading: ResponseReading, findings: list[Finding]) -> None:
    """Checks each node whose value has its documented JSON type, reporting at the node's path.

    A value of another type is the type rule's; an integral float is read as the integer.
    """
    for node in reading.nodes:
        member = node.member
        if member.format is None or json_type(node.value) != member.type:
            continue
        value: object = node.value
        if member.type == "string":
            value = as_string(value)
        elif member.type == "integer":
            value = as_integer(value)
            if value not in JSON_INTEGERS:  # type: ignore[operator]
                continue  # integers_are_interoperable's
        if not member.format.check(value):
            findings.append(Finding(node.path, f"{node.path} must be {member.format.description}"))


_JSON_RANGE: Final = f"an integer from -{JSON_INTEGERS.high} to {JSON_INTEGERS.high}"


def integers_are_interoperable(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reads each documented integer as `values_have_formats` does; reports out-of-range ones.

    An integer outside `JSON_INTEGERS` is read differently by different JSON readers, and one of
    thousands of digits cannot be written back at all. An opaque member's
    integers are `opaque_members_hold_plain_json`'s.
    """
    for node in reading.nodes:
        if node.member.type != "integer" or json_type(node.value) != "integer":
            continue
        if as_integer(node.value) not in JSON_INTEGERS:  # type: ignore[operator]
            findings.append(Finding(node.path, f"{node.path} must be {_JSON_RANGE}"))


def maps_hold_strings(reading: ResponseReading, findings: list[Finding]) -> None:
    """Reads each free-form map that is an object, reporting each value that is not a string.

    A map over `RESPONSE_MAP_MAX_MEMBERS` is reported at its path and not read; names that are
    not strings are reported once, at the map.
    """
    for node in reading.nodes:
        if not node.member.map_of_strings or json_type(node.value) != "object":
            continue
        if dict.__len__(node.value) > RESPONSE_MAP_MAX_MEMBERS:  # type: ignore[arg-type]
            findings.append(
                Finding(node.path, f"{node.path} has more than {RESPONSE_MAP_MAX_MEMBERS} members")
            )
            continue
        members: Iterable[tuple[object, object]] = dict.items(node.value)  # type: ignore[arg-type]
        unnamed = False
        for name, value in members:
            if not issubclass(type(name), str):
                unnamed = True
            elif as_string(value) is None:
                # A name the body chose: its pointer holds it exactly, its path as shown.
                text = str.__str__(name)
                path = member_path(node.path, text)
                pointer = member_pointer(pointer_of_path(node.path), text)
                findings.append(Finding(path, f"{path} must be a string", pointer))
        if unnamed:
            findings.append(
                Finding(node.path, f"{node.path} has members whose names are not strings")
            )


def opaque_members_hold_plain_json(reading: ResponseReading, findings: list[Finding]) -> None:
    """Walks each opaque member that is an object, within caps; reports its first problem.

    The walk stops at the depth and value caps of `_core.limits`; the problem is reported at the
    member's path.
    """
    for node in reading.nodes:
        if not node.member.opaque or json_type(node.value) != "object":
            continue
        problem = plain_json_problem(
            node.value, max_depth=RESPONSE_OPAQUE_MAX_DEPTH, max_values=RESPONSE_OPAQUE_MAX_VALUES
        )
        if problem is not None:
            findings.append(Finding(node.path, f"{node.path} {problem}"))
