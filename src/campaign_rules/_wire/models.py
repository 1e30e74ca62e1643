"""The value objects of what the service answers (spec 2.2, 2.5, 2.6, 4.1-4.3, 7.1, 7.4).

Frozen, slotted attrs classes, like the creation input's: they hold Python values (aware
`datetime` for the spec's date-times, enums for its enumerations, tuples for its arrays, a
read-only mapping for its free-form maps) and know nothing of JSON. `_wire.convert` turns wire JSON
into them and back; the response rules decide what is valid first (`campaign_rules.responses`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

import attrs

from campaign_rules._campaign.models import CampaignCreate, CyclesConfig, Schedule
from campaign_rules._core.enums import CampaignStatus, CyclesMode, ErrorKey, IntegrationType
from campaign_rules._core.limits import PATH_ID_MAX

__all__ = [
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
]


_Member = TypeVar("_Member")


def _read_only(mapping: Mapping[str, _Member]) -> Mapping[str, _Member]:
    """A read-only copy of `mapping`; a `TypeError` for any other value, as for a wrong type."""
    if not isinstance(mapping, Mapping):
        raise TypeError(f"a mapping is needed here, not {type(mapping).__name__}")
    return MappingProxyType(dict(mapping))


@attrs.frozen
class Integration:
    """The integration a campaign runs on (spec 2.2 `integration`)."""

    id: str
    type: IntegrationType


@attrs.frozen
class AgentRef:
    """An agent as a campaign or a thread names it: `id` and `name` (spec 2.2, 2.6 `agent`)."""

    id: str
    name: str


@attrs.frozen(kw_only=True)
class CampaignCycles:
    """The cycles config of a campaign detail (spec 2.2): the creation block less `filter_tags`.

    A campaign created without an enabled block shows `CampaignCycles(enabled=False)`, on the
    wire `{"enabled": false}` (D-detail-cycles).
    """

    enabled: bool
    mode: CyclesMode | None = None
    max_iterations: int | None = None
    cooldown_minutes: int | None = None
    # `None` when absent, so that a body's `[]` reads back as `[]`.
    filter_statuses: tuple[str, ...] | None = None
    schedule: Schedule | None = None
    schedule_start_date: datetime.date | None = None
    schedule_end_date: datetime.date | None = None

    @classmethod
    def from_config(cls, config: CyclesConfig | None) -> CampaignCycles:
        """What a campaign created with `config` shows: `filter_tags` is input-only (spec 2.2)."""
        if config is None:
            return cls(enabled=False)
        return cls(
            enabled=config.enabled,
            mode=config.mode,
            max_iterations=config.max_iterations,
            cooldown_minutes=config.cooldown_minutes,
            filter_statuses=config.filter_statuses or None,
            schedule=config.schedule,
            schedule_start_date=config.schedule_start_date,
            schedule_end_date=config.schedule_end_date,
        )


@attrs.frozen(kw_only=True)
class CampaignDetail:
    """A campaign as the create response returns it (spec 2.2, the `campaign` member).

    `created_at` is aware (D-date-times). `scheduling` is an empty `Schedule` for a campaign
    created without one (D-detail-cycles). `analytics` is the opaque snapshot, `None` when the
    service sent none; it holds plain JSON values copied from the body (D-response-caps) and is
    read-only at its top.
    """

    id: int
    name: str
    status: CampaignStatus
    integration: Integration | None
    agent: AgentRef
    created_at: datetime.datetime
    scheduling: Schedule
    cycles: CampaignCycles
    # A mapping cannot be hashed: the hash leaves it out (equal details still hash alike).
    analytics: Mapping[str, object] | None = attrs.field(
        default=None, converter=attrs.converters.optional(_read_only), hash=False
    )

    @classmethod
    def from_create(
        cls,
        value: CampaignCreate,
        *,
        id: int,
        status: CampaignStatus,
        created_at: datetime.datetime,
        agent_name: str,
    ) -> CampaignDetail:
        """The detail a server returns for the campaign `value` it has just created.

        Input-only members are left out: `filter_tags` (spec 2.2) and the members spec 2.2 does
        not list (`description`, `timezone`, ...). A naive `created_at` is taken as UTC, as on
        the wire (D-date-times). Raises `TypeError` for an argument of another type, and for
        an `id` that is not an `int` from 1 to 2**53 - 1 (the one type of a campaign id): the
        server's own bug, which would give a body `parse_create_response` refuses (D-path-ids).
        """
        if type(id) is not int or not 1 <= id <= PATH_ID_MAX:
            # The value itself is not shown: a huge one would make a huge message.
            kind = type(id).__name__
            raise TypeError(f"a campaign id is an int from 1 to {PATH_ID_MAX}; this {kind} is not")
        # A status may be the plain string of a server's own records (a CampaignStatus is one).
        for name, given, needed, described in (
            ("value", value, CampaignCreate, "CampaignCreate"),
            ("status", status, str, "CampaignStatus"),
            ("created_at", created_at, datetime.datetime, "datetime"),
            ("agent_name", agent_name, str, "str"),
        ):
            if not isinstance(given, needed):
                raise TypeError(f"{name} must be a {described}, not {type(given).__name__}")
        if created_at.tzinfo is None:
            created_at = created_at.replace(tzinfo=datetime.UTC)
        return cls(
            id=id,
            name=value.name,
            status=status,
            integration=Integration(value.integration_id, value.integration_type),
            agent=AgentRef(value.agent_id, agent_name),
            created_at=created_at,
            scheduling=value.scheduling or Schedule(),
            cycles=CampaignCycles.from_config(value.cycles),
        )


@attrs.frozen(kw_only=True)
class CampaignContact:
    """One contact of a campaign (spec 2.5, the `contact` member of the contact response).

    `last_call_at` is naive: the spec gives it no time zone. It is `None` for a contact never
    called (D-contact-last-call). `status` is a string: the statuses are not fixed by the spec
    and a service may add some (D-contact-statuses). `extracted_data` is read-only.
    """

    f_id: str
    id: int
    name: str
    contact: str
    status: str
    context: str
    retries: int
    has_follow_up: bool
    call_count: int
    billed_duration: int
    last_call_at: datetime.datetime | None
    extracted_data: Mapping[str, str] = attrs.field(converter=_read_only, hash=False)
    tags: tuple[str, ...]


@attrs.frozen
class EndUser:
    """The person a thread is with (spec 2.6 `end_user`)."""

    id: str
    display_name: str
    info: str


@attrs.frozen
class IntegrationRef:
    """The integration a thread runs on (spec 2.6 `integration`): its `id` only."""

    id: str


@attrs.frozen
class ThreadTag:
    """A tag on a thread (spec 2.6 `tags[]`)."""

    id: str
    name: str


@attrs.frozen
class Assignee:
    """A user a thread is assigned to (spec 2.6 `assigned_to[]`)."""

    id: str
    email: str
    first_name: str
    last_name: str


@attrs.frozen(kw_only=True)
class Thread:
    """A conversation thread (spec 2.6): the body of `GET /thread/{id}` itself."""

    id: str
    agent: AgentRef
    end_user: EndUser
    integration: IntegrationRef
    updated_at: datetime.datetime
    active: bool
    blocked: bool
    tags: tuple[ThreadTag, ...]
    assigned_to: tuple[Assignee, ...]


@attrs.frozen(kw_only=True)
class ApiError:
    """The campaign API error envelope (spec 7.1).

    `field` names the offending field when there is one (D-envelope-field); `current_status`
    and `valid_targets` come with `INVALID_STATUS_TRANSITION` (D-lifecycle).
    """

    success: bool = False
    error: ErrorKey
    message: str
    field: str | None = None
    current_status: CampaignStatus | None = None
    valid_targets: tuple[CampaignStatus, ...] | None = None


@attrs.frozen
class CredentialsError:
    """The body of a 401, and of the thread errors (spec 5 item 3, 7.4): `{error, message}`."""

    error: int
    message: str
