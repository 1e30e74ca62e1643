"""The shape rules (`campaign_rules._rules.shape`): object, known and required members, types.

Sources: spec 2.1, 2.3, 2.4; decisions D-unknown-members, D-window-members, D-null-members,
D-integral-floats and D-hostile-input.
"""

from __future__ import annotations

import collections
import datetime
import decimal
import math
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from campaign_rules import ErrorKey, validate_create
from campaign_rules._campaign import document, sites
from campaign_rules._core.findings import Finding
from campaign_rules._core.limits import FIELD_PATH_MAX_LENGTH as CUT
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS
from campaign_rules._core.object_reading import ObjectKind
from campaign_rules._rules import shape
from campaign_rules._rules._common import with_article
from tests.support import (
    AGENT,
    BASES,
    DROP,
    PHONE_INTEGRATION,
    WINDOW,
    HostileCall,
    HostileDict,
    HostileFloat,
    HostileInt,
    HostileList,
    HostileObject,
    HostileStr,
    Trap,
    label,
    payload,
)

INVALID = ErrorKey.INVALID_REQUEST
# A window with more members than any object may hold: refused whole, never read.
OVERSIZED_WINDOW = {**WINDOW, **{f"extra{i}": 1 for i in range(62)}}


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def found_by(
    rule: Callable[[document.Document, list[Finding]], None], body: object
) -> list[Finding]:
    """What `rule` finds in `body`, the rule called directly.

    `validate_create` leaves the shape rules out of a document whose every site is clean
    (`Document.sites_clean`), so the tests of their own fast paths call them.
    """
    findings: list[Finding] = []
    rule(document.Document(body), findings)
    return findings


def validate_armed(body: object) -> Any:
    Trap.armed = True
    try:
        return validate_create(body)
    finally:
        Trap.armed = False


class ForeignMapping(Mapping[str, object]):
    """A Mapping that is not a dict; reading it would run its code."""

    def __getitem__(self, key: str) -> object:
        raise HostileCall("__getitem__")

    def __iter__(self) -> Iterator[str]:
        raise HostileCall("__iter__")

    def __len__(self) -> int:
        raise HostileCall("__len__")


class TestPayloadIsObject:
    @pytest.mark.parametrize(
        "body",
        [
            None,
            [],
            [("name", "x")],
            "",
            '{"name": "x"}',
            0,
            5,
            1.5,
            True,
            (),
            tuple(BASES["phone_call"].items()),
            {"name"},
            b"{}",
            types.MappingProxyType(dict(BASES["phone_call"])),
            ForeignMapping(),
            HostileObject(),
        ],
        ids=label,
    )
    def test_a_body_that_is_not_a_dict_is_one_violation(self, body: object) -> None:
        result = validate_armed(body)
        assert found(result) == [(INVALID, None, "payload.is_object")]
        assert result.status == 400
        assert result.value is None

    @pytest.mark.parametrize(
        ("body", "sent"),
        [
            ("x", "a string"),
            ([], "an array"),
            (None, "null"),
            (5, "an integer"),
            (1.0, "an integer"),
            (1.5, "a number"),
            (True, "a boolean"),
            ((), "a Python value JSON cannot hold"),
            ({"name"}, "a Python value JSON cannot hold"),
        ],
        ids=repr,
    )
    def test_the_message_names_the_json_type_sent(self, body: object, sent: str) -> None:
        # D-integral-floats: 1.0 is an integer; a value JSON cannot hold is said to be one.
        result = validate_create(body)
        assert found(result) == [(INVALID, None, "payload.is_object")]
        assert result.envelope() == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": f"the request body must be a JSON object, not {sent}",
        }

    @pytest.mark.parametrize("cls", [dict, collections.OrderedDict, HostileDict])
    def test_a_dict_or_dict_subclass_is_an_object(self, cls: type) -> None:
        result = validate_armed(cls(BASES["phone_call"]))
        assert result.ok
        assert result.value == validate_create(BASES["phone_call"]).value


