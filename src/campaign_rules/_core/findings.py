"""What a rule finds: where, and what.

In a module of its own, apart from the public attrs `Violation` (`_core.violations`), so that
the compiled build can compile the one and leave the other as it is (setup.py says which):
made by compiled rules, a `Finding` is then a native class, built and read without a Python
call (D-compiled-build).
"""

from __future__ import annotations

__all__ = ["Finding"]


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
