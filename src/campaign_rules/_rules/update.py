"""Rules on a change to a created campaign (spec 2.4 rule 4, 7.3; D-error-keys, D-merge-patch).

The merged campaign then goes through every creation rule, so nothing here repeats them: these
rules judge only what the change does to the campaign that exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from campaign_rules._campaign.change import Change
from campaign_rules._campaign.stored import StoredCampaign
from campaign_rules._core.enums import CampaignStatus
from campaign_rules._core.json import as_string, is_object, member_path
from campaign_rules._core.limits import PATCH_MAX_MEMBERS
from campaign_rules._core.pointers import member_pointer
from campaign_rules._core.violations import Finding

__all__ = [
    "campaign_not_finished",
    "cycles_enabled_immutable",
    "cycles_fields_need_enabled_cycles",
    "cycles_mode_immutable",
    "existing_is_a_campaign",
    "owner_fields_immutable",
    "patch_is_object",
    "status_is_a_campaign_status",
]


_STATUS_VALUES: Final = frozenset(status.value for status in CampaignStatus)


def existing_is_a_campaign(stored: StoredCampaign, findings: list[Finding]) -> None:
    """Reports each problem of the stored campaign at its own path there, saying where it was.

    It is the server's fault, not the caller's.
    """
    for problem in stored.problems:
        findings.append(Finding(problem.field, f"the stored campaign: {problem.message}"))


def patch_is_object(change: Change, findings: list[Finding]) -> None:
    """Reports at the root a patch not an object, or too large to read; neither is applied."""
    if not is_object(change.patch):
        findings.append(Finding(None, "the patch must be a JSON object of the fields to change"))
    elif change.members is None:
        findings.append(Finding(None, f"the patch must have at most {PATCH_MAX_MEMBERS} members"))


def owner_fields_immutable(change: Change, findings: list[Finding]) -> None:
    """Reports at its name each owner field set to another value; the same value is no change."""
    for name in change.changed_owner_fields:
        findings.append(Finding(name, f"{name} cannot be changed"))


def cycles_enabled_immutable(change: Change, findings: list[Finding]) -> None:
    """Judges `enabled` from the patch, not the merged campaign (`Change.changes_cycles_enabled`).

    Removing the block, or setting `enabled` to another value, is reported at `cycles.enabled`.
    """
    if change.changes_cycles_enabled:
        findings.append(
            Finding("cycles.enabled", "cycles.enabled cannot be changed after creation")
        )


def cycles_mode_immutable(change: Change, findings: list[Finding]) -> None:
    """Reports at `cycles.mode` a patch that sets another mode on cycles that stay enabled.

    When `enabled` changes, only `cycles_enabled_immutable` reports.
    """
    if change.changes_cycles_mode:
        findings.append(Finding("cycles.mode", "cycles.mode cannot be changed after creation"))


def cycles_fields_need_enabled_cycles(change: Change, findings: list[Finding]) -> None:
    """Runs when cycles were not enabled; reports each cycles member set to a value at its path.

    `enabled` itself, and a member set to `null`, change nothing; members whose names are not
    strings are reported once, at `cycles`.
    """
    block = change.cycles_patch
    if change.cycles_were_enabled or block is None:
        return
    message = "cycles fields cannot be set: this campaign's cycles are not enabled"
    # Members whose names are not strings are left out of `block`; a non-null one sets
    # something all the same, and is reported once at the block (D-merge-patch).
    raw: Iterable[tuple[object, object]] = dict.items(change.members["cycles"])  # type: ignore[arg-type,index]
    if any(not issubclass(type(name), str) and value is not None for name, value in raw):
        findings.append(Finding("cycles", message))
    for name, value in block.items():
        if name != "enabled" and value is not None:
            pointer = member_pointer("/cycles", name)  # a name the patch chose
            findings.append(Finding(member_path("cycles", name), message, pointer))


def status_is_a_campaign_status(change: Change, findings: list[Finding]) -> None:
    """Reads the status the server passes as a string; reports at the root any other value.

    `None`, for a server that does not say, passes.
    """
    status = change.status
    if status is not None and as_string(status) not in _STATUS_VALUES:
        findings.append(
            Finding(None, "the current status of the campaign must be a campaign status")
        )


def campaign_not_finished(change: Change, findings: list[Finding]) -> None:
    """Reads the status the server passes; reports at the root any patch of a finished one.

    The empty patch `{}` changes nothing, and passes.
    """
    if as_string(change.status) == CampaignStatus.FINISHED.value and not change.is_empty:
        findings.append(Finding(None, "the campaign is finished and can no longer be changed"))
