"""Running a table of rules over a subject: the one place findings become violations."""

from __future__ import annotations

from typing import cast

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
    for rule in rules:
        rule.check(subject, findings)
        if findings:
            for finding in findings:
                found.append(_violation_of(rule, finding))
                # `cap` narrowed to an `int`: compiled, a native comparison, not a generic one.
                if cap is not None and len(found) == cap:
                    return True
            findings.clear()
    return False


def _violation_of(rule: Rule[Subject], finding: Finding) -> Violation:
    """The violation `finding` of `rule` says: one made before, when it says the very same.

    A violation is a frozen value, so one made before is given again, as equal as a new one,
    where making one takes about 1,100 instructions compiled (callgrind, issue 22): the one made
    of this very finding (`Finding.made`: a ready finding a rule gives each time it finds that
    defect), else the one made of the rule's last finding (`Rule.last_made`) when that held the
    very same field, message and pointer objects (a rule whose message is a constant). Equal
    strings that are not the same objects make a new violation.
    """
    made = finding.made
    if made is not None:
        return cast("Violation", made)  # what this function put there
    last = rule.last_made
    if (
        last is not None
        and last.field is finding.field
        and last.message is finding.message
        and last.pointer is finding.pointer
    ):
        made = last.made
    if made is None:
        # A rule gives the pointer of a member the payload named; the library's own names
        # make theirs of the field path.
        pointer = finding.pointer
        if pointer is None:
            pointer = pointer_of_path(finding.field)
        made = violation(rule.key, finding.field, finding.message, rule.id, pointer)
    # The finding itself is the record of what the violation was made of, kept in place of a
    # record made for it (about 190 instructions, and its freeing, callgrind); it holds its
    # violation before it is published, one reference replaced at once, so a thread reading
    # the rule's last finding sees it whole.
    finding.made = made
    rule.last_made = finding
    return cast("Violation", made)


def run_rules(
    subject: Subject, rules: tuple[Rule[Subject], ...], cap: int | None = None
) -> tuple[Violation, ...]:
    """The violations of `rules` by `subject`, in table order, at most `cap` of them."""
    found: list[Violation] = []
    collect_violations(subject, rules, found, cap)
    return tuple(found)
