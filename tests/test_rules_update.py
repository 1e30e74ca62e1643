"""`validate_update` and its rules (`campaign_rules._rules.update`).

Sources: spec 2.4 rule 4, 7.3; api-contract "Error keys" (IMMUTABLE_FIELD, CYCLES_NOT_ENABLED,
CAMPAIGN_FINISHED) and `validate_update`; decisions D-merge-patch, D-null-members, D-agent-id.
"""

from __future__ import annotations

import copy
import datetime
import json
import types
import uuid
from typing import Any

import attrs
import pytest

from campaign_rules import (
    CampaignCreate,
    CampaignStatus,
    CyclesMode,
    DayWindow,
    ErrorKey,
    Schedule,
    UpdateResult,
    to_wire,
    validate_create,
    validate_update,
)
from campaign_rules._core.limits import RETRIES
from tests.support import (
    AGENT,
    BASES,
    OTHER_AGENT,
    PHONE_INTEGRATION,
    WHATSAPP_INTEGRATION,
    WINDOW,
    FakeDirectory,
    HostileStr,
    Trap,
)

INVALID = ErrorKey.INVALID_REQUEST
IMMUTABLE = ErrorKey.IMMUTABLE_FIELD
NOT_ENABLED = ErrorKey.CYCLES_NOT_ENABLED


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def created(base: str, **members: Any) -> CampaignCreate:
    value = validate_create({**BASES[base], **members}).value
    assert value is not None
    return value


ENABLED_IMMUTABLE = (IMMUTABLE, "cycles.enabled", "update.cycles_enabled_immutable")
MODE_IMMUTABLE = (IMMUTABLE, "cycles.mode", "update.cycles_mode_immutable")


