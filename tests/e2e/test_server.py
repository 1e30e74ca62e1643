"""End to end: the reference server over HTTP and a real SQLite file, driven by the reference SDK
and by raw httpx requests (issue 7). Every expectation is the spec's; the server and the SDK get
their answers from the library, and these tests check that the answers arrive intact.
"""

from __future__ import annotations

import copy
import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from examples.sdk import CampaignClient
from examples.server import seed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_rules import CampaignStatus, ErrorKey, validate_create, validate_create_json
from campaign_rules._core.limits import NAME_MAX_LENGTH, RATE_LIMIT_BURST, RETRIES
from campaign_rules.responses import (
    ApiError,
    CampaignContact,
    CampaignDetail,
    CredentialsError,
    Thread,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import openapi
from campaign_rules.strategies import create_payloads, invalid_create_payloads
from tests.e2e.support import Server, whatsapp_body

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BURST = RATE_LIMIT_BURST  # the server's clock is frozen, so no refill


def phone_body(**changes: Any) -> dict[str, Any]:
    """`examples/phone_call.json` (Acme's agent and phone integration), with a unique name."""
    body: dict[str, Any] = json.loads((EXAMPLES / "phone_call.json").read_text(encoding="utf-8"))
    body["name"] = f"e2e {uuid.uuid4()}"
    body["cycles"]["filter_tags"] = ["tag_do_not_call"]  # a tag Acme has
    return body | changes


def post(
    http: httpx.Client,
    server: Server,
    body: object,
    *,
    api_key: str | None,
    idempotency_key: str | None = None,
    content: bytes | None = None,
) -> httpx.Response:
    headers = {} if api_key is None else {"Authorization": f"api-key {api_key}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    data = json.dumps(body).encode() if content is None else content
    headers["Content-Type"] = "application/json"
    return http.post(f"{server.base_url}/campaigns", content=data, headers=headers)


def campaigns_named(server: Server, name: str) -> list[tuple[object, ...]]:
    return server.query(
        "SELECT id, status, campaign FROM campaigns WHERE json_extract(campaign, '$.name') = ?",
        name,
    )


# A valid create


def test_create_answers_201_with_the_detail_and_stores_a_pending_campaign(
    server: Server, http: httpx.Client
) -> None:
    body = phone_body()
    response = post(http, server, body, api_key=server.new_key())

    assert response.status_code == 201
    wire = response.json()
    assert wire["success"] is True
    assert "filter_tags" not in wire["campaign"]["cycles"]  # input only (spec 2.2)
    assert wire["campaign"]["status"] == "pending"
    detail = parse_create_response(wire).value
    assert isinstance(detail, CampaignDetail)
    campaign = validate_create(body).value
    assert campaign is not None
    assert detail == CampaignDetail.from_create(
        campaign,
        id=detail.id,
        status=CampaignStatus.PENDING,
        created_at=detail.created_at,
        agent_name=seed.ACME_AGENT_NAME,
    )
    [(row_id, status, stored)] = campaigns_named(server, body["name"])
    assert (row_id, status) == (detail.id, "pending")
    assert json.loads(str(stored))["cycles"]["filter_tags"] == ["tag_do_not_call"]


def test_the_sdk_creates_and_reads_the_detail_into_a_value_object(
    server: Server, http: httpx.Client
) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)
    body = whatsapp_body()

    reply = client.create_campaign(body)

    assert (reply.sent, reply.status, reply.error, reply.violations) == (True, 201, None, ())
    assert isinstance(reply.value, CampaignDetail)
    assert reply.value.name == body["name"]
    assert reply.value.status is CampaignStatus.PENDING
    assert reply.value.agent.name == seed.ACME_AGENT_NAME
    assert reply.idempotency_key is not None
    assert str(uuid.UUID(reply.idempotency_key)) == reply.idempotency_key
    assert len(campaigns_named(server, body["name"])) == 1


def test_the_sdk_sends_nothing_the_library_refuses_offline(
    server: Server, http: httpx.Client
) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)
    body = whatsapp_body(first_message="Hola")  # a phone_call field on WhatsApp

    reply = client.create_campaign(body)

    assert (reply.sent, reply.status, reply.value) == (False, None, None)
    assert [(v.key, v.field) for v in reply.violations] == [
        (ErrorKey.INVALID_REQUEST, "first_message")
    ]
    assert campaigns_named(server, body["name"]) == []


