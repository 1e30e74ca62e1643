"""The public strategies (`campaign_rules.strategies`): what each promises, and their tables.

The property suites draw from these strategies, and the strategies read the library's tables.
So that the suites still check the library against an independent reading, the tables the
strategies read are checked here against the spec's numbers and names, written out by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_rules import CampaignCreate, ErrorKey, to_wire, validate_create, validate_update
from campaign_rules import strategies as cs
from campaign_rules._core.limits import (
    OBJECT_MAX_MEMBERS,
    PATCH_MAX_MEMBERS,
    WHITESPACE,
)
from tests import strategies_support as parts
from tests.property.strategies import ECMASCRIPT_WHITESPACE
from tests.support import BASES, GENERATE_ONLY, payload, rfc7396_merge

# ---------------------------------------------------------------------------------------------
# The tables, from the spec (2.1, 2.3, 2.4, 8) and docs/decisions.md.


def test_the_members_are_the_specs() -> None:
    assert parts.CAMPAIGN_MEMBER_NAMES == (
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
    )
    assert parts.REQUIRED_MEMBERS == ("name", "agent_id", "integration_id", "integration_type")
    assert parts.WINDOW_MEMBER_NAMES == ("startTime", "stopTime", "active")
    assert parts.CYCLES_MEMBER_NAMES == (
        "enabled",
        "mode",
        "max_iterations",
        "cooldown_minutes",
        "filter_statuses",
        "filter_tags",
        "schedule",
        "schedule_start_date",
        "schedule_end_date",
    )
    assert parts.SCHEDULE_ONLY == ("schedule", "schedule_start_date", "schedule_end_date")
    assert parts.DATES == ("schedule_start_date", "schedule_end_date")
    assert parts.CHANNELS == ("phone_call", "whatsapp")
    assert parts.MODES == ("cooldown", "scheduled")


def test_the_patch_cap_leaves_room_for_a_campaign() -> None:
    # D-merge-patch: the object limit less the members of a campaign (the spec's numbers
    # themselves are the oracle's: tests/test_oracle_bounds.py).
    assert OBJECT_MAX_MEMBERS - len(parts.CAMPAIGN_MEMBER_NAMES) == PATCH_MAX_MEMBERS


def test_the_white_space_is_ecmascripts() -> None:
    assert sorted(WHITESPACE) == sorted(ECMASCRIPT_WHITESPACE)
    assert len(set(WHITESPACE)) == len(WHITESPACE)


# ---------------------------------------------------------------------------------------------
# What each strategy promises.


class _Found(Exception):
    pass


def drawn_one(
    strategy: st.SearchStrategy[Any], predicate: Callable[[Any], bool], max_examples: int = 200
) -> bool:
    """Whether one of the first `max_examples` draws of `strategy` satisfies `predicate`.

    Unlike `hypothesis.find`, it stops at the first and does not shrink it.
    """

    @settings(GENERATE_ONLY, max_examples=max_examples)
    @given(strategy)
    def look(value: Any) -> None:
        if predicate(value):
            raise _Found

    try:
        look()
    except _Found:
        return True
    return False


@given(cs.create_payloads(json_only=True))
def test_json_only_payloads_are_valid_plain_json(wire: dict[str, Any]) -> None:
    assert json.loads(json.dumps(wire, allow_nan=False)) == wire
    assert validate_create(wire).ok


# A check of the arguments, not of the rules: fewer examples do.
@settings(max_examples=200)
@given(
    st.sampled_from(parts.CHANNELS)
    .flatmap(
        lambda channel: st.tuples(
            st.just(channel),
            st.sampled_from(
                parts.CYCLES_KINDS if channel == "phone_call" else parts.CYCLES_KINDS[:2]
            ),
        )
    )
    .flatmap(lambda args: st.tuples(st.just(args), cs.create_payloads(*args)))
)
def test_the_channel_and_cycles_asked_for_are_drawn(case: tuple[tuple[str, str], Any]) -> None:
    (channel, cycles), wire = case
    assert wire["integration_type"] == channel
    block = wire.get("cycles")
    if cycles == "absent":
        assert block is None
    elif cycles == "disabled":
        assert block.get("enabled", False) is False
    else:
        assert block["enabled"] is True
        assert block["mode"] == cycles
    assert validate_create(wire).ok


@given(cs.invalid_create_payloads(json_only=True))
def test_json_only_defects_are_plain_json_with_their_one_violation(triple: cs.Defect) -> None:
    wire, key, field = triple
    assert json.loads(json.dumps(wire, allow_nan=False)) == wire
    assert type(key) is ErrorKey
    result = validate_create(wire)
    assert [(v.key, v.field) for v in result.violations] == [(key, field)]


@pytest.mark.parametrize("kind", cs.DEFECT_KINDS)
def test_each_kind_of_defect_is_drawn_as_asked(kind: str) -> None:
    # `kinds` picks the kind; `json_only` leaves out only the kind that is never JSON at all.
    def is_json_defect(triple: cs.Defect) -> bool:
        return cs.is_plain_json(triple[0])

    drawn = cs.invalid_create_payloads(kinds=(kind,))
    if kind == "member_name_not_a_string":
        with pytest.raises(ValueError, match="no kind of defect"):
            cs.invalid_create_payloads(kinds=(kind,), json_only=True)
        assert not drawn_one(drawn, is_json_defect, max_examples=20)
    else:
        assert drawn_one(drawn, is_json_defect)


def _created(wire: dict[str, Any]) -> CampaignCreate:
    value = validate_create(wire).value
    assert value is not None
    return value


existing_campaigns = cs.create_payloads().map(_created)


@given(
    existing_campaigns.flatmap(
        lambda existing: st.tuples(st.just(existing), cs.update_patches(existing))
    )
)
def test_update_patches_are_accepted_and_give_the_merged_campaign(
    case: tuple[CampaignCreate, dict[str, Any]],
) -> None:
    existing, patch = case
    result = validate_update(existing, patch)
    assert result.ok, [(v.rule, v.field) for v in result.violations]
    # The value is the campaign RFC 7396 makes of the patch, read as a creation body.
    assert result.value == validate_create(rfc7396_merge(to_wire(existing), patch)).value
    # The owner and the channel never change (api-contract), nor do the cycles' on/off and mode.
    assert result.value is not None
    assert result.value.agent_id == existing.agent_id
    assert result.value.integration_id == existing.integration_id
    assert result.value.integration_type == existing.integration_type
    before, after = existing.cycles, result.value.cycles
    assert (before is None) == (after is None)
    if before is not None and after is not None:
        assert after.mode == before.mode


@given(
    existing_campaigns.flatmap(
        lambda existing: st.tuples(st.just(existing), cs.invalid_update_patches(existing))
    )
)
def test_invalid_update_patches_give_their_one_violation(
    case: tuple[CampaignCreate, cs.PatchDefect],
) -> None:
    existing, (patch, status, key, field) = case
    assert cs.is_plain_json(patch)
    result = validate_update(existing, patch, status=status)
    assert [(v.key, v.field) for v in result.violations] == [(key, field)]


def _hand_built(base: str) -> CampaignCreate:
    """A campaign as a caller may build it, not as validation does."""
    existing = _created(payload(base.split("/")[0]))
    if base.endswith("/cycles disabled"):
        assert existing.cycles is not None
        return attrs.evolve(existing, cycles=attrs.evolve(existing.cycles, enabled=False))
    if base.endswith("/agent id in upper case"):
        return attrs.evolve(existing, agent_id=existing.agent_id.upper())
    return existing


@pytest.mark.parametrize(
    "base", [*sorted(BASES), "cooldown/cycles disabled", "phone_call/agent id in upper case"]
)
@pytest.mark.parametrize("kind", cs.PATCH_DEFECT_KINDS)
def test_each_kind_of_patch_defect_is_drawn_where_it_fits(base: str, kind: str) -> None:
    existing = _hand_built(base)
    enabled = existing.cycles is not None and existing.cycles.enabled
    fits = {
        "cycles_mode_changed": enabled,
        "cycles_field_without_cycles": not enabled,
    }.get(kind, True)
    if not fits:
        with pytest.raises(ValueError, match="no kind of defect is left that fits"):
            cs.invalid_update_patches(existing, kinds=(kind,))
        return
    drawn = cs.invalid_update_patches(existing, kinds=(kind,))

    def gives_its_violation(case: cs.PatchDefect) -> bool:
        patch, status, key, field = case
        found = validate_update(existing, patch, status=status).violations
        return [(v.key, v.field) for v in found] == [(key, field)]

    assert not drawn_one(drawn, lambda case: not gives_its_violation(case), max_examples=30)
    # Not one patch only: the defect comes with the other changes a valid patch makes.
    patches = set()
    assert drawn_one(drawn, lambda case: patches.add(json.dumps(case[0])) or len(patches) > 3)


def test_invalid_update_patches_refuse_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="unknown kinds of defect"):
        cs.invalid_update_patches(_created(payload()), kinds=("owner_changed",))


@pytest.mark.parametrize("base", sorted(BASES))
def test_update_patches_set_change_and_remove_members(base: str) -> None:
    # Not only `{}` and re-sent values: some patches change the campaign, some remove a member.
    existing = _created(payload(base))
    patches = cs.update_patches(existing)
    assert drawn_one(patches, lambda patch: validate_update(existing, patch).value != existing)
    assert drawn_one(patches, lambda patch: None in patch.values())
    if existing.cycles is not None:
        assert drawn_one(patches, lambda patch: len(patch.get("cycles", {})) > 2)
