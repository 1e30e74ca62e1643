"""The traceability page, generated when the site is built: from each clause to its proof.

For every numbered section and numbered rule of the spec (`campaign_rules._export.clauses`),
named by its title or its first words, the rules that enforce it, the checks outside the rule
table that do (`campaign_rules._export.catalogue.OTHER_CHECKS`, each with its page, decisions
and tests), the decisions that settle what it leaves open and the case files that prove it, or,
for a clause with none, the reason it needs no rule
(`campaign_rules._export.trace.NO_RULE_NEEDED`). Written to `traceability.md` (ignored by git)
when the builder starts, only when its text changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rule_pages import CASES, DECISIONS, slugify
from sphinx.application import Sphinx

from campaign_rules._export import sources
from campaign_rules._export.catalogue import OtherCheck
from campaign_rules._export.clauses import clauses
from campaign_rules._export.sources import cited_decisions
from campaign_rules._export.trace import ClauseTrace, trace

PAGE = "traceability.md"


def case_cites() -> dict[str, str]:
    """Each case file's name (its rule id) and what it cites."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))["cites"]
        for path in sorted(CASES.glob("*.json"))
    }


def traces() -> tuple[ClauseTrace, ...]:
    """Every clause of the spec with what answers it, from the repository as it is."""
    from campaign_rules.schema import catalogue

    known = sources.decisions(DECISIONS.read_text(encoding="utf-8"))
    return trace(clauses(), catalogue(), known, case_cites())


def _clause_ref(clause_id: str, anchor: str) -> str:
    return f"{{ref}}`spec {clause_id} <{anchor}>`"


def _status(item: ClauseTrace) -> str:
    if item.rules:
        return "enforced"
    if item.checks:
        return "enforced outside the rule table"
    if item.decisions:
        return "settled"
    if item.cases:
        return "proved"
    return "no rule needed" if item.reason else "**unanswered**"


def page() -> str:
    """The page's MyST Markdown."""
    known = sources.decisions(DECISIONS.read_text(encoding="utf-8"))
    items = traces()
    lines = [
        "# Traceability",
        "",
        "From each clause of {doc}`the spec <spec>` to what answers it: the rules that enforce "
        "it (each rule's citation names it), the checks outside the rule table that enforce it "
        "(a check whose answer is no error key of spec 7.2, so it has no rule id), the "
        "decisions that settle what it leaves open (the "
        "decision's text cites it, or a rule cites it beside the decision), and the case files "
        "that prove it (`tests/cases/<rule>.json`, whose `cites` names it). A clause that none "
        "of these answers is listed with the reason it needs no rule. Generated from the rule "
        "table, `docs/decisions.md` and the case files when this site is built; "
        "`tests/test_traceability.py` fails when a clause is neither enforced, settled, proved "
        "nor explained.",
        "",
        "| clause | title, or first words | status | rules | decisions | case files |",
        "|---|---|---|---:|---:|---:|",
    ]
    for item in items:
        clause = item.clause
        lines.append(
            f"| {_clause_ref(clause.id, clause.anchor)} | [{_title(item)}](#trace-"
            f"{clause.anchor.removeprefix('spec-')}) | {_status(item)} | {len(item.rules)} | "
            f"{len(item.decisions)} | {len(item.cases)} |"
        )
    lines.append("")
    for item in items:
        clause = item.clause
        lines += [
            f"(trace-{clause.anchor.removeprefix('spec-')})=",
            f"## {clause.id}: {_title(item)}",
            "",
            f"{_clause_ref(clause.id, clause.anchor)}, {_status(item)}.",
            "",
        ]
        if item.rules:
            links = ", ".join(f"{{doc}}`{rule} <rules/{rule}>`" for rule in item.rules)
            lines += [f"Enforced by: {links}.", ""]
        for check in item.checks:
            lines += [*_outside(check, known), ""]
        if item.decisions:
            links = ", ".join(
                f"[{name}](decisions.md#{slugify(known[name][0])})" for name in item.decisions
            )
            lines += [f"Settled by: {links}.", ""]
        if item.cases:
            files = ", ".join(f"`{name}.json`" for name in item.cases)
            lines += [f"Proved by the case files {files} (in `tests/cases/`).", ""]
        if item.reason:
            lines += [f"No rule needed: {item.reason}", ""]
    return "\n".join(lines)


def _outside(check: OtherCheck, known: dict[str, tuple[str, str]]) -> list[str]:
    """What a page says of a check outside the rule table: its page, decisions and tests."""
    decisions = ", ".join(
        f"[{name}](decisions.md#{slugify(known[name][0])})"
        for name in cited_decisions(check.source)
    )
    tests = ", ".join(f"`{path}`" for path in check.tests)
    return [
        f"Enforced outside the rule table by {{py:func}}`{check.name} <{check.function}>`, "
        "whose answer is no error key of spec 7.2, so it has no rule id "
        f"(its citation: {check.source}). It rests on {decisions}; {tests} proves it."
    ]


def _title(item: ClauseTrace) -> str:
    return item.clause.headline.replace("|", "\\|")


def write_page(app: Sphinx) -> None:
    """Write the page into the source directory, only when its text changed."""
    path = Path(app.srcdir) / PAGE
    text = page() + "\n"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generator with Sphinx."""
    app.connect("builder-inited", write_page)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
