"""Update patches: accepted ones, and ones with one defect."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from hypothesis import strategies as st

from campaign_rules._campaign.models import CampaignCreate, CyclesConfig
from campaign_rules._core.enums import CampaignStatus, ErrorKey
from campaign_rules._core.limits import COOLDOWN_MINUTES, MAX_ITERATIONS, RETRIES
from campaign_rules._wire.convert import to_wire
from campaign_rules.strategies._defect_parts import chosen_kinds, draw_kind
from campaign_rules.strategies._payloads import create_payloads
from campaign_rules.strategies._tables import (
    CHANNELS,
    IMMUTABLE_OWNER_FIELDS,
    INVALID_REQUEST,
    MODES,
    SAMPLE_AGENT_IDS,
    SAMPLE_TAGS,
)
from campaign_rules.strategies._texts import mixed_case


@st.composite
def update_patches(draw: st.DrawFn, existing: CampaignCreate) -> dict[str, Any]:
    """A JSON Merge Patch (RFC 7396) of `existing` that `validate_update` accepts.

    The patch turns the campaign into another valid one of the same owner, channel and cycles
    (D-merge-patch: those never change): any other member may be set, changed or removed with
    `null`. It may re-send the current owner fields (the agent id in another case) and the
    current `cycles.enabled` and `cycles.mode`, which is no change.
    """
    current = to_wire(existing)
    enabled = _enabled_cycles(existing)
    cycles = "absent" if enabled is None else enabled.mode.value
    target = draw(create_payloads(existing.integration_type.value, cycles))
    for name in IMMUTABLE_OWNER_FIELDS:
        target[name] = current[name]
    patch = _merge_diff(current, _without_nulls(target))
    resent = {
        "agent_id": draw(st.sampled_from(_cases_of(existing.agent_id))),
        "integration_id": existing.integration_id,
        "integration_type": existing.integration_type.value,
    }
    patch.update((name, value) for name, value in resent.items() if draw(st.booleans()))
    if enabled is not None and draw(st.booleans()):
        block = patch.setdefault("cycles", {})
        block.update(enabled=True, mode=enabled.mode.value)
    return patch


def _enabled_cycles(existing: CampaignCreate) -> CyclesConfig | None:
    """The campaign's cycles when enabled (a hand-built `CyclesConfig` may say `enabled=False`)."""
    cycles = existing.cycles
    return cycles if cycles is not None and cycles.enabled else None


def _cases_of(agent_id: str) -> tuple[str, ...]:
    # D-agent-id: the same UUID in either case.
    return (agent_id, agent_id.upper(), mixed_case(agent_id))


