"""What the runner calls of the plan of the rows: methods of native classes, not callables.

Compiled, a function held in an attribute is called through Python's calling convention (its
arguments packed, then parsed again by the function), where a method of a class mypyc compiles
is called as C. The runner calls every rule made with a function the first way, and the plan of
the rows (`_rules.plan.RowCheck`, `_rules.plan.MemberRun`) the second, through these bases.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from campaign_rules._core.violations import Finding

__all__ = ["RowJudge", "RunSkip"]

Subject = TypeVar("Subject")


class RowJudge(Generic[Subject]):
    """The check of a row: `judge` appends to `findings` what the row finds in `subject`."""

    def judge(self, subject: Subject, findings: list[Finding]) -> None:
        """Append the row's findings in `subject` to `findings`."""
        raise NotImplementedError


class RunSkip(Generic[Subject]):
    """Consecutive rows judged together: `clean_rows` tells how many of the first find nothing."""

    def clean_rows(self, subject: Subject) -> int:
        """How many of the run's first rows find nothing in `subject`."""
        raise NotImplementedError
