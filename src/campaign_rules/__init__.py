"""The rules of the Campaign Outreach Service's REST interface, for servers and SDKs alike.

A server answers a create request with::

    result = validate_create(body, directory=records)
    if not result.ok:
        return result.status, result.envelope()

and an SDK checks the same body offline, before sending it, with `validate_create(body)`.

What checking a campaign body needs is imported with the package; the other entry points
(the response models and parsers, authorization, the path, key and transition checks, rate
limits, idempotency, the catalogue and the schema) are imported on first use of one of their
names (PEP 562), so that a server or SDK pays at import only for what it uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from campaign_rules._convert import to_wire
from campaign_rules._directory import Directory
from campaign_rules._enums import (
    CampaignStatus,
    ContactStatus,
    CyclesMode,
    ErrorKey,
    IntegrationType,
)
from campaign_rules._limits import CONTACT_STATUSES
from campaign_rules._models import CampaignCreate, CyclesConfig, DayWindow, Schedule
from campaign_rules._results import CreateResult, UpdateResult
from campaign_rules._validate import validate_create, validate_update
from campaign_rules._violations import Violation

# The module of each name imported on first use.
_LAZY_NAMES: dict[str, str] = {
    **dict.fromkeys(["AuthorizationResult", "parse_authorization"], "_authorization"),
    **dict.fromkeys(["RuleInfo", "catalogue"], "_catalogue"),
    **dict.fromkeys(
        [
            "ContactPathResult",
            "IdempotencyKeyResult",
            "ThreadPathResult",
            "TransitionResult",
            "check_contact_path",
            "check_idempotency_key",
            "check_thread_path",
            "check_transition",
        ],
        "_checks",
    ),
    **dict.fromkeys(["FingerprintResult", "request_fingerprint"], "_fingerprint"),
    **dict.fromkeys(
        [
            "IdempotencyAction",
            "IdempotencyDecision",
            "IdempotencyRecord",
            "decide_idempotency",
            "is_storable_status",
        ],
        "_idempotency",
    ),
    **dict.fromkeys(
        ["INITIAL_STATUS", "TRANSITIONS", "CampaignAction", "Transition"], "_lifecycle"
    ),
    **dict.fromkeys(
        [
            "ParseResult",
            "parse_contact_response",
            "parse_create_response",
            "parse_error",
            "parse_thread",
        ],
        "_parse",
    ),
    "ContactPath": "_paths",
    **dict.fromkeys(["RateLimiter", "RateResult"], "_rate"),
    **dict.fromkeys(
        [
            "AgentRef",
            "ApiError",
            "Assignee",
            "CampaignContact",
            "CampaignCycles",
            "CampaignDetail",
            "CredentialsError",
            "EndUser",
            "Integration",
            "IntegrationRef",
            "Thread",
            "ThreadTag",
        ],
        "_response_models",
    ),
    "json_schema": "_schema",
}

if TYPE_CHECKING:
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
    from campaign_rules._fingerprint import FingerprintResult, request_fingerprint
    from campaign_rules._idempotency import (
        IdempotencyAction,
        IdempotencyDecision,
        IdempotencyRecord,
        decide_idempotency,
        is_storable_status,
    )
    from campaign_rules._lifecycle import INITIAL_STATUS, TRANSITIONS, CampaignAction, Transition
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
    from campaign_rules._schema import json_schema

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


if not TYPE_CHECKING:  # a type checker sees the imports above, and refuses any other name

    def __getattr__(name: str) -> Any:
        """A name of the interface imported on first use (PEP 562)."""
        module = _LAZY_NAMES.get(name)
        if module is None:
            raise AttributeError(f"module 'campaign_rules' has no attribute {name!r}")
        value = getattr(importlib.import_module(f"campaign_rules.{module}"), name)
        globals()[name] = value  # later look-ups find it without coming here
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_NAMES})
