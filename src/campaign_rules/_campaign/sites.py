"""The kinds of the objects of a creation payload, and its windows, for the object reading.

Each object in force of a payload is a `Site` (`_core.object_reading`) read against its kind,
declared here of the campaign's shapes (`_campaign.shape`): the payload itself (the root site
of the `Document`, a `Payload`), and the schedules in force, their weekday windows (`Window`,
which reads its times too) and a cycles block, which the `Document` makes. Each site reads its
members once, in one pass, for the shape rules (`_rules.shape`), which would each walk them
otherwise; `Site.clean` says they find nothing.
"""

from __future__ import annotations

from typing import Any, Final

from campaign_rules._campaign.shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    REQUIRED_CAMPAIGN_MEMBERS,
    REQUIRED_WINDOW_MEMBERS,
    SCHEDULE_MEMBERS,
    START_TIME,
    STOP_TIME,
    WINDOW_MEMBERS,
)
from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.json import as_string
from campaign_rules._core.limits import SCHEDULE_ONLY_CYCLES_FIELDS, WEEKDAYS
from campaign_rules._core.object_reading import ObjectKind, Site

__all__ = [
    "CAMPAIGN",
    "COOLDOWN_CYCLES",
    "CYCLES",
    "DISABLED_CYCLES",
    "KIND_AT",
    "SCHEDULE",
    "WINDOW_PATHS",
    "Window",
]

# The paths of the windows of each schedule, spelt once rather than on every payload, in week
# order; tuples of any length, read by index (see `_core.limits.FILTER_LISTS` on tuple types).
# Each schedule is given its paths, rather than looking them up by its own.
WINDOW_PATHS: Final[dict[str, tuple[str, ...]]] = {
    schedule: tuple(f"{schedule}.{day}" for day in WEEKDAYS)
    for schedule in ("scheduling", "cycles.schedule")
}


CAMPAIGN: Final = ObjectKind(CAMPAIGN_MEMBERS, REQUIRED_CAMPAIGN_MEMBERS)
SCHEDULE: Final = ObjectKind(SCHEDULE_MEMBERS)
WINDOW: Final = ObjectKind(WINDOW_MEMBERS, REQUIRED_WINDOW_MEMBERS)
CYCLES: Final = ObjectKind(CYCLES_MEMBERS)
# spec 2.4 rule 3: in cooldown mode, `cycles.cooldown_mode_has_no_schedule` owns these fields.
COOLDOWN_CYCLES: Final = ObjectKind(CYCLES_MEMBERS, left_to_others=SCHEDULE_ONLY_CYCLES_FIELDS)
# spec 2.4 rule 2: of a block not enabled, only `enabled` itself is read.
DISABLED_CYCLES: Final = ObjectKind({"enabled": CYCLES_MEMBERS["enabled"]}, closed=False)
# A complete window, for `Window._scan`: its number of members and their classes (`bool`, `str`).
_WINDOW_SIZE: Final = len(WINDOW.shape)
_ACTIVE_CLASS: Final = WINDOW.specs["active"].cls
# Typed as the class it is, so that a time of that class is a `str` to mypy: no `cast`, which
# interpreted is a call a time.
_TIME_CLASS: Final[type[str]] = WINDOW.specs[START_TIME].cls


# The kind of the object at each path a site can have: where the shape rules can report a
# member of a shape (`_core.findings.ReadyFindings`). A block in cooldown mode, or not enabled,
# is read with fewer members of the same shape.
KIND_AT: Final[dict[str | None, ObjectKind]] = {
    None: CAMPAIGN,
    "scheduling": SCHEDULE,
    **dict.fromkeys(WINDOW_PATHS["scheduling"], WINDOW),
    "cycles": CYCLES,
    "cycles.schedule": SCHEDULE,
    **dict.fromkeys(WINDOW_PATHS["cycles.schedule"], WINDOW),
}


@mypyc_attr(free_list_len=1)  # as `Site`
class Window(Site):
    """A readable weekday window of a schedule in force: its site, with its times read once.

    `weekday` is the index of its day in `WEEKDAYS`; `active`, whether its `active` member is
    `true`. `start` and `stop` are its `startTime` and `stopTime` when they are strings, else
    `None` (absent, or of another type: other rules report those). Whether they are `HH:MM` is
    the row `schedule.window_times_are_hh_mm`'s to judge, and the window does not parse them.
    A `Site` itself, so that a window is one object (D-compiled-build). A window object too
    large to read is a site only, and not in `Document.windows`.
    """

    __slots__ = ("active", "start", "stop", "weekday")
    active: bool
    start: str | None
    stop: str | None

    def __init__(self, path: str, raw: object, weekday: int) -> None:
        # Named rather than `super()`: the same compiled, and faster interpreted. Its
        # `_scan` reads `active`, `start` and `stop` too.
        Site.__init__(self, path, raw, WINDOW)
        if self.members is None:  # too large to read: a site only, its members unread
            self.active, self.start, self.stop = False, None, None
        self.weekday = weekday

    def _scan(self, members: dict[Any, object], kind: ObjectKind) -> bool:
        """`Site._scan`, with the window's three members read on the way, once.

        One walk of its members checks that their names are plain strings and picks the three
        out by name (compared as plain strings, so no name's code runs: D-hostile-input). A
        window then holding its three members and no other, each of its type's class, has
        nothing more to read (`all_known`, nothing to type-check, `clean`); any other window is
        read by `Site._scan`, which keeps its members' order. One walk, rather than a walk of
        the names then three look-ups.
        """
        active: object = None
        start: object = None
        stop: object = None
        for name, value in members.items():
            if type(name) is not str:
                return False
            if name == "active":
                active = value
            elif name == START_TIME:
                start = value
            elif name == STOP_TIME:
                stop = value
        self.active = active is True
        if (
            len(members) == _WINDOW_SIZE
            and type(active) is _ACTIVE_CLASS
            and type(start) is _TIME_CLASS
            and type(stop) is _TIME_CLASS
        ):
            # Both times plain `str`s, which `as_string` gives back as they are: two calls a
            # window fewer.
            self.start, self.stop = start, stop
            self.clean = True
            return True
        self.start = as_string(start)
        self.stop = as_string(stop)
        return Site._scan(self, members, kind)
