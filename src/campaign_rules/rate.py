"""The request rate: 12 requests per second per API key (spec 4.2, 8; D-rate-limit).

A generic cell rate algorithm (GCRA, the exact equivalent of a token bucket that holds `burst`
tokens and gains `requests` per `period`) keeps one number per key: the theoretical arrival
time (TAT) of the next request. A request is allowed when it comes no earlier than TAT less
the burst tolerance; an allowed request moves TAT one emission interval on, a refused one
moves nothing. Time is an integer count of nanoseconds, and every time is multiplied by
`requests`, so that the emission interval (`period / requests`) is a whole number and the
arithmetic is exact: no rounding can refuse a request at the limit or allow one past it.

`decide_rate` is the same decision as one pure step over a key's state kept elsewhere (a store
that several processes and machines share, read against the store's own clock): it gives the
new state to write, with an atomic compare-and-set, beside the answer (D-rate-shared).
`RateLimiter` is the case of one process, its states in a dict.

The limiter is pure: the caller passes the clock in, and nothing sleeps, waits or starts a
thread. A server asks it before serving a request; an SDK asks it before sending one, and
sleeps for `retry_after` when told to.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from campaign_rules._core.json import as_string
from campaign_rules._core.limits import (
    CLOCK_NS,
    NS_PER_SECOND,
    RATE_LIMIT_BURST,
    RATE_LIMIT_PERIOD_NS,
    RATE_LIMIT_REQUESTS,
    RATE_LIMIT_SWEEP_FLOOR,
)
from campaign_rules._core.outcome import Outcome, status_body
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import RATE_RULES
from campaign_rules._server.gcra import gcra_step
from campaign_rules._server.request_state import RateRequest, whole_seconds

# The spec's rate is public too: a client that paces itself derives its margin from it
# (D-sdk-pacing), rather than writing 12 again.
__all__ = [
    "RATE_LIMIT_BURST",
    "RATE_LIMIT_PERIOD_NS",
    "RATE_LIMIT_REQUESTS",
    "RateDecision",
    "RateLimiter",
    "RateResult",
    "decide_rate",
]


@attrs.frozen
class RateResult(Outcome[str]):
    """The outcome of `RateLimiter.acquire`: go on, or wait.

    `value` is the key when the request is allowed. When it is not, the violation is
    `RATE_LIMITED` (429), with `retry_after_ns` the exact wait in nanoseconds; or
    `SERVER_ERROR` (500) when the key or the clock given was unusable (D-rate-limit).
    `status` is 200 when allowed (the request goes on). `envelope()` is the error envelope of
    spec 7.1 (create, contact retrieval); `thread_body()` is the body a thread request answers
    with (spec 7.4, D-rate-scope).
    """

    retry_after_ns: int = 0

    _ok_status: ClassVar[int] = 200

    @property
    def retry_after(self) -> float:
        """The wait before the request would be allowed, in seconds (0.0 when allowed)."""
        return self.retry_after_ns / NS_PER_SECOND

    def thread_body(self) -> dict[str, object] | None:
        """The body of spec 7.4 for a refused `GET /thread/{id}`; `None` when allowed.

        Thread errors are `{"error": <status>, "message": ...}` (spec 7.4), not the envelope of
        spec 7.1: `{"error": 429, "message": ...}` when limited (D-rate-scope), as
        `ThreadPathResult.envelope()` gives for a malformed thread id.
        """
        return status_body(self.primary)

    def headers(self) -> dict[str, str]:
        """The response headers: `Retry-After` in whole seconds, rounded up, when limited.

        RFC 9110 section 10.2.3 allows only whole seconds; rounding up means a client that
        waits that long is allowed (D-rate-limit).
        """
        if self.retry_after_ns <= 0:
            return {}
        return {"Retry-After": str(whole_seconds(self.retry_after_ns))}


class RateLimiter:
    """A GCRA rate limiter per API key, with the clock passed in (spec 4.2, 8; D-rate-limit).

    The defaults are the spec's: `requests` (12) per `period_ns` (one second), with a burst of
    `burst` (12) requests at once. Use one limiter per operation (D-rate-scope). Memory: one
    integer per key that made an allowed request within the last `burst * period_ns /
    requests` nanoseconds (one second by default, less for a key that sent fewer than `burst`);
    older entries are swept as the table grows, and `prune` sweeps them at once. It holds no
    lock: a server that calls it from several threads at once guards it with one.
    """

    def __init__(
        self,
        *,
        requests: int = RATE_LIMIT_REQUESTS,
        period_ns: int = RATE_LIMIT_PERIOD_NS,
        burst: int = RATE_LIMIT_BURST,
    ) -> None:
        """Set the rate; raises `TypeError` unless all three are positive `int`s.

        The configuration is the server's or the SDK's, not a request's input: a wrong one is a
        programming error, found when the limiter is made. A positive `int` is the one type of
        each setting, so zero or a negative number is refused as a wrong type is.
        """
        for name, number in (("requests", requests), ("period_ns", period_ns), ("burst", burst)):
            if type(number) is not int or number < 1:
                raise TypeError(f"{name} must be a positive int, not {_described(number)}")
        self._requests = requests
        # In units of 1 / `requests` nanosecond: the emission interval and burst tolerance.
        self._interval = period_ns
        self._tolerance = (burst - 1) * period_ns
        self._arrivals: dict[str, int] = {}  # key -> TAT, in the same units
        self._latest: int | None = None  # the latest reading seen, in the same units: prune only
        self._swept_size = 0

    def __len__(self) -> int:
        """The number of keys the limiter holds an entry for."""
        return len(self._arrivals)

    def acquire(self, key: object, now_ns: object) -> RateResult:
        """Count one request of `key` at `now_ns` if the rate allows it (D-rate-limit).

        `key` is the API key (a string); `now_ns` is a reading of a monotonic clock in integer
        nanoseconds (`time.monotonic_ns()`), an exact `int`. Each request is decided on its own
        reading, so one wrong reading changes no other key's decisions. A key's theoretical
        arrival time never moves back, so a reading earlier than one already seen never grants
        that key more than its burst. When refused, `retry_after_ns` is the exact wait from
        `now_ns`: at that time the request is allowed, a nanosecond before it is not. Never
        raises for any key or clock value.
        """
        name, reading = as_string(key), _reading(now_ns)
        # D-rate-limit: an unusable key or clock is the caller's bug: refused, counted nowhere.
        wait = 0 if name is None or reading is None else self._admit(name, reading)
        request = RateRequest(name, reading, wait)
        violations = run_rules(request, RATE_RULES)
        return RateResult(
            value=None if violations else name, violations=violations, retry_after_ns=wait
        )

    def _admit(self, name: str, reading: int) -> int:
        """Count the request when the rate allows it and return 0, else the exact wait in ns."""
        now = reading * self._requests
        self._note(now)
        arrival, wait = gcra_step(
            self._arrivals.get(name), now, self._interval, self._tolerance, self._requests
        )
        if arrival is None:
            return wait
        self._arrivals[name] = arrival
        if len(self._arrivals) > max(RATE_LIMIT_SWEEP_FLOOR, 2 * self._swept_size):
            # As of this request's own reading: a wrong reading far ahead empties the table
            # at most once, rather than at every later sweep.
            self._sweep(now)
        return 0

    def prune(self, now_ns: object) -> int:
        """Drop every entry that no longer limits its key at `now_ns`; return how many.

        An entry whose TAT is not after the clock is the same as no entry. A reading that is
        not an exact `int` prunes as of the latest reading seen (nothing when none was seen).
        """
        reading = _reading(now_ns)
        now = self._latest if reading is None else reading * self._requests
        before = len(self._arrivals)
        if now is not None:
            self._note(now)
            self._sweep(now)
        return before - len(self._arrivals)

    def _note(self, now: int) -> None:
        """Keep the latest reading (in the limiter's units): only `prune` without one uses it."""
        if self._latest is None or now > self._latest:
            self._latest = now

    def _sweep(self, now: int) -> None:
        self._arrivals = {name: tat for name, tat in self._arrivals.items() if tat > now}
        self._swept_size = len(self._arrivals)


@attrs.frozen
class RateDecision(RateResult):
    """The outcome of `decide_rate`: a `RateResult`, and the key's state to store.

    `state` is the new state when the request is allowed: an `int` to write in place of the
    state read, with a compare-and-set (if the store's state changed since it was read, read
    and decide again). It is `None` when nothing is to be written: a refused request changes no
    state, so its refusal stands without a write. `state_ttl_ns` is how long the written state
    matters: after that many nanoseconds of the clock it is the same as no state, so a store
    may expire it then (Redis `SET ... PX`), and its memory is one key per recent caller.
    """

    state: int | None = None
    state_ttl_ns: int = 0


def decide_rate(
    stored: object,
    key: object,
    now_ns: object,
    *,
    requests: object = RATE_LIMIT_REQUESTS,
    period_ns: object = RATE_LIMIT_PERIOD_NS,
    burst: object = RATE_LIMIT_BURST,
) -> RateDecision:
    """Decide one request of `key` at `now_ns` over the key's stored state (D-rate-shared).

    The step of `RateLimiter.acquire`, with the state passed in and out: `stored` is what an
    earlier decision gave as `state` for this key and these settings (an `int`), or `None` when
    the store holds none (or it expired). `now_ns` is integer nanoseconds of a clock every
    instance shares, such as the store's own (Redis `TIME`); a clock that goes back grants a
    key nothing beyond its burst, as in D-rate-limit. Allowed: `ok`, and `state` to write.
    Refused: `RATE_LIMITED` with the exact `retry_after_ns`, nothing to write. An unusable
    key, clock, stored state or setting is `SERVER_ERROR`, nothing to write. Never raises.
    """
    name, reading, arrival = as_string(key), _reading(now_ns), _reading(stored)
    rate, period, size = _positive(requests), _positive(period_ns), _positive(burst)
    # D-rate-shared: what the server gave that cannot be read is its bug: nothing is written.
    if rate is None or period is None or size is None:
        return _unusable(name, reading, "a setting that is not a positive int")
    if stored is not None and arrival is None:
        return _unusable(name, reading, "a stored state that is not an int")
    if name is None or reading is None:
        return _unusable(name, reading, None)
    now = reading * rate
    state, wait = gcra_step(arrival, now, period, (size - 1) * period, rate)
    violations = run_rules(RateRequest(name, reading, wait), RATE_RULES)
    if state is None:
        return RateDecision(value=None, violations=violations, retry_after_ns=wait)
    ttl = -((now - state) // rate)  # the state matters while it is ahead of the clock
    return RateDecision(value=name, violations=violations, state=state, state_ttl_ns=ttl)


def _unusable(name: str | None, reading: int | None, unusable: str | None) -> RateDecision:
    violations = run_rules(RateRequest(name, reading, 0, unusable), RATE_RULES)
    return RateDecision(value=None, violations=violations)


def _positive(setting: object) -> int | None:
    """A setting when it is a positive exact `int`, as `RateLimiter` requires its own."""
    return setting if type(setting) is int and setting > 0 else None


def _reading(now_ns: object) -> int | None:
    """The clock reading when it is an exact `int` (D-rate-limit): not a bool, float or subclass.

    Only a reading within `CLOCK_NS`: from another, the wait could not be written in a
    message, a header or a float (D-json-integers).
    """
    return now_ns if type(now_ns) is int and now_ns in CLOCK_NS else None


def _described(setting: object) -> str:
    """A wrong setting in an error message, by its type or sign, never by a (huge) value."""
    return "a number below 1" if type(setting) is int else f"a {type(setting).__name__}"
