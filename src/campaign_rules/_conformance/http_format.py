"""The format of an HTTP case file: its JSON Schema, and its reading into typed steps.

A case is a sequence of steps; a step sends one request (or the same request several times)
and states the answer it must get. What varies from run to run is written as variables and
matchers:

- `{{name}}` in a path, a header value or a text body is a variable: one the case lists in
  `fresh` is a new UUID v4 for each run (its Idempotency-Keys), any other one a value captured
  from an earlier answer of the sequence;
- a matcher judges the answer's body at a JSON Pointer (RFC 6901): an integer within a range, a
  date-time, or a value equal to one captured; with `capture`, the value is kept under that
  name. The expected body holds `null` where a matcher judges.

docs/conformance-http.md describes the format for people; `CASE_SCHEMA` for programs.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Final

import attrs

from campaign_rules._core.limits import BODY_MAX_BYTES
from campaign_rules._export.links import DOCS_URL

__all__ = [
    "CASE_FORMAT",
    "CASE_SCHEMA",
    "HTTP_KIND",
    "MANIFEST",
    "PAD_TO_MAX",
    "REPEAT_MAX",
    "SCHEMA_NAME",
    "Answer",
    "CaseFormatError",
    "HeaderExpectation",
    "HttpCase",
    "Matcher",
    "Repeat",
    "Request",
    "Step",
    "read_case",
]

CASE_FORMAT: Final = "campaign-rules-http-case/1"
# The kit lists the file of its HTTP cases in `manifest.json` with this kind: JSON Lines, one
# case a line, each valid by `CASE_SCHEMA`, which the kit holds as `SCHEMA_NAME`.
HTTP_KIND: Final = "http"
MANIFEST: Final = "manifest.json"
SCHEMA_NAME: Final = "http-sequence"
# Bounds of what a case may ask, so that no kit makes the runner hold or send without end.
PAD_TO_MAX: Final = 4 * BODY_MAX_BYTES
REPEAT_MAX: Final = 1000

_NAME: Final = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
_RANGE: Final = {
    "type": "array",
    "items": {"type": "integer"},
    "minItems": 2,
    "maxItems": 2,
    "description": "the lowest and the highest value allowed",
}
_ANSWER: Final = {
    "type": "object",
    "required": ["status", "body"],
    "additionalProperties": False,
    "properties": {
        "status": {"type": "integer", "minimum": 100, "maximum": 599},
        "body": {"description": "the JSON body, exactly; null where a matcher judges"},
        "headers": {
            "type": "array",
            "description": "the headers that matter, by name in any case; others are free",
            "items": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "equals": {"type": "string"},
                    "integer": _RANGE,
                },
                "oneOf": [{"required": ["equals"]}, {"required": ["integer"]}],
            },
        },
        "matchers": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["pointer"],
                "additionalProperties": False,
                "properties": {
                    "pointer": {"type": "string", "description": "RFC 6901, into the body"},
                    "integer": _RANGE,
                    "date_time": {"const": True, "description": "RFC 3339, with an offset"},
                    "captured": {**_NAME, "description": "equal to the value captured so"},
                    "capture": {**_NAME, "description": "keep the value under this name"},
                },
                "oneOf": [
                    {"required": ["integer"]},
                    {"required": ["date_time"]},
                    {"required": ["captured"]},
                ],
            },
        },
    },
}
_OPERATIONS: Final = ("create", "contact", "thread")

CASE_SCHEMA: Final[Mapping[str, object]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    # Beside the kit's other schemas, as they are named (docs/conformance.md).
    "$id": f"{DOCS_URL}conformance/schemas/{SCHEMA_NAME}.schema.json",
    "title": "An HTTP case of the conformance kit: a sequence of requests and their answers",
    "type": "object",
    "required": ["format", "id", "title", "cites", "fresh", "steps"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": CASE_FORMAT},
        "id": {"type": "string", "pattern": "^http(\\.[a-z0-9_]+)+$"},
        "title": {"type": "string"},
        "cites": {"type": "string", "description": "the spec's clauses and the decisions"},
        "fresh": {
            "type": "array",
            "items": _NAME,
            "description": "variables set to a new UUID v4 for each run",
        },
        "steps": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["request", "expect"],
                "additionalProperties": False,
                "properties": {
                    "request": {
                        "type": "object",
                        "required": ["operation", "method", "path", "headers", "body"],
                        "additionalProperties": False,
                        "properties": {
                            "operation": {
                                "enum": list(_OPERATIONS),
                                "description": "whose rate budget the request spends",
                            },
                            "method": {"type": "string", "pattern": "^[A-Z]+$"},
                            "path": {
                                "type": "string",
                                "pattern": "^/",
                                "description": "after the base URL, as sent (percent-encoded)",
                            },
                            "headers": {
                                "type": "array",
                                "description": "in order; a name may repeat",
                                "items": {
                                    "type": "array",
                                    "prefixItems": [{"type": "string"}, {"type": "string"}],
                                    "minItems": 2,
                                    "maxItems": 2,
                                },
                            },
                            "body": {
                                "oneOf": [
                                    {"type": "null"},
                                    {
                                        "type": "object",
                                        "required": ["text"],
                                        "additionalProperties": False,
                                        "properties": {"text": {"type": "string"}},
                                    },
                                    {
                                        "type": "object",
                                        "required": ["base64"],
                                        "additionalProperties": False,
                                        "properties": {"base64": {"type": "string"}},
                                    },
                                ]
                            },
                            "pad_to": {
                                "type": "integer",
                                "minimum": 0,
                                "maximum": PAD_TO_MAX,
                                "description": "spaces added after the body to this many bytes",
                            },
                        },
                    },
                    "expect": _ANSWER,
                    "repeat": {
                        "type": "object",
                        "additionalProperties": False,
                        "description": "`times`: sent that many times, each answer `expect`; "
                        "`until`: sent until an answer has its status (at most `at_most` "
                        "times), that answer `until`, at least `at_least` answers before it "
                        "`expect`",
                        "properties": {
                            "times": {"type": "integer", "minimum": 1, "maximum": REPEAT_MAX},
                            "at_least": {"type": "integer", "minimum": 0, "maximum": REPEAT_MAX},
                            "at_most": {"type": "integer", "minimum": 1, "maximum": REPEAT_MAX},
                            "until": _ANSWER,
                        },
                        "oneOf": [
                            {"required": ["times"]},
                            {"required": ["at_least", "at_most", "until"]},
                        ],
                    },
                    "paced": {
                        "const": False,
                        "description": "sent back to back, on a full budget, without pacing",
                    },
                },
            },
        },
    },
}


class CaseFormatError(Exception):
    """A case file that is not of this format; the message says where and what."""


@attrs.frozen
class HeaderExpectation:
    """A header the answer must have once: a value, or an integer within a range."""

    name: str
    equals: str | None
    integer: tuple[int, int] | None


@attrs.frozen
class Matcher:
    """What the body holds at `pointer`, and the name it is kept under (`capture`)."""

    pointer: str
    integer: tuple[int, int] | None
    date_time: bool
    captured: str | None
    capture: str | None


@attrs.frozen
class Answer:
    """The answer a request must get."""

    status: int
    body: object
    headers: tuple[HeaderExpectation, ...]
    matchers: tuple[Matcher, ...]


@attrs.frozen
class Request:
    """A request, with its variables not yet filled; `base64` bodies are bytes already."""

    operation: str
    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    text: str | None
    raw: bytes | None
    pad_to: int | None


@attrs.frozen
class Repeat:
    """How often a step's request is sent, and the answer that ends it (`until`)."""

    at_least: int
    at_most: int
    until: Answer | None


