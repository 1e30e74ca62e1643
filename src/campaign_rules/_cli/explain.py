"""`campaign-rules explain RULE_ID` (or an error key): a rule, from its clause to its cases.

For each rule it prints the summary, stage, error key and status, the text of every spec
clause it cites (from the spec shipped in the package), the decisions it rests on and how many
cases prove it. The decisions and the cases live in the project's source tree, not in the
package: they are read from it when the command runs in one (or from an editable install), and
otherwise the command says where they are (D-explain-sources).
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from campaign_rules._cli.exits import ExitStatus, describe_exits
from campaign_rules._cli.wording import printable
from campaign_rules._export import sources
from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.clauses import Clause, cited_clauses, clauses
from campaign_rules._export.links import DOCS_URL, rule_url

__all__ = ["add_parser", "explain"]

_INDENT = "    "


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `explain` to the command line's sub-commands."""
    command = commands.add_parser(
        "explain",
        help="print a rule's clause, decisions, key and cases (or those of every rule of a key)",
        description="Explain a rule: the spec clauses it enforces, with their text, the "
        "decisions it rests on, its error key, HTTP status and stage, and how many cases prove "
        "it. Given an error key (INVALID_REQUEST), explain every rule that yields it. "
        + describe_exits(valid="explained", invalid=None, unreadable="no rule or key of that name"),
    )
    command.add_argument("rule", metavar="RULE_ID", help="a rule id or an error key")
    command.add_argument(
        "--source",
        metavar="DIR",
        type=Path,
        help="the project's source tree, whose docs/decisions.md and tests/cases/ to read "
        "(default: the tree this package runs from, else the current directory)",
    )
    command.add_argument(
        "--docs-url",
        metavar="URL",
        default=DOCS_URL,
        help=f"the documentation site to link the rule's page on (default: {DOCS_URL})",
    )


def explain(args: argparse.Namespace) -> tuple[int, str]:
    """The exit status, and the text to print (or the one-line reason on standard error)."""
    infos = catalogue()
    chosen = [info for info in infos if args.rule in (info.id, info.key.value)]
    if not chosen:
        return ExitStatus.UNREADABLE, f"explain: no rule or error key {args.rule!r}"
    tree = sources.source_tree(args.source) if args.source else sources.source_tree()
    if args.source and tree is None:
        return ExitStatus.UNREADABLE, (
            f"explain: {printable(str(args.source))} is not a source tree of campaign-rules "
            f"(no {sources.DECISIONS} or {sources.CASES}/)"
        )
    known = (
        sources.decisions((tree / sources.DECISIONS).read_text(encoding="utf-8")) if tree else None
    )
    counts = (
        sources.case_counts(tree / sources.CASES, [info.id for info in chosen]) if tree else None
    )
    by_id = {clause.id: clause for clause in clauses()}
    parts = []
    if len(chosen) > 1 or chosen[0].id != args.rule:
        names = ", ".join(info.id for info in chosen)
        parts.append(f"{len(chosen)} rules yield {args.rule}: {names}\n")
    for info in chosen:
        parts.append(_rule(info, by_id, known, counts, args.docs_url))
    return ExitStatus.VALID, "\n".join(parts)


def _rule(
    info: RuleInfo,
    by_id: dict[str, Clause],
    known: dict[str, tuple[str, str]] | None,
    counts: dict[str, sources.Cases] | None,
    docs_url: str,
) -> str:
    lines = [
        f"{info.id}: {info.summary}",
        f"{_INDENT}key {info.key.value}, status {info.status}, stage {info.stage}",
        f"{_INDENT}cites {info.source}",
        f"{_INDENT}page {rule_url(info.id, docs_url)}",
        "",
    ]
    cited = cited_clauses(info.source)
    if not cited:
        lines += ["It cites no clause of the spec: it rests on its decisions alone.", ""]
    for clause_id in cited:
        clause = by_id.get(clause_id)
        if clause is None:
            lines += [f"spec {clause_id}: no such clause in the shipped spec", ""]
            continue
        heading = f"spec {clause.section} {by_id[clause.section].title}"
        if clause.rule is not None:
            heading += f", rule {clause.rule}"
        lines += [heading, *_indented(clause.text), ""]
    for name in sources.cited_decisions(info.source):
        if known is None:
            lines.append(f"{name}: in docs/decisions.md of the source tree")
        elif name in known:
            lines.append(known[name][0])
        else:
            lines.append(f"{name}: no such decision in docs/decisions.md")
    if sources.cited_decisions(info.source):
        lines.append("")
    case_file = f"{sources.CASES}/{info.id}.json"
    if counts is None:
        lines.append(f"Cases: in {case_file} of the source tree, shown on the rule's page.")
    elif info.id in counts:
        cases = counts[info.id]
        lines.append(
            f"Cases: {cases.total} prove it, {cases.accepted} accepted and {cases.refused} "
            f"refused ({case_file})."
        )
    else:
        lines.append(f"Cases: none ({case_file} is missing).")
    return "\n".join(lines) + "\n"


def _indented(text: str) -> list[str]:
    """The clause's Markdown, indented; long prose lines wrapped, tables kept as they are."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("|") or len(line) <= 92:
            out.append(f"{_INDENT}{line}".rstrip())
        else:
            out += textwrap.wrap(line, 92, initial_indent=_INDENT, subsequent_indent=_INDENT)
    return out
