"""The creation rules from the body's bytes with msgspec's typed decoder, times as a `Literal`.

As `msgspec_rules.validate_json`, but a window's `startTime` and `stopTime` are a `Literal` of
the 1,440 `HH:MM` strings, which msgspec checks with a table look-up where `Meta(pattern=...)`
runs a regular expression (issue 29's "times of day as a literal"). msgspec stops at the first
error.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from benchmarks.peers import msgspec_rules

Time = Literal[tuple(f"{hour:02d}:{minute:02d}" for hour in range(24) for minute in range(60))]  # type: ignore[valid-type]


class DayWindow(msgspec_rules.DayWindow, frozen=True):
    startTime: Time
    stopTime: Time


class Schedule(msgspec_rules.Schedule, frozen=True):
    mon: DayWindow | None = None
    tue: DayWindow | None = None
    wed: DayWindow | None = None
    thu: DayWindow | None = None
    fri: DayWindow | None = None
    sat: DayWindow | None = None
    sun: DayWindow | None = None


class EnabledCycles(msgspec_rules.EnabledCycles, frozen=True):
    schedule: Schedule | None = None


# Every other field, its bounds from `_core.limits`, is `msgspec_rules.Campaign`'s.
class Campaign(msgspec_rules.Campaign, frozen=True):
    scheduling: Schedule | None = None


_DECODER = msgspec.json.Decoder(Campaign)


def validate_json(body: bytes) -> tuple[bool, object]:
    """The typed decoder, then `msgspec_rules`' post-check, or the first error met."""
    try:
        campaign = _DECODER.decode(body)
        return True, (campaign, msgspec_rules.post_check(campaign, EnabledCycles))
    except msgspec.ValidationError as error:
        return False, str(error)
