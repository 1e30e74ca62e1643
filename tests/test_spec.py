"""The spec shipped in the package, read clause by clause, and every citation of it (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign_rules._export import sources
from campaign_rules._export.clauses import (
    SPEC_FILE,
    anchor_of,
    cited_clauses,
    cited_in_text,
    clauses,
    parse,
    spec_text,
)
from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent
SHARED_SPEC = ROOT.parent / "shared" / "spec" / "campaign-outreach-api.md"
CLAUSE_IDS = {clause.id for clause in clauses()}


def test_the_shipped_spec_is_the_one_in_the_source_tree() -> None:
    assert spec_text() == (ROOT / "src" / "campaign_rules" / SPEC_FILE).read_text(encoding="utf-8")


@pytest.mark.skipif(not SHARED_SPEC.is_file(), reason="no ../shared beside the repository")
def test_the_shipped_spec_is_the_interface_document_as_given() -> None:
    assert spec_text() == SHARED_SPEC.read_text(encoding="utf-8")


def test_every_numbered_section_and_rule_is_a_clause() -> None:
    ids = [clause.id for clause in clauses()]
    assert ids[:8] == ["1", "2", "2.1", "2.2", "2.3", "2.4", "2.4 rule 1", "2.4 rule 2"]
    assert {"4.1 rule 5", "5 rule 3", "7.4", "9"} <= set(ids)
    assert "4.1 rule 6" not in ids
    assert len(ids) == len(set(ids)) == 34


def test_a_clause_has_its_text_title_and_anchor() -> None:
    by_id = {clause.id: clause for clause in clauses()}
    rule = by_id["2.4 rule 3"]
    assert rule.text.startswith("When `cycles.mode` is `cooldown`")
    assert (rule.section, rule.parent, rule.rule, rule.anchor) == (
        "2.4",
        "2.4",
        3,
        "spec-2-4-rule-3",
    )
    section = by_id["2.4"]
    assert section.title == "Cycles config object"
    assert "`max_iterations` | integer | 2 to 12" in section.text
    assert "Rules:" in section.text
    assert (section.parent, section.anchor, section.label) == ("2", "spec-2-4", "spec 2.4")
    assert by_id["2"].text == ""


def test_a_numbered_list_item_continues_on_indented_lines_and_ends_with_its_list() -> None:
    parsed = parse("## 3. Three\n\nRules:\n1. one\n   more\n2. two\n\nAfter.\n\n3. not a rule\n")
    assert [(c.id, c.text) for c in parsed] == [
        ("3", "Rules:\n1. one\n   more\n2. two\n\nAfter.\n\n3. not a rule"),
        ("3 rule 1", "one more"),
        ("3 rule 2", "two"),
    ]


def test_a_citation_names_its_clauses_with_ranges_spelt_out() -> None:
    cited = "spec 2.2-2.6, 4.1 rule 3, 5; D-tolerant-reading, D-integral-floats"
    assert cited_clauses(cited) == ["2.2", "2.3", "2.4", "2.5", "2.6", "4.1 rule 3", "5"]
    assert cited_clauses("spec 5 rule 3") == ["5 rule 3"]
    assert cited_clauses("D-blank-name") == []
    assert cited_clauses("api-contract; spec 1-3") == ["1", "2", "3"]
    assert cited_in_text("tables of spec 2.2-2.6, 4.1 and 7.1: every; Spec 5 gives") == [
        "2.2", "2.3", "2.4", "2.5", "2.6", "4.1", "7.1", "5",
    ]  # fmt: skip
    assert anchor_of("4.1 rule 2") == "spec-4-1-rule-2"


def test_every_citation_of_the_rule_table_names_a_clause_of_the_spec() -> None:
    for info in catalogue():
        assert set(cited_clauses(info.source)) <= CLAUSE_IDS, info.id


def test_every_case_file_and_decision_cites_clauses_of_the_spec() -> None:
    for path in sorted((ROOT / "tests" / "cases").glob("*.json")):
        cites = json.loads(path.read_text(encoding="utf-8"))["cites"]
        assert set(cited_clauses(cites)) <= CLAUSE_IDS, path.name
    known = sources.decisions((ROOT / sources.DECISIONS).read_text(encoding="utf-8"))
    for name, (_, text) in known.items():
        # Prose may go on after a citation ("spec 8, 12 a second"); its first clause must exist.
        for cited in cited_in_text(text):
            if "." in cited or " rule " in cited:
                assert cited in CLAUSE_IDS, (name, cited)
