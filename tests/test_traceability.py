"""Every clause of the spec is enforced by a rule, settled by a decision, proved or explained.

The traceability page of the site (`docs/_ext/traceability.py`) is drawn from the same
`campaign_rules._export.trace.trace()`; this test fails when a clause has nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from campaign_rules._export import sources
from campaign_rules._export.catalogue import RuleInfo
from campaign_rules._export.clauses import clauses
from campaign_rules._export.trace import NO_RULE_NEEDED, decision_clauses, trace
from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent
KNOWN = sources.decisions((ROOT / sources.DECISIONS).read_text(encoding="utf-8"))
CASE_CITES = {
    path.stem: json.loads(path.read_text(encoding="utf-8"))["cites"]
    for path in sorted((ROOT / sources.CASES).glob("*.json"))
}


def test_every_clause_is_enforced_settled_proved_or_explained() -> None:
    unanswered = [
        item.clause.id
        for item in trace(clauses(), catalogue(), KNOWN, CASE_CITES)
        if not item.answered
    ]
    assert unanswered == [], "add a rule, a decision or a reason in NO_RULE_NEEDED"


def test_a_clause_no_rule_answers_fails_until_a_reason_is_given() -> None:
    spec = [clause for clause in clauses() if clause.id == "6"]
    [item] = trace(spec, catalogue(), KNOWN, CASE_CITES)
    assert (item.rules, item.decisions, item.cases) == ((), (), ())
    assert item.reason == NO_RULE_NEEDED["6"]
    assert item.answered
    rule_6 = RuleInfo("made.up", catalogue()[0].key, 400, "spec 6", "A rule.", "create")
    [enforced] = trace(spec, [*catalogue(), rule_6], KNOWN, CASE_CITES)
    assert enforced.rules == ("made.up",)
    assert enforced.reason is None  # a reason is shown only for a clause nothing else answers


def test_the_reasons_name_clauses_of_the_spec() -> None:
    assert set(NO_RULE_NEEDED) <= {clause.id for clause in clauses()}


def test_a_clause_lists_the_rules_decisions_and_cases_that_answer_it() -> None:
    by_id = {item.clause.id: item for item in trace(clauses(), catalogue(), KNOWN, CASE_CITES)}
    rule_3 = by_id["2.4 rule 3"]
    assert rule_3.rules == ("cycles.cooldown_mode_has_no_schedule",)
    assert rule_3.cases == ("cycles.cooldown_mode_has_no_schedule",)
    assert "D-null-members" in rule_3.decisions  # its text cites the rule
    assert "retries.within_bounds" in by_id["8"].rules


def test_every_rule_reaches_a_clause_directly_or_through_its_decisions() -> None:
    from campaign_rules._export.clauses import cited_clauses

    settled = decision_clauses(catalogue(), KNOWN)
    for info in catalogue():
        through = [c for name in sources.cited_decisions(info.source) for c in settled[name]]
        assert cited_clauses(info.source) or through, info.id
