"""The rate limiter's cost per request and its memory, as ratios measured in one run.

Claims (D-rate-limit): a request costs O(1) amortized, whatever the number of keys seen, and
the table holds only the keys with an allowed request in the last second (or at most 1024, or
twice the live keys at the last sweep). Run: `.venv/bin/python benchmarks/rate_limiter.py`.
"""

from __future__ import annotations

import time

from campaign_rules._core.limits import NS_PER_SECOND, RATE_LIMIT_REQUESTS
from campaign_rules.rate import RateLimiter

REQUESTS = 1_000_000


def run(distinct_keys: int, requests_per_second: int) -> tuple[float, int]:
    """Nanoseconds per `acquire`, and the largest table seen, for a stream over many keys."""
    limiter = RateLimiter()
    step = NS_PER_SECOND // requests_per_second
    largest = 0
    started = time.perf_counter_ns()
    for index in range(REQUESTS):
        limiter.acquire(f"key-{index % distinct_keys}", index * step)
        if index % 4096 == 0:
            largest = max(largest, len(limiter))
    elapsed = time.perf_counter_ns() - started
    return elapsed / REQUESTS, max(largest, len(limiter))


def main() -> None:
    few_cost, few_size = run(distinct_keys=100, requests_per_second=10_000)
    many_cost, many_size = run(distinct_keys=REQUESTS, requests_per_second=10_000)
    print(f"100 keys:       {few_cost:7.0f} ns per acquire, table at most {few_size}")
    print(f"1,000,000 keys: {many_cost:7.0f} ns per acquire, table at most {many_size}")
    print(f"cost ratio, 1,000,000 keys to 100 keys: {many_cost / few_cost:.2f}")
    # 10,000 requests a second to distinct keys, one each: a key is live for one emission
    # interval (1/12 s) after its request, so about 833 keys are live at any time.
    live = 10_000 / RATE_LIMIT_REQUESTS
    print(f"table at most {many_size / live:.2f} x the live keys (the claim: at most 2)")


if __name__ == "__main__":
    main()
