r"""The JSON Schema (draft 2020-12) of the campaign creation input, generated from its rules.

Every type comes from `_shape`, every bound, default and channel table from `_limits`, every
enumeration from `_enums` and the tzdata list, and the cycles mode requirements from the rule
module that enforces them; this module writes down only how JSON Schema says each of them. A
payload the schema accepts is one `validate_create(payload)` accepts, except where JSON Schema
cannot say a rule: `SCHEMA_EXCEPTIONS` lists those rules, and D-json-schema (docs/decisions.md)
says why. The agreement tests check both directions on every case file and thousands of drawn
payloads, under Python's jsonschema and under ajv.

Patterns are written for every dialect a validator may use (ECMA-262 with or without the `u`
flag, Python's `re`, RE2): explicit character classes (`[0-9]`, never `\d` or `\s`, whose
meaning differs), no look-around, no back-references. A pattern is unanchored in JSON Schema,
and Python's `$` also matches before a final line break, so each whole-string format also
states its exact length.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any, Final

from campaign_rules._campaign.shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    REQUIRED_CAMPAIGN_MEMBERS,
    REQUIRED_CYCLES_MEMBER_IN_MODE,
    REQUIRED_CYCLES_MEMBERS,
    REQUIRED_WINDOW_MEMBERS,
    SCHEDULE_MEMBERS,
    START_TIME,
    STOP_TIME,
    WINDOW_MEMBERS,
    MemberTypes,
)
from campaign_rules._core.enums import CyclesMode, IntegrationType
from campaign_rules._core.limits import (
    CHANNEL_OF_FIELD,
    CONTACT_STATUSES,
    COOLDOWN_MINUTES,
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    DEFAULT_TIMEZONE,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    OBJECT_MAX_MEMBERS,
    RETRIES,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    WEEKDAYS,
    WHITESPACE,
    Bounds,
)
from campaign_rules._core.timezones import timezone_names

__all__ = ["SCHEMA_DIALECT", "SCHEMA_EXCEPTIONS", "json_schema", "render_schema"]

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

# D-json-schema: the offline rules JSON Schema cannot state, each with the reason. Where one of
# them fires, the schema accepts a payload that `validate_create` refuses; nowhere else do
# they disagree.
SCHEMA_EXCEPTIONS: Final[Mapping[str, str]] = {
    "schedule.window_starts_before_stop": (
        "JSON Schema compares a value with constants, never with another value of the "
        "instance: it cannot say that startTime is earlier than stopTime"
    ),
    "cycles.start_date_not_after_end_date": (
        "JSON Schema cannot compare two values of the instance: it cannot say that "
        "schedule_start_date is not after schedule_end_date"
    ),
}

# spec 2.1, 2.4; rule `cycles.enabled_only_on_phone_call`: the channels whose campaigns can
# enable cycles.
_CYCLES_CHANNELS: Final = frozenset({IntegrationType.PHONE_CALL})


def _hex(count: int) -> str:
    return f"[0-9a-fA-F]{{{count}}}"


# D-agent-id: 8-4-4-4-12 hex digits of either case, version nibble 4, variant 8, 9, a or b.
_UUID_V4: Final = f"^{_hex(8)}-{_hex(4)}-4{_hex(3)}-[89abAB]{_hex(3)}-{_hex(12)}$"
_UUID_V4_LENGTH: Final = len("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx")

# D-time-format: 24-hour HH:MM, 00:00 to 23:59.
_HH_MM: Final = "^(?:[01][0-9]|2[0-3]):[0-5][0-9]$"
_HH_MM_LENGTH: Final = len("HH:MM")

# D-cycle-dates: a YYYY-MM-DD date of the proleptic Gregorian calendar that exists, years 0001
# to 9999 (Python's `datetime.date`). February 29 needs a leap year: a year divisible by 4
# whose last two digits are not 00, or a century divisible by 400 (0000 excluded).
_YEAR = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_MONTH_DAY = (
    "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"  # days 1 to 28 of every month
    "|(?:0[13-9]|1[0-2])-(?:29|30)"  # 29 and 30 of every month but February
    "|(?:0[13578]|1[02])-31)"  # 31 of the long months
)
_DATE: Final = f"^(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_YEAR}-02-29)$"
_DATE_LENGTH: Final = len("YYYY-MM-DD")

# D-blank-name: a name holds a character that is not white space. The class lists the
# characters of `_limits.WHITESPACE` (exactly ECMAScript's `\s`) as \uXXXX escapes, which
# every regular expression dialect reads alike.
_NOT_BLANK: Final = "[^" + "".join(f"\\u{ord(char):04x}" for char in WHITESPACE) + "]"


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the campaign creation input (spec 2.1, 2.3, 2.4).

    It accepts a payload exactly when `validate_create(payload)` (offline) does, except where
    one of the rules in `SCHEMA_EXCEPTIONS` refuses it: a window whose `startTime` is not
    before its `stopTime`, and cycle dates out of order. Formats are `pattern`s, not `format`
    (which validators treat loosely); the time zone is an `enum` of the tzdata package's names.
    A new dict each call.
    """
    schema = {
        "$schema": SCHEMA_DIALECT,
        "title": "CampaignCreate",
        "description": (
            "The campaign creation input of the Campaign Outreach Service (spec 2.1), "
            "generated by campaign_rules.json_schema(). Not expressed here: "
            + "; ".join(f"{rule} ({reason})" for rule, reason in SCHEMA_EXCEPTIONS.items())
            + "."
        ),
        **_object(CAMPAIGN_MEMBERS, REQUIRED_CAMPAIGN_MEMBERS, _campaign_members()),
        "allOf": [_channel_rules(channel) for channel in IntegrationType],
        "$defs": {
            "schedule": _object(SCHEDULE_MEMBERS, (), dict.fromkeys(WEEKDAYS, _ref("window"))),
            "window": _object(WINDOW_MEMBERS, REQUIRED_WINDOW_MEMBERS, _window_members()),
            "cycles": _cycles(),
            "enabled_cycles": _enabled_cycles(),
        },
    }
    return copy.deepcopy(schema)  # no part shared with another call or within the schema