def test_the_sdk_sends_no_body_that_json_cannot_hold(server: Server, http: httpx.Client) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)
    body = whatsapp_body(cycles={"enabled": False, "ignored": float("nan")})
    assert validate_create(body).ok  # a disabled cycles block is not read (spec 2.4)

    reply = client.create_campaign(body)

    assert (reply.sent, [v.key for v in reply.violations]) == (False, [ErrorKey.INVALID_REQUEST])
    assert campaigns_named(server, body["name"]) == []


# Spec 7.3: 400, 401, 402 and 404


BAD_BODIES = {
    "channel field on the wrong channel": (
        whatsapp_body(first_message="Hola"),
        ErrorKey.INVALID_REQUEST,
        "first_message",
    ),
    "unsupported integration type": (
        phone_body(integration_type="sms"),
        ErrorKey.INVALID_INTEGRATION_TYPE,
        "integration_type",
    ),
    "name too long": (
        phone_body(name="x" * (NAME_MAX_LENGTH + 1)),
        ErrorKey.INVALID_REQUEST,
        "name",
    ),
    "retries out of range": (
        phone_body(retries=RETRIES.high + 1),
        ErrorKey.INVALID_REQUEST,
        "retries",
    ),
    "unknown filter tag": (
        phone_body(
            cycles={
                "enabled": True,
                "mode": "cooldown",
                "max_iterations": 2,
                "cooldown_minutes": 0,
                "filter_tags": ["tag_nobody_has"],
            }
        ),
        ErrorKey.INVALID_FILTER_TAG,
        "cycles.filter_tags[0]",
    ),
}


