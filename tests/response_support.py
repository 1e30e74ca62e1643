"""What the response tests share: one valid body of each kind, and ways to change a copy.

The bodies are written out here from the spec's tables (2.2-2.6, 4.1-4.3, 5, 7.1), not read
from the library, so that the tests check the library against an independent reading.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from campaign_rules.responses import (
    ParseResult,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from tests.support import AGENT, PHONE_INTEGRATION, WINDOW

CAMPAIGN = {
    "id": 42,
    "name": "Spring renewals",
    "status": "pending",
    "integration": {"id": PHONE_INTEGRATION, "type": "phone_call"},
    "agent": {"id": AGENT, "name": "Ana"},
    "created_at": "2026-03-01T09:30:00Z",
    "scheduling": {"mon": dict(WINDOW)},
    "cycles": {
        "enabled": True,
        "mode": "cooldown",
        "max_iterations": 3,
        "cooldown_minutes": 60,
        "filter_statuses": ["converted"],
    },
}

CONTACT = {
    "f_id": "f-1",
    "id": 7,
    "name": "Zoé",
    "contact": "+5215512345678",
    "status": "answered",
    "context": "renewal",
    "retries": 1,
    "has_follow_up": False,
    "call_count": 2,
    "billed_duration": 95,
    "last_call_at": "2026-03-02 10:15:00",
    "extracted_data": {"plan": "gold", "callback": "yes"},
    "tags": ["vip", "renewal"],
}

THREAD = {
    "id": "th-1",
    "agent": {"id": "ag-1", "name": "Ana"},
    "end_user": {"id": "eu-1", "display_name": "Zoé", "info": "+5215512345678"},
    "integration": {"id": "int-wa-1"},
    "updated_at": "2026-03-02T10:15:00+01:00",
    "active": True,
    "blocked": False,
    "tags": [{"id": "t-1", "name": "vip"}, {"id": "t-2", "name": "renewal"}],
    "assigned_to": [
        {"id": "u-1", "email": "ana@example.com", "first_name": "Ana", "last_name": "Ruiz"}
    ],
}

API_ERROR = {"success": False, "error": "AGENT_NOT_FOUND", "message": "no such agent"}
CREDENTIALS_ERROR = {"error": 401, "message": "invalid api key"}

# The valid body of each kind; `body(kind)` gives a deep copy.
RESPONSE_BASES: dict[str, Any] = {
    "create_response": {"success": True, "campaign": CAMPAIGN},
    "contact_response": {"success": True, "contact": CONTACT},
    "thread": THREAD,
    "api_error": API_ERROR,
    "credentials_error": CREDENTIALS_ERROR,
}


def body(kind: str) -> Any:
    """A deep copy of the valid body of `kind`."""
    return copy.deepcopy(RESPONSE_BASES[kind])


def _steps(path: str) -> list[str | int]:
    """`campaign.tags.1.name` as its steps; an all-digit step is a list index."""
    return [int(step) if step.isdigit() else step for step in path.split(".")]


def set_path(target: Any, path: str, value: Any) -> Any:
    """Set the member or item at dotted `path` of `target` (in place); return `target`."""
    *parents, last = _steps(path)
    node = target
    for step in parents:
        node = node[step]
    node[last] = value
    return target


def drop_path(target: Any, path: str) -> Any:
    """Remove the member or item at dotted `path` of `target` (in place); return `target`."""
    *parents, last = _steps(path)
    node = target
    for step in parents:
        node = node[step]
    del node[last]
    return target


def with_(kind: str, path: str, value: Any) -> Any:
    """A copy of the valid body of `kind` with `path` set to `value`."""
    return set_path(body(kind), path, value)


def without(kind: str, path: str) -> Any:
    """A copy of the valid body of `kind` without the member at `path`."""
    return drop_path(body(kind), path)


# How each kind of body is read. Error bodies come with a status: these use the one a server
# would send (the parser tells the shapes apart by their members, not by the status).
PARSERS: dict[str, Callable[[Any], ParseResult[Any]]] = {
    "create_response": parse_create_response,
    "contact_response": parse_contact_response,
    "thread": parse_thread,
    "api_error": lambda value: parse_error(404, value),
    "credentials_error": lambda value: parse_error(401, value),
}


def parse(kind: str, value: Any) -> ParseResult[Any]:
    """Read `value` as a body of `kind`."""
    return PARSERS[kind](value)


def found(result: ParseResult[Any]) -> list[tuple[str, str | None]]:
    """The (rule id, field) pairs of a result's violations, in order."""
    return [(violation.rule, violation.field) for violation in result.violations]
