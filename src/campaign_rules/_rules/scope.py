"""What a rule reads, as the rule table declares it, and the facts of a body that decide it.

Each row of the rule table says in which bodies its rule reads (`When`): the facts a body must
have, and those it must not. A rule runs on a body with those facts, and on no other: it would
find nothing there. A fact is a member of the payload holding a JSON value, declared as data in
`_core.limits` (`CYCLES_ENABLED`: `/cycles/enabled` is `true`) and told by the object reading
(`MemberIs`); or, for what no member says (whether every object in force is clean, whether a
window is in force, whether a directory is given), a test of its own. A body's facts are bits
(`facts_of`); the runner derives from the rows alone which rules run for each set of them
(`_rules.validation`). The facts a rule reads in are named by a `Scope`, which says them in
words; every other table's rows read their whole subject (`Scope.SUBJECT`, the default).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from typing import Final, TypeAlias

from campaign_rules._campaign.document import Document
from campaign_rules._core.limits import COOLDOWN_MODE, CYCLES_ENABLED
from campaign_rules._core.object_reading import MemberIs

__all__ = [
    "ALWAYS",
    "ENABLED_BLOCK",
    "FACTS",
    "FACTS_INDEXES",
    "FACT_TESTS",
    "MEMBER_TESTS",
    "POSSIBLE_FACTS",
    "Fact",
    "GateTests",
    "Scope",
    "When",
    "directory_given",
    "facts_of",
    "is_fact",
    "sites_not_clean",
    "windows_in_force",
]

# The facts of a document, one bit each.
_SITES_NOT_CLEAN: Final = 1
_CYCLES_ENABLED: Final = 2
_COOLDOWN_MODE: Final = 4
_WINDOWS: Final = 8
_DIRECTORY: Final = 16
# Every set of the five facts, as the index of a list.
FACTS_INDEXES: Final = 32


class Scope(enum.Enum):
    """The name of the facts a rule reads in; the value says them in words."""

    SUBJECT = "its whole subject"
    UNCLEAN_SITES = "the objects in force, when one of them is not clean (`Document.sites_clean`)"
    ENABLED_CYCLES = "an enabled cycles block (spec 2.4 rule 2)"
    COOLDOWN_CYCLES = "an enabled cycles block in cooldown mode (spec 2.4 rule 3)"
    SCHEDULED_CYCLES = "an enabled cycles block in a mode other than cooldown"
    WINDOWS = "the weekday windows in force (`Document.windows`)"
    DIRECTORY = "the server's records, through a directory (spec 4.1 rules 3 and 4)"


# The facts each scope names: those a body has, and those it has not.
_NEEDS: Final[dict[Scope, tuple[int, int]]] = {
    Scope.SUBJECT: (0, 0),
    Scope.UNCLEAN_SITES: (_SITES_NOT_CLEAN, 0),
    Scope.ENABLED_CYCLES: (_CYCLES_ENABLED, 0),
    Scope.COOLDOWN_CYCLES: (_CYCLES_ENABLED | _COOLDOWN_MODE, 0),
    Scope.SCHEDULED_CYCLES: (_CYCLES_ENABLED, _COOLDOWN_MODE),
    Scope.WINDOWS: (_WINDOWS, 0),
    Scope.DIRECTORY: (_DIRECTORY, 0),
}
# Every set of facts `facts_of` gives: it asks the mode of an enabled block only.
POSSIBLE_FACTS: Final[tuple[int, ...]] = tuple(
    facts
    for facts in range(FACTS_INDEXES)
    if not (facts & _COOLDOWN_MODE and not facts & _CYCLES_ENABLED)
)


def sites_not_clean(doc: Document) -> bool:
    """Whether an object in force is not clean, or the payload is no object (`sites_clean`)."""
    return not doc.sites_clean


def windows_in_force(doc: Document) -> bool:
    """Whether a weekday window of a schedule in force is readable (`Document.windows`)."""
    return bool(doc.windows)


def directory_given(doc: Document) -> bool:
    """Whether the validation was given a directory to look the server's records up in."""
    return doc.directory is not None


# A fact a rule names: a member of the payload and the JSON value it holds (`_core.limits`),
# or the test of a fact no member holds.
Fact: TypeAlias = tuple[str, bool | str] | Callable[[Document], bool]
# A rule's gate: the tests of the facts it needs, then of those it excludes (`When.tests`).
GateTests: TypeAlias = tuple[
    tuple[Callable[[Document], bool], ...], tuple[Callable[[Document], bool], ...]
]
# Each fact, by its bit.
FACTS: Final[dict[int, Fact]] = {
    _SITES_NOT_CLEAN: sites_not_clean,
    _CYCLES_ENABLED: CYCLES_ENABLED,
    _COOLDOWN_MODE: COOLDOWN_MODE,
    _WINDOWS: windows_in_force,
    _DIRECTORY: directory_given,
}
# The test of each member fact: the object reading's, made of its data.
MEMBER_TESTS: Final[dict[tuple[str, bool | str], MemberIs]] = {
    fact: MemberIs(*fact) for fact in FACTS.values() if isinstance(fact, tuple)
}
# The test of each fact, by its bit: what a rule's gate runs (`When.tests`).
FACT_TESTS: Final[dict[int, Callable[[Document], bool]]] = {
    bit: MEMBER_TESTS[fact].holds if isinstance(fact, tuple) else fact
    for bit, fact in FACTS.items()
}
# The member facts' tests `facts_of` calls, each by a name of its own (compiled, a direct call
# of its method; tests/test_scope.py holds `facts_of` to `FACT_TESTS`). The plan tests the
# first before it reads the block's members for a row that reads in bodies without it.
ENABLED_BLOCK: Final = MEMBER_TESTS[CYCLES_ENABLED]
_IN_COOLDOWN_MODE: Final = MEMBER_TESTS[COOLDOWN_MODE]


