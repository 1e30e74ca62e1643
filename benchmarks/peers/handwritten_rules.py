"""The creation rules as plain hand-written checks in pure Python: no library, no value objects.

What a developer writes by hand for one endpoint: a function per object that reads each member
by its exact type and appends a message for each problem, every problem reported (as
campaign_rules does), and nothing built but the list of problems.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from benchmarks.peers._tzdata import ZONE_NAMES
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    FILTER_LIST_MAX_ITEMS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
    Bounds,
)

_HH_MM = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")
_UUID_V4 = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}"
)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CAMPAIGN = frozenset(
    [
        "name",
        "description",
        "agent_id",
        "integration_id",
        "integration_type",
        "timezone",
        "retries",
        "message_limit",
        "first_message",
        "template",
        "template_alt",
        "scheduling",
        "cycles",
    ]
)
_STRINGS = ("description", "first_message", "template", "template_alt")
_CYCLES = frozenset(
    [
        "enabled",
        "mode",
        "max_iterations",
        "cooldown_minutes",
        "filter_statuses",
        "filter_tags",
        "schedule",
        "schedule_start_date",
        "schedule_end_date",
    ]
)
_WEEKDAYS = frozenset(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))
_WINDOW = frozenset(("startTime", "stopTime", "active"))
_STATUSES = frozenset(
    ("queue", "sending", "failed", "retrying", "converted", "voicemail", "answered")
)


def _int_within(value: Any, bounds: Bounds) -> bool:
    return type(value) is int and bounds.low <= value <= bounds.high


def _schedule(schedule: Any, path: str, errors: list[str]) -> None:
    if type(schedule) is not dict:
        errors.append(f"{path}: not an object")
        return
    for day, window in schedule.items():
        where = f"{path}.{day}"
        if day not in _WEEKDAYS:
            errors.append(f"{where}: unknown member")
            continue
        if type(window) is not dict:
            errors.append(f"{where}: not an object")
            continue
        if window.keys() != _WINDOW:
            errors.append(f"{where}: members are startTime, stopTime and active")
        start, stop = window.get("startTime"), window.get("stopTime")
        times_ok = True
        for name, text in (("startTime", start), ("stopTime", stop)):
            if type(text) is not str or not _HH_MM.fullmatch(text):
                errors.append(f"{where}.{name}: not HH:MM")
                times_ok = False
        if times_ok and start >= stop:
            errors.append(f"{where}.stopTime: not after startTime")
        if type(window.get("active")) is not bool:
            errors.append(f"{where}.active: not a boolean")


def _date(value: Any, path: str, errors: list[str]) -> datetime.date | None:
    if value is None:
        return None
    if type(value) is str and _DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    errors.append(f"{path}: not a date")
    return None


def _filter_list(value: Any, path: str, errors: list[str], known: frozenset[str] | None) -> None:
    if type(value) is not list or len(value) > FILTER_LIST_MAX_ITEMS:
        errors.append(f"{path}: not an array of at most {FILTER_LIST_MAX_ITEMS} items")
        return
    seen = set()
    for index, item in enumerate(value):
        if type(item) is not str or not item or (known is not None and item not in known):
            errors.append(f"{path}[{index}]: not a known non-empty string")
        elif item in seen:
            errors.append(f"{path}[{index}]: repeated")
        else:
            seen.add(item)


def _cycles(cycles: Any, phone: bool, errors: list[str]) -> None:
    if type(cycles) is not dict:
        errors.append("cycles: not an object")
        return
    enabled = cycles.get("enabled")
    if enabled is not True:
        if type(enabled) is not bool:
            errors.append("cycles.enabled: not a boolean")
        return
    if not phone:
        errors.append("cycles: enabled only on phone_call campaigns")
    for name in cycles.keys() - _CYCLES:
        errors.append(f"cycles.{name}: unknown member")
    mode = cycles.get("mode")
    if mode not in ("cooldown", "scheduled"):
        errors.append("cycles.mode: not cooldown or scheduled")
    if not _int_within(cycles.get("max_iterations"), MAX_ITERATIONS):
        errors.append(f"cycles.max_iterations: not an integer {MAX_ITERATIONS.describe()}")
    if mode == "cooldown":
        if not _int_within(cycles.get("cooldown_minutes"), COOLDOWN_MINUTES):
            errors.append(f"cycles.cooldown_minutes: not an integer {COOLDOWN_MINUTES.describe()}")
        for name in ("schedule", "schedule_start_date", "schedule_end_date"):
            if cycles.get(name) is not None:
                errors.append(f"cycles.{name}: scheduled mode only")
    elif mode == "scheduled":
        if "schedule" not in cycles:
            errors.append("cycles.schedule: required in scheduled mode")
        else:
            _schedule(cycles["schedule"], "cycles.schedule", errors)
        start = _date(cycles.get("schedule_start_date"), "cycles.schedule_start_date", errors)
        end = _date(cycles.get("schedule_end_date"), "cycles.schedule_end_date", errors)
        if start is not None and end is not None and start > end:
            errors.append("cycles.schedule_end_date: before the start date")
    if "filter_statuses" in cycles:
        _filter_list(cycles["filter_statuses"], "cycles.filter_statuses", errors, _STATUSES)
    if "filter_tags" in cycles:
        _filter_list(cycles["filter_tags"], "cycles.filter_tags", errors, None)


def validate(payload: object) -> tuple[bool, list[str]]:
    """Whether the payload passes, and a message for each problem found."""
    if type(payload) is not dict:
        return False, ["the body is not an object"]
    errors: list[str] = []
    for name in payload.keys() - _CAMPAIGN:
        errors.append(f"{name}: unknown member")
    name = payload.get("name")
    if type(name) is not str or len(name) > NAME_MAX_LENGTH or not name.strip():
        errors.append(f"name: not a non-blank string of at most {NAME_MAX_LENGTH} characters")
    agent_id = payload.get("agent_id")
    if type(agent_id) is not str or not _UUID_V4.fullmatch(agent_id):
        errors.append("agent_id: not a UUID v4")
    integration_id = payload.get("integration_id")
    if type(integration_id) is not str or not integration_id:
        errors.append("integration_id: not a non-empty string")
    channel = payload.get("integration_type")
    if channel not in ("phone_call", "whatsapp"):
        errors.append("integration_type: not phone_call or whatsapp")
    if "timezone" in payload and payload["timezone"] not in ZONE_NAMES:
        errors.append("timezone: not an IANA zone name")
    if "retries" in payload and not _int_within(payload["retries"], RETRIES):
        errors.append(f"retries: not an integer {RETRIES.describe()}")
    if "message_limit" in payload and not _int_within(payload["message_limit"], MESSAGE_LIMIT):
        errors.append(f"message_limit: not an integer {MESSAGE_LIMIT.describe()}")
    for member in _STRINGS:
        if member in payload and type(payload[member]) is not str:
            errors.append(f"{member}: not a string")
    if channel == "phone_call" and ("template" in payload or "template_alt" in payload):
        errors.append("template: whatsapp only")
    if channel == "whatsapp" and "first_message" in payload:
        errors.append("first_message: phone_call only")
    if "scheduling" in payload:
        _schedule(payload["scheduling"], "scheduling", errors)
    if "cycles" in payload:
        _cycles(payload["cycles"], channel == "phone_call", errors)
    return not errors, errors
