"""Every clause of the spec is enforced by a rule, settled by a decision, proved or explained.

The traceability page of the site (`docs/_ext/traceability.py`) is drawn from the same
`campaign_rules._export.trace.trace()`; this test fails when a clause has nothing. A clause
enforced by a check outside the rule table (`parse_authorization`) says so, with the check's
page, decision and tests, and never "no rule needed"; each clause is named by its title or its
first words.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from campaign_rules._export import sources
from campaign_rules._export.catalogue import OTHER_CHECKS, RuleInfo
from campaign_rules._export.clauses import cited_clauses, clauses, first_words
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


def test_the_authorization_clauses_are_enforced_outside_the_rule_table() -> None:
    by_id = {item.clause.id: item for item in trace(clauses(), catalogue(), KNOWN, CASE_CITES)}
    for clause_id in ("5 rule 1", "5 rule 2", "5 rule 3"):
        item = by_id[clause_id]
        assert [check.name for check in item.checks] == ["parse_authorization"], clause_id
        assert "D-authorization" in item.decisions, clause_id
        assert item.reason is None, clause_id  # never "no rule needed"
    assert not {"5 rule 1", "5 rule 2"} & set(NO_RULE_NEEDED)


def test_a_check_outside_the_rule_table_names_its_page_decisions_and_tests() -> None:
    spec = {clause.id for clause in clauses()}
    for check in OTHER_CHECKS:
        module, _, name = check.function.rpartition(".")
        public = importlib.import_module(module)
        assert name in public.__all__, check.function  # documented in the API reference
        assert callable(getattr(public, name))
        assert set(cited_clauses(check.source)) <= spec, check.source
        assert cited_clauses(check.source), check.source
        assert set(sources.cited_decisions(check.source)) <= set(KNOWN), check.source
        assert sources.cited_decisions(check.source), check.source
        for path in check.tests:
            assert (ROOT / path).is_file(), path
            assert name in (ROOT / path).read_text(encoding="utf-8"), path


def test_a_rule_of_a_section_is_named_by_its_first_words() -> None:
    by_id = {clause.id: clause for clause in clauses()}
    assert by_id["2.4"].headline == "Cycles config object"
    assert by_id["4.1 rule 4"].headline == "When the billing limit is reached, status 402."
    assert by_id["5 rule 1"].headline.startswith("Every request carries the header")
    assert by_id["5 rule 1"].headline.endswith(" …")
    # A code span is never cut: the words run on to its closing backquote.
    assert first_words("a b `c d e` f", 3) == "a b `c d e` …"
    assert first_words("a b c.", 3) == "a b c."


def test_the_page_shows_each_clause_s_first_words_and_a_check_outside_the_table() -> None:
    pytest.importorskip("sphinx", reason="the docs extra is not installed (no sphinx)")
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from traceability import page
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    text = page()
    assert "](#trace-2-4-rule-3) |" in text
    for clause in clauses():
        row = next(line for line in text.splitlines() if f"<{clause.anchor}>`" in line)
        assert f"[{clause.headline}]" in row, clause.id
        assert f"[rule {clause.rule}]" not in row, clause.id
    row = next(line for line in text.splitlines() if "<spec-5-rule-1>` |" in line)
    assert "| enforced outside the rule table |" in row
    section = text[text.index("## 5 rule 1:") : text.index("## 5 rule 2:")]
    assert "No rule needed" not in section
    assert "{py:func}`parse_authorization <campaign_rules.requests.parse_authorization>`" in (
        section
    )
    assert "[D-authorization](decisions.md#" in section
    assert "`tests/test_authorization.py` proves it" in section
