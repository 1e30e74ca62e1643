"""The facts a row names decide what runs, and nothing else does (issues 30 and 38).

Each row says in which bodies its rule reads (`_rules.scope.When`, named by a `Scope`); the
runner derives from those facts
alone which rules run for a body (`_rules.validation`). A rule that could run for no body is
refused when the table is made; the rows of every other table read their whole subject.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import COMPILED
from campaign_rules import strategies as cs
from campaign_rules._campaign.document import Document
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.limits import COOLDOWN_MODE, CYCLES_ENABLED
from campaign_rules._core.violations import Finding
from campaign_rules._rules import scope, table, validation
from campaign_rules._rules.plan import RowCheck
from campaign_rules._rules.scope import (
    ENABLED_BLOCK,
    FACT_TESTS,
    FACTS_INDEXES,
    POSSIBLE_FACTS,
    Scope,
    When,
    facts_of,
    windows_in_force,
)
from campaign_rules._rules.table import CREATE_RULES, LOOKUP_RULES, Rule
from tests import strategies_support as parts
from tests.property import strategies as s
from tests.support import DROP, FakeDirectory, payload

WINDOW = {"startTime": "09:00", "stopTime": "17:00", "active": True}


def _nothing(subject: object, findings: list[Finding]) -> None:
    """A rule that finds nothing."""


# The facts each scope names, as the rows of the body's tables name them.
WHEN = {rule.scope: rule.when for rule in (*CREATE_RULES, *LOOKUP_RULES)}


def reads_in(each: Scope, facts: int) -> bool:
    """Whether the rules whose facts `each` names run on a body of `facts`."""
    return WHEN[each].reads_in(facts)


def test_every_scope_is_read_for_some_body() -> None:
    for each in Scope:
        assert any(reads_in(each, facts) for facts in POSSIBLE_FACTS), each


def test_every_rule_of_a_body_s_table_runs_for_some_body() -> None:
    for rules, derived in (
        (CREATE_RULES, validation._CREATE_RULES_BY_FACTS),
        (LOOKUP_RULES, validation._LOOKUP_RULES_BY_FACTS),
    ):
        ran = {rule.id for facts in POSSIBLE_FACTS for rule in derived[facts]}
        assert ran == {rule.id for rule in rules}


def test_the_rows_of_every_other_table_read_their_whole_subject() -> None:
    tables = [
        value
        for value in vars(table).values()
        if isinstance(value, tuple) and value and isinstance(value[0], Rule)
    ]
    assert len(tables) > 5
    for rules in tables:
        if rules in (CREATE_RULES, LOOKUP_RULES):
            continue
        for rule in rules:
            assert rule.scope is Scope.SUBJECT, rule.id


def test_a_rule_that_could_run_for_no_body_is_refused() -> None:
    rule = Rule("cycles.x", ErrorKey.INVALID_REQUEST, "a test", "A test rule.", _nothing)
    table._check_scopes((rule,))  # type: ignore[arg-type]
    needs = scope._NEEDS[Scope.WINDOWS]
    # A scope naming the cooldown mode of a block that is not enabled: no body has it.
    scope._NEEDS[Scope.WINDOWS] = (scope._COOLDOWN_MODE, scope._CYCLES_ENABLED)
    try:
        rule.when = When(COOLDOWN_MODE, unless=(CYCLES_ENABLED,))
        with pytest.raises(ValueError, match=r"cycles\.x reads"):
            table._check_scopes((rule,))  # type: ignore[arg-type]
    finally:
        scope._NEEDS[Scope.WINDOWS] = needs


def test_a_rule_names_facts_a_scope_names() -> None:
    assert When(CYCLES_ENABLED, COOLDOWN_MODE).scope is Scope.COOLDOWN_CYCLES
    assert When(CYCLES_ENABLED, unless=(COOLDOWN_MODE,)).scope is Scope.SCHEDULED_CYCLES
    assert When().scope is Scope.SUBJECT
    # The mode alone, or a fact no body has: no scope names them, and the table is refused.
    with pytest.raises(ValueError, match="no scope names the facts `/cycles/mode` is"):
        When(COOLDOWN_MODE)
    with pytest.raises(ValueError, match="is no fact"):
        When(("/cycles/enabled", False))
    # A fact is its member and its value, of its type: `1 == True`, but `1` is no boolean.
    # Compiled, the fact's declared type refuses it first, as a `TypeError`; pure, `When` does.
    refused, said = (TypeError, None) if COMPILED else (ValueError, "is no fact")
    with pytest.raises(refused, match=said):
        When(("/cycles/enabled", 1))
    # An equal tuple is the fact (the compiled build makes a final tuple anew where it is read).
    assert When(("/cycles/enabled", True)).scope is Scope.ENABLED_CYCLES


def test_a_rule_s_facts_are_in_one_order_whatever_the_row_s() -> None:
    assert When(COOLDOWN_MODE, CYCLES_ENABLED).needs == (CYCLES_ENABLED, COOLDOWN_MODE)
    assert When(COOLDOWN_MODE, CYCLES_ENABLED).says() == When(CYCLES_ENABLED, COOLDOWN_MODE).says()


def test_a_rule_s_facts_are_said_by_their_pointers_and_values() -> None:
    assert When(CYCLES_ENABLED, unless=(COOLDOWN_MODE,)).says() == (
        f"{Scope.SCHEDULED_CYCLES.value}: `/cycles/enabled` is `true` and `/cycles/mode` is not"
        ' `"cooldown"`'
    )
    assert When(windows_in_force).says_facts() == "`windows_in_force` holds"
    assert When().says() == Scope.SUBJECT.value


def test_the_id_decides_nothing() -> None:
    # A rule named `cycles.` that reads the whole body runs on a body without cycles; one named
    # otherwise that reads an enabled block does not.
    anywhere = Rule("cycles.anywhere", ErrorKey.INVALID_REQUEST, "a test", "A rule.", _nothing)
    in_block = Rule(
        "name.in_block",
        ErrorKey.INVALID_REQUEST,
        "a test",
        "A rule.",
        _nothing,
        When(CYCLES_ENABLED),
    )
    derived = validation._by_facts((anywhere, in_block))  # type: ignore[arg-type]
    without_cycles = derived[facts_of(Document(payload("phone_call")))]
    assert without_cycles == (anywhere,)


def test_the_facts_of_a_body() -> None:
    cooldown = {"enabled": True, "mode": "cooldown", "max_iterations": 2, "cooldown_minutes": 60}
    scheduled = {"enabled": True, "mode": "scheduled", "max_iterations": 2}
    for cycles, has, lacks in (
        (cooldown, Scope.COOLDOWN_CYCLES, Scope.SCHEDULED_CYCLES),
        (scheduled, Scope.SCHEDULED_CYCLES, Scope.COOLDOWN_CYCLES),
    ):
        facts = facts_of(Document(payload("phone_call", cycles=cycles)))
        assert reads_in(Scope.ENABLED_CYCLES, facts)
        assert reads_in(has, facts)
        assert not reads_in(lacks, facts)
    disabled = facts_of(Document(payload("phone_call", cycles={"enabled": False})))
    assert not reads_in(Scope.ENABLED_CYCLES, disabled)
    no_windows = facts_of(Document(payload("phone_call", scheduling=DROP)))
    assert not reads_in(Scope.WINDOWS, no_windows)
    with_window = facts_of(Document(payload("phone_call", scheduling={"mon": WINDOW})))
    assert reads_in(Scope.WINDOWS, with_window)
    assert not reads_in(Scope.UNCLEAN_SITES, with_window)
    assert not reads_in(Scope.DIRECTORY, with_window)
    assert reads_in(Scope.UNCLEAN_SITES, facts_of(Document([])))
    assert reads_in(Scope.UNCLEAN_SITES, facts_of(Document(payload("phone_call", colour="red"))))


def test_a_directory_is_the_look_ups_fact() -> None:
    doc = Document(payload("phone_call"), FakeDirectory())
    assert reads_in(Scope.DIRECTORY, facts_of(doc))
    assert validation._LOOKUP_RULES_BY_FACTS[facts_of(doc)] == LOOKUP_RULES
    assert validation._LOOKUP_RULES_BY_FACTS[facts_of(Document(payload("phone_call")))] == ()


@pytest.mark.parametrize(
    "body",
    [
        payload("phone_call"),
        payload("phone_call", cycles={"enabled": True, "mode": "cooldown", "max_iterations": 2}),
        payload("phone_call", cycles={"enabled": True, "mode": "scheduled", "max_iterations": 2}),
        payload("phone_call", cycles={"enabled": False}, scheduling=DROP),
        payload("phone_call", cycles={"enabled": False, "mode": "cooldown"}),
        payload("phone_call", colour="red"),
        payload("phone_call", scheduling={"mon": WINDOW}),
        [],
    ],
)
@pytest.mark.parametrize("directory", [None, FakeDirectory()])
def test_the_facts_are_the_answers_of_their_tests(body: object, directory: object) -> None:
    # `facts_of` calls each fact's test by name; `FACT_TESTS`, which a row's `check` and
    # `When.tests` read, must name the same test for each fact.
    # It asks the mode of an enabled block only, which every rule reads the same way.
    doc = Document(body, directory)  # type: ignore[arg-type]
    told = sum(bit for bit, test in FACT_TESTS.items() if test(doc))
    if ENABLED_BLOCK.holds(doc):
        assert facts_of(doc) == told
    else:
        assert facts_of(doc) == told & ~scope._COOLDOWN_MODE
    assert facts_of(doc) in POSSIBLE_FACTS
    assert [reads_in(each, facts_of(doc)) for each in Scope] == [
        reads_in(each, told) for each in Scope
    ]
    assert sorted(FACT_TESTS) == [1 << shift for shift in range(FACTS_INDEXES.bit_length() - 1)]


def test_a_rule_of_any_table_shows_its_scope_as_a_gate() -> None:
    # `rules --json` and a rule's page list `Rule.gates`: a look-up, which runs only with a
    # directory, said it read its whole subject before its scope was given as its gate.
    tables = [value for name, value in vars(table).items() if name.endswith("_RULES")]
    for rule in (rule for rules in tables for rule in rules):
        scope_gates = [gate.says for gate in rule.gates if gate.kind == "scope"]
        # A row on the cycles block that reads in bodies whose block may not be enabled tests it.
        if isinstance(rule.row, RowCheck) and rule.row.tests_block:
            assert scope_gates.pop() == table._BLOCK_NOT_ENABLED, rule.id
        if rule.scope is Scope.SUBJECT:
            assert scope_gates == [], rule.id
        else:
            assert scope_gates == [rule.when.says()], rule.id
            assert scope_gates[0].startswith(f"{rule.scope.value}: `"), rule.id
    assert all(rule.gates for rule in LOOKUP_RULES)


@given(st.one_of(cs.create_payloads(), s.hostile_payloads, s.spliced_payloads(), parts.json_like))
def test_the_cycles_facts_and_the_cycles_state_read_one_declaration(wire: object) -> None:
    # `_core.limits` declares the two facts once: the rows name them of the payload, the
    # cycles state of the block, and the two agree on any body.
    doc = Document(wire)
    enabled, cooldown = FACT_TESTS[scope._CYCLES_ENABLED], FACT_TESTS[scope._COOLDOWN_MODE]
    assert enabled(doc) is (doc.cycles.block is not None)
    assert (enabled(doc) and cooldown(doc)) is doc.cycles.in_cooldown_mode


@pytest.mark.parametrize(
    ("cycles", "enabled", "cooldown"),
    [
        ({"enabled": True, "mode": "cooldown"}, True, True),
        ({"enabled": True, "mode": "scheduled"}, True, False),
        ({"enabled": True}, True, False),
        ({"enabled": False, "mode": "cooldown"}, False, True),
        ({"enabled": 1, "mode": "cooldown"}, False, True),
        ({"mode": "cooldown"}, False, True),
        ({"enabled": "true", "mode": "COOLDOWN"}, False, False),
        ([{"enabled": True, "mode": "cooldown"}], False, False),
    ],
)
def test_each_cycles_fact_is_its_member_s_value(
    cycles: object, enabled: bool, cooldown: bool
) -> None:
    doc = Document(payload("phone_call", cycles=cycles))
    assert FACT_TESTS[scope._CYCLES_ENABLED](doc) is enabled
    assert FACT_TESTS[scope._COOLDOWN_MODE](doc) is cooldown
    # The rules of the cooldown mode need both facts.
    assert reads_in(Scope.COOLDOWN_CYCLES, facts_of(doc)) is (enabled and cooldown)


def test_a_row_on_the_cycles_block_reads_it_only_when_it_is_enabled() -> None:
    # spec 2.4 rule 2: reading in bodies whose block may not be enabled, the row tests it first;
    # reading in those with an enabled block only, the runner has tested it already.
    row = table._row(
        "cycles.x",
        ErrorKey.INVALID_REQUEST,
        "a test",
        "A test rule.",
        ("/cycles/mode",),
        {"minLength": 1},
        "must not be empty",
    )
    table._plan_rows((row,))
    assert isinstance(row.row, RowCheck)
    assert row.row.tests_block
    assert [gate.says for gate in row.gates if gate.kind == "scope"] == [table._BLOCK_NOT_ENABLED]
    for enabled, fields in ((True, ["cycles.mode"]), (False, []), ("true", [])):
        body = Document(payload("phone_call", cycles={"enabled": enabled, "mode": ""}))
        findings: list[Finding] = []
        row.check(body, findings)
        assert [finding.field for finding in findings] == fields, enabled
    # Nor is it judged in a run of rows on one member each, which reads the block as it is.
    assert row.row.member_parent is None
    row.when = When(CYCLES_ENABLED, unless=(COOLDOWN_MODE,))
    row.gates = ()
    table._plan_rows((row,))
    assert isinstance(row.row, RowCheck)
    assert not row.row.tests_block
    findings = []
    row.check(Document(payload("phone_call", cycles={"enabled": True, "mode": ""})), findings)
    assert [finding.field for finding in findings] == ["cycles.mode"]


def test_a_scoped_row_s_code_shows_the_facts_its_gate_tests_as_declared() -> None:
    from campaign_rules._export.check_code import code_of

    rule = next(rule for rule in CREATE_RULES if rule.id == "cycles.cooldown_mode_has_no_schedule")
    pieces, _ = code_of(rule)
    declared = {(piece.module, piece.name): piece.source for piece in pieces if piece.declaration}
    assert declared[("campaign_rules._core.limits", "CYCLES_ENABLED")].startswith("CYCLES_ENABLED")
    assert '"/cycles/mode"' in declared[("campaign_rules._core.limits", "COOLDOWN_MODE")]
    names = [piece.name for piece in pieces]
    # The facts after the keyword's check, and the mode's enumeration after its fact; no test
    # of the package's own reads them but the object reading's (`MemberIs`).
    assert names.index("NullType") < names.index("CYCLES_ENABLED") < names.index("COOLDOWN_MODE")
    assert names.index("COOLDOWN_MODE") < names.index("CyclesMode")
    assert not any(piece.module == "campaign_rules._rules.scope" for piece in pieces)
    # A fact no member holds is shown by its test.
    windows = next(rule for rule in CREATE_RULES if rule.id == "schedule.window_starts_before_stop")
    assert "windows_in_force" in [piece.name for piece in code_of(windows)[0]]
    unscoped = next(rule for rule in CREATE_RULES if rule.id == "retries.within_bounds")
    assert not any(piece.declaration for piece in code_of(unscoped)[0])