@pytest.mark.parametrize(("body", "key", "field"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_an_invalid_body_is_400_with_the_envelope(
    server: Server, http: httpx.Client, body: dict[str, Any], key: ErrorKey, field: str
) -> None:
    response = post(http, server, body, api_key=server.new_key())

    assert response.status_code == 400
    error = parse_error(400, response.json()).value
    assert isinstance(error, ApiError)
    assert (error.success, error.error, error.field) == (False, key, field)
    assert campaigns_named(server, body["name"]) == []


def test_a_body_that_is_not_json_is_400(server: Server, http: httpx.Client) -> None:
    response = post(http, server, None, api_key=server.new_key(), content=b'{"name": ')

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"
    assert parse_error(400, response.json()).ok
    # A whole sentence of the library's, not the decoder's (issue 37).
    assert response.json()["message"] == (
        "the request body must be JSON: it ends before its value is complete"
    )


def test_an_integer_no_double_holds_is_400_at_its_member(
    server: Server, http: httpx.Client
) -> None:
    # More digits than Python converts: a number, refused as one, in the library's words.
    content = b'{"name": "x", "retries": ' + b"9" * 5000 + b"}"
    response = post(http, server, None, api_key=server.new_key(), content=content)

    assert response.status_code == 400
    assert (response.json()["error"], response.json()["field"]) == ("INVALID_REQUEST", "retries")
    assert response.json()["message"] == "retries must be a number an IEEE double holds"


def test_a_malformed_idempotency_key_is_400(server: Server, http: httpx.Client) -> None:
    body = phone_body()
    response = post(http, server, body, api_key=server.new_key(), idempotency_key="two words")

    assert response.status_code == 400
    assert (response.json()["error"], response.json()["field"]) == (
        "INVALID_REQUEST",
        "Idempotency-Key",
    )
    assert campaigns_named(server, body["name"]) == []


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer acme-demo-key", "api-key", "api-key two words", "api-key nobody-issued-this"],
)
def test_without_valid_credentials_it_is_401_with_the_credentials_body(
    server: Server, http: httpx.Client, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    body = phone_body()
    response = http.post(f"{server.base_url}/campaigns", json=body, headers=headers)

    assert response.status_code == 401
    error = parse_error(401, response.json()).value
    assert isinstance(error, CredentialsError)
    assert error.error == 401
    assert set(response.json()) == {"error", "message"}
    assert campaigns_named(server, body["name"]) == []


def test_when_the_billing_limit_is_reached_it_is_402(server: Server, http: httpx.Client) -> None:
    client = CampaignClient(server.base_url, server.new_key(seed.OVERDRAWN), http=http)
    body = phone_body(agent_id=seed.OVERDRAWN_AGENT)
    del body["cycles"]  # Overdrawn has no tags

    reply = client.create_campaign(body)

    assert (reply.status, reply.value) == (402, None)
    assert isinstance(reply.error, ApiError)
    assert reply.error.error is ErrorKey.BILLING_LIMIT_REACHED
    assert campaigns_named(server, body["name"]) == []


NOT_FOUND = {
    "agent nobody has": (
        {"agent_id": str(uuid.UUID(int=1, version=4))},
        ErrorKey.AGENT_NOT_FOUND,
        "agent_id",
    ),
    "agent of another organization": (
        {"agent_id": seed.OVERDRAWN_AGENT},
        ErrorKey.AGENT_NOT_FOUND,
        "agent_id",
    ),
    "integration the agent lacks": (
        {"integration_id": "int_nobody_has"},
        ErrorKey.INTEGRATION_NOT_FOUND,
        "integration_id",
    ),
}


@pytest.mark.parametrize(("changes", "key", "field"), NOT_FOUND.values(), ids=NOT_FOUND.keys())
def test_unknown_records_are_404(
    server: Server, http: httpx.Client, changes: dict[str, str], key: ErrorKey, field: str
) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)
    body = phone_body(**changes)

    reply = client.create_campaign(body)

    assert (reply.sent, reply.status, reply.value) == (True, 404, None)
    assert isinstance(reply.error, ApiError)
    assert (reply.error.error, reply.error.field) == (key, field)
    assert campaigns_named(server, body["name"]) == []


# Idempotency (spec 4.1 rule 2, D-idempotency)


def test_a_replay_answers_the_same_response_and_creates_one_campaign(
    server: Server, http: httpx.Client
) -> None:
    api_key, idempotency_key, body = server.new_key(), str(uuid.uuid4()), phone_body()

    first = post(http, server, body, api_key=api_key, idempotency_key=idempotency_key)
    # The same JSON data, spelled differently, is the same request (D-fingerprint).
    respelled = json.dumps(dict(reversed(body.items())), indent=2).encode()
    second = post(
        http, server, None, api_key=api_key, idempotency_key=idempotency_key, content=respelled
    )

    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert len(campaigns_named(server, body["name"])) == 1


def test_concurrent_first_requests_with_one_key_create_one_campaign(
    server: Server, http: httpx.Client
) -> None:
    api_key, idempotency_key, body = server.new_key(), str(uuid.uuid4()), phone_body()

    def send(_: int) -> httpx.Response:
        return post(http, server, body, api_key=api_key, idempotency_key=idempotency_key)

    with ThreadPoolExecutor(max_workers=6) as pool:
        responses = list(pool.map(send, range(6)))

    assert {response.status_code for response in responses} == {201}
    assert len({response.content for response in responses}) == 1
    assert len(campaigns_named(server, body["name"])) == 1


def test_the_sdk_retries_with_the_key_of_its_first_reply(
    server: Server, http: httpx.Client
) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)
    body = whatsapp_body()

    first = client.create_campaign(body)
    again = client.create_campaign(body, idempotency_key=first.idempotency_key)

    assert first.status == again.status == 201
    assert again.value == first.value
    assert again.idempotency_key == first.idempotency_key
    assert len(campaigns_named(server, body["name"])) == 1


def test_a_key_reused_with_another_body_is_400(server: Server, http: httpx.Client) -> None:
    api_key, idempotency_key = server.new_key(), str(uuid.uuid4())
    first_body, other_body = phone_body(), phone_body()

    first = post(http, server, first_body, api_key=api_key, idempotency_key=idempotency_key)
    other = post(http, server, other_body, api_key=api_key, idempotency_key=idempotency_key)

    assert first.status_code == 201
    assert other.status_code == 400
    error = parse_error(400, other.json()).value
    assert isinstance(error, ApiError)
    assert (error.error, error.field) == (ErrorKey.INVALID_REQUEST, "Idempotency-Key")
    assert len(campaigns_named(server, first_body["name"])) == 1
    assert campaigns_named(server, other_body["name"]) == []


