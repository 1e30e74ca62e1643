"""Properties of `validate_update` (spec 2.4 rule 4, 7.3; api-contract; D-merge-patch)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import (
    CampaignCreate,
    CampaignStatus,
    ErrorKey,
    UpdateAccepted,
    UpdateRefused,
    UpdateResult,
    Violation,
    to_wire,
    validate_create,
    validate_update,
)
from campaign_rules import strategies as cs
from tests import strategies_support as parts
from tests.property import strategies as s
from tests.support import BASES, FakeDirectory, payload

# ---------------------------------------------------------------------------------------------
# Helpers and strategies.


def _created(wire: dict[str, Any]) -> CampaignCreate:
    value = validate_create(wire).value
    assert value is not None, wire  # test_create_properties checks this on its own
    return value


# Campaigns as they were accepted at creation.
existing_campaigns = cs.create_payloads().map(_created)
statuses = st.one_of(st.none(), st.sampled_from(CampaignStatus))


def assert_well_formed(result: object) -> UpdateResult:
    """The result has the api-contract's shape, and its envelope encodes as strict JSON."""
    assert isinstance(result, UpdateResult)
    assert type(result) is (UpdateRefused if result.violations else UpdateAccepted)
    assert type(result.violations) is tuple
    assert all(type(violation) is Violation for violation in result.violations)
    assert len(result.violations) <= 50
    assert result.keys == tuple(violation.key for violation in result.violations)
    assert result.ok == (not result.violations)
    assert (result.value is None) == (not result.ok)
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)
    if result.ok:
        assert envelope is None
        assert result.status == 200
    else:
        assert (result.status, envelope) == s.expected_envelope(result.violations)
    return result


def pairs(result: UpdateResult) -> list[tuple[str, str | None]]:
    return [(violation.key.value, violation.field) for violation in result.violations]


@st.composite
def spliced_patches(draw: st.DrawFn, values: st.SearchStrategy[Any] = parts.json_like) -> Any:
    """A patch setting one to three members, anywhere in the campaign, to `values`."""
    patch: dict[Any, Any] = {}
    for _ in range(draw(st.integers(1, 3))):
        s.splice(patch, draw(st.sampled_from(s.SPLICE_PATHS)), draw(values))
    return patch


any_patch = st.one_of(
    parts.json_like,
    spliced_patches(),
    s.non_string_key_dicts,
    spliced_patches(s.non_string_key_dicts),
)


@st.composite
def no_change_patches(draw: st.DrawFn) -> tuple[CampaignCreate, dict[str, Any]]:
    """A campaign, and a patch re-sending current values of its immutable fields."""
    existing = draw(existing_campaigns)
    current: dict[str, Any] = {
        "agent_id": draw(
            st.sampled_from(
                (existing.agent_id, existing.agent_id.upper(), parts.mixed_case(existing.agent_id))
            )
        ),
        "integration_id": existing.integration_id,
        "integration_type": existing.integration_type.value,
    }
    patch = {name: value for name, value in current.items() if draw(st.booleans())}
    if existing.cycles is not None:
        cycles = {"enabled": True, "mode": existing.cycles.mode.value}
        cycles = {name: value for name, value in cycles.items() if draw(st.booleans())}
        if cycles or draw(st.booleans()):
            patch["cycles"] = cycles
    return existing, patch


def _differs_from(current: str, *, fold_case: bool = False) -> Any:
    """Whether a sent value is a change of the string `current`."""

    def differs(value: Any) -> bool:
        if type(value) is not str:
            return True
        return (value.lower() if fold_case else value) != current

    return differs


