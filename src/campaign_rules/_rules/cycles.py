"""Rules on the cycles block (spec 2.4).

Spec 2.4 rule 2: a block whose `enabled` is `false` or omitted is ignored, so every rule here
reads only `CyclesState.block`, the block when it is enabled; the JSON type of `enabled`
itself is `payload.members_have_json_types`' to check.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import REQUIRED_CYCLES_MEMBER_IN_MODE, REQUIRED_CYCLES_MEMBERS
from campaign_rules._core.enums import IntegrationType
from campaign_rules._core.findings import PathThen, ReadyFindings, places, ready
from campaign_rules._core.limits import CONTACT_STATUSES
from campaign_rules._core.violations import Finding
from campaign_rules._rules.reader import as_string, item_path, member_path

__all__ = [
    "enabled_only_on_phone_call",
    "filter_statuses_match_channel",
    "required_when_enabled",
    "start_date_not_after_end_date",
]

# The rules on one member's value each (`cycles.mode`, the bounds, the filter lists, the dates,
# the schedule fields in cooldown mode) are rows of the table (`_rules.table`), with no
# function of their own. What each rule here says, made once at import (for a member, once for
# each: `ReadyFindings`) and given each time, so the runner may give again the violation it
# made of it.
_NOT_ON_PHONE_CALL: Final = ready("cycles", "cycles can be enabled on phone_call campaigns only")
_REQUIRED_WHEN_ENABLED: Final = ReadyFindings(
    PathThen("is required when cycles are enabled"), places(["cycles"], REQUIRED_CYCLES_MEMBERS)
)
_END_BEFORE_START: Final = ready(
    "cycles.schedule_end_date",
    "cycles.schedule_end_date must not be before cycles.schedule_start_date",
)
# The names the rule walks, typed as a tuple of any length (see `_core.limits.FILTER_LISTS`).
_REQUIRED_MEMBERS: Final[tuple[str, ...]] = REQUIRED_CYCLES_MEMBERS
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

    An unknown channel is the row `integration_type.is_supported`'s.
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


def start_date_not_after_end_date(doc: Document, findings: list[Finding]) -> None:
    """Compares the two dates when both parsed; reports at the end date. The same day passes."""
    dates = doc.cycles.dates
    start = dates.get("schedule_start_date")
    end = dates.get("schedule_end_date")
    if start is not None and end is not None and start > end:
        findings.append(_END_BEFORE_START)