class TestMergeSemantics:
    """RFC 7396: members replace, objects merge, null removes (D-merge-patch, D-null-members)."""

    def test_an_ok_update_is_200_with_the_merged_value(self) -> None:
        existing = created("phone_call")
        result = validate_update(existing, {"name": "New name", "retries": 3})
        assert isinstance(result, UpdateResult)
        assert result.ok
        assert result.status == 200
        assert result.violations == ()
        assert result.envelope() is None
        assert result.value == attrs.evolve(existing, name="New name", retries=3)

    def test_an_empty_patch_changes_nothing(self) -> None:
        for base in BASES:
            existing = created(base)
            assert validate_update(existing, {}).value == existing

    def test_null_removes_a_member_and_its_default_returns(self) -> None:
        existing = created("cooldown", retries=4, description="d", timezone="UTC")
        patch = {"retries": None, "description": None, "timezone": None, "first_message": None}
        value = validate_update(existing, patch).value
        assert value == attrs.evolve(
            existing,
            retries=1,
            description=None,
            timezone="America/Mexico_City",
            first_message=None,
        )

    def test_null_for_an_absent_member_is_no_op(self) -> None:
        existing = created("phone_call")
        assert (
            validate_update(existing, {"description": None, "scheduling": None}).value == existing
        )

    def test_a_window_is_merged_member_by_member(self) -> None:
        existing = created("cooldown")
        value = validate_update(existing, {"scheduling": {"mon": {"active": False}}}).value
        assert value.scheduling.mon == DayWindow(datetime.time(9), datetime.time(17), False)
        assert value.scheduling.tue == existing.scheduling.tue

    def test_null_removes_a_weekday_or_the_whole_schedule(self) -> None:
        existing = created("cooldown")
        value = validate_update(existing, {"scheduling": {"mon": None, "sun": dict(WINDOW)}}).value
        assert value.scheduling == Schedule(
            tue=existing.scheduling.tue, sun=existing.scheduling.tue
        )
        assert validate_update(existing, {"scheduling": None}).value.scheduling is None

    def test_a_schedule_can_be_added(self) -> None:
        existing = created("phone_call")
        value = validate_update(existing, {"scheduling": {"fri": dict(WINDOW)}}).value
        assert value.scheduling == Schedule(
            fri=DayWindow(datetime.time(9), datetime.time(17), True)
        )

    def test_the_cycles_block_is_merged_member_by_member(self) -> None:
        existing = created("cooldown")
        value = validate_update(
            existing, {"cycles": {"max_iterations": 12, "filter_tags": None}}
        ).value
        assert value.cycles == attrs.evolve(existing.cycles, max_iterations=12, filter_tags=())

    def test_an_array_is_replaced_whole(self) -> None:
        existing = created("cooldown")
        patch = {"cycles": {"filter_statuses": ["failed", "queue"]}}
        value = validate_update(existing, patch).value
        assert value.cycles.filter_statuses == ("failed", "queue")

    def test_the_cycles_schedule_and_dates_are_merged(self) -> None:
        existing = created("scheduled")
        patch = {
            "cycles": {
                "schedule": {"wed": None, "thu": {**WINDOW, "startTime": "08:00"}},
                "schedule_start_date": None,
                "schedule_end_date": "2027-01-01",
            }
        }
        value = validate_update(existing, patch).value
        assert value.cycles.schedule == Schedule(
            thu=DayWindow(datetime.time(8), datetime.time(17), True)
        )
        assert value.cycles.schedule_start_date is None
        assert value.cycles.schedule_end_date == datetime.date(2027, 1, 1)

    def test_the_merged_campaign_goes_through_every_creation_rule(self) -> None:
        existing = created("phone_call")
        result = validate_update(
            existing,
            {"retries": 9, "template": "t", "colour": 1, "scheduling": {"mon": {"active": True}}},
        )
        assert found(result) == [
            (INVALID, "colour", "payload.known_members_only"),
            (INVALID, "scheduling.mon.startTime", "payload.required_members_present"),
            (INVALID, "scheduling.mon.stopTime", "payload.required_members_present"),
            (INVALID, "retries", "retries.within_bounds"),
            (INVALID, "template", "channel.fields_match_integration_type"),
        ]
        assert result.value is None

    def test_a_merged_window_that_starts_after_it_stops_is_refused(self) -> None:
        existing = created("cooldown")
        result = validate_update(existing, {"scheduling": {"mon": {"startTime": "18:00"}}})
        assert found(result) == [
            (INVALID, "scheduling.mon.stopTime", "schedule.window_starts_before_stop")
        ]

    def test_the_agent_id_of_the_value_stays_lower_case(self) -> None:
        existing = created("phone_call")
        value = validate_update(existing, {"agent_id": AGENT.upper()}).value
        assert value.agent_id == AGENT

    @pytest.mark.parametrize(
        ("base", "path"),
        [
            ("cooldown", "scheduling"),
            ("cooldown", "scheduling.mon"),
            ("scheduled", "cycles.schedule"),
        ],
    )
    def test_a_patch_object_of_over_64_members_replaces_its_target_unread(
        self, base: str, path: str
    ) -> None:
        # D-hostile-input: an object of over 64 members is refused whole, unread, so its null
        # members remove nothing from the campaign's object (D-merge-patch).
        patch: dict[str, Any] = {"mon": None, **{f"x{i}": None for i in range(64)}}
        for name in reversed(path.split(".")):
            patch = {name: patch}
        result = validate_update(created(base), patch)
        assert found(result) == [(INVALID, path, "payload.known_members_only")]
        assert result.violations[0].message == f"{path} has more than 64 members"

    @pytest.mark.parametrize(
        ("patch", "expected"),
        [
            (
                {5: "x", "retries": 9},
                [
                    (INVALID, None, "payload.known_members_only"),
                    (INVALID, "retries", "retries.within_bounds"),
                ],
            ),
            (
                {"scheduling": {"mon": {None: 1, "startTime": "18:00"}}},
                [
                    (INVALID, "scheduling.mon", "payload.known_members_only"),
                    (INVALID, "scheduling.mon.stopTime", "schedule.window_starts_before_stop"),
                ],
            ),
        ],
        ids=["root", "window"],
    )
    def test_the_members_after_a_name_that_is_not_a_string_are_merged_too(
        self, patch: dict[Any, Any], expected: list[tuple[ErrorKey, str | None, str]]
    ) -> None:
        assert found(validate_update(created("cooldown"), patch)) == expected


