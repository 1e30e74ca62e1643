"""From each clause of the spec to what answers it: its rules, decisions and cases, or why none.

The documentation site's traceability page (`traceability.html`) is drawn from `trace()`, and a
test fails when a clause is neither enforced by a rule or a check outside the rule table,
settled by a decision, proved by a case file nor explained in `NO_RULE_NEEDED`. A rule enforces
the clauses its citation names, and so does a check outside the rule table
(`catalogue.OTHER_CHECKS`: `parse_authorization`, whose answer is no error key); a decision
settles the clauses its text cites, and those that a rule or such a check cites beside it; a
case file proves the clauses its `cites` names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from campaign_rules._export.catalogue import OTHER_CHECKS, OtherCheck, RuleInfo
from campaign_rules._export.clauses import Clause, cited_clauses, cited_in_text
from campaign_rules._export.sources import cited_decisions

__all__ = ["NO_RULE_NEEDED", "ClauseTrace", "decision_clauses", "trace"]

# Why a clause that no rule enforces, no decision settles and no case proves needs none, by
# clause id. Written once, here; the traceability page shows it.
NO_RULE_NEEDED: Final[Mapping[str, str]] = {
    "1": "A description of the service: it states what the service does, and constrains no "
    "request or response.",
    "2": "A heading: its subsections 2.1 to 2.6 hold the resources and their fields.",
    "2.4 rule 1": "A permission: a body without `cycles` is valid, so there is nothing to "
    "refuse; every case of a valid body without `cycles` shows it accepted.",
    "4": "A heading: its subsections 4.1 to 4.3 hold the endpoints.",
    "4.1 rule 5": "A cross-reference: the cycles rules of 2.4 apply, and the rules that "
    "enforce 2.4 and its numbered rules run on every creation body.",
    "6": "Events, webhooks and notifications are not shown: there is nothing to check.",
    "7": "A heading: its subsections 7.1 to 7.4 hold the errors.",
}


@attrs.frozen
class ClauseTrace:
    """One clause and what answers it; `reason` is `NO_RULE_NEEDED`'s, when it has one.

    `checks` are the checks outside the rule table that enforce it (`catalogue.OTHER_CHECKS`).
    """

    clause: Clause
    rules: tuple[str, ...]
    decisions: tuple[str, ...]
    cases: tuple[str, ...]
    reason: str | None
    checks: tuple[OtherCheck, ...] = ()

    @property
    def answered(self) -> bool:
        """Whether it is enforced, settled, proved or explained."""
        return bool(self.rules or self.checks or self.decisions or self.cases or self.reason)


def decision_clauses(
    infos: Iterable[RuleInfo | OtherCheck], known: Mapping[str, tuple[str, str]]
) -> dict[str, list[str]]:
    """The clauses each decision settles: those its text cites, then those rules cite beside it.

    `infos` are the rules, and the checks outside the rule table, whose citations are read.
    """
    settled = {name: cited_in_text(text) for name, (_, text) in known.items()}
    for info in infos:
        beside = cited_clauses(info.source)
        for name in cited_decisions(info.source):
            settled.setdefault(name, [])
            settled[name] += [clause for clause in beside if clause not in settled[name]]
    return settled


def trace(
    spec: Iterable[Clause],
    infos: Iterable[RuleInfo],
    known: Mapping[str, tuple[str, str]],
    case_cites: Mapping[str, str],
    others: Iterable[OtherCheck] = OTHER_CHECKS,
) -> tuple[ClauseTrace, ...]:
    """Every clause of `spec` with its rules (`infos`), decisions (`known`) and case files.

    `case_cites` maps each case file's name (its rule id) to its `cites`; `others` are the
    checks outside the rule table.
    """
    infos, others = tuple(infos), tuple(others)
    settled = decision_clauses((*infos, *others), known)
    traces = []
    for clause in spec:
        rules = tuple(info.id for info in infos if clause.id in cited_clauses(info.source))
        checks = tuple(check for check in others if clause.id in cited_clauses(check.source))
        decisions = tuple(name for name in known if clause.id in settled.get(name, ()))
        cases = tuple(
            name for name, cites in case_cites.items() if clause.id in cited_clauses(cites)
        )
        answered = rules or checks or decisions or cases
        reason = None if answered else NO_RULE_NEEDED.get(clause.id)
        traces.append(ClauseTrace(clause, rules, decisions, cases, reason, checks))
    return tuple(traces)
