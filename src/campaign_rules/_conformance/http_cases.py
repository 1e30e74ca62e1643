"""The kit's HTTP cases: what only a server decides, as sequences of requests and exact answers.

Credentials, 413, 415, an idempotent replay, a reused key, the rate, the lifecycle and the path
parameters (issue 39). Each case is a sequence of requests, each with the answer it must get:
the status, the headers that matter and the body, exactly, but for what varies from run to run
(an id, a time, a wait), which a matcher judges. The answers are the library's: each body is
what a check of the library gives for that request, over the seed's records (`http_seed`), and
tests/test_conformance_http.py proves them against the reference server. The format of a case
file is `http_format.CASE_SCHEMA`; docs/conformance-http.md explains it.
"""

from __future__ import annotations

import base64
import codecs
import datetime
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Protocol

from campaign_rules import CreateResult, ErrorKey, Violation, to_wire, validate_create_json
from campaign_rules._conformance.http_format import CASE_FORMAT, CASE_SCHEMA
from campaign_rules._conformance.http_seed import (
    ACME,
    CAMPAIGN_ID,
    CONTACT,
    CONTACT_ID,
    OVERDRAWN,
    THREAD,
    THREAD_ID,
    Organization,
    SeedDirectory,
)
from campaign_rules.idempotency import (
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
)
from campaign_rules.lifecycle import INITIAL_STATUS
from campaign_rules.rate import RATE_LIMIT_BURST, RateLimiter, RateResult
from campaign_rules.requests import (
    BODY_MAX_BYTES,
    AuthorizationResult,
    ContactPathResult,
    ThreadPathResult,
    check_contact_path,
    check_thread_path,
    parse_authorization,
)
from campaign_rules.responses import (
    CampaignDetail,
    parse_contact_response,
    parse_thread,
)

__all__ = ["UNKNOWN_KEY_MESSAGE", "schema", "sequences"]

JSON = object  # a JSON value, as `json.loads` gives it
Case = dict[str, JSON]

# The reference server's own words, where it answers from its records rather than a check
# (examples/server/app.py); compared only with --strict-messages.
UNKNOWN_KEY_MESSAGE: Final = "the API key is not known"
_NO_CAMPAIGN: Final = "no campaign has this id"
_NO_CONTACT: Final = "no contact has this id"
_NO_THREAD: Final = "no thread has this id"

_ACME_AGENT, _SURVEY_AGENT, _ORDERS_AGENT = ACME.agents
(_OVERDRAWN_AGENT,) = OVERDRAWN.agents
_CONTACT_PATH: Final = f"/campaigns/{CAMPAIGN_ID}/contacts/{CONTACT_ID}"
_THREAD_PATH: Final = f"/thread/{THREAD_ID}"
_JSON_TYPE: Final = ("Content-Type", "application/json")
# A rate case sends until the server refuses, at most this many: a server that answers each
# request in less than about 1/15 s meets the limit well within it (D-rate-limit).
_RATE_ATTEMPTS_MAX: Final = 60
_ID_RANGE: Final = [1, 2**53 - 1]  # D-path-ids: a campaign id

_PHONE: Final[Mapping[str, JSON]] = {
    "name": "Conformance: renovación 🌱",
    "agent_id": _ACME_AGENT,
    "integration_id": "int_voice_mx_01",
    "integration_type": "phone_call",
    "retries": 2,
    "first_message": "Hola, le llama Ana.",
    "scheduling": {"mon": {"startTime": "09:00", "stopTime": "18:00", "active": True}},
    "cycles": {
        "enabled": True,
        "mode": "cooldown",
        "max_iterations": 3,
        "cooldown_minutes": 120,
        "filter_statuses": ["answered"],
        "filter_tags": ["tag_do_not_call"],
    },
}
_WHATSAPP: Final[Mapping[str, JSON]] = {
    "name": "Conformance: pedidos",
    "agent_id": _ORDERS_AGENT,
    "integration_id": "int_wa_es_02",
    "integration_type": "whatsapp",
    "template": "order_update",
}
_OVERDRAWN_PHONE: Final[Mapping[str, JSON]] = {
    "name": "Conformance: overdrawn",
    "agent_id": _OVERDRAWN_AGENT,
    "integration_id": "int_voice_mx_01",
    "integration_type": "phone_call",
}