class TestKnownMembersOnly:
    @pytest.mark.parametrize(
        ("body", "field"),
        [
            (payload(retry=2), "retry"),
            (payload(Name="x"), "Name"),
            (payload(id=1), "id"),
            (payload(status="active"), "status"),
            (
                payload(scheduling={"mon": dict(WINDOW), "monday": dict(WINDOW)}),
                "scheduling.monday",
            ),
            (payload(scheduling={"mon": {**WINDOW, "colour": "red"}}), "scheduling.mon.colour"),
            (payload("cooldown", cycles={**BASES["cooldown"]["cycles"], "x": 1}), "cycles.x"),
            (
                payload(
                    "scheduled",
                    cycles={
                        **BASES["scheduled"]["cycles"],
                        "schedule": {"fri": {**WINDOW, "tz": "UTC"}},
                    },
                ),
                "cycles.schedule.fri.tz",
            ),
            (
                payload(
                    "scheduled",
                    cycles={**BASES["scheduled"]["cycles"], "schedule": {"funday": dict(WINDOW)}},
                ),
                "cycles.schedule.funday",
            ),
        ],
    )
    def test_an_unknown_member_is_refused_at_its_path(self, body: object, field: str) -> None:
        assert found(validate_create(body)) == [(INVALID, field, "payload.known_members_only")]

    @pytest.mark.parametrize(
        "key", [5, None, 1.5, ("name",), b"name", True, frozenset()], ids=label
    )
    @pytest.mark.parametrize(
        ("where", "field", "message"),
        [
            ("root", None, "the request body has members whose names are not strings"),
            ("scheduling", "scheduling", "scheduling has members whose names are not strings"),
            ("window", "scheduling.mon", "scheduling.mon has members whose names are not strings"),
            ("cycles", "cycles", "cycles has members whose names are not strings"),
        ],
    )
    def test_a_member_name_that_is_not_a_string_is_refused_at_its_object(
        self, key: object, where: str, field: str | None, message: str
    ) -> None:
        body = payload("cooldown")
        target = {
            "root": body,
            "scheduling": body["scheduling"],
            "window": body["scheduling"]["mon"],
            "cycles": body["cycles"],
        }[where]
        target[key] = "x"
        result = validate_create(body)
        assert found(result) == [(INVALID, field, "payload.known_members_only")]
        assert result.violations[0].message == message

    @pytest.mark.parametrize(
        ("where", "field"),
        [("root", None), ("window", "scheduling.mon"), ("cycles", "cycles")],
    )
    def test_all_non_string_names_of_an_object_are_one_violation(
        self, where: str, field: str | None
    ) -> None:
        body = payload("cooldown")
        target = {"root": body, "window": body["scheduling"]["mon"], "cycles": body["cycles"]}[
            where
        ]
        target.update({5: "x", None: "x", 1.5: "x", ("name",): "x", b"name": "x", True: "x"})
        assert found(validate_create(body)) == [(INVALID, field, "payload.known_members_only")]

    def test_a_string_subclass_name_is_read_as_its_string(self) -> None:
        body = {HostileStr(name): value for name, value in BASES["cooldown"].items()}
        result = validate_armed(body)
        assert result.ok
        assert result.value == validate_create(BASES["cooldown"]).value

    def test_a_string_subclass_name_that_is_unknown_is_named_by_its_characters(self) -> None:
        result = validate_armed({**BASES["phone_call"], HostileStr("colour"): 1})
        assert found(result) == [(INVALID, "colour", "payload.known_members_only")]

    @pytest.mark.parametrize(
        ("name", "shown"),
        [
            ("x" * (CUT - 1), "x" * (CUT - 1)),
            ("x" * CUT, "x" * CUT),
            ("x" * (CUT + 1), "x" * CUT + "…"),
            ("é" * 10_000, "é" * CUT + "…"),
        ],
    )
    def test_a_long_member_name_is_cut_to_the_path_s_max_length(
        self, name: str, shown: str
    ) -> None:
        root = validate_create(payload(**{name: 1}))
        assert found(root) == [(INVALID, shown, "payload.known_members_only")]
        nested = validate_create(payload(scheduling={"mon": {**WINDOW, name: 1}}))
        assert found(nested) == [(INVALID, f"scheduling.mon.{shown}", "payload.known_members_only")]
        assert len(nested.violations[0].message) < 200

    def test_an_object_of_the_max_members_is_read(self) -> None:
        extra = OBJECT_MAX_MEMBERS - len(BASES["phone_call"])
        body = payload(**{f"extra{i}": i for i in range(extra)})
        assert len(body) == OBJECT_MAX_MEMBERS
        result = validate_create(body)
        assert {v.rule for v in result.violations} == {"payload.known_members_only"}
        assert [v.field for v in result.violations] == [f"extra{i}" for i in range(50)]

    def test_the_unknown_members_of_a_64_member_object_name_the_object_only(self) -> None:
        body = payload(**{f"extra{i}": i for i in range(64 - len(BASES["phone_call"]))})
        result = validate_create(body)
        assert [v.message for v in result.violations] == [
            "this is not a known field of the request body"
        ] * 50

    def test_a_payload_of_65_members_is_refused_whole_as_one_violation(self) -> None:
        body = payload(**{f"extra{i}": i for i in range(65 - len(BASES["phone_call"]))})
        assert len(body) == 65
        result = validate_create(body)
        assert found(result) == [(INVALID, None, "payload.known_members_only")]
        assert "64" in result.violations[0].message

    def test_a_huge_payload_is_refused_unread(self) -> None:
        body = HostileDict({f"m{i}": HostileObject() for i in range(100_000)})
        assert found(validate_armed(body)) == [(INVALID, None, "payload.known_members_only")]

    @pytest.mark.parametrize(
        ("base", "path"),
        [
            ("phone_call", ("scheduling",)),
            ("phone_call", ("scheduling", "mon")),
            ("cooldown", ("cycles",)),
            ("scheduled", ("cycles", "schedule")),
            ("scheduled", ("cycles", "schedule", "wed")),
        ],
    )
    def test_a_nested_object_of_65_members_is_one_violation_at_its_path(
        self, base: str, path: tuple[str, ...]
    ) -> None:
        body = payload(base)
        if path[0] == "scheduling":
            body["scheduling"] = {"mon": dict(WINDOW)}
        parent = body
        for name in path[:-1]:
            parent = parent[name]
        big = dict(parent[path[-1]])
        big.update({f"extra{i}": None for i in range(65 - len(big))})
        parent[path[-1]] = big
        assert found(validate_create(body)) == [
            (INVALID, ".".join(path), "payload.known_members_only")
        ]

    def test_a_window_of_64_members_is_read(self) -> None:
        window = {**WINDOW, **{f"extra{i}": 1 for i in range(61)}}
        result = validate_create(payload(scheduling={"mon": window}))
        assert len(result.violations) == 50
        assert result.violations[0].field == "scheduling.mon.extra0"

    def test_the_objects_after_one_too_large_to_read_are_still_checked(self) -> None:
        body = payload(scheduling={"mon": OVERSIZED_WINDOW, "tue": {**WINDOW, "tz": "UTC"}})
        assert found(validate_create(body)) == [
            (INVALID, "scheduling.mon", "payload.known_members_only"),
            (INVALID, "scheduling.tue.tz", "payload.known_members_only"),
        ]

    def test_a_plain_object_of_known_members_is_accepted_without_a_member_by_member_read(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The common case is decided when the site is made (the fast path); only an object
        # that fails it is read name by name.
        def refuse(*_: object) -> None:
            raise AssertionError("a plain object of known members was read member by member")

        monkeypatch.setattr(shape, "_report_unknown_names", refuse)
        body = payload("cooldown", scheduling={"mon": dict(WINDOW), "sun": dict(WINDOW)})
        for clean in (body, payload("scheduled")):
            assert found_by(shape.known_members_only, clean) == []

    def test_an_unknown_name_is_pointed_at_exactly_under_its_object(self) -> None:
        # The path may read like a nested name; the JSON Pointer (RFC 6901) holds the name as
        # given, escaped, under its object's own pointer.
        window = {"startTime": "09:00", "stopTime": "17:00", "active": True, "a.b/c~d": 1}
        violations = validate_create(payload(scheduling={"mon": window})).violations
        assert [(v.field, v.pointer) for v in violations] == [
            ("scheduling.mon.a.b/c~d", "/scheduling/mon/a.b~1c~0d")
        ]


class TestRequiredMembersPresent:
    @pytest.mark.parametrize("name", ["name", "agent_id", "integration_id", "integration_type"])
    def test_a_required_member_of_the_payload_is_required(self, name: str) -> None:
        result = validate_create(payload(**{name: DROP}))
        assert found(result) == [(INVALID, name, "payload.required_members_present")]
        assert result.violations[0].message == f"{name} is required"

    def test_an_empty_payload_lacks_all_four_in_table_order(self) -> None:
        assert found(validate_create({})) == [
            (INVALID, name, "payload.required_members_present")
            for name in ("name", "agent_id", "integration_id", "integration_type")
        ]

    @pytest.mark.parametrize(
        "name",
        [
            "description",
            "timezone",
            "retries",
            "message_limit",
            "first_message",
            "scheduling",
            "cycles",
        ],
    )
    def test_optional_members_may_be_left_out(self, name: str) -> None:
        assert validate_create(payload("cooldown", **{name: DROP})).ok

    @pytest.mark.parametrize("name", ["startTime", "stopTime", "active"])
    def test_every_window_member_is_required(self, name: str) -> None:
        window = {k: v for k, v in WINDOW.items() if k != name}
        result = validate_create(payload(scheduling={"mon": window}))
        assert found(result) == [
            (INVALID, f"scheduling.mon.{name}", "payload.required_members_present")
        ]
        cycles = {**BASES["scheduled"]["cycles"], "schedule": {"wed": window}}
        result = validate_create(payload("scheduled", cycles=cycles))
        assert found(result) == [
            (INVALID, f"cycles.schedule.wed.{name}", "payload.required_members_present")
        ]

    def test_a_window_after_a_complete_one_is_still_checked(self) -> None:
        # A window with every member of its shape is passed over at once; the next is not.
        partial = {k: v for k, v in WINDOW.items() if k != "active"}
        result = validate_create(payload(scheduling={"mon": WINDOW, "tue": partial}))
        assert found(result) == [
            (INVALID, "scheduling.tue.active", "payload.required_members_present")
        ]

    def test_a_complete_window_with_an_unknown_member_is_still_checked(self) -> None:
        # As many members as its shape, but not the same ones: `active` is missing.
        window = {"startTime": "09:00", "stopTime": "17:00", "colour": "red"}
        result = validate_create(payload(scheduling={"mon": window}))
        assert ("scheduling.mon.active", "payload.required_members_present") in [
            (violation.field, violation.rule) for violation in result.violations
        ]

    def test_the_required_members_of_an_object_read_as_a_copy_are_counted_as_read(self) -> None:
        # A site counts its required members when it is made (`Site.required_absent`), from its
        # names as read: here a dict subclass whose names are str subclasses, read as a copy.
        def hostile_copy(members: dict[str, object]) -> object:
            return HostileDict({HostileStr(name): value for name, value in members.items()})

        window = hostile_copy({k: v for k, v in WINDOW.items() if k != "stopTime"})
        body = hostile_copy(payload(agent_id=DROP, scheduling={"mon": window}))
        assert found(validate_armed(body)) == [
            (INVALID, "agent_id", "payload.required_members_present"),
            (INVALID, "scheduling.mon.stopTime", "payload.required_members_present"),
        ]
        assert validate_armed(hostile_copy(payload("cooldown"))).ok

    def test_a_required_member_sent_as_null_is_a_type_error_not_missing(self) -> None:
        assert found(validate_create(payload(name=None))) == [
            (INVALID, "name", "payload.members_have_json_types")
        ]

    def test_a_window_after_one_too_large_to_read_is_still_checked(self) -> None:
        window = {key: value for key, value in WINDOW.items() if key != "active"}
        body = payload(scheduling={"mon": OVERSIZED_WINDOW, "tue": window})
        assert found(validate_create(body)) == [
            (INVALID, "scheduling.mon", "payload.known_members_only"),
            (INVALID, "scheduling.tue.active", "payload.required_members_present"),
        ]

    def test_an_empty_schedule_has_no_window_and_is_valid(self) -> None:
        assert validate_create(payload(scheduling={})).value.scheduling is not None


INTEGER_MEMBERS = [("retries", None), ("message_limit", None)]
CYCLES_INTEGER_MEMBERS = ["max_iterations", "cooldown_minutes"]

NOT_INTEGERS = [
    True,
    False,
    "3",
    "",
    1.5,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    None,
    [],
    [3],
    {},
    decimal.Decimal(3),
    (3,),
    3j,
    HostileObject(),
]
NOT_STRINGS = [5, 0, 1.5, True, None, [], ["x"], {}, b"bytes", ("x",), HostileObject()]


class TestMembersHaveJsonTypes:
    @pytest.mark.parametrize("value", NOT_INTEGERS, ids=label)
    @pytest.mark.parametrize("name", ["retries", "message_limit"])
    def test_an_integer_member_refuses_non_integers(self, name: str, value: object) -> None:
        result = validate_create(payload(**{name: value}))
        assert found(result) == [(INVALID, name, "payload.members_have_json_types")]
        assert result.violations[0].message == f"{name} must be an integer"

    @pytest.mark.parametrize("value", NOT_INTEGERS, ids=label)
    @pytest.mark.parametrize("name", CYCLES_INTEGER_MEMBERS)
    def test_a_cycles_integer_member_refuses_non_integers(self, name: str, value: object) -> None:
        cycles = {**BASES["cooldown"]["cycles"], name: value}
        result = validate_create(payload("cooldown", cycles=cycles))
        assert found(result) == [(INVALID, f"cycles.{name}", "payload.members_have_json_types")]

    @pytest.mark.parametrize(
        ("value", "number"), [(1.0, 1), (3.0, 3), (-0.0, 0), (0.0, 0), (5, 5), (2.0**0, 1)]
    )
    def test_an_integral_float_is_its_integer(self, value: float, number: int) -> None:
        result = validate_create(payload(retries=value))
        assert result.ok
        assert result.value.retries == number
        assert type(result.value.retries) is int

    def test_an_integral_float_reads_as_an_integer_in_cycles_too(self) -> None:
        cycles = {**BASES["cooldown"]["cycles"], "max_iterations": 12.0, "cooldown_minutes": -0.0}
        value = validate_create(payload("cooldown", cycles=cycles)).value
        assert (value.cycles.max_iterations, value.cycles.cooldown_minutes) == (12, 0)
        assert type(value.cycles.max_iterations) is type(value.cycles.cooldown_minutes) is int

    @pytest.mark.parametrize("value", NOT_STRINGS, ids=label)
    @pytest.mark.parametrize(
        "name",
        [
            "name",
            "description",
            "agent_id",
            "integration_id",
            "integration_type",
            "timezone",
            "first_message",
        ],
    )
    def test_a_string_member_refuses_non_strings(self, name: str, value: object) -> None:
        result = validate_create(payload(**{name: value}))
        assert found(result) == [(INVALID, name, "payload.members_have_json_types")]
        assert result.violations[0].message == f"{name} must be a string"

    @pytest.mark.parametrize("name", ["template", "template_alt"])
    def test_the_whatsapp_strings_refuse_non_strings(self, name: str) -> None:
        result = validate_create(payload("whatsapp", **{name: 7}))
        assert found(result) == [(INVALID, name, "payload.members_have_json_types")]

    @pytest.mark.parametrize("value", ["mon", 1, None, [], [dict(WINDOW)], True], ids=label)
    def test_scheduling_must_be_an_object(self, value: object) -> None:
        result = validate_create(payload(scheduling=value))
        assert found(result) == [(INVALID, "scheduling", "payload.members_have_json_types")]
        assert result.violations[0].message == "scheduling must be an object"

    @pytest.mark.parametrize("value", ["09:00", None, [], 1, True], ids=label)
    def test_a_weekday_must_be_an_object(self, value: object) -> None:
        result = validate_create(payload(scheduling={"mon": value}))
        assert found(result) == [(INVALID, "scheduling.mon", "payload.members_have_json_types")]

    @pytest.mark.parametrize("value", ["true", 1, 0, None, "yes", []], ids=label)
    def test_window_active_must_be_a_boolean(self, value: object) -> None:
        result = validate_create(payload(scheduling={"mon": {**WINDOW, "active": value}}))
        assert found(result) == [
            (INVALID, "scheduling.mon.active", "payload.members_have_json_types")
        ]
        assert result.violations[0].message == "scheduling.mon.active must be a boolean"

    @pytest.mark.parametrize("value", [900, 9.0, None, ["09:00"], datetime.time(9)], ids=label)
    @pytest.mark.parametrize("name", ["startTime", "stopTime"])
    def test_window_times_must_be_strings(self, name: str, value: object) -> None:
        result = validate_create(payload(scheduling={"mon": {**WINDOW, name: value}}))
        assert found(result) == [
            (INVALID, f"scheduling.mon.{name}", "payload.members_have_json_types")
        ]

    @pytest.mark.parametrize("value", ["a", ("a",), {"a"}, None, {}, 1], ids=label)
    @pytest.mark.parametrize("name", ["filter_statuses", "filter_tags"])
    def test_filter_lists_must_be_arrays(self, name: str, value: object) -> None:
        cycles = {**BASES["cooldown"]["cycles"], name: value}
        result = validate_create(payload("cooldown", cycles=cycles))
        assert found(result) == [(INVALID, f"cycles.{name}", "payload.members_have_json_types")]
        assert result.violations[0].message == f"cycles.{name} must be an array"

    @pytest.mark.parametrize("value", [1, None, "cooldown", True], ids=label)
    def test_cycles_must_be_an_object(self, value: object) -> None:
        result = validate_create(payload(cycles=value))
        assert found(result) == [(INVALID, "cycles", "payload.members_have_json_types")]

    @pytest.mark.parametrize("value", [1, None, ["cooldown"]], ids=label)
    def test_cycles_mode_must_be_a_string(self, value: object) -> None:
        cycles = {**BASES["cooldown"]["cycles"], "mode": value}
        result = validate_create(payload("cooldown", cycles=cycles))
        assert found(result) == [(INVALID, "cycles.mode", "payload.members_have_json_types")]

    def test_a_window_after_one_too_large_to_read_is_still_checked(self) -> None:
        body = payload(scheduling={"mon": OVERSIZED_WINDOW, "tue": {**WINDOW, "active": 1}})
        assert found(validate_create(body)) == [
            (INVALID, "scheduling.mon", "payload.known_members_only"),
            (INVALID, "scheduling.tue.active", "payload.members_have_json_types"),
        ]

    def test_the_types_of_every_member_of_every_object_kind_are_said_in_words(self) -> None:
        # The rule reads the words made once for each shape's types (`shape._EXPECTED`), in
        # the findings made once for each (`shape._MUST_BE`).
        kinds = [v for v in vars(sites).values() if isinstance(v, ObjectKind)]
        assert len(kinds) >= 6
        for kind in kinds:
            for json_types in kind.shape.values():
                expected = " or ".join(map(with_article, json_types))
                assert shape._EXPECTED[json_types] == expected
                assert shape._MUST_BE[json_types]._say("a.b", "a") == f"a.b must be {expected}"

    def test_every_member_of_every_object_in_force_has_its_ready_findings(self) -> None:
        # Made at import for each place a site can have (`sites.KIND_AT`), never on the way.
        for path, kind in sites.KIND_AT.items():
            for name, json_types in kind.shape.items():
                assert shape._MUST_BE[json_types].at(path, name).ready, (path, name)
                if name in kind.required:
                    assert shape._IS_REQUIRED.at(path, name).ready, (path, name)

    def test_members_of_the_exact_built_in_type_are_not_asked_their_json_type(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The common case is one identity check of the member's class (the fast path); only
        # another class, such as a subclass or an integral float, is asked its JSON type.
        def refuse(value: object) -> str:
            raise AssertionError("a member of the exact built-in type was asked its JSON type")

        monkeypatch.setattr(shape, "json_type", refuse)
        for base in ("cooldown", "scheduled", "whatsapp"):
            assert found_by(shape.members_have_json_types, payload(base, retries=2)) == []

    @pytest.mark.parametrize("name", ["schedule_start_date", "schedule_end_date"])
    def test_the_two_dates_take_null(self, name: str) -> None:
        cycles = {**BASES["scheduled"]["cycles"], name: None}
        assert validate_create(payload("scheduled", cycles=cycles)).ok

    @pytest.mark.parametrize(
        "value", [20260301, datetime.date(2026, 3, 1), [], {}, True], ids=label
    )
    @pytest.mark.parametrize("name", ["schedule_start_date", "schedule_end_date"])
    def test_the_two_dates_refuse_other_types(self, name: str, value: object) -> None:
        cycles = {**BASES["scheduled"]["cycles"], name: value}
        result = validate_create(payload("scheduled", cycles=cycles))
        assert found(result) == [(INVALID, f"cycles.{name}", "payload.members_have_json_types")]
        assert result.violations[0].message == f"cycles.{name} must be a string or null"

    @pytest.mark.parametrize(
        ("name", "base"),
        [
            ("description", "phone_call"),
            ("timezone", "phone_call"),
            ("retries", "phone_call"),
            ("message_limit", "phone_call"),
            ("first_message", "phone_call"),
            ("template", "whatsapp"),
            ("template_alt", "whatsapp"),
            ("scheduling", "phone_call"),
            ("cycles", "phone_call"),
        ],
    )
    def test_null_is_not_absent(self, name: str, base: str) -> None:
        assert found(validate_create(payload(base, **{name: None}))) == [
            (INVALID, name, "payload.members_have_json_types")
        ]

    @pytest.mark.parametrize("name", ["schedule", "max_iterations", "mode", "filter_tags"])
    def test_null_is_refused_inside_an_enabled_block(self, name: str) -> None:
        cycles = {**BASES["scheduled"]["cycles"], name: None}
        result = validate_create(payload("scheduled", cycles=cycles))
        assert found(result) == [(INVALID, f"cycles.{name}", "payload.members_have_json_types")]

    def test_subclasses_of_the_json_types_are_read_as_their_base_values(self) -> None:
        class S(str):
            pass

        class N(int):
            pass

        class F(float):
            pass

        class L(list):  # type: ignore[type-arg]
            pass

        class D(dict):  # type: ignore[type-arg]
            pass

        body = D(
            name=S("Debt reminders"),
            agent_id=S(AGENT),
            integration_id=S(PHONE_INTEGRATION),
            integration_type=S("phone_call"),
            retries=N(2),
            message_limit=F(30.0),
            scheduling=D(mon=D(startTime=S("09:00"), stopTime=S("17:00"), active=True)),
            cycles=D(
                enabled=True,
                mode=S("cooldown"),
                max_iterations=N(3),
                cooldown_minutes=F(0.0),
                filter_statuses=L([S("converted")]),
            ),
        )
        value = validate_create(body).value
        assert value is not None
        assert (value.name, value.retries, value.message_limit) == ("Debt reminders", 2, 30)
        assert type(value.name) is str
        assert type(value.agent_id) is str
        assert type(value.integration_id) is str
        assert type(value.retries) is int
        assert type(value.message_limit) is int
        assert type(value.cycles.max_iterations) is int
        assert value.cycles.filter_statuses == ("converted",)
        assert type(value.cycles.filter_statuses) is tuple
        assert type(value.cycles.filter_statuses[0]) is str

    def test_hostile_subclasses_run_none_of_their_methods(self) -> None:
        window = HostileDict(
            {
                HostileStr("startTime"): HostileStr("09:00"),
                "stopTime": HostileStr("17:00"),
                "active": True,
            }
        )
        body = HostileDict(
            {
                HostileStr("name"): HostileStr("Debt reminders"),
                "agent_id": HostileStr(AGENT.upper()),
                "integration_id": HostileStr(PHONE_INTEGRATION),
                "integration_type": HostileStr("phone_call"),
                "timezone": HostileStr("UTC"),
                "retries": HostileInt(2),
                "message_limit": HostileFloat(30.0),
                "scheduling": HostileDict({"mon": window}),
                "cycles": HostileDict(
                    {
                        "enabled": True,
                        "mode": HostileStr("cooldown"),
                        "max_iterations": HostileInt(3),
                        "cooldown_minutes": HostileFloat(0.0),
                        "filter_statuses": HostileList([HostileStr("converted")]),
                        "filter_tags": HostileList([HostileStr("tag-vip"), HostileStr("tag-3")]),
                    }
                ),
            }
        )
        result = validate_armed(body)
        assert result.ok, found(result)
        value = result.value
        assert value.name == "Debt reminders"
        assert type(value.name) is str
        assert value.agent_id == AGENT
        assert type(value.timezone) is str
        assert (value.retries, value.message_limit) == (2, 30)
        assert type(value.message_limit) is int
        assert value.scheduling.mon.start_time == datetime.time(9)
        assert value.cycles.filter_tags == ("tag-vip", "tag-3")
        assert all(type(tag) is str for tag in value.cycles.filter_tags)

    @pytest.mark.parametrize(
        ("member", "field"),
        [
            ("name", "name"),
            ("retries", "retries"),
            ("scheduling", "scheduling"),
            ("cycles", "cycles"),
        ],
    )
    def test_a_hostile_non_json_value_is_refused_by_type(self, member: str, field: str) -> None:
        result = validate_armed(payload(**{member: HostileObject()}))
        assert found(result) == [(INVALID, field, "payload.members_have_json_types")]

    @pytest.mark.parametrize(
        "value",
        [
            HostileStr("x"),
            HostileInt(3),
            HostileFloat(1.5),
            HostileList(["x"]),
            HostileDict({"a": 1}),
        ],
        ids=lambda v: type(v).__name__,
    )
    def test_a_hostile_subclass_of_the_wrong_type_is_refused_by_type(self, value: object) -> None:
        result = validate_armed(payload(scheduling={"mon": {**WINDOW, "active": value}}))
        assert found(result) == [
            (INVALID, "scheduling.mon.active", "payload.members_have_json_types")
        ]

    def test_a_hostile_filter_item_is_read_as_its_string(self) -> None:
        cycles = {
            **BASES["cooldown"]["cycles"],
            "filter_statuses": HostileList(
                [HostileStr("queue"), HostileStr("queue"), HostileStr("")]
            ),
        }
        result = validate_armed(payload("cooldown", cycles=cycles))
        assert found(result) == [
            (INVALID, "cycles.filter_statuses[2]", "cycles.filter_items_are_non_empty_strings"),
            (INVALID, "cycles.filter_statuses[1]", "cycles.filter_items_are_unique"),
        ]
