"""A small Campaign Outreach client on httpx, built on `campaign_rules`.

It checks what it can before sending (the creation body, the path ids) and sends nothing the
library refuses; it adds an `Idempotency-Key` to every create, so a retry with the same key
never creates a second campaign; it paces itself with the library's rate limiter, so it sleeps
instead of meeting a 429; and it reads every answer with the library's readers into frozen
value objects.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs
import httpx

from campaign_rules import Violation, validate_create
from campaign_rules.idempotency import request_fingerprint
from campaign_rules.rate import RateLimiter
from campaign_rules.requests import check_contact_path, check_thread_path
from campaign_rules.responses import (
    ApiError,
    CampaignContact,
    CampaignDetail,
    CredentialsError,
    ParseResult,
    Thread,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)

T = TypeVar("T")


@attrs.frozen
class Reply(Generic[T]):
    """What a call gave: the value, the service's error, or why nothing usable came back.

    - `sent` is False when the library refused the request offline; `violations` says why.
    - `value` is the parsed success body; `error` the parsed error body (`status` >= 400).
    - `violations` also holds what was wrong with a response that broke the spec (a
      `SERVER_ERROR` each, D-response-violations): then `value` and `error` are both `None`.
    """

    sent: bool
    status: int | None = None
    value: T | None = None
    error: ApiError | CredentialsError | None = None
    violations: tuple[Violation, ...] = ()
    idempotency_key: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the call succeeded and its body was read."""
        return self.value is not None


class CampaignClient:
    """The three operations of the service for one API key.

    `clock` (integer nanoseconds) and `sleep` (seconds) are the pacing's; tests pass their own.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        http: httpx.Client | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """A client of the service at `base_url` (ending in `/api/v1.0`)."""
        self.api_key = api_key
        self._owns_http = http is None
        self._http = httpx.Client() if http is None else http
        self._base_url = base_url.rstrip("/")
        self._clock = clock
        self._sleep = sleep
        # The server keeps one budget per operation (D-rate-scope), and so does the client.
        self._limits = {operation: RateLimiter() for operation in ("create", "contact", "thread")}

    def close(self) -> None:
        """Close the HTTP client, unless it was passed in (its owner closes it)."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> CampaignClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def create_campaign(
        self, body: object, *, idempotency_key: str | None = None
    ) -> Reply[CampaignDetail]:
        """Create a campaign, unless the library refuses `body` offline.

        Pass the `idempotency_key` of an earlier reply to retry it: the service answers the
        first response again and creates nothing.
        """
        offline = validate_create(body)
        if not offline.ok:
            return Reply(sent=False, violations=offline.violations)
        # Ignored members (a disabled cycles block) may still hold what JSON cannot (NaN): the
        # server could not fingerprint such a body, and httpx could not even encode it.
        encodable = request_fingerprint(body, method="POST", path="/campaigns")
        if not encodable.ok:
            return Reply(sent=False, violations=encodable.violations)
        key = idempotency_key or str(uuid.uuid4())
        response = self._send("create", "POST", "/campaigns", json=body, idempotency_key=key)
        reply = _read(response, 201, parse_create_response)
        return attrs.evolve(reply, idempotency_key=key)

    def get_contact(self, campaign_id: object, contact_id: object) -> Reply[CampaignContact]:
        """Read one contact of a campaign."""
        path = check_contact_path(campaign_id, contact_id)
        if (ids := path.value) is None:  # None exactly when the ids are refused
            return Reply(sent=False, violations=path.violations)
        where = f"/campaigns/{ids.campaign_id}/contacts/{ids.contact_id}"
        return _read(self._send("contact", "GET", where), 200, parse_contact_response)

    def get_thread(self, thread_id: object) -> Reply[Thread]:
        """Read one thread."""
        path = check_thread_path(thread_id)
        if (checked := path.value) is None:
            return Reply(sent=False, violations=path.violations)
        return _read(self._send("thread", "GET", f"/thread/{checked}"), 200, parse_thread)

    def _send(
        self,
        operation: str,
        method: str,
        path: str,
        *,
        json: object = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        self._pace(operation)
        headers = {"Authorization": f"api-key {self.api_key}"}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        return self._http.request(method, self._base_url + path, json=json, headers=headers)

    def _pace(self, operation: str) -> None:
        """Wait until the operation's budget allows one more request (spec 8, D-rate-limit)."""
        limit = self._limits[operation]
        while not (rate := limit.acquire(self.api_key, self._clock())).ok:
            self._sleep(rate.retry_after)


def _read(
    response: httpx.Response, success: int, parse: Callable[[object], ParseResult[T]]
) -> Reply[T]:
    """Read the body with the reader of the success status, or as an error body."""
    body = _json_or_text(response)
    status = response.status_code
    if status == success:
        parsed = parse(body)
        return Reply(sent=True, status=status, value=parsed.value, violations=parsed.violations)
    error = parse_error(status, body)
    return Reply(sent=True, status=status, error=error.value, violations=error.violations)


def _json_or_text(response: httpx.Response) -> Any:
    # A body that is not JSON is handed over as text: the readers say it is not an object.
    try:
        return response.json()
    except ValueError:
        return response.text
