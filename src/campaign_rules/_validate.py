"""The entry points: `validate_create` and `validate_update`."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from campaign_rules._convert import structure_campaign
from campaign_rules._directory import Directory
from campaign_rules._document import Document
from campaign_rules._enums import CampaignStatus
from campaign_rules._limits import VIOLATIONS_MAX
from campaign_rules._models import CampaignCreate
from campaign_rules._results import CreateResult, UpdateResult
from campaign_rules._violations import Violation
from campaign_rules.rules.table import CREATE_RULES, LOOKUP_RULES, UPDATE_RULES, Rule, Subject
from campaign_rules.rules.update import Change

__all__ = ["validate_create", "validate_update"]


def validate_create(payload: object, *, directory: Directory | None = None) -> CreateResult:
    """Check a campaign creation body (spec 2.1, 4.1) against every rule.

    `payload` is the decoded JSON body, any Python value. With a `directory`, the rules that
    need the server's records run too; without one, only the offline rules do, and what they
    find is always a subset of what they find with one. Never raises for any payload, never
    changes it, and reports every violation (at most 50, D-hostile-input) in rule order.
    """
    doc = Document(payload, directory)
    violations = _collect(_findings(doc, _rules_for(directory)))
    if violations:
        return CreateResult(value=None, violations=violations)
    return CreateResult(value=structure_campaign(doc), violations=())


def validate_update(
    existing: CampaignCreate,
    patch: object,
    *,
    status: CampaignStatus | None = None,
    directory: Directory | None = None,
) -> UpdateResult:
    """Check a JSON Merge Patch (RFC 7396) of a campaign's creation fields.

    `existing` is the campaign as created; `status` its current status, when known. The rules
    of the change itself run first (immutable fields, cycles not enabled, finished campaign),
    then every creation rule on the merged campaign. Never raises for any patch value.
    """
    change = Change(existing, patch, status, directory)
    findings: Iterable[Violation] = _findings(change, UPDATE_RULES)
    if change.members is not None:
        findings = itertools.chain(findings, _findings(change.merged, _rules_for(directory)))
    violations = _collect(findings)
    if violations:
        return UpdateResult(value=None, violations=violations)
    return UpdateResult(value=structure_campaign(change.merged), violations=())


def _rules_for(directory: Directory | None) -> tuple[Rule[Document], ...]:
    return CREATE_RULES if directory is None else CREATE_RULES + LOOKUP_RULES


def _findings(subject: Subject, rules: tuple[Rule[Subject], ...]) -> Iterator[Violation]:
    """Every violation of `rules` by `subject`, in table order, made from each rule's findings."""
    for rule in rules:
        for finding in rule.check(subject):
            yield Violation(rule.key, finding.field, finding.message, rule.id)


def _collect(violations: Iterable[Violation]) -> tuple[Violation, ...]:
    """The first violations, up to the cap; the rest are neither reported nor looked for."""
    return tuple(itertools.islice(violations, VIOLATIONS_MAX))