def sequences() -> list[Case]:
    """Every HTTP case of the kit as JSON data, a line of the kit's file, in the order they run."""
    return [
        _credentials_missing(),
        _credentials_malformed(),
        _credentials_accepted(),
        _credentials_unknown(),
        _media_type(),
        _body_size(),
        _body_bytes(),
        _idempotent_replay(),
        _idempotency_key_reused(),
        _idempotency_after_refusal(),
        _idempotency_key_malformed(),
        _idempotency_per_api_key(),
        _lifecycle_created(),
        _server_records(),
        _contact_path(),
        _thread_path(),
        _rate("contact", _CONTACT_PATH, ACME, _contact_ok(), _rate_refusal().envelope()),
        _rate("thread", _THREAD_PATH, ACME, _thread_ok(), _rate_refusal().thread_body()),
        _rate(
            "create",
            "/campaigns",
            OVERDRAWN,
            _refused(_judged(_OVERDRAWN_PHONE, OVERDRAWN)),
            _rate_refusal().envelope(),
            body=_text(_OVERDRAWN_PHONE),
        ),
    ]


# Credentials (spec 5, D-authorization, D-credentials-first)


def _credentials_missing() -> Case:
    missing = _answer(401, parse_authorization(None).body())
    steps = [
        _step(_get("contact", _CONTACT_PATH, key=None), missing),
        _step(_get("thread", _THREAD_PATH, key=None), missing),
        _step(_post(_text(_PHONE), key=None), missing),
    ]
    return _case(
        "http.credentials.missing",
        "Every operation without an Authorization header is a 401 with {error, message}.",
        "spec 5; D-authorization",
        steps,
    )


# Header values the server refuses, each with its reason (D-authorization).
_MALFORMED_AUTHORIZATIONS: Final = (
    f"Bearer {ACME.api_key}",
    "api-key",
    f"api-key\t{ACME.api_key}",
    "api-key acme demo key",
    f"api-keys {ACME.api_key}",
    f"api-key {'k' * 4096}",
)


def _credentials_malformed() -> Case:
    steps = [
        _step(
            _get("contact", _CONTACT_PATH, key=None, headers=[("Authorization", value)]),
            _answer(401, parse_authorization(value).body()),
        )
        for value in _MALFORMED_AUTHORIZATIONS
    ]
    return _case(
        "http.credentials.malformed",
        "An Authorization header not of the form `api-key <KEY>` is a 401 saying why.",
        "spec 5; D-authorization",
        steps,
    )


def _credentials_accepted() -> Case:
    spellings = (f"API-Key {ACME.api_key}", f"api-key   {ACME.api_key}")
    assert all(parse_authorization(value).value == ACME.api_key for value in spellings)
    steps = [
        _step(
            _get("contact", _CONTACT_PATH, key=None, headers=[("Authorization", value)]),
            _contact_ok(),
        )
        for value in spellings
    ]
    return _case(
        "http.credentials.accepted",
        "The scheme word in any ASCII case, and several spaces before the key, are accepted.",
        "spec 5; D-authorization",
        steps,
    )


def _credentials_unknown() -> Case:
    unknown = AuthorizationResult(value=None, message=UNKNOWN_KEY_MESSAGE)
    request = _get("contact", _CONTACT_PATH, key="nobody-issued-this-key")
    times = RATE_LIMIT_BURST + 3
    return _case(
        "http.credentials.unknown_key",
        f"A key nobody issued is a 401 however fast it comes: {times} at once, never a 429.",
        "spec 5; D-credentials-first",
        [_step(request, _answer(401, unknown.body()), repeat={"times": times}, paced=False)],
    )


# Reading the body (D-body-reading)

_MEDIA_TYPES_REFUSED: Final = (
    (),
    (("Content-Type", "text/plain"),),
    (("Content-Type", "application/json; charset=latin-1"),),
    (_JSON_TYPE, _JSON_TYPE),
)
_MEDIA_TYPES_ACCEPTED: Final = ("Application/JSON", 'application/json; charset="UTF-8"')


def _media_type() -> Case:
    text = _text(_WHATSAPP)
    refused = _body_refusal(
        415,
        "Content-Type",
        "the body must be declared Content-Type: application/json (with charset=utf-8 or no "
        "parameter)",
    )
    steps = [_step(_post(text, content_type=types), refused) for types in _MEDIA_TYPES_REFUSED]
    steps += [
        _step(_post(text, content_type=[("Content-Type", declared)]), _created(_WHATSAPP, ACME))
        for declared in _MEDIA_TYPES_ACCEPTED
    ]
    return _case(
        "http.body.media_type",
        "A body not declared as one `application/json` (UTF-8 if a charset is said) is a 415.",
        "spec 4.1; D-body-reading",
        steps,
    )


