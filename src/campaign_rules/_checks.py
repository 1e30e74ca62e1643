"""The request checks: path parameters, the `Idempotency-Key` header and lifecycle actions.

Each runs its rule table (`rules/table.py`) over what it was given and returns an `Outcome`.
None raises for any value.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from campaign_rules._enums import CampaignStatus, ErrorKey
from campaign_rules._lifecycle import (
    TRANSITIONS,
    CampaignAction,
    Transition,
    TransitionRequest,
    read_action,
    read_status,
    valid_targets,
)
from campaign_rules._paths import ContactPath, ContactPathParameters, read_path_id
from campaign_rules._results import Outcome, status_body
from campaign_rules._runner import run_rules
from campaign_rules._violations import Violation
from campaign_rules.rules.table import (
    CONTACT_PATH_RULES,
    IDEMPOTENCY_KEY_RULES,
    LIFECYCLE_RULES,
    THREAD_PATH_RULES,
)

__all__ = [
    "ContactPathResult",
    "IdempotencyKeyResult",
    "ThreadPathResult",
    "TransitionResult",
    "check_contact_path",
    "check_idempotency_key",
    "check_thread_path",
    "check_transition",
]


@attrs.frozen
class ContactPathResult(Outcome[ContactPath]):
    """The outcome of `check_contact_path`: the two ids as integers, or violations.

    A malformed campaign id is `NOT_FOUND` (field `id`), a malformed contact id
    `CONTACT_NOT_FOUND` (field `contact_id`), both 404 (D-path-ids). `status` is 200 when ok.
    """

    _ok_status: ClassVar[int] = 200


@attrs.frozen
class ThreadPathResult(Outcome[str]):
    """The outcome of `check_thread_path`: the thread id, or a `NOT_FOUND` violation (404).

    Thread errors have the body of spec 7.4, `{"error": <status>, "message": ...}`, so
    `envelope()` gives that shape (D-thread-id). `status` is 200 when ok.
    """

    _ok_status: ClassVar[int] = 200

    def envelope(self) -> dict[str, object] | None:
        """The thread error body of spec 7.4, `{"error": 404, "message": ...}`; `None` when ok."""
        return status_body(self.primary)


@attrs.frozen
class IdempotencyKeyResult(Outcome[str]):
    """The outcome of `check_idempotency_key`: the key (`None` when absent), or a violation.

    A malformed key is `INVALID_REQUEST` (400), field `Idempotency-Key` (D-idempotency-key).
    """

    _ok_status: ClassVar[int] = 200


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


def check_contact_path(campaign_id: object, contact_id: object) -> ContactPathResult:
    """Check the path of `GET /campaigns/{id}/contacts/{contact_id}` (spec 4.2, D-path-ids).

    Each id is a string of 1 to 16 ASCII digits without a leading zero, or an integer, from 1
    to 2**53 - 1. Both are checked, and every violation reported.
    """
    parameters = ContactPathParameters(campaign_id, contact_id)
    violations = tuple(run_rules(parameters, CONTACT_PATH_RULES))
    campaign, contact = read_path_id(campaign_id), read_path_id(contact_id)
    if violations or campaign is None or contact is None:
        return ContactPathResult(value=None, violations=violations)
    return ContactPathResult(value=ContactPath(campaign, contact), violations=())


def check_thread_path(thread_id: object) -> ThreadPathResult:
    """Check the path of `GET /thread/{id}` (spec 4.3, D-thread-id).

    The id is 1 to 128 of the characters a URL path holds unescaped: ASCII letters, digits,
    `-`, `.`, `_` and `~`, and not `.` or `..`.
    """
    violations = tuple(run_rules(thread_id, THREAD_PATH_RULES))
    if violations:
        return ThreadPathResult(value=None, violations=violations)
    return ThreadPathResult(value=str.__str__(thread_id), violations=())


def check_idempotency_key(header_value: object) -> IdempotencyKeyResult:
    """Check an `Idempotency-Key` header value, or `None` when absent (spec 4.1 rule 2).

    A key is 1 to 255 visible ASCII characters (0x21 to 0x7E), compared exactly: a UUID is
    recommended, not required (D-idempotency-key). An absent header is ok, with value `None`.
    """
    violations = tuple(run_rules(header_value, IDEMPOTENCY_KEY_RULES))
    if violations or header_value is None:
        return IdempotencyKeyResult(value=None, violations=violations)
    return IdempotencyKeyResult(value=str.__str__(header_value), violations=())


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