class TestPatchIsObject:
    @pytest.mark.parametrize(
        "patch",
        [
            None,
            [],
            [{"name": "x"}],
            "x",
            "",
            5,
            0,
            True,
            1.5,
            (),
            types.MappingProxyType({"name": "x"}),
        ],
        ids=repr,
    )
    def test_a_patch_that_is_not_an_object_is_one_violation(self, patch: object) -> None:
        result = validate_update(created("phone_call"), patch)
        assert found(result) == [(INVALID, None, "update.patch_is_object")]
        assert result.status == 400
        assert result.value is None
        assert "field" not in result.envelope()

    def test_the_message_says_what_a_patch_must_be(self) -> None:
        result = validate_update(created("phone_call"), ["name", "x"])
        assert result.envelope() == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": "the patch must be a JSON object of the fields to change",
        }

    # D-merge-patch: at most 51 members, the object limit of 64 less the 13 of a campaign.
    @pytest.mark.parametrize("size", [52, 65])
    def test_a_patch_of_over_51_members_is_one_violation(self, size: int) -> None:
        patch = {f"extra{i}": i for i in range(size)}
        result = validate_update(created("phone_call"), patch)
        assert found(result) == [(INVALID, None, "update.patch_is_object")]
        assert result.violations[0].message == "the patch must have at most 51 members"

    def test_a_patch_of_51_members_is_read(self) -> None:
        existing = created("phone_call")
        current = to_wire(existing)
        patch = {**current, **{f"extra{i}": i for i in range(51 - len(current))}}
        assert len(patch) == 51
        result = validate_update(existing, patch)
        assert found(result) == [
            (INVALID, f"extra{i}", "payload.known_members_only") for i in range(51 - len(current))
        ]

    @pytest.mark.parametrize("size", [51, 52])
    def test_a_patch_is_applied_up_to_51_members_only(self, size: int) -> None:
        extras = size - 2
        patch = {
            "retries": 9,
            "cycles": {"filter_tags": ["tag-vip"]},
            **{f"extra{i}": i for i in range(extras)},
        }
        assert len(patch) == size
        directory = FakeDirectory()
        result = validate_update(created("cooldown"), patch, directory=directory)
        if size == 51:
            assert found(result) == [
                *((INVALID, f"extra{i}", "payload.known_members_only") for i in range(extras)),
                (INVALID, "retries", "retries.within_bounds"),
            ]
            asked_tag = "tag-vip"
        else:
            # Not applied: the creation rules and the look-ups see the campaign as it is.
            assert found(result) == [(INVALID, None, "update.patch_is_object")]
            asked_tag = "tag-optout"
        assert directory.calls == [
            ("agent_exists", (AGENT,)),
            ("integration_type", (AGENT, PHONE_INTEGRATION)),
            ("tag_exists", (asked_tag,)),
            ("billing_limit_reached", ()),
        ]

    def test_a_dict_subclass_is_an_object(self) -> None:
        class Patch(dict):  # type: ignore[type-arg]
            def __getitem__(self, key: object) -> Any:
                raise AssertionError("ran")

        value = validate_update(created("phone_call"), Patch(name="New")).value
        assert value.name == "New"

    @pytest.mark.parametrize(
        ("patch", "field"),
        [
            ({5: "x"}, None),
            ({"name": "New", None: 1}, None),
            ({"scheduling": {"mon": {**WINDOW, 5: "x"}}}, "scheduling.mon"),
            ({"cycles": {("a",): 1}}, "cycles"),
        ],
        ids=["root", "root with a valid member", "window", "cycles"],
    )
    def test_a_member_name_that_is_not_a_string_is_refused(
        self, patch: dict[Any, Any], field: str | None
    ) -> None:
        result = validate_update(created("cooldown"), patch)
        assert (INVALID, field, "payload.known_members_only") in found(result)


