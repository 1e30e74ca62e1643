"""A page for every rule of the rule table, generated when the site is built (D-docs-site).

Each page under `rules/` is derived, never written by hand: the id, error key, status and
citation from the rule table (`campaign_rules.schema.catalogue()` and
`campaign_rules._rules.table`), its row and its gates, the text of each decision it cites from
`docs/decisions.md`, the source of every function and class of the package its check calls
(`campaign_rules._export.check_code`), and the cases that prove it from `tests/cases/<id>.json`.
Two more pages: the reader every rule reads the body through, and the constraint vocabulary.
Three index pages lead to them: by spec section (the catalogue), by decision and by error key.

The pages are written into `docs/rules/` (ignored by git) when the builder starts, and only
when their text changed, so that an incremental build rebuilds what changed.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from campaign_rules._export import check_code, sources
from campaign_rules._export.catalogue import _OTHER_HEADER, OTHER_CHECKS, _escape_cell
from campaign_rules._export.clauses import Clause, cited_clauses, clauses
from campaign_rules._export.trace import decision_clauses
from campaign_rules._rules import table
from campaign_rules._rules.keywords import VOCABULARY
from campaign_rules.schema import RuleInfo, catalogue

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = ROOT / "docs" / "decisions.md"
CASES = ROOT / "tests" / "cases"
SOURCE = ROOT / "src"
OUT = "rules"


def slugify(text: str) -> str:
    """The anchor of a heading, as GitHub makes it; the site's MyST uses the same function."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def decisions() -> dict[str, tuple[str, str]]:
    """Every decision of `docs/decisions.md` by id: its heading and its text."""
    return sources.decisions(DECISIONS.read_text(encoding="utf-8"))


# The decisions a rule's source cites, in order (`campaign_rules._export.sources`).
cited_decisions = sources.cited_decisions


def _clause_order(clause_id: str) -> int:
    return [clause.id for clause in clauses()].index(clause_id)


def _clause_link(clause: Clause) -> str:
    return f"{{ref}}`spec {clause.id} <{clause.anchor}>`"


def table_rules() -> dict[str, table.Rule[Any]]:
    """Every rule of every table in `_rules/table.py` by id, found by type."""
    return {
        rule.id: rule
        for value in vars(table).values()
        if isinstance(value, tuple)
        for rule in value
        if isinstance(rule, table.Rule)
    }


