"""`CreateResult`, `UpdateResult`, `Violation`, the error envelope and the enumerations.

Sources: spec 7.1, 7.2, 7.3; api-contract "Entry points" and primary-violation precedence;
decisions D-statuses, D-envelope-field, D-hostile-input.
"""

from __future__ import annotations

import enum
import json
import math
from typing import Any

import attrs
import pytest

from campaign_rules import (
    CampaignCreate,
    CampaignStatus,
    CreateResult,
    CyclesMode,
    ErrorKey,
    IntegrationType,
    UpdateResult,
    Violation,
    validate_create,
    validate_update,
)
from campaign_rules._core.limits import NAME_MAX_LENGTH, RETRIES
from tests.support import BASES, SPEC_ERROR_KEYS, STATUS, WINDOW, FakeDirectory, payload

INVALID = ErrorKey.INVALID_REQUEST

SPEC_KEYS = SPEC_ERROR_KEYS


def violation(key: str, field: str | None = None) -> Violation:
    return Violation(ErrorKey(key), field, f"{key.lower()} happened", "test.rule")


def result_of(*keys: str | tuple[str, str]) -> CreateResult:
    violations = tuple(
        violation(*key) if isinstance(key, tuple) else violation(key, f"f-{i}")
        for i, key in enumerate(keys)
    )
    return CreateResult(value=None, violations=violations)


class TestCreateResult:
    @pytest.mark.parametrize("base", sorted(BASES))
    def test_an_ok_result(self, base: str) -> None:
        result = validate_create(payload(base))
        assert result.ok is True
        assert isinstance(result.value, CampaignCreate)
        assert result.violations == ()
        assert result.keys == ()
        assert result.status == 201
        assert result.envelope() is None

    def test_a_result_that_is_not_ok_has_no_value(self) -> None:
        result = validate_create(payload(retries=9))
        assert result.ok is False
        assert result.value is None
        assert result.status == 400

    def test_keys_follow_the_violations_in_rule_order(self) -> None:
        result = validate_create(
            payload(name=5, retries=9, colour=1, integration_type="sms", timezone="Mars/Olympus"),
            directory=FakeDirectory(billing_reached=True),
        )
        assert [(v.key, v.field, v.rule) for v in result.violations] == [
            (INVALID, "colour", "payload.known_members_only"),
            (INVALID, "name", "payload.members_have_json_types"),
            (
                ErrorKey.INVALID_INTEGRATION_TYPE,
                "integration_type",
                "integration_type.is_supported",
            ),
            (INVALID, "timezone", "timezone.is_iana_name"),
            (INVALID, "retries", "retries.within_bounds"),
            (ErrorKey.BILLING_LIMIT_REACHED, None, "lookup.billing_limit_not_reached"),
        ]
        assert result.keys == tuple(v.key for v in result.violations)
        assert type(result.keys) is tuple

    def test_results_and_violations_are_frozen(self) -> None:
        result = validate_create(payload(retries=9))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            result.value = None  # type: ignore[misc]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            result.violations[0].field = "x"  # type: ignore[misc]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            validate_create(payload()).value.name = "x"  # type: ignore[misc]


class TestUpdateResult:
    def test_an_ok_update(self) -> None:
        existing = validate_create(BASES["phone_call"]).value
        result = validate_update(existing, {"name": "x"})
        assert isinstance(result, UpdateResult)
        assert (result.ok, result.status, result.keys, result.envelope()) == (True, 200, (), None)
        assert result.value.name == "x"

    def test_a_refused_update(self) -> None:
        existing = validate_create(BASES["phone_call"]).value
        result = validate_update(existing, {"agent_id": None})
        assert result.ok is False
        assert result.value is None
        # D-merge-patch: the refused agent_id keeps its value, so it is not also missing.
        assert result.keys == (ErrorKey.IMMUTABLE_FIELD,)
        assert result.status == 400

    def test_an_update_result_ranks_like_a_create_result(self) -> None:
        violations = result_of("CAMPAIGN_FINISHED", "BILLING_LIMIT_REACHED").violations
        assert UpdateResult(value=None, violations=violations).status == 409