def test_a_404_is_stored_and_replayed_even_after_the_record_appears(
    server: Server, http: httpx.Client
) -> None:
    api_key, idempotency_key = server.new_key(), str(uuid.uuid4())
    integration = f"int_{uuid.uuid4().hex}"
    body = phone_body(integration_id=integration)

    first = post(http, server, body, api_key=api_key, idempotency_key=idempotency_key)
    server.execute(
        "INSERT INTO integrations (agent_id, id, type) VALUES (?, ?, 'phone_call')",
        seed.ACME_AGENT,
        integration,
    )
    replayed = post(http, server, body, api_key=api_key, idempotency_key=idempotency_key)
    fresh = post(http, server, body, api_key=api_key, idempotency_key=str(uuid.uuid4()))

    assert (first.status_code, replayed.status_code, fresh.status_code) == (404, 404, 201)
    assert replayed.json() == first.json()
    assert len(campaigns_named(server, body["name"])) == 1


def test_a_400_is_not_stored_so_the_fixed_body_may_reuse_the_key(
    server: Server, http: httpx.Client
) -> None:
    api_key, idempotency_key = server.new_key(), str(uuid.uuid4())
    fixed = phone_body()
    broken = fixed | {"retries": 99}

    refused = post(http, server, broken, api_key=api_key, idempotency_key=idempotency_key)
    created = post(http, server, fixed, api_key=api_key, idempotency_key=idempotency_key)

    assert (refused.status_code, created.status_code) == (400, 201)
    assert len(campaigns_named(server, fixed["name"])) == 1


def test_one_clients_key_never_replays_anothers(server: Server, http: httpx.Client) -> None:
    idempotency_key = str(uuid.uuid4())
    first_body, other_body = phone_body(), phone_body()

    first = post(
        http, server, first_body, api_key=server.new_key(), idempotency_key=idempotency_key
    )
    other = post(
        http, server, other_body, api_key=server.new_key(), idempotency_key=idempotency_key
    )

    assert (first.status_code, other.status_code) == (201, 201)
    assert first.json()["campaign"]["id"] != other.json()["campaign"]["id"]


# The rate: 12 requests per second per API key, per operation (spec 8, D-rate-scope)


def _create(http: httpx.Client, server: Server, api_key: str) -> httpx.Response:
    return post(http, server, phone_body(), api_key=api_key)


def _contact(http: httpx.Client, server: Server, api_key: str) -> httpx.Response:
    url = f"{server.base_url}/campaigns/{seed.CAMPAIGN_ID}/contacts/{seed.CONTACT_ID}"
    return http.get(url, headers={"Authorization": f"api-key {api_key}"})


def _thread(http: httpx.Client, server: Server, api_key: str) -> httpx.Response:
    url = f"{server.base_url}/thread/{seed.THREAD_ID}"
    return http.get(url, headers={"Authorization": f"api-key {api_key}"})


OPERATIONS = {"create": (_create, 201), "contact": (_contact, 200), "thread": (_thread, 200)}


@pytest.mark.parametrize(("send", "success"), OPERATIONS.values(), ids=OPERATIONS.keys())
def test_the_thirteenth_request_inside_one_second_is_429(
    server: Server, http: httpx.Client, send: Any, success: int
) -> None:
    api_key = server.new_key()

    statuses = [send(http, server, api_key).status_code for _ in range(BURST)]
    refused = send(http, server, api_key)

    assert statuses == [success] * BURST
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    error = parse_error(429, refused.json()).value
    assert error is not None
    if isinstance(error, ApiError):
        assert error.error is ErrorKey.RATE_LIMITED
    else:  # the thread operation answers in its own body shape (spec 7.4, D-thread-id)
        assert error.error == 429
    # Another key, and another operation of the same key, have budgets of their own.
    assert send(http, server, server.new_key()).status_code == success
    other = _thread if send is not _thread else _contact
    assert other(http, server, api_key).status_code == 200


