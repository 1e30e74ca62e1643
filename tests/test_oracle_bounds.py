"""The deliberately independent oracle: each bound as the spec or a decision writes it, literally.

Every other test takes a bound from `campaign_rules._core.limits`; these do not, so that a bound
changed by mistake fails here, naming the clause it breaks. The cited cases of `tests/cases/`
(one file per rule, each citing its clause) are the other half of the oracle: they show the
values on each side of a bound as the spec states them. A bound changed on purpose is changed in
`limits`, then here and in its case file, and `python scripts/regenerate.py` writes the rest
(docs/testing.md, "Changing a bound").
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign_rules._core import limits

# name in `limits`: (the value as its clause writes it, the clause)
SPEC: dict[str, tuple[Any, str]] = {
    "NAME_MAX_LENGTH": (255, "spec 2.1, 8: `name` at most 255 characters"),
    "RETRIES": ((0, 5), "spec 2.1, 8: `retries` 0 to 5"),
    "DEFAULT_RETRIES": (1, "spec 2.1, 8: `retries` default 1"),
    "MESSAGE_LIMIT": ((1, 10000), "spec 2.1, 8: `message_limit` 1 to 10000"),
    "DEFAULT_MESSAGE_LIMIT": (250, "spec 2.1, 8: `message_limit` default 250"),
    "MAX_ITERATIONS": ((2, 12), "spec 2.4, 8: `cycles.max_iterations` 2 to 12"),
    "COOLDOWN_MINUTES": ((0, 1440), "spec 2.4, 8: `cycles.cooldown_minutes` 0 to 1440"),
    "DEFAULT_TIMEZONE": ("America/Mexico_City", "spec 2.1: `timezone` default"),
    "RATE_LIMIT_REQUESTS": (12, "spec 4.2, 8: 12 requests per second"),
    "RATE_LIMIT_BURST": (12, "D-rate-limit: a burst of 12"),
    "IDEMPOTENCY_WINDOW_SECONDS": (24 * 60 * 60, "D-idempotency: replayed for 24 hours"),
    "IDEMPOTENCY_KEY_MAX_LENGTH": (255, "D-idempotency-key: 1 to 255 characters"),
    "FILTER_LIST_MAX_ITEMS": (100, "D-filter-lists: at most 100 items"),
    "OBJECT_MAX_MEMBERS": (64, "D-hostile-input: an object of more than 64 members"),
    "PATCH_MAX_MEMBERS": (51, "D-merge-patch: 64 less the 13 members of a campaign"),
    "FIELD_PATH_MAX_LENGTH": (64, "D-hostile-input: 64 characters of a member name"),
    "FIELD_MAX_LENGTH": (85, "D-hostile-input: no path is longer than 85 characters"),
    "POINTER_OUTPUT_MAX_LENGTH": (256, "D-shown-text: a pointer of at most 256 characters"),
    "VIOLATIONS_MAX": (50, "D-hostile-input: at most 50 violations"),
    "THREAD_ID_MAX_LENGTH": (128, "D-thread-id: 1 to 128 characters"),
    "PATH_ID_MAX": (2**53 - 1, "D-path-ids: I-JSON's largest exact integer"),
    "AUTHORIZATION_MAX_LENGTH": (4096, "D-authorization: half of an 8 KiB header line"),
    "TIMEZONE_NAME_MAX_LENGTH": (64, "D-timezone: longer input is refused unread"),
}


def _as_written(value: object) -> object:
    """A `Bounds` as the spec writes it, `(low, high)`; any other value as it is."""
    return (value.low, value.high) if isinstance(value, limits.Bounds) else value


@pytest.mark.parametrize("name", sorted(SPEC))
def test_the_bound_is_the_clauses(name: str) -> None:
    expected, clause = SPEC[name]
    assert _as_written(getattr(limits, name)) == expected, f"limits.{name} breaks {clause}"
