r"""The JSON Schema (draft 2020-12) of the campaign creation input, generated from its rules.

Every type comes from `_campaign.shape`; every constraint on a member's value from the rows of
the rule table that judge it (`_rules.table`: their `constraint`, each keyword written as
`_exported` says, docs/constraints.md); every default and channel table from `_core.limits`,
and the cycles mode requirements from the rule module that enforces them; this module writes
down only how JSON Schema says each of them. A payload the schema accepts is one
`validate_create(payload)` accepts, except where JSON Schema cannot say a rule:
`SCHEMA_EXCEPTIONS` lists those rules, and D-json-schema (docs/decisions.md) says why. The
agreement tests check both directions on every case file and thousands of drawn payloads, under
Python's jsonschema and under ajv.

Formats are the `pattern`s of `_export/patterns.py`, which every regular expression dialect
reads alike.

`rules_schema()` is the same schema annotated (D-schema-rules): each subschema whose keywords
enforce rules names them (`x-rules`: keyword to rule id), and the root carries the rule table's
ids and keys in order, the status of each key and their precedence: what an executor on a JSON
Schema validator needs to answer as the library answers (conformance/js/executor.mjs).
`json_schema()` is it without the annotations, which a strict validator (ajv by default) would
refuse as unknown keywords.
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
)
from campaign_rules._core.enums import ErrorKey, IntegrationType
from campaign_rules._core.limits import (
    CHANNEL_OF_FIELD,
    CONTACT_STATUSES,
    COOLDOWN_MODE,
    CYCLES_ENABLED,
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    DEFAULT_TIMEZONE,
    FILTER_LISTS,
    OBJECT_MAX_MEMBERS,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    WEEKDAYS,
)
from campaign_rules._core.object_reading import MemberTypes
from campaign_rules._core.outcome import STATUS_OF_KEY, STATUS_PRECEDENCE
from campaign_rules._core.timezones import timezone_names
from campaign_rules._export.patterns import DATE, HH_MM, NOT_BLANK, UUID_V4
from campaign_rules._rules.scope import Scope
from campaign_rules._rules.table import BODY_RULES, CREATE_RULES, Rule

__all__ = [
    "RULES_KEYWORD",
    "SCHEMA_DIALECT",
    "SCHEMA_EXCEPTIONS",
    "json_schema",
    "render_rules_schema",
    "render_schema",
    "rules_schema",
]

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
    "text.free_text_is_unicode": (
        "a JSON text read as I-JSON holds no lone surrogate, which body.strings_are_unicode "
        "refuses; and a pattern excluding the surrogate range would refuse every astral "
        "character, an emoji, in a validator that reads patterns as UTF-16 code units"
    ),
}

# D-schema-rules: the annotation of a subschema naming, for each of its keywords that enforces a
# rule, that rule's id: an error of the keyword there is a violation of that rule.
RULES_KEYWORD: Final = "x-rules"

# The rules a body's bytes reach offline, in the order the library runs them.
_TABLE: Final[tuple[Rule[Any], ...]] = (*BODY_RULES, *CREATE_RULES)
_KEY_OF: Final[Mapping[str, ErrorKey]] = {rule.id: rule.key for rule in _TABLE}


def _rule(rule_id: str) -> str:
    """`rule_id`, a rule of the table: a name this module spells wrong fails at import."""
    if rule_id not in _KEY_OF:
        raise ValueError(f"no rule {rule_id!r} in the creation table")
    return rule_id


_IS_OBJECT: Final = _rule("payload.is_object")
_KNOWN_MEMBERS: Final = _rule("payload.known_members_only")
_REQUIRED_MEMBERS: Final = _rule("payload.required_members_present")
_JSON_TYPES: Final = _rule("payload.members_have_json_types")
_CHANNEL_FIELDS: Final = _rule("channel.fields_match_integration_type")
_CYCLES_CHANNEL: Final = _rule("cycles.enabled_only_on_phone_call")
_CYCLES_REQUIRED: Final = _rule("cycles.required_when_enabled")
_CHANNEL_STATUSES: Final = _rule("cycles.filter_statuses_match_channel")

# spec 2.1, 2.4; rule `cycles.enabled_only_on_phone_call`: the channels whose campaigns can
# enable cycles.
_CYCLES_CHANNELS: Final = frozenset({IntegrationType.PHONE_CALL})


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the campaign creation input (spec 2.1, 2.3, 2.4).

    It accepts a payload exactly when `validate_create(payload)` (offline) does, except where
    one of the rules in `SCHEMA_EXCEPTIONS` refuses it: a window whose `startTime` is not
    before its `stopTime`, and cycle dates out of order. Formats are `pattern`s, not `format`
    (which validators treat loosely); the time zone is an `enum` of the tzdata package's names.
    A new dict each call.
    """
    plain: dict[str, Any] = _without_annotations(rules_schema())
    return plain


