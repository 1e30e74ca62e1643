"""The rules on the cycles block (`campaign_rules._rules.cycles`).

Sources: spec 2.4 rules 1-4, spec 8; decisions D-cycles-required, D-filter-lists, D-cycle-dates,
D-null-members.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from campaign_rules import (
    ContactStatus,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    ErrorKey,
    IntegrationType,
    Schedule,
    validate_create,
)
from campaign_rules._campaign.cycles_state import _CYCLES
from campaign_rules._campaign.document import Document
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    COOLDOWN_MODE,
    CYCLES_ENABLED,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
)
from campaign_rules._rules.table import CREATE_RULES
from campaign_rules._rules.validation import _create_rules
from campaign_rules.responses import CONTACT_STATUSES
from tests.support import BASES, DROP, WINDOW, inside, outside, payload

INVALID = ErrorKey.INVALID_REQUEST
INVALID_STATUS = ErrorKey.INVALID_STATUS
PHONE_STATUSES = sorted(CONTACT_STATUSES[IntegrationType.PHONE_CALL])
WHATSAPP_STATUSES = sorted(CONTACT_STATUSES[IntegrationType.WHATSAPP])
SCHEDULED_ONLY = ErrorKey.SCHEDULED_MODE_ONLY


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def with_cycles(base: str = "cooldown", **members: Any) -> dict[str, Any]:
    """A valid payload of `base` whose cycles block has `members` set (DROP removes one)."""
    body = payload(base)
    for name, value in members.items():
        if value is DROP:
            body["cycles"].pop(name, None)
        else:
            body["cycles"][name] = value
    return body


GARBAGE_BLOCK = {
    "mode": "weekly",
    "max_iterations": 99,
    "cooldown_minutes": "soon",
    "filter_statuses": [""] * 200,
    "filter_tags": [5, 5],
    "schedule": {"funday": {"startTime": "25:00"}},
    "schedule_start_date": "2026-02-30",
    "schedule_end_date": None,
    "colour": "red",
    5: "not a string name",
}


def test_both_facts_of_the_block_are_members_of_the_block_the_state_reads() -> None:
    # `CyclesState` tells both facts on the one object it reads, the payload's `_CYCLES`.
    for pointer, _ in (CYCLES_ENABLED, COOLDOWN_MODE):
        assert pointer.split("/")[1:-1] == [_CYCLES], pointer


class TestDisabledBlockIgnored:
    """Spec 2.4 rule 2: a block whose `enabled` is false or omitted is ignored."""

    @pytest.mark.parametrize("base", ["phone_call", "whatsapp"])
    @pytest.mark.parametrize(
        "block",
        [
            {"enabled": False},
            {},
            {"enabled": False, **GARBAGE_BLOCK},
            GARBAGE_BLOCK,
            {**BASES["cooldown"]["cycles"], "enabled": False, "enabled_": 1},
        ],
        ids=["disabled", "empty", "disabled garbage", "omitted garbage", "disabled full"],
    )
    def test_the_block_is_ignored_and_the_value_has_no_cycles(
        self, base: str, block: dict[Any, Any]
    ) -> None:
        result = validate_create(payload(base, cycles=block))
        assert result.ok, found(result)
        assert result.value.cycles is None

    def test_a_disabled_cooldown_block_may_hold_a_schedule(self) -> None:
        body = with_cycles("cooldown", enabled=False, schedule={"mon": dict(WINDOW)})
        assert validate_create(body).ok

    @pytest.mark.parametrize("enabled", ["yes", "true", 1, 0, None, [], {}, 1.0], ids=repr)
    def test_enabled_of_another_type_is_a_type_error_and_the_rest_is_ignored(
        self, enabled: object
    ) -> None:
        result = validate_create(payload(cycles={"enabled": enabled, **GARBAGE_BLOCK}))
        assert found(result) == [(INVALID, "cycles.enabled", "payload.members_have_json_types")]
        assert result.violations[0].message == "cycles.enabled must be a boolean"


class TestEnabledOnlyOnPhoneCall:
    @pytest.mark.parametrize("mode", ["cooldown", "scheduled"])
    def test_an_enabled_block_on_whatsapp_is_refused_at_cycles(self, mode: str) -> None:
        result = validate_create(payload("whatsapp", cycles=BASES[mode]["cycles"]))
        assert found(result) == [(INVALID, "cycles", "cycles.enabled_only_on_phone_call")]
        assert result.violations[0].message == "cycles can be enabled on phone_call campaigns only"

    @pytest.mark.parametrize("mode", ["cooldown", "scheduled"])
    def test_an_enabled_block_on_phone_call_is_accepted(self, mode: str) -> None:
        assert validate_create(payload("phone_call", cycles=BASES[mode]["cycles"])).ok

    @pytest.mark.parametrize("block", [{"enabled": False}, {"mode": "cooldown"}])
    def test_a_disabled_or_omitted_block_on_whatsapp_is_accepted(
        self, block: dict[str, Any]
    ) -> None:
        assert validate_create(payload("whatsapp", cycles=block)).value.cycles is None

    def test_an_enabled_block_with_an_unsupported_channel_is_not_judged_for_channel(self) -> None:
        result = validate_create(
            with_cycles("cooldown", enabled=True) | {"integration_type": "sms"}
        )
        assert found(result) == [
            (ErrorKey.INVALID_INTEGRATION_TYPE, "integration_type", "integration_type.is_supported")
        ]


class TestRequiredWhenEnabled:
    @pytest.mark.parametrize(
        ("base", "name"),
        [
            ("cooldown", "mode"),
            ("cooldown", "max_iterations"),
            ("cooldown", "cooldown_minutes"),
            ("scheduled", "mode"),
            ("scheduled", "max_iterations"),
            ("scheduled", "schedule"),
        ],
    )
    def test_a_required_member_is_required(self, base: str, name: str) -> None:
        result = validate_create(with_cycles(base, **{name: DROP}))
        assert found(result) == [(INVALID, f"cycles.{name}", "cycles.required_when_enabled")]

    @pytest.mark.parametrize(
        ("base", "name", "message"),
        [
            (
                "cooldown",
                "cooldown_minutes",
                "cycles.cooldown_minutes is required in cooldown mode",
            ),
            ("scheduled", "schedule", "cycles.schedule is required in scheduled mode"),
        ],
    )
    def test_the_message_names_the_mode_for_a_mode_field(
        self, base: str, name: str, message: str
    ) -> None:
        result = validate_create(with_cycles(base, **{name: DROP}))
        assert result.violations[0].message == message

    def test_enabled_alone_lacks_mode_and_max_iterations(self) -> None:
        result = validate_create(payload(cycles={"enabled": True}))
        assert found(result) == [
            (INVALID, "cycles.mode", "cycles.required_when_enabled"),
            (INVALID, "cycles.max_iterations", "cycles.required_when_enabled"),
        ]

    @pytest.mark.parametrize(
        ("base", "name"),
        [
            ("cooldown", "filter_statuses"),
            ("cooldown", "filter_tags"),
            ("scheduled", "schedule_start_date"),
            ("scheduled", "schedule_end_date"),
        ],
    )
    def test_optional_members_may_be_left_out(self, base: str, name: str) -> None:
        assert validate_create(with_cycles(base, **{name: DROP})).ok

    def test_cooldown_minutes_is_allowed_in_scheduled_mode(self) -> None:
        value = validate_create(with_cycles("scheduled", cooldown_minutes=30)).value
        assert value.cycles.cooldown_minutes == 30

    def test_an_unknown_mode_requires_no_mode_field(self) -> None:
        result = validate_create(with_cycles("cooldown", mode="weekly", cooldown_minutes=DROP))
        assert found(result) == [(INVALID, "cycles.mode", "cycles.mode_is_known")]

    def test_a_scheduled_block_does_not_require_cooldown_minutes(self) -> None:
        assert validate_create(with_cycles("scheduled", cooldown_minutes=DROP)).ok


class TestModeIsKnown:
    @pytest.mark.parametrize(
        "mode", ["weekly", "", "Cooldown", "COOLDOWN", "scheduled ", "cool down"]
    )
    def test_an_unknown_mode_is_refused(self, mode: str) -> None:
        result = validate_create(with_cycles("cooldown", mode=mode))
        assert found(result) == [(INVALID, "cycles.mode", "cycles.mode_is_known")]
        assert result.violations[0].message == "cycles.mode must be one of cooldown, scheduled"

    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    def test_the_two_modes_are_accepted(self, base: str) -> None:
        assert validate_create(payload(base)).value.cycles.mode is CyclesMode(base)

    def test_a_non_string_mode_is_a_type_error_only(self) -> None:
        result = validate_create(with_cycles("cooldown", mode=1))
        assert found(result) == [(INVALID, "cycles.mode", "payload.members_have_json_types")]


class TestMaxIterationsWithinBounds:
    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    @pytest.mark.parametrize("value", inside(MAX_ITERATIONS))
    def test_within_the_bounds_is_accepted(self, base: str, value: float) -> None:
        result = validate_create(with_cycles(base, max_iterations=value))
        assert result.ok
        assert result.value.cycles.max_iterations == value

    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    @pytest.mark.parametrize("value", [*outside(MAX_ITERATIONS), MAX_ITERATIONS.low - 2])
    def test_outside_the_bounds_is_refused(self, base: str, value: float) -> None:
        result = validate_create(with_cycles(base, max_iterations=value))
        assert found(result) == [
            (INVALID, "cycles.max_iterations", "cycles.max_iterations_within_bounds")
        ]
        low, high = MAX_ITERATIONS.low, MAX_ITERATIONS.high
        assert result.violations[0].message == f"cycles.max_iterations must be from {low} to {high}"


class TestCooldownMinutesWithinBounds:
    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    @pytest.mark.parametrize("value", [*inside(COOLDOWN_MINUTES), -0.0])
    def test_within_the_bounds_is_accepted(self, base: str, value: float) -> None:
        result = validate_create(with_cycles(base, cooldown_minutes=value))
        assert result.ok
        assert result.value.cycles.cooldown_minutes == value

    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    @pytest.mark.parametrize("value", outside(COOLDOWN_MINUTES))
    def test_outside_the_bounds_is_refused(self, base: str, value: float) -> None:
        result = validate_create(with_cycles(base, cooldown_minutes=value))
        assert found(result) == [
            (INVALID, "cycles.cooldown_minutes", "cycles.cooldown_minutes_within_bounds")
        ]
        low, high = COOLDOWN_MINUTES.low, COOLDOWN_MINUTES.high
        assert (
            result.violations[0].message == f"cycles.cooldown_minutes must be from {low} to {high}"
        )


MAX_ITEMS = FILTER_LIST_MAX_ITEMS


class TestFilterListsWithinMaxItems:
    @pytest.mark.parametrize("count", [0, 1, MAX_ITEMS - 1, MAX_ITEMS])
    def test_up_to_the_max_tags_is_accepted(self, count: int) -> None:
        items = [f"item-{i}" for i in range(count)]
        result = validate_create(with_cycles("cooldown", filter_tags=items))
        assert result.ok
        assert result.value.cycles.filter_tags == tuple(items)

    @pytest.mark.parametrize("count", [MAX_ITEMS - 1, MAX_ITEMS])
    def test_up_to_the_max_statuses_are_read_item_by_item(self, count: int) -> None:
        # Seven phone_call statuses exist, so a long list holds unknown ones: they are judged
        # one by one (D-contact-statuses), the list is not refused whole.
        items = [*PHONE_STATUSES, *(f"item-{i}" for i in range(count - len(PHONE_STATUSES)))]
        result = validate_create(with_cycles("cooldown", filter_statuses=items))
        assert {v.rule for v in result.violations} == {"cycles.filter_statuses_match_channel"}
        assert result.violations[0].field == f"cycles.filter_statuses[{len(PHONE_STATUSES)}]"

    @pytest.mark.parametrize("name", FILTER_LISTS)
    @pytest.mark.parametrize("count", [MAX_ITEMS + 1, MAX_ITEMS * 10])
    def test_over_the_max_items_is_refused_as_a_whole(self, name: str, count: int) -> None:
        items = [f"item-{i}" for i in range(count)]
        result = validate_create(with_cycles("cooldown", **{name: items}))
        assert found(result) == [
            (INVALID, f"cycles.{name}", "cycles.filter_lists_within_max_items")
        ]
        assert result.violations[0].message == f"cycles.{name} must hold at most {MAX_ITEMS} items"

    @pytest.mark.parametrize("name", FILTER_LISTS)
    def test_a_list_of_a_million_bad_items_is_reported_once(self, name: str) -> None:
        result = validate_create(with_cycles("cooldown", **{name: [""] * 1_000_000}))
        assert found(result) == [
            (INVALID, f"cycles.{name}", "cycles.filter_lists_within_max_items")
        ]

    def test_both_lists_are_judged(self) -> None:
        result = validate_create(
            with_cycles(
                "scheduled",
                filter_statuses=["x"] * (MAX_ITEMS + 1),
                filter_tags=[None] * (MAX_ITEMS + 1),
            )
        )
        assert found(result) == [
            (INVALID, "cycles.filter_statuses", "cycles.filter_lists_within_max_items"),
            (INVALID, "cycles.filter_tags", "cycles.filter_lists_within_max_items"),
        ]


class TestFilterItemsAreNonEmptyStrings:
    @pytest.mark.parametrize("name", FILTER_LISTS)
    def test_each_bad_item_is_refused_at_its_index(self, name: str) -> None:
        items = ["failed", "", 5, None, ["x"], {}, True, 1.0, "queue"]
        result = validate_create(with_cycles("cooldown", **{name: items}))
        assert found(result) == [
            (INVALID, f"cycles.{name}[{index}]", "cycles.filter_items_are_non_empty_strings")
            for index in range(1, 8)
        ]
        assert result.violations[0].message == f"cycles.{name}[1] must be a non-empty string"

    @pytest.mark.parametrize("item", [" ", "x", "\u3000", "x" * 10_000, "ñ"])
    def test_any_non_empty_string_is_a_tag(self, item: str) -> None:
        assert validate_create(with_cycles("scheduled", filter_tags=[item])).ok

    @pytest.mark.parametrize("item", [" ", "x", "\u3000", "x" * 10_000, "ñ"])
    def test_any_non_empty_string_is_no_empty_status(self, item: str) -> None:
        # It is a string, so this rule is silent; whether it is a status is the next rule's.
        result = validate_create(with_cycles("scheduled", filter_statuses=[item]))
        assert found(result) == [
            (INVALID_STATUS, "cycles.filter_statuses[0]", "cycles.filter_statuses_match_channel")
        ]

    def test_two_empty_strings_are_not_also_repeats(self) -> None:
        result = validate_create(with_cycles("cooldown", filter_statuses=["", ""]))
        assert found(result) == [
            (INVALID, "cycles.filter_statuses[0]", "cycles.filter_items_are_non_empty_strings"),
            (INVALID, "cycles.filter_statuses[1]", "cycles.filter_items_are_non_empty_strings"),
        ]


class TestFilterItemsAreUnique:
    @pytest.mark.parametrize("name", FILTER_LISTS)
    def test_a_repeat_is_refused_at_its_own_index(self, name: str) -> None:
        items = ["failed", "queue", "failed", "failed", "sending", "queue"]
        result = validate_create(with_cycles("cooldown", **{name: items}))
        assert found(result) == [
            (INVALID, f"cycles.{name}[{index}]", "cycles.filter_items_are_unique")
            for index in (2, 3, 5)
        ]
        assert result.violations[0].message == f"cycles.{name}[2] repeats an earlier item"

    def test_items_differing_in_case_or_space_are_distinct(self) -> None:
        assert validate_create(with_cycles("cooldown", filter_tags=["a", "A", "a "])).ok

    def test_the_same_item_in_both_lists_is_accepted(self) -> None:
        body = with_cycles("cooldown", filter_statuses=["failed"], filter_tags=["failed"])
        assert validate_create(body).ok

    def test_a_string_subclass_repeat_is_a_repeat(self) -> None:
        class S(str):
            def __eq__(self, other: object) -> bool:
                return False

            def __hash__(self) -> int:
                return id(self)

        result = validate_create(
            with_cycles("cooldown", filter_statuses=[S("failed"), S("failed")])
        )
        assert found(result) == [
            (INVALID, "cycles.filter_statuses[1]", "cycles.filter_items_are_unique")
        ]


class TestFilterStatusesMatchChannel:
    def test_every_phone_call_status_is_accepted(self) -> None:
        result = validate_create(with_cycles("cooldown", filter_statuses=PHONE_STATUSES))
        assert result.ok
        assert result.value.cycles.filter_statuses == tuple(PHONE_STATUSES)

    @pytest.mark.parametrize("status", sorted(set(WHATSAPP_STATUSES) - set(PHONE_STATUSES)))
    def test_a_whatsapp_only_status_is_refused_on_phone_call(self, status: str) -> None:
        result = validate_create(with_cycles("cooldown", filter_statuses=["failed", status]))
        assert found(result) == [
            (INVALID_STATUS, "cycles.filter_statuses[1]", "cycles.filter_statuses_match_channel")
        ]
        assert result.violations[0].message == (
            "cycles.filter_statuses[1] must be a phone_call contact status"
        )
        assert result.status == 400

    @pytest.mark.parametrize("status", ["Failed", "FAILED", " failed", "failed ", "fail"])
    def test_the_spelling_is_exact(self, status: str) -> None:
        result = validate_create(with_cycles("scheduled", filter_statuses=[status]))
        assert result.keys == (INVALID_STATUS,)

    def test_a_whatsapp_block_is_read_with_whatsapp_statuses(self) -> None:
        cycles = with_cycles("cooldown", filter_statuses=["sent", "answered"])["cycles"]
        body = payload("whatsapp") | {"cycles": cycles}
        assert found(validate_create(body)) == [
            (INVALID, "cycles", "cycles.enabled_only_on_phone_call"),
            (INVALID_STATUS, "cycles.filter_statuses[1]", "cycles.filter_statuses_match_channel"),
        ]

    def test_the_status_sets_are_those_the_service_documents(self) -> None:
        assert set(PHONE_STATUSES) == {
            "queue", "sending", "failed", "retrying", "converted", "voicemail", "answered",
        }  # fmt: skip
        assert set(WHATSAPP_STATUSES) == {
            "queue", "sending", "sent", "delivered", "read", "accepted", "rejected", "failed",
            "retrying", "converted",
        }  # fmt: skip
        assert set(ContactStatus) == set(PHONE_STATUSES) | set(WHATSAPP_STATUSES)

    def test_no_channel_no_judgement(self) -> None:
        body = with_cycles("cooldown", filter_statuses=["bogus"]) | {"integration_type": "sms"}
        assert validate_create(body).keys == (ErrorKey.INVALID_INTEGRATION_TYPE,)

    def test_a_disabled_block_is_not_read(self) -> None:
        body = with_cycles("cooldown", enabled=False, filter_statuses=["bogus"])
        assert validate_create(body).ok


SCHEDULE_FIELDS = {
    "schedule": {"mon": dict(WINDOW)},
    "schedule_start_date": "2026-03-01",
    "schedule_end_date": "2026-04-30",
}


class TestCooldownModeHasNoSchedule:
    @pytest.mark.parametrize("name", sorted(SCHEDULE_FIELDS))
    def test_a_schedule_field_with_a_value_is_scheduled_mode_only(self, name: str) -> None:
        result = validate_create(with_cycles("cooldown", **{name: SCHEDULE_FIELDS[name]}))
        assert found(result) == [
            (SCHEDULED_ONLY, f"cycles.{name}", "cycles.cooldown_mode_has_no_schedule")
        ]
        assert result.status == 400
        assert result.violations[0].message == f"cycles.{name} is for scheduled mode only"

    def test_all_three_are_reported_in_order(self) -> None:
        result = validate_create(with_cycles("cooldown", **SCHEDULE_FIELDS))
        assert found(result) == [
            (SCHEDULED_ONLY, f"cycles.{name}", "cycles.cooldown_mode_has_no_schedule")
            for name in ("schedule", "schedule_start_date", "schedule_end_date")
        ]

    def test_a_mode_given_as_a_string_subclass_is_the_cooldown_mode_it_spells(self) -> None:
        # The reader reads a `str` subclass as the text it holds: the mode's row accepts it, so
        # the cooldown mode's scope holds, and the cycles rules agree on the mode.
        class Mode(str):
            def __eq__(self, other: object) -> bool:
                return False

            __hash__ = str.__hash__

        result = validate_create(with_cycles("cooldown", mode=Mode("cooldown"), **SCHEDULE_FIELDS))
        assert found(result) == [
            (SCHEDULED_ONLY, f"cycles.{name}", "cycles.cooldown_mode_has_no_schedule")
            for name in ("schedule", "schedule_start_date", "schedule_end_date")
        ]

    @pytest.mark.parametrize("name", sorted(SCHEDULE_FIELDS))
    @pytest.mark.parametrize("value", ["x", 5, False, 0, "", [], {}, "2026-02-30"], ids=repr)
    def test_any_non_null_value_is_scheduled_mode_only_and_not_type_checked(
        self, name: str, value: object
    ) -> None:
        result = validate_create(with_cycles("cooldown", **{name: value}))
        assert found(result) == [
            (SCHEDULED_ONLY, f"cycles.{name}", "cycles.cooldown_mode_has_no_schedule")
        ]

    def test_null_is_accepted_for_each(self) -> None:
        body = with_cycles("cooldown", **dict.fromkeys(SCHEDULE_FIELDS))
        result = validate_create(body)
        assert result.ok, found(result)
        cycles = result.value.cycles
        assert (cycles.schedule, cycles.schedule_start_date, cycles.schedule_end_date) == (
            None,
        ) * 3

    def test_scheduled_mode_takes_them(self) -> None:
        assert validate_create(with_cycles("scheduled", **SCHEDULE_FIELDS)).ok

    @pytest.mark.parametrize("base", ["scheduled", "whatsapp"])
    def test_the_rule_is_not_run_outside_cooldown_mode(self, base: str) -> None:
        # A row (issue 38): the facts it reads in, an enabled block in cooldown mode, are its one
        # gate, and the runner reads them (`_rules.validation`): outside that mode the rule is
        # not chosen.
        body = payload(base)
        body.setdefault("cycles", {"enabled": True}).update(SCHEDULE_FIELDS)
        chosen = [rule.id for rule in _create_rules(Document(body))]
        assert "cycles.cooldown_mode_has_no_schedule" not in chosen
        assert "cycles.mode_is_known" in chosen


GOOD_DATES = ["2024-02-29", "2026-03-01", "2000-02-29", "0001-01-01", "9999-12-31", "2026-12-31"]
BAD_DATES = [
    "2026-02-29",
    "1900-02-29",
    "2026-3-1",
    "2026-03-1",
    "0000-01-01",
    "2026-13-01",
    "2026-00-10",
    "2026-04-31",
    "2026-03-00",
    "20260301",
    "2026-03-01T00:00:00",
    "2026-03-01 ",
    " 2026-03-01",
    "2026/03/01",
    "01-03-2026",
    "+2026-03-01",
    "-2026-03-01",
    "٢٠٢٦-٠٣-٠١",
    "２０２６-03-01",
    "2026-W09-1",
    "2026-060",
    "",
    "x" * 10_000_000,
]
DATES = ["schedule_start_date", "schedule_end_date"]


class TestDatesAreIso:
    @pytest.mark.parametrize("date", GOOD_DATES)
    def test_an_existing_calendar_date_is_accepted(self, date: str) -> None:
        body = with_cycles("scheduled", schedule_start_date=date, schedule_end_date=date)
        value = validate_create(body).value
        assert value.cycles.schedule_start_date == datetime.date.fromisoformat(date)

    @pytest.mark.parametrize("name", DATES)
    @pytest.mark.parametrize("date", BAD_DATES, ids=lambda v: repr(v)[:30])
    def test_anything_else_is_refused(self, name: str, date: str) -> None:
        result = validate_create(with_cycles("scheduled", **{name: date}))
        assert found(result) == [(INVALID, f"cycles.{name}", "cycles.dates_are_iso")]
        assert result.violations[0].message == f"cycles.{name} must be a calendar date YYYY-MM-DD"

    @pytest.mark.parametrize("name", DATES)
    def test_null_is_accepted(self, name: str) -> None:
        value = validate_create(with_cycles("scheduled", **{name: None})).value
        assert getattr(value.cycles, name) is None

    def test_the_dates_of_a_disabled_block_are_not_read(self) -> None:
        assert validate_create(with_cycles("scheduled", enabled=False, schedule_start_date="no")).ok


class TestStartDateNotAfterEndDate:
    @pytest.mark.parametrize(
        ("start", "end"),
        [("2026-03-02", "2026-03-01"), ("2027-01-01", "2026-12-31"), ("9999-12-31", "0001-01-01")],
    )
    def test_a_start_after_the_end_is_refused_at_the_end(self, start: str, end: str) -> None:
        result = validate_create(
            with_cycles("scheduled", schedule_start_date=start, schedule_end_date=end)
        )
        assert found(result) == [
            (INVALID, "cycles.schedule_end_date", "cycles.start_date_not_after_end_date")
        ]
        assert result.violations[0].message == (
            "cycles.schedule_end_date must not be before cycles.schedule_start_date"
        )

    @pytest.mark.parametrize(
        ("start", "end"),
        [
            ("2026-03-01", "2026-03-01"),
            ("2026-03-01", "2026-03-02"),
            (None, "2026-01-01"),
            ("2026-01-01", None),
            (None, None),
        ],
    )
    def test_a_start_on_or_before_the_end_or_an_open_end_is_accepted(
        self, start: str | None, end: str | None
    ) -> None:
        assert validate_create(
            with_cycles("scheduled", schedule_start_date=start, schedule_end_date=end)
        ).ok

    def test_a_bad_date_is_not_also_compared(self) -> None:
        body = with_cycles(
            "scheduled", schedule_start_date="2026-12-01", schedule_end_date="2026-02-30"
        )
        assert [v.rule for v in validate_create(body).violations] == ["cycles.dates_are_iso"]


class TestCyclesValue:
    def test_a_scheduled_block_becomes_a_cycles_config_of_python_values(self) -> None:
        value = validate_create(payload("scheduled")).value
        assert value.cycles == CyclesConfig(
            enabled=True,
            mode=CyclesMode.SCHEDULED,
            max_iterations=4,
            schedule=Schedule(wed=DayWindow(datetime.time(9, 0), datetime.time(17, 0), True)),
            schedule_start_date=datetime.date(2026, 3, 1),
            schedule_end_date=datetime.date(2026, 4, 30),
        )
        assert type(value.cycles.schedule_start_date) is datetime.date
        assert type(value.cycles.schedule.wed.start_time) is datetime.time

    def test_a_cooldown_block_becomes_a_cycles_config(self) -> None:
        value = validate_create(payload("cooldown")).value
        assert value.cycles == CyclesConfig(
            enabled=True,
            mode=CyclesMode.COOLDOWN,
            max_iterations=3,
            cooldown_minutes=60,
            filter_statuses=("converted",),
            filter_tags=("tag-optout",),
        )

    def test_left_out_filter_lists_are_empty(self) -> None:
        value = validate_create(
            with_cycles("cooldown", filter_statuses=DROP, filter_tags=DROP)
        ).value
        assert (value.cycles.filter_statuses, value.cycles.filter_tags) == ((), ())

    @pytest.mark.parametrize(
        "block", [{"enabled": False}, {"mode": "cooldown", "max_iterations": 3}]
    )
    def test_a_block_not_enabled_is_no_cycles(self, block: dict[str, Any]) -> None:
        assert validate_create(payload(cycles=block)).value.cycles is None


# Issue 22: `validate_create` skips the `cycles.` rules for a payload without an enabled block;
# that is exact only while each of them finds nothing in such a payload, whatever it holds.
@pytest.mark.parametrize("base", ["phone_call", "whatsapp"])
@pytest.mark.parametrize(
    "cycles",
    [
        DROP,
        None,
        "enabled",
        [GARBAGE_BLOCK],
        {},
        {"enabled": False, **GARBAGE_BLOCK},
        {"enabled": "true", **GARBAGE_BLOCK},
        {"enabled": 1, **GARBAGE_BLOCK},
        {"enabled": None, "mode": "cooldown", "schedule": {"mon": WINDOW}},
        GARBAGE_BLOCK,
    ],
)
def test_no_cycles_rule_finds_anything_without_an_enabled_block(base, cycles):
    doc = Document(payload(base, cycles=cycles))
    assert doc.cycles.block is None
    cycles_rules = [rule for rule in CREATE_RULES if rule.id.startswith("cycles.")]
    assert len(cycles_rules) == 12
    for rule in cycles_rules:
        findings: list[Any] = []
        rule.check(doc, findings)
        assert findings == [], rule.id