def _fence(text: str, language: str) -> str:
    ticks = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`+", text))])
    return f"{ticks}{language}\n{text}\n{ticks}"


def _code(text: str) -> str:
    ticks = "``" if "`" in text else "`"
    return f"{ticks}{text}{ticks}"


def _case_input(case: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in case.items() if k not in {"title", "violations", "xfail"}}


def _render_case(case: dict[str, Any]) -> Iterator[str]:
    yield f"#### {case['title']}"
    yield ""
    if "xfail" in case:
        yield f"A known defect of the library, expected to fail until it is fixed: {case['xfail']}"
        yield ""
    given = _case_input(case)
    try:  # NaN and infinities are not JSON: shown as Python writes them, not highlighted
        json.dumps(given, allow_nan=False)
        language = "json"
    except ValueError:
        language = "text"
    yield _fence(json.dumps(given, indent=2, ensure_ascii=False), language)
    yield ""
    if case["violations"]:
        yield "| rule | error key | field |"
        yield "|---|---|---|"
        for rule_id, key, field in case["violations"]:
            field_text = "(none)" if field is None else _code(field)
            yield f"| {{doc}}`{rule_id}` | `{key}` | {field_text} |"
    else:
        yield "No violation: accepted."
    yield ""


def rule_page(info: RuleInfo, rule: table.Rule[Any], known: dict[str, tuple[str, str]]) -> str:
    """The page of one rule."""
    lines = [
        f"# {info.id}",
        "",
        info.summary,
        "",
        "| | |",
        "|---|---|",
        f"| Rule id | `{info.id}` |",
        f"| Error key | {{ref}}`{info.key.value} <key-{info.key.value}>` |",
        f"| HTTP status | {info.status} |",
        f"| Stage | {info.stage} |",
        f"| Citation | {info.source} |",
        "",
    ]
    lines += _enforced_clauses(info, known)
    cited = cited_decisions(info.source)
    if cited:
        lines += ["## The decisions it rests on", ""]
        for name in cited:
            heading, text = known[name]
            lines += [
                f"### {heading}",
                "",
                f"From [the decisions](../decisions.md#{slugify(heading)}).",
                "",
                text,
                "",
            ]
    lines += _row_and_gates(rule)
    lines += _code_section(rule)
    case_path = CASES / f"{info.id}.json"
    lines += ["## The cases that prove it", ""]
    document = json.loads(case_path.read_text(encoding="utf-8"))
    lines += [
        f"From `tests/cases/{info.id}.json`, which cites: {document['cites']}",
        "",
        "Each case builds one input and gives the exact violations it must yield, in order; "
        "`tests/test_cases.py` runs them all. `base` names a valid body of `tests/support.py` "
        "(or of `tests/response_support.py` for a response), changed by `set` and `drop`.",
        "",
    ]
    accepted = [case for case in document["cases"] if not case["violations"]]
    refused = [case for case in document["cases"] if case["violations"]]
    for title, cases in (("Accepted", accepted), ("Refused", refused)):
        lines += [f"### {title} ({len(cases)})", ""]
        for case in cases:
            lines += _render_case(case)
        if not cases:
            lines += ["None.", ""]
    return "\n".join(lines)


def _row_and_gates(rule: table.Rule[Any]) -> list[str]:
    """The rule's row, when it is one, and every gate of its verdict (`Rule.gates`)."""
    lines: list[str] = []
    if rule.constraint is not None:
        pointers = ", ".join(_code(pointer) for pointer in rule.pointers)
        constraint = json.dumps(rule.constraint, ensure_ascii=False)
        lines += [
            "## The row",
            "",
            "A row of the rule table, with no function of its own: each value at its pointers "
            "(RFC 6901, `*` for each item or window) is judged by the keyword checks of its "
            "constraint ({doc}`constraints`); a value one refuses is reported at its path, "
            "with the message below after the path.",
            "",
            "| | |",
            "|---|---|",
            f"| Pointers | {pointers} |",
            f"| Constraint | {_code(constraint)} |",
            f"| Message | {_code('<path> ' + rule.says)} |",
            "",
        ]
    lines += ["## Its gates", ""]
    if rule.gates:
        lines += ["What its verdict depends on besides the value it judges:", ""]
        for gate in rule.gates:
            owner = f" ({{doc}}`{gate.rule}`)" if gate.rule else ""
            lines.append(f"- {gate.kind}: {gate.says}{owner}")
        if not rule.when.always:
            lines += [
                "",
                f"It runs on a body where {rule.when.says_facts()}: the facts it reads in, "
                "as its row declares them (`When`), are in its code below.",
            ]
    else:
        lines.append("None: it reads its whole subject.")
    return [*lines, ""]


def _code_section(rule: table.Rule[Any]) -> list[str]:
    """The source of every function and class of the package its verdict runs, to the reader."""
    pieces, readers = check_code.code_of(rule)
    lines = [
        "## The code",
        "",
        "Every function and class of the package its check calls"
        + (
            ", and each fact its gate tests that is declared as data (a `MemberIs` of the "
            "object reading, on the reader's page: the payload's member at a pointer is a "
            "given JSON value)"
            if any(piece.declaration for piece in pieces)
            else ""
        )
        + ", in the order they are met"
        + (
            "; it reads the body through the reader's "
            + ", ".join(f"[`{name}`](reader.md#{slugify(name)})" for name in readers)
            + " ({doc}`reader`)."
            if readers
            else "."
        ),
        "",
    ]
    for piece in pieces:
        lines += [
            f"`{piece.name}` in `{piece.path}`:",
            "",
            # Set a little smaller (site.css): a line of the source's 100 columns fits the page.
            _fence(f":class: rule-source\n\n{piece.source}", "{code-block} python"),
            "",
        ]
    return lines


def reader_page() -> str:
    """The reader's page: its documented functions, then the generic runner and plan."""
    from campaign_rules._rules import reader

    lines = [
        "# The reader",
        "",
        "How every creation rule, and every keyword check of a row, reads a value of the "
        "decoded body: `campaign_rules._rules.reader`. A rule's page links here for each of "
        "these it calls. The generic machinery every rule runs through, the runner, the "
        "plan of the rows and the object reading (each object of the body read against its "
        "declared shape, and the payload's members a row on the payload reads), is shown "
        "once, at the end, not on each rule's page.",
        "",
    ]
    for name in reader.__all__:
        function = getattr(reader, name)
        module = function.__module__
        path = SOURCE.joinpath(*module.split(".")).with_suffix(".py")
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                lines += [
                    f"## {name}",
                    "",
                    f"In `{path.relative_to(ROOT)}`:",
                    "",
                    _fence(
                        f":class: rule-source\n\n{ast.get_source_segment(text, node)}",
                        "{code-block} python",
                    ),
                    "",
                ]
    for title, module in (
        ("runner", "_rules/runner"),
        ("plan", "_rules/plan"),
        ("object reading", "_core/object_reading"),
    ):
        path = SOURCE / "campaign_rules" / f"{module}.py"
        lines += [
            f"## The {title}, once for every rule",
            "",
            f"`{path.relative_to(ROOT)}`:",
            "",
            _fence(
                f":class: rule-source\n\n{path.read_text(encoding='utf-8').strip()}",
                "{code-block} python",
            ),
            "",
        ]
    return "\n".join(lines)


def constraints_page() -> str:
    """The constraint vocabulary of the rows, and how the JSON Schema export says each."""
    lines = [
        "# The constraint vocabulary",
        "",
        "A row of the rule table states what a value must be as a constraint: JSON Schema's "
        "keywords where the meaning is exactly the same, and the library's own, named as such, "
        "where it is not. As in JSON Schema, a keyword judges values of its own JSON type "
        "only, and passes any other: a value of another type is the type rule's "
        "(`payload.members_have_json_types`), which the row's gates name. Generated from "
        "`campaign_rules._rules.keywords.VOCABULARY`. The JSON Schema export uses no `format` "
        "(D-json-schema): a library keyword is exported as the `pattern` or `enum` below.",
        "",
        "| keyword | judges | whose | meaning | exported to JSON Schema as |",
        "|---|---|---|---|---|",
    ]
    for info in VOCABULARY:
        whose = "JSON Schema" if info.standard else "the library"
        lines.append(
            f"| `{info.name}` | {info.json_type} | {whose} | {_escape_cell(info.meaning)} "
            f"| {_escape_cell(info.exported)} |"
        )
    return "\n".join([*lines, ""])


def _enforced_clauses(info: RuleInfo, known: dict[str, tuple[str, str]]) -> list[str]:
    """The section that shows the clauses a rule enforces, or those its decisions settle."""
    by_id = {clause.id: clause for clause in clauses()}
    cited = [by_id[clause_id] for clause_id in cited_clauses(info.source) if clause_id in by_id]
    lines = ["## The clause it enforces", ""]
    if not cited:
        settled = decision_clauses(catalogue(), known)
        through = [
            (name, by_id[clause_id])
            for name in cited_decisions(info.source)
            for clause_id in settled.get(name, [])
            if clause_id in by_id
        ]
        lines += [
            "It cites no clause of the spec: it enforces a decision, which settles what these "
            "clauses leave open.",
            "",
            *(
                f"- {_clause_link(clause)} ({by_id[clause.section].title}), through {name}"
                for name, clause in through
            ),
            "",
        ]
        return lines
    for clause in cited:
        section = by_id[clause.section]
        if clause.rule is None:
            lines += [f"- {_clause_link(clause)}: {section.title}"]
        else:
            lines += [f"- {_clause_link(clause)} ({section.title}): {clause.text}"]
    return [*lines, ""]


def _rule_list(ids: Iterable[str], by_id: dict[str, RuleInfo]) -> list[str]:
    lines = ["| rule | error key | requires |", "|---|---|---|"]
    for rule_id in ids:
        info = by_id[rule_id]
        key = info.key.value
        lines.append(f"| {{doc}}`{rule_id}` | {{ref}}`{key} <key-{key}>` | {info.summary} |")
    return [*lines, ""]


def index_page(infos: tuple[RuleInfo, ...]) -> str:
    """The catalogue: every rule, grouped by the spec section it cites."""
    by_id = {info.id: info for info in infos}
    by_clause: dict[str, list[str]] = defaultdict(list)
    unsectioned: list[str] = []
    for info in infos:
        cited = cited_clauses(info.source)
        for clause_id in cited:
            by_clause[clause_id].append(info.id)
        if not cited:
            unsectioned.append(info.id)
    spec = {clause.id: clause for clause in clauses()}
    by_clause = {clause_id: ids for clause_id, ids in by_clause.items() if clause_id in spec}
    lines = [
        "# The rules",
        "",
        f"Every rule the library runs, {len(infos)} in all, generated from the rule table "
        "(`src/campaign_rules/_rules/table.py`) when this site is built, grouped by the clause "
        "of {doc}`the spec <../spec>` it cites: a section, or one of its numbered rules. A rule "
        "that cites several clauses is listed under each; {doc}`../traceability` lists every "
        "clause, those that need no rule too. Each rule's page shows "
        "its error key, status and citation, the text of the decisions it rests on, its code, "
        "and the cases that prove it.",
        "",
        "Stages: `create` rules run offline on every creation body and on every merged update; "
        "`lookup` rules run when a `Directory` is given; `update` rules run on the change; "
        "`response` rules run on every response body a `parse_*` function reads, after the "
        "`error` rules for an error body; `request` rules check path parameters and headers; "
        "`lifecycle` rules check a status change; `idempotency` rules judge a request's "
        "fingerprint and its `Idempotency-Key`; `rate` rules judge a request's rate. "
        "The same catalogue, as a table, is the output of `campaign-rules rules`.",
        "",
        "Other ways in: {doc}`by-decision` and {doc}`by-key`. How a rule reads the body: "
        "{doc}`reader`; what a row's constraint can say: {doc}`constraints`.",
        "",
        "```{toctree}",
        ":hidden:",
        "",
        "by-decision",
        "by-key",
        "reader",
        "constraints",
        *(info.id for info in infos),
        "```",
        "",
    ]
    for clause_id in sorted(by_clause, key=_clause_order):
        clause = spec[clause_id]
        title = spec[clause.section].title
        heading = f"Spec {clause_id}" + ("" if clause.rule is None else f" ({title})")
        lead = title if clause.rule is None else clause.text
        lines += [f"## {heading}", "", f"{_clause_link(clause)}: {lead}", ""]
        lines += _rule_list(by_clause[clause_id], by_id)
    lines += [_OTHER_HEADER.strip(), ""]
    lines += [f"| {' | '.join(map(_escape_cell, check.row()))} |" for check in OTHER_CHECKS]
    lines.append("")
    if unsectioned:
        lines += [
            "## Rules that rest on a decision only",
            "",
            "Points the spec leaves open, which the library settles (see {doc}`by-decision`).",
            "",
            *_rule_list(unsectioned, by_id),
        ]
    return "\n".join(lines)