def render_schema() -> str:
    """The schema as the text `campaign-rules schema` prints and `schema/` holds."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=True) + "\n"


def _is_enabled() -> dict[str, Any]:
    """The condition of an enabled cycles block (spec 2.4 rule 2)."""
    return {"properties": {"enabled": {"const": True}}, "required": ["enabled"]}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _types(types: tuple[str, ...]) -> str | list[str]:
    return types[0] if len(types) == 1 else list(types)


def _object(
    shape: MemberTypes, required: tuple[str, ...], constraints: Mapping[str, dict[str, Any]]
) -> dict[str, Any]:
    """A closed object of `shape`: each member's JSON type, then the constraints on it."""
    unknown = set(constraints) - set(shape)
    if unknown:  # a constraint on a member the shape does not have is a bug of this module
        raise ValueError(f"constraints on members outside the shape: {sorted(unknown)}")
    return {
        "type": "object",
        # D-hostile-input: an object of more members is refused whole.
        "maxProperties": OBJECT_MAX_MEMBERS,
        "additionalProperties": False,
        "required": list(required),
        "properties": {
            name: {"type": _types(types), **constraints.get(name, {})}
            for name, types in shape.items()
        },
    }


def _integer(bounds: Bounds, default: int | None = None) -> dict[str, Any]:
    limits: dict[str, Any] = {"minimum": bounds.low, "maximum": bounds.high}
    return limits if default is None else {**limits, "default": default}


def _fixed_format(pattern: str, length: int) -> dict[str, Any]:
    return {"minLength": length, "maxLength": length, "pattern": pattern}


