"""What a rule reads, as the rule table declares it, and the facts of a body that decide it.

Each row of the rule table names its rule's `Scope`: what of its subject the rule reads. A
rule runs on a subject that has what it reads, and on no other: it would find nothing there.
For a creation body, what it has is a few facts the reading of its `Document` already knows
(`facts_of`): whether every object in force is clean, whether an enabled cycles block is in
force and in which mode, whether a window is, whether a directory is given. The runner derives
from the scope column alone which rules run for each set of facts (`_rules.validation`); every
other table's rows read their whole subject (`Scope.SUBJECT`, the default).
"""

from __future__ import annotations

import enum
from typing import Final

from campaign_rules._campaign.document import Document

__all__ = ["FACTS_INDEXES", "POSSIBLE_FACTS", "Scope", "facts_of", "reads_in"]

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
# Every set of facts a body can have: a block is in cooldown mode only when it is enabled.
POSSIBLE_FACTS: Final[tuple[int, ...]] = tuple(
    facts
    for facts in range(FACTS_INDEXES)
    if not (facts & _COOLDOWN_MODE and not facts & _CYCLES_ENABLED)
)


def reads_in(scope: Scope, facts: int) -> bool:
    """Whether a body of `facts` has what a rule of `scope` reads."""
    needs, excludes = _NEEDS[scope]
    return facts & needs == needs and not facts & excludes


def facts_of(doc: Document) -> int:
    """The facts of `doc` that the scopes read, as the bits `POSSIBLE_FACTS` are made of."""
    facts = 0 if doc.sites_clean else _SITES_NOT_CLEAN
    cycles = doc.cycles
    if cycles.block is not None:
        facts |= _CYCLES_ENABLED | _COOLDOWN_MODE if cycles.in_cooldown_mode else _CYCLES_ENABLED
    if doc.windows:
        facts |= _WINDOWS
    if doc.directory is not None:
        facts |= _DIRECTORY
    return facts