def facts_of(doc: Document) -> int:
    """The facts of `doc` that the rules read in, as the bits `POSSIBLE_FACTS` are made of."""
    # Each test called by name rather than through `FACT_TESTS`: compiled, a direct call.
    facts = _SITES_NOT_CLEAN if sites_not_clean(doc) else 0
    # The mode asked of an enabled block only: each rule that reads it needs that fact too.
    if ENABLED_BLOCK.holds(doc):
        facts |= _CYCLES_ENABLED
        if _IN_COOLDOWN_MODE.holds(doc):
            facts |= _COOLDOWN_MODE
    if windows_in_force(doc):
        facts |= _WINDOWS
    if directory_given(doc):
        facts |= _DIRECTORY
    return facts


class When:
    """The facts of a body a rule reads in: every one of `needs`, and none of `unless`.

    Declared in the rule's row (`When(CYCLES_ENABLED, COOLDOWN_MODE)`), each fact one of
    `FACTS` (`is_fact`): the runner calls the rule on a body with those facts only
    (`When.reads_in`, by their bits). `scope` names them, and `says` says them in words, the
    member facts by their pointer and value; `always`, whether it names none. Facts no `Scope`
    names are refused: the rule pages and `rules --json` show a rule's scope. `needs` and
    `unless` are the facts in the order of `FACTS`.
    """

    __slots__ = ("always", "excluded_bits", "needed_bits", "needs", "scope", "unless")

    def __init__(self, *needs: Fact, unless: tuple[Fact, ...] = ()) -> None:
        self.needed_bits = _bits(needs)
        self.excluded_bits = _bits(unless)
        # In the order of `FACTS`, whatever the row's: the same facts are said the same way.
        self.needs = tuple(fact for bit, fact in FACTS.items() if self.needed_bits & bit)
        self.unless = tuple(fact for bit, fact in FACTS.items() if self.excluded_bits & bit)
        self.always = not (needs or unless)
        bits = (self.needed_bits, self.excluded_bits)
        named = [scope for scope, named_bits in _NEEDS.items() if named_bits == bits]
        if not named:
            raise ValueError(f"no scope names the facts {self.says_facts()}")
        self.scope: Scope = named[0]

    def reads_in(self, facts: int) -> bool:
        """Whether a body of `facts` has every fact the rule needs and none it excludes."""
        needed = self.needed_bits
        return facts & needed == needed and not facts & self.excluded_bits

    def tests(self) -> GateTests:
        """The tests of the facts it needs, then of those it excludes: its gate, in code."""
        return (
            tuple(FACT_TESTS[bit] for bit in FACTS if self.needed_bits & bit),
            tuple(FACT_TESTS[bit] for bit in FACTS if self.excluded_bits & bit),
        )

    def says_facts(self) -> str:
        """The facts, in words: "`/cycles/enabled` is `true` and `/cycles/mode` is ..."."""
        said = [_said(fact, True) for fact in self.needs]
        said += [_said(fact, False) for fact in self.unless]
        return " and ".join(said)

    def says(self) -> str:
        """The scope's words, then the facts'."""
        return self.scope.value if self.always else f"{self.scope.value}: {self.says_facts()}"


def _bits(facts: tuple[Fact, ...]) -> int:
    """The bits of `facts`; a fact with none is refused."""
    bits = 0
    for fact in facts:
        bit = next((bit for bit, known in FACTS.items() if is_fact(fact, known)), None)
        if bit is None:
            raise ValueError(f"{fact!r} is no fact a body's rules read in")
        bits |= bit
    return bits


def is_fact(fact: object, known: Fact) -> bool:
    """Whether `fact` is the fact `known`: the same test, or a member and a value of one type.

    By value, not identity: the compiled build makes a final tuple of `_core.limits` anew where
    it is read. By type too: `("/cycles/enabled", 1)` equals `CYCLES_ENABLED` (`1 == True`).
    """
    if callable(known):
        return fact is known
    return (
        type(fact) is tuple
        and fact == known
        and [type(part) for part in fact] == [type(part) for part in known]
    )


def _said(fact: Fact, holds: bool) -> str:
    """One fact in words, holding or not."""
    if callable(fact):
        return f"`{fact.__name__}` {'holds' if holds else 'does not hold'}"
    pointer, value = fact
    return f"`{pointer}` {'is' if holds else 'is not'} `{json.dumps(value)}`"


# Every rule of every other table reads its whole subject.
ALWAYS: Final = When()
