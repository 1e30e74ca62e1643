"""`campaign-rules explain RULE_ID` (or an error key): a rule, from its clause to its cases.

For each rule it prints the summary, stage, error key and status, the text of every spec
clause it cites (from the spec shipped in the package), the decisions it rests on and how many
cases prove it. The decisions and the cases live in the project's source tree, not in the
package: they are read from it when the command runs in one (or from an editable install), and
otherwise the command says where they are (D-explain-sources). A name is taken in any case
(`invalid_request`); an unknown one is answered with the nearest rule ids and keys.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from campaign_rules._cli.exits import ExitStatus, describe_exits
from campaign_rules._cli.wording import printable
from campaign_rules._export.links import DOCS_URL, rule_url

if TYPE_CHECKING:  # at run time, imported where `explain` runs: building the parser needs none
    from campaign_rules._export import sources
    from campaign_rules._export.catalogue import RuleInfo
    from campaign_rules._export.clauses import Clause

__all__ = ["add_parser", "explain"]

_INDENT = "    "
# The most names an unknown one is answered with; how alike a name must be to be one of them
# (`difflib`'s ratio, its own default: 0.67 from `retry` to `retries`), and how close to the
# most alike (so `retry` is not also answered with `non_empty`, at 0.6).
_SUGGESTIONS: Final = 5
_ALIKE: Final = 0.6
_NEAR_THE_BEST: Final = 0.05
# What a rule id or an error key is made of, as words: `retries.within_bounds`, `NOT_FOUND`.
_WORD_BREAK: Final = re.compile(r"[._]")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `explain` to the command line's sub-commands."""
    command = commands.add_parser(
        "explain",
        help="print a rule's clause, decisions, key and cases (or those of every rule of a key)",
        description="Explain a rule: the spec clauses it enforces, with their text, the "
        "decisions it rests on, its error key, HTTP status and stage, and how many cases prove "
        "it. Given an error key (INVALID_REQUEST), explain every rule that yields it. "
        + describe_exits(
            valid="explained",
            invalid=None,
            unreadable="no rule or key of that name (the nearest are suggested)",
        ),
    )
    command.add_argument("rule", metavar="RULE_ID", help="a rule id or an error key, in any case")
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
    # Imported on first use: the command line imports this module to build its parser.
    from campaign_rules._export import sources
    from campaign_rules._export.catalogue import catalogue
    from campaign_rules._export.clauses import clauses

    infos = catalogue()
    wanted = args.rule.casefold()
    chosen = [info for info in infos if wanted in (info.id.casefold(), info.key.value.casefold())]
    if not chosen:
        return ExitStatus.UNREADABLE, _unknown(args.rule, infos)
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
    if chosen[0].id.casefold() != wanted:  # an error key: every rule that yields it
        names = ", ".join(info.id for info in chosen)
        yields = "rule yields" if len(chosen) == 1 else "rules yield"
        parts.append(f"{len(chosen)} {yields} {chosen[0].key.value}: {names}\n")
    for info in chosen:
        parts.append(_rule(info, by_id, known, counts, args.docs_url))
    return ExitStatus.VALID, "\n".join(parts)


def _unknown(name: str, infos: Sequence[RuleInfo]) -> str:
    """What `explain` says of a name no rule or key has: the nearest ones, or where they are."""
    said = f"explain: no rule or error key {name!r}"
    nearest = _nearest(name, infos)
    if not nearest:
        return f"{said}; `campaign-rules rules` lists them all"
    if len(nearest) == 1:
        return f"{said}; did you mean {nearest[0]}?"
    return f"{said}; did you mean {', '.join(nearest[:-1])} or {nearest[-1]}?"


def _nearest(name: str, infos: Sequence[RuleInfo]) -> list[str]:
    """The rule ids and error keys most like `name`, the most alike first, then in table order.

    A name is compared with each whole id or key and with each of its words, so that
    `retries` finds `retries.within_bounds` and `retry` too.
    """
    import difflib  # loaded on first use: for an unknown name only

    wanted = name.casefold()
    names = list(dict.fromkeys(label for info in infos for label in (info.id, info.key.value)))
    alike: list[tuple[float, int, str]] = []
    for order, candidate in enumerate(names):
        whole = candidate.casefold()
        score = max(
            difflib.SequenceMatcher(None, wanted, word).ratio()
            for word in (whole, *_WORD_BREAK.split(whole))
        )
        if score >= _ALIKE:
            alike.append((-score, order, candidate))
    alike.sort()
    best = -alike[0][0] if alike else 1.0
    near = [candidate for score, _, candidate in alike if -score >= best - _NEAR_THE_BEST]
    return near[:_SUGGESTIONS]


def _rule(
    info: RuleInfo,
    by_id: dict[str, Clause],
    known: dict[str, tuple[str, str]] | None,
    counts: dict[str, sources.Cases] | None,
    docs_url: str,
) -> str:
    from campaign_rules._export import sources  # loaded on first use, as in `explain`
    from campaign_rules._export.clauses import cited_clauses

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
        prove = "proves" if cases.total == 1 else "prove"
        lines.append(
            f"Cases: {cases.total} {prove} it, {cases.accepted} accepted and {cases.refused} "
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
