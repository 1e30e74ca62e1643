"""What the strategies read from the library: the wire shape, zones, error key; sample ids."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    OWNER_FIELDS,
    REQUIRED_CAMPAIGN_MEMBERS,
    WINDOW_MEMBERS,
)
from campaign_rules._core.enums import CyclesMode, ErrorKey, IntegrationType
from campaign_rules._core.limits import SCHEDULE_ONLY_CYCLES_FIELDS
from campaign_rules._core.timezones import timezone_names

CHANNELS: Final = tuple(channel.value for channel in IntegrationType)
MODES: Final = tuple(mode.value for mode in CyclesMode)
# The names of each object's members, in the spec's order (`_campaign.shape` maps them to types).
CAMPAIGN_MEMBER_NAMES: Final = tuple(CAMPAIGN_MEMBERS)
REQUIRED_MEMBERS: Final = REQUIRED_CAMPAIGN_MEMBERS
WINDOW_MEMBER_NAMES: Final = tuple(WINDOW_MEMBERS)
CYCLES_MEMBER_NAMES: Final = tuple(CYCLES_MEMBERS)
SCHEDULE_ONLY: Final = SCHEDULE_ONLY_CYCLES_FIELDS
DATES: Final = tuple(name for name in SCHEDULE_ONLY_CYCLES_FIELDS if name != "schedule")
IMMUTABLE_OWNER_FIELDS: Final = OWNER_FIELDS
ZONES: Final = tuple(sorted(timezone_names()))

# Sample identifiers: a directory that knows them sees the look-ups pass.
SAMPLE_AGENT_IDS: Final = (
    "9b2f1c1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
    "0c7d3b8a-1e2f-4a5b-9c6d-7e8f9a0b1c2d",
)
SAMPLE_INTEGRATION_IDS: Final = {
    IntegrationType.PHONE_CALL.value: "int-phone-1",
    IntegrationType.WHATSAPP.value: "int-wa-1",
}
SAMPLE_TAGS: Final = ("tag-vip", "tag-optout", "tag-3")

INVALID_REQUEST: Final = ErrorKey.INVALID_REQUEST


def hhmm(minute_of_day: int) -> str:
    """The `HH:MM` text of a minute of the day (D-time-format)."""
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"
