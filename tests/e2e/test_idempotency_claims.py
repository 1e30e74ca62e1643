"""A key claimed by a request still running, on the single-file server (D-idempotency-claim).

The claim is a row of `idempotency_records` with a token and no response, as a request of
another worker leaves it while it runs, or as a process that died leaves it behind.
"""

from __future__ import annotations

import time
import uuid

import httpx
import pytest

from campaign_rules.idempotency import IDEMPOTENCY_CLAIM_SECONDS, request_fingerprint
from tests.e2e.support import Server, whatsapp_body

pytestmark = pytest.mark.e2e


def post(
    http: httpx.Client, server: Server, body: object, *, api_key: str, idempotency_key: str
) -> httpx.Response:
    headers = {"Authorization": f"api-key {api_key}", "Idempotency-Key": idempotency_key}
    return http.post(f"{server.base_url}/campaigns", json=body, headers=headers)


def campaigns_named(server: Server, name: str) -> list[tuple[object, ...]]:
    return server.query("SELECT id FROM campaigns WHERE json_extract(campaign, '$.name') = ?", name)


def claim(server: Server, api_key: str, key: str, body: object, age_seconds: float) -> None:
    """Claim `key` for `body` as another request did `age_seconds` ago."""
    server.execute(
        "INSERT INTO idempotency_records"
        " (api_key, idempotency_key, fingerprint, status, body, stored_at, claim)"
        " VALUES (?, ?, ?, NULL, NULL, ?, 'another-request')",
        api_key,
        key,
        request_fingerprint(body).value,
        time.time() - age_seconds,
    )


def test_the_same_request_under_a_live_claim_is_429_and_runs_nothing(
    server: Server, http: httpx.Client
) -> None:
    api_key, key, body = server.new_key(), str(uuid.uuid4()), whatsapp_body()
    claim(server, api_key, key, body, age_seconds=IDEMPOTENCY_CLAIM_SECONDS - 10)

    response = post(http, server, body, api_key=api_key, idempotency_key=key)

    assert (response.status_code, response.headers["Retry-After"]) == (429, "1")
    assert response.json() == {
        "success": False,
        "error": "RATE_LIMITED",
        "message": "a request with this Idempotency-Key is still running: retry after 1 second",
        "field": "Idempotency-Key",
    }
    assert campaigns_named(server, body["name"]) == []


def test_another_request_under_a_live_claim_is_400(server: Server, http: httpx.Client) -> None:
    api_key, key, body = server.new_key(), str(uuid.uuid4()), whatsapp_body()
    claim(server, api_key, key, body, age_seconds=0)

    response = post(http, server, whatsapp_body(), api_key=api_key, idempotency_key=key)

    assert (response.status_code, response.json()["error"]) == (400, "INVALID_REQUEST")


def test_a_claim_past_its_time_is_taken_over_and_the_response_stored(
    server: Server, http: httpx.Client
) -> None:
    api_key, key, body = server.new_key(), str(uuid.uuid4()), whatsapp_body()
    claim(server, api_key, key, body, age_seconds=IDEMPOTENCY_CLAIM_SECONDS + 10)

    first = post(http, server, body, api_key=api_key, idempotency_key=key)
    replay = post(http, server, body, api_key=api_key, idempotency_key=key)

    assert first.status_code == replay.status_code == 201
    assert first.content == replay.content
    assert len(campaigns_named(server, body["name"])) == 1
    assert server.query(
        "SELECT status, claim FROM idempotency_records WHERE api_key = ? AND idempotency_key = ?",
        api_key,
        key,
    ) == [(201, None)]


def test_a_refused_body_leaves_no_claim(server: Server, http: httpx.Client) -> None:
    api_key, key = server.new_key(), str(uuid.uuid4())

    refused = post(http, server, whatsapp_body(retries=9), api_key=api_key, idempotency_key=key)

    assert refused.status_code == 400
    assert server.query("SELECT * FROM idempotency_records WHERE api_key = ?", api_key) == []