@attrs.frozen
class Step:
    """One request of a sequence and its answer; `paced` False: back to back."""

    request: Request
    expect: Answer
    repeat: Repeat | None
    paced: bool


@attrs.frozen
class HttpCase:
    """An HTTP case: its steps, and the variables each run makes fresh."""

    id: str
    title: str
    fresh: tuple[str, ...]
    steps: tuple[Step, ...]


def read_case(data: object) -> HttpCase:
    """The case in `data` (a decoded case file); `CaseFormatError` when it is not one."""
    case = _object(data, "the case")
    if case.get("format") != CASE_FORMAT:
        raise CaseFormatError(f"format is not {CASE_FORMAT!r}")
    steps = _list(case.get("steps"), "steps")
    if not steps:
        raise CaseFormatError("steps is empty")
    return HttpCase(
        id=_string(case.get("id"), "id"),
        title=_string(case.get("title"), "title"),
        fresh=tuple(_string(name, "fresh[]") for name in _list(case.get("fresh"), "fresh")),
        steps=tuple(_step(step, f"steps[{index}]") for index, step in enumerate(steps)),
    )


def _step(data: object, where: str) -> Step:
    step = _object(data, where)
    repeat = step.get("repeat")
    paced = step.get("paced", True)
    if type(paced) is not bool:
        raise CaseFormatError(f"{where}.paced is not a boolean")
    return Step(
        request=_request(step.get("request"), f"{where}.request"),
        expect=_answer(step.get("expect"), f"{where}.expect"),
        repeat=None if repeat is None else _repeat(repeat, f"{where}.repeat"),
        paced=paced,
    )


