"""One reading of a creation payload, shared by every rule.

The payload is read once, here, in one pass when the `Document` is made: which objects are in
force (the cycles block only when enabled, the cycles schedule only outside `cooldown` mode),
what each holds, and the text of the members the rules read as text. Only the server's answers
to the look-ups wait until a rule asks, and each is asked at most once.

Reading is eager and flat, with no per-object bookkeeping, because `validate_create` runs on
every request: a rule then finds everything it needs already read (see benchmarks/README.md).
"""

from __future__ import annotations

import datetime
from typing import Any, Final, cast

from campaign_rules._campaign.directory import Directory
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
from campaign_rules._core.enums import CyclesMode, IntegrationType
from campaign_rules._core.formats import lower_case_uuid_v4, minute_of_day, parse_date
from campaign_rules._core.json import (
    PLAIN_CLASSES,
    array_length,
    as_string,
    as_string_head,
    is_object,
    read_list,
    read_object,
)
from campaign_rules._core.limits import (
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    NAME_MAX_LENGTH,
    OBJECT_MAX_MEMBERS,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    WEEKDAYS,
)
from campaign_rules._core.unicode import has_surrogate

__all__ = [
    "WINDOW_PATHS",
    "Document",
    "Site",
    "Window",
    "agent_found",
    "integration_type_found",
]

_CHANNELS: Final = {channel.value: channel for channel in IntegrationType}
_COOLDOWN: Final[str] = CyclesMode.COOLDOWN.value
# spec 2.4: the two dates of the cycles schedule (a tuple of any length, as `FILTER_LISTS`).
_CYCLE_DATES: Final[tuple[str, ...]] = ("schedule_start_date", "schedule_end_date")
# The members that rules read as text are each read (and a str subclass copied) once, into an
# attribute of the document (`Document.name_text`, ...): a read of a C struct's field compiled,
# where a mapping of the five names cost a look-up on every read and 4 % of a document's
# instructions to build and free (callgrind). The rules of `name`, `agent_id`,
# `integration_type` and `timezone` refuse every text over `NAME_MAX_LENGTH` characters (a UUID,
# a channel and a zone name are shorter than a name), so a str subclass there is copied only
# that far and one character more, which they refuse as they would the whole (D-hostile-input).
_TEXT_HEAD: Final = NAME_MAX_LENGTH + 1
# What a payload without an enabled cycles block has of filter lists and dates: shared, and
# never written (`_read_enabled_cycles` gives a document mappings of its own).
_NO_FILTER_LISTS: Final[dict[str, list[object]]] = {}
_NO_CYCLE_DATES: Final[dict[str, datetime.date | None]] = {}
# The weekdays, and the paths of their windows in each schedule, spelt once rather than on
# every payload, each in week order: tuples of any length, read by index (compiled, a `Final`
# tuple of fixed length is a C struct, boxed anew at each use; the walk of a dict's items these
# were took 3.5 % of a document's instructions more, callgrind). Each schedule is given its
# paths: looked up by its path, they cost a look-up a schedule, and pairs of a day and a path
# were checked and unpacked at each day (together about 170 instructions an invalid small body).
_WEEKDAYS: Final[tuple[str, ...]] = WEEKDAYS
WINDOW_PATHS: Final[dict[str, tuple[str, ...]]] = {
    schedule: tuple(f"{schedule}.{day}" for day in WEEKDAYS)
    for schedule in ("scheduling", "cycles.schedule")
}
_SCHEDULING_WINDOW_PATHS: Final = WINDOW_PATHS["scheduling"]
_CYCLES_SCHEDULE_WINDOW_PATHS: Final = WINDOW_PATHS["cycles.schedule"]


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


_CAMPAIGN: Final = ObjectKind(CAMPAIGN_MEMBERS, REQUIRED_CAMPAIGN_MEMBERS)
_SCHEDULE: Final = ObjectKind(SCHEDULE_MEMBERS)
_WINDOW: Final = ObjectKind(WINDOW_MEMBERS, REQUIRED_WINDOW_MEMBERS)
_CYCLES: Final = ObjectKind(CYCLES_MEMBERS)
# spec 2.4 rule 3: in cooldown mode, `cycles.cooldown_mode_has_no_schedule` owns these fields.
_COOLDOWN_CYCLES: Final = ObjectKind(CYCLES_MEMBERS, left_to_others=SCHEDULE_ONLY_CYCLES_FIELDS)
# spec 2.4 rule 2: of a block not enabled, only `enabled` itself is read.
_DISABLED_CYCLES: Final = ObjectKind({"enabled": CYCLES_MEMBERS["enabled"]}, closed=False)
# A complete window, for `Window._scan`: its number of members and their classes (`bool`, `str`).
_WINDOW_SIZE: Final = len(_WINDOW.shape)
_ACTIVE_CLASS: Final = _WINDOW.specs["active"].cls
_TIME_CLASS: Final = _WINDOW.specs[START_TIME].cls