def _body_size() -> Case:
    text = _text(_WHATSAPP)
    too_large = _body_refusal(413, None, f"the body must be at most {BODY_MAX_BYTES:,} bytes")
    steps = [
        _step(_post(text, pad_to=BODY_MAX_BYTES + 1), too_large),
        _step(_post(text, pad_to=BODY_MAX_BYTES), _created(_WHATSAPP, ACME)),
    ]
    return _case(
        "http.body.size",
        f"A body of {BODY_MAX_BYTES} bytes is read and judged; one byte more is a 413, unread.",
        "D-body-reading, D-body-limits",
        steps,
    )


def _body_bytes() -> Case:
    text = _text(_WHATSAPP)
    bodies = (
        codecs.BOM_UTF8 + text.encode("utf-8"),
        text.encode("utf-16-le"),
        text.replace("pedidos", "pedidos \udcff").encode("utf-8", "surrogateescape"),
    )
    steps = [_step(_post(body), _refused(_judged_bytes(body, ACME))) for body in bodies]
    # A body with no JSON data has no fingerprint: a key changes nothing (D-body-reading).
    steps.append(
        _step(
            _post(bodies[-1], headers=[(_IDEMPOTENCY, "{{key}}")]),
            _refused(_judged_bytes(bodies[-1], ACME)),
        )
    )
    return _case(
        "http.body.bytes",
        "The body's bytes are judged as the library judges them: a byte order mark, UTF-16, "
        "a byte that is not UTF-8.",
        "D-body-reading, D-byte-order-mark",
        steps,
        fresh=["key"],
    )


# Idempotency-Key (spec 4.1 rule 2, D-idempotency-key, D-fingerprint, D-idempotency)

_IDEMPOTENCY: Final = "Idempotency-Key"


def _idempotent_replay() -> Case:
    key = [(_IDEMPOTENCY, "{{key}}")]
    first = _created(_PHONE, ACME, capture=True)
    replayed = _created(_PHONE, ACME, replay=True)
    steps = [
        _step(_post(_text(_PHONE), headers=key), first),
        _step(_post(_text(_PHONE), headers=key), replayed),
        # Another spelling of the same JSON data is the same request (D-fingerprint).
        _step(_post(_text(_PHONE, reordered=True), headers=key), replayed),
        # The campaign exists, once: its contacts are looked up (a contact it does not have).
        _step(
            _get("contact", "/campaigns/{{campaign_id}}/contacts/1"),
            _not_found(ErrorKey.CONTACT_NOT_FOUND, "contact_id", _NO_CONTACT),
        ),
    ]
    return _case(
        "http.idempotency.replay",
        "The same key with the same JSON data replays the first answer: the same campaign.",
        "spec 4.1 rule 2; D-fingerprint, D-idempotency",
        steps,
        fresh=["key"],
    )


def _idempotency_key_reused() -> Case:
    key = [(_IDEMPOTENCY, "{{key}}")]
    other = {**_PHONE, "retries": 3}
    reused = decide_idempotency(
        IdempotencyRecord("the first request", 201, None, 0), "another request", 0
    )
    steps = [
        _step(_post(_text(_PHONE), headers=key), _created(_PHONE, ACME)),
        _step(_post(_text(other), headers=key), _answer(reused.status, reused.envelope())),
    ]
    return _case(
        "http.idempotency.reused_key",
        "A key used before for other JSON data is refused, and nothing is created.",
        "spec 4.1 rule 2; D-idempotency",
        steps,
        fresh=["key"],
    )


def _idempotency_after_refusal() -> Case:
    key = [(_IDEMPOTENCY, "{{key}}")]
    wrong = {**_WHATSAPP, "retries": 9, "first_message": "Hola"}
    steps = [
        _step(_post(_text(wrong), headers=key), _refused(_judged(wrong, ACME))),
        _step(_post(_text(_WHATSAPP), headers=key), _created(_WHATSAPP, ACME, capture=True)),
        _step(_post(_text(_WHATSAPP), headers=key), _created(_WHATSAPP, ACME, replay=True)),
    ]
    return _case(
        "http.idempotency.after_refusal",
        "A 400 is not kept under its key: the corrected body may come with the same key.",
        "spec 4.1 rule 2; D-idempotency",
        steps,
        fresh=["key"],
    )


_MALFORMED_KEYS: Final = ("", "two words", "k" * 256)


