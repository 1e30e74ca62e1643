"""Defects of the schedules and their windows (spec 2.3)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._core.json import member_path
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS, WEEKDAYS
from campaign_rules.strategies._defect_parts import (
    NOT_OBJECTS,
    NOT_STRINGS,
    Defect,
    unknown_names,
)
from campaign_rules.strategies._payloads import create_payloads, windows
from campaign_rules.strategies._tables import INVALID_REQUEST, WINDOW_MEMBER_NAMES, hhmm
from campaign_rules.strategies._texts import texts
from campaign_rules.strategies._values import json_like


def scheduling_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(NOT_OBJECTS)
    return draw(create_payloads()) | {"scheduling": value}, INVALID_REQUEST, "scheduling"


def _schedule_in_force(draw: st.DrawFn, base: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A schedule object of `base` that the rules read, with its path; made if need be."""
    cycles = base.get("cycles")
    if type(cycles) is dict and cycles.get("mode") == "scheduled" and draw(st.booleans()):
        return cycles["schedule"], "cycles.schedule"
    return base.setdefault("scheduling", {}), "scheduling"


def _window_in_force(draw: st.DrawFn, base: dict[str, Any]) -> tuple[dict[str, Any], str]:
    schedule, path = _schedule_in_force(draw, base)
    day = draw(st.sampled_from(WEEKDAYS))
    if day not in schedule:
        schedule[day] = draw(windows)
    return schedule[day], f"{path}.{day}"


def schedule_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    schedule, path = _schedule_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("monday", "Mon", "MON", "weekend", "0")), unknown_names).filter(
            lambda name: name not in WEEKDAYS
        )
    )
    schedule[name] = draw(windows)
    return base, INVALID_REQUEST, member_path(path, name)


def schedule_too_large(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    schedule, path = _schedule_in_force(draw, base)
    schedule.update(
        {
            f"day{index}": None
            for index in range(draw(st.integers(OBJECT_MAX_MEMBERS + 1, OBJECT_MAX_MEMBERS + 6)))
        }
    )
    return base, INVALID_REQUEST, path


def window_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    schedule, path = _schedule_in_force(draw, base)
    day = draw(st.sampled_from(WEEKDAYS))
    schedule[day] = draw(NOT_OBJECTS)
    return base, INVALID_REQUEST, f"{path}.{day}"


BAD_TIMES = (
    "25:00",
    "24:00",
    "23:60",
    "9:00",
    "09:0",
    "09:00:00",
    "0900",
    "09.00",
    "٠٩:٠٠",
    "０９:００",
    "09:0a",
    " 9:00",
    "",
    "-1:00",
    "+9:00",
    "9am",
)


def window_time_malformed(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from((START_TIME, STOP_TIME)))
    window[name] = draw(st.sampled_from(BAD_TIMES))
    return base, INVALID_REQUEST, f"{path}.{name}"


def window_time_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from((START_TIME, STOP_TIME)))
    window[name] = draw(NOT_STRINGS)
    return base, INVALID_REQUEST, f"{path}.{name}"


def window_not_before_stop(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    stop = draw(st.integers(0, 24 * 60 - 1))
    start = draw(st.integers(stop, 24 * 60 - 1))
    window[START_TIME], window[STOP_TIME] = hhmm(start), hhmm(stop)
    return base, INVALID_REQUEST, f"{path}.{STOP_TIME}"


def window_member_missing(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(WINDOW_MEMBER_NAMES))
    del window[name]
    return base, INVALID_REQUEST, f"{path}.{name}"


def window_active_not_boolean(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    window["active"] = draw(
        st.one_of(st.sampled_from((0, 1, "true", "false", None, 1.0, [])), texts)
    )
    return base, INVALID_REQUEST, f"{path}.active"


def window_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("colour", "start_time", "starttime")), unknown_names).filter(
            lambda name: name not in WINDOW_MEMBER_NAMES
        )
    )
    window[name] = draw(json_like)
    return base, INVALID_REQUEST, member_path(path, name)