def _request(data: object, where: str) -> Request:
    request = _object(data, where)
    operation = _string(request.get("operation"), f"{where}.operation")
    if operation not in _OPERATIONS:
        raise CaseFormatError(f"{where}.operation is not one of {', '.join(_OPERATIONS)}")
    headers = []
    for index, pair in enumerate(_list(request.get("headers"), f"{where}.headers")):
        name_value = _list(pair, f"{where}.headers[{index}]")
        if len(name_value) != 2:
            raise CaseFormatError(f"{where}.headers[{index}] is not a [name, value] pair")
        headers.append((_string(name_value[0], "a name"), _string(name_value[1], "a value")))
    text, raw = _body(request.get("body"), f"{where}.body")
    pad_to = request.get("pad_to")
    if pad_to is not None and (type(pad_to) is not int or not 0 <= pad_to <= PAD_TO_MAX):
        raise CaseFormatError(f"{where}.pad_to is not a count of bytes up to {PAD_TO_MAX}")
    return Request(
        operation=operation,
        method=_string(request.get("method"), f"{where}.method"),
        path=_string(request.get("path"), f"{where}.path"),
        headers=tuple(headers),
        text=text,
        raw=raw,
        pad_to=pad_to,
    )


def _body(data: object, where: str) -> tuple[str | None, bytes | None]:
    if data is None:
        return None, None
    body = _object(data, where)
    if "text" in body:
        return _string(body["text"], f"{where}.text"), None
    encoded = _string(body.get("base64"), f"{where}.base64")
    try:
        return None, base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise CaseFormatError(f"{where}.base64 is not base64") from None


def _answer(data: object, where: str) -> Answer:
    answer = _object(data, where)
    status = answer.get("status")
    if type(status) is not int or not 100 <= status <= 599:
        raise CaseFormatError(f"{where}.status is not an HTTP status")
    if "body" not in answer:
        raise CaseFormatError(f"{where} has no body")
    headers = _list(answer.get("headers", []), f"{where}.headers")
    matchers = _list(answer.get("matchers", []), f"{where}.matchers")
    return Answer(
        status=status,
        body=answer["body"],
        headers=tuple(_header(item, f"{where}.headers[{n}]") for n, item in enumerate(headers)),
        matchers=tuple(_matcher(item, f"{where}.matchers[{n}]") for n, item in enumerate(matchers)),
    )


def _header(data: object, where: str) -> HeaderExpectation:
    header = _object(data, where)
    equals = header.get("equals")
    integer = header.get("integer")
    expectation = HeaderExpectation(
        name=_string(header.get("name"), f"{where}.name"),
        equals=None if equals is None else _string(equals, f"{where}.equals"),
        integer=None if integer is None else _range(integer, f"{where}.integer"),
    )
    if (expectation.equals is None) == (expectation.integer is None):
        raise CaseFormatError(f"{where} needs one of equals and integer")
    return expectation


def _matcher(data: object, where: str) -> Matcher:
    matcher = _object(data, where)
    integer, captured, capture = (matcher.get(name) for name in ("integer", "captured", "capture"))
    pointer = _string(matcher.get("pointer"), f"{where}.pointer")
    if pointer and not pointer.startswith("/"):
        raise CaseFormatError(f"{where}.pointer is not a JSON Pointer")
    found = Matcher(
        pointer=pointer,
        integer=None if integer is None else _range(integer, f"{where}.integer"),
        date_time=matcher.get("date_time") is True,
        captured=None if captured is None else _string(captured, f"{where}.captured"),
        capture=None if capture is None else _string(capture, f"{where}.capture"),
    )
    kinds = (found.integer is not None) + found.date_time + (found.captured is not None)
    if kinds != 1:
        raise CaseFormatError(f"{where} needs one of integer, date_time and captured")
    return found


def _repeat(data: object, where: str) -> Repeat:
    repeat = _object(data, where)
    if "times" in repeat:
        times = _count(repeat["times"], f"{where}.times")
        return Repeat(at_least=times, at_most=times, until=None)
    return Repeat(
        at_least=_count(repeat.get("at_least"), f"{where}.at_least"),
        at_most=_count(repeat.get("at_most"), f"{where}.at_most"),
        until=_answer(repeat.get("until"), f"{where}.until"),
    )


def _object(data: object, where: str) -> dict[str, object]:
    if type(data) is not dict:
        raise CaseFormatError(f"{where} is not an object")
    return data


def _list(data: object, where: str) -> list[object]:
    if type(data) is not list:
        raise CaseFormatError(f"{where} is not an array")
    return data


def _string(data: object, where: str) -> str:
    if type(data) is not str:
        raise CaseFormatError(f"{where} is not a string")
    return data


def _count(data: object, where: str) -> int:
    if type(data) is not int or not 0 <= data <= REPEAT_MAX:
        raise CaseFormatError(f"{where} is not a count up to {REPEAT_MAX}")
    return data


def _range(data: object, where: str) -> tuple[int, int]:
    bounds = _list(data, where)
    if len(bounds) != 2:
        raise CaseFormatError(f"{where} is not [lowest, highest]")
    low, high = bounds
    if type(low) is not int or type(high) is not int:
        raise CaseFormatError(f"{where} is not [lowest, highest]")
    return low, high