class TestOwnerFieldsImmutable:
    @pytest.mark.parametrize("sent", [None, AGENT, OTHER_AGENT, 5], ids=repr)
    def test_a_current_owner_value_of_a_str_subclass_runs_none_of_its_code(
        self, sent: object
    ) -> None:
        # A server may build `existing` from its own records, in its own str subclass.
        existing = attrs.evolve(created("phone_call"), agent_id=HostileStr(AGENT))
        Trap.armed = True
        try:
            result = validate_update(existing, {"agent_id": sent})
        finally:
            Trap.armed = False
        if sent == AGENT:  # the current value, sent again: no change
            assert result.ok
        else:
            assert found(result)[0] == (IMMUTABLE, "agent_id", "update.owner_fields_immutable")

    def test_a_current_owner_value_that_is_no_string_is_changed_by_any_value(self) -> None:
        # A hand-built campaign (validation never builds one): "5" is not the current 5.
        existing = attrs.evolve(created("phone_call"), integration_id=5)
        result = validate_update(existing, {"integration_id": "5"})
        assert found(result)[0] == (IMMUTABLE, "integration_id", "update.owner_fields_immutable")

    @pytest.mark.parametrize(
        ("name", "value"),
        [
            ("agent_id", OTHER_AGENT),
            ("agent_id", OTHER_AGENT.upper()),
            ("agent_id", "not a uuid"),
            ("agent_id", None),
            ("agent_id", 5),
            ("integration_id", "int-other"),
            ("integration_id", PHONE_INTEGRATION.upper()),
            ("integration_id", ""),
            ("integration_id", None),
            ("integration_type", "whatsapp"),
            ("integration_type", "PHONE_CALL"),
            ("integration_type", "sms"),
            ("integration_type", None),
            ("integration_type", ["phone_call"]),
        ],
        ids=repr,
    )
    def test_a_change_is_immutable_field_at_that_field(self, name: str, value: object) -> None:
        result = validate_update(created("phone_call"), {name: value})
        assert found(result)[0] == (IMMUTABLE, name, "update.owner_fields_immutable")
        assert [v for v in result.violations if v.key == IMMUTABLE] == [result.violations[0]]
        assert result.status == 400
        assert result.envelope() == {
            "success": False,
            "error": "IMMUTABLE_FIELD",
            "message": f"{name} cannot be changed",
            "field": name,
        }

    @pytest.mark.parametrize(
        "patch",
        [
            {"agent_id": AGENT},
            {"agent_id": AGENT.upper()},
            {"integration_id": PHONE_INTEGRATION},
            {"integration_type": "phone_call"},
            {
                "agent_id": AGENT,
                "integration_id": PHONE_INTEGRATION,
                "integration_type": "phone_call",
            },
        ],
        ids=repr,
    )
    def test_sending_the_current_value_is_no_change(self, patch: dict[str, str]) -> None:
        existing = created("phone_call")
        result = validate_update(existing, patch)
        assert result.ok
        assert result.value == existing

    def test_moving_to_the_other_channel_is_two_immutable_fields(self) -> None:
        patch = {"integration_type": "whatsapp", "integration_id": WHATSAPP_INTEGRATION}
        assert found(validate_update(created("phone_call"), patch)) == [
            (IMMUTABLE, "integration_id", "update.owner_fields_immutable"),
            (IMMUTABLE, "integration_type", "update.owner_fields_immutable"),
        ]


