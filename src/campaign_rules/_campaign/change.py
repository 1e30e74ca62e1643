"""One reading of an update: the campaign as it is, the merge patch, and what it changes.

The update rules judge the change from here; the creation rules and the look-ups then read
`Change.merged`, the campaign after the patch.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.merge import merge_patch
from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._campaign.shape import OWNER_FIELDS as _OWNER_FIELDS
from campaign_rules._core.json import as_string, is_object, is_oversized_object, read_object
from campaign_rules._core.limits import CYCLES_ENABLED, PATCH_MAX_MEMBERS
from campaign_rules._core.object_reading import MemberIs

__all__ = [
    "Change",
    "changed_owner_fields",
    "changes_cycles_mode",
    "cycles_enabled_after",
    "merged_campaign",
]

# spec 2.4 rule 2, as `_core.limits` declares it: the patch's block sets `enabled` to `true`.
_ENABLED: Final = MemberIs(*CYCLES_ENABLED)


class Change:
    """An update as the rules see it: the campaign as it is, the patch, and the result.

    Read once, when the change is made (as a `Document` is), through the plain functions below.
    Attributes: `patch` and `status` as given (any value: the update rules judge the status a
    server passes, so it is not narrowed here); `members`, the patch's members when it is an
    object within the member limit, else `None` (such a patch is not applied, and
    `patch_is_object` reports it); `is_empty`, whether the patch is `{}`;
    `cycles_were_enabled`; `changed_owner_fields`; `cycles_patch`; `cycles_enabled_after`;
    `changes_cycles_enabled`; `changes_cycles_mode`; and `merged`, the campaign after the
    patch, read as a creation payload.
    """

    def __init__(
        self,
        existing: CampaignCreate,
        existing_wire: dict[str, object],
        patch: object,
        status: object = None,
        directory: Directory | None = None,
    ) -> None:
        self.patch = patch
        self.status = status
        fits = is_object(patch) and dict.__len__(patch) <= PATCH_MAX_MEMBERS  # type: ignore[arg-type]
        self.members = read_object(patch) if fits else None
        # `{}` is the one patch that changes nothing, whatever the campaign.
        self.is_empty = is_object(patch) and dict.__len__(patch) == 0  # type: ignore[arg-type]
        self.cycles_were_enabled = existing.cycles is not None and existing.cycles.enabled
        self.changed_owner_fields = changed_owner_fields(existing, self.members)
        self.cycles_patch = (
            read_object(self.members.get("cycles")) if self.members is not None else None
        )
        self.cycles_enabled_after = cycles_enabled_after(
            self.cycles_were_enabled, self.members, self.cycles_patch
        )
        self.changes_cycles_enabled = self.cycles_were_enabled != self.cycles_enabled_after
        self.changes_cycles_mode = changes_cycles_mode(
            existing, self.changes_cycles_enabled, self.cycles_patch
        )
        self.merged = merged_campaign(
            existing_wire,
            patch if self.members is not None else None,
            self.changed_owner_fields,
            restore_cycles=self.changes_cycles_enabled,
            restore_mode=self.changes_cycles_mode,
            directory=directory,
        )


def changed_owner_fields(
    existing: CampaignCreate, members: dict[str, object] | None
) -> tuple[str, ...]:
    """The owner fields the patch sets to another value; the current value is no change."""
    members = members or {}
    return tuple(
        name
        for name in _OWNER_FIELDS
        if name in members and not _same_owner_value(existing, name, members[name])
    )


def cycles_enabled_after(
    were_enabled: bool, members: dict[str, object] | None, block: dict[str, object] | None
) -> bool:
    """Whether cycles are enabled once the patch is applied, judged from the patch itself.

    Judged from the patch (its `members`, and `block`, its `cycles` member when that is a
    readable object) rather than from the merged campaign, so that only what the patch says
    of `enabled` counts.
    """
    if members is None or "cycles" not in members:
        return were_enabled
    if is_oversized_object(members["cycles"]):
        return were_enabled  # not read at all: `known_members_only` reports it
    if block is None:
        return False  # `null`, or a value that is not an object, removes the block
    if "enabled" not in block:
        return were_enabled
    return _ENABLED.holds_in(block)


def changes_cycles_mode(
    existing: CampaignCreate, changes_enabled: bool, block: dict[str, object] | None
) -> bool:
    """Whether the patch's cycles `block` sets another `mode` on cycles that stay enabled."""
    before = existing.cycles
    if before is None or changes_enabled or block is None or "mode" not in block:
        return False
    return as_string(block["mode"]) != before.mode


def merged_campaign(
    wire: dict[str, object],
    patch: object,
    refused_owner_fields: tuple[str, ...],
    *,
    restore_cycles: bool,
    restore_mode: bool,
    directory: Directory | None,
) -> Document:
    """The campaign whose wire JSON is `wire` after `patch`, read as a creation payload.

    A change the update rules refuse is undone here (the owner fields named, the whole cycles
    block when `restore_cycles`, its mode when `restore_mode`), so that the creation rules and
    the look-ups do not report the same defect again. A patch of `None`, one that is not
    applied, leaves the campaign as it is.
    """
    if patch is None:
        return Document(wire, directory)
    merged = merge_patch(wire, patch)
    for name in refused_owner_fields:
        merged[name] = wire[name]
    if restore_cycles:
        merged.pop("cycles", None)
        if "cycles" in wire:
            merged["cycles"] = wire["cycles"]
    elif restore_mode:
        merged["cycles"] = {
            **(read_object(merged["cycles"]) or {}),
            "mode": (read_object(wire["cycles"]) or {})["mode"],
        }
    return Document(merged, directory)


def _same_owner_value(existing: CampaignCreate, name: str, sent: object) -> bool:
    text = as_string(sent)
    if text is None:
        return False
    # Read as the patch is: a str subclass (an enum member, or a caller's own class) runs no code.
    current = as_string(getattr(existing, name))
    if current is None:
        return False
    # The agent id is a UUID, the same in either case (D-agent-id).
    return text.lower() == current.lower() if name == "agent_id" else text == current
