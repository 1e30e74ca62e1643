"""A create request's `Idempotency-Key`, from its header to the stored response (spec 4.1 rule 2).

A server checks the header (`check_idempotency_key`, D-idempotency-key), takes the request's
fingerprint (`request_fingerprint`, D-fingerprint) and decides what to do with a key it has
seen before (`decide_idempotency`, D-idempotency). Stripe's published semantics are the model:
within the window, a request with a stored key and the same fingerprint gets the stored
response again and runs nothing; one with a stored key and another fingerprint is refused; a
key past the window is free again. A key may also be claimed by a request still running
(`IdempotencyClaim`, D-idempotency-claim): the same request meanwhile is told to retry after a
second, and a claim left by a process that died is released after `IDEMPOTENCY_CLAIM_SECONDS`.
The store itself (keyed by API key and `Idempotency-Key`, written atomically) is the server's.
"""

from __future__ import annotations

import enum
import math
from typing import TYPE_CHECKING, ClassVar, Final

import attrs

from campaign_rules._core.json import as_integer, as_string, json_type
from campaign_rules._core.limits import (
    HTTP_STATUSES,
    IDEMPOTENCY_CLAIM_SECONDS,
    IDEMPOTENCY_IN_USE_RETRY_SECONDS,
    IDEMPOTENCY_STORED_STATUSES,
    IDEMPOTENCY_WINDOW_SECONDS,
)
from campaign_rules._core.outcome import Outcome
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import FINGERPRINT_RULES, IDEMPOTENCY_KEY_RULES, IDEMPOTENCY_RULES
from campaign_rules._server.canonical import canonical_text
from campaign_rules._server.request_state import CanonicalRequest, IdempotencyState

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "IDEMPOTENCY_CLAIM_SECONDS",
    "FingerprintResult",
    "IdempotencyAction",
    "IdempotencyClaim",
    "IdempotencyDecision",
    "IdempotencyKeyResult",
    "IdempotencyRecord",
    "check_idempotency_key",
    "decide_idempotency",
    "is_storable_status",
    "request_fingerprint",
]


@attrs.frozen
class IdempotencyKeyResult(Outcome[str]):
    """The outcome of `check_idempotency_key`: the key (`None` when absent), or a violation.

    A malformed key is `INVALID_REQUEST` (400), field `Idempotency-Key` (D-idempotency-key).
    """

    _ok_status: ClassVar[int] = 200


def check_idempotency_key(header_value: object) -> IdempotencyKeyResult:
    """Check an `Idempotency-Key` header value, or `None` when absent (spec 4.1 rule 2).

    A key is 1 to 255 visible ASCII characters (0x21 to 0x7E), compared exactly: a UUID is
    recommended, not required (D-idempotency-key). An absent header is ok, with value `None`.
    """
    violations = tuple(run_rules(header_value, IDEMPOTENCY_KEY_RULES))
    if violations or header_value is None:
        return IdempotencyKeyResult(value=None, violations=violations)
    return IdempotencyKeyResult(value=str.__str__(header_value), violations=())


@attrs.frozen
class FingerprintResult(Outcome[str]):
    """The outcome of `request_fingerprint`: 64 hex digits, or why there is none.

    `value` is the fingerprint when `ok`. A body that is not plain JSON data (D-fingerprint) is
    one `INVALID_REQUEST` violation (400), with no field.
    """

    _ok_status: ClassVar[int] = 200


def request_fingerprint(
    body: object, *, method: object = "POST", path: object = "/campaigns"
) -> FingerprintResult:
    """The canonical fingerprint of a request to `method` `path` with decoded JSON `body`.

    Key order and white space of the JSON text do not change it; a change of any value, of the
    method or of the path does. `1` and `1.0` are the same value (D-fingerprint). A body that
    is not plain JSON data (NaN or an infinity, a member name that is not a string, two members
    of one name, a Python value JSON cannot hold, nesting deeper than 64, more than 100,000
    values, an integer of more than 4096 bits), or a method or path that is not a string, has
    no fingerprint. Never raises for any value.
    """
    request = CanonicalRequest(canonical_text(method, path, body))
    violations = run_rules(request, FINGERPRINT_RULES)
    if violations or request.text is None:
        return FingerprintResult(value=None, violations=violations)
    # Lone surrogates are escaped by `_server.canonical._encode_string`, so the text is ASCII.
    # Imported here: `hashlib` loads OpenSSL, a tenth of the library's import time, and only
    # a server fingerprinting a request needs it.
    import hashlib

    digest = hashlib.sha256(request.text.encode("ascii")).hexdigest()
    return FingerprintResult(value=digest, violations=())