class TestCyclesEnabledImmutable:
    @pytest.mark.parametrize("base", ["phone_call", "whatsapp"])
    def test_enabling_cycles_on_a_campaign_created_without_them(self, base: str) -> None:
        result = validate_update(created(base), {"cycles": BASES["cooldown"]["cycles"]})
        assert found(result)[0] == ENABLED_IMMUTABLE
        assert result.envelope()["field"] == "cycles.enabled"

    def test_enabling_cycles_on_a_campaign_created_with_a_disabled_block(self) -> None:
        existing = created("phone_call", cycles={"enabled": False, "mode": "cooldown"})
        assert existing.cycles is None
        result = validate_update(existing, {"cycles": {"enabled": True}})
        assert found(result)[0] == ENABLED_IMMUTABLE

    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    @pytest.mark.parametrize(
        "patch",
        [
            {"cycles": None},
            {"cycles": {"enabled": False}},
            {"cycles": {"enabled": None}},
        ],
        ids=["block null", "enabled false", "enabled null"],
    )
    def test_removing_or_disabling_an_enabled_block(self, base: str, patch: dict[str, Any]) -> None:
        result = validate_update(created(base), patch)
        assert found(result) == [ENABLED_IMMUTABLE]

    def test_enabled_of_another_type_is_a_change_reported_once(self) -> None:
        # D-merge-patch: the refused `enabled` keeps its value, so it has no type error.
        result = validate_update(created("cooldown"), {"cycles": {"enabled": "yes"}})
        assert found(result) == [ENABLED_IMMUTABLE]

    def test_the_envelope_names_cycles_enabled(self) -> None:
        assert validate_update(created("cooldown"), {"cycles": None}).envelope() == {
            "success": False,
            "error": "IMMUTABLE_FIELD",
            "message": "cycles.enabled cannot be changed after creation",
            "field": "cycles.enabled",
        }

    @pytest.mark.parametrize(
        "patch", [{"cycles": None}, {"cycles": {"enabled": False}}], ids=["null", "false"]
    )
    def test_a_refused_removal_keeps_the_block_for_the_look_ups(
        self, patch: dict[str, Any]
    ) -> None:
        # D-merge-patch: the refused change keeps the current block in the merged campaign, and
        # the look-ups run on it (api-contract "Look-ups": each tag of an enabled block).
        directory = FakeDirectory(tags=set())
        result = validate_update(created("cooldown"), patch, directory=directory)
        assert found(result) == [
            ENABLED_IMMUTABLE,
            (ErrorKey.INVALID_FILTER_TAG, "cycles.filter_tags[0]", "lookup.filter_tags_exist"),
        ]
        assert ("tag_exists", ("tag-optout",)) in directory.calls

    def test_a_block_of_over_64_members_is_refused_whole_not_read_as_a_change(self) -> None:
        # D-hostile-input: the block is not read, so it says nothing of `enabled`.
        patch = {"cycles": {"enabled": False, **{f"x{i}": 1 for i in range(64)}}}
        result = validate_update(created("cooldown"), patch)
        assert found(result) == [(INVALID, "cycles", "payload.known_members_only")]

    @pytest.mark.parametrize(
        ("base", "patch"),
        [
            ("cooldown", {"cycles": {"enabled": True}}),
            ("scheduled", {"cycles": {"enabled": True, "mode": "scheduled"}}),
            ("phone_call", {"cycles": {"enabled": False}}),
            ("phone_call", {"cycles": None}),
            ("phone_call", {"cycles": {"enabled": None}}),
        ],
    )
    def test_sending_the_current_state_is_no_change(self, base: str, patch: dict[str, Any]) -> None:
        existing = created(base)
        result = validate_update(existing, patch)
        assert result.ok, found(result)
        assert result.value == existing


class TestCyclesModeImmutable:
    def test_cooldown_to_scheduled_is_immutable_field(self) -> None:
        patch = {
            "cycles": {
                "mode": "scheduled",
                "schedule": {"mon": dict(WINDOW)},
                "cooldown_minutes": None,
            }
        }
        result = validate_update(created("cooldown"), patch)
        # D-merge-patch: the mode stays cooldown, and the rest of the patch is judged in it.
        assert found(result) == [
            MODE_IMMUTABLE,
            (INVALID, "cycles.cooldown_minutes", "cycles.required_when_enabled"),
            (
                ErrorKey.SCHEDULED_MODE_ONLY,
                "cycles.schedule",
                "cycles.cooldown_mode_has_no_schedule",
            ),
        ]
        assert result.envelope()["field"] == "cycles.mode"

    def test_scheduled_to_cooldown_is_immutable_field(self) -> None:
        patch = {
            "cycles": {
                "mode": "cooldown",
                "cooldown_minutes": 5,
                "schedule": None,
                "schedule_start_date": None,
                "schedule_end_date": None,
            }
        }
        # D-merge-patch: the mode stays scheduled, which requires the schedule removed here.
        assert found(validate_update(created("scheduled"), patch)) == [
            MODE_IMMUTABLE,
            (INVALID, "cycles.schedule", "cycles.required_when_enabled"),
        ]

    @pytest.mark.parametrize("mode", [None, "weekly", "COOLDOWN", 5], ids=repr)
    def test_any_other_mode_is_a_change(self, mode: object) -> None:
        result = validate_update(created("cooldown"), {"cycles": {"mode": mode}})
        assert found(result)[0] == MODE_IMMUTABLE

    def test_the_envelope_names_cycles_mode(self) -> None:
        result = validate_update(created("scheduled"), {"cycles": {"mode": "weekly"}})
        assert result.envelope() == {
            "success": False,
            "error": "IMMUTABLE_FIELD",
            "message": "cycles.mode cannot be changed after creation",
            "field": "cycles.mode",
        }

    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    def test_sending_the_current_mode_is_no_change(self, base: str) -> None:
        existing = created(base)
        result = validate_update(existing, {"cycles": {"mode": base}})
        assert result.ok
        assert result.value.cycles.mode is CyclesMode(base)

    def test_a_block_that_is_no_longer_enabled_is_reported_as_enabled_only(self) -> None:
        result = validate_update(
            created("cooldown"), {"cycles": {"enabled": False, "mode": "scheduled"}}
        )
        assert found(result) == [ENABLED_IMMUTABLE]