@st.composite
def immutable_changes(draw: st.DrawFn) -> tuple[CampaignCreate, dict[str, Any], str]:
    """A campaign, a patch changing exactly one of its immutable fields, and that field."""
    existing = draw(existing_campaigns)
    fields = [*parts.IMMUTABLE_OWNER_FIELDS, "cycles.enabled"]
    if existing.cycles is not None:
        fields.append("cycles.mode")
    field = draw(st.sampled_from(fields))
    if field == "agent_id":
        value = draw(
            st.one_of(parts.agent_ids, parts.malformed_agent_ids(), parts.json_like).filter(
                _differs_from(existing.agent_id, fold_case=True)
            )
        )
        return existing, {field: value}, field
    if field == "integration_id":
        value = draw(
            st.one_of(parts.non_empty_texts, parts.json_like).filter(
                _differs_from(existing.integration_id)
            )
        )
        return existing, {field: value}, field
    if field == "integration_type":
        value = draw(
            st.one_of(st.sampled_from((*parts.CHANNELS, "sms", "")), parts.json_like).filter(
                _differs_from(existing.integration_type.value)
            )
        )
        return existing, {field: value}, field
    if field == "cycles.enabled":
        if existing.cycles is None:
            # Enabling cycles after creation, with or without a full block.
            block = draw(st.one_of(st.just({"enabled": True}), parts.enabled_cycles()))
            return existing, {"cycles": block}, field
        # Disabling or removing an enabled block.
        cycles = draw(
            st.one_of(
                st.sampled_from(
                    (None, {"enabled": False}, {"enabled": None}, {"enabled": "true"}, [], "")
                ),
                st.builds(
                    lambda rest, enabled: {**rest, "enabled": enabled},
                    parts.ignored_cycles_rest,
                    st.sampled_from((False, None, 0, "true")),
                ),
            )
        )
        return existing, {"cycles": cycles}, field
    assert existing.cycles is not None
    mode = draw(
        st.one_of(st.sampled_from((*parts.MODES, None, "", "weekly")), parts.json_like).filter(
            _differs_from(existing.cycles.mode.value)
        )
    )
    return existing, {"cycles": {"mode": mode}}, field


# ---------------------------------------------------------------------------------------------
# No change.


@given(existing_campaigns, statuses)
def test_empty_patch_keeps_the_campaign(existing: CampaignCreate, status: Any) -> None:
    # D-merge-patch: `{}` is accepted whatever the status, finished included.
    result = assert_well_formed(validate_update(existing, {}, status=status))
    assert result.ok, pairs(result)
    assert result.value == existing


@given(no_change_patches())
def test_resending_current_immutable_values_is_no_change(
    case: tuple[CampaignCreate, dict[str, Any]],
) -> None:
    existing, patch = case
    result = assert_well_formed(validate_update(existing, patch))
    assert result.ok, pairs(result)
    assert result.value == existing


@given(existing_campaigns)
def test_sending_the_whole_campaign_back_is_no_change(existing: CampaignCreate) -> None:
    result = assert_well_formed(validate_update(existing, to_wire(existing)))
    assert result.ok, pairs(result)
    assert result.value == existing


# ---------------------------------------------------------------------------------------------
# Any patch: no exception, no change to the inputs, strict-JSON envelope, same answer twice.


@given(existing_campaigns, any_patch, statuses)
def test_any_patch_never_raises_nor_changes_its_inputs(
    existing: CampaignCreate, patch: Any, status: Any
) -> None:
    wire_before = to_wire(existing)
    patch_copy = copy.deepcopy(patch)
    snapshot = s.identity_snapshot(patch)
    first = assert_well_formed(validate_update(existing, patch, status=status))
    second = assert_well_formed(validate_update(existing, patch, status=status))
    online = validate_update(existing, patch, status=status, directory=FakeDirectory())
    assert_well_formed(online)
    assert first.violations == second.violations
    assert [patch] == [patch_copy]  # in a list, so that a NaN equals itself (identity)
    assert s.identity_snapshot(patch) == snapshot
    assert to_wire(existing) == wire_before


def hostile_patches(shared: Any) -> Iterator[Any]:
    """Patches holding `shared` (deep or self-referencing) at every path, or themselves."""
    yield shared
    for path in s.SPLICE_PATHS:
        yield s.splice({}, path, shared)
        patch: dict[Any, Any] = {}
        yield s.splice(patch, path, patch)
        yield s.splice_parent_into_itself({}, path)


