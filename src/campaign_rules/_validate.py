"""The entry points: `validate_create` and `validate_update`."""

from __future__ import annotations

from campaign_rules._campaign.build import build_campaign
from campaign_rules._campaign.change import Change
from campaign_rules._campaign.directory import Directory, checked_directory
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._campaign.results import (
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
from campaign_rules._campaign.stored import StoredCampaign
from campaign_rules._core.enums import CampaignStatus
from campaign_rules._core.limits import VIOLATIONS_MAX
from campaign_rules._core.violations import Violation
from campaign_rules._wire.convert import to_wire
from campaign_rules.rules.runner import collect_violations, run_rules
from campaign_rules.rules.table import (
    CREATE_RULES,
    LOOKUP_RULES,
    STORED_CAMPAIGN_RULES,
    UPDATE_RULES,
)

__all__ = ["validate_create", "validate_update"]


def validate_create(
    payload: object, *, directory: Directory | None = None
) -> CreateAccepted | CreateRefused:
    """Check a campaign creation body (spec 2.1, 4.1) against every rule.

    `payload` is the decoded JSON body, any Python value. With a `directory`, the rules that
    need the server's records run too; without one, only the offline rules do, and what they
    find is always a subset of what they find with one. Never raises for any payload, never
    changes it, and reports every violation in rule order: at most 50 offline ones, then those
    of the look-ups (D-hostile-input). Raises `TypeError` only for a `directory` that is not
    a `Directory`.
    """
    doc = Document(payload, checked_directory(directory))
    found: list[Violation] = []
    collect_violations(doc, CREATE_RULES, found, VIOLATIONS_MAX)
    violations = _with_lookups(found, doc)
    if violations:
        return CreateRefused(None, violations)
    return CreateAccepted(build_campaign(doc), ())


def validate_update(
    existing: object,
    patch: object,
    *,
    status: CampaignStatus | None = None,
    directory: Directory | None = None,
) -> UpdateAccepted | UpdateRefused:
    """Check a JSON Merge Patch (RFC 7396) of a campaign's creation fields.

    `existing` is the campaign as created: the `CampaignCreate` that `validate_create` gave, or
    the campaign's wire JSON as the server stored it (`to_wire` of that value, read back from a
    database). Stored JSON is read with the offline creation rules first; what they refuse in it
    is the server's fault, reported as `SERVER_ERROR` violations (500) of the rule
    `update.existing_is_a_campaign`, and the patch is then not judged. `status` is the
    campaign's current status, when known. The rules of the change itself run next (immutable
    fields, cycles not enabled, finished campaign), then every creation rule on the merged
    campaign. Never raises for any value of `existing`, `patch` or `status`, and changes none;
    raises `TypeError` only for a `directory` that is not a `Directory`.
    """
    directory = checked_directory(directory)
    if isinstance(existing, CampaignCreate):
        campaign = existing
    else:
        stored = Document(existing)
        problems = run_rules(
            StoredCampaign(run_rules(stored, CREATE_RULES, VIOLATIONS_MAX)), STORED_CAMPAIGN_RULES
        )
        if problems:
            return UpdateRefused(None, problems)
        campaign = build_campaign(stored)
    # The merge works on wire JSON (RFC 7396): the campaign is written as the service sends it.
    change = Change(campaign, to_wire(campaign), patch, status, directory)
    merged = change.merged
    found: list[Violation] = []
    if not collect_violations(change, UPDATE_RULES, found, VIOLATIONS_MAX):
        collect_violations(merged, CREATE_RULES, found, VIOLATIONS_MAX)
    violations = _with_lookups(found, merged)
    if violations:
        return UpdateRefused(None, violations)
    return UpdateAccepted(build_campaign(merged), ())


def _with_lookups(found: list[Violation], doc: Document) -> tuple[Violation, ...]:
    """The offline violations `found`, then every violation the look-ups find.

    The look-ups run whatever the offline rules found (api-contract: a 400 elsewhere does not
    stop them), and what they find is kept: they are at most 103, one per look-up, and they
    come last, so an offline result is always a prefix of an online one.
    """
    if doc.directory is not None:
        collect_violations(doc, LOOKUP_RULES, found)
    return tuple(found)