CYCLES_MEMBERS = {
    "mode": "cooldown",
    "max_iterations": 3,
    "cooldown_minutes": 10,
    "filter_statuses": ["x"],
    "filter_tags": ["tag-vip"],
    "schedule": {"mon": dict(WINDOW)},
    "schedule_start_date": "2026-03-01",
    "schedule_end_date": "2026-04-30",
}


class TestCyclesFieldsNeedEnabledCycles:
    @pytest.mark.parametrize("base", ["phone_call", "whatsapp"])
    @pytest.mark.parametrize("name", sorted(CYCLES_MEMBERS))
    def test_setting_a_cycles_member_is_cycles_not_enabled_at_it(
        self, base: str, name: str
    ) -> None:
        result = validate_update(created(base), {"cycles": {name: CYCLES_MEMBERS[name]}})
        assert found(result) == [
            (NOT_ENABLED, f"cycles.{name}", "update.cycles_fields_need_enabled_cycles")
        ]
        assert result.status == 400
        assert result.envelope()["field"] == f"cycles.{name}"

    def test_each_member_is_reported_with_enabled_false(self) -> None:
        patch = {"cycles": {"enabled": False, "max_iterations": 3, "mode": "x"}}
        assert found(validate_update(created("phone_call"), patch)) == [
            (NOT_ENABLED, "cycles.max_iterations", "update.cycles_fields_need_enabled_cycles"),
            (NOT_ENABLED, "cycles.mode", "update.cycles_fields_need_enabled_cycles"),
        ]

    @pytest.mark.parametrize(
        ("block", "fields"),
        [({5: 1}, ["cycles"]), ({("a",): 1, "mode": "x"}, ["cycles", "cycles.mode"])],
        ids=["alone", "with a named member"],
    )
    def test_members_whose_names_are_not_strings_are_one_violation_at_the_block(
        self, block: dict[Any, Any], fields: list[str]
    ) -> None:
        # D-merge-patch: such members are reported at the path of their object.
        result = validate_update(created("phone_call"), {"cycles": block})
        assert found(result) == [
            (NOT_ENABLED, field, "update.cycles_fields_need_enabled_cycles") for field in fields
        ]
        assert result.envelope() == {
            "success": False,
            "error": "CYCLES_NOT_ENABLED",
            "message": "cycles fields cannot be set: this campaign's cycles are not enabled",
            "field": "cycles",
        }

    def test_enabling_with_members_is_immutable_then_not_enabled(self) -> None:
        result = validate_update(created("phone_call"), {"cycles": BASES["cooldown"]["cycles"]})
        assert found(result) == [ENABLED_IMMUTABLE] + [
            (NOT_ENABLED, f"cycles.{name}", "update.cycles_fields_need_enabled_cycles")
            for name in BASES["cooldown"]["cycles"]
            if name != "enabled"
        ]

    @pytest.mark.parametrize("name", sorted(CYCLES_MEMBERS))
    def test_null_sets_nothing(self, name: str) -> None:
        assert validate_update(created("phone_call"), {"cycles": {name: None}}).ok

    @pytest.mark.parametrize("name", [5, None, ("a",)], ids=["int", "None", "tuple"])
    def test_null_under_a_name_that_is_not_a_string_sets_nothing_either(self, name: Any) -> None:
        # D-merge-patch: a member set to null sets nothing, whatever its name.
        assert validate_update(created("phone_call"), {"cycles": {name: None}}).ok

    def test_a_campaign_with_enabled_cycles_takes_its_members(self) -> None:
        result = validate_update(created("cooldown"), {"cycles": {"max_iterations": 5}})
        assert result.ok
        assert result.value.cycles.max_iterations == 5


class TestScheduledModeOnlyAfterMerge:
    """Spec 2.4 rule 3 holds for the merged campaign (cycles.cooldown_mode_has_no_schedule)."""

    @pytest.mark.parametrize("name", ["schedule", "schedule_start_date", "schedule_end_date"])
    def test_a_schedule_field_on_a_cooldown_campaign_is_scheduled_mode_only(
        self, name: str
    ) -> None:
        result = validate_update(created("cooldown"), {"cycles": {name: CYCLES_MEMBERS[name]}})
        assert found(result) == [
            (ErrorKey.SCHEDULED_MODE_ONLY, f"cycles.{name}", "cycles.cooldown_mode_has_no_schedule")
        ]
        assert result.status == 400

    @pytest.mark.parametrize("name", ["schedule", "schedule_start_date", "schedule_end_date"])
    def test_null_is_fine(self, name: str) -> None:
        existing = created("cooldown")
        assert validate_update(existing, {"cycles": {name: None}}).value == existing


