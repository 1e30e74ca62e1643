"""What a rule reads, as the rule table declares it, and the facts of a body that decide it.

Each row of the rule table names its rule's `Scope`: what of its subject the rule reads. A
rule runs on a subject that has what it reads, and on no other: it would find nothing there.
For a creation body, what it has is a few facts, each told by a test of its own (`facts_of`):
whether every object in force is clean, whether the cycles block is enabled and in which mode
(facts `_core.limits` declares as data), whether a window is in force, whether a directory is
given. The runner derives
from the scope column alone which rules run for each set of facts (`_rules.validation`); every
other table's rows read their whole subject (`Scope.SUBJECT`, the default).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._core.limits import COOLDOWN_MODE, CYCLES_ENABLED
from campaign_rules._core.object_reading import MemberIs, Payload

__all__ = [
    "FACTS_INDEXES",
    "FACT_TESTS",
    "POSSIBLE_FACTS",
    "GateTests",
    "Scope",
    "cooldown_mode",
    "cycles_enabled",
    "directory_given",
    "facts_of",
    "gate_tests",
    "reads_in",
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
    """What a rule reads of its subject; the value says it in words."""

    SUBJECT = "its whole subject"
    UNCLEAN_SITES = "the objects in force, when one of them is not clean (`Document.sites_clean`)"
    ENABLED_CYCLES = "an enabled cycles block (spec 2.4 rule 2)"
    COOLDOWN_CYCLES = "an enabled cycles block in cooldown mode (spec 2.4 rule 3)"
    SCHEDULED_CYCLES = "an enabled cycles block in a mode other than cooldown"
    WINDOWS = "the weekday windows in force (`Document.windows`)"
    DIRECTORY = "the server's records, through a directory (spec 4.1 rules 3 and 4)"


# What a scope needs of the facts, and what it cannot have.
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


def reads_in(scope: Scope, facts: int) -> bool:
    """Whether a body of `facts` has what a rule of `scope` reads."""
    needs, excludes = _NEEDS[scope]
    return facts & needs == needs and not facts & excludes


# Each fact, told by a function of its own: a scope's gate is the facts it names in `_NEEDS`,
# and reads nothing of the document that those functions do not. The facts of the cycles
# block are data, declared in `_core.limits`.
_ENABLED: Final = MemberIs(*CYCLES_ENABLED)
_IN_COOLDOWN_MODE: Final = MemberIs(*COOLDOWN_MODE)


def sites_not_clean(doc: Document) -> bool:
    """Whether an object in force is not clean, or the payload is no object (`sites_clean`)."""
    return not doc.sites_clean


def cycles_enabled(body: Payload) -> bool:
    """Whether the payload's cycles block is enabled (`CYCLES_ENABLED`)."""
    return _ENABLED.holds(body)


def cooldown_mode(body: Payload) -> bool:
    """Whether the payload's cycles block is in cooldown mode (`COOLDOWN_MODE`).

    Enabled or not: the scopes that need this fact need `cycles_enabled` too.
    """
    return _IN_COOLDOWN_MODE.holds(body)


def windows_in_force(doc: Document) -> bool:
    """Whether a weekday window of a schedule in force is readable (`Document.windows`)."""
    return bool(doc.windows)


def directory_given(doc: Document) -> bool:
    """Whether the validation was given a directory to look the server's records up in."""
    return doc.directory is not None


# A scope's gate: the tests of the facts it needs, then of those it excludes (`gate_tests`).
GateTests = tuple[tuple[Callable[[Document], bool], ...], tuple[Callable[[Document], bool], ...]]

# The function that tells each fact, by its bit: what a scope's gate reads (docs/testing.md).
FACT_TESTS: Final[dict[int, Callable[[Document], bool]]] = {
    _SITES_NOT_CLEAN: sites_not_clean,
    _CYCLES_ENABLED: cycles_enabled,
    _COOLDOWN_MODE: cooldown_mode,
    _WINDOWS: windows_in_force,
    _DIRECTORY: directory_given,
}


def facts_of(doc: Document) -> int:
    """The facts of `doc` that the scopes read, as the bits `POSSIBLE_FACTS` are made of."""
    # Each test called by name rather than through `FACT_TESTS`: compiled, a direct call.
    facts = _SITES_NOT_CLEAN if sites_not_clean(doc) else 0
    # The mode asked of an enabled block only: each scope that reads it needs that fact too.
    if cycles_enabled(doc):
        facts |= _CYCLES_ENABLED
        if cooldown_mode(doc):
            facts |= _COOLDOWN_MODE
    if windows_in_force(doc):
        facts |= _WINDOWS
    if directory_given(doc):
        facts |= _DIRECTORY
    return facts


def gate_tests(scope: Scope) -> GateTests:
    """The tests of the facts `scope` needs, then of those it excludes.

    A rule of `scope` runs on a body where every test of the first holds and none of the
    second: they decide whether it runs.
    """
    needs, excludes = _NEEDS[scope]
    return (
        tuple(test for bit, test in FACT_TESTS.items() if needs & bit),
        tuple(test for bit, test in FACT_TESTS.items() if excludes & bit),
    )
