"""A small Campaign Outreach client on httpx, built on `campaign_rules`.

It checks what it can before sending (the creation body, the path ids) and sends nothing the
library refuses; it adds an `Idempotency-Key` to every create, so a retry with the same key
never creates a second campaign; it paces itself with the library's rate limiter, a margin
inside the server's budget, so it sleeps instead of meeting a 429 (D-sdk-pacing); a 429 that
comes anyway is retried after its `Retry-After`, a bounded number of times, and then reported;
and it reads every answer with the library's readers into frozen value objects.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs
import httpx

from campaign_rules import Violation, validate_create
from campaign_rules.idempotency import request_fingerprint
from campaign_rules.rate import (
    RATE_LIMIT_BURST,
    RATE_LIMIT_PERIOD_NS,
    RATE_LIMIT_REQUESTS,
    RateLimiter,
)
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

# D-sdk-pacing: the client paces each operation one request of burst inside the server's
# budget, which absorbs any latency of requests sent one at a time, and 0.1 % slower, which
# absorbs clocks of two machines that tick at rates up to 1,000 ppm apart.
PACE_BURST = RATE_LIMIT_BURST - 1
PACE_PERIOD_NS = RATE_LIMIT_PERIOD_NS + RATE_LIMIT_PERIOD_NS // 1000
# How many times a 429 is retried after its `Retry-After` before the reply reports it.
RATE_LIMITED_RETRIES = 2
# A `Retry-After` longer than this (seconds) is not waited for: the reply reports the 429 at once.
RETRY_AFTER_MAX_SECONDS = 60
_TOO_MANY_REQUESTS = 429
_OPERATIONS = ("create", "contact", "thread")


@attrs.frozen
class Reply(Generic[T]):
    """What a call gave: the value, the service's error, or why nothing usable came back.

    - `sent` is False when the library refused the request offline; `violations` says why.
    - `value` is the parsed success body; `error` the parsed error body (`status` >= 400).
    - `violations` also holds what was wrong with a response that broke the spec (a
      `SERVER_ERROR` each, D-response-violations): then `value` and `error` are both `None`.
    - `attempts` is how many times the request went out: more than 1 when a 429 was retried.
      A reply whose `rate_limited` is True is the 429 that was still there after the last
      retry (or whose `Retry-After` was too long to wait for).
    """

    sent: bool
    status: int | None = None
    value: T | None = None
    error: ApiError | CredentialsError | None = None
    violations: tuple[Violation, ...] = ()
    idempotency_key: str | None = None
    attempts: int = 0

    @property
    def ok(self) -> bool:
        """Whether the call succeeded and its body was read."""
        return self.value is not None

    @property
    def rate_limited(self) -> bool:
        """Whether the service still answered 429 (`RATE_LIMITED`) after the retries."""
        return self.status == _TOO_MANY_REQUESTS


class CampaignClient:
    """The three operations of the service for one API key.

    Requests of one operation go out one at a time (threads that share a client take turns),
    paced inside the server's budget (D-sdk-pacing). `clock` (integer nanoseconds, the
    `time.monotonic_ns` the reference server reads too) and `sleep` (seconds) are the pacing's;
    tests pass their own.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        http: httpx.Client | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
        rate_limited_retries: int = RATE_LIMITED_RETRIES,
    ) -> None:
        """A client of the service at `base_url` (ending in `/api/v1.0`).

        A 429 is sent again after its `Retry-After` at most `rate_limited_retries` times (0:
        never); `TypeError` unless that is an `int` of at least 0.
        """
        if type(rate_limited_retries) is not int or rate_limited_retries < 0:
            raise TypeError("rate_limited_retries must be an int of at least 0")
        self.api_key = api_key
        self._owns_http = http is None
        self._http = httpx.Client() if http is None else http
        self._base_url = base_url.rstrip("/")
        self._clock = clock
        self._sleep = sleep
        self._retries = rate_limited_retries
        # The server keeps one budget per operation (D-rate-scope), and so does the client.
        self._limits = {
            operation: RateLimiter(
                requests=RATE_LIMIT_REQUESTS, period_ns=PACE_PERIOD_NS, burst=PACE_BURST
            )
            for operation in _OPERATIONS
        }
        self._turns = {operation: threading.Lock() for operation in _OPERATIONS}

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
        sent = self._send("create", "POST", "/campaigns", json=body, idempotency_key=key)
        reply = _read(sent, 201, parse_create_response)
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
    ) -> tuple[httpx.Response, int]:
        """The last response and the number of attempts: a 429 is retried (D-sdk-pacing).

        The operation's turn is held from the pacing to the response, so its requests are never
        in flight together: that is what makes the one request of margin enough.
        """
        headers = {"Authorization": f"api-key {self.api_key}"}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        with self._turns[operation]:
            attempts = 0
            while True:
                self._pace(operation)
                response = self._http.request(
                    method, self._base_url + path, json=json, headers=headers
                )
                attempts += 1
                wait = _retry_after(response)
                if wait is None or attempts > self._retries:
                    return response, attempts
                self._sleep(wait)

    def _pace(self, operation: str) -> None:
        """Wait until the paced budget of `operation` allows one more request (D-sdk-pacing)."""
        limit = self._limits[operation]
        while not (rate := limit.acquire(self.api_key, self._clock())).ok:
            self._sleep(rate.retry_after)


def _retry_after(response: httpx.Response) -> float | None:
    """The seconds to wait before sending a 429 again; `None` when it is not to be retried.

    `Retry-After` is whole seconds here (RFC 9110 section 10.2.3; the reference server rounds
    up, D-rate-limit); without a usable one the wait is the spec's period. A longer wait than
    `RETRY_AFTER_MAX_SECONDS` is not worth blocking for: the caller gets the 429.
    """
    if response.status_code != _TOO_MANY_REQUESTS:
        return None
    text = response.headers.get("Retry-After", "")
    if not (text.isascii() and text.isdigit()):
        return RATE_LIMIT_PERIOD_NS / 1e9
    seconds = int(text)
    return None if seconds > RETRY_AFTER_MAX_SECONDS else float(seconds)


def _read(
    sent: tuple[httpx.Response, int], success: int, parse: Callable[[object], ParseResult[T]]
) -> Reply[T]:
    """Read the body with the reader of the success status, or as an error body."""
    response, attempts = sent
    body = _json_or_text(response)
    status = response.status_code
    if status == success:
        parsed = parse(body)
        return Reply(
            sent=True,
            status=status,
            value=parsed.value,
            violations=parsed.violations,
            attempts=attempts,
        )
    error = parse_error(status, body)
    return Reply(
        sent=True, status=status, error=error.value, violations=error.violations, attempts=attempts
    )


def _json_or_text(response: httpx.Response) -> Any:
    # A body that is not JSON is handed over as text: the readers say it is not an object.
    try:
        return response.json()
    except ValueError:
        return response.text
