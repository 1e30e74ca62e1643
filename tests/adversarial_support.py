"""The adversarial matrix that `tests/test_adversarial.py` runs, and `tests/builds.py` replays.

Source: D-hostile-input (and, for the expected answers, the rules each field is under): the
hostile values, the fields of a creation body and of an update patch with the answer each kind
of value must get, and the helpers that put one value into a valid payload or patch and check a
result. The expected answers are written here from the rules' own words (spec 2.1, 2.3, 2.4 and
docs/decisions.md), by the kind of value, never by asking the library. The huge values (a 10 MB
string, a 1,000,000-item list, a 1,000,000-member object, 100,000-deep nesting) are built once,
when the module is imported, and never copied or printed.
"""

from __future__ import annotations

import copy
import datetime
import decimal
import json
import math
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from campaign_rules import (
    CampaignCreate,
    CreateResult,
    UpdateResult,
    to_wire,
    validate_create,
)
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
    Bounds,
)
from tests.property.strategies import deep_dict, deep_list
from tests.support import (
    BASES,
    HostileDict,
    HostileFloat,
    HostileInt,
    HostileList,
    HostileObject,
    HostileStr,
    Trap,
)

IR = "INVALID_REQUEST"
Expected = list[tuple[str, str | None]]

# The sizes the issue names.
HUGE_STRING_LENGTH = 10_000_000
HUGE_ITEMS = 1_000_000
DEEP = 100_000

# A message names the field and the constraint: this is more than any of them needs.
MESSAGE_MAX_LENGTH = 120


@attrs.frozen
class Hostile:
    """A hostile value and what the rules see in it.

    `kind` is its JSON type as the rules read it ("other" for a Python value JSON cannot hold);
    the other attributes describe the parts the rules look at.
    """

    name: str
    value: Any = attrs.field(eq=False, repr=False)
    kind: str
    number: int | None = None  # integer: its value
    text: str | None = None  # string: its characters
    names: tuple[str, ...] = ()  # object: its string member names
    unnamed: bool = False  # object: has members whose names are not strings
    oversized: bool = False  # object: more than 64 members
    length: int = 0  # array: its length
    bad_items: tuple[int, ...] = ()  # array: the indexes of items that are not non-empty strings


def _self_dict() -> dict[str, Any]:
    value: dict[str, Any] = {}
    value["self"] = value
    return value


def _self_list() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


HOSTILE = (
    Hostile("null", None, "null"),
    Hostile("true", True, "boolean"),
    Hostile("false", False, "boolean"),
    Hostile("int 7", 7, "integer", number=7),
    Hostile("float 1.0", 1.0, "integer", number=1),
    Hostile("float -0.0", -0.0, "integer", number=0),
    Hostile("float 1.5", 1.5, "number"),
    Hostile("NaN", math.nan, "number"),
    Hostile("inf", math.inf, "number"),
    Hostile("-inf", -math.inf, "number"),
    Hostile("2**63", 2**63, "integer", number=2**63),
    Hostile("10**5000", 10**5000, "integer", number=10**5000),
    Hostile("-10**5000", -(10**5000), "integer", number=-(10**5000)),
    Hostile("empty string", "", "string", text=""),
    Hostile("word", "hostile-text", "string", text="hostile-text"),
    Hostile("10 MB string", "A" * HUGE_STRING_LENGTH, "string", text="A" * HUGE_STRING_LENGTH),
    Hostile("NUL", "\x00", "string", text="\x00"),
    Hostile("lone surrogate", "\ud800", "string", text="\ud800"),
    Hostile("trailing newline", "09:00\n", "string", text="09:00\n"),
    Hostile("non-ASCII digits", "٠٩:٠٠", "string", text="٠٩:٠٠"),
    Hostile("empty list", [], "array"),
    Hostile("1,000,000-item list", ["x"] * HUGE_ITEMS, "array", length=HUGE_ITEMS),
    Hostile(
        "list of non-strings", [1, None, 2.5, [], {}], "array", length=5, bad_items=(0, 1, 2, 3, 4)
    ),
    Hostile("100,000-deep list", deep_list(DEEP), "array", length=1, bad_items=(0,)),
    Hostile("self-referencing list", _self_list(), "array", length=1, bad_items=(0,)),
    Hostile("empty dict", {}, "object"),
    Hostile("dict", {"colour": "red"}, "object", names=("colour",)),
    Hostile("100,000-deep dict", deep_dict(DEEP), "object", names=("a",)),
    Hostile("self-referencing dict", _self_dict(), "object", names=("self",)),
    Hostile("non-string keys", {1: "a", None: "b", (1, 2): "c"}, "object", unnamed=True),
    Hostile(
        "1,000,000-member dict",
        dict.fromkeys(f"k{i}" for i in range(HUGE_ITEMS)),
        "object",
        oversized=True,
    ),
    Hostile("raising str subclass", HostileStr("hostile-str"), "string", text="hostile-str"),
    Hostile("raising int subclass", HostileInt(3), "integer", number=3),
    Hostile("raising float subclass", HostileFloat(2.0), "integer", number=2),
    Hostile("raising list subclass", HostileList(["a", "b"]), "array", length=2),
    Hostile("raising dict subclass", HostileDict({"colour": "red"}), "object", names=("colour",)),
    Hostile("raising object", HostileObject(), "other"),
    Hostile("Decimal", decimal.Decimal("1"), "other"),
    Hostile("datetime", datetime.datetime(2026, 3, 1, 9, 0), "other"),
    Hostile("date", datetime.date(2026, 3, 1), "other"),
    Hostile("tuple", ("a", "b"), "other"),
    Hostile("set", {"a"}, "other"),
    Hostile("bytes", b"09:00", "other"),
)
HOSTILE_BY_NAME = {hostile.name: hostile for hostile in HOSTILE}


