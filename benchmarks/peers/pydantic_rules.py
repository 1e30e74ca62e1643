"""The creation rules with pydantic v2: strict models, `Literal`s, `Field` constraints,
`extra="forbid"`, and model validators for the rules that join fields.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    model_validator,
)

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


def _is_zone(name: str) -> str:
    if name not in ZONE_NAMES:
        raise ValueError("timezone must be an IANA time zone name")
    return name


def _unique(items: list[str]) -> list[str]:
    if len(set(items)) != len(items):
        raise ValueError("items must be unique")
    return items


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class DayWindow(_Strict):
    startTime: Annotated[str, Field(pattern=HH_MM)]
    stopTime: Annotated[str, Field(pattern=HH_MM)]
    active: bool

    @model_validator(mode="after")
    def starts_before_stop(self) -> DayWindow:
        # Two HH:MM strings compare as the times they stand for.
        if self.startTime >= self.stopTime:
            raise ValueError("stopTime must be later than startTime")
        return self


class Schedule(_Strict):
    mon: DayWindow | None = None
    tue: DayWindow | None = None
    wed: DayWindow | None = None
    thu: DayWindow | None = None
    fri: DayWindow | None = None
    sat: DayWindow | None = None
    sun: DayWindow | None = None


FilterList = Annotated[
    list[Annotated[str, Field(min_length=1)]],
    Field(max_length=FILTER_LIST_MAX_ITEMS),
    AfterValidator(_unique),
]
# Dates come as strings: lax mode for these two fields parses YYYY-MM-DD.
# D-contact-statuses: an enabled block is on a phone_call campaign (the whatsapp one is refused).
PhoneStatus = Literal[
    "queue", "sending", "failed", "retrying", "converted", "voicemail", "answered"
]
StatusList = Annotated[
    list[PhoneStatus], Field(max_length=FILTER_LIST_MAX_ITEMS), AfterValidator(_unique)
]
LaxDate = Annotated[datetime.date | None, Field(strict=False)]


class EnabledCycles(_Strict):
    enabled: Literal[True]
    mode: Literal["cooldown", "scheduled"]
    max_iterations: Annotated[int, Field(ge=MAX_ITERATIONS.low, le=MAX_ITERATIONS.high)]
    cooldown_minutes: (
        Annotated[int, Field(ge=COOLDOWN_MINUTES.low, le=COOLDOWN_MINUTES.high)] | None
    ) = None
    filter_statuses: StatusList = []
    filter_tags: FilterList = []
    schedule: Schedule | None = None
    schedule_start_date: LaxDate = None
    schedule_end_date: LaxDate = None

    @model_validator(mode="after")
    def mode_rules(self) -> EnabledCycles:
        if self.mode == "cooldown":
            if self.cooldown_minutes is None:
                raise ValueError("cooldown_minutes is required in cooldown mode")
            if self.schedule or self.schedule_start_date or self.schedule_end_date:
                raise ValueError("schedule fields are for scheduled mode only")
        elif self.schedule is None:
            raise ValueError("schedule is required in scheduled mode")
        start, end = self.schedule_start_date, self.schedule_end_date
        if start is not None and end is not None and start > end:
            raise ValueError("schedule_end_date must not be before schedule_start_date")
        return self


class DisabledCycles(BaseModel):
    """spec 2.4 rule 2: a block not enabled is ignored, but for the type of `enabled`."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    enabled: bool = False


def _cycles_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "on" if value.get("enabled") is True else "off"
    return "on" if getattr(value, "enabled", False) else "off"


Cycles = Annotated[
    Annotated[EnabledCycles, Tag("on")] | Annotated[DisabledCycles, Tag("off")],
    Discriminator(_cycles_kind),
]


class Campaign(_Strict):
    name: Annotated[str, Field(max_length=NAME_MAX_LENGTH, pattern=r"\S")]
    description: str | None = None
    agent_id: Annotated[str, Field(pattern=UUID_V4)]
    integration_id: Annotated[str, Field(min_length=1)]
    integration_type: Literal["phone_call", "whatsapp"]
    timezone: Annotated[str, AfterValidator(_is_zone)] = "America/Mexico_City"
    retries: Annotated[int, Field(ge=RETRIES.low, le=RETRIES.high)] = DEFAULT_RETRIES
    message_limit: Annotated[int, Field(ge=MESSAGE_LIMIT.low, le=MESSAGE_LIMIT.high)] = (
        DEFAULT_MESSAGE_LIMIT
    )
    first_message: str | None = None
    template: str | None = None
    template_alt: str | None = None
    scheduling: Schedule | None = None
    cycles: Cycles | None = None

    @model_validator(mode="after")
    def channel_rules(self) -> Campaign:
        if self.integration_type == "phone_call":
            if self.template is not None or self.template_alt is not None:
                raise ValueError("template and template_alt are for whatsapp campaigns only")
        else:
            if self.first_message is not None:
                raise ValueError("first_message is for phone_call campaigns only")
            if isinstance(self.cycles, EnabledCycles):
                raise ValueError("cycles can be enabled on phone_call campaigns only")
        return self


def validate(payload: object) -> tuple[bool, object]:
    """The model, or every error pydantic reports."""
    try:
        return True, Campaign.model_validate(payload)
    except ValidationError as error:
        return False, error.errors(include_url=False)


def validate_json(body: bytes) -> tuple[bool, object]:
    """From the body's bytes: `model_validate_json`, strict, every error (issue 29)."""
    try:
        return True, Campaign.model_validate_json(body)
    except ValidationError as error:
        return False, error.errors(include_url=False)