def rules_schema() -> dict[str, Any]:
    """`json_schema()` annotated with the rule of each keyword and the table (D-schema-rules).

    The keywords are draft 2020-12 annotations (`x-rules`, `x-rule-table`, `x-key-statuses`,
    `x-status-precedence`), which a validator in strict mode must be told of. A new dict each
    call.
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
        **_object(CAMPAIGN_MEMBERS, REQUIRED_CAMPAIGN_MEMBERS, _campaign_members(), _IS_OBJECT),
        "allOf": [_channel_rules(channel) for channel in IntegrationType],
        "$defs": {
            "schedule": _object(SCHEDULE_MEMBERS, (), dict.fromkeys(WEEKDAYS, _ref("window"))),
            "window": _object(WINDOW_MEMBERS, REQUIRED_WINDOW_MEMBERS, _window_members()),
            "cycles": _cycles(),
            "enabled_cycles": _enabled_cycles(),
        },
        **_verdicts(),
    }
    return copy.deepcopy(schema)  # no part shared with another call or within the schema


def _verdicts() -> dict[str, Any]:
    """The root's annotations (D-schema-rules): the rules in order, the keys' statuses."""
    keys = sorted({rule.key for rule in _TABLE}, key=list(ErrorKey).index)
    annotations = {
        "x-rule-table": [{"rule": rule.id, "key": rule.key.value} for rule in _TABLE],
        "x-key-statuses": {key.value: STATUS_OF_KEY[key] for key in keys},
        "x-status-precedence": list(STATUS_PRECEDENCE),
    }
    assert set(annotations) == _ROOT_ANNOTATIONS
    return annotations


_ROOT_ANNOTATIONS: Final = frozenset({"x-rule-table", "x-key-statuses", "x-status-precedence"})


def render_schema() -> str:
    """The schema as the text `campaign-rules schema` prints and `schema/` holds."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=True) + "\n"


def render_rules_schema() -> str:
    """The annotated schema as the text `schema/campaign-create.rules.schema.json` holds."""
    return json.dumps(rules_schema(), indent=2, ensure_ascii=True) + "\n"


def _without_annotations(node: Any) -> Any:
    """`node` without the annotations of D-schema-rules, at any depth."""
    if isinstance(node, dict):
        return {
            name: _without_annotations(value)
            for name, value in node.items()
            if name != RULES_KEYWORD and name not in _ROOT_ANNOTATIONS
        }
    if isinstance(node, list):
        return [_without_annotations(value) for value in node]
    return node


def _fact(fact: tuple[str, bool | str]) -> dict[str, Any]:
    """A fact of the cycles block as `_core.limits` declares it, as the block's condition.

    The member present, and that JSON value (`_core.object_reading.MemberIs`): `CYCLES_ENABLED`
    (spec 2.4 rule 2) and `COOLDOWN_MODE` (spec 2.4 rule 3).
    """
    pointer, value = fact
    name = pointer.rpartition("/")[2]
    return {"properties": {name: {"const": value}}, "required": [name]}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _types(types: tuple[str, ...]) -> str | list[str]:
    return types[0] if len(types) == 1 else list(types)


