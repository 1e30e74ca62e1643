"""Rules on a change of a campaign's status by an action (spec 3, 7.2; D-lifecycle).

Each rule reads the request through the readers of `_server.lifecycle`; the transition and
billing rules stay silent when the status or the action is unknown, which the first two rules
report.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.enums import CampaignStatus
from campaign_rules._core.json import as_boolean
from campaign_rules._core.violations import Finding
from campaign_rules._server.lifecycle import (
    BILLED_ACTIONS,
    TRANSITIONS,
    CampaignAction,
    TransitionRequest,
    read_action,
    read_status,
)

__all__ = [
    "action_is_known",
    "billing_limit_allows_start",
    "status_is_known",
    "transition_is_allowed",
]

_STATUSES: Final = ", ".join(status.value for status in CampaignStatus)
_ACTIONS: Final = ", ".join(action.value for action in CampaignAction)


def status_is_known(request: TransitionRequest, findings: list[Finding]) -> None:
    """Reads the status with `read_status`, a member or its wire string; reports at `status`."""
    if read_status(request.status) is None:
        findings.append(Finding("status", f"status must be one of {_STATUSES}"))


def action_is_known(request: TransitionRequest, findings: list[Finding]) -> None:
    """Reads the action with `read_action`, a member or its exact string; reports at `action`."""
    if read_action(request.action) is None:
        findings.append(Finding("action", f"action must be one of {_ACTIONS}"))


def transition_is_allowed(request: TransitionRequest, findings: list[Finding]) -> None:
    """Looks a known status and action up in `_server.lifecycle.TRANSITIONS`.

    A status the action has no move from is reported at the root.
    """
    status, action = read_status(request.status), read_action(request.action)
    if status is not None and action is not None and status not in TRANSITIONS[action]:
        findings.append(Finding(None, f"a campaign in status {status.value} cannot {action.value}"))


def billing_limit_allows_start(request: TransitionRequest, findings: list[Finding]) -> None:
    """Runs on a billed action that moves a known status; reports at the root.

    Only `billing_limit_reached` that is exactly `False` passes: any other value fails closed.
    """
    status, action = read_status(request.status), read_action(request.action)
    if status is None or action is None or action not in BILLED_ACTIONS:
        return
    target = TRANSITIONS[action].get(status)
    changes_status = target is not None and target is not status
    # D-lifecycle: only `False` means "not reached"; any other value fails closed.
    if changes_status and as_boolean(request.billing_limit_reached) is not False:
        findings.append(Finding(None, "the billing limit is reached: the campaign cannot start"))
