"""One reading of an update: the campaign as it is, the merge patch, and what it changes.

The update rules judge the change from here; the creation rules and the look-ups then read
`Change.merged`, the campaign after the patch.
"""

from __future__ import annotations

import functools
from typing import Final

from campaign_rules._convert import to_wire
from campaign_rules._directory import Directory
from campaign_rules._document import Document
from campaign_rules._enums import CampaignStatus
from campaign_rules._json import as_string, is_object, is_oversized_object, read_object
from campaign_rules._limits import OBJECT_MAX_MEMBERS
from campaign_rules._merge import merge_patch
from campaign_rules._models import CampaignCreate
from campaign_rules._shape import CAMPAIGN_MEMBERS

__all__ = ["PATCH_MAX_MEMBERS", "Change"]

# api-contract: the fields that name the campaign's owner and channel never change.
_OWNER_FIELDS = ("agent_id", "integration_id", "integration_type")
# D-merge-patch: a patch has at most this many members, so that the merged campaign (at most 13
# members of its own) is never over the object limit and stays readable.
PATCH_MAX_MEMBERS: Final = OBJECT_MAX_MEMBERS - len(CAMPAIGN_MEMBERS)


class Change:
    """An update as the rules see it: the campaign as it is, the patch, and the result.

    `members` is the patch's members when it is an object within the member limit, else
    `None`: such a patch is not applied, and `patch_is_object` reports it.
    """

    def __init__(
        self,
        existing: CampaignCreate,
        patch: object,
        status: CampaignStatus | None = None,
        directory: Directory | None = None,
    ) -> None:
        self.existing = existing
        self.patch = patch
        self.status = status
        self.directory = directory
        fits = is_object(patch) and dict.__len__(patch) <= PATCH_MAX_MEMBERS  # type: ignore[arg-type]
        self.members = read_object(patch) if fits else None

    @property
    def is_empty(self) -> bool:
        """Whether the patch is `{}`, the one patch that changes nothing whatever the campaign."""
        return is_object(self.patch) and dict.__len__(self.patch) == 0  # type: ignore[arg-type]

    @property
    def cycles_were_enabled(self) -> bool:
        """Whether the campaign as it is has cycles enabled."""
        return self.existing.cycles is not None and self.existing.cycles.enabled

    @functools.cached_property
    def changed_owner_fields(self) -> tuple[str, ...]:
        """The owner fields the patch sets to another value; the current value is no change."""
        members = self.members or {}
        return tuple(
            name
            for name in _OWNER_FIELDS
            if name in members and not _same_owner_value(self.existing, name, members[name])
        )

    @functools.cached_property
    def cycles_patch(self) -> dict[str, object] | None:
        """The patch's `cycles` member when it is a readable object."""
        return read_object(self.members.get("cycles")) if self.members is not None else None

    @functools.cached_property
    def cycles_enabled_after(self) -> bool:
        """Whether cycles are enabled once the patch is applied, judged from the patch itself.

        Judged from the patch rather than from the merged campaign, so that only what the patch
        says of `enabled` counts.
        """
        if self.members is None or "cycles" not in self.members:
            return self.cycles_were_enabled
        if is_oversized_object(self.members["cycles"]):
            return self.cycles_were_enabled  # not read at all: `known_members_only` reports it
        block = self.cycles_patch
        if block is None:
            return False  # `null`, or a value that is not an object, removes the block
        if "enabled" not in block:
            return self.cycles_were_enabled
        return block["enabled"] is True

    @functools.cached_property
    def changes_cycles_enabled(self) -> bool:
        """Whether the patch enables or disables cycles."""
        return self.cycles_were_enabled != self.cycles_enabled_after

    @functools.cached_property
    def changes_cycles_mode(self) -> bool:
        """Whether the patch sets another `mode` on cycles that stay enabled."""
        before, block = self.existing.cycles, self.cycles_patch
        if before is None or self.changes_cycles_enabled or block is None or "mode" not in block:
            return False
        return as_string(block["mode"]) != before.mode

    @functools.cached_property
    def merged(self) -> Document:
        """The campaign after the patch, read as a creation payload.

        A field whose change the update rules refuse keeps its current value here, so that the
        creation rules and the look-ups do not report the same defect again. A patch that is
        not applied leaves the campaign as it is.
        """
        wire = to_wire(self.existing)
        if self.members is None:
            return Document(wire, self.directory)
        merged = merge_patch(wire, self.patch)
        for name in self.changed_owner_fields:
            merged[name] = wire[name]
        if self.changes_cycles_enabled:
            merged.pop("cycles", None)
            if "cycles" in wire:
                merged["cycles"] = wire["cycles"]
        elif self.changes_cycles_mode:
            merged["cycles"] = {
                **(read_object(merged["cycles"]) or {}),
                "mode": wire["cycles"]["mode"],
            }
        return Document(merged, self.directory)


def _same_owner_value(existing: CampaignCreate, name: str, sent: object) -> bool:
    text = as_string(sent)
    current = str(getattr(existing, name))
    if text is None:
        return False
    # The agent id is a UUID, the same in either case (D-agent-id).
    return text.lower() == current.lower() if name == "agent_id" else text == current
