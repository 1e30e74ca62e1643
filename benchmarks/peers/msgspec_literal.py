"""The creation rules from the body's bytes with msgspec's typed decoder, times as a `Literal`.

As `msgspec_rules.validate_json`, but a window's `startTime` and `stopTime` are a `Literal` of
the 1,440 `HH:MM` strings, which msgspec checks with a table look-up where `Meta(pattern=...)`
runs a regular expression (issue 29's "times of day as a literal"). msgspec stops at the first
error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from benchmarks.peers import msgspec_rules

Time = Literal[tuple(f"{hour:02d}:{minute:02d}" for hour in range(24) for minute in range(60))]  # type: ignore[valid-type]


class DayWindow(Struct, forbid_unknown_fields=True, frozen=True):
    startTime: Time
    stopTime: Time
    active: bool


class Schedule(Struct, forbid_unknown_fields=True, frozen=True):
    mon: DayWindow | None = None
    tue: DayWindow | None = None
    wed: DayWindow | None = None
    thu: DayWindow | None = None
    fri: DayWindow | None = None
    sat: DayWindow | None = None
    sun: DayWindow | None = None


class EnabledCycles(msgspec_rules.EnabledCycles, frozen=True):
    schedule: Schedule | None = None


class Campaign(Struct, forbid_unknown_fields=True, frozen=True):
    name: Annotated[str, Meta(max_length=255, pattern=r"\S")]
    agent_id: Annotated[str, Meta(pattern=msgspec_rules.UUID_V4)]
    integration_id: Annotated[str, Meta(min_length=1)]
    integration_type: Literal["phone_call", "whatsapp"]
    description: str | None = None
    timezone: str = "America/Mexico_City"
    retries: Annotated[int, Meta(ge=0, le=5)] = 1
    message_limit: Annotated[int, Meta(ge=1, le=10_000)] = 250
    first_message: str | None = None
    template: str | None = None
    template_alt: str | None = None
    scheduling: Schedule | None = None
    cycles: dict[str, Any] | None = None


_DECODER = msgspec.json.Decoder(Campaign)


def validate_json(body: bytes) -> tuple[bool, object]:
    """The typed decoder, then `msgspec_rules`' post-check, or the first error met."""
    try:
        campaign = _DECODER.decode(body)
        return True, (campaign, msgspec_rules.post_check(campaign, EnabledCycles))
    except msgspec.ValidationError as error:
        return False, str(error)
