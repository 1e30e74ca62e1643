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
from campaign_rules._rules.table import (
    CREATE_RULES,
    LOOKUP_RULES,
    STORED_CAMPAIGN_RULES,
    UPDATE_RULES,
    Rule,
)
from campaign_rules._wire.convert import to_wire

__all__ = ["create_result", "create_violations", "update_result"]

# The creation rules a document can need, told by what its reading found, so that rules that
# can find nothing in it are not called (about 130 instructions a call through the table):
# - spec 2.4 rule 2: every `cycles.` rule reads only an enabled cycles block
#   (`_rules/cycles.py`), and finds nothing without one;
# - in cooldown mode the document reads no dates (`Document.cycle_dates`), which are all the
#   two date rules read; in another mode `cooldown_mode_has_no_schedule` returns at once
#   (about 100 instructions a small body fewer, 200 a realistic one, callgrind);
# - the four `payload.` rules (`_rules/shape.py`) read only what each site found when it was
#   made, and find nothing when every site is clean (`Document.sites_clean`): about 550
#   instructions fewer an invalid small body, 1,150 a valid one (callgrind).
# The others run, in table order (tests/test_validation.py runs the whole table beside).
_SHAPE_RULES: Final = frozenset(rule.id for rule in CREATE_RULES if rule.id.startswith("payload."))
_CYCLES_RULES: Final = frozenset(rule.id for rule in CREATE_RULES if rule.id.startswith("cycles."))
_DATE_RULES: Final = frozenset({"cycles.dates_are_iso", "cycles.start_date_not_after_end_date"})
_COOLDOWN_RULES: Final = frozenset({"cycles.cooldown_mode_has_no_schedule"})


def _create_rules_but(skipped: frozenset[str]) -> tuple[Rule[Document], ...]:
    """`CREATE_RULES` but the rules whose ids are in `skipped`, in table order."""
    return tuple(rule for rule in CREATE_RULES if rule.id not in skipped)


class _Tables:
    """`CREATE_RULES` but those of `skipped`, for each state of a document's cycles block."""

    __slots__ = ("in_cooldown_mode", "in_other_mode", "without_cycles")

    def __init__(self, skipped: frozenset[str]) -> None:
        self.without_cycles = _create_rules_but(skipped | _CYCLES_RULES)
        self.in_cooldown_mode = _create_rules_but(skipped | _DATE_RULES)
        self.in_other_mode = _create_rules_but(skipped | _COOLDOWN_RULES)


_ANY_SITES: Final = _Tables(frozenset())
_CLEAN_SITES: Final = _Tables(_SHAPE_RULES)


def _create_rules(doc: Document) -> tuple[Rule[Document], ...]:
    """The creation rules that can find anything in `doc`, in table order."""
    tables = _CLEAN_SITES if doc.sites_clean else _ANY_SITES
    if doc.enabled_cycles is None:
        return tables.without_cycles
    return tables.in_cooldown_mode if doc.in_cooldown_mode else tables.in_other_mode


def create_result(payload: object, directory: Directory | None) -> CreateAccepted | CreateRefused:
    """`validate_create(payload, directory=directory)`, for a `directory` already checked."""
    doc = Document(payload, directory)
    violations = _create_violations(doc)
    if violations:
        return outcome(CreateRefused, None, violations)
    return outcome(CreateAccepted, build_campaign(doc), ())


def create_violations(payload: object) -> tuple[Violation, ...]:
    """`validate_create(payload).violations`, offline, without building the campaign's value.

    For the audit, which keeps only the violations of each body (issue 22).
    """
    return _create_violations(Document(payload, None))


def _create_violations(doc: Document) -> tuple[Violation, ...]:
    """Every violation of the creation rules in `doc`, the look-ups' last, in rule order."""
    found: list[Violation] = []
    collect_violations(doc, _create_rules(doc), found, VIOLATIONS_MAX)
    return _with_lookups(found, doc)


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
    if not collect_violations(change, UPDATE_RULES, found, VIOLATIONS_MAX):
        collect_violations(merged, _create_rules(merged), found, VIOLATIONS_MAX)
    violations = _with_lookups(found, merged)
    if violations:
        return outcome(UpdateRefused, None, violations)
    return outcome(UpdateAccepted, build_campaign(merged), ())


def _with_lookups(found: list[Violation], doc: Document) -> tuple[Violation, ...]:
    """The offline violations `found`, then every violation the look-ups find.

    The look-ups run whatever the offline rules found (api-contract: a 400 elsewhere does not
    stop them), and what they find is kept: they are at most 103, one per look-up, and they
    come last, so an offline result is always a prefix of an online one.
    """
    if doc.directory is not None:
        collect_violations(doc, LOOKUP_RULES, found)
    return tuple(found)
