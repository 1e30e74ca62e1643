"""The creation rules with msgspec, tuned: no regular expression at all.

In `msgspec_rules`, the `Meta(pattern=...)` constraints take about three quarters of
`msgspec.convert`'s time on the corpus. Here the structs carry only the cheap constraints
(bounds, lengths, `Literal`s, `uuid.UUID` parsed in C) and are not tracked by the garbage
collector (`gc=False`). The post-check does the rest: a time of `scheduling` is one of the
1,440 `HH:MM` strings (a set look-up), `agent_id` a UUID of version 4 and variant RFC 4122,
`name` not blank; then `msgspec_rules`' post-check, for the rules that join fields. msgspec
stops at the first error.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from benchmarks.peers import msgspec_rules
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
)

_TIMES = frozenset(f"{hour:02d}:{minute:02d}" for hour in range(24) for minute in range(60))


class DayWindow(Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    startTime: str
    stopTime: str
    active: bool


class Schedule(Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    mon: DayWindow | None = None
    tue: DayWindow | None = None
    wed: DayWindow | None = None
    thu: DayWindow | None = None
    fri: DayWindow | None = None
    sat: DayWindow | None = None
    sun: DayWindow | None = None


class EnabledCycles(Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    enabled: Literal[True]
    mode: Literal["cooldown", "scheduled"]
    max_iterations: Annotated[int, Meta(ge=MAX_ITERATIONS.low, le=MAX_ITERATIONS.high)]
    cooldown_minutes: (
        Annotated[int, Meta(ge=COOLDOWN_MINUTES.low, le=COOLDOWN_MINUTES.high)] | None
    ) = None
    filter_statuses: msgspec_rules.StatusList = []
    filter_tags: msgspec_rules.FilterList = []
    schedule: Schedule | None = None
    schedule_start_date: datetime.date | None = None
    schedule_end_date: datetime.date | None = None


class Campaign(Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    name: Annotated[str, Meta(max_length=NAME_MAX_LENGTH)]
    agent_id: uuid.UUID
    integration_id: Annotated[str, Meta(min_length=1)]
    integration_type: Literal["phone_call", "whatsapp"]
    description: str | None = None
    timezone: str = "America/Mexico_City"
    retries: Annotated[int, Meta(ge=RETRIES.low, le=RETRIES.high)] = DEFAULT_RETRIES
    message_limit: Annotated[int, Meta(ge=MESSAGE_LIMIT.low, le=MESSAGE_LIMIT.high)] = (
        DEFAULT_MESSAGE_LIMIT
    )
    first_message: str | None = None
    template: str | None = None
    template_alt: str | None = None
    scheduling: Schedule | None = None
    cycles: dict[str, Any] | None = None


def _check_times(window: DayWindow) -> None:
    if window.startTime not in _TIMES or window.stopTime not in _TIMES:
        raise msgspec.ValidationError("startTime and stopTime are HH:MM")


def _post_check(campaign: Campaign) -> object:
    """The checks of the patterns left out, within `msgspec_rules`' post-check."""
    if not campaign.name.strip():
        raise msgspec.ValidationError("name is blank")
    agent = campaign.agent_id
    if agent.version != 4 or agent.variant != uuid.RFC_4122:
        raise msgspec.ValidationError("agent_id is not a UUID v4")
    return msgspec_rules.post_check(campaign, EnabledCycles, _check_times)


def validate(payload: object) -> tuple[bool, object]:
    """The structs, or the first error msgspec (or the post-check) meets."""
    try:
        campaign = msgspec.convert(payload, Campaign, strict=True)
        return True, (campaign, _post_check(campaign))
    except msgspec.ValidationError as error:
        return False, str(error)
