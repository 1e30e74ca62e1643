"""The value objects of the campaign creation input (spec 2.1, 2.3, 2.4).

Frozen, slotted attrs classes holding Python values (`datetime.time`, `datetime.date`, enums,
tuples). They know nothing of JSON: `_campaign.build` makes them from a payload the rules have
read, `_wire.convert` writes them as wire JSON, and the rules, not these classes, decide what is
valid.
"""

from __future__ import annotations

import datetime

import attrs

from campaign_rules._core.enums import CyclesMode, IntegrationType
from campaign_rules._core.limits import DEFAULT_MESSAGE_LIMIT, DEFAULT_RETRIES, DEFAULT_TIMEZONE

__all__ = ["CampaignCreate", "CyclesConfig", "DayWindow", "Schedule"]


@attrs.frozen
class DayWindow:
    """The window of one weekday (spec 2.3): from `start_time` to `stop_time`, if `active`."""

    start_time: datetime.time
    stop_time: datetime.time
    active: bool


@attrs.frozen
class Schedule:
    """A weekly schedule (spec 2.3): one optional window per weekday."""

    mon: DayWindow | None = None
    tue: DayWindow | None = None
    wed: DayWindow | None = None
    thu: DayWindow | None = None
    fri: DayWindow | None = None
    sat: DayWindow | None = None
    sun: DayWindow | None = None


@attrs.frozen(kw_only=True)
class CyclesConfig:
    """An enabled cycles block (spec 2.4).

    A campaign whose cycles are disabled, or whose block omits `enabled`, has
    `CampaignCreate.cycles = None` (spec 2.4 rule 2: the rest of the block is ignored), so a
    `CyclesConfig` that validation builds always has `enabled=True`.
    `cooldown_minutes` is set in `cooldown` mode and may be in `scheduled` mode; `schedule`
    and the two dates belong to `scheduled` mode only (spec 2.4 rule 3).
    """

    enabled: bool = True
    mode: CyclesMode
    max_iterations: int
    cooldown_minutes: int | None = None
    filter_statuses: tuple[str, ...] = ()
    filter_tags: tuple[str, ...] = ()
    schedule: Schedule | None = None
    schedule_start_date: datetime.date | None = None
    schedule_end_date: datetime.date | None = None


@attrs.frozen
class CampaignCreate:
    """The campaign creation input (spec 2.1), with its defaults applied.

    `agent_id` is the UUID in lower case (D-agent-id); the channel-only fields are set only on
    their own channel (spec 4.1 rule 1).
    """

    name: str
    agent_id: str
    integration_id: str
    integration_type: IntegrationType
    description: str | None = None
    timezone: str = DEFAULT_TIMEZONE
    retries: int = DEFAULT_RETRIES
    message_limit: int = DEFAULT_MESSAGE_LIMIT
    first_message: str | None = None
    template: str | None = None
    template_alt: str | None = None
    scheduling: Schedule | None = None
    cycles: CyclesConfig | None = None
