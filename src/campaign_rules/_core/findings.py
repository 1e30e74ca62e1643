"""What a rule finds: where, and what.

In a module of its own, apart from the public attrs `Violation` (`_core.violations`), so that
the compiled build can compile the one and leave the other as it is (setup.py says which):
made by compiled rules, a `Finding` is then a native class, built and read without a Python
call (D-compiled-build).
"""

from __future__ import annotations

from collections.abc import Callable

from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.json import member_path

__all__ = ["Finding", "PathThen", "ReadyFindings"]


# Compiled, a rule makes a `Finding` for each defect and the runner frees it once made into a
# `Violation`: without the collector's bookkeeping (it holds two strings and a violation made
# of them, so no cycle), and remade from the one last freed, allocation and freeing cost about
# 250 fewer instructions.
@mypyc_attr(acyclic=True, free_list_len=1)
class Finding:
    """One defect as a rule reports it: where, and what, in a short sentence.

    A rule appends findings to a list; the runner adds the error key and the rule id from the
    rule table, so that what the catalogue says of a rule is what its violations carry.
    `made` is the violation the runner made of it (`None` until then), which it gives again
    for this finding (`_rules.runner`); typed `object`, since `_core.violations` imports this
    module. `pointer` is the member's JSON Pointer when the rule gives it (a member the payload
    named: `_core.pointers.member_pointer`), else `None`: the runner makes it of `field`.
    """

    __slots__ = ("field", "made", "message", "pointer")

    def __init__(self, field: str | None, message: str, pointer: str | None = None) -> None:
        self.field = field
        self.message = message
        self.pointer = pointer
        self.made: object = None

    def __repr__(self) -> str:
        return f"Finding({self.field!r}, {self.message!r})"


class ReadyFindings:
    """One rule's findings of one sentence, at members of the payload's objects, each made once.

    `say(path, parent)` makes the message of the member at `path` of the object at `parent`.
    The rule gives the same finding each time it finds that defect there, so no path, message
    or finding is made again, and the runner gives the violation it made of it again
    (`Finding.made`): a finding is given by one rule only, whose key and id its violation holds.
    Compiled, that is about 400 instructions a violation (the two look-ups here most of them)
    where making the path, the message, the finding and a violation took about 2,500
    (callgrind, issue 22).

    Filled on first use, and only ever asked for a member the library names (a name of a
    shape, under an object's path as the `Document` spells it), never for a name the payload
    chose: it holds at most one finding for each member the spec's shapes list.
    """

    __slots__ = ("_at", "_say")

    def __init__(self, say: Callable[[str, str | None], str]) -> None:
        self._say = say
        self._at: dict[str | None, dict[str, Finding]] = {}

    def at(self, parent: str | None, name: str) -> Finding:
        """The finding at member `name` of the object at `parent` (`None`: the payload)."""
        by_name = self._at.get(parent)
        if by_name is None:
            by_name = self._at[parent] = {}
        found = by_name.get(name)
        if found is None:
            path = member_path(parent, name)
            found = by_name[name] = Finding(path, self._say(path, parent))
        return found


class PathThen:
    """A sentence for `ReadyFindings`: the member's path, then `predicate` ("is required").

    The form of most of the rules' sentences, said once here; a sentence that names more than
    the member's own path is a function of its own (`_rules.schedule`). A value rather than a
    closure, so that a table of them made at import is plain data.
    """

    __slots__ = ("predicate",)

    def __init__(self, predicate: str) -> None:
        self.predicate = predicate

    def __call__(self, path: str, parent: str | None) -> str:
        """The sentence said of the member at `path` of the object at `parent`."""
        return f"{path} {self.predicate}"