class TestPrimaryViolation:
    """api-contract: first by status 400, 404, 409, 402; among equals, the first found."""

    @pytest.mark.parametrize(
        ("keys", "primary"),
        [
            (
                (
                    "BILLING_LIMIT_REACHED",
                    "CAMPAIGN_FINISHED",
                    "AGENT_NOT_FOUND",
                    "INVALID_REQUEST",
                ),
                3,
            ),
            (("BILLING_LIMIT_REACHED", "CAMPAIGN_FINISHED", "AGENT_NOT_FOUND"), 2),
            (("BILLING_LIMIT_REACHED", "CAMPAIGN_FINISHED"), 1),
            (("BILLING_LIMIT_REACHED",), 0),
            (("INTEGRATION_NOT_FOUND", "CAMPAIGN_FINISHED"), 0),
            (("CAMPAIGN_FINISHED", "INTEGRATION_NOT_FOUND"), 1),
            (("AGENT_NOT_FOUND", "IMMUTABLE_FIELD"), 1),
            (("INVALID_FILTER_TAG", "INVALID_REQUEST"), 0),
            (("INVALID_REQUEST", "INVALID_FILTER_TAG"), 0),
            (("AGENT_NOT_FOUND", "INTEGRATION_NOT_FOUND"), 0),
            (("INTEGRATION_NOT_FOUND", "AGENT_NOT_FOUND"), 0),
            (("SCHEDULED_MODE_ONLY", "INVALID_REQUEST", "CYCLES_NOT_ENABLED"), 0),
            (("BILLING_LIMIT_REACHED", "BILLING_LIMIT_REACHED"), 0),
            # D-statuses: statuses the contract does not rank come after 402, lowest first.
            (("SERVER_ERROR", "RATE_LIMITED", "FORBIDDEN"), 2),
            (("SERVER_ERROR", "BILLING_LIMIT_REACHED"), 1),
            (("FORBIDDEN", "CAMPAIGN_FINISHED"), 1),
            (("RATE_LIMITED", "SERVER_ERROR"), 0),
        ],
    )
    def test_the_primary_violation_and_its_status(
        self, keys: tuple[str, ...], primary: int
    ) -> None:
        result = result_of(*keys)
        chosen = result.violations[primary]
        assert result.status == STATUS[keys[primary]]
        assert result.envelope() == {
            "success": False,
            "error": keys[primary],
            "message": chosen.message,
            "field": chosen.field,
        }

    @pytest.mark.parametrize("key", SPEC_KEYS)
    def test_each_key_answers_with_its_status(self, key: str) -> None:
        assert result_of(key).status == STATUS[key]
        assert UpdateResult(value=None, violations=result_of(key).violations).status == STATUS[key]


class TestEnvelope:
    def test_the_envelope_is_exactly_the_spec_fields_in_order(self) -> None:
        envelope = validate_create(payload(retries=9)).envelope()
        assert envelope == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": RETRIES.must_be("retries"),
            "field": "retries",
        }
        assert list(envelope) == ["success", "error", "message", "field"]
        assert envelope["success"] is False
        assert type(envelope["error"]) is str
        assert type(envelope["message"]) is str
        assert type(envelope["field"]) is str

    @pytest.mark.parametrize(
        "body",
        [None, [], {"name": "x", **{f"m{i}": 1 for i in range(70)}}],
        ids=["none", "list", "big"],
    )
    def test_field_is_left_out_when_the_violation_has_none(self, body: object) -> None:
        envelope = validate_create(body).envelope()
        assert list(envelope) == ["success", "error", "message"]
        assert envelope["error"] == "INVALID_REQUEST"

    def test_field_is_set_for_any_key_that_has_one(self) -> None:
        envelope = validate_create(payload(integration_type="sms")).envelope()
        assert envelope["field"] == "integration_type"
        assert envelope["error"] == "INVALID_INTEGRATION_TYPE"

    def test_the_envelope_reports_the_primary_not_the_first(self) -> None:
        result = validate_create(
            payload(), directory=FakeDirectory(agents=set(), billing_reached=True)
        )
        assert result.violations[0].key == ErrorKey.AGENT_NOT_FOUND
        assert validate_create(
            payload(), directory=FakeDirectory(billing_reached=True)
        ).envelope() == {
            "success": False,
            "error": "BILLING_LIMIT_REACHED",
            "message": "the billing limit is reached",
        }

    @pytest.mark.parametrize(
        "body",
        [
            None,
            payload(retries=math.nan),
            payload(retries=math.inf),
            payload(message_limit=10**400),
            payload(name="\ud800" * (NAME_MAX_LENGTH + 1)),
            payload(**{"\ud800" * 70: 1}),
            payload(scheduling={"mon": {**WINDOW, "startTime": "\x00\x01"}}),
            payload(timezone="\U0010ffff" * 1000),
        ],
        ids=["none", "nan", "inf", "huge", "surrogate", "surrogate name", "control", "astral"],
    )
    def test_the_envelope_encodes_as_strict_json(self, body: object) -> None:
        envelope = validate_create(body).envelope()
        text = json.dumps(envelope, allow_nan=False)
        assert json.loads(text)["success"] is False