class TestStatusIsACampaignStatus:
    @pytest.mark.parametrize("status", [*CampaignStatus, *(s.value for s in CampaignStatus), None])
    def test_none_and_every_campaign_status_are_taken(self, status: Any) -> None:
        assert validate_update(created("phone_call"), {}, status=status).ok

    @pytest.mark.parametrize(
        "status", ["archived", "Finished", "finished ", "", 3, True, b"finished", ["finished"]]
    )
    def test_anything_else_is_a_server_error(self, status: Any) -> None:
        result = validate_update(created("phone_call"), {"name": "Autumn"}, status=status)
        assert found(result) == [
            (ErrorKey.SERVER_ERROR, None, "update.status_is_a_campaign_status")
        ]
        assert result.status == 500
        assert result.violations[0].message == (
            "the current status of the campaign must be a campaign status"
        )

    def test_a_finished_string_is_the_finished_status(self) -> None:
        result = validate_update(created("phone_call"), {"name": "x"}, status="finished")
        assert result.keys == (ErrorKey.CAMPAIGN_FINISHED,)


class TestCampaignNotFinished:
    @pytest.mark.parametrize(
        "patch",
        [
            {"name": "x"},
            {"name": BASES["phone_call"]["name"]},
            {"description": None},
            {"cycles": None},
        ],
        ids=repr,
    )
    def test_any_non_empty_patch_of_a_finished_campaign_is_409(self, patch: dict[str, Any]) -> None:
        result = validate_update(created("phone_call"), patch, status=CampaignStatus.FINISHED)
        assert found(result) == [(ErrorKey.CAMPAIGN_FINISHED, None, "update.campaign_not_finished")]
        assert result.status == 409
        assert result.value is None
        assert result.envelope() == {
            "success": False,
            "error": "CAMPAIGN_FINISHED",
            "message": "the campaign is finished and can no longer be changed",
        }

    def test_the_empty_patch_of_a_finished_campaign_is_ok(self) -> None:
        existing = created("cooldown")
        result = validate_update(existing, {}, status=CampaignStatus.FINISHED)
        assert result.ok
        assert result.status == 200
        assert result.value == existing

    @pytest.mark.parametrize(
        "status", [None, *(s for s in CampaignStatus if s is not CampaignStatus.FINISHED)], ids=str
    )
    def test_other_statuses_take_changes(self, status: CampaignStatus | None) -> None:
        assert validate_update(created("phone_call"), {"name": "x"}, status=status).ok

    def test_a_400_outranks_the_409(self) -> None:
        result = validate_update(
            created("phone_call"), {"retries": RETRIES.high + 1}, status=CampaignStatus.FINISHED
        )
        assert set(result.keys) == {ErrorKey.CAMPAIGN_FINISHED, INVALID}
        assert result.status == 400

    def test_a_patch_with_only_non_string_names_is_not_empty(self) -> None:
        result = validate_update(created("phone_call"), {5: "x"}, status=CampaignStatus.FINISHED)
        assert ErrorKey.CAMPAIGN_FINISHED in result.keys


def deep_dict(depth: int) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    for _ in range(depth):
        inner = {"a": inner}
    return inner


def self_referencing() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["a"] = loop
    for day in ("mon", "schedule", "cycles", "scheduling"):
        loop[day] = loop
    return loop