@pytest.mark.parametrize("kind", sorted(s.HOSTILE_BUILDERS))
def test_deep_and_self_referencing_patches_never_raise_nor_change(kind: str) -> None:
    shared = s.HOSTILE_BUILDERS[kind]()
    shared_before = s.identity_snapshot(shared)
    for base in BASES:
        existing = _created(payload(base))
        for patch in hostile_patches(shared):
            before = s.identity_snapshot(patch, skip=id(shared))
            for status in (None, CampaignStatus.FINISHED):
                first = assert_well_formed(validate_update(existing, patch, status=status))
                second = assert_well_formed(validate_update(existing, patch, status=status))
                assert first.violations == second.violations
                online = validate_update(existing, patch, status=status, directory=FakeDirectory())
                assert s.is_subsequence(first.violations, assert_well_formed(online).violations)
            assert s.identity_snapshot(patch, skip=id(shared)) == before
    assert s.identity_snapshot(shared) == shared_before


# ---------------------------------------------------------------------------------------------
# Immutable fields.


@given(immutable_changes())
def test_changing_an_immutable_field_is_reported(
    case: tuple[CampaignCreate, dict[str, Any], str],
) -> None:
    existing, patch, field = case
    result = assert_well_formed(validate_update(existing, patch))
    assert (ErrorKey.IMMUTABLE_FIELD.value, field) in pairs(result)
    assert result.status == 400


# ---------------------------------------------------------------------------------------------
# Offline violations are a subset of online ones, in the same order.


@given(
    st.one_of(
        st.tuples(existing_campaigns, any_patch),
        no_change_patches(),
        immutable_changes().map(lambda case: case[:2]),
        existing_campaigns.flatmap(lambda e: st.tuples(st.just(e), cs.update_patches(e))),
    ),
    statuses,
)
def test_offline_violations_are_a_subsequence_of_online_ones(
    case: tuple[CampaignCreate, Any], status: Any
) -> None:
    existing, patch = case
    offline = validate_update(existing, patch, status=status).violations
    for directory in (FakeDirectory(), FakeDirectory(billing_reached=True, agents=set())):
        online = validate_update(existing, patch, status=status, directory=directory).violations
        assert s.is_subsequence(offline, online), (offline, online)
        # D-hostile-input: only the look-ups add violations, after the offline ones.
        assert online[: len(offline)] == offline
        assert all(v.rule.startswith("lookup.") for v in online[len(offline) :])
        # api-contract, "Look-ups": billing_limit_reached always runs, on updates too.
        assert ("billing_limit_reached", ()) in directory.calls
        assert (ErrorKey.BILLING_LIMIT_REACHED in {v.key for v in online}) == (
            directory.billing_reached
        )


# ---------------------------------------------------------------------------------------------
# Finished campaigns.


@given(existing_campaigns, st.one_of(spliced_patches(), parts.json_like.filter(lambda p: p != {})))
def test_a_finished_campaign_takes_no_change(existing: CampaignCreate, patch: Any) -> None:
    # D-merge-patch: with status=finished, any patch but `{}` is CAMPAIGN_FINISHED.
    result = assert_well_formed(validate_update(existing, patch, status=CampaignStatus.FINISHED))
    assert (ErrorKey.CAMPAIGN_FINISHED.value, None) in pairs(result)


# ---------------------------------------------------------------------------------------------
# Member names that are not strings (D-hostile-input, D-merge-patch): refused at the path of
# their object, as in a creation body, and such a patch is not empty.


@given(
    st.sampled_from(tuple(BASES)),
    parts.non_string_keys,
    parts.json_scalars,
    st.sampled_from((None, "scheduling", "scheduling.mon", "cycles", "cycles.schedule.wed")),
)
def test_a_patch_member_name_that_is_not_a_string_is_refused(
    base: str, name: Any, value: Any, where: str | None
) -> None:
    existing = _created(payload(base))
    if where is not None and where.startswith("cycles"):
        # The object must be in force: an enabled block, and its schedule in scheduled mode.
        if existing.cycles is None:
            where = "scheduling"
        elif where == "cycles.schedule.wed" and existing.cycles.mode != "scheduled":
            where = "cycles"
    patch: dict[Any, Any] = {}
    node = patch
    for part in where.split(".") if where else ():
        node = node.setdefault(part, {})
    node[name] = value
    result = assert_well_formed(validate_update(existing, patch))
    assert (ErrorKey.INVALID_REQUEST.value, where) in pairs(result)
    finished = validate_update(existing, patch, status=CampaignStatus.FINISHED)
    assert (ErrorKey.CAMPAIGN_FINISHED.value, None) in pairs(finished)
