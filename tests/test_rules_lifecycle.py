"""The lifecycle rules (`campaign_rules._rules.lifecycle`) and `check_transition`.

Sources: spec 2.2, 3, 4.1 rule 4, 7.2; decision D-lifecycle. The table below is written out from
the issue's text and D-lifecycle, not read from the library, and every status x action x billing
flag is checked against it.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from campaign_rules import CampaignStatus, ErrorKey
from campaign_rules.lifecycle import (
    INITIAL_STATUS,
    TRANSITIONS,
    CampaignAction,
    Transition,
    TransitionResult,
    check_transition,
)
from tests.support import label

STATUSES = ("pending", "ready", "active", "inactive", "cooldown", "finished")
ACTIONS = ("activate", "pause", "resume", "archive")

# (status, action) -> status after it; a pair not listed is a 409.
ALLOWED = {
    ("pending", "activate"): "active",
    ("ready", "activate"): "active",
    ("cooldown", "activate"): "active",
    ("active", "pause"): "inactive",
    ("cooldown", "pause"): "inactive",
    ("inactive", "pause"): "inactive",
    ("inactive", "resume"): "active",
    ("active", "resume"): "active",
    **{(status, "archive"): status for status in STATUSES},
}
# D-lifecycle: the other statuses reachable by some action, sorted.
VALID_TARGETS = {
    "pending": ["active"],
    "ready": ["active"],
    "active": ["inactive"],
    "inactive": ["active"],
    "cooldown": ["active", "inactive"],
    "finished": [],
}


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


@pytest.mark.parametrize(
    ("status", "action", "billing"),
    list(itertools.product(STATUSES, ACTIONS, (False, True))),
)
@pytest.mark.parametrize("as_enum", [False, True], ids=["str", "enum"])
def test_every_status_action_and_billing_flag(
    status: str, action: str, billing: bool, as_enum: bool
) -> None:
    given = CampaignStatus(status) if as_enum else status
    result = check_transition(given, action, billing_limit_reached=billing)
    assert type(result) is TransitionResult
    json.dumps(result.envelope(), allow_nan=False)
    after = ALLOWED.get((status, action))
    if after is None:
        assert found(result) == [
            (ErrorKey.INVALID_STATUS_TRANSITION, None, "lifecycle.transition_is_allowed")
        ]
        assert result.status == 409
        assert result.value is None
        envelope = result.envelope()
        assert envelope["current_status"] == status
        assert envelope["valid_targets"] == VALID_TARGETS[status]
        assert set(envelope) == {
            "success",
            "error",
            "message",
            "current_status",
            "valid_targets",
        }
    elif billing and action in ("activate", "resume") and after != status:
        assert found(result) == [
            (ErrorKey.BILLING_LIMIT_REACHED, None, "lifecycle.billing_limit_allows_start")
        ]
        assert result.status == 402
        assert result.value is None
        assert "current_status" not in result.envelope()
    else:
        assert result.ok
        assert result.status == 200
        assert result.envelope() is None
        assert result.value == Transition(CampaignStatus(after), archived=action == "archive")
        assert type(result.value.status) is CampaignStatus


def test_the_library_table_is_the_documented_table() -> None:
    table = {
        (status.value, action.value): after.value
        for action, moves in TRANSITIONS.items()
        for status, after in moves.items()
    }
    assert table == ALLOWED
    assert [action.value for action in CampaignAction] == list(ACTIONS)


def test_the_table_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        TRANSITIONS[CampaignAction.ARCHIVE] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        TRANSITIONS[CampaignAction.ACTIVATE][CampaignStatus.FINISHED] = CampaignStatus.ACTIVE  # type: ignore[index]
    with pytest.raises(TypeError):
        del TRANSITIONS[CampaignAction.PAUSE][CampaignStatus.ACTIVE]  # type: ignore[attr-defined]
    assert CampaignStatus.FINISHED not in TRANSITIONS[CampaignAction.ACTIVATE]


def test_a_new_campaign_is_pending() -> None:
    assert INITIAL_STATUS is CampaignStatus.PENDING


class TestStatusIsKnown:
    @pytest.mark.parametrize("status", STATUSES)
    def test_each_state_is_known(self, status: str) -> None:
        assert check_transition(status, "archive").ok

    @pytest.mark.parametrize(
        "status",
        [
            "",
            "Active",
            "ACTIVE",
            "archived",
            "active ",
            "paused",
            None,
            3,
            True,
            ["active"],
            b"active",
        ],
        ids=repr,
    )
    def test_anything_else_is_invalid_status(self, status: object) -> None:
        result = check_transition(status, "pause")
        assert found(result) == [(ErrorKey.INVALID_STATUS, "status", "lifecycle.status_is_known")]
        assert result.status == 400
        assert "current_status" not in result.envelope()

    def test_a_str_subclass_is_read_as_its_text(self) -> None:
        class Odd(str):
            def __eq__(self, other: object) -> bool:
                return True

            __hash__ = str.__hash__

        assert check_transition(Odd("nonsense"), "pause").keys == (ErrorKey.INVALID_STATUS,)
        assert check_transition(Odd("active"), "pause").value.status is CampaignStatus.INACTIVE


class TestActionIsKnown:
    @pytest.mark.parametrize("action", ACTIONS)
    def test_each_action_is_known(self, action: str) -> None:
        assert ErrorKey.UNKNOWN_ACTION not in check_transition("active", action).keys

    @pytest.mark.parametrize(
        "action",
        ["", "Activate", "ACTIVATE", "start", "stop", "delete", " pause", None, 1, ["pause"]],
        ids=repr,
    )
    def test_anything_else_is_unknown(self, action: object) -> None:
        result = check_transition("active", action, billing_limit_reached=True)
        assert found(result) == [(ErrorKey.UNKNOWN_ACTION, "action", "lifecycle.action_is_known")]
        assert result.status == 400

    def test_an_enum_member_is_an_action(self) -> None:
        assert check_transition("pending", CampaignAction.ACTIVATE).value.status == "active"

    def test_unknown_status_and_action_are_both_reported(self) -> None:
        result = check_transition("nope", "nope", billing_limit_reached=True)
        assert result.keys == (ErrorKey.INVALID_STATUS, ErrorKey.UNKNOWN_ACTION)
        assert result.envelope()["error"] == "INVALID_STATUS"


class TestTransitionIsAllowed:
    def test_activate_is_not_idempotent(self) -> None:
        result = check_transition("active", "activate")
        assert result.keys == (ErrorKey.INVALID_STATUS_TRANSITION,)
        assert result.envelope() == {
            "success": False,
            "error": "INVALID_STATUS_TRANSITION",
            "message": "a campaign in status active cannot activate",
            "current_status": "active",
            "valid_targets": ["inactive"],
        }

    def test_a_finished_campaign_can_only_be_archived(self) -> None:
        for action in ("activate", "pause", "resume"):
            envelope = check_transition("finished", action).envelope()
            assert envelope["valid_targets"] == []
        assert check_transition("finished", "archive").value == Transition(
            CampaignStatus.FINISHED, archived=True
        )

    def test_pause_and_resume_no_ops_are_ok(self) -> None:
        assert check_transition("inactive", "pause").value.status is CampaignStatus.INACTIVE
        assert check_transition("active", "resume").value.status is CampaignStatus.ACTIVE


class TestBillingLimitAllowsStart:
    @pytest.mark.parametrize("flag", [True, None, 0, 1, "false", [], object()], ids=label)
    def test_anything_but_false_is_reached(self, flag: object) -> None:
        result = check_transition("ready", "activate", billing_limit_reached=flag)
        assert found(result) == [
            (ErrorKey.BILLING_LIMIT_REACHED, None, "lifecycle.billing_limit_allows_start")
        ]
        assert result.status == 402

    def test_false_is_not_reached(self) -> None:
        assert check_transition("ready", "activate", billing_limit_reached=False).ok

    def test_the_default_is_not_reached(self) -> None:
        assert check_transition("inactive", "resume").ok

    def test_a_bool_flag_that_raises_is_never_asked(self) -> None:
        class Hostile:
            def __bool__(self) -> bool:
                raise RuntimeError("asked")

        result = check_transition("pending", "activate", billing_limit_reached=Hostile())
        assert result.keys == (ErrorKey.BILLING_LIMIT_REACHED,)
