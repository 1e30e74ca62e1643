"""The two validations: which rule tables run over what, in which order, and their results.

The public `validate_create` and `validate_update` (`campaign_rules._validate`) hold the
documentation and check their `directory`, then call these: the work is apart from the
documentation, so that the compiled build can compile the one and keep the other, and a request
crosses into compiled code once (setup.py says which modules it compiles).
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.build import build_campaign
from campaign_rules._campaign.change import Change
from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._campaign.results import (
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
from campaign_rules._campaign.stored import StoredCampaign
from campaign_rules._core.construct import outcome
from campaign_rules._core.limits import VIOLATIONS_MAX
from campaign_rules._core.violations import Violation
from campaign_rules._rules.runner import collect_violations, run_rules
from campaign_rules._rules.scope import FACTS_INDEXES, facts_of
from campaign_rules._rules.table import (
    BODY_RULES,
    CREATE_RULES,
    LOOKUP_RULES,
    STORED_CAMPAIGN_RULES,
    UPDATE_RULES,
    Rule,
)
from campaign_rules._wire.convert import to_wire

__all__ = ["create_result", "create_violations", "update_result"]


def _by_facts(table: tuple[Rule[Document], ...]) -> list[tuple[Rule[Document], ...]]:
    """The rules of `table` that read what a body of each set of facts has, in table order.

    Indexed by the facts (`_rules.scope.facts_of`); derived from the rows' `When` alone.
    """
    return [
        tuple(rule for rule in table if rule.when.reads_in(facts)) for facts in range(FACTS_INDEXES)
    ]


def _judged_on_a_text(rule: Rule[Document]) -> bool:
    """Whether `rule` runs on a value read from a text: not when it defers to a body rule.

    Its gate (`Rule.gates`, from the table's `defers_to`) says so: the body rules judged the
    text first, and a body they refuse is judged no further, so the rule could find nothing.
    """
    return not any(other.id in rule.defers_to for other in BODY_RULES)


# Rules that could find nothing in a document are not called (benchmarks/RESULTS.md, step 20).
_CREATE_RULES_BY_FACTS: Final = _by_facts(CREATE_RULES)
_LOOKUP_RULES_BY_FACTS: Final = _by_facts(LOOKUP_RULES)
# The same, for a payload read from an I-JSON text (`validate_create_json`, the audit).
_TEXT_CREATE_RULES_BY_FACTS: Final = _by_facts(
    tuple(rule for rule in CREATE_RULES if _judged_on_a_text(rule))
)


def _create_rules(doc: Document) -> tuple[Rule[Document], ...]:
    """The creation rules that read what `doc` has, in table order."""
    return _CREATE_RULES_BY_FACTS[facts_of(doc)]


def create_result(
    payload: object, directory: Directory | None, from_text: bool = False
) -> CreateAccepted | CreateRefused:
    """`validate_create(payload, directory=directory)`, for a `directory` already checked.

    `from_text`: `payload` was read from a text the body rules passed (`validate_create_json`).
    """
    doc = Document(payload, directory)
    violations = _create_violations(doc, from_text)
    if violations:
        return outcome(CreateRefused, None, violations)
    return outcome(CreateAccepted, build_campaign(doc), ())


def create_violations(payload: object, from_text: bool = False) -> tuple[Violation, ...]:
    """`validate_create(payload).violations`, offline, without building the campaign's value.

    For the audit, which keeps only the violations of each body (issue 22), and gives
    `from_text` as `create_result` takes it.
    """
    return _create_violations(Document(payload, None), from_text)


def _create_violations(doc: Document, from_text: bool) -> tuple[Violation, ...]:
    """Every violation of the creation rules in `doc`, the look-ups' last, in rule order."""
    found: list[Violation] = []
    facts = facts_of(doc)
    by_facts = _TEXT_CREATE_RULES_BY_FACTS if from_text else _CREATE_RULES_BY_FACTS
    collect_violations(doc, by_facts[facts], found, VIOLATIONS_MAX)
    return _with_lookups(found, doc, facts)


def update_result(
    existing: object, patch: object, status: object, directory: Directory | None
) -> UpdateAccepted | UpdateRefused:
    """`validate_update(existing, patch, ...)`, for a `directory` already checked."""
    if isinstance(existing, CampaignCreate):
        campaign = existing
    else:
        # Stored wire JSON: what the creation rules refuse in it is the server's fault.
        stored = Document(existing)
        problems = run_rules(
            StoredCampaign(run_rules(stored, _create_rules(stored), VIOLATIONS_MAX)),
            STORED_CAMPAIGN_RULES,
        )
        if problems:
            return outcome(UpdateRefused, None, problems)
        campaign = build_campaign(stored)
    # The merge works on wire JSON (RFC 7396): the campaign is written as the service sends it.
    change = Change(campaign, to_wire(campaign), patch, status, directory)
    merged = change.merged
    found: list[Violation] = []
    facts = facts_of(merged)
    if not collect_violations(change, UPDATE_RULES, found, VIOLATIONS_MAX):
        collect_violations(merged, _CREATE_RULES_BY_FACTS[facts], found, VIOLATIONS_MAX)
    violations = _with_lookups(found, merged, facts)
    if violations:
        return outcome(UpdateRefused, None, violations)
    return outcome(UpdateAccepted, build_campaign(merged), ())


def _with_lookups(found: list[Violation], doc: Document, facts: int) -> tuple[Violation, ...]:
    """The offline violations `found`, then every violation the look-ups find in `doc`.

    `facts` are the document's (`facts_of`): without a directory, no look-up reads anything.

    The look-ups run whatever the offline rules found (D-look-ups: a 400 elsewhere does not
    stop them), and what they find is kept: they are at most 103, one per look-up, and they
    come last, so an offline result is always a prefix of an online one.
    """
    lookups = _LOOKUP_RULES_BY_FACTS[facts]
    if lookups:
        collect_violations(doc, lookups, found)
    return tuple(found)