def _campaign_members() -> dict[str, dict[str, Any]]:
    return {
        "name": {"maxLength": NAME_MAX_LENGTH, "pattern": _NOT_BLANK},
        "agent_id": _fixed_format(_UUID_V4, _UUID_V4_LENGTH),
        "integration_id": {"minLength": 1},
        "integration_type": {"enum": [channel.value for channel in IntegrationType]},
        "timezone": {"enum": sorted(timezone_names()), "default": DEFAULT_TIMEZONE},
        "retries": _integer(RETRIES, DEFAULT_RETRIES),
        "message_limit": _integer(MESSAGE_LIMIT, DEFAULT_MESSAGE_LIMIT),
        "scheduling": _ref("schedule"),
        "cycles": _ref("cycles"),
    }


def _window_members() -> dict[str, dict[str, Any]]:
    return {name: _fixed_format(_HH_MM, _HH_MM_LENGTH) for name in (START_TIME, STOP_TIME)}


def _cycles() -> dict[str, Any]:
    """The cycles block: of one not enabled, only `enabled` is read (spec 2.4 rule 2)."""
    return {
        "type": "object",
        "maxProperties": OBJECT_MAX_MEMBERS,
        "properties": {"enabled": {"type": _types(CYCLES_MEMBERS["enabled"])}},
        "if": _is_enabled(),
        "then": _ref("enabled_cycles"),
    }


def _enabled_cycles() -> dict[str, Any]:
    """An enabled block: its members, and what each mode requires and refuses (spec 2.4)."""
    filter_list = {
        "maxItems": FILTER_LIST_MAX_ITEMS,
        "uniqueItems": True,
        "items": {"type": "string", "minLength": 1},
    }
    block = _object(
        CYCLES_MEMBERS,
        REQUIRED_CYCLES_MEMBERS,
        {
            "mode": {"enum": [mode.value for mode in CyclesMode]},
            "max_iterations": _integer(MAX_ITERATIONS),
            "cooldown_minutes": _integer(COOLDOWN_MINUTES),
            **dict.fromkeys(FILTER_LISTS, filter_list),
        },
    )
    # The schedule fields' types depend on the mode (spec 2.4 rule 3): `allOf` below says them.
    block["properties"].update(dict.fromkeys(SCHEDULE_ONLY_CYCLES_FIELDS, True))
    in_cooldown = {
        "properties": {"mode": {"const": CyclesMode.COOLDOWN.value}},
        "required": ["mode"],
    }
    schedule_fields = {
        "schedule": {"type": _types(CYCLES_MEMBERS["schedule"]), **_ref("schedule")},
        **{
            name: {"type": _types(CYCLES_MEMBERS[name]), **_fixed_format(_DATE, _DATE_LENGTH)}
            for name in SCHEDULE_ONLY_CYCLES_FIELDS
            if name != "schedule"
        },
    }
    block["allOf"] = [
        {
            # spec 2.4 rule 3: in cooldown mode the schedule fields are absent or null.
            "if": in_cooldown,
            "then": {
                "properties": {name: {"type": "null"} for name in SCHEDULE_ONLY_CYCLES_FIELDS}
            },
            "else": {"properties": schedule_fields},
        },
        *(
            # D-cycles-required: each mode's own spacing field.
            {
                "if": {"properties": {"mode": {"const": mode.value}}, "required": ["mode"]},
                "then": {"required": [name]},
            }
            for mode, name in REQUIRED_CYCLES_MEMBER_IN_MODE.items()
        ),
    ]
    return block


def _channel_rules(channel: IntegrationType) -> dict[str, Any]:
    """What a campaign of `channel` may not hold (spec 4.1 rule 1, 2.4; D-contact-statuses)."""
    statuses = {
        "properties": {"filter_statuses": {"items": {"enum": sorted(CONTACT_STATUSES[channel])}}}
    }
    cycles: dict[str, Any] = {"if": _is_enabled(), "then": statuses}
    if channel not in _CYCLES_CHANNELS:
        cycles["properties"] = {"enabled": {"const": False}}
    return {
        "if": {
            "properties": {"integration_type": {"const": channel.value}},
            "required": ["integration_type"],
        },
        "then": {
            "properties": {
                **{name: False for name, owner in CHANNEL_OF_FIELD.items() if owner != channel},
                "cycles": cycles,
            }
        },
    }
