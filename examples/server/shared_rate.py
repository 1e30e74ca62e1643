"""The rate limit of a fleet: each key's state in Redis, decided by the library (D-rate-shared).

Per request, one round trip reads the key's state and Redis's clock (`TIME`, the one clock of
every instance); `campaign_rules.rate.decide_rate` decides; an allowed request writes the new
state with a script that only compares and sets, so the arithmetic stays the library's. A lost
race (another instance wrote first) is read and decided again. When Redis does not answer, the
worker's own `RateLimiter` decides, and Redis is left alone for a second (D-fleet).
"""

from __future__ import annotations

import logging
import time
from typing import Final

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from campaign_rules.rate import RateDecision, RateLimiter, RateResult, decide_rate

__all__ = ["REDIS_TIMEOUT_SECONDS", "SharedLimiter", "connect"]

# D-fleet: how long Redis may take to connect or to answer before the worker decides alone, and
# how long it is then left alone, so that a missing Redis costs no request a wait.
REDIS_TIMEOUT_SECONDS: Final = 0.25
REDIS_RETRY_SECONDS: Final = 1.0
# D-fleet: reads and decisions of one request, each lost to another instance's write, before
# the worker's own limiter decides it.
_ATTEMPTS: Final = 8
_LOG = logging.getLogger("uvicorn.error")

# Set KEYS[1] to ARGV[2] for ARGV[3] ms if it still holds ARGV[1] ("" for none): 1, else 0. It
# compares and sets; it decides nothing.
_COMPARE_AND_SET: Final = """
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""


def connect(url: str) -> redis.Redis:
    """A client of the Redis at `url`, with short timeouts and no retry of its own (D-fleet).

    redis-py retries a failed command ten times by default, with a back-off: a Redis that is
    gone would then hold each request for seconds, where the worker's own limiter answers now.
    """
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


class SharedLimiter:
    """One operation's limit over Redis, `local` deciding when Redis cannot (D-fleet).

    `acquire(key, now_ns)` answers as `RateLimiter.acquire` does; `now_ns` is the worker's
    clock, read only by `local`: Redis's own clock decides the shared state.
    """

    def __init__(
        self,
        client: redis.Redis,
        operation: str,
        local: RateLimiter,
        *,
        requests: int | None = None,
    ) -> None:
        self._client = client
        self._prefix = f"campaign-rate:{operation}:"
        self._local = local
        self._settings = {} if requests is None else {"requests": requests, "burst": requests}
        self._compare_and_set = client.register_script(_COMPARE_AND_SET)
        self._resting_until = 0.0

    def acquire(self, key: str, now_ns: int) -> RateResult:
        """The library's answer for one request of `key`, over the state every instance shares."""
        if time.monotonic() >= self._resting_until:
            try:
                decided = self._decide(key)
            except redis.RedisError as error:
                self._resting_until = time.monotonic() + REDIS_RETRY_SECONDS
                _LOG.warning("Redis did not answer (%s); each worker limits alone", error)
            else:
                if decided is not None:
                    return decided
        return self._local.acquire(key, now_ns)

    def _decide(self, key: str) -> RateDecision | None:
        """The decision over Redis; `None` when every attempt lost its race to another write."""
        name = self._prefix + key
        for _ in range(_ATTEMPTS):
            with self._client.pipeline(transaction=False) as pipe:
                stored, (seconds, microseconds) = pipe.get(name).time().execute()
            text = b"" if stored is None else stored
            now_ns = seconds * 1_000_000_000 + microseconds * 1_000
            state = None if stored is None else _state(stored)
            decision = decide_rate(state, key, now_ns, **self._settings)
            if decision.state is None:
                return decision  # refused (or unusable): nothing to write
            ttl_ms = max(1, -(-decision.state_ttl_ns // 1_000_000))
            if self._compare_and_set(keys=[name], args=[text, decision.state, ttl_ms]) == 1:
                return decision
        return None


def _state(stored: bytes) -> object:
    """The stored state as the library gave it (an `int`), or what cannot be one, as it is."""
    text = stored.decode("ascii", "replace")
    return int(text) if text.lstrip("-").isdigit() else text
