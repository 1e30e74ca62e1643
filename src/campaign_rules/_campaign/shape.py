"""The wire shape of the campaign creation input: each object's members and their JSON types.

Read from the field tables of spec 2.1, 2.3 and 2.4. The rules (known members, required
members, JSON types), the JSON Schema export and the docs all take the shape from here.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.enums import CyclesMode
from campaign_rules._core.limits import WEEKDAYS
from campaign_rules._core.object_reading import MemberTypes

__all__ = [
    "CAMPAIGN_MEMBERS",
    "CYCLES_MEMBERS",
    "OWNER_FIELDS",
    "REQUIRED_CAMPAIGN_MEMBERS",
    "REQUIRED_CYCLES_MEMBERS",
    "REQUIRED_CYCLES_MEMBER_IN_MODE",
    "REQUIRED_WINDOW_MEMBERS",
    "SCHEDULE_MEMBERS",
    "START_TIME",
    "STOP_TIME",
    "WINDOW_MEMBERS",
]


_STRING: Final = ("string",)
_INTEGER: Final = ("integer",)
_BOOLEAN: Final = ("boolean",)
_ARRAY: Final = ("array",)
_OBJECT: Final = ("object",)

# spec 2.1 (CampaignCreate). D-null-members: no member takes `null` but the two nullable dates.
CAMPAIGN_MEMBERS: Final[MemberTypes] = {
    "name": _STRING,
    "description": _STRING,
    "agent_id": _STRING,
    "integration_id": _STRING,
    "integration_type": _STRING,
    "timezone": _STRING,
    "retries": _INTEGER,
    "message_limit": _INTEGER,
    "first_message": _STRING,
    "template": _STRING,
    "template_alt": _STRING,
    "scheduling": _OBJECT,
    "cycles": _OBJECT,
}
# spec 2.1: the "Required: yes" rows.
REQUIRED_CAMPAIGN_MEMBERS: Final = ("name", "agent_id", "integration_id", "integration_type")
# D-merge-patch: the members that name the campaign's owner and channel, which never change.
OWNER_FIELDS: Final = ("agent_id", "integration_id", "integration_type")

# spec 2.3: a Schedule object has one optional window per weekday.
SCHEDULE_MEMBERS: Final[MemberTypes] = dict.fromkeys(WEEKDAYS, _OBJECT)

# spec 2.3: the wire names of a window's two times, the only camelCase members of the input.
START_TIME: Final = "startTime"
STOP_TIME: Final = "stopTime"

# spec 2.3: a weekday window. D-window-members: every member is required.
WINDOW_MEMBERS: Final[MemberTypes] = {
    START_TIME: _STRING,
    STOP_TIME: _STRING,
    "active": _BOOLEAN,
}
REQUIRED_WINDOW_MEMBERS: Final = tuple(WINDOW_MEMBERS)

# spec 2.4: the Cycles config object. Which members are required depends on `mode`
# (D-cycles-required); the rule `cycles.required_when_enabled` says so.
CYCLES_MEMBERS: Final[MemberTypes] = {
    "enabled": _BOOLEAN,
    "mode": _STRING,
    "max_iterations": _INTEGER,
    "cooldown_minutes": _INTEGER,
    "filter_statuses": _ARRAY,
    "filter_tags": _ARRAY,
    "schedule": _OBJECT,
    "schedule_start_date": ("string", "null"),
    "schedule_end_date": ("string", "null"),
}
# D-cycles-required: what every enabled block holds, and the member each mode adds.
REQUIRED_CYCLES_MEMBERS: Final = ("mode", "max_iterations")
REQUIRED_CYCLES_MEMBER_IN_MODE: Final = {
    CyclesMode.COOLDOWN: "cooldown_minutes",
    CyclesMode.SCHEDULED: "schedule",
}
