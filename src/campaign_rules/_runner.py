"""Running a table of rules over a subject: the one place findings become violations."""

from __future__ import annotations

from collections.abc import Iterator

from campaign_rules._violations import Violation
from campaign_rules.rules.table import Rule, Subject

__all__ = ["run_rules"]


def run_rules(subject: Subject, rules: tuple[Rule[Subject], ...]) -> Iterator[Violation]:
    """Every violation of `rules` by `subject`, in table order, made from each rule's findings.

    The key and the rule id come from the table, so a violation says what the catalogue says.
    """
    for rule in rules:
        for finding in rule.check(subject):
            yield Violation(rule.key, finding.field, finding.message, rule.id)