class IdempotencyAction(enum.StrEnum):
    """What the server does with a request that carries an `Idempotency-Key`."""

    EXECUTE = "execute"
    """Run the request, then store its response under the key (if `is_storable_status`)."""
    REPLAY = "replay"
    """Answer with the stored response; run nothing."""
    REJECT = "reject"
    """Answer with the error envelope; run nothing, store nothing."""


@attrs.frozen
class IdempotencyRecord:
    """A stored response: the request's fingerprint, the status and body sent, and when.

    `stored_at` is a wall-clock time in seconds (`time.time()`), since a store outlives a
    process and a monotonic clock does not.
    """

    fingerprint: str
    status: int
    # A JSON body is usually a dict, which cannot be hashed: the record hashes without it (two
    # records that differ only in body hash alike, and still compare unequal).
    body: object = attrs.field(hash=False)
    stored_at: float


@attrs.frozen
class IdempotencyClaim:
    """A key claimed by a request that is still running: no response is stored yet.

    A server that stores a claim before it runs the request (so that other processes see the
    key taken) passes it to `decide_idempotency` as it passes a record. `fingerprint` is the
    claiming request's; `claimed_at` is wall-clock seconds (`time.time()`, or better the
    store's own clock, which every instance shares) (D-idempotency-claim).
    """

    fingerprint: str
    claimed_at: float


@attrs.frozen
class IdempotencyDecision(Outcome[IdempotencyRecord]):
    """The outcome of `decide_idempotency`: `action`, and on a replay the stored record.

    `value` is the record to replay, `None` otherwise. `status` is the stored status on a
    replay, 400 (`INVALID_REQUEST`, field `Idempotency-Key`) when the key was used for another
    request, 429 (`RATE_LIMITED`, field `Idempotency-Key`) when the same request still runs
    under a claim, with `retry_after` seconds (D-idempotency-claim), 500 (`SERVER_ERROR`) when
    the server's own arguments are unusable, and 200 on execute (the request goes on).
    """

    action: IdempotencyAction
    retry_after: int = 0

    def headers(self) -> dict[str, str]:
        """The response headers: `Retry-After` in whole seconds while the key is claimed."""
        return {"Retry-After": str(self.retry_after)} if self.retry_after > 0 else {}

    _ok_status: ClassVar[int] = 200

    @property
    def status(self) -> int:
        """The HTTP status to answer with (see the class)."""
        if self.value is not None:
            return self.value.status
        return super().status


_EXECUTE: Final = IdempotencyDecision(value=None, violations=(), action=IdempotencyAction.EXECUTE)


