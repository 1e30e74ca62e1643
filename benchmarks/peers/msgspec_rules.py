"""The creation rules with msgspec: Structs with `forbid_unknown_fields`, `Meta` constraints,
and a post-check for the rules that join fields.

msgspec stops at the first error it meets, so it reports one error where the others report all.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from benchmarks.peers._tzdata import ZONE_NAMES
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    FILTER_LIST_MAX_ITEMS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
)

HH_MM = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
UUID_V4 = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"

Time = Annotated[str, Meta(pattern=HH_MM)]
FilterList = Annotated[
    list[Annotated[str, Meta(min_length=1)]], Meta(max_length=FILTER_LIST_MAX_ITEMS)
]


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


# D-contact-statuses: an enabled block is on a phone_call campaign (the whatsapp one is refused).
PhoneStatus = Literal[
    "queue", "sending", "failed", "retrying", "converted", "voicemail", "answered"
]
StatusList = Annotated[list[PhoneStatus], Meta(max_length=FILTER_LIST_MAX_ITEMS)]


class EnabledCycles(Struct, forbid_unknown_fields=True, frozen=True):
    enabled: Literal[True]
    mode: Literal["cooldown", "scheduled"]
    max_iterations: Annotated[int, Meta(ge=MAX_ITERATIONS.low, le=MAX_ITERATIONS.high)]
    cooldown_minutes: (
        Annotated[int, Meta(ge=COOLDOWN_MINUTES.low, le=COOLDOWN_MINUTES.high)] | None
    ) = None
    filter_statuses: StatusList = []
    filter_tags: FilterList = []
    schedule: Schedule | None = None
    schedule_start_date: datetime.date | None = None
    schedule_end_date: datetime.date | None = None


class DisabledCycles(Struct, frozen=True):
    """spec 2.4 rule 2: a block not enabled is ignored, but for the type of `enabled`."""

    enabled: bool = False


class Campaign(Struct, forbid_unknown_fields=True, frozen=True):
    name: Annotated[str, Meta(max_length=NAME_MAX_LENGTH, pattern=r"\S")]
    agent_id: Annotated[str, Meta(pattern=UUID_V4)]
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
    # msgspec tags unions by a string or integer member only, so the block is converted by
    # the post-check, once `enabled` says which shape it has.
    cycles: dict[str, Any] | None = None


def windows_of(schedule: Schedule | None) -> list[DayWindow]:
    if schedule is None:
        return []
    return [window for day in schedule.__struct_fields__ if (window := getattr(schedule, day))]


def post_check(
    campaign: Any,
    enabled_shape: type[Any] = EnabledCycles,
    check_window: Callable[[Any], None] | None = None,
) -> object:
    """Check what the structs cannot say; the cycles block, converted.

    For `msgspec_tuned`: an enabled block is converted to `enabled_shape`, and each window is
    given to `check_window` too.
    """
    if campaign.timezone not in ZONE_NAMES:
        raise msgspec.ValidationError("timezone must be an IANA time zone name - at `$.timezone`")
    if campaign.integration_type == "phone_call":
        if campaign.template is not None or campaign.template_alt is not None:
            raise msgspec.ValidationError("template and template_alt are for whatsapp only")
    elif campaign.first_message is not None:
        raise msgspec.ValidationError("first_message is for phone_call campaigns only")
    windows = windows_of(campaign.scheduling)
    cycles = None
    if campaign.cycles is not None:
        enabled = campaign.cycles.get("enabled") is True
        shape = enabled_shape if enabled else DisabledCycles
        cycles = msgspec.convert(campaign.cycles, shape, strict=True)
    if isinstance(cycles, enabled_shape):
        if campaign.integration_type != "phone_call":
            raise msgspec.ValidationError("cycles can be enabled on phone_call campaigns only")
        if cycles.mode == "cooldown":
            if cycles.cooldown_minutes is None:
                raise msgspec.ValidationError("cooldown_minutes is required in cooldown mode")
            if cycles.schedule or cycles.schedule_start_date or cycles.schedule_end_date:
                raise msgspec.ValidationError("schedule fields are for scheduled mode only")
        elif cycles.schedule is None:
            raise msgspec.ValidationError("schedule is required in scheduled mode")
        start, end = cycles.schedule_start_date, cycles.schedule_end_date
        if start is not None and end is not None and start > end:
            raise msgspec.ValidationError("schedule_end_date is before schedule_start_date")
        for items in (cycles.filter_statuses, cycles.filter_tags):
            if len(set(items)) != len(items):
                raise msgspec.ValidationError("filter items must be unique")
        windows += windows_of(cycles.schedule)
    for window in windows:
        if check_window is not None:
            check_window(window)
        # Two HH:MM strings compare as the times they stand for.
        if window.startTime >= window.stopTime:
            raise msgspec.ValidationError("stopTime must be later than startTime")
    return cycles


def validate(payload: object) -> tuple[bool, object]:
    """The structs, or the first error msgspec meets."""
    try:
        campaign = msgspec.convert(payload, Campaign, strict=True)
        return True, (campaign, post_check(campaign))
    except msgspec.ValidationError as error:
        return False, str(error)


_DECODER = msgspec.json.Decoder(Campaign)


def validate_json(body: bytes) -> tuple[bool, object]:
    """From the body's bytes: a typed `msgspec.json.Decoder`, then the post-check (issue 29).

    msgspec keeps the last of repeated members, reads what `Meta` allows, and stops at the
    first error, like `validate`.
    """
    try:
        campaign = _DECODER.decode(body)
        return True, (campaign, post_check(campaign))
    except msgspec.ValidationError as error:  # a DecodeError too
        return False, str(error)