# ---------------------------------------------------------------------------------------------
# What each field takes. A check answers the expected (key, field) list for a value, in a
# creation body (`update=False`) or in a merge patch of the campaign (`update=True`), where
# `null` removes the member (RFC 7396).

Check = Callable[[Hostile, str, bool], Expected]


def _removed(required: bool, path: str) -> Expected:
    return [(IR, path)] if required else []


def text(accept: Callable[[str], bool] = lambda _: True, *, required: bool = False) -> Check:
    """A string member; `accept` says which strings are legal."""

    def check(value: Hostile, path: str, update: bool) -> Expected:
        if update and value.kind == "null":
            return _removed(required, path)
        if value.kind == "string" and accept(value.text or ""):
            return []
        return [(IR, path)]

    return check


def integer(bounds: Bounds, *, required: bool = False) -> Check:
    """An integer member within `bounds` (D-integral-floats: 1.0 is 1)."""
    low, high = bounds.low, bounds.high

    def check(value: Hostile, path: str, update: bool) -> Expected:
        if update and value.kind == "null":
            return _removed(required, path)
        if value.kind == "integer" and low <= (value.number or 0) <= high:
            return []
        return [(IR, path)]

    return check


def boolean(*, required: bool = False) -> Check:
    def check(value: Hostile, path: str, update: bool) -> Expected:
        if update and value.kind == "null":
            return _removed(required, path)
        return [] if value.kind == "boolean" else [(IR, path)]

    return check


def integration_type(value: Hostile, path: str, update: bool) -> Expected:
    """Spec 7.3: a string of no supported type is INVALID_INTEGRATION_TYPE, else the type rule."""
    if update:
        return [("IMMUTABLE_FIELD", path)]
    return [("INVALID_INTEGRATION_TYPE" if value.kind == "string" else IR, path)]


def owner(create: Check) -> Check:
    """api-contract: an owner field cannot change; none of the hostile values is the current one."""

    def check(value: Hostile, path: str, update: bool) -> Expected:
        return [("IMMUTABLE_FIELD", path)] if update else create(value, path, update)

    return check


def obj(
    shape: tuple[str, ...], existing: tuple[str, ...], *, required: tuple[str, ...] = ()
) -> Check:
    """An object of the creation input with the members `shape`, some `required`.

    In a patch the object is merged into the `existing` one (RFC 7396), so required members are
    there already; `null` removes it.
    """

    def check(value: Hostile, path: str, update: bool) -> Expected:
        if update and value.kind == "null":
            return []
        if value.kind != "object" or value.oversized:
            return [(IR, path)]
        present = (*existing, *value.names) if update else value.names
        found = [(IR, f"{path}.{name}") for name in value.names if name not in shape]
        if value.unnamed:
            found.append((IR, path))
        found += [(IR, f"{path}.{name}") for name in required if name not in present]
        return found

    return check


def disabled_cycles(value: Hostile, path: str, update: bool) -> Expected:
    """Spec 2.4 rule 2: a block without `enabled: true` is ignored, but must be an object.

    In a patch of a campaign without cycles, every non-null member but `enabled` is
    CYCLES_NOT_ENABLED (api-contract); members whose names are not strings, once at `cycles`.
    """
    if value.kind == "null":
        return [] if update else [(IR, path)]
    if value.kind != "object" or value.oversized:
        return [(IR, path)]
    if not update:
        return []
    found = [("CYCLES_NOT_ENABLED", path)] if value.unnamed else []
    return found + [("CYCLES_NOT_ENABLED", f"{path}.{name}") for name in value.names]


