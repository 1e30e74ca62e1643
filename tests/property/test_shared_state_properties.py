"""Properties of the decisions over state kept elsewhere (D-rate-shared, D-idempotency-claim).

`decide_rate` over a store is `RateLimiter` over its dict: the same answers for any readings, in
any order, for any rate; the state it hands back expires exactly when it stops mattering; and
decisions made by several instances that compare-and-set one store allow no more than one
limiter would. A claimed `Idempotency-Key` is refused while the claim lives and free after.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import ErrorKey
from campaign_rules.idempotency import (
    IDEMPOTENCY_CLAIM_SECONDS,
    IdempotencyAction,
    IdempotencyClaim,
    decide_idempotency,
)
from campaign_rules.rate import RateLimiter, decide_rate

rates = st.tuples(st.integers(1, 20), st.integers(20, 10**9), st.integers(1, 15))
readings = st.lists(st.tuples(st.sampled_from("abc"), st.integers(-(10**12), 10**12)), max_size=60)
fingerprints = st.text("0123456789abcdef", min_size=64, max_size=64)


def settings(rate: tuple[int, int, int]) -> dict[str, int]:
    requests, period, burst = rate
    return {"requests": requests, "period_ns": period, "burst": burst}


@given(rates, readings)
def test_the_shared_step_over_a_store_is_the_in_process_limiter(
    rate: tuple[int, int, int], requests: list[tuple[str, int]]
) -> None:
    limiter, store = RateLimiter(**settings(rate)), dict[str, int]()
    for key, now in requests:
        local = limiter.acquire(key, now)
        shared = decide_rate(store.get(key), key, now, **settings(rate))
        assert (shared.ok, shared.retry_after_ns, shared.keys) == (
            local.ok,
            local.retry_after_ns,
            local.keys,
        )
        assert (shared.state is None) is (not shared.ok)
        if shared.state is not None:
            store[key] = shared.state


@given(rates, st.lists(st.integers(0, 10**10), min_size=1, max_size=30))
def test_the_state_expires_exactly_when_it_stops_mattering(
    rate: tuple[int, int, int], gaps: list[int]
) -> None:
    # At `now + state_ttl_ns` the stored state decides as no state does; a nanosecond earlier
    # it still holds the key back (a store that expires it then changes no decision).
    state: int | None = None
    now = 0
    for gap in gaps:
        now += gap
        decision = decide_rate(state, "k", now, **settings(rate))
        if decision.state is None:
            continue
        state, ttl = decision.state, decision.state_ttl_ns
        assert ttl > 0
        later = now + ttl
        kept = decide_rate(state, "k", later, **settings(rate))
        assert kept.state == decide_rate(None, "k", later, **settings(rate)).state
        earlier = decide_rate(state, "k", later - 1, **settings(rate))
        assert earlier.state != decide_rate(None, "k", later - 1, **settings(rate)).state


@given(rates, st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**8)), max_size=80))
def test_instances_that_compare_and_set_allow_no_more_than_the_rate(
    rate: tuple[int, int, int], steps: list[tuple[int, int]]
) -> None:
    # Four instances each read the store, and decide later, when the state may have changed;
    # a compare-and-set over a changed state fails, and that instance reads and decides again.
    requests, period, burst = rate
    stored: int | None = None
    reads: dict[int, int | None] = {}
    now, allowed = 0, list[int]()
    for instance, gap in steps:
        now += gap
        if instance not in reads:
            reads[instance] = stored
            continue
        read = reads.pop(instance)
        decision = decide_rate(read, "k", now, **settings(rate))
        if decision.ok and read != stored:  # the compare-and-set fails: read and decide again
            decision = decide_rate(stored, "k", now, **settings(rate))
        if decision.ok:
            stored = decision.state
            allowed.append(now)
    for first in range(len(allowed)):
        for last in range(first, len(allowed)):
            span = allowed[last] - allowed[first]
            assert last - first + 1 <= burst + span * requests // period


@given(
    fingerprints,
    fingerprints,
    st.integers(0, 10**10),
    st.integers(0, 2 * IDEMPOTENCY_CLAIM_SECONDS * 1000),
)
def test_a_claim_refuses_while_it_lives_and_frees_the_key_after(
    claimed: str, incoming: str, claimed_at: int, elapsed_ms: int
) -> None:
    now = claimed_at + elapsed_ms / 1000
    decision = decide_idempotency(IdempotencyClaim(claimed, claimed_at), incoming, now)
    if now - claimed_at >= IDEMPOTENCY_CLAIM_SECONDS:
        assert (decision.action, decision.ok) == (IdempotencyAction.EXECUTE, True)
    elif claimed == incoming:
        assert decision.keys == (ErrorKey.RATE_LIMITED,)
        assert decision.headers() == {"Retry-After": "1"}
    else:
        assert decision.keys == (ErrorKey.INVALID_REQUEST,)
        assert decision.headers() == {}


any_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.binary(max_size=8),
    st.builds(object),
    st.sampled_from((10**5000, -(10**5000), "12", [1], {"a": 1})),
)


@given(any_value, any_value, any_value, any_value, any_value, any_value)
def test_the_shared_step_and_a_claim_never_raise(
    stored: object, key: object, now: object, requests: object, period: object, burst: object
) -> None:
    decision = decide_rate(stored, key, now, requests=requests, period_ns=period, burst=burst)
    assert decision.ok is (decision.state is not None)
    refusals = ({ErrorKey.RATE_LIMITED}, {ErrorKey.SERVER_ERROR})
    assert decision.ok or set(decision.keys) in refusals
    json.dumps(decision.envelope(), allow_nan=False)
    claim = decide_idempotency(IdempotencyClaim(stored, now), key, requests, claim_seconds=burst)  # type: ignore[arg-type]
    json.dumps(claim.envelope(), allow_nan=False)
    assert claim.headers() in ({}, {"Retry-After": "1"})