def test_the_sdk_paces_itself_with_the_librarys_limiter(server: Server, http: httpx.Client) -> None:
    now = [0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += round(seconds * 1e9)

    client = CampaignClient(
        server.base_url, server.new_key(), clock=lambda: now[0], sleep=sleep, http=http
    )
    # D-sdk-pacing: one request of burst, and 0.1 % of rate, inside the server's budget.
    replies = [client.get_thread(seed.THREAD_ID) for _ in range(BURST - 1)]
    assert slept == []
    assert all(reply.ok for reply in replies)

    client.get_thread(seed.THREAD_ID)

    # The 12th waited one emission interval, 1.001/12 s, rounded up to the nanosecond.
    assert slept == [0.083416667]


# Reading a contact and a thread


def test_the_sdk_reads_a_contact(server: Server, http: httpx.Client) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)

    reply = client.get_contact(seed.CAMPAIGN_ID, seed.CONTACT_ID)

    assert reply.status == 200
    assert isinstance(reply.value, CampaignContact)
    expected = parse_contact_response({"success": True, "contact": seed.CONTACT}).value
    assert reply.value == expected
    assert reply.value.extracted_data == {"renewal": "yes", "preferred_time": "mornings"}


CONTACT_MISSES = {
    "no such contact": (seed.CAMPAIGN_ID, 18, seed.ACME, ErrorKey.CONTACT_NOT_FOUND),
    "no such campaign": (999_999, seed.CONTACT_ID, seed.ACME, ErrorKey.NOT_FOUND),
    "another organization's campaign": (
        seed.CAMPAIGN_ID,
        seed.CONTACT_ID,
        seed.OVERDRAWN,
        ErrorKey.NOT_FOUND,
    ),
}


@pytest.mark.parametrize(
    ("campaign", "contact", "organization", "key"),
    CONTACT_MISSES.values(),
    ids=CONTACT_MISSES.keys(),
)
def test_a_contact_not_found_is_404(
    server: Server,
    http: httpx.Client,
    campaign: int,
    contact: int,
    organization: int,
    key: ErrorKey,
) -> None:
    client = CampaignClient(server.base_url, server.new_key(organization), http=http)

    reply = client.get_contact(campaign, contact)

    assert (reply.status, reply.value) == (404, None)
    assert isinstance(reply.error, ApiError)
    assert reply.error.error is key


def test_a_malformed_contact_path_is_404_and_the_sdk_does_not_send_it(
    server: Server, http: httpx.Client
) -> None:
    api_key = server.new_key()
    response = http.get(
        f"{server.base_url}/campaigns/007/contacts/{seed.CONTACT_ID}",
        headers={"Authorization": f"api-key {api_key}"},
    )
    reply = CampaignClient(server.base_url, api_key, http=http).get_contact("007", seed.CONTACT_ID)

    assert response.status_code == 404
    assert (response.json()["error"], response.json()["field"]) == ("NOT_FOUND", "id")
    assert (reply.sent, [v.key for v in reply.violations]) == (False, [ErrorKey.NOT_FOUND])


def test_the_sdk_reads_a_thread(server: Server, http: httpx.Client) -> None:
    client = CampaignClient(server.base_url, server.new_key(), http=http)

    reply = client.get_thread(seed.THREAD_ID)

    assert reply.status == 200
    assert isinstance(reply.value, Thread)
    assert reply.value == parse_thread(seed.THREAD).value
    assert [tag.name for tag in reply.value.tags] == ["VIP"]


@pytest.mark.parametrize("thread_id", ["th_nobody_has", "a%20b"])
def test_a_thread_not_found_is_404_with_the_thread_error_body(
    server: Server, http: httpx.Client, thread_id: str
) -> None:
    response = http.get(
        f"{server.base_url}/thread/{thread_id}",
        headers={"Authorization": f"api-key {server.new_key()}"},
    )

    assert response.status_code == 404
    assert set(response.json()) == {"error", "message"}
    assert response.json()["error"] == 404


# The offline verdict against the server's, for generated payloads


def _on_seeded_records(payload: dict[str, Any]) -> dict[str, Any]:
    """A valid payload pointed at Acme's agent, integration and tags, so all look-ups pass."""
    moved = copy.deepcopy(payload)
    moved["agent_id"] = seed.ACME_AGENT
    whatsapp = moved["integration_type"] == "whatsapp"
    moved["integration_id"] = seed.WHATSAPP_INTEGRATION if whatsapp else seed.PHONE_INTEGRATION
    cycles = moved.get("cycles")
    if isinstance(cycles, dict) and cycles.get("enabled") is True and "filter_tags" in cycles:
        cycles["filter_tags"] = list(seed.TAGS[: len(cycles["filter_tags"])])
    return moved


