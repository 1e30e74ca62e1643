"""The rule cases of `tests/cases/`: reading the files and building each case's input.

Each file names its rule, cites what the rule table cites for it (its `source`, word for word),
and lists cases. A case builds one input and gives the EXACT ordered list of
`[rule_id, error_key, field]` the result must report. The input is one of:

- a creation payload (`payload`, or `base` with `set` and `drop` of top-level members),
  optionally with a `FakeDirectory` (`directory`), read by `validate_create`;
- an update (`update`), read by `validate_update`;
- a response body (`response`): `parse` names the reader (`create_response`,
  `contact_response`, `thread` or `error`), `status` is the HTTP status an `error` body came
  with (given for `error` only), and the body is `body`, or `base` (a valid body of
  `tests/response_support.py`: `create_response`, `contact_response`, `thread`, `api_error`,
  `credentials_error`) with `set` (dotted paths to values, a number step indexes an array:
  `tags.1.name`) and `drop` (dotted paths).

A body as received (`text`), read by `validate_create_json`: `{"utf8": ...}`, a text given as
its UTF-8 bytes (a lone surrogate in it encoded as such, which is no UTF-8); `{"str": ...}`, a
text given as a `str`; `{"hex": ...}`, bytes; `{"value": ...}`, any JSON value given as it
is; or `{"sized": N}`, the UTF-8 bytes of the valid `phone_call` body, its `description` padded
to make them exactly N. `places`, optional, gives each violation's `[line, column]` (or
`null`), in order.

Every case also checks that its input is left unchanged. A case marked `"xfail": "reason"`
records a library bug: it is the correct expectation and must fail until the library is fixed.

The request and lifecycle rules take no body: their cases give `contact_path` (`id`,
`contact_id`), `thread_path` (`id`), `idempotency_key` (the header value, `null` when absent) or
`transition` (`status`, `action`, optionally `billing_limit_reached`) instead. The rules on the
state a server keeps give `fingerprint` (`body`, optionally `method` and `path`), `idempotency`
(`stored`: `null`, an `IdempotencyRecord`'s members as an object, or any other value; then
`fingerprint`, `now`, optionally `window_seconds`) or `rate` (`before`: `[key, now]` pairs put
to a fresh limiter first, optionally `burst`; then the `key` and `now` judged).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from campaign_rules import CampaignStatus, validate_create, validate_create_json, validate_update
from campaign_rules._core.limits import IDEMPOTENCY_WINDOW_SECONDS, RATE_LIMIT_BURST
from campaign_rules.idempotency import (
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
    request_fingerprint,
)
from campaign_rules.lifecycle import check_transition
from campaign_rules.rate import RateLimiter
from campaign_rules.requests import check_contact_path, check_thread_path
from campaign_rules.responses import (
    ParseResult,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import catalogue
from tests.response_support import RESPONSE_BASES, drop_path, set_path
from tests.support import DROP, STATUS, FakeDirectory, payload

CASES_DIR = Path(__file__).parent / "cases"

CASE_KEYS = {
    "title",
    "payload",
    "base",
    "set",
    "drop",
    "directory",
    "update",
    "response",
    "violations",
    "xfail",
    "text",
    "places",
    *("contact_path", "thread_path", "idempotency_key", "transition"),
    *("fingerprint", "idempotency", "rate"),
}
REQUEST_SOURCES = (
    *("contact_path", "thread_path", "idempotency_key", "transition"),
    *("fingerprint", "idempotency", "rate"),
)
RECORD_KEYS = {"fingerprint", "status", "body", "stored_at"}
DIRECTORY_KEYS = {"agents", "integrations", "tags", "billing_reached"}
UPDATE_KEYS = {"existing_base", "existing_set", "existing_stored", "patch", "status"}
RESPONSE_KEYS = {"parse", "status", "body", "base", "set", "drop"}

READERS = {
    "create_response": parse_create_response,
    "contact_response": parse_contact_response,
    "thread": parse_thread,
}

Triple = tuple[str, str, str | None]

# D-statuses: the HTTP status of each error key the rules yield, and the api-contract's
# precedence for the primary violation: 400, then 404, then 409, then 402; among equals, the first.
STATUS_OF_KEY = STATUS
PRECEDENCE = (400, 404, 409, 402)


@cache
def case_files() -> dict[str, dict[str, Any]]:
    """Every case file, by file stem, as decoded JSON."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(CASES_DIR.glob("*.json"))
    }


def all_cases() -> Iterator[tuple[str, dict[str, Any]]]:
    for stem, doc in case_files().items():
        for case in doc["cases"]:
            yield stem, case


def expected_of(case: dict[str, Any]) -> list[Triple]:
    return [(rule, key, field) for rule, key, field in case["violations"]]


def triples(result: Any) -> list[Triple]:
    return [(v.rule, v.key.value, v.field) for v in result.violations]


def primary_of(expected: list[Triple]) -> Triple:
    """The violation a response reports, by the api-contract's precedence.

    D-statuses: statuses the contract does not rank (500 for a broken response) come after
    those it ranks, lowest first; among equals, the first found.
    """

    def rank(triple: Triple) -> tuple[int, int]:
        status = STATUS_OF_KEY[triple[1]]
        return (PRECEDENCE.index(status), 0) if status in PRECEDENCE else (len(PRECEDENCE), status)

    return min(expected, key=rank)


def catalogue_ids() -> list[str]:
    return [info.id for info in catalogue()]


# Building the inputs


def build_payload(case: dict[str, Any]) -> object:
    if "payload" in case:
        return copy.deepcopy(case["payload"])
    members: dict[str, Any] = copy.deepcopy(case.get("set", {}))
    members.update(dict.fromkeys(case.get("drop", ()), DROP))
    return payload(case["base"], **members)


