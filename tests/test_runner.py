"""`_rules.runner`: findings become violations with the table's key and id, in table order.

The runner gives a violation it made again: the one made of the very same finding (a ready one,
`Finding.made`), or the one made of the rule's last finding when the rule finds the very same
field and message objects (`Rule.last_made`); these tests hold it to giving exactly what a new
violation would be, whatever the rule finds in between.
"""

from __future__ import annotations

from campaign_rules import ErrorKey, Violation, validate_create
from campaign_rules._core.findings import ReadyFindings
from campaign_rules._core.violations import Finding
from campaign_rules._rules import table
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import Rule
from tests.support import payload


def _rule(found: list[tuple[str | None, str]]) -> Rule[object]:
    """A rule that finds, on each run, the next of `found`."""
    queue = list(found)

    def check(subject: object, findings: list[Finding]) -> None:
        field, message = queue.pop(0)
        findings.append(Finding(field, message))

    return Rule("test.rule", ErrorKey.INVALID_REQUEST, "a test", "A test rule.", check)


def _made(field: str | None, message: str) -> Violation:
    return Violation(ErrorKey.INVALID_REQUEST, field, message, "test.rule")


def test_the_same_finding_gives_the_violation_made_last() -> None:
    field, message = "name", "name is wrong"
    rule = _rule([(field, message), (field, message)])
    first, second = run_rules(None, (rule,)), run_rules(None, (rule,))
    assert first == second == (_made(field, message),)
    assert first[0] is second[0]


def test_another_finding_in_between_is_not_confused_with_it() -> None:
    found = [("a", "one"), ("a", "two"), ("b", "one"), (None, "one"), ("a", "one")]
    rule = _rule(found)
    assert [run_rules(None, (rule,)) for _ in found] == [(_made(*each),) for each in found]


def test_equal_strings_that_are_other_objects_make_a_new_equal_violation() -> None:
    message = "".join(["name ", "is wrong"])
    again = "".join(["name is", " wrong"])
    assert message == again
    assert message is not again
    rule = _rule([("name", message), ("name", again)])
    first, second = run_rules(None, (rule,)), run_rules(None, (rule,))
    assert first == second == (_made("name", message),)
    assert first[0] is not second[0]
    assert second[0].message is again


def test_a_constant_message_of_the_table_is_given_again_across_payloads() -> None:
    # `agent_id.is_uuid_v4` says one constant sentence at one constant field.
    bad = [payload("phone_call", agent_id=f"not-a-uuid-{index}") for index in range(2)]
    first, second = (validate_create(body).violations for body in bad)
    assert first == second
    assert [v.rule for v in first] == ["agent_id.is_uuid_v4"]
    assert first[0] is second[0]


def test_a_ready_finding_gives_the_violation_made_of_it_whatever_came_between() -> None:
    ready = Finding("a", "one")
    queue: list[Finding] = [ready, Finding("b", "two"), Finding("a", "three"), ready]

    def check(subject: object, findings: list[Finding]) -> None:
        findings.append(queue.pop(0))

    rule = Rule("test.rule", ErrorKey.INVALID_REQUEST, "a test", "A test rule.", check)
    made = [run_rules(None, (rule,))[0] for _ in range(4)]
    assert made == [_made("a", "one"), _made("b", "two"), _made("a", "three"), _made("a", "one")]
    assert made[3] is made[0] is ready.made


def test_ready_findings_are_made_once_for_each_member() -> None:
    said = ReadyFindings(lambda path, parent: f"{path} is wrong in {parent}")
    first = said.at("scheduling.mon", "startTime")
    assert (first.field, first.message) == (
        "scheduling.mon.startTime",
        "scheduling.mon.startTime is wrong in scheduling.mon",
    )
    assert said.at("scheduling.mon", "startTime") is first
    assert said.at("scheduling.tue", "startTime") is not first
    at_the_root = said.at(None, "name")
    assert (at_the_root.field, at_the_root.message) == ("name", "name is wrong in None")


def test_a_ready_finding_of_the_table_gives_one_violation_across_payloads() -> None:
    # `payload.required_members_present` gives a ready finding for each absent member.
    bodies = [payload("phone_call", name=f"campaign {index}") for index in range(2)]
    for body in bodies:
        del body["agent_id"]
    first, second = (validate_create(body).violations for body in bodies)
    assert first == second
    assert [v.rule for v in first] == ["payload.required_members_present"]
    assert first[0] is second[0]


def test_each_check_is_listed_once_so_its_ready_findings_are_one_rule_s() -> None:
    # The violation kept on a ready finding holds the key and the id of the rule that gave it.
    rules = [
        rule
        for value in vars(table).values()
        if isinstance(value, tuple)
        for rule in value
        if isinstance(rule, Rule)
    ]
    assert len(rules) > 50
    assert len({id(rule.check) for rule in rules}) == len(rules)
