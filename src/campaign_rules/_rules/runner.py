"""Running a table of rules over a subject: the one place findings become violations."""

from __future__ import annotations

from campaign_rules._core.construct import violation
from campaign_rules._core.violations import Finding, Violation
from campaign_rules._rules.table import Rule, Subject

__all__ = ["collect_violations", "run_rules"]


def collect_violations(
    subject: Subject,
    rules: tuple[Rule[Subject], ...],
    found: list[Violation],
    cap: int | None = None,
) -> bool:
    """Add the violations of `rules` by `subject` to `found`, in table order.

    The key and the id of each violation come from the rule table, the field and the message
    from the rule's finding, so a violation says what the catalogue says. Each rule appends its
    findings to a list (a plain call, which compiled costs a fraction of a generator's). With a
    `cap`, rules stop being run once `found` holds that many, and the findings of the rule that
    reached it are cut there (D-hostile-input); the answer is whether it does.
    """
    findings: list[Finding] = []
    for rule in rules:
        rule.check(subject, findings)
        if findings:
            for finding in findings:
                found.append(violation(rule.key, finding.field, finding.message, rule.id))
                # `cap` narrowed to an `int`: compiled, a native comparison, not a generic one.
                if cap is not None and len(found) == cap:
                    return True
            findings.clear()
    return False


def run_rules(
    subject: Subject, rules: tuple[Rule[Subject], ...], cap: int | None = None
) -> tuple[Violation, ...]:
    """The violations of `rules` by `subject`, in table order, at most `cap` of them."""
    found: list[Violation] = []
    collect_violations(subject, rules, found, cap)
    return tuple(found)
