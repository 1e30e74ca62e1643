"""The catalogue is generated from the rule table, and every rule cites where it comes from."""

import re
from pathlib import Path

from campaign_rules import catalogue
from campaign_rules._export.catalogue import render_markdown

DOCS = Path(__file__).parent.parent / "docs"


def test_committed_rules_page_is_current():
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == render_markdown(), (
        "docs/rules.md is stale: run `campaign-rules rules > docs/rules.md`"
    )


def test_rule_ids_are_unique():
    ids = [info.id for info in catalogue()]
    assert len(ids) == len(set(ids))


def test_every_rule_has_a_summary_and_a_source():
    for info in catalogue():
        assert info.summary.endswith("."), info.id
        assert re.search(r"spec \d|D-[a-z-]+|api-contract", info.source), info.id


def test_every_rule_docstring_cites_its_clause():
    # An auditor reading a rule function sees the clause it enforces, not only the table.
    cited = re.compile(r"\([^()]*(spec \d|D-[a-z-]+|api-contract|RFC \d+)[^()]*\)\.$")
    for info in catalogue():
        assert cited.search(info.summary), (info.id, info.summary)


def test_every_decision_a_rule_cites_is_on_the_decisions_page():
    headings = set(re.findall(r"^## (D-[a-z-]+):", (DOCS / "decisions.md").read_text(), re.M))
    cited = {d for info in catalogue() for d in re.findall(r"D-[a-z-]+", info.source)}
    assert cited
    assert cited <= headings, cited - headings


def test_rules_are_listed_stage_by_stage():
    stages = [info.stage for info in catalogue()]
    in_order = list(dict.fromkeys(stages))
    assert in_order[:3] == ["create", "lookup", "update"]
    assert stages == sorted(stages, key=in_order.index)


def every_rule():
    """Every rule of every table in `rules/table.py`, found by type, so none is forgotten."""
    from campaign_rules.rules import table

    return [
        rule
        for value in vars(table).values()
        if isinstance(value, tuple)
        for rule in value
        if isinstance(rule, table.Rule)
    ]


def test_the_catalogue_lists_every_rule_of_the_table():
    assert sorted(info.id for info in catalogue()) == sorted(rule.id for rule in every_rule())


def test_every_rule_has_a_case_file_and_a_test_class_named_after_it():
    # docs/rules.md promises this path from a rule to its proof.
    tests = Path(__file__).parent
    for rule in every_rule():
        assert (tests / "cases" / f"{rule.id}.json").is_file(), rule.id
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
        "rate.within_limit",
        "rate.key_is_usable",
        "rate.clock_reading_is_usable",
        "idempotency.body_is_plain_json",
        "idempotency.arguments_are_usable",
        "idempotency.same_request_for_key",
    ]
    for violation in produced:
        assert listed[violation.rule] is violation.key, violation.rule
