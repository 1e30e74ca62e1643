"""One reading of a creation payload, shared by every rule.

The payload is read once, in one pass when the `Document` is made (its members by the object
reading, `_core.object_reading`, of which a `Document` is a `Payload`): which objects are in
force (the cycles block only when enabled, the cycles schedule only outside `cooldown` mode),
what each holds, and the campaign's channel. What the cycles rules
read of the block is `_campaign.cycles_state`'s to read (whether it is enabled, and in which
mode, is declared in `_core.limits`), and the server's answers to the look-ups
`_campaign.lookups`' to ask: a `Document` holds one of each.

Reading is eager and flat, with no per-object bookkeeping, because `validate_create` runs on
every request: a rule then finds everything it needs already read (see benchmarks/README.md).
The two ids are read when asked: only the look-ups need them (the campaign of a valid payload
reads them at their places).
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.cycles_state import CyclesState
from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.lookups import Lookups
from campaign_rules._campaign.sites import (
    CAMPAIGN,
    COOLDOWN_CYCLES,
    CYCLES,
    DISABLED_CYCLES,
    SCHEDULE,
    WINDOW_PATHS,
    Window,
)
from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.enums import IntegrationType
from campaign_rules._core.formats import lower_case_uuid_v4
from campaign_rules._core.json import as_string, as_string_head, is_object
from campaign_rules._core.limits import NAME_MAX_LENGTH, WEEKDAYS
from campaign_rules._core.object_reading import Payload, Site
from campaign_rules._core.unicode import has_surrogate

__all__ = ["Document"]

_CHANNELS: Final = {channel.value: channel for channel in IntegrationType}
# The rows of `agent_id` and `integration_type` refuse every text over `NAME_MAX_LENGTH`
# characters (a UUID and a channel are shorter than a name), so a str subclass there is copied
# only that far and one character more: such a body is refused whatever the rest of the text
# holds (D-hostile-input).
_TEXT_HEAD: Final = NAME_MAX_LENGTH + 1
# The weekdays in week order, read by index (see `_core.limits.FILTER_LISTS` on tuple types).
_WEEKDAYS: Final[tuple[str, ...]] = WEEKDAYS
_SCHEDULING_WINDOW_PATHS: Final = WINDOW_PATHS["scheduling"]
# The places of the payload's members the document reads among its `root_values`: read there,
# no name is looked up in the payload again.
_INTEGRATION_TYPE: Final = CAMPAIGN.place("integration_type")
_AGENT_ID: Final = CAMPAIGN.place("agent_id")
_INTEGRATION_ID: Final = CAMPAIGN.place("integration_id")
_SCHEDULING: Final = CAMPAIGN.place("scheduling")
_CYCLES: Final = CAMPAIGN.place("cycles")
_CYCLES_SCHEDULE_WINDOW_PATHS: Final = WINDOW_PATHS["cycles.schedule"]


# Compiled, each payload makes a `Document` and frees it once its result is made: a free list
# of one keeps the last one freed for the next payload, without the allocator (as `Site`).
@mypyc_attr(free_list_len=1)
class Document(Payload):
    """A creation payload as the rules see it: a `Payload` of the campaign's shape, read further.

    From the `Payload` (`_core.object_reading`): `payload` as given, `root_site`, the payload
    read against the campaign's shape, `root`, its members (`{}` when the payload cannot be
    read), and `root_values`, the values of the shape's members at their places.

    Attributes, all read when the document is made but `agent_id` and `integration_id`
    (properties, read when asked: by the look-ups):
    `channel`: the `integration_type` when it is a supported one;
    `cycles`: the facts of the `cycles` member, a `CyclesState` (`_campaign.cycles_state`);
    `directory`: the directory given, if any, and `lookups`: a `Lookups` asking it
    (`_campaign.lookups`) when there is one, else `None`;
    `sites`: every object in force whose members are checked, root first, in document order;
    `sites_clean`: whether the payload is an object and every site `Site.clean`, noted as each
    site is added: then the shape rules (`_rules.shape`) find nothing;
    `windows`: the readable weekday windows of the schedules in force, each a `Window`;
    `scheduling_windows` and `cycles_schedule_windows`: the same windows of each schedule,
    `None` when that schedule is not in force or not readable.
    """

    def __init__(self, payload: object, directory: Directory | None = None) -> None:
        # Named rather than `super()`, as `Window`.
        Payload.__init__(self, payload, CAMPAIGN)
        self.directory = directory
        root = self.root_site
        values = self.root_values
        channel = as_string_head(values[_INTEGRATION_TYPE], _TEXT_HEAD)
        self.channel: IntegrationType | None = _CHANNELS.get(channel or "")
        self.lookups: Lookups | None = (
            Lookups(directory, self.agent_id, self.integration_id)
            if directory is not None
            else None
        )
        raw_cycles = values[_CYCLES]
        self.cycles = CyclesState(self)

        # Made with the root in it rather than empty: a list of one grows to room for eight at
        # its first append, an empty one to four then eight (one allocation fewer).
        self.sites: list[Site] = [root] if is_object(payload) else []
        self.sites_clean = root.clean  # a clean root is a `dict`: the payload is an object
        self.scheduling_windows: list[Window] | None = None
        self.cycles_schedule_windows: list[Window] | None = None
        if self.sites:  # the payload is an object
            self._read_sites(raw_cycles)
        self.windows: list[Window] = self._windows_in_force()

    @property
    def agent_id(self) -> str | None:
        """The `agent_id` in lower case when it is a well-formed UUID v4 (D-agent-id), else `None`.

        Read when asked, by the look-ups, rather than for every payload: whether it is
        well-formed is the row `agent_id.is_uuid_v4`'s.
        """
        text = as_string_head(self.root_values[_AGENT_ID], _TEXT_HEAD)
        return lower_case_uuid_v4(text) if text is not None else None

    @property
    def integration_id(self) -> str | None:
        """The `integration_id` when it is well-formed: a non-empty string of Unicode text.

        Unicode text, which a store can be asked for (D-lone-surrogates; an ASCII id is told at
        once). Read when asked, by the look-ups, rather than for every payload.
        """
        return _well_formed_id(self.root_values[_INTEGRATION_ID])

    def _read_sites(self, raw_cycles: object) -> None:
        """Add the sites after the root's, of a payload that is an object, and read its windows.

        `raw_cycles` is the payload's `cycles` member as given (`None` when absent).
        """
        self.scheduling_windows = self._read_schedule(
            "scheduling", self.root_values[_SCHEDULING], _SCHEDULING_WINDOW_PATHS
        )
        if not is_object(raw_cycles):
            return
        cycles = self.cycles
        if cycles.block is None:
            site = Site("cycles", raw_cycles, DISABLED_CYCLES)
        elif cycles.in_cooldown_mode:
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
                "cycles.schedule", cycles.schedule, _CYCLES_SCHEDULE_WINDOW_PATHS
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


def _well_formed_id(value: object) -> str | None:
    """`value` as a plain `str` when it is a non-empty string of Unicode text, else `None`."""
    text = as_string(value)
    return text if text and not has_surrogate(text) else None
