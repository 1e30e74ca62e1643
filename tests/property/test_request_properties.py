"""Properties of the request and lifecycle checks, the rate limiter and the idempotency machinery.

Sources: spec 4.1 rule 2, 4.2, 4.3, 5, 8; decisions D-authorization, D-path-ids, D-thread-id,
D-rate-limit, D-idempotency-key, D-fingerprint, D-idempotency, D-lifecycle. The oracles here
(regular expressions, `json.dumps`) are written from those pages, not read from the library.
"""

from __future__ import annotations

import copy
import json
import math
import random
import re
from fractions import Fraction
from typing import Any

from hypothesis import event, given, note
from hypothesis import strategies as st

from campaign_rules import ErrorKey, Violation
from campaign_rules._core.limits import IDEMPOTENCY_KEY_MAX_LENGTH, PATH_ID_MAX
from campaign_rules.idempotency import (
    FingerprintResult,
    IdempotencyAction,
    IdempotencyDecision,
    IdempotencyKeyResult,
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
    is_storable_status,
    request_fingerprint,
)
from campaign_rules.lifecycle import TransitionResult, check_transition
from campaign_rules.rate import RateLimiter, RateResult
from campaign_rules.requests import (
    AuthorizationResult,
    ContactPathResult,
    ThreadPathResult,
    check_contact_path,
    check_thread_path,
    parse_authorization,
)
from tests.property import strategies as s

# ---------------------------------------------------------------------------------------------
# Any value at all.

anything = st.one_of(
    s.json_like,
    s.hostile_payloads,
    s.json_scalars,
    s.non_string_keys,
    st.binary(max_size=8),
    st.builds(object),
    st.sampled_from((math.nan, math.inf, 10**5000, b"api-key x", "api-key x", "12", "1")),
)


def assert_outcome(result: Any) -> None:
    """An `Outcome` is consistent, and its envelope encodes as strict JSON."""
    assert type(result.violations) is tuple
    assert all(type(violation) is Violation for violation in result.violations)
    assert result.ok == (not result.violations)
    assert result.keys == tuple(violation.key for violation in result.violations)
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)
    assert (envelope is None) == result.ok
    assert type(result.status) is int


@given(anything)
def test_parse_authorization_never_raises(value: object) -> None:
    result = parse_authorization(value)
    assert type(result) is AuthorizationResult
    if result.ok:
        assert type(result.value) is str
        assert result.body() is None
    else:
        body = result.body()
        assert result.status == 401
        assert set(body) == {"error", "message"}
        assert body["error"] == 401
        json.dumps(body, allow_nan=False)


@given(anything, anything, anything)
def test_request_checks_never_raise(first: object, second: object, third: object) -> None:
    before = _snapshot(first, second, third)
    results = [
        check_contact_path(first, second),
        check_thread_path(first),
        check_idempotency_key(first),
        check_transition(first, second, billing_limit_reached=third),
        request_fingerprint(first, method=second, path=third),
        request_fingerprint(first),
        decide_idempotency(first, second, third),
        decide_idempotency(None, first, second, window_seconds=third),
    ]
    types = (
        ContactPathResult,
        ThreadPathResult,
        IdempotencyKeyResult,
        TransitionResult,
        FingerprintResult,
        FingerprintResult,
        IdempotencyDecision,
        IdempotencyDecision,
    )
    for result, kind in zip(results, types, strict=True):
        assert type(result) is kind
        assert_outcome(result)
    assert type(is_storable_status(first)) is bool
    limiter = RateLimiter()
    assert type(limiter.acquire(first, second)) is RateResult
    assert_outcome(limiter.acquire(first, second))
    assert type(limiter.prune(third)) is int
    assert _snapshot(first, second, third) == before


def _snapshot(*values: object) -> str | None:
    """The values as JSON text, to see that nothing changed them; `None` if not JSON-like."""
    try:
        return json.dumps(values)
    except (TypeError, ValueError, RecursionError):
        return None


# ---------------------------------------------------------------------------------------------
# Authorization against a regular expression of D-authorization.

_AUTHORIZATION = re.compile(r"[ \t]*[Aa][Pp][Ii]-[Kk][Ee][Yy] +([!-~]+)[ \t]*")