def _idempotency_key_malformed() -> Case:
    steps = [
        _step(
            _post(_text(_WHATSAPP), headers=[(_IDEMPOTENCY, value)]),
            _refused(check_idempotency_key(value)),
        )
        for value in _MALFORMED_KEYS
    ]
    return _case(
        "http.idempotency.malformed_key",
        "An Idempotency-Key that is not 1 to 255 visible ASCII characters is a 400.",
        "spec 4.1; D-idempotency-key",
        steps,
    )


def _idempotency_per_api_key() -> Case:
    key = [(_IDEMPOTENCY, "{{key}}")]
    steps = [
        _step(_post(_text(_WHATSAPP), headers=key), _created(_WHATSAPP, ACME)),
        _step(
            _post(_text(_OVERDRAWN_PHONE), key=OVERDRAWN.api_key, headers=key),
            _refused(_judged(_OVERDRAWN_PHONE, OVERDRAWN)),
        ),
    ]
    return _case(
        "http.idempotency.per_api_key",
        "An Idempotency-Key is the client's own: another API key's use of it is no reuse.",
        "spec 4.1 rule 2; D-idempotency",
        steps,
        fresh=["key"],
    )


# The lifecycle a client sees (D-lifecycle): a created campaign's status, and who sees it


def _lifecycle_created() -> Case:
    steps = [
        _step(_post(_text(_PHONE)), _created(_PHONE, ACME, capture=True)),
        _step(
            _get("contact", "/campaigns/{{campaign_id}}/contacts/1"),
            _not_found(ErrorKey.CONTACT_NOT_FOUND, "contact_id", _NO_CONTACT),
        ),
        # Another organization does not have the campaign.
        _step(
            _get("contact", "/campaigns/{{campaign_id}}/contacts/1", key=OVERDRAWN.api_key),
            _not_found(ErrorKey.NOT_FOUND, "id", _NO_CAMPAIGN),
        ),
        _step(_post(_text(_WHATSAPP)), _created(_WHATSAPP, ACME)),
    ]
    return _case(
        "http.lifecycle.created",
        f"A created campaign is `{INITIAL_STATUS.value}`, has an id of its own, and only its "
        "organization finds it.",
        "spec 2.2, 3, 4.1; D-lifecycle",
        steps,
    )


def _server_records() -> Case:
    strange_agent = {**_PHONE, "agent_id": _OVERDRAWN_AGENT}
    steps = [
        _step(
            _post(_text(_OVERDRAWN_PHONE), key=OVERDRAWN.api_key),
            _refused(_judged(_OVERDRAWN_PHONE, OVERDRAWN)),
        ),
        _step(_post(_text(strange_agent)), _refused(_judged(strange_agent, ACME))),
    ]
    return _case(
        "http.records.organization",
        "The look-ups read the organization's own records: its billing, its agents.",
        "spec 4.1 rules 3 and 4; D-look-ups",
        steps,
    )


# Path parameters (D-path-ids, D-thread-id)

_CONTACT_PATHS: Final = (
    ("0", str(CONTACT_ID)),
    ("0042", str(CONTACT_ID)),
    (str(CAMPAIGN_ID), "0"),
    (str(CAMPAIGN_ID), "+17"),
    ("abc", "x"),
    (str(2**53), str(CONTACT_ID)),
)


def _contact_path() -> Case:
    steps = [
        _step(
            _get("contact", f"/campaigns/{campaign}/contacts/{contact}"),
            _refused(check_contact_path(campaign, contact)),
        )
        for campaign, contact in _CONTACT_PATHS
    ]
    steps += [
        _step(
            _get("contact", f"/campaigns/99999/contacts/{CONTACT_ID}"),
            _not_found(ErrorKey.NOT_FOUND, "id", _NO_CAMPAIGN),
        ),
        _step(
            _get("contact", f"/campaigns/{CAMPAIGN_ID}/contacts/99"),
            _not_found(ErrorKey.CONTACT_NOT_FOUND, "contact_id", _NO_CONTACT),
        ),
        _step(_get("contact", _CONTACT_PATH), _contact_ok()),
    ]
    return _case(
        "http.paths.contact",
        "A campaign or contact id that is not a plain positive integer, or that names no "
        "record of the organization, is its 404.",
        "spec 4.2; D-path-ids",
        steps,
    )


# Thread ids as sent in the path, and as the server reads them (percent-decoded).
_THREAD_PATHS: Final = (("a%20b", "a b"), ("t" * 129, "t" * 129), ("th%2F1", "th/1"))