class KeyRing:
    """Fresh API keys, each used for at most the burst of 12 creates."""

    def __init__(self, server: Server, http: httpx.Client) -> None:
        self.server, self.http = server, http
        self.client = CampaignClient(server.base_url, server.new_key(), http=http)
        self.uses = 0

    def next_client(self) -> CampaignClient:
        if self.uses == BURST:
            self.client = CampaignClient(
                self.server.base_url, self.server.new_key(), http=self.http
            )
            self.uses = 0
        self.uses += 1
        return self.client


@pytest.fixture(scope="module")
def key_ring(server: Server, http: httpx.Client) -> KeyRing:
    return KeyRing(server, http)


generated = st.one_of(
    create_payloads(json_only=True).map(lambda payload: (_on_seeded_records(payload), True)),
    invalid_create_payloads(json_only=True).map(lambda case: (case[0], False)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=generated)
def test_the_sdk_never_says_ok_where_the_server_says_400(
    server: Server, http: httpx.Client, key_ring: KeyRing, case: tuple[Any, bool]
) -> None:
    payload, valid = case
    client = key_ring.next_client()

    reply = client.create_campaign(payload)

    if reply.sent:
        assert valid
        assert reply.status == 201, reply.error  # never 400: every look-up passes here
        return
    assert not valid
    # The server reads the bytes sent, strictly: an integer past a double is refused as such,
    # where `validate_create` of the Python value reads it as a number (D-body-limits).
    offline = validate_create_json(json.dumps(payload).encode())
    response = post(http, server, payload, api_key=client.api_key)
    assert response.status_code == 400
    assert response.json() == offline.envelope()


python_values = st.one_of(
    create_payloads().map(_on_seeded_records),
    invalid_create_payloads().map(lambda case: case[0]),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=python_values)
def test_the_sdk_refuses_or_sends_any_python_value_without_raising(
    key_ring: KeyRing, payload: Any
) -> None:
    reply = key_ring.next_client().create_campaign(payload)

    if reply.sent:
        assert reply.status == 201, reply.error
    else:
        assert reply.violations


# The document, and what Schemathesis found (issue 14)


def test_the_server_serves_the_openapi_document_without_credentials(
    server: Server, http: httpx.Client
) -> None:
    response = http.get(f"{server.base_url}/openapi.json")

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == openapi()


@pytest.mark.parametrize(
    "path",
    # Found by the contract test: a line break in a path id (%0A) fell through the router to a
    # plain-text 404; an empty id and one holding a slash did too.
    ["thread/%0A", "thread/", "thread/a%2Fb", "thread/a/b"],
)
def test_a_thread_path_the_router_cannot_split_is_the_thread_404(
    server: Server, http: httpx.Client, path: str
) -> None:
    url = f"{server.base_url}/{path}"
    refused = http.get(url)
    missing = http.get(url, headers={"Authorization": f"api-key {server.new_key()}"})

    assert (refused.status_code, refused.json()["error"]) == (401, 401)
    assert missing.status_code == 404
    assert missing.json() == {"error": 404, "message": missing.json()["message"]}


@pytest.mark.parametrize(
    "path", ["campaigns/%0A/contacts/17", "campaigns//contacts/17", "campaigns/1/contacts/"]
)
def test_a_contact_path_the_router_cannot_split_is_the_contact_404(
    server: Server, http: httpx.Client, path: str
) -> None:
    response = http.get(
        f"{server.base_url}/{path}", headers={"Authorization": f"api-key {server.new_key()}"}
    )

    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert parse_error(404, response.json()).ok
    assert response.json()["error"] in {"NOT_FOUND", "CONTACT_NOT_FOUND"}


def test_a_path_of_no_operation_is_a_json_404(server: Server, http: httpx.Client) -> None:
    response = http.get(f"{server.base_url}/campaign")

    assert response.status_code == 404
    assert response.json()["error"] == "NOT_FOUND"
    assert parse_error(404, response.json()).ok