MARK = "Zq7Mark"
NUMBER = 987654321987


def leaky_bodies() -> list[tuple[str, dict[str, Any]]]:
    scheduled = payload("scheduled")
    scheduled["cycles"].update(
        mode=MARK,
        max_iterations=NUMBER,
        cooldown_minutes=-NUMBER,
        filter_statuses=[MARK, MARK, ""],
        schedule={"mon": {"startTime": MARK, "stopTime": MARK + "x", "active": MARK}},
        schedule_start_date=MARK,
        schedule_end_date=MARK + "2",
    )
    cooldown = payload("cooldown")
    cooldown["cycles"].update(schedule=MARK, schedule_start_date=MARK, schedule_end_date=MARK)
    return [
        ("name", payload(name=MARK * 100)),
        ("blank", payload(name=" " * 3)),
        ("agent", payload(agent_id=MARK)),
        ("integration", payload(integration_type=MARK, integration_id=MARK)),
        ("timezone", payload(timezone=f"Mars/{MARK}")),
        ("numbers", payload(retries=NUMBER, message_limit=-NUMBER)),
        ("huge", payload(retries=int("9" * 4000))),
        ("floats", payload(retries=123456.5, message_limit=float(NUMBER) + 0.5)),
        ("channel", payload(template=MARK, template_alt=MARK)),
        ("types", payload(name=[MARK], description={MARK: MARK}, scheduling=MARK)),
        ("scheduled", scheduled),
        ("cooldown", cooldown),
        (
            "whatsapp",
            payload("whatsapp", first_message=MARK, cycles={"enabled": True, "mode": MARK}),
        ),
        ("enabled", payload(cycles={"enabled": MARK})),
    ]


class TestMessages:
    @pytest.mark.parametrize(
        ("label", "body"), leaky_bodies(), ids=[label for label, _ in leaky_bodies()]
    )
    def test_messages_are_short_and_never_repeat_the_input(
        self, label: str, body: dict[str, Any]
    ) -> None:
        result = validate_create(body, directory=FakeDirectory())
        assert not result.ok
        for v in result.violations:
            assert len(v.message) < 200, v
            assert MARK not in v.message, v
            assert str(NUMBER) not in v.message, v
            assert "9999" not in v.message, v
            assert "123456" not in v.message, v
            assert type(v.message) is str

    def test_a_long_unknown_member_name_keeps_the_message_short(self) -> None:
        body = payload("scheduled")
        body["cycles"]["schedule"] = {"wed": {**WINDOW, "x" * 100_000: 1}}
        (only,) = validate_create(body).violations
        assert len(only.message) < 200
        assert len(only.field) < 200

    @pytest.mark.parametrize(
        ("body", "field", "message"),
        [
            (
                payload(retry=NUMBER),
                "retry",
                "this is not a known field of the request body",
            ),
            (
                payload(scheduling={"mon": {**WINDOW, "colour": NUMBER}}),
                "scheduling.mon.colour",
                "this is not a known field of scheduling.mon",
            ),
        ],
        ids=["root", "window"],
    )
    def test_an_unknown_member_is_named_by_its_path_only(
        self, body: dict[str, Any], field: str, message: str
    ) -> None:
        # D-unknown-members: the message names the object, never the member; `field` does.
        (only,) = validate_create(body).violations
        assert only.field == field
        assert only.message == message


