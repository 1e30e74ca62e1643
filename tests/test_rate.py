"""`RateLimiter` and `RateResult` (spec 4.2, 8; decisions D-rate-limit, D-rate-scope).

Examples at the edges; `tests/property/test_request_properties.py` has the properties.
"""

from __future__ import annotations

import copy
from http import HTTPStatus

import pytest

from campaign_rules import ErrorKey
from campaign_rules._core.limits import RATE_LIMIT_BURST, RATE_LIMIT_REQUESTS
from campaign_rules.rate import RateLimiter, RateResult
from campaign_rules.requests import check_thread_path
from campaign_rules.responses import parse_error
from tests.support import label

SECOND = 1_000_000_000
# The defaults, from `_core.limits` (D-rate-limit); their numbers are the oracle's.
REQUESTS, BURST = RATE_LIMIT_REQUESTS, RATE_LIMIT_BURST
# One emission interval, rounded up to a whole nanosecond: ceil(10**9 / requests).
EMISSION = -(-SECOND // REQUESTS)


def allowed(limiter: RateLimiter, key: str, now: int, count: int = 1) -> list[bool]:
    return [limiter.acquire(key, now).ok for _ in range(count)]


class TestDefaults:
    def test_a_full_burst_then_the_next_waits(self) -> None:
        limiter = RateLimiter()
        assert allowed(limiter, "k", 0, BURST) == [True] * BURST
        refused = limiter.acquire("k", 0)
        assert refused.keys == (ErrorKey.RATE_LIMITED,)
        assert refused.status == 429
        assert refused.value is None
        # The first slot frees one emission interval after the burst.
        assert refused.retry_after_ns == EMISSION
        assert refused.retry_after == pytest.approx(EMISSION / SECOND)
        assert refused.headers() == {"Retry-After": "1"}
        assert refused.envelope() == {
            "success": False,
            "error": "RATE_LIMITED",
            "message": "too many requests: retry after 1 second",
        }

    def test_the_retry_after_is_exact_to_the_nanosecond(self) -> None:
        limiter = RateLimiter()
        allowed(limiter, "k", 0, BURST)
        wait = limiter.acquire("k", 0).retry_after_ns
        early = copy.deepcopy(limiter)
        assert not early.acquire("k", wait - 1).ok
        assert limiter.acquire("k", wait).ok

    def test_the_rate_a_second_in_batches_is_never_refused(self) -> None:
        limiter = RateLimiter()
        for second in range(5):
            assert allowed(limiter, "k", second * SECOND, REQUESTS) == [True] * REQUESTS

    def test_a_steady_stream_at_the_rate_is_never_refused(self) -> None:
        limiter = RateLimiter()
        # ceil(k * 10**9 / requests): the k-th request no earlier than the k-th emission.
        times = [-(-k * SECOND // REQUESTS) for k in range(1000)]
        assert all(limiter.acquire("k", t).ok for t in times)

    def test_with_a_burst_of_one_every_gap_must_be_a_whole_interval(self) -> None:
        limiter = RateLimiter(burst=1)
        assert all(limiter.acquire("k", k * EMISSION).ok for k in range(1000))
        # One nanosecond less is shorter than 10**9 / requests.
        assert not limiter.acquire("k", 999 * EMISSION + EMISSION - 1).ok

    def test_keys_have_separate_budgets(self) -> None:
        limiter = RateLimiter()
        allowed(limiter, "a", 0, BURST)
        assert not limiter.acquire("a", 0).ok
        assert limiter.acquire("b", 0).ok
        assert limiter.acquire("b", 0).value == "b"

    def test_a_refused_request_is_not_counted(self) -> None:
        limiter = RateLimiter()
        allowed(limiter, "k", 0, BURST)
        for _ in range(1000):
            assert not limiter.acquire("k", 1).ok
        assert limiter.acquire("k", EMISSION).ok


class TestThreadBody:
    """D-rate-scope: a refused thread request answers the body of spec 7.4."""

    def test_a_limited_thread_request_gets_the_integer_error_body(self) -> None:
        limiter = RateLimiter(burst=1)
        limiter.acquire("k", 0)
        refused = limiter.acquire("k", 0)
        assert refused.thread_body() == {
            "error": 429,
            "message": "too many requests: retry after 1 second",
        }
        assert refused.thread_body() == {
            "error": refused.status,
            "message": refused.envelope()["message"],
        }  # type: ignore[index]

    def test_an_allowed_request_has_no_body(self) -> None:
        assert RateLimiter().acquire("k", 0).thread_body() is None

    def test_an_unusable_clock_gets_a_500_body(self) -> None:
        body = RateLimiter().acquire("k", 5.0).thread_body()
        assert body is not None
        assert body["error"] == 500

    def test_the_body_has_the_shape_a_thread_path_error_has(self) -> None:
        limiter = RateLimiter(burst=1)
        limiter.acquire("k", 0)
        limited = limiter.acquire("k", 0).thread_body()
        malformed = check_thread_path("..").envelope()
        assert limited is not None
        assert malformed is not None
        assert limited.keys() == malformed.keys()
        assert parse_error(429, limited).ok


class TestRetryAfterHeader:
    @pytest.mark.parametrize(
        ("wait_ns", "header"),
        [(1, "1"), (SECOND - 1, "1"), (SECOND, "1"), (SECOND + 1, "2"), (60 * SECOND, "60")],
    )
    def test_whole_seconds_rounded_up(self, wait_ns: int, header: str) -> None:
        limiter = RateLimiter(requests=1, period_ns=wait_ns, burst=1)
        limiter.acquire("k", 0)
        refused = limiter.acquire("k", 0)
        assert refused.retry_after_ns == wait_ns
        assert refused.headers() == {"Retry-After": header}
        assert header in refused.envelope()["message"]

    def test_no_header_when_allowed(self) -> None:
        result = RateLimiter().acquire("k", 0)
        assert result.headers() == {}
        assert result.retry_after == 0.0
        assert result.status == 200
        assert result.envelope() is None


class TestClock:
    def test_time_going_backwards_grants_nothing(self) -> None:
        limiter = RateLimiter()
        allowed(limiter, "k", 10 * SECOND, BURST)
        refused = limiter.acquire("k", 0)
        assert not refused.ok
        # Counted from its own reading: allowed one interval after 10 s, as after 0 s.
        assert refused.retry_after_ns == 10 * SECOND + EMISSION

    def test_one_reading_far_ahead_changes_no_other_key(self) -> None:
        limiter = RateLimiter()
        assert limiter.acquire("a", 10**30).ok
        allowed(limiter, "b", 0, BURST)
        assert limiter.acquire("b", 0).retry_after_ns == EMISSION
        assert limiter.acquire("b", EMISSION).ok

    def test_one_reading_far_ahead_leaves_its_own_key_limited_from_it(self) -> None:
        limiter = RateLimiter(burst=1)
        assert limiter.acquire("a", 10**30).ok
        assert limiter.acquire("a", 0).retry_after_ns == 10**30 + EMISSION

    def test_mixing_two_clocks_limits_each_request_on_its_own_reading(self) -> None:
        limiter = RateLimiter()
        wall, monotonic = 1_700_000_000 * SECOND, 5 * SECOND
        assert limiter.acquire("wall", wall).ok
        allowed(limiter, "mono", monotonic, BURST)
        assert not limiter.acquire("mono", monotonic).ok
        assert limiter.acquire("mono", monotonic + EMISSION).ok

    def test_a_backwards_reading_on_a_busy_key_grants_nothing_beyond_its_burst(self) -> None:
        limiter = RateLimiter()
        allowed(limiter, "k", 10 * SECOND, 6)
        # Six in hand at 10 s; from an earlier reading no more than those six.
        assert [limiter.acquire("k", 9 * SECOND).ok for _ in range(7)] == [False] * 7

    def test_a_huge_clock_is_exact(self) -> None:
        limiter = RateLimiter()
        start = 10**30
        allowed(limiter, "k", start, BURST)
        assert limiter.acquire("k", start).retry_after_ns == EMISSION

    @pytest.mark.parametrize(
        "reading",
        [None, 1.5, 5.0, 0.0, float("nan"), float("inf"), "0", True, False, [0], HTTPStatus.OK],
        ids=repr,
    )
    def test_an_unusable_clock_is_a_server_error_and_counts_nothing(self, reading: object) -> None:
        limiter = RateLimiter(burst=1)
        result = limiter.acquire("k", reading)
        assert result.keys == (ErrorKey.SERVER_ERROR,)
        assert result.status == 500
        assert result.headers() == {}
        assert len(limiter) == 0
        assert limiter.acquire("k", 0).ok

    @pytest.mark.parametrize("key", [None, 5, b"k", ["k"], object()], ids=label)
    def test_an_unusable_key_is_a_server_error(self, key: object) -> None:
        result = RateLimiter().acquire(key, 0)
        assert result.keys == (ErrorKey.SERVER_ERROR,)
        assert type(result) is RateResult

    def test_an_integral_float_clock_is_refused(self) -> None:
        # D-rate-limit: the clock is integer nanoseconds; 5.0 is not 5 ns but a wrong clock.
        assert RateLimiter().acquire("k", 5.0).keys == (ErrorKey.SERVER_ERROR,)


class TestMemory:
    def test_prune_drops_only_entries_that_no_longer_limit(self) -> None:
        limiter = RateLimiter()
        limiter.acquire("old", 0)
        limiter.acquire("new", SECOND)
        assert len(limiter) == 2
        # "old" reached its arrival time one interval after 0 s; "new" one after 1 s.
        assert limiter.prune(SECOND) == 1
        assert len(limiter) == 1
        assert limiter.prune(SECOND + EMISSION) == 1
        assert len(limiter) == 0

    def test_pruning_changes_no_decision(self) -> None:
        kept, pruned = RateLimiter(), RateLimiter()
        for limiter in (kept, pruned):
            allowed(limiter, "k", 0, BURST)
        pruned.prune(0)
        for now in (0, 50_000_000, EMISSION, EMISSION + 1):
            assert kept.acquire("k", now).ok == pruned.acquire("k", now).ok

    def test_many_keys_are_swept_as_the_table_grows(self) -> None:
        limiter = RateLimiter()
        for index in range(100_000):
            limiter.acquire(f"key-{index}", index * SECOND)
        assert len(limiter) <= 2048

    def test_a_sweep_after_a_reading_far_ahead_keeps_later_keys(self) -> None:
        limiter = RateLimiter(burst=1)
        limiter.acquire("ahead", 10**30)
        for index in range(3000):
            limiter.acquire(f"key-{index}", 0)
        # Every key is still limited at 0: none was swept as of the reading far ahead.
        assert len(limiter) == 3001
        assert not limiter.acquire("key-0", 0).ok

    def test_prune_with_an_unusable_clock_prunes_as_of_the_latest_reading(self) -> None:
        limiter = RateLimiter()
        limiter.acquire("k", 0)
        limiter.acquire("j", SECOND)
        assert limiter.prune(None) == 1


class TestConfiguration:
    @pytest.mark.parametrize(
        "kwargs",
        [{"requests": 0}, {"period_ns": 0}, {"burst": 0}, {"requests": 1.5}, {"burst": True}],
        ids=repr,
    )
    def test_a_wrong_configuration_raises_when_made(self, kwargs: dict[str, object]) -> None:
        with pytest.raises(TypeError, match="must be a positive int"):
            RateLimiter(**kwargs)  # type: ignore[arg-type]