# Compiled, each payload makes a `Document`, its sites and its windows, and frees them all once
# its result is made: a free list of one per class keeps the last one freed for the next
# payload, without the allocator (about 680 instructions fewer an invalid small body, 2 %,
# callgrind; the time within noise).
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
        # From the locals, as it stands (reading the attributes back after the scan cost about
        # 0.2 µs a small body more on the pure-Python build).
        self.clean = all_known and required_absent == 0 and odd is None
        return True


@mypyc_attr(free_list_len=1)  # as `Site`
class Window(Site):
    """A readable weekday window of a schedule in force: its site, with its times read once.

    `weekday` is the index of its day in `WEEKDAYS`; `active`, whether its `active` member is
    `true`. `start` and `stop` are its `startTime` and `stopTime` when they are strings, else
    `None` (absent, or of another type: other rules report those);
    `start_minute` and `stop_minute` the minutes of the day they spell (`minute_of_day`), -1
    when they are not `HH:MM` (D-time-format): compiled, two native integers, which compare
    without a call where two `datetime.time`s compare through a generic rich comparison
    (about 105 instructions a window more, callgrind); `time_at_minute` gives the time of day
    of one. A `Site` itself, so that a window is one object (D-compiled-build). A window object
    too large to read is a site only, and not in `Document.windows`.
    """

    __slots__ = ("active", "start", "start_minute", "stop", "stop_minute", "weekday")
    active: bool
    start: str | None
    stop: str | None

    def __init__(self, path: str, raw: object, weekday: int) -> None:
        # Named rather than `super()`: the same compiled, and a third faster interpreted. Its
        # `_scan` reads `active`, `start` and `stop` too.
        Site.__init__(self, path, raw, _WINDOW)
        if self.members is None:  # too large to read: a site only, its members unread
            self.active, self.start, self.stop = False, None, None
        self.weekday = weekday
        self.start_minute = minute_of_day(self.start) if self.start is not None else -1
        self.stop_minute = minute_of_day(self.stop) if self.stop is not None else -1

    def _scan(self, members: dict[Any, object], kind: ObjectKind) -> bool:
        """`Site._scan`, with the window's three members read on the way, once.

        One walk of its members checks that their names are plain strings and picks the three
        out by name (compared as plain strings, so no name's code runs: D-hostile-input). A
        window then holding its three members and no other, each of its type's class, has
        nothing more to read (`all_known`, nothing to type-check, `clean`); any other window is
        read by `Site._scan`, which keeps its members' order. A walk of the names then three
        look-ups cost about 1,200 instructions a window, this one walk about 1,000 (callgrind).
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
            # window fewer (about 200 instructions an invalid small body, callgrind).
            self.start, self.stop = cast("str", start), cast("str", stop)
            self.clean = True
            return True
        self.start = as_string(start)
        self.stop = as_string(stop)
        return Site._scan(self, members, kind)


@mypyc_attr(free_list_len=1)  # as `Site`
class Document:
    """A creation payload as the rules see it; `root` is `{}` when the payload cannot be read.

    Attributes, all read when the document is made:
    `name_text`, `agent_id_text`, `integration_type_text`, `timezone_text` and
    `integration_id_text`: each member when it is a string, else `None` (the first four cut
    after `NAME_MAX_LENGTH` + 1 characters, which their rules refuse as they would the whole);
    `channel`: the `integration_type` when it is a supported one;
    `agent_id`: the `agent_id` in lower case when it is a well-formed UUID v4 (D-agent-id);
    `integration_id`: the `integration_id` when it is a non-empty string;
    `enabled_cycles`: the cycles block when it is an object whose `enabled` is `true`
    (spec 2.4 rule 2), else `None`;
    `cycles_mode`: the `mode` of an enabled block when it is a string, known or not;
    `in_cooldown_mode`: whether that mode is `CyclesMode.COOLDOWN`;
    `cycles_schedule`: the raw `cycles.schedule` of an enabled block outside cooldown mode (in
    cooldown mode the schedule is not in force: `cooldown_mode_has_no_schedule` refuses it);
    `sites`: every object in force whose members are checked, root first, in document order;
    `sites_clean`: whether the payload is an object and every site `Site.clean`, noted as each
    site is added: then the shape rules (`_rules.shape`) find nothing;
    `windows`: the readable weekday windows of the schedules in force, each a `Window`;
    `scheduling_windows` and `cycles_schedule_windows`: the same windows of each schedule,
    `None` when that schedule is not in force or not readable;
    `filter_lists`: the filter arrays of an enabled block within the item limit, by name,
    items read (an array over the limit is not read at all, D-filter-lists);
    `cycle_dates`: the schedule dates of an enabled block outside cooldown mode that are
    strings, by name, each parsed (`None` when it is not a calendar date, D-cycle-dates).
    """

    def __init__(self, payload: object, directory: Directory | None = None) -> None:
        self.payload = payload
        self.directory = directory
        self._agent_found: bool | None = None
        self._integration_type_asked = False
        self._integration_type_found: str | None = None
        root = Site(None, payload, _CAMPAIGN)
        self.root: dict[str, object] = root.members if root.members is not None else {}
        members = self.root
        self.name_text = as_string_head(members.get("name"), _TEXT_HEAD)
        self.agent_id_text = as_string_head(members.get("agent_id"), _TEXT_HEAD)
        self.integration_type_text = as_string_head(members.get("integration_type"), _TEXT_HEAD)
        self.timezone_text = as_string_head(members.get("timezone"), _TEXT_HEAD)
        self.integration_id_text = as_string(members.get("integration_id"))

        self.channel: IntegrationType | None = _CHANNELS.get(self.integration_type_text or "")
        agent_id = self.agent_id_text
        self.agent_id: str | None = lower_case_uuid_v4(agent_id) if agent_id is not None else None
        integration_id = self.integration_id_text
        # Well-formed: not empty, and Unicode text, which a store can be asked for
        # (D-lone-surrogates); an ASCII id is told at once.
        self.integration_id: str | None = (
            integration_id if integration_id and not has_surrogate(integration_id) else None
        )

        raw_cycles = members.get("cycles")
        cycles = read_object(raw_cycles)
        enabled = cycles if cycles is not None and cycles.get("enabled") is True else None
        self.enabled_cycles: dict[str, object] | None = enabled
        mode = as_string(enabled.get("mode")) if enabled is not None else None
        self.cycles_mode: str | None = mode
        # Compared once, with a plain `str`: a property comparing the mode with the enum member
        # (a generic comparison) on each of its four reads took about 670 instructions an
        # enabled block (callgrind).
        self.in_cooldown_mode: bool = mode is not None and mode == _COOLDOWN
        self.cycles_schedule: object = (
            enabled.get("schedule") if enabled is not None and not self.in_cooldown_mode else None
        )

        # Made with the root in it rather than empty: a list of one grows to room for eight at
        # its first append, an empty one to four then eight (one allocation fewer, callgrind).
        self.sites: list[Site] = [root] if is_object(payload) else []
        self.sites_clean = root.clean  # a clean root is a `dict`: the payload is an object
        self.scheduling_windows: list[Window] | None = None
        self.cycles_schedule_windows: list[Window] | None = None
        if self.sites:  # the payload is an object
            self._read_sites(raw_cycles)
        self.windows: list[Window] = self._windows_in_force()

        self.filter_lists: dict[str, list[object]] = _NO_FILTER_LISTS
        self.cycle_dates: dict[str, datetime.date | None] = _NO_CYCLE_DATES
        if enabled is not None:
            self._read_enabled_cycles(enabled)

    @property
    def cycles_enabled(self) -> bool:
        """Whether the payload has an enabled cycles block."""
        return self.enabled_cycles is not None

    def _read_sites(self, raw_cycles: object) -> None:
        """Add the sites after the root's, of a payload that is an object, and read its windows.

        `raw_cycles` is the payload's `cycles` member as given (`None` when absent).
        """
        self.scheduling_windows = self._read_schedule(
            "scheduling", self.root.get("scheduling"), _SCHEDULING_WINDOW_PATHS
        )
        if not is_object(raw_cycles):
            return
        if self.enabled_cycles is None:
            site = Site("cycles", raw_cycles, _DISABLED_CYCLES)
        elif self.in_cooldown_mode:
            site = Site("cycles", raw_cycles, _COOLDOWN_CYCLES)
        else:
            site = Site("cycles", raw_cycles, _CYCLES)
        # Each site added is noted in `sites_clean` where it is added (a method doing both cost
        # about 140 instructions a small body more, callgrind).
        self.sites.append(site)
        if not site.clean:
            self.sites_clean = False
        if site.kind is _CYCLES:
            self.cycles_schedule_windows = self._read_schedule(
                "cycles.schedule", self.cycles_schedule, _CYCLES_SCHEDULE_WINDOW_PATHS
            )

    def _read_schedule(
        self, path: str, raw: object, window_paths: tuple[str, ...]
    ) -> list[Window] | None:
        """Add the sites of a Schedule object and of its weekday windows; its readable windows.

        `path` is the schedule's path, `window_paths` its windows' (`WINDOW_PATHS[path]`).
        `None` when `raw` is no object, or one too large to read.
        """
        if not is_object(raw):
            return None
        site = Site(path, raw, _SCHEDULE)
        self.sites.append(site)
        if not site.clean:
            self.sites_clean = False
        schedule = site.members
        if schedule is None:
            return None
        windows: list[Window] = []
        # Its members not met yet: once none is left, no later day is there to look up (the
        # days after a schedule's last were each a look-up: about 390 instructions an invalid
        # small body, callgrind). A member `null` or not a weekday is never met: no early end.
        left = len(schedule)
        for weekday, window_path in enumerate(window_paths):
            if left == 0:
                break
            raw_window = schedule.get(_WEEKDAYS[weekday])
            if raw_window is None:
                continue  # absent or `null`: the schedule's type check reports a `null`
            left -= 1
            if not is_object(raw_window):
                continue  # not an object: the schedule's type check reports it
            window = Window(window_path, raw_window, weekday)
            self.sites.append(window)
            if not window.clean:
                self.sites_clean = False
            if window.members is not None:  # else too large to read: its site reports it
                windows.append(window)
        return windows

    def _windows_in_force(self) -> list[Window]:
        """The windows of both schedules, in document order.

        The list of the one schedule in force when there is one, rather than a copy (a list
        made, filled and freed for each payload, callgrind): nothing writes these lists.
        """
        scheduling, cycles = self.scheduling_windows, self.cycles_schedule_windows
        if cycles is None:
            return scheduling if scheduling is not None else []
        return scheduling + cycles if scheduling is not None else cycles

    def _read_enabled_cycles(self, cycles: dict[str, object]) -> None:
        """Read the filter lists and the dates of the enabled block `cycles`."""
        self.filter_lists = {}
        for name in FILTER_LISTS:
            raw = cycles.get(name)
            length = array_length(raw)
            # An array over the item limit is not read at all (D-filter-lists).
            if length is not None and length <= FILTER_LIST_MAX_ITEMS:
                self.filter_lists[name] = read_list(raw) or []
        if self.in_cooldown_mode:
            return  # in cooldown mode, spec 2.4 rule 3 owns the dates: none are read
        self.cycle_dates = {}
        for name in _CYCLE_DATES:
            text = as_string(cycles.get(name))
            if text is not None:
                self.cycle_dates[name] = parse_date(text)

    def filter_list_length(self, name: str) -> int | None:
        """The length of the array `cycles.<name>` of an enabled block, read without its items."""
        cycles = self.enabled_cycles
        return array_length(cycles.get(name)) if cycles is not None else None

    # The server's answers, each asked once however many rules need it. Each property only
    # caches; the plain function of its name below decides, where mutation testing reaches it.
    # (Cached by hand: `functools.cached_property` does not cache in a compiled class.)

    @property
    def agent_found(self) -> bool:
        """Whether the directory knows the well-formed `agent_id`."""
        if self._agent_found is None:
            self._agent_found = agent_found(self)
        return self._agent_found

    @property
    def integration_type_found(self) -> str | None:
        """The type of the agent's integration, when the agent exists and the id is well-formed."""
        if not self._integration_type_asked:
            self._integration_type_found = integration_type_found(self)
            self._integration_type_asked = True
        return self._integration_type_found


def agent_found(doc: Document) -> bool:
    """Whether the directory of `doc` knows its well-formed `agent_id`."""
    if doc.directory is None or doc.agent_id is None:
        return False
    return doc.directory.agent_exists(doc.agent_id)


def integration_type_found(doc: Document) -> str | None:
    """The type of the agent's integration, when the agent exists and the ids are well-formed."""
    if doc.directory is None or doc.agent_id is None or doc.integration_id is None:
        return None
    if not doc.agent_found:
        return None
    return doc.directory.integration_type(doc.agent_id, doc.integration_id)