def decision_index(infos: tuple[RuleInfo, ...], known: dict[str, tuple[str, str]]) -> str:
    """From each decision to the rules that cite it."""
    by_id = {info.id: info for info in infos}
    citing: dict[str, list[str]] = defaultdict(list)
    for info in infos:
        for name in cited_decisions(info.source):
            citing[name].append(info.id)
    lines = [
        "# Rules by decision",
        "",
        "Each decision of {doc}`../decisions` that a rule cites, with the rules that cite it. "
        "Decisions that no rule cites settle how the library behaves elsewhere.",
        "",
    ]
    for name, (heading, _) in known.items():
        lines += [f"## {heading}", ""]
        lines += [f"[Read the decision](../decisions.md#{slugify(heading)}).", ""]
        if citing[name]:
            lines += _rule_list(citing[name], by_id)
        else:
            lines += ["No rule cites it.", ""]
    return "\n".join(lines)


def key_index(infos: tuple[RuleInfo, ...]) -> str:
    """From each error key to the rules that give it."""
    by_id = {info.id: info for info in infos}
    giving: dict[str, list[str]] = defaultdict(list)
    for info in infos:
        giving[info.key.value].append(info.id)
    lines = [
        "# Rules by error key",
        "",
        "Each error key of the service's spec (section 7.2) that a rule gives, with its HTTP "
        "status and the rules that give it.",
        "",
    ]
    for key in sorted(giving):
        status = by_id[giving[key][0]].status
        lines += [f"(key-{key})=", f"## `{key}` ({status})", "", *_rule_list(giving[key], by_id)]
    return "\n".join(lines)


def pages() -> dict[str, str]:
    """Every generated page, by its path under `rules/`."""
    infos = catalogue()
    known = decisions()
    rules = table_rules()
    generated = {
        "index.md": index_page(infos),
        "by-decision.md": decision_index(infos, known),
        "by-key.md": key_index(infos),
        "reader.md": reader_page(),
        "constraints.md": constraints_page(),
    }
    for info in infos:
        generated[f"{info.id}.md"] = rule_page(info, rules[info.id], known)
    return generated


def write_pages(app: Sphinx) -> None:
    """Write the pages into the source directory, each only when its text changed."""
    out = Path(app.srcdir) / OUT
    out.mkdir(exist_ok=True)
    generated = pages()
    for stale in out.glob("*.md"):
        if stale.name not in generated:
            stale.unlink()
    for name, text in generated.items():
        path = out / name
        # A lone surrogate (a hostile case) cannot be written as UTF-8: it stays escaped.
        text = re.sub("[\ud800-\udfff]", lambda match: f"\\u{ord(match.group()):04x}", text)
        text += "\n"
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generator with Sphinx."""
    app.connect("builder-inited", write_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
