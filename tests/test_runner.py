"""`_rules.runner`: findings become violations with the table's key and id, in table order.

The runner gives a violation it made again for a ready finding (`Finding.ready`, made once at
import) of the same rule, and makes a new one of any other finding; these tests hold it to
giving exactly what a new violation would be, whatever the rule finds in between, and to giving
each rule its own violation of a finding two rules share.
"""

from __future__ import annotations

from campaign_rules import ErrorKey, Violation, validate_create
from campaign_rules._core.findings import ReadyFindings, ready
from campaign_rules._core.violations import Finding
from campaign_rules._rules import table
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import Rule
from tests.support import payload


def _rule(found: list[Finding], id: str = "test.rule") -> Rule[object]:
    """A rule that finds, on each run, the next of `found`."""
    queue = list(found)

    def check(subject: object, findings: list[Finding]) -> None:
        findings.append(queue.pop(0))

    return Rule(id, ErrorKey.INVALID_REQUEST, "a test", "A test rule.", check)


def _made(field: str | None, message: str, rule: str = "test.rule") -> Violation:
    return Violation(ErrorKey.INVALID_REQUEST, field, message, rule)


def test_a_finding_made_anew_makes_a_new_equal_violation() -> None:
    field, message = "name", "name is wrong"
    rule = _rule([Finding(field, message), Finding(field, message)])
    first, second = run_rules(None, (rule,)), run_rules(None, (rule,))
    assert first == second == (_made(field, message),)
    assert first[0] is not second[0]


def test_a_ready_finding_gives_the_violation_made_of_it_whatever_came_between() -> None:
    first = ready("a", "one")
    found = [first, Finding("b", "two"), ready("a", "three"), Finding("a", "one"), first]
    rule = _rule(found)
    made = [run_rules(None, (rule,))[0] for _ in found]
    assert made == [_made(each.field, each.message) for each in found]
    assert made[4] is made[0]
    assert made[3] is not made[0]


def test_a_ready_finding_two_rules_give_carries_each_rule_s_own_id() -> None:
    shared = ready("name", "name is wrong")
    rule_a, rule_b = _rule([shared, shared], "one.rule_a"), _rule([shared, shared], "one.rule_b")
    for _ in range(2):
        assert run_rules(None, (rule_a, rule_b)) == (
            _made("name", "name is wrong", "one.rule_a"),
            _made("name", "name is wrong", "one.rule_b"),
        )


def test_a_constant_message_of_the_table_is_given_again_across_payloads() -> None:
    # `agent_id.is_uuid_v4` says one constant sentence at one constant field.
    bad = [payload("phone_call", agent_id=f"not-a-uuid-{index}") for index in range(2)]
    first, second = (validate_create(body).violations for body in bad)
    assert first == second
    assert [v.rule for v in first] == ["agent_id.is_uuid_v4"]
    assert first[0] is second[0]


def test_ready_findings_are_made_once_for_each_member_listed() -> None:
    said = ReadyFindings(
        lambda path, parent: f"{path} is wrong in {parent}",
        [("scheduling.mon", "startTime"), (None, "name")],
    )
    first = said.at("scheduling.mon", "startTime")
    assert (first.field, first.message, first.ready) == (
        "scheduling.mon.startTime",
        "scheduling.mon.startTime is wrong in scheduling.mon",
        True,
    )
    assert said.at("scheduling.mon", "startTime") is first
    at_the_root = said.at(None, "name")
    assert (at_the_root.field, at_the_root.message) == ("name", "name is wrong in None")
    # A member not listed: a new finding each time, never kept.
    other = said.at("scheduling.tue", "startTime")
    assert (other.field, other.message, other.ready) == (
        "scheduling.tue.startTime",
        "scheduling.tue.startTime is wrong in scheduling.tue",
        False,
    )
    assert said.at("scheduling.tue", "startTime") is not other


def test_a_ready_finding_of_the_table_gives_one_violation_across_payloads() -> None:
    # `payload.required_members_present` gives a ready finding for each absent member.
    bodies = [payload("phone_call", name=f"campaign {index}") for index in range(2)]
    for body in bodies:
        del body["agent_id"]
    first, second = (validate_create(body).violations for body in bodies)
    assert first == second
    assert [v.rule for v in first] == ["payload.required_members_present"]
    assert first[0] is second[0]


def test_each_check_is_listed_once() -> None:
    # Every rule is a function listed once in the table.
    rules = [
        rule
        for value in vars(table).values()
        if isinstance(value, tuple)
        for rule in value
        if isinstance(rule, Rule)
    ]
    assert len(rules) > 50
    assert len({id(rule.check) for rule in rules}) == len(rules)
