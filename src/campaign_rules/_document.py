"""One reading of a creation payload, shared by every rule.

The payload is read once, here: which objects are in force (the cycles block only when
enabled, the cycles schedule only outside `cooldown` mode), what each holds, and the
server's answers to the look-ups, each asked at most once.
"""

from __future__ import annotations

import datetime
import functools
from typing import NamedTuple

import attrs

from campaign_rules._directory import Directory
from campaign_rules._enums import CyclesMode, IntegrationType
from campaign_rules._formats import is_uuid_v4, parse_time
from campaign_rules._json import (
    array_length,
    as_string,
    is_object,
    member_path,
    read_list,
    read_object,
)
from campaign_rules._limits import (
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    WEEKDAYS,
)
from campaign_rules._shape import (
    CAMPAIGN_MEMBERS,
    CYCLES_MEMBERS,
    REQUIRED_CAMPAIGN_MEMBERS,
    REQUIRED_WINDOW_MEMBERS,
    SCHEDULE_MEMBERS,
    WINDOW_MEMBERS,
    MemberTypes,
)

__all__ = ["Document", "Site", "TimeOfDay"]

_CHANNELS = {channel.value: channel for channel in IntegrationType}
_ENABLED_ONLY: MemberTypes = {"enabled": CYCLES_MEMBERS["enabled"]}


class TimeOfDay(NamedTuple):
    """A window's time member, sent as a string: its path, and its time when it is HH:MM."""

    path: str
    time: datetime.time | None


@attrs.frozen
class Site:
    """An object of the payload whose members are checked, and the shape they are checked against.

    `raw` is the object as given; `members` its string-named members, read once (`None` when it
    is too large to read). `closed`: whether members outside `shape` are refused.
    `left_to_others`: members whose JSON type another rule owns.
    """

    path: str | None
    raw: object
    shape: MemberTypes
    required: tuple[str, ...] = ()
    closed: bool = True
    left_to_others: tuple[str, ...] = ()
    members: dict[str, object] | None = attrs.field(
        init=False, default=attrs.Factory(lambda site: read_object(site.raw), takes_self=True)
    )


