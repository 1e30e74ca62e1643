"""The creation rules as one draft 2020-12 JSON Schema, written by hand for the benchmark.

The schema says everything JSON Schema can say. What it cannot (one value compared with another:
a window's start before its stop, the start date not after the end date) is in `post_check`,
the few lines a user of a schema validator adds, run once the schema has passed. The zone names
are the tzdata package's list, put into an `enum` when the schema is built.
"""

from __future__ import annotations

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


def _within(bounds: Bounds) -> dict[str, int]:
    """The keywords of an integer within `bounds` (the peers take the bounds from the library)."""
    return {"minimum": bounds.low, "maximum": bounds.high}


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Campaign creation input (spec 2.1)",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "agent_id", "integration_id", "integration_type"],
    "properties": {
        "name": {"type": "string", "maxLength": NAME_MAX_LENGTH, "pattern": r"\S"},
        "description": {"type": "string"},
        "agent_id": {
            "type": "string",
            "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}"
            "-[0-9a-fA-F]{12}$",
        },
        "integration_id": {"type": "string", "minLength": 1},
        "integration_type": {"type": "string", "enum": ["phone_call", "whatsapp"]},
        "timezone": {"type": "string", "enum": sorted(ZONE_NAMES)},
        "retries": {"type": "integer", **_within(RETRIES)},
        "message_limit": {"type": "integer", **_within(MESSAGE_LIMIT)},
        "first_message": {"type": "string"},
        "template": {"type": "string"},
        "template_alt": {"type": "string"},
        "scheduling": {"$ref": "#/$defs/schedule"},
        "cycles": {"$ref": "#/$defs/cycles"},
    },
    "allOf": [
        {
            # spec 4.1 rule 1: the other channel's fields are refused.
            "if": {
                "required": ["integration_type"],
                "properties": {"integration_type": {"const": "phone_call"}},
            },
            "then": {"properties": {"template": False, "template_alt": False}},
        },
        {
            "if": {
                "required": ["integration_type"],
                "properties": {"integration_type": {"const": "whatsapp"}},
            },
            "then": {
                "properties": {
                    "first_message": False,
                    "cycles": {"properties": {"enabled": {"const": False}}},
                }
            },
        },
    ],
    "$defs": {
        "time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "window": {
            "type": "object",
            "additionalProperties": False,
            "required": ["startTime", "stopTime", "active"],
            "properties": {
                "startTime": {"$ref": "#/$defs/time"},
                "stopTime": {"$ref": "#/$defs/time"},
                "active": {"type": "boolean"},
            },
        },
        "schedule": {
            "type": "object",
            "additionalProperties": False,
            "properties": {day: {"$ref": "#/$defs/window"} for day in WEEKDAYS},
        },
        "filterList": {
            "type": "array",
            "maxItems": FILTER_LIST_MAX_ITEMS,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1},
        },
        # D-contact-statuses: an enabled block is on a phone_call campaign.
        "statusList": {
            "type": "array",
            "maxItems": FILTER_LIST_MAX_ITEMS,
            "uniqueItems": True,
            "items": {
                "enum": [
                    "queue",
                    "sending",
                    "failed",
                    "retrying",
                    "converted",
                    "voicemail",
                    "answered",
                ]
            },
        },
        "date": {"type": ["string", "null"], "format": "date"},
        # spec 2.4 rule 2: a block whose `enabled` is not true is ignored but for `enabled`.
        "cycles": {
            "type": "object",
            "properties": {"enabled": {"type": "boolean"}},
            "if": {"required": ["enabled"], "properties": {"enabled": {"const": True}}},
            "then": {"$ref": "#/$defs/enabledCycles"},
        },
        "enabledCycles": {
            "additionalProperties": False,
            "required": ["mode", "max_iterations"],
            "properties": {
                "enabled": True,
                "mode": {"type": "string", "enum": ["cooldown", "scheduled"]},
                "max_iterations": {"type": "integer", **_within(MAX_ITERATIONS)},
                "cooldown_minutes": {"type": "integer", **_within(COOLDOWN_MINUTES)},
                "filter_statuses": {"$ref": "#/$defs/statusList"},
                "filter_tags": {"$ref": "#/$defs/filterList"},
                "schedule": {"$ref": "#/$defs/schedule"},
                "schedule_start_date": {"$ref": "#/$defs/date"},
                "schedule_end_date": {"$ref": "#/$defs/date"},
            },
            "allOf": [
                {
                    # spec 2.4 rule 3: no schedule fields in cooldown mode.
                    "if": {"required": ["mode"], "properties": {"mode": {"const": "cooldown"}}},
                    "then": {
                        "required": ["cooldown_minutes"],
                        "properties": {
                            "schedule": {"type": "null"},
                            "schedule_start_date": {"type": "null"},
                            "schedule_end_date": {"type": "null"},
                        },
                    },
                },
                {
                    "if": {"required": ["mode"], "properties": {"mode": {"const": "scheduled"}}},
                    "then": {"required": ["schedule"]},
                },
            ],
        },
    },
}


def _windows(schedule: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((schedule or {}).values())


def post_check(payload: dict[str, Any]) -> list[str]:
    """What the schema cannot say, for a payload that passed it: the errors, if any."""
    errors = []
    windows = _windows(payload.get("scheduling"))
    cycles = payload.get("cycles") or {}
    if cycles.get("enabled") is True and cycles["mode"] == "scheduled":
        windows += _windows(cycles["schedule"])
        start, end = cycles.get("schedule_start_date"), cycles.get("schedule_end_date")
        # ISO dates compare as strings in calendar order.
        if start is not None and end is not None and start > end:
            errors.append("schedule_end_date must not be before schedule_start_date")
    # So do HH:MM times.
    errors += [
        "stopTime must be later than startTime"
        for window in windows
        if window["startTime"] >= window["stopTime"]
    ]
    return errors