header_texts = st.one_of(
    st.text(alphabet=" \taApPiI-kKeEyY\u212a\u00a0!~\x7f\x00\u00e9xZ09", max_size=20),
    st.builds(
        lambda scheme, spaces, key, tail: scheme + spaces + key + tail,
        st.sampled_from(("api-key", "API-KEY", "Api-Key", "api-keys", "api_key", "Bearer", "")),
        st.sampled_from(("", " ", "  ", "\t", " \t")),
        st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7F), max_size=12),
        st.sampled_from(("", " ", "\t", "\r\n", " x")),
    ),
)


@given(header_texts)
def test_authorization_matches_the_documented_grammar(text: str) -> None:
    match = _AUTHORIZATION.fullmatch(text)
    result = parse_authorization(text)
    assert result.ok == (match is not None)
    assert result.value == (match.group(1) if match else None)


@given(
    st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1),
    st.integers(1, 5),
)
def test_every_visible_ascii_key_is_kept_as_given(key: str, spaces: int) -> None:
    assert parse_authorization("api-key" + " " * spaces + key).value == key


# ---------------------------------------------------------------------------------------------
# Path parameters against D-path-ids and D-thread-id.

_ID = re.compile(r"[1-9][0-9]{0,15}")
_THREAD = re.compile(r"[A-Za-z0-9._~-]{1,128}")
id_texts = st.one_of(
    st.text(alphabet="0123456789", max_size=18),
    st.text(alphabet="0123456789 +-.e\u0661\uff11x", max_size=6),
    st.integers(0, 2**54).map(str),
)


@given(id_texts, id_texts)
def test_path_ids_match_the_documented_grammar(campaign: str, contact: str) -> None:
    def good(text: str) -> bool:
        return _ID.fullmatch(text) is not None and int(text) <= PATH_ID_MAX

    result = check_contact_path(campaign, contact)
    expected = [
        *(["NOT_FOUND"] if not good(campaign) else []),
        *(["CONTACT_NOT_FOUND"] if not good(contact) else []),
    ]
    assert [key.value for key in result.keys] == expected
    if result.ok:
        assert (result.value.campaign_id, result.value.contact_id) == (
            int(campaign),
            int(contact),
        )
        assert check_contact_path(int(campaign), int(contact)) == result


@given(st.text(alphabet="aZ09-._~/% \u00e9\x00", max_size=130) | st.text(max_size=5))
def test_thread_ids_match_the_documented_grammar(text: str) -> None:
    expected = _THREAD.fullmatch(text) is not None and text not in (".", "..")
    result = check_thread_path(text)
    assert result.ok == expected
    assert result.value == (text if expected else None)


@given(
    st.text(max_size=300)
    | st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7F), max_size=300)
)
def test_idempotency_keys_match_the_documented_grammar(text: str) -> None:
    expected = re.fullmatch(rf"[!-~]{{1,{IDEMPOTENCY_KEY_MAX_LENGTH}}}", text) is not None
    result = check_idempotency_key(text)
    assert result.ok == expected
    assert result.value == (text if expected else None)


# ---------------------------------------------------------------------------------------------
# The rate limiter (D-rate-limit).

rates = st.tuples(
    st.integers(1, 20),
    st.integers(1, 10**9).filter(lambda period: period >= 20),
    st.integers(1, 15),
)


def limiter_of(rate: tuple[int, int, int]) -> RateLimiter:
    requests, period, burst = rate
    return RateLimiter(requests=requests, period_ns=period, burst=burst)


def allowance(rate: tuple[int, int, int], span: int) -> int:
    """The most requests a GCRA allows within `span` ns: burst + floor(span * rate)."""
    requests, period, burst = rate
    return burst + span * requests // period


@st.composite
def forward_times(draw: st.DrawFn, rate: tuple[int, int, int]) -> list[int]:
    """Non-decreasing clock readings, with gaps around the emission interval."""
    _, period, _ = rate
    start = draw(st.integers(-(10**18), 10**18))
    gaps = draw(
        st.lists(
            st.one_of(st.just(0), st.integers(0, period), st.integers(0, 3 * period)),
            max_size=80,
        )
    )
    times = [start]
    for gap in gaps:
        times.append(times[-1] + gap)
    return times


@given(st.data(), rates)
def test_never_more_than_the_burst_plus_the_rate_in_any_window(
    data: st.DataObject, rate: tuple[int, int, int]
) -> None:
    limiter = limiter_of(rate)
    times = data.draw(forward_times(rate))
    allowed = [now for now in times if limiter.acquire("k", now).ok]
    event(f"allowed {min(len(allowed), 20) // 5 * 5}+")
    for first in range(len(allowed)):
        for last in range(first, len(allowed)):
            count = last - first + 1
            assert count <= allowance(rate, allowed[last] - allowed[first])


