"""An answer against the answer a case expects: every difference, as want and got.

The comparison is strict: the status, each header the case names, and the body as JSON,
member by member and type by type (`1` is not `1.0`, nor `true`). Matchers judge what varies
and capture values for later steps. Without `strict_messages`, the `message` member of an
error body is left out, as the executor runner leaves out the envelope's message.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, MutableMapping
from typing import Final

import attrs

from campaign_rules._conformance.compare import ABSENT, Difference
from campaign_rules._conformance.http_format import Answer, HeaderExpectation, Matcher
from campaign_rules._core.formats import parse_date_time
from campaign_rules._core.limits import BODY_MAX_BYTES
from campaign_rules._core.pointers import member_pointer

__all__ = ["Received", "compare"]

_SHOWN_BYTES: Final = 200  # of a body that is not JSON


@attrs.frozen
class Received:
    """An answer as it came: status, headers in order, body bytes."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


def compare(
    expected: Answer,
    received: Received,
    captured: MutableMapping[str, object],
    *,
    strict_messages: bool,
) -> list[Difference]:
    """Every difference of `received` from `expected`; captures go into `captured`."""
    differences = []
    if received.status != expected.status:
        differences.append(Difference("status", expected.status, received.status))
    for header in expected.headers:
        differences.extend(_header_differences(header, received.headers))
    if len(received.body) > BODY_MAX_BYTES:
        return [*differences, Difference("body", f"at most {BODY_MAX_BYTES} bytes", "more")]
    try:
        body = json.loads(received.body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        shown = received.body[:_SHOWN_BYTES].decode("utf-8", "replace")
        return [*differences, Difference("body", "a JSON body", shown)]
    want = copy.deepcopy(expected.body)
    for matcher in expected.matchers:
        difference, want = _matched(matcher, want, body, captured)
        if difference is not None:
            differences.append(difference)
    if not strict_messages and expected.status >= 400:
        want, body = _without_message(want), _without_message(body)
    try:
        differences.extend(_json_differences(want, body, ""))
    except RecursionError:
        differences.append(Difference("body", want, "a body nested too deep to compare"))
    return differences


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _header_differences(
    header: HeaderExpectation, received: tuple[tuple[str, str], ...]
) -> list[Difference]:
    values = [value for name, value in received if name.lower() == header.name.lower()]
    at = f"header {header.name}"
    if header.equals is not None:
        want: str = header.equals
        fits = values == [header.equals]
    else:
        assert header.integer is not None
        low, high = header.integer
        want = f"an integer from {low} to {high}"
        fits = len(values) == 1 and _integer_within(values[0], low, high)
    if fits:
        return []
    got: object = values[0] if len(values) == 1 else (values or ABSENT)
    return [Difference(at, want, got)]


def _integer_within(text: str, low: int, high: int) -> bool:
    return text.isascii() and text.isdigit() and low <= int(text) <= high


def _matched(
    matcher: Matcher, want: object, body: object, captured: MutableMapping[str, object]
) -> tuple[Difference | None, object]:
    """The difference at the matcher's pointer, if any, and `want` holding the value found."""
    at = f"body {matcher.pointer}"
    found, value = _at_pointer(body, matcher.pointer)
    if not found:
        return Difference(at, _described(matcher, captured), ABSENT), want
    if not _fits(matcher, value, captured):
        return Difference(at, _described(matcher, captured), value), want
    if matcher.capture is not None:
        captured[matcher.capture] = value
    return None, _replaced(want, matcher.pointer, value)


def _fits(matcher: Matcher, value: object, captured: Mapping[str, object]) -> bool:
    if matcher.integer is not None:
        low, high = matcher.integer
        return type(value) is int and low <= value <= high
    if matcher.date_time:
        return type(value) is str and parse_date_time(value) is not None
    name = matcher.captured
    if name is None or name not in captured:
        return False
    try:
        return not _json_differences(captured[name], value, "")
    except RecursionError:
        return False


def _described(matcher: Matcher, captured: Mapping[str, object]) -> object:
    """What a matcher wants, as a diff shows it."""
    if matcher.integer is not None:
        return f"an integer from {matcher.integer[0]} to {matcher.integer[1]}"
    if matcher.date_time:
        return "an RFC 3339 date-time"
    return captured.get(str(matcher.captured), f"the value captured as {matcher.captured}")


def _tokens(pointer: str) -> list[str]:
    """The reference tokens of an RFC 6901 pointer (`""` is the whole document)."""
    if not pointer:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _at_pointer(document: object, pointer: str) -> tuple[bool, object]:
    """Whether `pointer` names a value of `document`, and that value."""
    value = document
    for token in _tokens(pointer):
        if type(value) is dict and token in value:
            value = value[token]
        elif type(value) is list and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False, None
    return True, value


def _replaced(document: object, pointer: str, new: object) -> object:
    """`document` (a copy the caller owns) with the value at `pointer` set to `new`."""
    tokens = _tokens(pointer)
    if not tokens:
        return new
    parent = document
    for token in tokens[:-1]:
        if type(parent) is dict and token in parent:
            parent = parent[token]
        elif type(parent) is list and token.isdigit() and int(token) < len(parent):
            parent = parent[int(token)]
        else:
            return document  # the case's body has no place there: the body diff shows it
    last = tokens[-1]
    if type(parent) is dict:
        parent[last] = new
    elif type(parent) is list and last.isdigit() and int(last) < len(parent):
        parent[int(last)] = new
    return document


def _without_message(body: object) -> object:
    if type(body) is dict:
        return {name: value for name, value in body.items() if name != "message"}
    return body


def _json_differences(want: object, got: object, pointer: str) -> list[Difference]:
    """Every place where `got` differs from `want`, by JSON type and value."""
    if type(want) is dict and type(got) is dict:
        differences = []
        for name in sorted(want.keys() | got.keys()):
            inner = member_pointer(pointer, name)
            if name not in got:
                differences.append(Difference(f"body {inner}", want[name], ABSENT))
            elif name not in want:
                differences.append(Difference(f"body {inner}", ABSENT, got[name]))
            else:
                differences.extend(_json_differences(want[name], got[name], inner))
        return differences
    if type(want) is list and type(got) is list and len(want) == len(got):
        return [
            difference
            for index, (wanted, gotten) in enumerate(zip(want, got, strict=True))
            for difference in _json_differences(wanted, gotten, f"{pointer}/{index}")
        ]
    if type(want) is type(got) and want == got:
        return []
    return [Difference(f"body {pointer}" if pointer else "body", want, got)]
