"""One step of the rate decision (D-rate-limit, D-rate-shared): a key's state, a clock, the answer.

A generic cell rate algorithm keeps one number per key, the theoretical arrival time (TAT) of
its next request, in units of 1 / `requests` nanosecond so that all arithmetic is exact. This
is the step alone, over a state passed in and a new state handed back: `RateLimiter` keeps the
state in a dict of its process, `decide_rate` leaves it to a store every instance shares.
"""

from __future__ import annotations

__all__ = ["gcra_step"]


def gcra_step(
    arrival: int | None, now: int, interval: int, tolerance: int, requests: int
) -> tuple[int | None, int]:
    """The key's new TAT and 0 when the request at `now` is allowed; `None` and the wait if not.

    `arrival` is the key's TAT (`None`: no state, the same as a TAT not after `now`); `now`,
    `interval` and `tolerance` are in units of 1 / `requests` ns. The wait is in whole
    nanoseconds, rounded up, so that at `now + wait` the request is allowed and a nanosecond
    earlier it is not. A refused request changes nothing; the TAT never moves back.
    """
    tat = now if arrival is None else arrival
    earliest = tat - tolerance
    if now < earliest:
        return None, -((now - earliest) // requests)  # ceiling division
    return max(tat, now) + interval, 0
