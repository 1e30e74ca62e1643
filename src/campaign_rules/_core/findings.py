"""What a rule finds: where, and what.

In a module of its own, apart from the public attrs `Violation` (`_core.violations`), so that
the compiled build can compile the one and leave the other as it is (setup.py says which):
made by compiled rules, a `Finding` is then a native class, built and read without a Python
call (D-compiled-build).
"""

from __future__ import annotations

from campaign_rules._core.compiled import mypyc_attr

__all__ = ["Finding"]


# Compiled, a rule makes a `Finding` for each defect and the runner frees it once made into a
# `Violation`: without the collector's bookkeeping (it holds two strings, so no cycle), and
# remade from the one last freed, allocation and freeing cost about 250 fewer instructions.
@mypyc_attr(acyclic=True, free_list_len=1)
class Finding:
    """One defect as a rule reports it: where, and what, in a short sentence.

    A rule appends findings to a list; the runner adds the error key and the rule id from the
    rule table, so that what the catalogue says of a rule is what its violations carry.
    """

    __slots__ = ("field", "message")

    def __init__(self, field: str | None, message: str) -> None:
        self.field = field
        self.message = message

    def __repr__(self) -> str:
        return f"Finding({self.field!r}, {self.message!r})"
