"""The rows of the rule table (issue 38): declared, not duplicated, and their numbers from limits.

A row judges the values at its pointers by the keyword checks of its constraint
(`_rules.keywords`). Two rows that judge the same pointer and both refuse one value say the same
thing twice, under two ids and two messages: a maintainer who re-adds a rule under a new name
(`{"minLength": 1}` beside `name.not_blank`) is told here, unless one row defers to the other
(its gates say that the other owns that value), or the facts they read in never meet (cooldown
mode and the other modes). The values tried are made of the constraints'
own arguments, so a bound is tried at and beside its edge.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import strategies as cs
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.sites import CAMPAIGN
from campaign_rules._core import limits
from campaign_rules._core.timezones import timezone_names
from campaign_rules._core.violations import Finding
from campaign_rules._rules.keywords import VOCABULARY, ItemsUnique, constraint_check, keyword_checks
from campaign_rules._rules.plan import split_pointer
from campaign_rules._rules.scope import POSSIBLE_FACTS
from campaign_rules._rules.table import BODY_RULES, CREATE_RULES, Rule
from tests import strategies_support as parts
from tests.property import strategies as s
from tests.support import payload

ROWS = [rule for rule in CREATE_RULES if rule.constraint is not None]
UUID = "3f1c2a7e-9b4d-4c8e-a1f2-0d9e8c7b6a5f"


def probes(constraint: Mapping[str, object]) -> list[object]:
    """Values that try `constraint` at and beside each of its arguments, and of every type."""
    values: list[object] = [None, True, 1.5, {}, [], "", " ", "\t\n", "x", "12:00", "24:00"]
    values += ["2024-02-29", "2023-02-29", UUID, UUID.upper(), "Europe/Paris", "Not/A_Zone"]
    values += [["a", "a"], [""], [1], ["a", "b"]]
    for argument in constraint.values():
        if type(argument) is int:
            for number in (argument - 1, argument, argument + 1):
                values += [number, "x" * max(number, 0), " " * max(number, 0)]
                values.append(["a"] * min(max(number, 0), 1000))
        elif isinstance(argument, list):
            values += [*argument, *(f"{value}x" for value in argument)]
    return values


def refuses(constraint: Mapping[str, object], value: object) -> bool:
    """Whether a row of `constraint` refuses `value` (a repeat, for `itemsUnique`)."""
    if any(isinstance(check, ItemsUnique) for check in keyword_checks(constraint)):
        strings = [item for item in value if type(item) is str] if type(value) is list else []
        return len(strings) != len(set(strings))
    return constraint_check(constraint).refuses(value)


def defers(one: Rule[Any], other: Rule[Any]) -> bool:
    return other.id in one.defers_to or one.id in other.defers_to


def meet(one: Rule[Any], other: Rule[Any]) -> bool:
    """Whether a body has the facts both rows read in (their `When`, `_rules.scope`)."""
    return any(one.when.reads_in(facts) and other.when.reads_in(facts) for facts in POSSIBLE_FACTS)


def overlaps(rows: list[Rule[Any]]) -> list[tuple[str, str, str, object]]:
    """Each pair of rows on one pointer that both refuse a value, with the pointer and value."""
    found = []
    for one, other in itertools.combinations(rows, 2):
        if defers(one, other) or not meet(one, other):
            continue
        one_constraint, other_constraint = one.constraint or {}, other.constraint or {}
        for pointer in set(one.pointers) & set(other.pointers):
            tried = probes(one_constraint) + probes(other_constraint)
            both = [
                value
                for value in tried
                if refuses(one_constraint, value) and refuses(other_constraint, value)
            ]
            if both:
                found.append((one.id, other.id, pointer, both[0]))
    return found


def test_no_two_rows_refuse_one_value_at_one_pointer() -> None:
    assert overlaps(ROWS) == []


@pytest.mark.parametrize(
    ("pointer", "constraint"),
    [
        ("/name", {"minLength": 1}),  # name.not_blank, re-added under a new name
        ("/retries", {"maximum": 10}),  # within retries.within_bounds
        ("/cycles/mode", {"enum": ["cooldown"]}),  # cycles.mode_is_known refuses the rest too
        ("/cycles/filter_tags", {"maxItems": 500}),  # cycles.filter_lists_within_max_items
    ],
)
def test_a_row_that_repeats_another_is_found(pointer: str, constraint: dict[str, object]) -> None:
    copy = Rule("copy.of_a_rule", ROWS[0].key, "D-rule-rows", "A copy.", ROWS[0].check)
    copy.pointers, copy.constraint = (pointer,), constraint
    found = overlaps([*ROWS, copy])
    assert found, (pointer, constraint)
    assert {entry[2] for entry in found} == {pointer}


def limit_numbers() -> set[int]:
    """Every number `_core.limits` fixes."""
    numbers: set[int] = set()
    for value in vars(limits).values():
        if isinstance(value, limits.Bounds):
            numbers |= {value.low, value.high}
        elif isinstance(value, int) and not isinstance(value, bool):
            numbers.add(value)
    return numbers


def test_every_number_of_a_row_comes_from_limits() -> None:
    # A bound changed in `_core.limits` changes the rows, the generated files and the oracle
    # tests only: no row writes a number of its own (1, "not empty", is no bound).
    for rule in ROWS:
        for keyword, argument in (rule.constraint or {}).items():
            if type(argument) is int and argument != 1:
                assert argument in limit_numbers(), (rule.id, keyword, argument)


def test_a_row_uses_the_vocabulary_only() -> None:
    vocabulary = {info.name for info in VOCABULARY}
    used = {keyword for rule in ROWS for keyword in rule.constraint or {}}
    assert used <= vocabulary
    assert len(ROWS) >= 14


def test_a_time_zone_is_judged_by_the_tzdata_names() -> None:
    zone = next(iter(sorted(timezone_names())))
    assert not constraint_check({"ianaZone": True}).refuses(zone)
    assert constraint_check({"ianaZone": True}).refuses("Not/A_Zone")


def test_the_members_the_type_rule_leaves_in_cooldown_mode_are_the_rows() -> None:
    # spec 2.4 rule 3, in one place: the row of cooldown mode owns these members' type, and
    # the shape scan of a block in cooldown mode leaves exactly them to it.
    from campaign_rules._campaign.sites import COOLDOWN_CYCLES
    from campaign_rules._rules.scope import Scope

    owned = [
        pointer.removeprefix("/cycles/")
        for rule in ROWS
        if rule.scope is Scope.COOLDOWN_CYCLES and (rule.constraint or {}).get("type") == "null"
        for pointer in rule.pointers
    ]
    assert tuple(owned) == COOLDOWN_CYCLES.left_to_others


def test_every_gate_names_a_rule_of_the_table() -> None:
    # A rule with a function may defer to a body rule, which judges a text before it.
    ids = {rule.id for rule in CREATE_RULES} | {rule.id for rule in BODY_RULES}
    for rule in CREATE_RULES:
        for gate in rule.gates:
            assert gate.kind in {"scope", "type", "defers_to"}, rule.id
            assert gate.rule is None or gate.rule in ids, (rule.id, gate)
    gates = {rule.id: [gate.says for gate in rule.gates] for rule in ROWS}
    stopped = gates["cycles.filter_items_are_non_empty_strings"]
    assert any("stops the reading" in says for says in stopped)
    assert any("not compared" in says for says in gates["cycles.filter_items_are_unique"])
    assert any("not judged here" in says for says in gates["name.not_blank"])


@pytest.mark.parametrize(
    "text", ["00:00", "23:59", "24:00", "9:00", "09:60", "0９:00", "09:00 ", "ab:cd", "", "12-00"]
)
def test_the_hh_mm_keyword_is_the_parser(text: str) -> None:
    # One `HH:MM` parser: the keyword judges by the texts `minute_of_day` accepts.
    from campaign_rules._core.formats import minute_of_day

    assert constraint_check({"hhMm": True}).refuses(text) is (minute_of_day(text) < 0)


def test_every_keyword_of_the_vocabulary_is_exported_to_json_schema() -> None:
    # docs/constraints.md says how each keyword is written; no keyword is left out but one
    # whose every row is a listed exception, and no library keyword is written as a `format`
    # (D-json-schema).
    from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS, _exported

    arguments: dict[str, object] = {"type": "string", "enum": ["a"]}
    for info in VOCABULARY:
        written = _exported(info.name, arguments.get(info.name, 1 if info.standard else True))
        users = {rule.id for rule in CREATE_RULES if info.name in (rule.constraint or {})}
        assert written or (users and users <= set(SCHEMA_EXCEPTIONS)), info.name
        assert written or info.exported.startswith("not exported"), info.name
        assert "format" not in written, info.name
        if not info.standard:
            assert info.name not in written, info.name


@pytest.mark.parametrize(
    "body",
    [
        payload(),
        payload("whatsapp"),
        payload(name=" ", retries=9, timezone="Mars/Base", agent_id="x"),
        payload(cycles={"enabled": True, "mode": "cooldown", "schedule": {}}),
        payload(scheduling={"mon": {"startTime": "25:00", "stopTime": 7, "active": True}}),
        [],
    ],
)
def test_the_runner_calls_each_row_by_its_plan_and_finds_what_its_check_finds(body: object) -> None:
    # The runner calls a row's plan as a native method (`Rule.row`), a function as a callable;
    # a row's `check` is the same plan, for a caller that holds a callable.
    document = Document(body)
    for rule in CREATE_RULES:
        if rule.constraint is None:
            assert rule.row is None, rule.id
            continue
        assert rule.row is getattr(rule.check, "__self__", None), rule.id
        by_plan: list[Finding] = []
        by_check: list[Finding] = []
        rule.row.judge(document, by_plan)
        rule.check(document, by_check)
        assert by_plan == by_check, rule.id


@given(st.one_of(cs.create_payloads(), s.hostile_payloads, s.spliced_payloads(), parts.json_like))
def test_a_row_reads_a_member_of_the_payload_at_its_place(body: object) -> None:
    # The plan reads a member of the payload at its place in the shape (`Payload.root_values`),
    # not by its name: the place it reads is the `Document`'s for that member, on any body.
    doc = Document(body)
    for rule in ROWS:
        for pointer in rule.pointers:
            parent, name, each_item = split_pointer(pointer)
            if parent == "" and not each_item:
                assert doc.root_values[CAMPAIGN.place(name)] is doc.root.get(name), pointer