def build_directory(spec: dict[str, Any]) -> FakeDirectory:
    """A FakeDirectory; each key given replaces that default, each key omitted keeps it."""
    kwargs: dict[str, Any] = {}
    if "agents" in spec:
        kwargs["agents"] = set(spec["agents"])
    if "integrations" in spec:
        kwargs["integrations"] = {
            (agent, integration): kind for agent, integration, kind in spec["integrations"]
        }
    if "tags" in spec:
        kwargs["tags"] = set(spec["tags"])
    if "billing_reached" in spec:
        kwargs["billing_reached"] = spec["billing_reached"]
    return FakeDirectory(**kwargs)


def build_existing(update: dict[str, Any]) -> object:
    """The campaign an update case starts from: its value object, or its stored wire JSON."""
    if update.get("existing_stored"):  # as a server reads it back, unchecked (D-stored-campaign)
        return payload(update["existing_base"], **update.get("existing_set", {}))
    created = validate_create(payload(update["existing_base"], **update.get("existing_set", {})))
    assert created.ok, f"the existing campaign of an update case is invalid: {created.violations}"
    assert created.value is not None
    return created.value


def is_creation_case(case: dict[str, Any]) -> bool:
    """Whether the case builds a creation payload (`payload`, or `base` with `set` and `drop`)."""
    return "payload" in case or "base" in case


def case_status(text: str | None) -> CampaignStatus | str | None:
    """An update case's `status`: the `CampaignStatus` it names, or the text itself when none.

    A status that names no campaign status reaches the library as it is, so that cases can
    show `update.status_is_a_campaign_status` refusing it.
    """
    if text is None:
        return None
    return CampaignStatus(text) if text in set(CampaignStatus) else text


def run(case: dict[str, Any], directory: FakeDirectory | None) -> Any:
    """Run the case's validation with `directory`; also check it leaves its input unchanged."""
    if "update" in case:
        update = case["update"]
        existing = build_existing(update)
        patch = copy.deepcopy(update["patch"])
        before = copy.deepcopy(patch)
        status = case_status(update.get("status"))
        result = validate_update(existing, patch, status=status, directory=directory)
        assert patch == before, "validate_update changed the patch"
        return result
    body = build_payload(case)
    before = copy.deepcopy(body)
    result = validate_create(body, directory=directory)
    assert body == before, "validate_create changed the payload"
    return result


def text_data(text: dict[str, Any]) -> object:
    """The data of a `text` case as `validate_create_json` is given it."""
    (kind, value), *_ = text.items()
    if kind == "utf8":
        return value.encode("utf-8", "surrogatepass")
    if kind == "hex":
        return bytes.fromhex(value)
    if kind == "sized":
        body = payload("phone_call", description="")
        short = len(json.dumps(body).encode("utf-8"))
        return json.dumps({**body, "description": "d" * (value - short)}).encode("utf-8")
    return copy.deepcopy(value)  # "str", "value"


def run_text(case: dict[str, Any]) -> Any:
    """Run a `text` case's `validate_create_json`; also check it leaves its input unchanged."""
    data = text_data(case["text"])
    before = copy.deepcopy(data)
    result = validate_create_json(data)
    assert data == before, "validate_create_json changed its data"
    return result


def run_request(case: dict[str, Any]) -> Any:
    """Run a request or lifecycle case's check; also check it leaves its input unchanged."""
    source = next(name for name in REQUEST_SOURCES if name in case)
    given = copy.deepcopy(case[source])
    before = copy.deepcopy(given)
    if source == "contact_path":
        result = check_contact_path(given["id"], given["contact_id"])
    elif source == "thread_path":
        result = check_thread_path(given["id"])
    elif source == "idempotency_key":
        result = check_idempotency_key(given)
    elif source == "fingerprint":
        body = given["body"]
        result = request_fingerprint(
            body, method=given.get("method", "POST"), path=given.get("path", "/campaigns")
        )
    elif source == "idempotency":
        stored = given["stored"]
        if type(stored) is dict and set(stored) == RECORD_KEYS:
            stored = IdempotencyRecord(**stored)
        window = given.get("window_seconds", IDEMPOTENCY_WINDOW_SECONDS)
        result = decide_idempotency(
            stored, given["fingerprint"], given["now"], window_seconds=window
        )
    elif source == "rate":
        limiter = RateLimiter(burst=given.get("burst", RATE_LIMIT_BURST))
        for key, now in given.get("before", ()):
            limiter.acquire(key, now)
        result = limiter.acquire(given["key"], given["now"])
    else:
        billing = given.get("billing_limit_reached", False)
        result = check_transition(given["status"], given["action"], billing_limit_reached=billing)
    assert given == before, f"the {source} check changed its input"
    return result


def build_body(response: dict[str, Any]) -> Any:
    """The response body of a case: `body`, or a copy of `base` with `set` and `drop` applied."""
    if "body" in response:
        return copy.deepcopy(response["body"])
    value = copy.deepcopy(RESPONSE_BASES[response["base"]])
    for path, member in copy.deepcopy(response.get("set", {})).items():
        set_path(value, path, member)
    for path in response.get("drop", ()):
        drop_path(value, path)
    return value


def read_response(response: dict[str, Any]) -> ParseResult[Any]:
    """Read the case's body with its reader; also check it leaves the body unchanged."""
    value = build_body(response)
    before = copy.deepcopy(value)
    if response["parse"] == "error":
        result: ParseResult[Any] = parse_error(response["status"], value)
    else:
        result = READERS[response["parse"]](value)
    assert value == before, "the parser changed the body"
    return result