def _without_nulls(payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` without its `null` cycles members (absent and null mean the same there).

    A merge patch cannot set a member to `null`: `null` removes it.
    """
    cycles = payload.get("cycles")
    if type(cycles) is dict:
        payload["cycles"] = {name: value for name, value in cycles.items() if value is not None}
    return payload


def _merge_diff(current: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    """The merge patch that turns `current` into `target` (neither holds a `null`)."""
    patch: dict[str, Any] = {name: None for name in current if name not in target}
    for name, value in target.items():
        old = current.get(name)
        if type(old) is dict and type(value) is dict:
            inner = _merge_diff(old, value)
            if inner:
                patch[name] = inner
        elif name not in current or type(old) is not type(value) or old != value:
            patch[name] = value
    return patch


# ---------------------------------------------------------------------------------------------
# Update patches with one defect.

PatchDefect = tuple[Any, CampaignStatus | None, ErrorKey, str | None]
"""`(patch, status, expected_key, expected_field)`: an update with one defect, and its violation."""


def _owner_field_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # D-merge-patch: the owner and channel never change; the current value is no change.
    patch = draw(update_patches(existing))
    name = draw(st.sampled_from(IMMUTABLE_OWNER_FIELDS))
    if name == "agent_id":  # another agent, in any case (D-agent-id)
        others = [agent for agent in SAMPLE_AGENT_IDS if agent != existing.agent_id.lower()]
        value = draw(st.sampled_from(_cases_of(draw(st.sampled_from(others)))))
    elif name == "integration_id":
        value = existing.integration_id + draw(st.sampled_from(("-2", "x", " ")))
    else:
        value = next(channel for channel in CHANNELS if channel != existing.integration_type)
    patch[name] = value
    return patch, None, ErrorKey.IMMUTABLE_FIELD, name


def _cycles_enabled_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # spec 2.4 rule 4: enabled at creation or never. Removing the block disables it too.
    patch = draw(update_patches(existing))
    if _enabled_cycles(existing) is None:
        patch["cycles"] = {"enabled": True}
    else:
        patch["cycles"] = draw(st.sampled_from(({"enabled": False}, None)))
    return patch, None, ErrorKey.IMMUTABLE_FIELD, "cycles.enabled"


def _cycles_mode_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    enabled = _enabled_cycles(existing)
    if enabled is None:
        raise ValueError("the campaign has no cycles whose mode could change")
    patch = draw(update_patches(existing))
    other = next(mode for mode in MODES if mode != enabled.mode)
    patch["cycles"] = {"mode": other}
    return patch, None, ErrorKey.IMMUTABLE_FIELD, "cycles.mode"


def _cycles_field_without_cycles(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # D-error-keys: no cycles field but `enabled` is set on a campaign without cycles.
    if _enabled_cycles(existing) is not None:
        raise ValueError("the campaign has cycles: its cycles fields may be set")
    patch = draw(update_patches(existing))
    name, value = draw(
        st.sampled_from(
            (
                ("mode", "cooldown"),
                ("max_iterations", MAX_ITERATIONS.low),
                ("cooldown_minutes", COOLDOWN_MINUTES.high),
                ("filter_tags", [SAMPLE_TAGS[0]]),
                ("schedule", {}),
            )
        )
    )
    patch["cycles"] = {name: value}
    return patch, None, ErrorKey.CYCLES_NOT_ENABLED, f"cycles.{name}"


def _campaign_finished(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # D-error-keys: a finished campaign takes no change; `{}` is no change, so it is not drawn.
    patch = draw(update_patches(existing).filter(bool))
    return patch, CampaignStatus.FINISHED, ErrorKey.CAMPAIGN_FINISHED, None


def _patch_not_an_object(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # D-merge-patch: a patch is a JSON object.
    value = draw(st.sampled_from(([], [{"name": "x"}], "name=x", 1, 1.5, True, None)))
    return value, None, INVALID_REQUEST, None


def _merged_retries_out_of_bounds(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # Every creation rule runs on the merged campaign; one breaks.
    patch = draw(update_patches(existing))
    patch["retries"] = draw(
        st.one_of(st.integers(max_value=RETRIES.low - 1), st.integers(min_value=RETRIES.high + 1))
    )
    return patch, None, INVALID_REQUEST, "retries"


_PATCH_DEFECTS: Final[dict[str, Callable[[st.DrawFn, CampaignCreate], PatchDefect]]] = {
    "owner_field_changed": _owner_field_changed,
    "cycles_enabled_changed": _cycles_enabled_changed,
    "cycles_mode_changed": _cycles_mode_changed,
    "cycles_field_without_cycles": _cycles_field_without_cycles,
    "campaign_finished": _campaign_finished,
    "patch_not_an_object": _patch_not_an_object,
    "merged_retries_out_of_bounds": _merged_retries_out_of_bounds,
}
PATCH_DEFECT_KINDS: Final = tuple(_PATCH_DEFECTS)
# The kinds that need an enabled cycles block, and those that need none.
_NEEDS_CYCLES: Final = frozenset({"cycles_mode_changed"})
_NEEDS_NO_CYCLES: Final = frozenset({"cycles_field_without_cycles"})


def invalid_update_patches(
    existing: CampaignCreate, *, kinds: Iterable[str] | None = None
) -> st.SearchStrategy[PatchDefect]:
    """`(patch, status, expected_key, expected_field)`: an update of `existing` with one defect.

    `validate_update(existing, patch, status=status)` reports exactly one violation, with the
    error key `expected_key` and the field path `expected_field` (`None` for the patch as a
    whole). `status` is `None` but for a finished campaign. Every patch is plain JSON. `kinds`
    limits the defects to some of `PATCH_DEFECT_KINDS` (all that fit `existing` by default: a
    mode cannot change on a campaign without enabled cycles). Raises `ValueError` when no kind
    is left.
    """
    unfit = _NEEDS_NO_CYCLES if _enabled_cycles(existing) is not None else _NEEDS_CYCLES
    chosen = chosen_kinds(kinds, PATCH_DEFECT_KINDS, unfit, "that fits this campaign")
    return _one_patch_defect(existing, chosen)


@st.composite
def _one_patch_defect(
    draw: st.DrawFn, existing: CampaignCreate, kinds: tuple[str, ...]
) -> PatchDefect:
    return _PATCH_DEFECTS[draw_kind(draw, kinds)](draw, existing)