def _thread_path() -> Case:
    steps = [
        _step(_get("thread", f"/thread/{sent}"), _refused(check_thread_path(read)))
        for sent, read in _THREAD_PATHS
    ]
    steps += [
        _step(_get("thread", "/thread/th_000000"), _no_thread()),
        _step(_get("thread", _THREAD_PATH), _thread_ok()),
    ]
    return _case(
        "http.paths.thread",
        "A thread id that is not URL-safe text, or names no thread, is a 404 {error, message}.",
        "spec 4.3, 7.4; D-thread-id",
        steps,
    )


# The rate (spec 4.2, 8; D-rate-limit, D-rate-scope)


def _rate(
    operation: str,
    path: str,
    organization: Organization,
    allowed: Case,
    refused_body: JSON,
    *,
    body: str | None = None,
) -> Case:
    """Requests of one operation sent at once until a 429: at least the burst is allowed."""
    method = "GET" if body is None else "POST"
    request = _request(
        operation,
        method,
        path,
        key=organization.api_key,
        headers=[_JSON_TYPE] if body is not None else [],
        body=body,
    )
    refusal = _rate_refusal()
    wait = int(refusal.headers()["Retry-After"])
    limited = _answer(429, refused_body, headers=[{"name": "Retry-After", "integer": [1, wait]}])
    repeat = {"at_least": RATE_LIMIT_BURST, "at_most": _RATE_ATTEMPTS_MAX, "until": limited}
    steps = [_step(request, allowed, repeat=repeat, paced=False)]
    if operation != "thread":
        # Each operation has a budget of its own (D-rate-scope): a thread is answered, or is
        # not found for an organization that has none, rather than limited.
        thread = _thread_ok() if THREAD_ID in organization.threads else _no_thread()
        steps.append(_step(_get("thread", _THREAD_PATH, key=organization.api_key), thread))
    return _case(
        f"http.rate.{operation}",
        f"At least {RATE_LIMIT_BURST} requests at once are allowed, then a 429 with "
        "Retry-After; the other operations' budgets are untouched.",
        "spec 4.2, 8; D-rate-limit, D-rate-scope",
        steps,
    )


def _rate_refusal() -> RateResult:
    """The refusal of the first request past a whole burst, at the same moment."""
    limiter = RateLimiter()
    for _ in range(RATE_LIMIT_BURST):
        limiter.acquire("key", 0)
    return limiter.acquire("key", 0)


# The answers, from the library's checks


def _contact_ok() -> Case:
    contact = parse_contact_response({"success": True, "contact": dict(CONTACT)}).value
    assert contact is not None, "the seed's contact must be a valid one"
    return _answer(200, {"success": True, "contact": to_wire(contact)})


def _thread_ok() -> Case:
    thread = parse_thread(dict(THREAD)).value
    assert thread is not None, "the seed's thread must be a valid one"
    return _answer(200, to_wire(thread))


def _judged(body: Mapping[str, JSON], organization: Organization) -> CreateResult:
    """What the library says of `body` sent by `organization`, over its records."""
    return _judged_bytes(_text(body).encode("utf-8"), organization)


def _judged_bytes(body: bytes, organization: Organization) -> CreateResult:
    return validate_create_json(body, directory=SeedDirectory(organization))


def _created(
    body: Mapping[str, JSON],
    organization: Organization,
    *,
    capture: bool = False,
    replay: bool = False,
) -> Case:
    """The 201 of `body`: its id and time matched, captured or equal to those captured."""
    result = _judged(body, organization)
    assert result.value is not None, "a body the cases create must be valid"
    agent = organization.agents[result.value.agent_id]
    detail = CampaignDetail.from_create(
        result.value,
        id=1,
        status=INITIAL_STATUS,
        created_at=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC),
        agent_name=agent.name,
    )
    wire = to_wire(detail)
    wire["id"] = wire["created_at"] = None  # judged by the matchers
    id_matcher: dict[str, JSON] = {"pointer": "/campaign/id"}
    time_matcher: dict[str, JSON] = {"pointer": "/campaign/created_at"}
    if replay:
        id_matcher["captured"], time_matcher["captured"] = "campaign_id", "created_at"
    else:
        id_matcher["integer"], time_matcher["date_time"] = _ID_RANGE, True
        if capture:
            id_matcher["capture"], time_matcher["capture"] = "campaign_id", "created_at"
    return _answer(
        result.status, {"success": True, "campaign": wire}, matchers=[id_matcher, time_matcher]
    )


