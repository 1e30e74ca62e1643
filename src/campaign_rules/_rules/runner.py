"""Running a table of rules over a subject: the one place findings become violations."""

from __future__ import annotations

from typing import Final

from campaign_rules._core.construct import violation
from campaign_rules._core.pointers import pointer_of_path
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
    count = len(rules)
    index = 0
    while index < count:
        rule = rules[index]
        run_skip = rule.run_skip
        if run_skip is not None:
            # The first of a run of rows (`Rule.run`): its first rows that find nothing are
            # skipped, when `rules` holds them next, as the table does.
            clean = run_skip.clean_rows(subject)
            if clean and index + clean <= count and rules[index + clean - 1] is rule.run[clean - 1]:
                index += clean
                continue
        index += 1
        # A row's plan is called as a method of a native class; a function, as a callable.
        row = rule.row
        if row is not None:
            row.judge(subject, findings)
        else:
            rule.check(subject, findings)
        if findings:
            for finding in findings:
                found.append(_violation_of(rule, finding))
                # `cap` narrowed to an `int`: compiled, a native comparison, not a generic one.
                if cap is not None and len(found) == cap:
                    return True
            findings.clear()
    return False


# The violations made of ready findings (`Finding.ready`), for each rule that gave them: a
# violation is a frozen value, so the one made before is given again, as equal as a new one,
# and making one is most of what a finding costs. Keyed by the rule, then by the finding, so a
# finding two rules give makes a violation of each, with its own key and id. Bounded: rules
# are made at import, and ready findings too, never of a name the payload chose.
_MADE: Final[dict[object, dict[Finding, Violation]]] = {}


def _violation_of(rule: Rule[Subject], finding: Finding) -> Violation:
    """The violation `finding` of `rule` says: for a ready finding, the one made of it before."""
    if not finding.ready:
        return _new_violation(rule, finding)
    by_finding = _MADE.get(rule)
    if by_finding is None:
        by_finding = _MADE.setdefault(rule, {})
    made = by_finding.get(finding)
    if made is None:
        made = by_finding.setdefault(finding, _new_violation(rule, finding))
    return made


def _new_violation(rule: Rule[Subject], finding: Finding) -> Violation:
    """A new violation of `finding`, with the key and the id of `rule`."""
    # A rule gives the pointer of a member the payload named; the library's own names make
    # theirs of the field path.
    pointer = finding.pointer
    if pointer is None:
        pointer = pointer_of_path(finding.field)
    return violation(rule.key, finding.field, finding.message, rule.id, pointer)


def run_rules(
    subject: Subject, rules: tuple[Rule[Subject], ...], cap: int | None = None
) -> tuple[Violation, ...]:
    """The violations of `rules` by `subject`, in table order, at most `cap` of them."""
    found: list[Violation] = []
    collect_violations(subject, rules, found, cap)
    return tuple(found)
