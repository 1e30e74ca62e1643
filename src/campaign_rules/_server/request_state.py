"""What the fingerprint, idempotency and rate checks hand their rules, already read.

Each check reads its arguments once (a bounded walk of the body, a store lookup, the limiter's
table) into one of these small subjects; the rules of `_rules/request.py` judge the subject,
and the runner makes their findings violations with the keys of `_rules/table.py`.
"""

from __future__ import annotations

import attrs

from campaign_rules._core.limits import NS_PER_SECOND

__all__ = ["CanonicalRequest", "IdempotencyState", "RateRequest", "whole_seconds"]


@attrs.frozen
class CanonicalRequest:
    """A request to fingerprint: its canonical JSON text, `None` when it is not plain JSON."""

    text: str | None


@attrs.frozen
class IdempotencyState:
    """What `decide_idempotency` found: the server's own unusable argument, or a reused key.

    `unusable` names the argument the server gave that cannot be read (`None` when all can);
    `reused` is whether a live record under the key holds another request's fingerprint;
    `in_use` whether a live claim under the key holds this request's, still running
    (D-idempotency-claim).
    """

    unusable: str | None
    reused: bool
    in_use: bool = False


@attrs.frozen
class RateRequest:
    """One request put to the limiter: the key and clock reading read, and the wait it got.

    `key` and `reading` are `None` when unusable; `wait_ns` is 0 when the request is allowed
    (or was not counted), else the exact wait in nanoseconds. `unusable` names what else the
    server gave the shared rate step that cannot be read (its stored state or a setting), `None`
    when all can (D-rate-shared).
    """

    key: str | None
    reading: int | None
    wait_ns: int
    unusable: str | None = None


def whole_seconds(nanoseconds: int) -> int:
    """`nanoseconds` in whole seconds, rounded up (D-rate-limit: `Retry-After`)."""
    return -(-nanoseconds // NS_PER_SECOND)