class TestErrorKey:
    def test_exactly_the_21_keys_of_spec_7_2(self) -> None:
        assert len(ErrorKey) == 21
        assert {key.name for key in ErrorKey} == set(SPEC_KEYS)

    @pytest.mark.parametrize("name", SPEC_KEYS)
    def test_each_value_equals_its_name(self, name: str) -> None:
        key = ErrorKey[name]
        assert key.value == name
        assert key == name
        assert ErrorKey(name) is key
        assert isinstance(key, str)
        assert str(key) == name

    def test_it_is_an_enum_with_a_str_mixin(self) -> None:
        assert issubclass(ErrorKey, enum.Enum)
        assert issubclass(ErrorKey, str)
        assert ErrorKey.INVALID_REQUEST == "INVALID_REQUEST"
        assert json.dumps(ErrorKey.INVALID_REQUEST) == '"INVALID_REQUEST"'


class TestWireEnums:
    @pytest.mark.parametrize(
        ("enum_type", "values"),
        [
            (IntegrationType, ("phone_call", "whatsapp")),
            (CyclesMode, ("cooldown", "scheduled")),
            (CampaignStatus, ("pending", "ready", "active", "inactive", "cooldown", "finished")),
        ],
    )
    def test_the_wire_values(self, enum_type: type[enum.Enum], values: tuple[str, ...]) -> None:
        assert tuple(member.value for member in enum_type) == values
        for value in values:
            member = enum_type(value)
            assert member == value
            assert isinstance(member, str)
            assert type(member.value) is str
            assert str(member) == value


class TestViolationCap:
    """D-hostile-input: at most 50 offline violations are reported; look-ups add theirs after."""

    @pytest.mark.parametrize(("unknown", "reported"), [(49, 49), (50, 50), (51, 50), (60, 50)])
    def test_at_most_50_violations(self, unknown: int, reported: int) -> None:
        body = payload(**{f"extra{i}": 1 for i in range(unknown)})
        result = validate_create(body)
        assert len(result.violations) == reported
        assert [v.field for v in result.violations] == [f"extra{i}" for i in range(reported)]
        assert len(result.keys) == reported

    def test_the_cap_holds_across_rules(self) -> None:
        body = payload(**{f"extra{i}": 1 for i in range(45)}, retries=9, message_limit=0, name="")
        body["scheduling"] = {
            day: {"startTime": "x", "stopTime": "y", "active": True}
            for day in ("mon", "tue", "wed")
        }
        result = validate_create(body)
        assert len(result.violations) == 50
        assert result.violations[45].rule == "name.not_blank"

    def test_the_cap_holds_on_update(self) -> None:
        existing = validate_create(BASES["phone_call"]).value
        # D-merge-patch: 51 members is the most a patch may have; all 51 are unknown.
        result = validate_update(existing, {f"extra{i}": 1 for i in range(51)})
        assert len(result.violations) == 50

    def test_look_up_violations_are_kept_past_the_cap(self) -> None:
        directory = FakeDirectory(agents=set(), billing_reached=True)
        body = payload(**{f"extra{i}": 1 for i in range(55)})
        result = validate_create(body, directory=directory)
        assert [v.field for v in result.violations[:50]] == [f"extra{i}" for i in range(50)]
        assert [(v.key, v.field, v.rule) for v in result.violations[50:]] == [
            (ErrorKey.AGENT_NOT_FOUND, "agent_id", "lookup.agent_exists"),
            (ErrorKey.BILLING_LIMIT_REACHED, None, "lookup.billing_limit_not_reached"),
        ]
        assert result.violations[:50] == validate_create(body).violations

    def test_the_cap_holds_for_filter_items(self) -> None:
        body = payload("cooldown")
        body["cycles"]["filter_statuses"] = [""] * 100
        body["cycles"]["filter_tags"] = [None] * 100
        result = validate_create(body)
        assert len(result.violations) == 50
        assert result.violations[-1].field == "cycles.filter_statuses[49]"
