"""The value objects of a payload that broke no rule, built from the `Document`'s reading.

`validate_create` builds a `CampaignCreate` on every valid request, so it is built here
directly, from values the rules have already read and checked, with each class called once
with all its fields. The cattrs converter (`_wire.convert`) did this before through its generated
functions and a hook per field, a large part of a valid payload's time (see
benchmarks/RESULTS.md); it still turns value objects back into wire JSON.
"""

from __future__ import annotations

from typing import Final, TypeVar

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.models import CampaignCreate, CyclesConfig, DayWindow, Schedule
from campaign_rules._campaign.sites import CAMPAIGN, Window
from campaign_rules._core.construct import construct
from campaign_rules._core.enums import CyclesMode
from campaign_rules._core.formats import parse_time
from campaign_rules._core.json import as_integer, as_string
from campaign_rules._core.limits import DEFAULT_MESSAGE_LIMIT, DEFAULT_RETRIES, DEFAULT_TIMEZONE

__all__ = ["DAY_WINDOWS_KEPT", "build_campaign"]

T = TypeVar("T")
_MODES: Final = {mode.value: mode for mode in CyclesMode}
# The places of the payload's members the campaign reads, among the values the `Document` kept
# of them (`Payload.root_values`): read there, no name is looked up in the payload again.
_NAME: Final = CAMPAIGN.place("name")
_AGENT_ID: Final = CAMPAIGN.place("agent_id")
_INTEGRATION_ID: Final = CAMPAIGN.place("integration_id")
_DESCRIPTION: Final = CAMPAIGN.place("description")
_TIMEZONE: Final = CAMPAIGN.place("timezone")
_RETRIES: Final = CAMPAIGN.place("retries")
_MESSAGE_LIMIT: Final = CAMPAIGN.place("message_limit")
_FIRST_MESSAGE: Final = CAMPAIGN.place("first_message")
_TEMPLATE: Final = CAMPAIGN.place("template")
_TEMPLATE_ALT: Final = CAMPAIGN.place("template_alt")
# A `DayWindow` is frozen, so equal windows can be one object: the first `DAY_WINDOWS_KEPT`
# distinct windows built are kept and given again. Building one costs more than a look-up
# here, and a service's schedules repeat (office hours); the bound keeps the memory of
# hostile or unusual schedules to some hundreds of kilobytes (D-compiled-build).
DAY_WINDOWS_KEPT: Final = 4096
# The windows kept, active and inactive apart, by start text then stop text: keyed by the texts,
# whose hashes the row of `HH:MM` times computed already, rather than by a `(start, stop,
# active)` tuple made and hashed for every window (issue 22), and parsed only when the window
# is new; and how many there are, against the bound.
_ACTIVE_WINDOWS: Final[dict[str, dict[str, DayWindow]]] = {}
_INACTIVE_WINDOWS: Final[dict[str, dict[str, DayWindow]]] = {}
_windows_kept = 0
# What a value the rules refuse, reaching the value objects, raises: a bug of the rules.
_NOT_CHECKED: Final = "a value the rules refuse reached the value objects"


def build_campaign(doc: Document) -> CampaignCreate:
    """The campaign of a payload that broke no rule, with its defaults applied.

    A cycles block not enabled is left out (spec 2.4 rule 2: it is ignored), and `agent_id`
    is put in lower case (D-agent-id).
    """
    values = doc.root_values
    return construct(
        CampaignCreate,
        (
            _checked(as_string(values[_NAME])),
            # The row `agent_id.is_uuid_v4` took its form: only its case is left to make.
            _checked(as_string(values[_AGENT_ID])).lower(),
            _checked(as_string(values[_INTEGRATION_ID])),
            _checked(doc.channel),
            as_string(values[_DESCRIPTION]),
            _or_default(as_string(values[_TIMEZONE]), DEFAULT_TIMEZONE),
            _or_default(as_integer(values[_RETRIES]), DEFAULT_RETRIES),
            _or_default(as_integer(values[_MESSAGE_LIMIT]), DEFAULT_MESSAGE_LIMIT),
            as_string(values[_FIRST_MESSAGE]),
            as_string(values[_TEMPLATE]),
            as_string(values[_TEMPLATE_ALT]),
            _schedule(doc.scheduling_windows),
            _cycles(doc),
        ),
    )


def _cycles(doc: Document) -> CyclesConfig | None:
    state = doc.cycles
    cycles = state.block
    if cycles is None:
        return None
    return construct(
        CyclesConfig,
        (
            True,  # `enabled`: a block not enabled is left out
            _MODES[_checked(state.mode)],
            _checked(as_integer(cycles.get("max_iterations"))),
            as_integer(cycles.get("cooldown_minutes")),
            _strings(state.filter_lists.get("filter_statuses")),
            _strings(state.filter_lists.get("filter_tags")),
            _schedule(doc.cycles_schedule_windows),
            state.dates.get("schedule_start_date"),
            state.dates.get("schedule_end_date"),
        ),
    )


def _schedule(windows: list[Window] | None) -> Schedule | None:
    """The schedule of `windows`, a schedule's windows in the `Document` (`None`: none in force)."""
    if windows is None:
        return None
    # The fields of `Schedule` are the seven weekdays, in the order of `WEEKDAYS`. Spelt out: one
    # list made, where `[None] * len(WEEKDAYS)` makes two.
    days: list[DayWindow | None] = [None, None, None, None, None, None, None]
    for window in windows:
        days[window.weekday] = _day_window(window)
    return construct(Schedule, tuple(days))


def _day_window(window: Window) -> DayWindow:
    """The frozen `DayWindow` of `window`: the one already made for the same times, if kept."""
    global _windows_kept
    start_text, stop_text = window.start, window.stop
    # `_checked`'s test, written here: in the pure build, two calls fewer for every window of a
    # valid body.
    if start_text is None or stop_text is None:
        raise TypeError(_NOT_CHECKED)
    kept = _ACTIVE_WINDOWS if window.active else _INACTIVE_WINDOWS
    by_stop = kept.get(start_text)
    made = by_stop.get(stop_text) if by_stop is not None else None
    if made is None:
        start, stop = _checked(parse_time(start_text)), _checked(parse_time(stop_text))
        made = construct(DayWindow, (start, stop, window.active))
        if _windows_kept < DAY_WINDOWS_KEPT:
            _windows_kept += 1
            kept.setdefault(start_text, {})[stop_text] = made
    return made


def _strings(items: list[object] | None) -> tuple[str, ...]:
    return tuple(_checked(as_string(item)) for item in items or ())


def _or_default(value: T | None, default: T) -> T:
    return default if value is None else value


def _checked(value: T | None) -> T:
    """A value the rules have checked; `None` here would be a bug of the rules, not bad input."""
    if value is None:
        raise TypeError(_NOT_CHECKED)
    return value
