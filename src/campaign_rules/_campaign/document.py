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
from typing import Final

from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.sites import (
    CAMPAIGN,
    COOLDOWN_CYCLES,
    CYCLES,
    DISABLED_CYCLES,
    SCHEDULE,
    WINDOW_PATHS,
    Site,
    Window,
)
from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.enums import CyclesMode, IntegrationType
from campaign_rules._core.formats import lower_case_uuid_v4, parse_date
from campaign_rules._core.json import (
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
    WEEKDAYS,
)
from campaign_rules._core.unicode import has_surrogate

__all__ = [
    "CYCLE_DATES",
    "Document",
    "agent_found",
    "integration_type_found",
]

_CHANNELS: Final = {channel.value: channel for channel in IntegrationType}
_COOLDOWN: Final[str] = CyclesMode.COOLDOWN.value
# spec 2.4: the two dates of the cycles schedule (a tuple of any length, as `FILTER_LISTS`).
CYCLE_DATES: Final[tuple[str, ...]] = ("schedule_start_date", "schedule_end_date")
# The members that rules read as text are each read (and a str subclass copied) once, into an
# attribute of the document (`Document.name_text`, ...), read as a field compiled, where a
# mapping of the five names cost a look-up on every read, and its making and freeing. The
# rules of `name`, `agent_id`, `integration_type` and `timezone` refuse every text over
# `NAME_MAX_LENGTH` characters (a UUID, a channel and a zone name are shorter than a name), so
# a str subclass there is copied only that far and one character more, which they refuse as
# they would the whole (D-hostile-input).
_TEXT_HEAD: Final = NAME_MAX_LENGTH + 1
# What a payload without an enabled cycles block has of filter lists and dates: shared, and
# never written (`_read_enabled_cycles` gives a document mappings of its own).
_NO_FILTER_LISTS: Final[dict[str, list[object]]] = {}
_NO_CYCLE_DATES: Final[dict[str, datetime.date | None]] = {}
# The weekdays in week order, read by index (see `_core.limits.FILTER_LISTS` on tuple types).
_WEEKDAYS: Final[tuple[str, ...]] = WEEKDAYS
_SCHEDULING_WINDOW_PATHS: Final = WINDOW_PATHS["scheduling"]
_CYCLES_SCHEDULE_WINDOW_PATHS: Final = WINDOW_PATHS["cycles.schedule"]


# Compiled, each payload makes a `Document` and frees it once its result is made: a free list
# of one keeps the last one freed for the next payload, without the allocator (as `Site`).
@mypyc_attr(free_list_len=1)
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
        root = Site(None, payload, CAMPAIGN)
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
        # Compared once, with a plain `str`, rather than with the enum member (a generic
        # comparison) by a property on each of its reads.
        self.in_cooldown_mode: bool = mode is not None and mode == _COOLDOWN
        self.cycles_schedule: object = (
            enabled.get("schedule") if enabled is not None and not self.in_cooldown_mode else None
        )

        # Made with the root in it rather than empty: a list of one grows to room for eight at
        # its first append, an empty one to four then eight (one allocation fewer).
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
            site = Site("cycles", raw_cycles, DISABLED_CYCLES)
        elif self.in_cooldown_mode:
            site = Site("cycles", raw_cycles, COOLDOWN_CYCLES)
        else:
            site = Site("cycles", raw_cycles, CYCLES)
        # Each site added is noted in `sites_clean` where it is added, rather than by a method
        # doing both (a call a site).
        self.sites.append(site)
        if not site.clean:
            self.sites_clean = False
        if site.kind is CYCLES:
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
        site = Site(path, raw, SCHEDULE)
        self.sites.append(site)
        if not site.clean:
            self.sites_clean = False
        schedule = site.members
        if schedule is None:
            return None
        windows: list[Window] = []
        # Its members not met yet: once none is left, no later day is there to look up. A
        # member `null` or not a weekday is never met: no early end.
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
        made, filled and freed for each payload): nothing writes these lists.
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
        for name in CYCLE_DATES:
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