class TestHostilePatches:
    @pytest.mark.parametrize(
        "where",
        ["description", "scheduling", "cycles", "scheduling.mon", "cycles.schedule", "root"],
    )
    @pytest.mark.parametrize(
        "make", [lambda: deep_dict(100_000), self_referencing], ids=["deep", "loop"]
    )
    def test_a_deep_or_self_referencing_value_does_not_raise(self, where: str, make: Any) -> None:
        value = make()
        if where == "root":
            patch = value
        else:
            patch = value
            for name in reversed(where.split(".")):
                patch = {name: patch}
        result = validate_update(created("scheduled"), patch)
        assert not result.ok
        assert result.value is None
        assert all(len(v.message) < 200 for v in result.violations)

    def test_a_deep_patch_with_a_finished_campaign_is_409_and_400(self) -> None:
        result = validate_update(
            created("phone_call"), {"name": deep_dict(100_000)}, status=CampaignStatus.FINISHED
        )
        assert found(result) == [
            (ErrorKey.CAMPAIGN_FINISHED, None, "update.campaign_not_finished"),
            (INVALID, "name", "payload.members_have_json_types"),
        ]

    @pytest.mark.parametrize("base", sorted(BASES))
    @pytest.mark.parametrize(
        "patch",
        [
            {},
            {"name": "x", "description": None},
            {"scheduling": {"mon": {"active": False}, "tue": None}},
            {"scheduling": {"sat": dict(WINDOW)}},
            {
                "cycles": {
                    "max_iterations": 5,
                    "filter_tags": None,
                    "schedule": {"wed": {"active": False}},
                }
            },
            {"cycles": None, "scheduling": None},
            {"agent_id": OTHER_AGENT, "colour": {"a": None}},
            {
                "cycles": {
                    "enabled": True,
                    "mode": "cooldown",
                    "max_iterations": 2,
                    "cooldown_minutes": 1,
                }
            },
        ],
        ids=repr,
    )
    def test_existing_and_patch_are_never_mutated(self, base: str, patch: dict[str, Any]) -> None:
        existing = created(base)
        existing_before = copy.deepcopy(existing)
        patch_before = copy.deepcopy(patch)
        validate_update(existing, patch)
        validate_update(existing, patch, status=CampaignStatus.FINISHED)
        assert existing == existing_before
        assert patch == patch_before


class TestExistingIsACampaign:
    """A campaign read back from storage as wire JSON (D-stored-campaign)."""

    RULE = "update.existing_is_a_campaign"

    def test_the_stored_json_of_a_campaign_updates_as_the_campaign_does(self) -> None:
        for base in BASES:
            existing = created(base)
            stored = json.loads(json.dumps(to_wire(existing)))  # as a database gives it back
            patch = {"name": "Autumn renewals", "retries": 2}
            from_json = validate_update(stored, patch)
            assert from_json == validate_update(existing, patch)
            assert from_json.ok
            assert from_json.value == attrs.evolve(existing, name="Autumn renewals", retries=2)

    def test_stored_json_gets_the_update_rules_too(self) -> None:
        stored = to_wire(created("phone_call"))
        result = validate_update(stored, {"agent_id": str(uuid.uuid4())})
        assert [v.rule for v in result.violations] == ["update.owner_fields_immutable"]

    def test_a_stored_campaign_the_rules_refuse_is_the_servers_fault(self) -> None:
        stored = {**to_wire(created("phone_call")), "retries": 9, "colour": "red"}
        before = copy.deepcopy(stored)
        result = validate_update(stored, {"name": "x"})
        assert found(result) == [
            (ErrorKey.SERVER_ERROR, "colour", self.RULE),
            (ErrorKey.SERVER_ERROR, "retries", self.RULE),
        ]
        assert result.status == 500
        assert result.violations[1].message == f"the stored campaign: {RETRIES.must_be('retries')}"
        assert stored == before

    def test_the_patch_is_not_judged_on_a_broken_stored_campaign(self) -> None:
        stored = {**to_wire(created("phone_call")), "retries": -1}
        result = validate_update(stored, [])  # a patch patch_is_object would refuse
        assert [v.rule for v in result.violations] == [self.RULE]

    @pytest.mark.parametrize("stored", [None, 42, "campaign", [], {}])
    def test_anything_else_is_reported_never_raised(self, stored: object) -> None:
        result = validate_update(stored, {"name": "x"})
        assert not result.ok
        assert {v.key for v in result.violations} == {ErrorKey.SERVER_ERROR}
        assert {v.rule for v in result.violations} == {self.RULE}

    def test_a_value_object_is_taken_as_it_is(self) -> None:
        # A hand-built value is not re-read: it is the caller's own, as before.
        existing = attrs.evolve(created("phone_call"), retries=9)
        result = validate_update(existing, {"name": "x"})
        assert [v.rule for v in result.violations] == ["retries.within_bounds"]
