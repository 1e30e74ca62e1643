"""The campaign lifecycle: which actions move a campaign in which status (spec 3, D-lifecycle).

`check_transition` runs the lifecycle rules of the rule table over an action on a campaign;
`TRANSITIONS` is the table of moves it reads, `INITIAL_STATUS` the status of a new campaign.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from campaign_rules._core.enums import CampaignStatus, ErrorKey
from campaign_rules._core.outcome import Outcome
from campaign_rules._core.violations import Violation
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import LIFECYCLE_RULES
from campaign_rules._server.lifecycle import (
    INITIAL_STATUS,
    TRANSITIONS,
    CampaignAction,
    Transition,
    TransitionRequest,
    read_action,
    read_status,
    valid_targets,
)

__all__ = [
    "INITIAL_STATUS",
    "TRANSITIONS",
    "CampaignAction",
    "Transition",
    "TransitionResult",
    "check_transition",
]


@attrs.frozen
class TransitionResult(Outcome[Transition]):
    """The outcome of `check_transition`: the campaign's status and archived flag after it.

    `status` is 200 when ok. When the move is not allowed, the envelope of the 409 also holds
    `current_status` and `valid_targets` (the other statuses some action leads to, sorted).
    """

    current_status: CampaignStatus | None = None

    _ok_status: ClassVar[int] = 200

    def _envelope_extras(self, primary: Violation) -> dict[str, object]:
        if primary.key is not ErrorKey.INVALID_STATUS_TRANSITION or self.current_status is None:
            return {}
        return {
            "current_status": self.current_status.value,
            "valid_targets": valid_targets(self.current_status),
        }


def check_transition(
    status: object, action: object, *, billing_limit_reached: object = False
) -> TransitionResult:
    """Check an action on a campaign in `status`, by the lifecycle table (D-lifecycle).

    `status` is a `CampaignStatus` or its wire string, `action` one of `activate`, `pause`,
    `resume`, `archive`. An unknown status is `INVALID_STATUS` (400), an unknown action
    `UNKNOWN_ACTION` (400), a move the table does not allow `INVALID_STATUS_TRANSITION` (409),
    and an allowed `activate` or `resume` that changes the status while the billing limit is
    reached (anything but `False`) `BILLING_LIMIT_REACHED` (402).
    """
    request = TransitionRequest(status, action, billing_limit_reached)
    violations = tuple(run_rules(request, LIFECYCLE_RULES))
    current, verb = read_status(status), read_action(action)
    if violations or current is None or verb is None:
        return TransitionResult(value=None, violations=violations, current_status=current)
    after = Transition(TRANSITIONS[verb][current], archived=verb is CampaignAction.ARCHIVE)
    return TransitionResult(value=after, violations=(), current_status=current)