def enabled(value: Hostile, path: str, update: bool) -> Expected:
    """`cycles.enabled` on an enabled block: a boolean; in a patch, anything but true changes it."""
    if update:
        return [] if value.value is True else [("IMMUTABLE_FIELD", path)]
    return [] if value.kind == "boolean" else [(IR, path)]


def mode(value: Hostile, path: str, update: bool) -> Expected:
    """`cycles.mode`: none of the hostile values is `cooldown`; in a patch that is a change."""
    return [("IMMUTABLE_FIELD" if update else IR, path)]


def filter_list(value: Hostile, path: str, update: bool) -> Expected:
    """D-filter-lists: at most 100 items, each a non-empty string; the whole refused when longer."""
    if value.kind == "null":
        return [] if update else [(IR, path)]
    if value.kind != "array":
        return [(IR, path)]
    if value.length > 100:
        return [(IR, path)]
    return [(IR, f"{path}[{index}]") for index in value.bad_items]


def filter_item(value: Hostile, path: str, update: bool) -> Expected:
    if value.kind == "string" and value.text and _unicode(value.text):
        return []
    return [(IR, path)]


# D-contact-statuses, written out: cycles are enabled on phone_call campaigns only.
PHONE_CALL_STATUSES = (
    "queue",
    "sending",
    "failed",
    "retrying",
    "converted",
    "voicemail",
    "answered",
)


def _unknown_statuses(value: Hostile) -> list[int]:
    """The indexes of the non-empty string items that are no phone_call contact status."""
    items = list.__iter__(value.value)
    return [
        index
        for index, item in enumerate(items)
        if isinstance(item, str)
        and str.__len__(item)
        and str.__str__(item) not in PHONE_CALL_STATUSES
    ]


def filter_status_list(value: Hostile, path: str, update: bool) -> Expected:
    """D-filter-lists, then D-contact-statuses for the items that are non-empty strings."""
    expected = filter_list(value, path, update)
    if value.kind != "array" or value.length > 100:
        return expected
    return expected + [("INVALID_STATUS", f"{path}[{index}]") for index in _unknown_statuses(value)]


def filter_status_item(value: Hostile, path: str, update: bool) -> Expected:
    """A filter status is a non-empty string (D-filter-lists) and a phone_call status."""
    if value.kind != "string" or not value.text:
        return [(IR, path)]
    return [] if value.text in PHONE_CALL_STATUSES else [("INVALID_STATUS", path)]


def nullable_date(value: Hostile, path: str, update: bool) -> Expected:
    """D-cycle-dates: `null` or a real `YYYY-MM-DD` date; none of the hostile strings is one."""
    return [] if value.kind == "null" else [(IR, path)]


def scheduled_only(value: Hostile, path: str, update: bool) -> Expected:
    """Spec 2.4 rule 3: in cooldown mode any non-null value is SCHEDULED_MODE_ONLY."""
    return [] if value.kind == "null" else [("SCHEDULED_MODE_ONLY", path)]


def _not_blank(text_: str) -> bool:
    return any(not char.isspace() for char in text_)


def _unicode(text_: str) -> bool:
    """D-lone-surrogates: no surrogate code point, which no UTF-8 text holds."""
    return not any(0xD800 <= ord(char) <= 0xDFFF for char in text_)


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WINDOW = ("startTime", "stopTime", "active")
_SCHEDULE_OF_WED = obj(WEEKDAYS, ("wed",))


def required_schedule(value: Hostile, path: str, update: bool) -> Expected:
    """`cycles.schedule` in scheduled mode; D-cycles-required: a patch cannot remove it."""
    if update and value.kind == "null":
        return [(IR, path)]
    return _SCHEDULE_OF_WED(value, path, update)


ALWAYS_BAD = text(lambda _: False, required=True)  # agent ids, times: no hostile string is one

