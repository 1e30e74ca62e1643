"""The rules of the Campaign Outreach Service's REST interface, for servers and SDKs alike.

A server answers a create request with::

    result = validate_create(body, directory=records)
    if not result.ok:
        return result.status, result.envelope()

and an SDK checks the same body offline, before sending it, with `validate_create(body)`.
"""

from __future__ import annotations

from campaign_rules._authorization import AuthorizationResult, parse_authorization
from campaign_rules._catalogue import RuleInfo, catalogue
from campaign_rules._checks import (
    ContactPathResult,
    IdempotencyKeyResult,
    ThreadPathResult,
    TransitionResult,
    check_contact_path,
    check_idempotency_key,
    check_thread_path,
    check_transition,
)
from campaign_rules._convert import to_wire
from campaign_rules._directory import Directory
from campaign_rules._enums import CampaignStatus, CyclesMode, ErrorKey, IntegrationType
from campaign_rules._fingerprint import FingerprintResult, request_fingerprint
from campaign_rules._idempotency import (
    IdempotencyAction,
    IdempotencyDecision,
    IdempotencyRecord,
    decide_idempotency,
    is_storable_status,
)
from campaign_rules._lifecycle import INITIAL_STATUS, TRANSITIONS, CampaignAction, Transition
from campaign_rules._models import CampaignCreate, CyclesConfig, DayWindow, Schedule
from campaign_rules._paths import ContactPath
from campaign_rules._rate import RateLimiter, RateResult
from campaign_rules._results import CreateResult, UpdateResult
from campaign_rules._validate import validate_create, validate_update
from campaign_rules._violations import Violation

__all__ = [
    "INITIAL_STATUS",
    "TRANSITIONS",
    "AuthorizationResult",
    "CampaignAction",
    "CampaignCreate",
    "CampaignStatus",
    "ContactPath",
    "ContactPathResult",
    "CreateResult",
    "CyclesConfig",
    "CyclesMode",
    "DayWindow",
    "Directory",
    "ErrorKey",
    "FingerprintResult",
    "IdempotencyAction",
    "IdempotencyDecision",
    "IdempotencyKeyResult",
    "IdempotencyRecord",
    "IntegrationType",
    "RateLimiter",
    "RateResult",
    "RuleInfo",
    "Schedule",
    "ThreadPathResult",
    "Transition",
    "TransitionResult",
    "UpdateResult",
    "Violation",
    "catalogue",
    "check_contact_path",
    "check_idempotency_key",
    "check_thread_path",
    "check_transition",
    "decide_idempotency",
    "is_storable_status",
    "parse_authorization",
    "request_fingerprint",
    "to_wire",
    "validate_create",
    "validate_update",
]

__version__ = "0.1.0"
