"""The kit's source cases: every case of `tests/cases/` a body can carry, as protocol requests.

`scripts/regenerate.py` writes `render()` to `src/campaign_rules/_conformance/cases.json`, the
package data `campaign-rules conformance export` reads, so that the kit ships with the library
and needs no `tests/` folder (D-conformance-data). A case becomes a request of the protocol
(docs/conformance.md): its body as the bytes a server receives (the JSON text of a payload, the
bytes of a `text` case), its directory as records, the campaign an update starts from as its
wire JSON. What no bytes carry is left out, with its reason in `LEFT_OUT`: a Python value that
is not bytes or text (`body.is_bytes_or_text`), a `str` holding a lone surrogate, and a payload
JSON cannot write (a `NaN`, a name that is not a string, a subclass), and an error
body's status that is not an integer. The request and
lifecycle cases, and those of the state a server keeps, take no body: the kit's HTTP cases
cover them.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from tests.cases_support import (
    REQUEST_SOURCES,
    all_cases,
    build_body,
    build_directory,
    build_payload,
    text_data,
)
from tests.support import FakeDirectory, payload

from campaign_rules import validate_create
from campaign_rules._conformance.protocol import body_of
from campaign_rules._wire.convert import to_wire

__all__ = ["LEFT_OUT", "render", "requests"]

# A body text longer than this is stored packed (`packed_body`).
_PACK_FROM = 4096
# Why a case of each kind of input no bytes carry is left out of the kit.
LEFT_OUT = {
    "value": "not bytes or text: a Python value (body.is_bytes_or_text)",
    "surrogate": "a str holding a lone surrogate, which no bytes are",
    "unwritable": "a payload JSON cannot write as it is",
    "status": "an HTTP status that is not an integer, which no response comes with",
}


def requests() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The kit's source cases, and the id of each case left out with the reason."""
    cases: list[dict[str, Any]] = []
    left_out: dict[str, str] = {}
    for stem, case in all_cases():
        if any(source in case for source in REQUEST_SOURCES) or "xfail" in case:
            continue
        case_id = f"{stem}::{case['title']}"
        request = _request(case_id, case)
        if isinstance(request, str):
            left_out[case_id] = LEFT_OUT[request]
            continue
        cases.append({"rule": stem, "title": case["title"], "request": request})
    return cases, left_out


def render() -> str:
    """The JSON text of `src/campaign_rules/_conformance/cases.json`.

    A long body (the size rule's) is stored as its run of one character (`packed_body`).
    """
    cases, left_out = requests()
    for case in cases:
        case["request"]["body"] = packed_body(case["request"]["body"])
    document = {
        "about": "The kit's source cases, written by scripts/regenerate.py from tests/cases/.",
        "cases": cases,
        "left_out": left_out,
    }
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"


def packed_body(body: dict[str, str]) -> dict[str, Any]:
    """`body`, or a text of more than `_PACK_FROM` characters as its longest run of one character.

    That is `{"packed": {"head", "repeat", "count", "tail"}}`, which `_conformance.cases`
    unpacks.
    """
    text = body.get("text")
    if text is None or len(text) <= _PACK_FROM:
        return body
    runs = [(len(list(run)), start) for start, run in _runs(text)]
    count, start = max(runs)
    head, tail = text[:start], text[start + count :]
    return {"packed": {"head": head, "repeat": text[start], "count": count, "tail": tail}}


def _runs(text: str) -> Any:
    start = 0
    for _, run in itertools.groupby(text):
        length = len(list(run))
        yield start, range(length)
        start += length


def _request(case_id: str, case: dict[str, Any]) -> dict[str, Any] | str:
    if "text" in case:
        return _text_request(case_id, case["text"])
    if "response" in case:
        response = case["response"]
        body = _json_bytes(build_body(response))
        if body is None:
            return "unwritable"
        if response.get("status") is not None and type(response["status"]) is not int:
            return "status"
        return {
            "id": case_id,
            "kind": "response",
            "body": body_of(body),
            "reader": response["parse"],
            "http_status": response.get("status"),
        }
    directory = _records(build_directory(case["directory"])) if "directory" in case else None
    if "update" in case:
        update = case["update"]
        body = _json_bytes(update["patch"])
        existing = _existing(update)
        if body is None or existing is None:
            return "unwritable"
        return {
            "id": case_id,
            "kind": "update",
            "body": body_of(body),
            "directory": directory,
            "existing": existing,
            "status": update.get("status"),
        }
    body = _json_bytes(build_payload(case))
    if body is None:
        return "unwritable"
    return {"id": case_id, "kind": "create", "body": body_of(body), "directory": directory}


def _text_request(case_id: str, text: dict[str, Any]) -> dict[str, Any] | str:
    data = text_data(text)
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError:
            return "surrogate"
    if not isinstance(data, bytes):
        return "value"
    return {"id": case_id, "kind": "create", "body": body_of(data), "directory": None}


def _json_bytes(value: object) -> bytes | None:
    """The JSON text of `value` as UTF-8 bytes, `None` when JSON cannot write it as it is.

    A lone surrogate is written escaped, which JSON allows (RFC 8259 section 7) and I-JSON
    refuses: such a case is judged by `body.strings_are_unicode` first.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    if not _same(json.loads(text), value):
        return None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False).encode("ascii")


def _same(read: object, given: object) -> bool:
    """Whether `read` is `given`, type for type (JSON writes a tuple, a subclass, as others)."""
    if type(read) is not type(given):
        return False
    if isinstance(given, dict):
        assert isinstance(read, dict)
        return list(read) == list(given) and all(_same(read[k], given[k]) for k in given)
    if isinstance(given, list):
        assert isinstance(read, list)
        return len(read) == len(given) and all(map(_same, read, given))
    return read == given


def _records(directory: FakeDirectory) -> dict[str, Any]:
    """A test's directory as the protocol's records, which hold an integration under its agent."""
    agents = sorted(directory.agents)
    return {
        "agents": [
            {
                "id": agent,
                "integrations": {
                    name: kind
                    for (owner, name), kind in sorted(directory.integrations.items())
                    if owner == agent
                },
            }
            for agent in agents
        ],
        "tags": sorted(directory.tags),
        "billing_limit_reached": directory.billing_reached,
    }


def _existing(update: dict[str, Any]) -> object:
    """The wire JSON of the campaign an update case starts from (`None`: JSON cannot write it)."""
    given = payload(update["existing_base"], **update.get("existing_set", {}))
    if update.get("existing_stored"):
        return given if _json_bytes(given) is not None else None
    created = validate_create(given)
    assert created.value is not None, f"the existing campaign is invalid: {created.violations}"
    return to_wire(created.value)
