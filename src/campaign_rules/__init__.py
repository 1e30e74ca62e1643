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
from campaign_rules._enums import (
    CampaignStatus,
    ContactStatus,
    CyclesMode,
    ErrorKey,
    IntegrationType,
)
from campaign_rules._fingerprint import FingerprintResult, request_fingerprint
from campaign_rules._idempotency import (
    IdempotencyAction,
    IdempotencyDecision,
    IdempotencyRecord,
    decide_idempotency,
    is_storable_status,
)
from campaign_rules._lifecycle import INITIAL_STATUS, TRANSITIONS, CampaignAction, Transition
from campaign_rules._limits import CONTACT_STATUSES
from campaign_rules._models import CampaignCreate, CyclesConfig, DayWindow, Schedule
from campaign_rules._parse import (
    ParseResult,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules._paths import ContactPath
from campaign_rules._rate import RateLimiter, RateResult
from campaign_rules._response_models import (
    AgentRef,
    ApiError,
    Assignee,
    CampaignContact,
    CampaignCycles,
    CampaignDetail,
    CredentialsError,
    EndUser,
    Integration,
    IntegrationRef,
    Thread,
    ThreadTag,
)
from campaign_rules._results import CreateResult, UpdateResult
from campaign_rules._schema import json_schema
from campaign_rules._validate import validate_create, validate_update
from campaign_rules._violations import Violation

__all__ = [
    "CONTACT_STATUSES",
    "INITIAL_STATUS",
    "TRANSITIONS",
    "AgentRef",
    "ApiError",
    "Assignee",
    "AuthorizationResult",
    "CampaignAction",
    "CampaignContact",
    "CampaignCreate",
    "CampaignCycles",
    "CampaignDetail",
    "CampaignStatus",
    "ContactPath",
    "ContactPathResult",
    "ContactStatus",
    "CreateResult",
    "CredentialsError",
    "CyclesConfig",
    "CyclesMode",
    "DayWindow",
    "Directory",
    "EndUser",
    "ErrorKey",
    "FingerprintResult",
    "IdempotencyAction",
    "IdempotencyDecision",
    "IdempotencyKeyResult",
    "IdempotencyRecord",
    "Integration",
    "IntegrationRef",
    "IntegrationType",
    "ParseResult",
    "RateLimiter",
    "RateResult",
    "RuleInfo",
    "Schedule",
    "Thread",
    "ThreadPathResult",
    "ThreadTag",
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
    "json_schema",
    "parse_authorization",
    "parse_contact_response",
    "parse_create_response",
    "parse_error",
    "parse_thread",
    "request_fingerprint",
    "to_wire",
    "validate_create",
    "validate_update",
]

__version__ = "0.1.0"
