"""`_rules.runner`: findings become violations with the table's key and id, in table order.

The runner gives the violation it made last of a rule again when the rule finds the very same
field and message objects (`Rule.last_made`); these tests hold it to giving exactly what a new
violation would be, whatever the rule finds in between.
"""

from __future__ import annotations

from campaign_rules import ErrorKey, Violation, validate_create
from campaign_rules._core.violations import Finding
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
