"""The catalogue is generated from the rule table, and every rule cites where it comes from."""

import ast
import re
from pathlib import Path

from campaign_rules._core.limits import RETRIES
from campaign_rules._export.catalogue import render_markdown
from campaign_rules.schema import catalogue

DOCS = Path(__file__).parent.parent / "docs"
RULES = Path(__file__).parent.parent / "src" / "campaign_rules" / "_rules"


def test_rule_ids_are_unique():
    ids = [info.id for info in catalogue()]
    assert len(ids) == len(set(ids))


def test_every_rule_has_a_summary_and_a_source():
    for info in catalogue():
        assert info.summary.endswith("."), info.id
        assert re.search(r"spec \d|D-[a-z-]+", info.source), info.id


def rule_functions():
    """Each rule function, module and docstring, read from the source (compiled code has none)."""
    for path in sorted(RULES.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                yield path.stem, node.name, ast.get_docstring(node) or ""


def bound_numbers():
    """Every number `_core.limits` fixes (but 0 and 1, which say nothing on their own)."""
    from campaign_rules._core import limits

    numbers = set()
    for value in vars(limits).values():
        if isinstance(value, limits.Bounds):
            numbers |= {value.low, value.high}
        elif isinstance(value, range):
            numbers |= {value.start, value.stop - 1}
        elif isinstance(value, int) and not isinstance(value, bool):
            numbers.add(value)
    return numbers - {0, 1}


def test_the_summary_is_in_the_table_and_the_docstring_explains():
    # One fact, one place: the table cites the clause and states the bound; a docstring that
    # did too would drift from it.
    tabled = {rule.check.__name__ for rule in function_rules()}
    citation = re.compile(r"\bspec \d|\bD-[a-z]|\bRFC \d")
    bounds = bound_numbers()
    for module, name, doc in rule_functions():
        if name not in tabled:
            continue
        assert doc, f"_rules/{module}.py: {name} has no docstring"
        assert not citation.search(doc), f"_rules/{module}.py: {name} cites a clause: {doc!r}"
        spelt = {int(number) for number in re.findall(r"\b\d+\b", doc)} & bounds
        assert not spelt, f"_rules/{module}.py: {name} spells a bound {spelt}: {doc!r}"


def normalised(text):
    """Lower case, with every run of characters other than letters and digits one space."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def enumerations():
    """The wire values of every enumeration the rules read, by the enumeration's name."""
    import enum

    from campaign_rules._core import enums
    from campaign_rules._server.lifecycle import CampaignAction

    classes = [value for value in vars(enums).values() if isinstance(value, type)]
    return {
        cls.__name__: {str(member.value) for member in cls}
        for cls in [*classes, CampaignAction]
        if issubclass(cls, enum.Enum) and cls is not enum.Enum and len(cls) > 1
    }


def restated_values(doc, values):
    """The values of one enumeration that `doc` spells as words."""
    return {value for value in values if re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", doc)}


def test_a_rule_docstring_says_how_it_reads_not_what_the_table_says():
    # The table's summary says what the rule requires; the docstring says how the rule reads
    # the body (its guard, what it leaves to other rules, where it reports), not the same again.
    summaries = {rule.check.__name__: rule.summary for rule in function_rules()}
    modules = {
        rule.check.__name__: rule.check.__module__.rsplit(".", 1)[1] for rule in function_rules()
    }
    values = enumerations()
    assert values.keys() >= {"IntegrationType", "CyclesMode", "CampaignStatus", "CampaignAction"}
    for module, name, doc in rule_functions():
        if modules.get(name) != module:
            continue
        assert normalised(summaries[name]) not in normalised(doc), (
            f"_rules/{module}.py: {name} copies the table's summary: {doc!r}"
        )
        for enumeration, spelt in values.items():
            found = restated_values(doc, spelt)
            assert len(found) < 2, f"_rules/{module}.py: {name} spells {enumeration}: {found}"


def test_a_restated_summary_or_enumeration_is_found():
    assert normalised("The request body is a JSON object.") in normalised(
        "The request body is a `JSON` object; reports at the root."
    )
    spelt = enumerations()["CampaignAction"]
    assert restated_values("The action is activate, pause, resume or archive.", spelt) == spelt
    assert len(restated_values("Runs in `cooldown` mode; see `cycles.mode`.", spelt)) < 2


def test_a_rule_module_cites_only_clauses_of_the_table():
    sources = " ".join(rule.source for rule in every_rule())
    tabled = set(re.findall(r"D-[a-z-]+[a-z]", sources))
    sections = set(re.findall(r"\d+(?:\.\d+)?", sources))
    for path in sorted(RULES.glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert set(re.findall(r"D-[a-z-]+[a-z]", doc)) <= tabled, path.name
        for cited in re.findall(r"spec ([\d., and-]+)", doc):
            assert set(re.findall(r"\d+(?:\.\d+)?", cited)) <= sections, (path.name, cited)


def test_a_rule_id_names_its_function():
    # `channel.fields_match_integration_type` is `channel_fields_match_integration_type`;
    # `lookup.agent_exists` is `agent_exists`.
    for rule in function_rules():
        assert rule.id.replace(".", "_").endswith(rule.check.__name__), rule.id


def test_a_row_has_no_function_of_its_own():
    # Issue 38: a row's check is made of its pointers and its constraint, by the plan.
    from campaign_rules._rules.plan import RowCheck

    rows = [rule for rule in every_rule() if rule.constraint is not None]
    assert len(rows) >= 14
    for rule in rows:
        assert isinstance(rule.check.__self__, RowCheck), rule.id
        assert rule.pointers, rule.id
        assert rule.says, rule.id


def test_a_docstring_test_can_fail():
    citation_and_bound = f'"""`retries` is {RETRIES.describe()} (spec 2.1, 8)."""'
    assert re.search(r"\bspec \d", citation_and_bound)
    assert RETRIES.high in bound_numbers()


def test_every_decision_a_rule_cites_is_on_the_decisions_page():
    headings = set(re.findall(r"^## (D-[a-z-]+):", (DOCS / "decisions.md").read_text(), re.M))
    cited = {d for info in catalogue() for d in re.findall(r"D-[a-z-]+", info.source)}
    assert cited
    assert cited <= headings, cited - headings


def test_rules_are_listed_stage_by_stage():
    stages = [info.stage for info in catalogue()]
    in_order = list(dict.fromkeys(stages))
    assert in_order[:4] == ["body", "create", "lookup", "update"]
    assert stages == sorted(stages, key=in_order.index)


def every_rule():
    """Every rule of every table in `_rules/table.py`, found by type, so none is forgotten."""
    from campaign_rules._rules import table

    return [
        rule
        for value in vars(table).values()
        if isinstance(value, tuple)
        for rule in value
        if isinstance(rule, table.Rule)
    ]


def function_rules():
    """Every rule of the table that has a function of its own (not a row)."""
    return [rule for rule in every_rule() if rule.constraint is None]


def test_the_catalogue_lists_every_rule_of_the_table():
    assert sorted(info.id for info in catalogue()) == sorted(rule.id for rule in every_rule())


def test_every_rule_has_a_case_file_and_a_test_class_named_after_it():
    # The rule pages of the site (docs/_ext/rule_pages.py) show this path from a rule to its proof.
    # A row has no function: its class is named after the end of its id, in one of the test
    # modules of the rules (`retries.within_bounds`: `TestRetriesWithinBounds`).
    tests = Path(__file__).parent
    every_module = "".join(
        path.read_text(encoding="utf-8") for path in sorted(tests.glob("test_rules_*.py"))
    )
    for rule in every_rule():
        assert (tests / "cases" / f"{rule.id}.json").is_file(), rule.id
        if rule.constraint is not None:
            words = rule.id.replace(".", "_").split("_")
            named = [
                "Test" + "".join(word.capitalize() for word in words[start:])
                for start in range(len(words) - 1)
            ]
            assert any(f"class {name}:" in every_module for name in named), (rule.id, named)
            continue
        module = rule.check.__module__.rsplit(".", 1)[1]
        test_class = "Test" + "".join(word.capitalize() for word in rule.check.__name__.split("_"))
        source = (tests / f"test_rules_{module}.py").read_text(encoding="utf-8")
        assert f"class {test_class}" in source, (rule.id, test_class)


def test_every_decision_the_rules_page_cites_is_on_the_decisions_page():
    headings = set(re.findall(r"^## (D-[a-z-]+):", (DOCS / "decisions.md").read_text(), re.M))
    cited = set(re.findall(r"D-[a-z]+(?:-[a-z]+)*", render_markdown()))
    assert {"D-rate-limit", "D-idempotency", "D-authorization"} <= cited
    assert cited <= headings, cited - headings


def test_the_state_checks_report_rules_of_the_table():
    # Their violations come from the rule table, so the catalogue lists their ids and keys.
    from campaign_rules.idempotency import (
        IdempotencyRecord,
        decide_idempotency,
        request_fingerprint,
    )
    from campaign_rules.rate import RateLimiter

    limiter = RateLimiter(burst=1)
    limiter.acquire("k", 0)
    other = IdempotencyRecord(fingerprint="a", status=201, body={}, stored_at=0.0)
    produced = [
        limiter.acquire("k", 0).violations[0],
        limiter.acquire(None, 0).violations[0],
        limiter.acquire("k", 0.0).violations[0],
        request_fingerprint(float("nan")).violations[0],
        decide_idempotency(None, None, 0).violations[0],
        decide_idempotency(other, "b", 0).violations[0],
    ]
    listed = {info.id: info.key for info in catalogue()}
    assert [violation.rule for violation in produced] == [
        "rate.within_rate_limit",
        "rate.key_is_usable",
        "rate.clock_reading_is_usable",
        "idempotency.body_is_plain_json",
        "idempotency.arguments_are_usable",
        "idempotency.same_request_for_key",
    ]
    for violation in produced:
        assert listed[violation.rule] is violation.key, violation.rule
