"""The shape scan of a creation payload: each object in force, a `Site` checked against its shape.

A `Document` (`_campaign.document`) makes a `Site` of each object in force when it is made: the
payload, the schedules in force, their weekday windows (`Window`, which reads its times too) and
a cycles block. Each site reads its members once, in one pass, for the shape rules
(`_rules.shape`), which would each walk them otherwise; `Site.clean` says they find nothing.
"""

from __future__ import annotations

from typing import Any, Final, cast

from campaign_rules._campaign.shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    REQUIRED_CAMPAIGN_MEMBERS,
    REQUIRED_WINDOW_MEMBERS,
    SCHEDULE_MEMBERS,
    START_TIME,
    STOP_TIME,
    WINDOW_MEMBERS,
    MemberTypes,
)
from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.json import PLAIN_CLASSES, as_string, read_object
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS, SCHEDULE_ONLY_CYCLES_FIELDS, WEEKDAYS

__all__ = [
    "CAMPAIGN",
    "COOLDOWN_CYCLES",
    "CYCLES",
    "DISABLED_CYCLES",
    "KIND_AT",
    "SCHEDULE",
    "WINDOW_PATHS",
    "MemberSpec",
    "ObjectKind",
    "Site",
    "Window",
]

# The paths of the windows of each schedule, spelt once rather than on every payload, in week
# order; tuples of any length, read by index (see `_core.limits.FILTER_LISTS` on tuple types).
# Each schedule is given its paths, rather than looking them up by its own.
WINDOW_PATHS: Final[dict[str, tuple[str, ...]]] = {
    schedule: tuple(f"{schedule}.{day}" for day in WEEKDAYS)
    for schedule in ("scheduling", "cycles.schedule")
}


class MemberSpec:
    """What `Site._scan` reads of one member of an `ObjectKind`'s shape.

    `cls`: the built-in class of its first JSON type (an exact `str` for a string member, ...);
    `required`: whether its object must hold it.
    """

    __slots__ = ("cls", "required")

    def __init__(self, cls: type, required: bool) -> None:
        self.cls = cls
        self.required = required


class ObjectKind:
    """What an object of the payload is checked against, for `Site`.

    `shape`: its members and their JSON types; `required`: the members it must hold; `closed`:
    whether members outside `shape` are refused; `left_to_others`: members whose JSON type
    another rule owns; `specs`: each member's `MemberSpec` (the built-in class of its first JSON
    type, and whether it is required), for `Site._scan`, made once here rather than on every
    site.
    """

    __slots__ = ("closed", "left_to_others", "required", "shape", "specs")

    def __init__(
        self,
        shape: MemberTypes,
        required: tuple[str, ...] = (),
        closed: bool = True,
        left_to_others: tuple[str, ...] = (),
    ) -> None:
        self.shape = shape
        self.required = required
        self.closed = closed
        self.left_to_others = left_to_others
        self.specs = {
            name: MemberSpec(PLAIN_CLASSES[types[0]], name in required)
            for name, types in shape.items()
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
_TIME_CLASS: Final = WINDOW.specs[START_TIME].cls


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


# Compiled, each payload makes a `Document`, its sites and its windows, and frees them all once
# its result is made: a free list of one per class keeps the last one freed for the next
# payload, without the allocator.
@mypyc_attr(free_list_len=1)
class Site:
    """An object of the payload whose members are checked, and the shape they are checked against.

    `raw` is the object as given; `members` its string-named members, read once (`None` when it
    is too large to read); `kind` the `ObjectKind` it is checked against (its `shape`,
    `required`, `closed` and `left_to_others`), referred to rather than copied: four fields
    fewer to set and free on every site.

    Its members are read in one pass when it is made, with the check that their names are plain
    strings, for the shape rules, which would each walk them otherwise: `all_known`, whether
    every name is in `shape`; `to_type_check`, the known names whose value is not of the
    built-in class of its first JSON type (an exact `str` for a string member, ...), which
    `members_have_json_types` checks, the others being of their type; `required_absent`, how
    many of the members of `required` it lacks, which `required_members_present` then looks
    for only when there are some. `clean` sums them up: a plain `dict` that is its own members,
    every name known, no required member absent, nothing to type-check; in such a site the
    shape rules find nothing (`Document.sites_clean`).

    A plain class with typed attributes rather than a `NamedTuple`: compiled with mypyc, its
    attributes are read as fields of a C struct (D-compiled-build).
    """

    clean: bool
    __slots__ = (
        "all_known",
        "clean",
        "kind",
        "members",
        "path",
        "raw",
        "required_absent",
        "to_type_check",
    )

    def __init__(self, path: str | None, raw: object, kind: ObjectKind) -> None:
        self.path = path
        self.raw = raw
        self.kind = kind
        # What a complete object of its kind has, as `Window._scan` finds one without reading on.
        self.all_known = True
        self.required_absent = 0
        self.to_type_check: tuple[str, ...] = ()
        self.members: dict[str, object] | None = None
        # The common case, in one pass: a plain `dict` within the member limit whose names are
        # all plain strings is its own members, as `read_object` would give it (and its scan
        # says whether it is `clean`).
        if type(raw) is dict and len(raw) <= OBJECT_MAX_MEMBERS and self._scan(raw, kind):
            self.members = raw
            return
        # Any other value: `read_object` reads it, or refuses it (`None`); never clean.
        members = read_object(raw)
        if members is not None and self._scan(members, kind):
            self.members = members
        self.clean = False

    def _scan(self, members: dict[Any, object], kind: ObjectKind) -> bool:
        """Read `all_known`, `to_type_check`, `required_absent` and `clean` off `members`.

        The answer is whether every name is a plain `str`; when one is not, nothing is read.
        """
        specs = kind.specs
        all_known = True
        required_held = 0  # names are unique, so this counts distinct members of `required`
        odd: list[str] | None = None  # made only when needed: most sites have none
        for name, value in members.items():
            if type(name) is not str:
                return False
            spec = specs.get(name)
            if spec is None:
                all_known = False
                continue
            if spec.required:
                required_held += 1
            if type(value) is not spec.cls:
                if odd is None:
                    odd = []
                odd.append(name)
        required_absent = len(kind.required) - required_held
        self.all_known = all_known
        self.required_absent = required_absent
        if odd is not None:
            self.to_type_check = tuple(odd)
        # From the locals, as it stands, rather than reading the attributes back.
        self.clean = all_known and required_absent == 0 and odd is None
        return True


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
            self.start, self.stop = cast("str", start), cast("str", stop)
            self.clean = True
            return True
        self.start = as_string(start)
        self.stop = as_string(stop)
        return Site._scan(self, members, kind)