class Document:
    """A creation payload as the rules see it; `root` is `{}` when the payload cannot be read."""

    def __init__(self, payload: object, directory: Directory | None = None) -> None:
        self.payload = payload
        self.directory = directory
        self.root: dict[str, object] = read_object(payload) or {}
        self._strings: dict[str, str | None] = {}

    def string(self, name: str) -> str | None:
        """The payload's member `name` when it is a string (read once, however often asked)."""
        if name not in self._strings:
            self._strings[name] = as_string(self.root.get(name))
        return self._strings[name]

    @functools.cached_property
    def channel(self) -> IntegrationType | None:
        """The `integration_type` when it is a supported one."""
        return _CHANNELS.get(self.string("integration_type") or "")

    @functools.cached_property
    def agent_id(self) -> str | None:
        """The `agent_id` in lower case when it is a well-formed UUID v4."""
        text = self.string("agent_id")
        return text.lower() if text is not None and is_uuid_v4(text) else None

    @functools.cached_property
    def integration_id(self) -> str | None:
        """The `integration_id` when it is a non-empty string."""
        return self.string("integration_id") or None

    @functools.cached_property
    def enabled_cycles(self) -> dict[str, object] | None:
        """The cycles block when it is an object whose `enabled` is `true` (spec 2.4 rule 2)."""
        cycles = read_object(self.root.get("cycles"))
        return cycles if cycles is not None and cycles.get("enabled") is True else None

    @property
    def cycles_enabled(self) -> bool:
        """Whether the payload has an enabled cycles block."""
        return self.enabled_cycles is not None

    @functools.cached_property
    def cycles_mode(self) -> str | None:
        """The `mode` of an enabled cycles block when it is a string, known or not."""
        cycles = self.enabled_cycles
        return as_string(cycles.get("mode")) if cycles is not None else None

    @property
    def in_cooldown_mode(self) -> bool:
        """Whether the cycles block is enabled in `cooldown` mode."""
        return self.cycles_mode == CyclesMode.COOLDOWN

    @functools.cached_property
    def cycles_schedule(self) -> object:
        """The raw `cycles.schedule` of an enabled block outside cooldown mode, if any.

        In cooldown mode the schedule is not in force: `cooldown_mode_has_no_schedule` refuses
        it whole.
        """
        cycles = self.enabled_cycles
        return None if cycles is None or self.in_cooldown_mode else cycles.get("schedule")

    @functools.cached_property
    def windows(self) -> tuple[tuple[str, dict[str, object]], ...]:
        """The readable weekday windows of the schedules in force, with their paths.

        Taken from `sites`, so that each window is read once.
        """
        return tuple(
            (site.path, site.members)
            for site in self.sites
            if site.shape is WINDOW_MEMBERS and site.path is not None and site.members is not None
        )

    @functools.cached_property
    def window_times(self) -> tuple[tuple[TimeOfDay | None, TimeOfDay | None], ...]:
        """The `startTime` and `stopTime` of each window in force, each parsed once.

        `None` stands for a member that is absent or not a string (other rules report it).
        """
        return tuple(
            (_time_of_day(path, window, "startTime"), _time_of_day(path, window, "stopTime"))
            for path, window in self.windows
        )

    @functools.cached_property
    def sites(self) -> tuple[Site, ...]:
        """Every object in force whose members are checked, root first, in document order.

        Only members that are JSON objects are sites; the parent's type check reports others.
        """
        if not is_object(self.payload):
            return ()
        sites = [Site(None, self.payload, CAMPAIGN_MEMBERS, REQUIRED_CAMPAIGN_MEMBERS)]
        sites += _schedule_sites("scheduling", self.root.get("scheduling"))
        raw_cycles = self.root.get("cycles")
        if not is_object(raw_cycles):
            return tuple(sites)
        if not self.cycles_enabled:
            # spec 2.4 rule 2: of a block not enabled, only `enabled` itself is read.
            sites.append(Site("cycles", raw_cycles, _ENABLED_ONLY, closed=False))
        elif self.in_cooldown_mode:
            # spec 2.4 rule 3: `cycles.cooldown_mode_has_no_schedule` owns the schedule fields.
            left = SCHEDULE_ONLY_CYCLES_FIELDS
            sites.append(Site("cycles", raw_cycles, CYCLES_MEMBERS, left_to_others=left))
        else:
            sites.append(Site("cycles", raw_cycles, CYCLES_MEMBERS))
            sites += _schedule_sites("cycles.schedule", self.cycles_schedule)
        return tuple(sites)

    def filter_list_length(self, name: str) -> int | None:
        """The length of the array `cycles.<name>` of an enabled block, read without its items."""
        cycles = self.enabled_cycles
        return array_length(cycles.get(name)) if cycles is not None else None

    @functools.cached_property
    def filter_lists(self) -> dict[str, list[object]]:
        """The filter arrays of an enabled block within the item limit, by name, items read.

        An array over the limit is not read at all (D-filter-lists).
        """
        cycles = self.enabled_cycles
        if cycles is None:
            return {}
        return {
            name: read_list(cycles.get(name)) or []
            for name in FILTER_LISTS
            if (length := self.filter_list_length(name)) is not None
            and length <= FILTER_LIST_MAX_ITEMS
        }

    # The server's answers, each asked once however many rules need it.

    @functools.cached_property
    def agent_found(self) -> bool:
        """Whether the directory knows the well-formed `agent_id`."""
        if self.directory is None or self.agent_id is None:
            return False
        return self.directory.agent_exists(self.agent_id)

    @functools.cached_property
    def integration_type_found(self) -> str | None:
        """The type of the agent's integration, when the agent exists and the id is well-formed."""
        if self.directory is None or self.agent_id is None or self.integration_id is None:
            return None
        if not self.agent_found:
            return None
        return self.directory.integration_type(self.agent_id, self.integration_id)


def _time_of_day(window_path: str, window: dict[str, object], name: str) -> TimeOfDay | None:
    text = as_string(window.get(name))
    if text is None:
        return None
    return TimeOfDay(member_path(window_path, name), parse_time(text))


def _schedule_sites(path: str, raw: object) -> list[Site]:
    """The sites of a Schedule object and of its weekday windows."""
    if not is_object(raw):
        return []
    sites = [Site(path, raw, SCHEDULE_MEMBERS)]
    schedule = read_object(raw)
    if schedule is not None:
        sites += [
            Site(member_path(path, day), window, WINDOW_MEMBERS, REQUIRED_WINDOW_MEMBERS)
            for day in WEEKDAYS
            if is_object(window := schedule.get(day))
        ]
    return sites