def _object(
    shape: MemberTypes,
    required: tuple[str, ...],
    constraints: Mapping[str, dict[str, Any]],
    type_rule: str = _JSON_TYPES,
    required_rule: str = _REQUIRED_MEMBERS,
) -> dict[str, Any]:
    """A closed object of `shape`: each member's JSON type, then the constraints on it.

    `type_rule` refuses a value that is not an object (the member's own, but for the body);
    `required_rule` an absent required member.
    """
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
            name: _member(types, constraints.get(name, {})) for name, types in shape.items()
        },
        RULES_KEYWORD: {
            "type": type_rule,
            "maxProperties": _KNOWN_MEMBERS,
            "additionalProperties": _KNOWN_MEMBERS,
            "required": required_rule,
        },
    }


def _member(types: tuple[str, ...], constraints: Mapping[str, Any]) -> dict[str, Any]:
    """A member of `types` with `constraints`; a value of another type is the type rule's."""
    rules = {"type": _JSON_TYPES, **constraints.get(RULES_KEYWORD, {})}
    return {"type": _types(types), **constraints, RULES_KEYWORD: rules}


def _exported(keyword: str, argument: object) -> dict[str, Any]:
    """How JSON Schema says one keyword of a row's constraint (`_rules.keywords.VOCABULARY`).

    JSON Schema's own keywords as they are; the library's as the `pattern` or the `enum` of
    the same values (D-json-schema: no `format`).
    """
    if keyword == "notBlank":
        return {"pattern": NOT_BLANK}
    if keyword == "uuidV4":
        return UUID_V4.keywords()
    if keyword == "ianaZone":
        return {"enum": sorted(timezone_names())}
    if keyword == "hhMm":
        return HH_MM.keywords()
    if keyword == "isoDate":
        return DATE.keywords()
    if keyword == "itemsUnique":
        return {"uniqueItems": True}
    if keyword == "unicodeText":
        return {}  # not said: text.free_text_is_unicode is in `SCHEMA_EXCEPTIONS`
    return {keyword: list(argument) if isinstance(argument, (list, tuple)) else argument}


def _declared(pointer: str, cooldown: bool = False) -> dict[str, Any]:
    """The keywords of every row that judges the value at `pointer`, in table order.

    The rows on its items, at `pointer/*`, under `items`. The rows of an enabled block in
    cooldown mode with `cooldown`, the others without: the schema says the two apart.
    """
    declared: dict[str, Any] = {}
    for rule in CREATE_RULES:
        if rule.constraint is None or (rule.scope is Scope.COOLDOWN_CYCLES) != cooldown:
            continue
        if pointer in rule.pointers:
            target = declared
        elif f"{pointer}/*" in rule.pointers:
            target = declared.setdefault("items", {})
        else:
            continue
        for keyword, argument in rule.constraint.items():
            exported = _exported(keyword, argument)
            if not exported:  # a keyword JSON Schema cannot say (`SCHEMA_EXCEPTIONS`)
                continue
            target.update(exported)
            target.setdefault(RULES_KEYWORD, {}).update(dict.fromkeys(exported, rule.id))
    if "items" in declared:  # the array's own keywords first, as the schema was always written
        declared["items"] = declared.pop("items")
    if RULES_KEYWORD in declared:  # and the annotation last
        declared[RULES_KEYWORD] = declared.pop(RULES_KEYWORD)
    return declared


def _campaign_members() -> dict[str, dict[str, Any]]:
    declared = {name: _declared(f"/{name}") for name in CAMPAIGN_MEMBERS}
    return {
        **{name: keywords for name, keywords in declared.items() if keywords},
        "timezone": {**declared["timezone"], "default": DEFAULT_TIMEZONE},
        "retries": {**declared["retries"], "default": DEFAULT_RETRIES},
        "message_limit": {**declared["message_limit"], "default": DEFAULT_MESSAGE_LIMIT},
        "scheduling": _ref("schedule"),
        "cycles": _ref("cycles"),
    }