def decide_idempotency(
    stored: object,
    fingerprint: object,
    now: object,
    *,
    window_seconds: object = IDEMPOTENCY_WINDOW_SECONDS,
    claim_seconds: object = IDEMPOTENCY_CLAIM_SECONDS,
) -> IdempotencyDecision:
    """Decide what to do with a request whose `Idempotency-Key` the store may know (D-idempotency).

    `stored` is the `IdempotencyRecord` under the request's API key and `Idempotency-Key`, or
    `None`; `fingerprint` the request's (`request_fingerprint(...).value`); `now` the wall
    clock in seconds. A record is live while `now - stored_at < window_seconds` (24 hours by
    default); a clock reading or `stored_at` that is not a finite number never expires it,
    since running a request twice is the worse error. Live and the same fingerprint: replay;
    live and another: reject. `stored` may also be an `IdempotencyClaim`, live while
    `now - claimed_at < claim_seconds` (60 by default): the same fingerprint is refused with
    `RATE_LIMITED` and `retry_after` (the request still runs), another is rejected as a reused
    key, and a claim past its time (its process died) is free: execute (D-idempotency-claim).
    Never raises for any value.
    """
    incoming, window = as_string(fingerprint), _seconds(window_seconds)
    claim_window = _seconds(claim_seconds)
    if incoming is None or window is None or window < 0:
        return _refused(IdempotencyState("an unusable fingerprint or window", reused=False))
    if claim_window is None or claim_window < 0:
        return _refused(IdempotencyState("an unusable claim time", reused=False))
    if stored is None:
        return _EXECUTE
    if type(stored) is IdempotencyClaim:
        return _decide_claim(stored, incoming, now, claim_window)
    if type(stored) is not IdempotencyRecord:
        unusable = "a stored entry that is not an IdempotencyRecord"
        return _refused(IdempotencyState(unusable, reused=False))
    record = _readable(stored)
    if record is None:
        unusable = "a stored entry with an unusable fingerprint or status"
        return _refused(IdempotencyState(unusable, reused=False))
    if _expired(record.stored_at, now, window):
        return _EXECUTE
    if record.fingerprint != incoming:
        return _refused(IdempotencyState(None, reused=True))
    return IdempotencyDecision(value=record, violations=(), action=IdempotencyAction.REPLAY)


def _decide_claim(
    claim: IdempotencyClaim, incoming: str, now: object, claim_window: Fraction
) -> IdempotencyDecision:
    """A key claimed by a request still running, or by one whose process died."""
    claimed = as_string(claim.fingerprint)
    if claimed is None:
        return _refused(IdempotencyState("a stored claim with an unusable fingerprint", False))
    if _expired(claim.claimed_at, now, claim_window):
        return _EXECUTE  # D-idempotency-claim: its process died; nothing of it was stored
    if claimed != incoming:
        return _refused(IdempotencyState(None, reused=True))
    violations = run_rules(IdempotencyState(None, reused=False, in_use=True), IDEMPOTENCY_RULES)
    return IdempotencyDecision(
        value=None,
        violations=violations,
        action=IdempotencyAction.REJECT,
        retry_after=IDEMPOTENCY_IN_USE_RETRY_SECONDS,
    )


def is_storable_status(status: object) -> bool:
    """Whether a response of `status` is stored under its key and replayed (D-idempotency).

    The response of every request that began to run is stored, 2xx, 4xx and 5xx alike, so a
    retry sees the same answer and never runs twice. Not stored: 400 (the body was refused
    before anything ran, so the client may fix it and retry with the same key), 401 and 429
    (the request never ran), and 1xx and 3xx, which a create never answers.
    """
    return as_integer(status) in IDEMPOTENCY_STORED_STATUSES


def _readable(record: IdempotencyRecord) -> IdempotencyRecord | None:
    """The record with plain values, or `None` when its fingerprint or status is unusable."""
    fingerprint, status = as_string(record.fingerprint), as_integer(record.status)
    if fingerprint is None or status is None or status not in HTTP_STATUSES:
        return None
    return attrs.evolve(record, fingerprint=fingerprint, status=status)


def _expired(stored_at: object, now: object, window: Fraction) -> bool:
    start, clock = _seconds(stored_at), _seconds(now)
    # D-idempotency: an unreadable time keeps the record live; a clock that went back too.
    return start is not None and clock is not None and clock - start >= window


def _seconds(value: object) -> Fraction | None:
    """A finite JSON number as an exact fraction (no overflow, no rounding), else `None`."""
    # Imported here: `fractions` brings `decimal`, a sixth of the library's import time, and
    # only a server deciding a replay needs it.
    from fractions import Fraction

    if json_type(value) not in ("integer", "number"):
        return None
    if issubclass(type(value), int):
        return Fraction(int.__int__(value))  # type: ignore[arg-type]
    number = float.__float__(value)  # type: ignore[arg-type]
    return Fraction(number) if math.isfinite(number) else None


def _refused(state: IdempotencyState) -> IdempotencyDecision:
    # D-idempotency: a reused key, or the server's own unusable arguments (its bug, not the
    # client's): refuse the request (fail closed: nothing runs twice).
    violations = run_rules(state, IDEMPOTENCY_RULES)
    return IdempotencyDecision(value=None, violations=violations, action=IdempotencyAction.REJECT)
