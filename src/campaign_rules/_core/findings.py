"""What a rule finds: where, and what.

In a module of its own, apart from the public attrs `Violation` (`_core.violations`), so that
the compiled build can compile the one and leave the other as it is (setup.py says which):
made by compiled rules, a `Finding` is then a native class, built and read without a Python
call (D-compiled-build).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.json import member_path

__all__ = ["Finding", "PathThen", "ReadyFindings", "places", "ready"]


# Compiled, a rule makes a `Finding` for each defect and the runner frees it once made into a
# `Violation`: it holds only strings, so no cycle, and the one last freed is kept for the next.
@mypyc_attr(acyclic=True, free_list_len=1)
class Finding:
    """One defect as a rule reports it: where, and what, in a short sentence.

    A rule appends findings to a list; the runner adds the error key and the rule id from the
    rule table, so that what the catalogue says of a rule is what its violations carry.
    `pointer` is the member's JSON Pointer when the rule gives it (a member the payload named:
    `_core.pointers.member_pointer`), else `None`: the runner makes it of `field`. `ready`
    says that the finding is made once, when its module is imported (`ready`), and given each
    time the rule finds that defect: the runner may then give again the violation it made of
    it for that rule (`_rules.runner`). Never changed once made.
    """

    __slots__ = ("field", "message", "pointer", "ready")

    def __init__(
        self, field: str | None, message: str, pointer: str | None = None, ready: bool = False
    ) -> None:
        self.field = field
        self.message = message
        self.pointer = pointer
        self.ready = ready

    def __repr__(self) -> str:
        return f"Finding({self.field!r}, {self.message!r})"


def ready(field: str | None, message: str) -> Finding:
    """A finding made once, at import, that a rule gives each time it finds that defect."""
    return Finding(field, message, None, True)


class ReadyFindings:
    """One rule's findings of one sentence at the members the library names, each made at import.

    `say(path, parent)` makes the message of the member at `path` of the object at `parent`;
    `places` lists each member, as a pair of its parent's path (`None`: the payload) and its
    name: every member the rule can report (a name of a spec's shape, under an object's path as
    the reading spells it), never a name the payload chose. Made once, never changed: `at` gives
    the ready finding of a member listed, and a new finding of any other.
    """

    __slots__ = ("_at", "_say")

    def __init__(
        self, say: Callable[[str, str | None], str], places: Iterable[tuple[str | None, str]]
    ) -> None:
        self._say = say
        self._at: dict[str | None, dict[str, Finding]] = {}
        for parent, name in places:
            path = member_path(parent, name)
            self._at.setdefault(parent, {})[name] = ready(path, say(path, parent))

    def at(self, parent: str | None, name: str) -> Finding:
        """The finding at member `name` of the object at `parent` (`None`: the payload)."""
        by_name = self._at.get(parent)
        if by_name is not None:
            found = by_name.get(name)
            if found is not None:
                return found
        path = member_path(parent, name)
        return Finding(path, self._say(path, parent))


def places(parents: Iterable[str | None], names: Iterable[str]) -> list[tuple[str | None, str]]:
    """Each of `names` under each of `parents`, as `ReadyFindings` lists its members."""
    listed = tuple(names)
    return [(parent, name) for parent in parents for name in listed]


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
