"""The service's responses: their value objects, and reading bodies into them.

`parse_create_response`, `parse_contact_response`, `parse_thread` and `parse_error` read a
decoded body into the models of spec 2.2, 2.5, 2.6, 5 and 7.1 (`CampaignDetail`,
`CampaignContact`, `Thread`, `ApiError`, `CredentialsError`).

Each function takes the decoded JSON body (any Python value), runs the response rules on it
and, when it broke none, builds the value object with the one converter. None raises, none
changes the body, and the violations name fields by their path from the body's root
(`campaign.integration.id`).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

import attrs

from campaign_rules._core.json import is_object, json_type, read_object
from campaign_rules._core.limits import CONTACT_STATUSES, VIOLATIONS_MAX
from campaign_rules._core.outcome import Outcome, Value
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import ERROR_RESPONSE_RULES, RESPONSE_RULES
from campaign_rules._wire.convert import structure_response
from campaign_rules._wire.models import (
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
from campaign_rules._wire.reading import ResponseReading
from campaign_rules._wire.shapes import (
    API_ERROR,
    CONTACT_RESPONSE,
    CREATE_RESPONSE,
    CREDENTIALS_ERROR,
    THREAD,
    Shape,
)

__all__ = [
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
]

Model = TypeVar("Model")


@attrs.frozen
class ParseResult(Outcome[Value]):
    """The outcome of reading a response body: the value object, or the violations.

    `value` is `None` unless `ok`. The violations are `SERVER_ERROR` (D-response-violations),
    so `status` is 200 when ok and 500 otherwise.
    """

    _ok_status: ClassVar[int] = 200


def parse_create_response(body: object) -> ParseResult[CampaignDetail]:
    """Read the body of a 201 to `POST /campaigns` (spec 4.1): its `campaign` (spec 2.2)."""
    return _parse(ResponseReading(body, CREATE_RESPONSE), "campaign", CampaignDetail)


def parse_contact_response(body: object) -> ParseResult[CampaignContact]:
    """Read the body of `GET /campaigns/{id}/contacts/{contact_id}` (spec 4.2): its `contact`."""
    return _parse(ResponseReading(body, CONTACT_RESPONSE), "contact", CampaignContact)


def parse_thread(body: object) -> ParseResult[Thread]:
    """Read the body of `GET /thread/{id}` (spec 4.3): the thread itself (spec 2.6)."""
    return _parse(ResponseReading(body, THREAD), None, Thread)


def parse_error(status: object, body: object) -> ParseResult[ApiError | CredentialsError]:
    """Read an error body that came with HTTP `status`: an `ApiError` or a `CredentialsError`.

    The two shapes are told apart by the body's members, not by the status: a string `error`
    is the campaign API envelope (spec 7.1), an integer one the credentials body (spec 5, 7.4).
    `status` must be an integer from 400 to 599.
    """
    shape, model = _error_shape(body)
    reading = ResponseReading(body, shape, status=status)
    violations = run_rules(reading, ERROR_RESPONSE_RULES + RESPONSE_RULES, VIOLATIONS_MAX)
    if violations or model is None:
        return ParseResult(value=None, violations=violations)
    return ParseResult(value=structure_response(body, model), violations=())


def _error_shape(body: object) -> tuple[Shape | None, type[ApiError | CredentialsError] | None]:
    members = read_object(body)
    if members is None:
        # Not an object, or one too large to read: the response rules say which.
        return (API_ERROR, ApiError) if is_object(body) else (None, None)
    kind = json_type(members.get("error"))
    if kind == "string":
        return API_ERROR, ApiError
    if kind == "integer":
        return CREDENTIALS_ERROR, CredentialsError
    return None, None


def _parse(reading: ResponseReading, wrapper: str | None, model: type[Model]) -> ParseResult[Model]:
    """Run the response rules; build `model` from the body, or from its `wrapper` member."""
    violations = run_rules(reading, RESPONSE_RULES, VIOLATIONS_MAX)
    if violations:
        return ParseResult(value=None, violations=violations)
    members = read_object(reading.body) or {}
    inner = members if wrapper is None else members[wrapper]
    return ParseResult(value=structure_response(inner, model), violations=())
