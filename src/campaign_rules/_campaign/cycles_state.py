"""The cycles block as the cycles rules see it: read once, when the `Document` is made.

Spec 2.4 rule 2: a block whose `enabled` is `false` or omitted is ignored, so everything here
describes the block only when it is enabled; spec 2.4 rule 3: in `cooldown` mode the schedule
and its dates are not in force, so they are not read.
"""

from __future__ import annotations

import datetime
from typing import Final

from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.formats import parse_date
from campaign_rules._core.json import array_length, as_string, read_list
from campaign_rules._core.limits import (
    COOLDOWN_MODE,
    CYCLES_ENABLED,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
)
from campaign_rules._core.object_reading import MemberIs, Payload

__all__ = ["CYCLE_DATES", "CyclesState"]

# The two facts of the block, as `_core.limits` declares them.
_ENABLED: Final = MemberIs(*CYCLES_ENABLED)
_IN_COOLDOWN_MODE: Final = MemberIs(*COOLDOWN_MODE)
# The payload's member that is the block, whose members the two facts are of (a test holds both
# facts' pointers to it).
_CYCLES: Final = "cycles"
# spec 2.4: the two dates of the cycles schedule (a tuple of any length, as `FILTER_LISTS`).
CYCLE_DATES: Final[tuple[str, ...]] = ("schedule_start_date", "schedule_end_date")
# What a payload without an enabled cycles block has of filter lists and dates: shared, and
# never written (`CyclesState._read_enabled` gives a state mappings of its own).
_NO_FILTER_LISTS: Final[dict[str, list[object]]] = {}
_NO_CYCLE_DATES: Final[dict[str, datetime.date | None]] = {}


# Compiled, each payload makes one and frees it with its `Document`: a free list of one keeps
# the last one freed for the next payload, without the allocator (as `Document`).
@mypyc_attr(free_list_len=1)
class CyclesState:
    """The facts of a payload's `cycles` member that the cycles rules read.

    Made of the payload, whose `cycles` member it reads as an object (`Payload.object_at`).

    Attributes, all read when the state is made:
    `block`: the cycles block when it is an object that is enabled (`CYCLES_ENABLED`), else
    `None`;
    `mode`: the `mode` of an enabled block when it is a string, known or not;
    `in_cooldown_mode`: whether an enabled block is in cooldown mode (`COOLDOWN_MODE`);
    `schedule`: the raw `cycles.schedule` of an enabled block outside cooldown mode (in
    cooldown mode the schedule is not in force: `cycles.cooldown_mode_has_no_schedule`, a row
    of the table, refuses it);
    `filter_lists`: the filter arrays of an enabled block within the item limit, by name,
    items read (an array over the limit is not read at all, D-filter-lists);
    `dates`: the schedule dates of an enabled block outside cooldown mode that are strings, by
    name, each parsed (`None` when it is not a calendar date, D-cycle-dates).
    """

    def __init__(self, payload: Payload) -> None:
        # Both facts are of the block's members: told on the block, read once.
        members = payload.object_at(_CYCLES)
        block = members if members is not None and _ENABLED.holds_in(members) else None
        self.block: dict[str, object] | None = block
        self.mode: str | None = as_string(block.get("mode")) if block is not None else None
        self.in_cooldown_mode: bool = block is not None and _IN_COOLDOWN_MODE.holds_in(block)
        self.schedule: object = (
            block.get("schedule") if block is not None and not self.in_cooldown_mode else None
        )
        self.filter_lists: dict[str, list[object]] = _NO_FILTER_LISTS
        self.dates: dict[str, datetime.date | None] = _NO_CYCLE_DATES
        if block is not None:
            self._read_enabled(block)

    @property
    def enabled(self) -> bool:
        """Whether the payload has an enabled cycles block."""
        return self.block is not None

    def _read_enabled(self, block: dict[str, object]) -> None:
        """Read the filter lists and the dates of the enabled block `block`."""
        self.filter_lists = {}
        for name in FILTER_LISTS:
            raw = block.get(name)
            length = array_length(raw)
            # An array over the item limit is not read at all (D-filter-lists).
            if length is not None and length <= FILTER_LIST_MAX_ITEMS:
                self.filter_lists[name] = read_list(raw) or []
        if self.in_cooldown_mode:
            return  # in cooldown mode, spec 2.4 rule 3 owns the dates: none are read
        self.dates = {}
        for name in CYCLE_DATES:
            text = as_string(block.get(name))
            if text is not None:
                self.dates[name] = parse_date(text)
