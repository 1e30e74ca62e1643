"""Every citation names what ships: a clause of the spec, an RFC or a decision of the project.

A rule's source (`rules --json`, the rule pages, `explain`), a check's outside the rule table,
the decisions and the site's pages cite nothing an auditor of this repository cannot open: the
documents the project was built from (its public contract, for one) are not in it, so each
point they settle that a rule rests on is a decision of `docs/decisions.md` (issue 37).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from scripts import diff_example

from campaign_rules._cli import main
from campaign_rules._export import sources
from campaign_rules._export.catalogue import OTHER_CHECKS
from campaign_rules._export.clauses import CITATION, cited_clauses, clauses
from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
KNOWN = sources.decisions((ROOT / sources.DECISIONS).read_text(encoding="utf-8"))
# The one document the project was built from and does not ship, as a citation spells it.
UNSHIPPED = re.compile(r"api[- ]contract", re.IGNORECASE)

_RFC = r"RFC \d+(?: section \d+(?:\.\d+)*)?"
_DECISION = r"D-[a-z]+(?:-[a-z]+)*"
# A citation is parts joined by "; ", each the spec's clauses, RFCs, or decisions.
_PARTS = (
    re.compile(CITATION.pattern),
    re.compile(rf"{_RFC}(?:, {_RFC})*"),
    re.compile(rf"{_DECISION}(?:, {_DECISION})*"),
)


def citations() -> dict[str, str]:
    """Every rule's source, and every check's outside the rule table, by its name."""
    return {
        **{info.id: info.source for info in catalogue()},
        **{check.name: check.source for check in OTHER_CHECKS},
    }


def test_a_citation_names_clauses_rfcs_and_decisions_only() -> None:
    spec = {clause.id for clause in clauses()}
    for name, source in citations().items():
        for part in source.split("; "):
            assert any(form.fullmatch(part) for form in _PARTS), (name, part)
        assert set(cited_clauses(source)) <= spec, name
        assert set(sources.cited_decisions(source)) <= set(KNOWN), name


def test_no_rule_decision_or_page_cites_a_document_that_does_not_ship() -> None:
    for name, source in citations().items():
        assert not UNSHIPPED.search(source), name
    for name, (heading, text) in KNOWN.items():
        assert not UNSHIPPED.search(heading + text), name
    # The site's pages as committed; the changelog is history, and is left as it was written.
    generated = {DOCS / "traceability.md", DOCS / "changelog.md"}
    pages = [
        path
        for path in sorted(DOCS.rglob("*.md"))
        if path not in generated and not {"rules", "_build"} & set(path.relative_to(DOCS).parts)
    ]
    assert len(pages) > 20
    for path in pages:
        assert not UNSHIPPED.search(_own_words(path.read_text(encoding="utf-8"))), path


def _own_words(page: str) -> str:
    """A page less the real diff it shows, which quotes an old version's sources as they were."""
    if diff_example.BEGIN not in page:
        return page
    return page.replace(diff_example.written(page), "")


def test_the_generated_pages_cite_no_document_that_does_not_ship() -> None:
    pytest.importorskip("sphinx", reason="the docs extra is not installed (no sphinx)")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from rule_pages import pages
        from traceability import page
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    for name, text in {**pages(), "traceability.md": page()}.items():
        assert not UNSHIPPED.search(text), name


def test_the_command_line_cites_no_document_that_does_not_ship(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["rules"]
    assert {rule["id"] for rule in listed} == {info.id for info in catalogue()}
    assert not UNSHIPPED.search(json.dumps(listed))
    assert main(["rules"]) == 0
    assert not UNSHIPPED.search(capsys.readouterr().out)
    for info in catalogue():
        main(["explain", info.id, "--source", str(ROOT)])
        shown = capsys.readouterr().out
        assert info.source in shown, info.id
        assert not UNSHIPPED.search(shown), info.id
