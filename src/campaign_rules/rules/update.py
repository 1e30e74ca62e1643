"""Rules on a change to a created campaign (spec 2.4 rule 4, 7.3; api-contract).

The merged campaign then goes through every creation rule, so nothing here repeats them: these
rules judge only what the change does to the campaign that exists.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from campaign_rules._convert import to_wire
from campaign_rules._directory import Directory
from campaign_rules._document import Document
from campaign_rules._enums import CampaignStatus
from campaign_rules._json import as_string, is_object, is_oversized_object, member_path, read_object
from campaign_rules._limits import OBJECT_MAX_MEMBERS
from campaign_rules._merge import merge_patch
from campaign_rules._models import CampaignCreate
from campaign_rules._violations import Finding

__all__ = [
    "Change",
    "campaign_not_finished",
    "cycles_enabled_immutable",
    "cycles_fields_need_enabled_cycles",
    "cycles_mode_immutable",
    "owner_fields_immutable",
    "patch_is_object",
]

# api-contract: the fields that name the campaign's owner and channel never change.
_OWNER_FIELDS = ("agent_id", "integration_id", "integration_type")


class Change:
    """An update as the rules see it: the campaign as it is, the patch, and the result."""

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
        self.members = read_object(patch)

    @functools.cached_property
    def merged(self) -> Document:
        """The campaign after the patch, read as a creation payload.

        A patch that cannot be applied (not an object, or too large to read) leaves the
        campaign as it is; `patch_is_object` reports it.
        """
        wire = to_wire(self.existing)
        merged = wire if self.members is None else merge_patch(wire, self.patch)
        return Document(merged, self.directory, is_creation=False)

    @functools.cached_property
    def cycles_patch(self) -> dict[str, object] | None:
        """The patch's `cycles` member when it is a readable object."""
        return read_object(self.members.get("cycles")) if self.members is not None else None

    @functools.cached_property
    def cycles_enabled_after(self) -> bool:
        """Whether cycles are enabled once the patch is applied, judged from the patch itself.

        Judging from the patch, not from the merged campaign, keeps a change that the merge
        makes unreadable (an object pushed past 64 members) from looking like a change of
        `enabled`.
        """
        if self.members is None or "cycles" not in self.members:
            return self.cycles_were_enabled
        if is_oversized_object(self.members["cycles"]):
            return self.cycles_were_enabled  # not read at all: `known_members_only` reports it
        block = self.cycles_patch
        if block is None:
            return False  # `null` or a value that is not an object removes the block
        if "enabled" not in block:
            return self.cycles_were_enabled
        return block["enabled"] is True

    @property
    def is_empty(self) -> bool:
        """Whether the patch is `{}`, the one patch that changes nothing whatever the campaign."""
        return is_object(self.patch) and dict.__len__(self.patch) == 0  # type: ignore[arg-type]

    @property
    def cycles_were_enabled(self) -> bool:
        """Whether the campaign as it is has cycles enabled."""
        return self.existing.cycles is not None


def patch_is_object(change: Change) -> Iterator[Finding]:
    """The patch is a JSON object of at most 64 members (RFC 7396, D-merge-patch)."""
    if not is_object(change.patch):
        yield Finding(None, "the patch must be a JSON object of the fields to change")
    elif is_oversized_object(change.patch):
        yield Finding(None, f"the patch has more than {OBJECT_MAX_MEMBERS} members")


def owner_fields_immutable(change: Change) -> Iterator[Finding]:
    """`agent_id`, `integration_id` and `integration_type` keep their values (api-contract)."""
    if change.members is None:
        return
    for name in _OWNER_FIELDS:
        if name not in change.members:
            continue
        current = str(getattr(change.existing, name))
        sent = as_string(change.members[name])
        # The agent id is a UUID, the same in either case (D-agent-id).
        same = sent is not None and (
            sent.lower() == current if name == "agent_id" else sent == current
        )
        if not same:
            yield Finding(name, f"{name} cannot be changed")


def cycles_enabled_immutable(change: Change) -> Iterator[Finding]:
    """`cycles.enabled` keeps its value: enabled at creation or never (spec 2.4 rule 4)."""
    if change.cycles_were_enabled != change.cycles_enabled_after:
        yield Finding("cycles.enabled", "cycles.enabled cannot be changed after creation")


def cycles_mode_immutable(change: Change) -> Iterator[Finding]:
    """`cycles.mode` keeps its value (spec 2.4 rule 4)."""
    before = change.existing.cycles
    block = change.cycles_patch
    if before is None or not change.cycles_enabled_after or block is None or "mode" not in block:
        return  # enabling or disabling cycles is `cycles_enabled_immutable`'s to report
    if as_string(block["mode"]) != before.mode:
        yield Finding("cycles.mode", "cycles.mode cannot be changed after creation")


def cycles_fields_need_enabled_cycles(change: Change) -> Iterator[Finding]:
    """A change sets no cycles field but `enabled` on a campaign without cycles (api-contract)."""
    if change.cycles_were_enabled or change.cycles_patch is None:
        return
    raw = change.members["cycles"] if change.members is not None else None
    if dict.__len__(raw) > len(change.cycles_patch):  # type: ignore[arg-type]
        yield Finding("cycles", "cycles cannot be set: this campaign's cycles are not enabled")
    for name, value in change.cycles_patch.items():
        if name != "enabled" and value is not None:
            path = member_path("cycles", name)
            yield Finding(path, f"{path} cannot be set: this campaign's cycles are not enabled")


def campaign_not_finished(change: Change) -> Iterator[Finding]:
    """A finished campaign takes no change (api-contract)."""
    if change.status == CampaignStatus.FINISHED and not change.is_empty:
        yield Finding(None, "the campaign is finished and can no longer be changed")