# Every field of the creation input: its path, the base payload it is put in, and its check.
FIELDS: dict[str, tuple[str, Check]] = {
    "name": (
        "phone_call",
        text(
            lambda t: 0 < len(t) <= NAME_MAX_LENGTH and _not_blank(t) and _unicode(t), required=True
        ),
    ),
    "description": ("phone_call", text(_unicode)),
    "agent_id": ("phone_call", owner(ALWAYS_BAD)),
    "integration_id": ("phone_call", owner(text(lambda t: bool(t) and _unicode(t)))),
    "integration_type": ("phone_call", integration_type),
    "timezone": ("phone_call", text(lambda _: False)),
    "retries": ("phone_call", integer(RETRIES)),
    "message_limit": ("phone_call", integer(MESSAGE_LIMIT)),
    "first_message": ("phone_call", text(_unicode)),
    "template": ("whatsapp", text(_unicode)),
    "template_alt": ("whatsapp", text(_unicode)),
    "scheduling": ("cooldown", obj(WEEKDAYS, ("mon", "tue"))),
    "scheduling.mon": ("cooldown", obj(WINDOW, WINDOW, required=WINDOW)),
    "scheduling.mon.startTime": ("cooldown", ALWAYS_BAD),
    "scheduling.mon.stopTime": ("cooldown", ALWAYS_BAD),
    "scheduling.mon.active": ("cooldown", boolean(required=True)),
    "cycles": ("phone_call", disabled_cycles),
    "cycles.enabled": ("cooldown", enabled),
    "cycles.mode": ("cooldown", mode),
    "cycles.max_iterations": (
        "cooldown",
        integer(MAX_ITERATIONS, required=True),
    ),
    "cycles.cooldown_minutes": (
        "cooldown",
        integer(COOLDOWN_MINUTES, required=True),
    ),
    "cycles.filter_statuses": ("cooldown", filter_status_list),
    "cycles.filter_statuses[0]": ("cooldown", filter_status_item),
    "cycles.filter_tags": ("cooldown", filter_list),
    "cycles.filter_tags[0]": ("cooldown", filter_item),
    "cycles.schedule": ("scheduled", required_schedule),
    "cycles.schedule.wed": ("scheduled", obj(WINDOW, WINDOW, required=WINDOW)),
    "cycles.schedule.wed.startTime": ("scheduled", ALWAYS_BAD),
    "cycles.schedule.wed.stopTime": ("scheduled", ALWAYS_BAD),
    "cycles.schedule.wed.active": ("scheduled", boolean(required=True)),
    "cycles.schedule_start_date": ("scheduled", nullable_date),
    "cycles.schedule_end_date": ("scheduled", nullable_date),
    # The same fields in cooldown mode, where spec 2.4 rule 3 refuses any value.
    "cycles.schedule in cooldown mode": ("cooldown", scheduled_only),
    "cycles.schedule_start_date in cooldown mode": ("cooldown", scheduled_only),
    "cycles.schedule_end_date in cooldown mode": ("cooldown", scheduled_only),
}


def _steps(field: str) -> list[str | int]:
    """`cycles.filter_tags[0]` as `["cycles", "filter_tags", 0]`."""
    steps: list[str | int] = []
    for part in field.split(" ")[0].split("."):
        name, _, index = part.partition("[")
        steps.append(name)
        if index:
            steps.append(int(index.rstrip("]")))
    return steps


def path_of(field: str) -> str:
    return field.split(" ")[0]


def body_with(base: str, field: str, value: object) -> dict[str, Any]:
    """A copy of the base payload with `value` at `field`; the value itself is not copied."""
    body = copy.deepcopy(BASES[base])
    *parents, last = _steps(field)
    node: Any = body
    for step in parents:
        node = node[step]
    node[last] = value
    return body


def value_at(body: Any, field: str) -> object:
    for step in _steps(field):
        body = body[step]
    return body  # type: ignore[no-any-return]


def patch_with(field: str, value: object) -> dict[str, Any]:
    """The merge patch that sets `field` to `value`; an array item is sent as a one-item array."""
    *parents, last = _steps(field)
    leaf: Any = [value] if isinstance(last, int) else {last: value}
    for step in reversed(parents):
        if isinstance(step, str):
            leaf = {step: leaf}
    return leaf  # type: ignore[no-any-return]


def armed(run: Callable[[], Any]) -> Any:
    """Run `run` with the hostile subclasses' methods raising."""
    Trap.armed = True
    try:
        return run()
    finally:
        Trap.armed = False


def found(result: CreateResult | UpdateResult) -> Expected:
    return [(violation.key.value, violation.field) for violation in result.violations]


def check_result(result: CreateResult | UpdateResult, value: Hostile | None = None) -> None:
    """What holds for any result: an envelope JSON can carry, short messages that echo nothing."""
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)
    assert (envelope is None) is result.ok
    assert (result.value is None) is (not result.ok)
    for violation in result.violations:
        assert len(violation.message) <= MESSAGE_MAX_LENGTH
        assert violation.message.isprintable()
        if value is not None and value.text:
            assert value.text not in violation.message
    if result.value is not None:
        json.dumps(to_wire(result.value), allow_nan=False)


def existing(base: str) -> CampaignCreate:
    created = validate_create(BASES[base])
    assert created.value is not None
    return created.value


EXISTING = {base: existing(base) for base in BASES}


def pairs() -> list[Any]:
    return [
        pytest.param(field, value.name, id=f"{field}={value.name}")
        for field in FIELDS
        for value in HOSTILE
    ]
