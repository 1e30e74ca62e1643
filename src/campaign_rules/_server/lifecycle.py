"""The campaign lifecycle: which action moves a campaign from which status to which (D-lifecycle).

The spec hides the transitions (spec 3); the public service documents them, and this table is
that documentation, written as data.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from campaign_rules._core.enums import CampaignStatus
from campaign_rules._core.json import as_string

__all__ = [
    "BILLED_ACTIONS",
    "INITIAL_STATUS",
    "TRANSITIONS",
    "CampaignAction",
    "Transition",
    "TransitionRequest",
    "read_action",
    "read_status",
    "valid_targets",
]


class CampaignAction(enum.StrEnum):
    """The actions that change a campaign's status or archive it (D-lifecycle)."""

    ACTIVATE = "activate"
    PAUSE = "pause"
    RESUME = "resume"
    ARCHIVE = "archive"


_S = CampaignStatus

# D-lifecycle. For each action: the status it is allowed from -> the status after it. A status
# not listed under an action is INVALID_STATUS_TRANSITION (409). `pause` on an inactive and
# `resume` on an active campaign are allowed no-ops; `activate` is not idempotent. `archive`
# keeps the status and sets `archived`.
TRANSITIONS: Final[Mapping[CampaignAction, Mapping[CampaignStatus, CampaignStatus]]] = (
    MappingProxyType({
        CampaignAction.ACTIVATE: MappingProxyType({
            _S.PENDING: _S.ACTIVE, _S.READY: _S.ACTIVE, _S.COOLDOWN: _S.ACTIVE,
        }),
        CampaignAction.PAUSE: MappingProxyType({
            _S.ACTIVE: _S.INACTIVE, _S.COOLDOWN: _S.INACTIVE, _S.INACTIVE: _S.INACTIVE,
        }),
        CampaignAction.RESUME: MappingProxyType({_S.INACTIVE: _S.ACTIVE, _S.ACTIVE: _S.ACTIVE}),
        CampaignAction.ARCHIVE: MappingProxyType({status: status for status in CampaignStatus}),
    })
)  # fmt: skip

# D-lifecycle: the status of a newly created campaign.
INITIAL_STATUS: Final = CampaignStatus.PENDING

# D-lifecycle: the actions the billing limit stops, when they change the status.
BILLED_ACTIONS: Final = frozenset({CampaignAction.ACTIVATE, CampaignAction.RESUME})


@attrs.frozen
class Transition:
    """A campaign after an allowed action: its status, and whether it is archived."""

    status: CampaignStatus
    archived: bool


@attrs.frozen
class TransitionRequest:
    """What `check_transition` was given, unread: any values."""

    status: object
    action: object
    billing_limit_reached: object


def read_status(value: object) -> CampaignStatus | None:
    """The `CampaignStatus` that `value` (a member or its wire string) names, else `None`."""
    text = as_string(value)
    return CampaignStatus(text) if text in _STATUS_VALUES else None


def read_action(value: object) -> CampaignAction | None:
    """The `CampaignAction` that `value` (a member or its string, exact case) names."""
    text = as_string(value)
    return CampaignAction(text) if text in _ACTION_VALUES else None


def valid_targets(status: CampaignStatus) -> list[str]:
    """The other statuses some action moves a `status` campaign to, sorted (D-lifecycle)."""
    targets = {moves[status] for moves in TRANSITIONS.values() if status in moves}
    return sorted(target.value for target in targets if target is not status)


_STATUS_VALUES: Final = frozenset(status.value for status in CampaignStatus)
_ACTION_VALUES: Final = frozenset(action.value for action in CampaignAction)
