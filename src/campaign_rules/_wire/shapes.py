"""The documented shape of each response body, read from the spec's field tables.

Spec 2.2 (campaign detail), 2.3 (schedule), 2.4 (cycles config), 2.5 (contact), 2.6 (thread),
4.1-4.3 (the bodies around them), 5 and 7.1-7.4 (the error bodies). A reader is strict about
what these tables say (types, required members, formats) and tolerant of members they do not
list: a service adds members over time, and an SDK must not break on them (D-tolerant-reading).
The response rules (`_rules/responses.py`) walk a body against one of these shapes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Final

import attrs

from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._core.enums import CampaignStatus, CyclesMode, ErrorKey, IntegrationType
from campaign_rules._core.formats import (
    is_uuid_v4,
    parse_contact_time,
    parse_date,
    parse_date_time,
    parse_response_time,
)
from campaign_rules._core.limits import WEEKDAYS

__all__ = [
    "API_ERROR",
    "CONTACT_RESPONSE",
    "CREATE_RESPONSE",
    "CREDENTIALS_ERROR",
    "THREAD",
    "Format",
    "Member",
    "Shape",
]


@attrs.frozen
class Format:
    """A constraint on a value of the right JSON type: what it is, the check, how it is said.

    The OpenAPI document (`campaign_rules.schema.openapi`) says the constraint with `keywords`,
    the JSON Schema keywords of an enumeration, a constant or a bound, or, for a string format,
    with the pattern of the `_core.formats` function that is its `reader`.
    """

    description: str
    check: Callable[[object], bool]
    keywords: Mapping[str, object] = attrs.field(factory=dict, kw_only=True)
    reader: Callable[[str], object] | None = attrs.field(default=None, kw_only=True)


@attrs.frozen(kw_only=True)
class Member:
    """What the spec says of one member (or one array item) of a response body.

    `type` is its JSON type. A required member may be `null` only when `nullable`; an optional
    member sent as `null` counts as absent (D-tolerant-reading). Of an object, `members` is its
    documented shape; of an array, `items` is each item's; `map_of` marks a free-form map of
    string values, `opaque` an object whose content only has to be plain JSON.
    """

    type: str
    required: bool = True
    nullable: bool = False
    format: Format | None = None
    members: Shape | None = None
    items: Member | None = None
    map_of_strings: bool = False
    opaque: bool = False


Shape = Mapping[str, Member]


def _one_of(values: Iterable[enum.Enum], description: str) -> Format:
    wire = [member.value for member in values]
    allowed = frozenset(wire)
    return Format(description, lambda value: value in allowed, keywords={"enum": wire})


def _parses(parser: Callable[[str], object], description: str) -> Format:
    """The format of the strings `parser` reads (it answers `None` for any other)."""

    def check(value: object) -> bool:
        return parser(value) is not None  # type: ignore[arg-type]

    return Format(description, check, reader=parser)


def _at_least(low: int, description: str) -> Format:
    def check(value: object) -> bool:
        return value >= low  # type: ignore[operator]

    return Format(description, check, keywords={"minimum": low})


def _exactly(constant: bool, description: str) -> Format:
    return Format(description, lambda value: value is constant, keywords={"const": constant})


_POSITIVE: Final = _at_least(1, "a positive integer")
_NOT_NEGATIVE: Final = _at_least(0, "zero or more")
_TRUE: Final = _exactly(True, "true in a success body")
_FALSE: Final = _exactly(False, "false in an error body")
_UUID_V4: Final = Format("a UUID v4", lambda value: is_uuid_v4(value), reader=is_uuid_v4)  # type: ignore[arg-type]
_DATE_TIME: Final = _parses(parse_date_time, "an RFC 3339 date-time")
_CONTACT_TIME: Final = _parses(parse_contact_time, "a date-time YYYY-MM-DD HH:MM:SS")
_TIME_OF_DAY: Final = _parses(parse_response_time, "a time of day HH:MM or HH:MM:SS")
_DATE: Final = _parses(parse_date, "a calendar date YYYY-MM-DD")
_CAMPAIGN_STATUS: Final = _one_of(CampaignStatus, "a campaign status")
_INTEGRATION_TYPE: Final = _one_of(IntegrationType, "phone_call or whatsapp")
_CYCLES_MODE: Final = _one_of(CyclesMode, "cooldown or scheduled")
_ERROR_KEY: Final = _one_of(ErrorKey, "an error key of spec 7.2")

_STRING: Final = Member(type="string")
_OPTIONAL_INTEGER: Final = Member(type="integer", required=False)
_COUNT: Final = Member(type="integer", format=_NOT_NEGATIVE)

# spec 2.3. Response times may carry seconds (D-response-times).
_WINDOW: Final[Shape] = {
    START_TIME: Member(type="string", format=_TIME_OF_DAY),
    STOP_TIME: Member(type="string", format=_TIME_OF_DAY),
    "active": Member(type="boolean"),
}
_SCHEDULE: Final[Shape] = {
    day: Member(type="object", required=False, members=_WINDOW) for day in WEEKDAYS
}

# spec 2.4 less `filter_tags` (spec 2.2: input-only). Only `enabled` is always there
# (D-detail-cycles); the bounds of spec 8 apply to creation input, not to what is read back.
_CYCLES: Final[Shape] = {
    "enabled": Member(type="boolean"),
    "mode": Member(type="string", required=False, format=_CYCLES_MODE),
    "max_iterations": _OPTIONAL_INTEGER,
    "cooldown_minutes": _OPTIONAL_INTEGER,
    "filter_statuses": Member(type="array", required=False, items=_STRING),
    "schedule": Member(type="object", required=False, members=_SCHEDULE),
    "schedule_start_date": Member(type="string", required=False, format=_DATE),
    "schedule_end_date": Member(type="string", required=False, format=_DATE),
}

# spec 2.2.
_CAMPAIGN_DETAIL: Final[Shape] = {
    "id": Member(type="integer", format=_POSITIVE),
    "name": _STRING,
    "status": Member(type="string", format=_CAMPAIGN_STATUS),
    "integration": Member(
        type="object",
        nullable=True,
        members={"id": _STRING, "type": Member(type="string", format=_INTEGRATION_TYPE)},
    ),
    "agent": Member(
        type="object",
        members={"id": Member(type="string", format=_UUID_V4), "name": _STRING},
    ),
    "created_at": Member(type="string", format=_DATE_TIME),
    "scheduling": Member(type="object", members=_SCHEDULE),
    "cycles": Member(type="object", members=_CYCLES),
    "analytics": Member(type="object", required=False, opaque=True),
}

# spec 4.1: `{success, campaign}`.
CREATE_RESPONSE: Final[Shape] = {
    "success": Member(type="boolean", format=_TRUE),
    "campaign": Member(type="object", members=_CAMPAIGN_DETAIL),
}

# spec 2.5. D-contact-last-call: `last_call_at` is null for a contact never called.
_CONTACT: Final[Shape] = {
    "f_id": _STRING,
    "id": Member(type="integer", format=_POSITIVE),
    "name": _STRING,
    "contact": _STRING,
    "status": _STRING,
    "context": _STRING,
    "retries": _COUNT,
    "has_follow_up": Member(type="boolean"),
    "call_count": _COUNT,
    "billed_duration": _COUNT,
    "last_call_at": Member(type="string", nullable=True, format=_CONTACT_TIME),
    "extracted_data": Member(type="object", map_of_strings=True),
    "tags": Member(type="array", items=_STRING),
}

# spec 4.2: `{success, contact}`.
CONTACT_RESPONSE: Final[Shape] = {
    "success": Member(type="boolean", format=_TRUE),
    "contact": Member(type="object", members=_CONTACT),
}

# spec 2.6 and 4.3: the thread is the body itself.
THREAD: Final[Shape] = {
    "id": _STRING,
    "agent": Member(type="object", members={"id": _STRING, "name": _STRING}),
    "end_user": Member(
        type="object", members={"id": _STRING, "display_name": _STRING, "info": _STRING}
    ),
    "integration": Member(type="object", members={"id": _STRING}),
    "updated_at": Member(type="string", format=_DATE_TIME),
    "active": Member(type="boolean"),
    "blocked": Member(type="boolean"),
    "tags": Member(
        type="array", items=Member(type="object", members={"id": _STRING, "name": _STRING})
    ),
    "assigned_to": Member(
        type="array",
        items=Member(
            type="object",
            members=dict.fromkeys(("id", "email", "first_name", "last_name"), _STRING),
        ),
    ),
}

# spec 7.1, and the 409 of a refused status change (D-lifecycle).
API_ERROR: Final[Shape] = {
    "success": Member(type="boolean", format=_FALSE),
    "error": Member(type="string", format=_ERROR_KEY),
    "message": _STRING,
    "field": Member(type="string", required=False),
    "current_status": Member(type="string", required=False, format=_CAMPAIGN_STATUS),
    "valid_targets": Member(
        type="array",
        required=False,
        items=Member(type="string", format=_CAMPAIGN_STATUS),
    ),
}

# spec 5 item 3, 7.4: `{error: integer, message: string}`.
CREDENTIALS_ERROR: Final[Shape] = {
    "error": Member(type="integer"),
    "message": _STRING,
}
