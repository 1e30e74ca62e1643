"""Rules on the cycles block (spec 2.4).

Spec 2.4 rule 2: a block whose `enabled` is `false` or omitted is ignored, so every rule here
reads only `CyclesState.block`, the block when it is enabled; the JSON type of `enabled`
itself is `payload.members_have_json_types`' to check.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.cycles_state import CYCLE_DATES
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import REQUIRED_CYCLES_MEMBER_IN_MODE, REQUIRED_CYCLES_MEMBERS
from campaign_rules._core.enums import CyclesMode, IntegrationType
from campaign_rules._core.findings import PathThen, ReadyFindings, places, ready
from campaign_rules._core.json import as_string, item_path, member_path
from campaign_rules._core.limits import (
    CONTACT_STATUSES,
    COOLDOWN_MINUTES,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
    SCHEDULE_ONLY_CYCLES_FIELDS,
)
from campaign_rules._core.violations import Finding
from campaign_rules._rules._common import integer_outside

__all__ = [
    "cooldown_minutes_within_bounds",
    "cooldown_mode_has_no_schedule",
    "dates_are_iso",
    "enabled_only_on_phone_call",
    "filter_items_are_non_empty_strings",
    "filter_items_are_unique",
    "filter_lists_within_max_items",
    "filter_statuses_match_channel",
    "max_iterations_within_bounds",
    "mode_is_known",
    "required_when_enabled",
    "start_date_not_after_end_date",
]

_MODE_VALUES: Final = frozenset(mode.value for mode in CyclesMode)
_MODES: Final = ", ".join(mode.value for mode in CyclesMode)
# What each rule says, made once at import (for a member, once for each: `ReadyFindings`) and
# given each time, so the runner may give again the violation it made of it.
_NOT_ON_PHONE_CALL: Final = ready("cycles", "cycles can be enabled on phone_call campaigns only")
_REQUIRED_WHEN_ENABLED: Final = ReadyFindings(
    PathThen("is required when cycles are enabled"), places(["cycles"], REQUIRED_CYCLES_MEMBERS)
)
_UNKNOWN_MODE: Final = ready("cycles.mode", f"cycles.mode must be one of {_MODES}")
_MAX_ITERATIONS_OUTSIDE: Final = ready(
    "cycles.max_iterations", MAX_ITERATIONS.must_be("cycles.max_iterations")
)
_COOLDOWN_MINUTES_OUTSIDE: Final = ready(
    "cycles.cooldown_minutes", COOLDOWN_MINUTES.must_be("cycles.cooldown_minutes")
)
_TOO_MANY_ITEMS: Final = ReadyFindings(
    PathThen(f"must hold at most {FILTER_LIST_MAX_ITEMS} items"), places(["cycles"], FILTER_LISTS)
)
_SCHEDULED_MODE_ONLY: Final = ReadyFindings(
    PathThen("is for scheduled mode only"), places(["cycles"], SCHEDULE_ONLY_CYCLES_FIELDS)
)
_NOT_A_DATE: Final = ReadyFindings(
    PathThen("must be a calendar date YYYY-MM-DD"), places(["cycles"], CYCLE_DATES)
)
_END_BEFORE_START: Final = ready(
    "cycles.schedule_end_date",
    "cycles.schedule_end_date must not be before cycles.schedule_start_date",
)
# The names each rule walks, typed as tuples of any length (see `_core.limits.FILTER_LISTS`).
_REQUIRED_MEMBERS: Final[tuple[str, ...]] = REQUIRED_CYCLES_MEMBERS
_SCHEDULE_ONLY_FIELDS: Final[tuple[str, ...]] = SCHEDULE_ONLY_CYCLES_FIELDS
# The member each mode adds, by the mode's text: one look-up of the block's mode, where walking
# the modes compared it with each enum member generically.
_MEMBER_IN_MODE: Final[dict[str, str]] = {
    mode.value: name for mode, name in REQUIRED_CYCLES_MEMBER_IN_MODE.items()
}
# Each channel's contact statuses as plain strings: a set of enum members compared each item
# with a member generically.
_STATUS_TEXTS: Final[dict[IntegrationType, frozenset[str]]] = {
    channel: frozenset(status.value for status in statuses)
    for channel, statuses in CONTACT_STATUSES.items()
}


def enabled_only_on_phone_call(doc: Document, findings: list[Finding]) -> None:
    """Reports at `cycles` an enabled block whose channel is `IntegrationType.WHATSAPP`.

    An unknown channel is `integration_type_is_supported`'s.
    """
    if doc.cycles.enabled and doc.channel is IntegrationType.WHATSAPP:
        findings.append(_NOT_ON_PHONE_CALL)


def required_when_enabled(doc: Document, findings: list[Finding]) -> None:
    """Reads only an enabled block; reports each absent member at its path.

    First the members of `REQUIRED_CYCLES_MEMBERS`, then, for a known mode, its member of
    `REQUIRED_CYCLES_MEMBER_IN_MODE`.
    """
    cycles = doc.cycles.block
    if cycles is None:
        return
    for name in _REQUIRED_MEMBERS:
        if name not in cycles:
            findings.append(_REQUIRED_WHEN_ENABLED.at("cycles", name))
    mode = doc.cycles.mode
    in_mode = _MEMBER_IN_MODE.get(mode) if mode is not None else None
    if in_mode is not None and in_mode not in cycles:
        path = member_path("cycles", in_mode)
        findings.append(Finding(path, f"{path} is required in {mode} mode"))


def mode_is_known(doc: Document, findings: list[Finding]) -> None:
    """Reports at `cycles.mode` the string mode of an enabled block that names no `CyclesMode`.

    An absent mode is `required_when_enabled`'s, another type the type rule's.
    """
    mode = doc.cycles.mode
    if mode is not None and mode not in _MODE_VALUES:
        findings.append(_UNKNOWN_MODE)


def max_iterations_within_bounds(doc: Document, findings: list[Finding]) -> None:
    """Reads a JSON integer of an enabled block against `_core.limits.MAX_ITERATIONS`.

    Another type is the type rule's.
    """
    cycles = doc.cycles.block
    if cycles is not None and integer_outside(cycles.get("max_iterations"), MAX_ITERATIONS):
        findings.append(_MAX_ITERATIONS_OUTSIDE)


def cooldown_minutes_within_bounds(doc: Document, findings: list[Finding]) -> None:
    """Reads a JSON integer of an enabled block, in either mode, against `_core.limits`.

    Another type is the type rule's.
    """
    cycles = doc.cycles.block
    if cycles is not None and integer_outside(cycles.get("cooldown_minutes"), COOLDOWN_MINUTES):
        findings.append(_COOLDOWN_MINUTES_OUTSIDE)


def filter_lists_within_max_items(doc: Document, findings: list[Finding]) -> None:
    """Measures each filter array of an enabled block without reading its items.

    A long one is reported at its path; the document does not read it
    (`CyclesState.filter_list_length`), so no other filter rule looks inside it.
    """
    for name in FILTER_LISTS:
        length = doc.cycles.filter_list_length(name)
        if length is not None and length > FILTER_LIST_MAX_ITEMS:
            findings.append(_TOO_MANY_ITEMS.at("cycles", name))


def filter_items_are_non_empty_strings(doc: Document, findings: list[Finding]) -> None:
    """Reads the items of each filter array read (`CyclesState.filter_lists`); reports at the item.

    An item's path is its array's with its index in brackets.
    """
    for name, items in doc.cycles.filter_lists.items():
        for index, item in enumerate(items):
            if not as_string(item):
                path = item_path(member_path("cycles", name), index)
                findings.append(Finding(path, f"{path} must be a non-empty string"))


def filter_items_are_unique(doc: Document, findings: list[Finding]) -> None:
    """Remembers the non-empty string items of each filter array; reports a repeat at the later one.

    The other items are `filter_items_are_non_empty_strings`' to report.
    """
    for name, items in doc.cycles.filter_lists.items():
        if len(items) < 2:
            continue  # nothing to repeat: no set made and freed
        seen: set[str] = set()
        for index, item in enumerate(items):
            text = as_string(item)
            if not text:
                continue  # not a non-empty string: the rule above reports it
            if text in seen:
                path = item_path(member_path("cycles", name), index)
                findings.append(Finding(path, f"{path} repeats an earlier item"))
            seen.add(text)


def filter_statuses_match_channel(doc: Document, findings: list[Finding]) -> None:
    """Reads each non-empty string status on a known channel against its contact statuses.

    They are `_core.limits.CONTACT_STATUSES`; each item is reported at its own path, and an unknown
    channel leaves the rule silent.
    """
    if doc.channel is None:
        return  # which statuses exist depends on the channel; its own rule reports it
    items = doc.cycles.filter_lists.get("filter_statuses")
    if items is None:
        return
    statuses = _STATUS_TEXTS[doc.channel]
    for index, item in enumerate(items):
        text = as_string(item)
        if text and text not in statuses:
            path = item_path("cycles.filter_statuses", index)
            findings.append(Finding(path, f"{path} must be a {doc.channel.value} contact status"))


def cooldown_mode_has_no_schedule(doc: Document, findings: list[Finding]) -> None:
    """Runs on an enabled block in cooldown mode; reports each schedule member that is not `null`.

    The members are `SCHEDULE_ONLY_CYCLES_FIELDS`; in this mode the shape rules leave them to it.
    """
    state = doc.cycles
    cycles = state.block
    if cycles is None or not state.in_cooldown_mode:
        return
    for name in _SCHEDULE_ONLY_FIELDS:
        if cycles.get(name) is not None:
            findings.append(_SCHEDULED_MODE_ONLY.at("cycles", name))


def dates_are_iso(doc: Document, findings: list[Finding]) -> None:
    """Reports each string date of an enabled block outside cooldown mode that did not parse.

    The document parses them once (`CyclesState.dates`); each is reported at its path.
    """
    for name, date in doc.cycles.dates.items():
        if date is None:
            findings.append(_NOT_A_DATE.at("cycles", name))


def start_date_not_after_end_date(doc: Document, findings: list[Finding]) -> None:
    """Compares the two dates when both parsed; reports at the end date. The same day passes."""
    dates = doc.cycles.dates
    start = dates.get("schedule_start_date")
    end = dates.get("schedule_end_date")
    if start is not None and end is not None and start > end:
        findings.append(_END_BEFORE_START)