@given(st.data(), rates)
def test_a_stream_no_faster_than_the_rate_is_never_refused(
    data: st.DataObject, rate: tuple[int, int, int]
) -> None:
    requests, period, burst = rate
    limiter = limiter_of(rate)
    start = data.draw(st.integers(-(10**12), 10**12))
    count = data.draw(st.integers(1, 60))
    if burst == 1:
        # Every gap a whole emission interval or more.
        interval = -(-period // requests)
        extra = data.draw(st.lists(st.integers(0, period), min_size=count, max_size=count))
        times, now = [], start
        for delay in extra:
            times.append(now)
            now += interval + delay
    else:
        # The k-th request no earlier than the k-th emission: ceil(k * period / requests).
        times = [start - (-k * period // requests) for k in range(count)]
    assert all(limiter.acquire("k", now).ok for now in times)


@given(st.data(), rates)
def test_the_retry_after_is_exact(data: st.DataObject, rate: tuple[int, int, int]) -> None:
    limiter = limiter_of(rate)
    times = data.draw(forward_times(rate))
    for now in times:
        result = limiter.acquire("k", now)
        if result.ok:
            assert result.retry_after_ns == 0
            continue
        wait = result.retry_after_ns
        assert wait > 0
        assert result.headers() == {"Retry-After": str(-(-wait // 10**9))}
        early = copy.deepcopy(limiter)
        assert not early.acquire("k", now + wait - 1).ok
        assert copy.deepcopy(limiter).acquire("k", now + wait).ok
        event("refused at least once")


@given(st.data(), rates)
def test_readings_in_any_order_never_allow_more_than_their_span(
    data: st.DataObject, rate: tuple[int, int, int]
) -> None:
    # D-rate-limit: each request is decided on its own reading, and a key's theoretical arrival
    # time never moves back, so readings in any order allow a key no more than the burst plus
    # the rate over the span of its readings; and every refusal's wait is still exact.
    readings = data.draw(st.lists(st.integers(-(10**12), 10**12), min_size=1, max_size=60))
    keys = data.draw(
        st.lists(st.sampled_from("ab"), min_size=len(readings), max_size=len(readings))
    )
    limiter = limiter_of(rate)
    seen: dict[str, list[int]] = {"a": [], "b": []}
    allowed: dict[str, int] = {"a": 0, "b": 0}
    for reading, key in zip(readings, keys, strict=True):
        seen[key].append(reading)
        result = limiter.acquire(key, reading)
        if result.ok:
            allowed[key] += 1
            continue
        wait = result.retry_after_ns
        assert not copy.deepcopy(limiter).acquire(key, reading + wait - 1).ok
        assert copy.deepcopy(limiter).acquire(key, reading + wait).ok
    for key, times in seen.items():
        if times:
            assert allowed[key] <= allowance(rate, max(times) - min(times))


@given(st.data(), rates, st.integers(10**15, 10**30))
def test_one_reading_far_ahead_changes_no_other_key(
    data: st.DataObject, rate: tuple[int, int, int], ahead: int
) -> None:
    times = data.draw(forward_times(rate))
    plain, poisoned = limiter_of(rate), limiter_of(rate)
    poisoned.acquire("other", times[0] + ahead)
    for now in times:
        one, other = plain.acquire("k", now), poisoned.acquire("k", now)
        assert (one.ok, one.retry_after_ns) == (other.ok, other.retry_after_ns)


@given(st.data(), rates)
def test_pruning_and_other_keys_change_no_decision(
    data: st.DataObject, rate: tuple[int, int, int]
) -> None:
    times = data.draw(forward_times(rate))
    plain, busy = limiter_of(rate), limiter_of(rate)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for now in times:
        if rng.random() < 0.3:
            busy.prune(now)
        if rng.random() < 0.5:
            busy.acquire(f"other-{rng.randrange(5)}", now)
        one, other = plain.acquire("k", now), busy.acquire("k", now)
        assert (one.ok, one.retry_after_ns) == (other.ok, other.retry_after_ns)
    assert len(busy) <= 6


# ---------------------------------------------------------------------------------------------
# The fingerprint (D-fingerprint), against an oracle written with `json.dumps`.

plain_json = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=4),
        st.sampled_from((0, 1, 1.0, -0.0, 0.5, "", "1")),
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4)
    ),
    max_leaves=12,
)


def oracle(value: Any) -> str:
    """D-fingerprint's canonical text by `json.dumps`: sorted, compact, integral floats as ints."""

    def normal(item: Any) -> Any:
        if type(item) is float and item.is_integer():
            return int(item)
        if type(item) is list:
            return [normal(child) for child in item]
        if type(item) is dict:
            return {name: normal(child) for name, child in item.items()}
        return item

    return json.dumps(normal(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


def reordered(value: Any, rng: random.Random) -> Any:
    if type(value) is list:
        return [reordered(item, rng) for item in value]
    if type(value) is dict:
        names = list(value)
        rng.shuffle(names)
        return {name: reordered(value[name], rng) for name in names}
    return value


def mutated(value: Any, rng: random.Random) -> Any:
    """A copy of `value` with one sub-value replaced, sometimes by an equal JSON value."""
    if type(value) in (list, dict) and value and rng.random() < 0.7:
        copy_ = copy.copy(value)
        position = rng.randrange(len(copy_)) if type(copy_) is list else rng.choice(list(copy_))
        copy_[position] = mutated(copy_[position], rng)
        return copy_
    choices: list[Any] = [None, True, False, 0, 1, 1.0, -1, 0.5, "", "x", [], {}, [value]]
    if type(value) is int:
        choices += [float(value) if abs(value) < 2**53 else value, value + 1]
    if type(value) is str:
        choices += [value + "x", value.upper()]
    if type(value) is dict:
        choices += [{**value, "added": None}]
    return rng.choice(choices)


@given(plain_json, st.randoms(use_true_random=False), st.sampled_from((None, 0, 2, "\t")))
def test_key_order_and_white_space_do_not_change_the_fingerprint(
    value: Any, rng: random.Random, indent: int | str | None
) -> None:
    text = json.dumps(reordered(value, rng), indent=indent)
    assert request_fingerprint(json.loads(text)).value == request_fingerprint(value).value


@given(plain_json, st.randoms(use_true_random=False))
def test_the_fingerprint_changes_exactly_when_the_json_value_does(
    value: Any, rng: random.Random
) -> None:
    other = mutated(value, rng)
    same = oracle(value) == oracle(other)
    event("same JSON" if same else "different JSON")
    note(f"{oracle(value)} vs {oracle(other)}")
    one, two = request_fingerprint(value), request_fingerprint(other)
    assert (one.value == two.value) == same
    assert len(one.value) == 64


@given(plain_json, st.sampled_from(("POST", "PATCH")), st.sampled_from(("/campaigns", "/x")))
def test_the_method_and_path_are_part_of_the_fingerprint(
    value: Any, method: str, path: str
) -> None:
    one = request_fingerprint(value, method=method, path=path).value
    assert (one == request_fingerprint(value).value) == ((method, path) == ("POST", "/campaigns"))


# ---------------------------------------------------------------------------------------------
# The idempotency decision (D-idempotency).


@given(
    plain_json,
    plain_json,
    st.floats(-1e12, 1e12),
    st.floats(0, 1e6),
    st.integers(100, 599),
    st.floats(0, 1e6),
)
def test_the_decision_follows_the_window_and_the_fingerprint(
    stored_body: Any, body: Any, stored_at: float, age: float, status: int, window: float
) -> None:
    stored_print = request_fingerprint(stored_body).value
    incoming = request_fingerprint(body).value
    record = IdempotencyRecord(stored_print, status, {"any": "body"}, stored_at)
    now = stored_at + age
    decision = decide_idempotency(record, incoming, now, window_seconds=window)
    # D-idempotency compares times exactly, with no float rounding.
    live = Fraction(now) - Fraction(stored_at) < Fraction(window)
    if not live:
        assert decision.action is IdempotencyAction.EXECUTE
        assert decision.status == 200
    elif oracle(stored_body) == oracle(body):
        assert decision.action is IdempotencyAction.REPLAY
        assert decision.value == record
        assert decision.status == status
    else:
        assert decision.action is IdempotencyAction.REJECT
        assert decision.keys == (ErrorKey.INVALID_REQUEST,)
        assert decision.envelope()["field"] == "Idempotency-Key"
    assert decide_idempotency(None, incoming, now).action is IdempotencyAction.EXECUTE
