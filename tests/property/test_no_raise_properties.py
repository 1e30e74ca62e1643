"""Nothing in `rate`, `idempotency`, `requests`, `responses` or `lifecycle` raises for any value.

Issue 28: each public function of these modules is called with hostile integers (huge,
negative, past what Python prints), floats (NaN, the infinities, huge), strings (lone
surrogates, huge) and containers of them, in every argument, one call after another on the
same limiter; then every method of each result is called, and what goes back out on the wire
(`to_wire`, the envelope, the headers) is written as strict JSON, whose integers are within
±(2**53 − 1), the range every JSON reader reads exactly (RFC 7493 section 2.2, D-json-integers).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import to_wire
from campaign_rules._core.limits import PATH_ID_MAX
from campaign_rules.idempotency import (
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
    is_storable_status,
    request_fingerprint,
)
from campaign_rules.lifecycle import check_transition
from campaign_rules.rate import RateLimiter
from campaign_rules.requests import check_contact_path, check_thread_path, parse_authorization
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from tests.response_support import body as response_body

# Integers past every bound: the clock's 64 bits, JSON's 2**53, and the 4,300 digits past
# which Python refuses to write an integer in decimal.
_DIGITS_LIMIT = sys.get_int_max_str_digits() or 4300
huge_integers = st.one_of(
    st.integers(),
    st.sampled_from([2**53 - 1, 2**53, -(2**53), 2**63, -(2**63) - 1, 2**64]),
    st.integers(min_value=1, max_value=_DIGITS_LIMIT + 20).map(lambda digits: 10**digits),
    st.integers(min_value=1, max_value=_DIGITS_LIMIT + 20).map(lambda digits: -(10**digits)),
)
hostile_floats = st.one_of(
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, -0.0, 2.0**53]),
)
hostile_strings = st.one_of(
    st.text(st.characters(codec=None, categories=None), max_size=8),  # lone surrogates too
    st.sampled_from(["", " ", "api-key x", "12", "1e999", "-1", "active", "POST", "\ud800"]),
)
hostile_scalars = st.one_of(
    huge_integers, hostile_floats, hostile_strings, st.booleans(), st.none(), st.binary(max_size=4)
)
hostile = st.recursive(
    hostile_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(hostile_strings, inner, max_size=3)
    ),
    max_leaves=6,
)


def _written(value: object) -> None:
    """`value` written as strict JSON, and every integer in it read back exactly anywhere."""
    text = json.dumps(value, allow_nan=False)
    json.loads(text, parse_int=_interoperable)


def _interoperable(digits: str) -> int:
    number = int(digits)
    assert -PATH_ID_MAX <= number <= PATH_ID_MAX, digits
    return number


def _use(result: Any) -> None:
    """Call everything a result offers, and write what a server would send of it."""
    for name in ("envelope", "body", "thread_body", "headers"):
        method = getattr(result, name, None)
        if method is not None:
            answer = method()
            if answer is not None:
                _written(answer)
    for name in ("ok", "status", "keys", "retry_after", "primary"):
        getattr(result, name, None)
    value = getattr(result, "value", None)
    if value is not None and type(value).__module__.startswith("campaign_rules"):
        _written(to_wire(value))


@given(st.lists(st.tuples(hostile, hostile), min_size=1, max_size=6), hostile)
def test_the_rate_limiter_never_raises_for_any_key_or_clock(calls, later):
    limiter = RateLimiter()
    for key, now in calls:
        _use(limiter.acquire(key, now))
        _use(limiter.acquire("k", now))  # one key, read at every clock value in turn
    limiter.prune(later)
    len(limiter)


def test_a_clock_past_what_python_prints_is_no_reading():
    # Issue 28: the wait from a reading of 10**4310 back to 0 was written into the message.
    limiter = RateLimiter()
    first, second = limiter.acquire("k", 10**4310), limiter.acquire("k", 0)
    assert (first.status, second.status) == (500, 200)
    _use(first)
    _use(second)


@given(hostile, hostile, hostile, hostile)
def test_the_request_checks_never_raise(first, second, third, fourth):
    for result in (
        parse_authorization(first),
        check_contact_path(first, second),
        check_thread_path(first),
        check_idempotency_key(first),
        check_transition(first, second, billing_limit_reached=third),
        request_fingerprint(first, method=second, path=third),
        decide_idempotency(first, second, third, window_seconds=fourth),
    ):
        _use(result)
    is_storable_status(first)


@given(hostile, hostile, hostile, hostile)
def test_idempotency_never_raises_for_any_record(fingerprint, status, stored_at, now):
    # A record as a store gives it back, with hostile members, against a hostile clock.
    stored = IdempotencyRecord(fingerprint, status, {"ok": True}, stored_at)  # type: ignore[arg-type]
    for window in (86_400, now, stored_at):
        _use(decide_idempotency(stored, fingerprint, now, window_seconds=window))


@given(hostile, hostile)
def test_the_response_readers_never_raise_and_write_back_only_interoperable_integers(body, status):
    for result in (
        parse_create_response(body),
        parse_contact_response(body),
        parse_thread(body),
        parse_error(status, body),
    ):
        _use(result)


@given(huge_integers)
def test_an_integer_of_a_response_is_read_only_within_the_json_range(number):
    body = response_body("create_response")
    body["campaign"]["id"] = number
    body["campaign"]["cycles"]["max_iterations"] = number
    body["campaign"]["analytics"] = {"calls": number}
    result = parse_create_response(body)
    _use(result)
    assert result.ok == (1 <= number <= PATH_ID_MAX)