def _window_members() -> dict[str, dict[str, Any]]:
    # The windows of both schedules are judged alike: the `scheduling` ones say it.
    return {name: _declared(f"/scheduling/*/{name}") for name in (START_TIME, STOP_TIME)}


def _cycles() -> dict[str, Any]:
    """The cycles block: of one not enabled, only `enabled` is read (spec 2.4 rule 2)."""
    return {
        "type": "object",
        "maxProperties": OBJECT_MAX_MEMBERS,
        "properties": {"enabled": _member(CYCLES_MEMBERS["enabled"], {})},
        "if": _fact(CYCLES_ENABLED),
        "then": _ref("enabled_cycles"),
        RULES_KEYWORD: {"type": _JSON_TYPES, "maxProperties": _KNOWN_MEMBERS},
    }


def _enabled_cycles() -> dict[str, Any]:
    """An enabled block: its members, and what each mode requires and refuses (spec 2.4)."""
    block = _object(
        CYCLES_MEMBERS,
        REQUIRED_CYCLES_MEMBERS,
        {
            name: _declared(f"/cycles/{name}")
            for name in ("mode", "max_iterations", "cooldown_minutes", *FILTER_LISTS)
        },
        required_rule=_CYCLES_REQUIRED,
    )
    # The schedule fields' types depend on the mode (spec 2.4 rule 3): `allOf` below says them.
    block["properties"].update(dict.fromkeys(SCHEDULE_ONLY_CYCLES_FIELDS, True))
    in_cooldown = _fact(COOLDOWN_MODE)
    schedule_fields = {
        "schedule": _member(CYCLES_MEMBERS["schedule"], _ref("schedule")),
        **{
            name: _member(CYCLES_MEMBERS[name], _declared(f"/cycles/{name}"))
            for name in SCHEDULE_ONLY_CYCLES_FIELDS
            if name != "schedule"
        },
    }
    block["allOf"] = [
        {
            # spec 2.4 rule 3: in cooldown mode the schedule fields are absent or null.
            "if": in_cooldown,
            "then": {
                "properties": {
                    name: _declared(f"/cycles/{name}", cooldown=True)
                    for name in SCHEDULE_ONLY_CYCLES_FIELDS
                }
            },
            "else": {"properties": schedule_fields},
        },
        *(
            # D-cycles-required: each mode's own spacing field.
            {
                "if": {"properties": {"mode": {"const": mode.value}}, "required": ["mode"]},
                "then": {"required": [name], RULES_KEYWORD: {"required": _CYCLES_REQUIRED}},
            }
            for mode, name in REQUIRED_CYCLES_MEMBER_IN_MODE.items()
        ),
    ]
    return block


def _channel_rules(channel: IntegrationType) -> dict[str, Any]:
    """What a campaign of `channel` may not hold (spec 4.1 rule 1, 2.4; D-contact-statuses)."""
    items = {"enum": sorted(CONTACT_STATUSES[channel]), RULES_KEYWORD: {"enum": _CHANNEL_STATUSES}}
    statuses = {"properties": {"filter_statuses": {"items": items}}}
    cycles: dict[str, Any] = {"if": _fact(CYCLES_ENABLED), "then": statuses}
    if channel not in _CYCLES_CHANNELS:
        # the block is refused, at its own path, when enabled
        cycles["not"] = _fact(CYCLES_ENABLED)
        cycles[RULES_KEYWORD] = {"not": _CYCLES_CHANNEL}
    return {
        "if": {
            "properties": {"integration_type": {"const": channel.value}},
            "required": ["integration_type"],
        },
        "then": {
            "properties": {
                # `{"not": {}}`, which is `false`, with a place for the rule it enforces
                **{
                    name: {"not": {}, RULES_KEYWORD: {"not": _CHANNEL_FIELDS}}
                    for name, owner in CHANNEL_OF_FIELD.items()
                    if owner != channel
                },
                "cycles": cycles,
            }
        },
    }