class _Refusal(Protocol):
    """A check's result that refuses: its status and the body the server sends."""

    @property
    def status(self) -> int: ...

    def envelope(self) -> dict[str, object] | None: ...


def _refused(result: _Refusal) -> Case:
    """The error answer of a check's result: its status and its envelope."""
    assert result.status >= 400, "a refusal the cases expect must refuse"
    return _answer(result.status, result.envelope())


def _body_refusal(status: int, field: str | None, message: str) -> Case:
    """A body refused unread (D-body-reading): the envelope of spec 7.1, INVALID_REQUEST."""
    violation = Violation(ErrorKey.INVALID_REQUEST, field, message, "server.body")
    return _answer(status, CreateResult(value=None, violations=(violation,)).envelope())


def _not_found(key: ErrorKey, field: str, message: str) -> Case:
    """A record the server does not have: the library's status and envelope of `key`."""
    violation = Violation(key, field, message, "server.record_exists")
    return _refused(ContactPathResult(value=None, violations=(violation,)))


def _no_thread() -> Case:
    """A thread the server does not have: the thread error body (spec 7.4, D-thread-id)."""
    violation = Violation(ErrorKey.NOT_FOUND, "id", _NO_THREAD, "server.record_exists")
    return _refused(ThreadPathResult(value=None, violations=(violation,)))


# The pieces of a case file (http_format.CASE_SCHEMA)


def _case(
    case_id: str, title: str, cites: str, steps: list[Case], *, fresh: Sequence[str] = ()
) -> Case:
    return {
        "format": CASE_FORMAT,
        "id": case_id,
        "title": title,
        "cites": cites,
        "fresh": list(fresh),
        "steps": steps,
    }


def _step(
    request: Case, expect: Case, *, repeat: Mapping[str, JSON] | None = None, paced: bool = True
) -> Case:
    step: Case = {"request": request, "expect": expect}
    if repeat is not None:
        step["repeat"] = dict(repeat)
    if not paced:
        step["paced"] = False
    return step


def _request(
    operation: str,
    method: str,
    path: str,
    *,
    key: str | None,
    headers: Iterable[tuple[str, str]],
    body: str | bytes | None,
    pad_to: int | None = None,
) -> Case:
    sent = [] if key is None else [["Authorization", f"api-key {key}"]]
    sent += [[name, value] for name, value in headers]
    request: Case = {
        "operation": operation,
        "method": method,
        "path": path,
        "headers": sent,
        "body": _body(body),
    }
    if pad_to is not None:
        request["pad_to"] = pad_to
    return request


def _body(body: str | bytes | None) -> JSON:
    """A body as a case holds it: its text, or its base64 when it is not UTF-8 text."""
    if isinstance(body, bytes):
        try:
            return {"text": body.decode("utf-8")}
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(body).decode("ascii")}
    return None if body is None else {"text": body}


def _get(
    operation: str,
    path: str,
    *,
    key: str | None = ACME.api_key,
    headers: Iterable[tuple[str, str]] = (),
) -> Case:
    return _request(operation, "GET", path, key=key, headers=headers, body=None)


def _post(
    text: str | bytes,
    *,
    key: str | None = ACME.api_key,
    headers: Iterable[tuple[str, str]] = (),
    content_type: Iterable[tuple[str, str]] = (_JSON_TYPE,),
    pad_to: int | None = None,
) -> Case:
    return _request(
        "create",
        "POST",
        "/campaigns",
        key=key,
        headers=[*content_type, *headers],
        body=text,
        pad_to=pad_to,
    )


def _answer(
    status: int,
    body: JSON,
    *,
    headers: Sequence[Mapping[str, JSON]] = (),
    matchers: Sequence[Mapping[str, JSON]] = (),
) -> Case:
    answer: Case = {"status": status, "body": body}
    if headers:
        answer["headers"] = [dict(header) for header in headers]
    if matchers:
        answer["matchers"] = [dict(matcher) for matcher in matchers]
    return answer


def _text(body: Mapping[str, JSON], *, reordered: bool = False) -> str:
    """A body as the JSON text sent; `reordered`: its members backwards, with other spacing."""
    if reordered:
        return json.dumps(dict(reversed(list(body.items()))), ensure_ascii=True, indent=1)
    return json.dumps(body, ensure_ascii=False)


def schema() -> dict[str, object]:
    """The JSON Schema of one HTTP case, a line of the kit's HTTP cases file."""
    return dict(CASE_SCHEMA)
