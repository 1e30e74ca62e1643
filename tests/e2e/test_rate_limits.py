"""The SDK's pacing against the real server's rate limit; credentials before the rate (issue 20).

The paced calls run against a server on the real clock (`time.monotonic_ns`), as a user runs
it, with the spec's 12 per second: what is counted is every 429 that reaches the wire.
D-sdk-pacing says why the SDK's margin makes that zero, and D-credentials-first why an unknown
key is a 401 however fast it comes.
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from examples.sdk import CampaignClient, Reply
from examples.sdk.client import _retry_after
from examples.server import seed

from campaign_rules import ErrorKey
from campaign_rules.responses import ApiError, parse_error
from tests.e2e.support import Server, seeded_server

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PACED_CALLS = 100


class Wire:
    """An httpx client that counts the status of every response it receives."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.http = httpx.Client(timeout=30.0, event_hooks={"response": [self._count]})

    def _count(self, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1


def whatsapp_body() -> dict[str, Any]:
    body: dict[str, Any] = json.loads((EXAMPLES / "whatsapp.json").read_text(encoding="utf-8"))
    return body | {"name": f"paced {uuid.uuid4()}"}


def test_a_paced_client_meets_no_429_from_the_real_server(tmp_path: Path) -> None:
    wire = Wire()
    with seeded_server(tmp_path, {}) as server, wire.http:
        client = CampaignClient(server.base_url, server.new_key(), http=wire.http)
        calls: dict[str, Callable[[], Reply[Any]]] = {
            "thread": lambda: client.get_thread(seed.THREAD_ID),
            "contact": lambda: client.get_contact(seed.CAMPAIGN_ID, seed.CONTACT_ID),
            "create": lambda: client.create_campaign(whatsapp_body()),
        }

        def paced(operation: str) -> list[tuple[int | None, int]]:
            call = calls[operation]
            return [
                (reply.status, reply.attempts) for reply in (call() for _ in range(PACED_CALLS))
            ]

        # The three budgets at once, from three threads sharing the client (D-rate-scope).
        started_at = time.monotonic()
        with ThreadPoolExecutor(max_workers=3) as pool:
            replies = dict(zip(calls, pool.map(paced, calls), strict=True))
        seconds = time.monotonic() - started_at

    assert wire.statuses[429] == 0, wire.statuses
    assert replies["thread"] == replies["contact"] == [(200, 1)] * PACED_CALLS
    assert replies["create"] == [(201, 1)] * PACED_CALLS
    assert wire.statuses == {200: 2 * PACED_CALLS, 201: PACED_CALLS}
    # Paced, not slowed down: 11 at once, then about 12 a second (D-sdk-pacing).
    assert seconds >= (PACED_CALLS - 11) / 12


def recorded_sleep(slept: list[float]) -> Callable[[float], None]:
    def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.sleep(seconds)

    return sleep


def test_a_429_is_retried_after_retry_after_and_then_succeeds(tmp_path: Path) -> None:
    # The server allows one request a second: stricter than the client's pacing.
    wire, slept = Wire(), list[float]()
    with seeded_server(tmp_path, {"CAMPAIGN_SERVER_RATE_PER_SECOND": "1"}) as server, wire.http:
        client = CampaignClient(
            server.base_url, server.new_key(), http=wire.http, sleep=recorded_sleep(slept)
        )
        first = client.get_thread(seed.THREAD_ID)
        second = client.get_thread(seed.THREAD_ID)

    assert (first.status, first.attempts) == (200, 1)
    assert (second.status, second.attempts, second.rate_limited) == (200, 2, False)
    assert second.ok
    assert slept == [1.0]  # the server's Retry-After
    assert wire.statuses == {200: 2, 429: 1}


@pytest.mark.parametrize("retries", [0, 2])
def test_a_429_that_stays_is_reported_after_the_bound(tmp_path: Path, retries: int) -> None:
    # A frozen clock never refills the server's one request: every later request is a 429.
    settings = {"CAMPAIGN_SERVER_RATE_PER_SECOND": "1", "CAMPAIGN_SERVER_FROZEN_CLOCK_NS": "0"}
    wire, slept = Wire(), list[float]()
    with seeded_server(tmp_path, settings) as server, wire.http:
        client = CampaignClient(
            server.base_url,
            server.new_key(),
            http=wire.http,
            sleep=recorded_sleep(slept),
            rate_limited_retries=retries,
        )
        assert client.create_campaign(whatsapp_body()).status == 201
        body = whatsapp_body()
        refused = client.create_campaign(body)
        created = server.query(
            "SELECT id FROM campaigns WHERE json_extract(campaign, '$.name') = ?", body["name"]
        )

    assert (refused.sent, refused.status, refused.value) == (True, 429, None)
    assert refused.rate_limited
    assert refused.attempts == 1 + retries
    assert isinstance(refused.error, ApiError)
    assert refused.error.error is ErrorKey.RATE_LIMITED
    assert slept == [1.0] * retries
    assert wire.statuses == {201: 1, 429: 1 + retries}
    assert created == []


def test_a_429_of_the_thread_operation_is_reported_in_its_own_shape(tmp_path: Path) -> None:
    settings = {"CAMPAIGN_SERVER_RATE_PER_SECOND": "1", "CAMPAIGN_SERVER_FROZEN_CLOCK_NS": "0"}
    with seeded_server(tmp_path, settings) as server, httpx.Client() as http:
        client = CampaignClient(server.base_url, server.new_key(), http=http, sleep=lambda _: None)
        client.get_thread(seed.THREAD_ID)
        refused = client.get_thread(seed.THREAD_ID)

    assert (refused.status, refused.attempts, refused.rate_limited) == (429, 3, True)
    assert refused.error is not None
    assert refused.error.error == 429  # {"error": 429, "message": ...} (D-rate-scope)


@pytest.mark.parametrize("retries", [-1, 1.0, True, None])
def test_the_retry_bound_is_a_whole_number(retries: object) -> None:
    with pytest.raises(TypeError, match="rate_limited_retries"):
        CampaignClient("http://127.0.0.1:9/api/v1.0", "key", rate_limited_retries=retries)  # type: ignore[arg-type]


# Credentials before the rate (D-credentials-first): on the module's server, whose frozen clock
# gives each key exactly 12 requests per operation.


def test_an_unknown_key_is_401_however_often_it_comes(server: Server, http: httpx.Client) -> None:
    headers = {"Authorization": f"api-key typo-{uuid.uuid4()}"}
    urls = [
        f"{server.base_url}/thread/{seed.THREAD_ID}",
        f"{server.base_url}/campaigns/{seed.CAMPAIGN_ID}/contacts/{seed.CONTACT_ID}",
    ]

    answers = [http.get(url, headers=headers) for url in urls for _ in range(15)]
    create = f"{server.base_url}/campaigns"
    answers += [http.post(create, json={}, headers=headers) for _ in range(15)]

    assert [answer.status_code for answer in answers] == [401] * 45
    for answer in answers:
        assert "Retry-After" not in answer.headers
        error = parse_error(401, answer.json()).value
        assert error is not None
        assert answer.json() == {"error": 401, "message": "the API key is not known"}


def test_an_unknown_keys_requests_spend_no_budget_of_the_fixed_key(
    server: Server, http: httpx.Client
) -> None:
    # The user fixes the typo: the right key has its whole burst.
    key = server.new_key()
    url = f"{server.base_url}/thread/{seed.THREAD_ID}"
    typo = [http.get(url, headers={"Authorization": f"api-key {key}x"}) for _ in range(15)]
    fixed = [http.get(url, headers={"Authorization": f"api-key {key}"}) for _ in range(13)]

    assert [answer.status_code for answer in typo] == [401] * 15
    assert [answer.status_code for answer in fixed] == [200] * 12 + [429]


@pytest.mark.parametrize(
    ("status", "headers", "wait"),
    [
        (429, {"Retry-After": "1"}, 1.0),
        (429, {"Retry-After": "60"}, 60.0),
        (429, {"Retry-After": "61"}, None),  # too long to block for: reported at once
        (429, {}, 1.0),  # the spec's period
        (429, {"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}, 1.0),
        (429, {"Retry-After": "-1"}, 1.0),
        (200, {"Retry-After": "1"}, None),  # only a 429 is retried
        (503, {"Retry-After": "1"}, None),
    ],
)
def test_what_the_sdk_waits_before_sending_again(
    status: int, headers: dict[str, str], wait: float | None
) -> None:
    assert _retry_after(httpx.Response(status, headers=headers)) == wait
