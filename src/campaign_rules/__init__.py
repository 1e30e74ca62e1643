"""The rules of the Campaign Outreach Service's REST interface, for servers and SDKs alike.

A server answers a create request from the bytes it received with::

    result = validate_create_json(body_bytes, directory=records)
    if not result.ok:
        return result.status, result.envelope()

and an SDK checks a decoded body offline, before sending it, with `validate_create(body)`.

The root holds what checking a campaign needs. The rest of the interface lives in public
modules, one concern each:

- `campaign_rules.requests`: the `Authorization` header and the path parameters;
- `campaign_rules.idempotency`: the `Idempotency-Key` header, a request's fingerprint, and
  what to do with a key seen before;
- `campaign_rules.rate`: the per-key rate limiter;
- `campaign_rules.lifecycle`: the status changes of a campaign;
- `campaign_rules.responses`: the response models, and reading response bodies into them;
- `campaign_rules.schema`: the interface and its rules as documents: the JSON Schema of a
  creation body and the rule catalogue;
- `campaign_rules.audit`: auditing a store of creation bodies, JSON Lines in, a mergeable
  summary out;
- `campaign_rules.dask`: the same audit over the files of a store on a Dask cluster (with the
  `dask` extra);
- `campaign_rules.strategies`: Hypothesis strategies of valid and invalid bodies.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any, Final

from campaign_rules._core import compiled as _compiled

if TYPE_CHECKING:  # what a type checker reads; at run time, `__getattr__` imports each name
    from campaign_rules._campaign.directory import Directory
    from campaign_rules._campaign.models import CampaignCreate, CyclesConfig, DayWindow, Schedule
    from campaign_rules._campaign.results import (
        CreateAccepted,
        CreateRefused,
        CreateResult,
        UpdateAccepted,
        UpdateRefused,
        UpdateResult,
    )
    from campaign_rules._core.enums import (
        CampaignStatus,
        ContactStatus,
        CyclesMode,
        ErrorKey,
        IntegrationType,
    )
    from campaign_rules._core.violations import Violation
    from campaign_rules._validate import (
        validate_create,
        validate_create_json,
        validate_update,
        validate_update_json,
    )
    from campaign_rules._wire.convert import to_wire

__all__ = [
    "COMPILED",
    "CampaignCreate",
    "CampaignStatus",
    "ContactStatus",
    "CreateAccepted",
    "CreateRefused",
    "CreateResult",
    "CyclesConfig",
    "CyclesMode",
    "DayWindow",
    "Directory",
    "ErrorKey",
    "IntegrationType",
    "Schedule",
    "UpdateAccepted",
    "UpdateRefused",
    "UpdateResult",
    "Violation",
    "json_schema",
    "openapi",
    "to_wire",
    "validate_create",
    "validate_create_json",
    "validate_update",
    "validate_update_json",
]

__version__ = "0.2.0"

# The names of the root, by the module that defines them, imported when first used (PEP 562):
# importing the package imports none of its rules, so that the command line can set its signal
# handlers before the modules that take most of its start are imported (D-cli-signals).
LAZY_NAMES: Final[dict[str, str]] = {
    "Directory": "campaign_rules._campaign.directory",
    **dict.fromkeys(
        ["CampaignCreate", "CyclesConfig", "DayWindow", "Schedule"],
        "campaign_rules._campaign.models",
    ),
    **dict.fromkeys(
        [
            "CreateAccepted",
            "CreateRefused",
            "CreateResult",
            "UpdateAccepted",
            "UpdateRefused",
            "UpdateResult",
        ],
        "campaign_rules._campaign.results",
    ),
    **dict.fromkeys(
        ["CampaignStatus", "ContactStatus", "CyclesMode", "ErrorKey", "IntegrationType"],
        "campaign_rules._core.enums",
    ),
    "Violation": "campaign_rules._core.violations",
    **dict.fromkeys(
        ["validate_create", "validate_create_json", "validate_update", "validate_update_json"],
        "campaign_rules._validate",
    ),
    "to_wire": "campaign_rules._wire.convert",
}

#: Whether this is the build compiled with mypyc, rather than the pure-Python one (decision
#: D-compiled-build). Both give the same results; the compiled one is faster.
COMPILED: Final[bool] = _compiled.COMPILED


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a campaign creation body: `campaign_rules.schema.json_schema()`."""
    # Imported on call: building the schema's tables is not on the path of checking a body.
    from campaign_rules.schema import json_schema as build

    return build()


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the interface: `campaign_rules.schema.openapi()`."""
    from campaign_rules.schema import openapi as build

    return build()


# Names the root exported in 0.1.0, by the public module that holds them now. They still work,
# with a DeprecationWarning that names the new import, until the release after 0.2.0.
MOVED_NAMES: Final[dict[str, str]] = {
    **dict.fromkeys(
        [
            "AuthorizationResult",
            "ContactPath",
            "ContactPathResult",
            "ThreadPathResult",
            "check_contact_path",
            "check_thread_path",
            "parse_authorization",
        ],
        "campaign_rules.requests",
    ),
    **dict.fromkeys(
        [
            "FingerprintResult",
            "IdempotencyAction",
            "IdempotencyDecision",
            "IdempotencyKeyResult",
            "IdempotencyRecord",
            "check_idempotency_key",
            "decide_idempotency",
            "is_storable_status",
            "request_fingerprint",
        ],
        "campaign_rules.idempotency",
    ),
    **dict.fromkeys(["RateLimiter", "RateResult"], "campaign_rules.rate"),
    **dict.fromkeys(["RuleInfo", "catalogue"], "campaign_rules.schema"),
    **dict.fromkeys(
        [
            "INITIAL_STATUS",
            "TRANSITIONS",
            "CampaignAction",
            "Transition",
            "TransitionResult",
            "check_transition",
        ],
        "campaign_rules.lifecycle",
    ),
    **dict.fromkeys(
        [
            "CONTACT_STATUSES",
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
            "ParseResult",
            "Thread",
            "ThreadTag",
            "parse_contact_response",
            "parse_create_response",
            "parse_error",
            "parse_thread",
        ],
        "campaign_rules.responses",
    ),
}


if not TYPE_CHECKING:  # a type checker sees the imports above; a moved name is an error there

    def __getattr__(name: str) -> Any:
        """A name of the root, imported on first use; or one the root exported in 0.1.0.

        A moved name comes from its new module, with a DeprecationWarning.
        """
        module = LAZY_NAMES.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            globals()[name] = value  # found here from now on, as an imported name is
            return value
        module = MOVED_NAMES.get(name)
        if module is None:
            raise AttributeError(f"module 'campaign_rules' has no attribute {name!r}")
        warnings.warn(
            f"campaign_rules.{name} is deprecated and goes in the release after 0.2.0: "
            f"use `from {module} import {name}`",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(module), name)

    def __dir__() -> list[str]:
        """The root's names, those not imported yet included."""
        return sorted({*globals(), *LAZY_NAMES})
