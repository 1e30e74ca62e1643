"""The `parse_*` functions end to end, `to_wire` of the response models, and `from_create`.

Sources: spec 2.2-2.6, 4.1-4.3, 5, 7.1-7.4; decisions D-tolerant-reading, D-date-times,
D-response-times, D-detail-cycles, D-contact-last-call, D-response-violations.
"""

from __future__ import annotations

import copy
import datetime
import json
import zoneinfo
from http import HTTPStatus
from types import MappingProxyType
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import (
    CampaignStatus,
    CyclesMode,
    DayWindow,
    ErrorKey,
    IntegrationType,
    Schedule,
    to_wire,
    validate_create,
    validate_update,
)
from campaign_rules import strategies as public
from campaign_rules._core.limits import PATH_ID_MAX
from campaign_rules.responses import (
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
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from tests.cases_support import (
    REQUEST_SOURCES,
    all_cases,
    build_directory,
    build_existing,
    build_payload,
    case_status,
    run_request,
    run_text,
)
from tests.property import strategies as s
from tests.response_support import body, parse, with_
from tests.support import AGENT, BASES, PHONE_INTEGRATION, WINDOW, FakeDirectory, payload

UTC = datetime.UTC
PLUS_ONE = datetime.timezone(datetime.timedelta(hours=1))

DETAIL = CampaignDetail(
    id=42,
    name="Spring renewals",
    status=CampaignStatus.PENDING,
    integration=Integration(PHONE_INTEGRATION, IntegrationType.PHONE_CALL),
    agent=AgentRef(AGENT, "Ana"),
    created_at=datetime.datetime(2026, 3, 1, 9, 30, tzinfo=UTC),
    scheduling=Schedule(mon=DayWindow(datetime.time(9), datetime.time(17), True)),
    cycles=CampaignCycles(
        enabled=True,
        mode=CyclesMode.COOLDOWN,
        max_iterations=3,
        cooldown_minutes=60,
        filter_statuses=("converted",),
    ),
)

CONTACT = CampaignContact(
    f_id="f-1",
    id=7,
    name="Zoé",
    contact="+5215512345678",
    status="answered",
    context="renewal",
    retries=1,
    has_follow_up=False,
    call_count=2,
    billed_duration=95,
    last_call_at=datetime.datetime(2026, 3, 2, 10, 15),
    extracted_data={"plan": "gold", "callback": "yes"},
    tags=("vip", "renewal"),
)

THREAD = Thread(
    id="th-1",
    agent=AgentRef("ag-1", "Ana"),
    end_user=EndUser("eu-1", "Zoé", "+5215512345678"),
    integration=IntegrationRef("int-wa-1"),
    updated_at=datetime.datetime(2026, 3, 2, 10, 15, tzinfo=PLUS_ONE),
    active=True,
    blocked=False,
    tags=(ThreadTag("t-1", "vip"), ThreadTag("t-2", "renewal")),
    assigned_to=(Assignee("u-1", "ana@example.com", "Ana", "Ruiz"),),
)


def value_of(result: Any) -> Any:
    assert result.violations == ()
    assert result.ok
    assert result.status == 200
    assert result.envelope() is None
    return result.value


class TestParseValues:
    def test_a_create_response_gives_its_campaign(self) -> None:
        assert value_of(parse_create_response(body("create_response"))) == DETAIL

    def test_a_contact_response_gives_its_contact(self) -> None:
        contact = value_of(parse_contact_response(body("contact_response")))
        assert contact == CONTACT
        assert contact.last_call_at.tzinfo is None  # spec 2.5 gives it no zone

    def test_a_thread_body_is_the_thread(self) -> None:
        thread = value_of(parse_thread(body("thread")))
        assert thread == THREAD
        assert thread.updated_at.utcoffset() == datetime.timedelta(hours=1)

    def test_an_envelope_gives_an_api_error(self) -> None:
        error = value_of(parse_error(404, body("api_error")))
        assert error == ApiError(error=ErrorKey.AGENT_NOT_FOUND, message="no such agent")
        assert error.success is False
        assert type(error.error) is ErrorKey

    def test_a_refused_transition_gives_its_status_and_targets(self) -> None:
        wire = {
            "success": False,
            "error": "INVALID_STATUS_TRANSITION",
            "message": "m",
            "field": "status",
            "current_status": "active",
            "valid_targets": ["inactive", "active"],
        }
        assert value_of(parse_error(409, wire)) == ApiError(
            error=ErrorKey.INVALID_STATUS_TRANSITION,
            message="m",
            field="status",
            current_status=CampaignStatus.ACTIVE,
            valid_targets=(CampaignStatus.INACTIVE, CampaignStatus.ACTIVE),
        )

    def test_a_credentials_body_gives_a_credentials_error(self) -> None:
        error = value_of(parse_error(401, body("credentials_error")))
        assert error == CredentialsError(401, "invalid api key")

    def test_date_times_are_aware_and_an_offsetless_one_is_utc(self) -> None:
        # D-date-times: no offset and -00:00 are UTC; the fraction is cut to microseconds.
        cases = {
            "2026-03-01T09:30:00": datetime.datetime(2026, 3, 1, 9, 30, tzinfo=UTC),
            "2026-03-01 09:30:00-00:00": datetime.datetime(2026, 3, 1, 9, 30, tzinfo=UTC),
            "2026-03-01t09:30:00.123456789z": datetime.datetime(
                2026, 3, 1, 9, 30, 0, 123456, tzinfo=UTC
            ),
            "2026-03-01T09:30:00.5-03:30": datetime.datetime(
                2026,
                3,
                1,
                9,
                30,
                0,
                500000,
                tzinfo=datetime.timezone(-datetime.timedelta(hours=3, minutes=30)),
            ),
        }
        for text, expected in cases.items():
            value = value_of(
                parse_create_response(with_("create_response", "campaign.created_at", text))
            )
            assert value.created_at == expected
            assert value.created_at.utcoffset() == expected.utcoffset()

    def test_window_times_may_carry_seconds(self) -> None:
        # D-response-times.
        wire = with_("create_response", "campaign.scheduling.mon.startTime", "08:59:30")
        value = value_of(parse_create_response(wire))
        assert value.scheduling.mon.start_time == datetime.time(8, 59, 30)

    def test_optional_members_sent_as_null_are_absent(self) -> None:
        # D-tolerant-reading.
        wire = body("create_response")
        wire["campaign"]["analytics"] = None
        wire["campaign"]["scheduling"]["tue"] = None
        wire["campaign"]["cycles"].update(mode=None, max_iterations=None, filter_statuses=None)
        value = value_of(parse_create_response(wire))
        assert value.analytics is None
        assert value.scheduling.tue is None
        assert value.cycles == CampaignCycles(enabled=True, cooldown_minutes=60)

    def test_integration_null_and_last_call_at_null_are_none(self) -> None:
        detail = value_of(
            parse_create_response(with_("create_response", "campaign.integration", None))
        )
        assert detail.integration is None
        contact = value_of(
            parse_contact_response(with_("contact_response", "contact.last_call_at", None))
        )
        assert contact.last_call_at is None

    @pytest.mark.parametrize(
        "kind", ["create_response", "contact_response", "thread", "api_error", "credentials_error"]
    )
    def test_equal_values_hash_alike(self, kind: str) -> None:
        # The free-form maps are left out of the hash; the rest is frozen and hashable.
        first, second = parse(kind, body(kind)).value, parse(kind, body(kind)).value
        assert first == second
        assert hash(first) == hash(second)

    def test_the_value_shares_no_mutable_state_with_the_body(self) -> None:
        wire = body("contact_response")
        contact = value_of(parse_contact_response(wire))
        wire["contact"]["extracted_data"]["plan"] = "changed"
        wire["contact"]["tags"].append("new")
        assert contact == CONTACT
        with pytest.raises(TypeError):
            contact.extracted_data["plan"] = "x"  # type: ignore[index]

    def test_analytics_is_read_only_at_its_top(self) -> None:
        wire = with_("create_response", "campaign.analytics", {"calls": 3})
        detail = value_of(parse_create_response(wire))
        wire["campaign"]["analytics"]["calls"] = 4
        assert detail.analytics == {"calls": 3}
        assert type(detail.analytics) is MappingProxyType

    def test_analytics_shares_nothing_with_the_body(self) -> None:
        class Text(str):
            pass

        class Number(int):
            pass

        snapshot = {"by_day": [{"day": Text("mon"), "calls": Number(3)}], "rate": 0.5}
        wire = with_("create_response", "campaign.analytics", snapshot)
        detail = value_of(parse_create_response(wire))
        wire["campaign"]["analytics"]["by_day"][0]["calls"] = 99
        wire["campaign"]["analytics"]["by_day"].append({})
        assert detail.analytics == {"by_day": [{"day": "mon", "calls": 3}], "rate": 0.5}
        day = detail.analytics["by_day"][0]  # type: ignore[index]
        assert type(day["day"]) is str
        assert type(day["calls"]) is int

    def test_a_broken_body_gives_no_value_and_a_server_error_envelope(self) -> None:
        result = parse_thread(with_("thread", "tags.1.name", 5))
        assert not result.ok
        assert result.value is None
        assert result.status == 500
        assert result.envelope() == {
            "success": False,
            "error": "SERVER_ERROR",
            "message": "tags[1].name must be a string",
            "field": "tags[1].name",
        }


class TestToWire:
    def test_a_plain_string_in_an_enum_field_is_written_as_it_is(self) -> None:
        # A server may build a value object from the strings of its own records.
        detail = detail_of(created("phone_call"), status="active")
        assert to_wire(detail)["status"] == "active"
        assert value_of(parse_create_response({"success": True, "campaign": to_wire(detail)})) == (
            detail
        )

    def test_an_update_of_a_campaign_built_with_plain_strings_is_read(self) -> None:
        existing = attrs.evolve(created("cooldown"), integration_type="phone_call")
        existing = attrs.evolve(existing, cycles=attrs.evolve(existing.cycles, mode="cooldown"))
        result = validate_update(existing, {"name": "Renamed"})
        assert result.ok, result.violations
        assert result.value.integration_type is IntegrationType.PHONE_CALL

    @pytest.mark.parametrize("value", [object(), {"name": "x"}, None, "campaign"])
    def test_anything_but_a_value_object_is_a_type_error(self, value: Any) -> None:
        with pytest.raises(TypeError, match="value object"):
            to_wire(value)

    def test_a_campaign_detail_with_wire_names_and_formats(self) -> None:
        assert to_wire(DETAIL) == {
            "id": 42,
            "name": "Spring renewals",
            "status": "pending",
            "integration": {"id": PHONE_INTEGRATION, "type": "phone_call"},
            "agent": {"id": AGENT, "name": "Ana"},
            "created_at": "2026-03-01T09:30:00+00:00",
            "scheduling": {"mon": {"startTime": "09:00", "stopTime": "17:00", "active": True}},
            "cycles": {
                "enabled": True,
                "mode": "cooldown",
                "max_iterations": 3,
                "cooldown_minutes": 60,
                "filter_statuses": ["converted"],
            },
        }

    def test_analytics_is_omitted_when_absent_and_kept_when_empty(self) -> None:
        assert "analytics" not in to_wire(DETAIL)
        with_snapshot = CampaignDetail(**{**_fields(DETAIL), "analytics": {}})
        assert to_wire(with_snapshot)["analytics"] == {}
        nested = CampaignDetail(**{**_fields(DETAIL), "analytics": {"a": [1, {"b": None}]}})
        assert to_wire(nested)["analytics"] == {"a": [1, {"b": None}]}

    def test_integration_none_is_null_on_the_wire(self) -> None:
        # spec 2.2: integration is "object or null", a required member.
        wire = to_wire(CampaignDetail(**{**_fields(DETAIL), "integration": None}))
        assert wire["integration"] is None

    def test_a_date_time_is_rfc_3339_with_a_t(self) -> None:
        moment = datetime.datetime(2026, 3, 1, 9, 30, 5, 120000, tzinfo=PLUS_ONE)
        wire = to_wire(CampaignDetail(**{**_fields(DETAIL), "created_at": moment}))
        assert wire["created_at"] == "2026-03-01T09:30:05.120000+01:00"
        assert to_wire(THREAD)["updated_at"] == "2026-03-02T10:15:00+01:00"

    def test_window_seconds_are_kept_and_whole_minutes_are_hh_mm(self) -> None:
        schedule = Schedule(mon=DayWindow(datetime.time(8, 59, 30), datetime.time(17, 0, 0), False))
        assert to_wire(schedule) == {
            "mon": {"startTime": "08:59:30", "stopTime": "17:00", "active": False}
        }

    def test_a_contact_with_last_call_at_as_yyyy_mm_dd_hh_mm_ss(self) -> None:
        assert to_wire(CONTACT) == {**body("contact_response")["contact"]}
        assert to_wire(CONTACT)["last_call_at"] == "2026-03-02 10:15:00"

    def test_a_contact_never_called_has_last_call_at_null(self) -> None:
        # D-contact-last-call: the member is there, null.
        never = CampaignContact(**{**_fields(CONTACT), "last_call_at": None})
        wire = to_wire(never)
        assert "last_call_at" in wire
        assert wire["last_call_at"] is None

    @pytest.mark.parametrize(
        "moment",
        [
            datetime.datetime(999, 1, 2, 3, 4, 5),
            datetime.datetime(1, 1, 1),
            datetime.datetime(9999, 12, 31, 23, 59, 59),
        ],
    )
    def test_last_call_at_of_any_year_reads_back(self, moment: datetime.datetime) -> None:
        # Regression: strftime's %Y wrote year 999 as "999", which parse_contact_response refused.
        contact = CampaignContact(**{**_fields(CONTACT), "last_call_at": moment})
        wire = to_wire(contact)
        assert wire["last_call_at"] == moment.isoformat(sep=" ")
        assert value_of(parse_contact_response({"success": True, "contact": wire})) == contact

    def test_a_thread(self) -> None:
        assert to_wire(THREAD) == body("thread")

    def test_error_bodies(self) -> None:
        assert to_wire(ApiError(error=ErrorKey.NOT_FOUND, message="m")) == {
            "success": False,
            "error": "NOT_FOUND",
            "message": "m",
        }
        transition = ApiError(
            error=ErrorKey.INVALID_STATUS_TRANSITION,
            message="m",
            current_status=CampaignStatus.FINISHED,
            valid_targets=(),
        )
        assert to_wire(transition) == {
            "success": False,
            "error": "INVALID_STATUS_TRANSITION",
            "message": "m",
            "current_status": "finished",
            "valid_targets": [],
        }
        assert to_wire(CredentialsError(401, "no")) == {"error": 401, "message": "no"}

    def test_every_wire_form_is_strict_json(self) -> None:
        for model in (DETAIL, CONTACT, THREAD, CredentialsError(401, "m")):
            json.dumps(to_wire(model), allow_nan=False)

    def test_an_empty_filter_statuses_round_trips(self) -> None:
        wire = with_("create_response", "campaign.cycles.filter_statuses", [])
        assert to_wire(value_of(parse_create_response(wire))) == to_wire(DETAIL) | {
            "cycles": {**to_wire(DETAIL)["cycles"], "filter_statuses": []}
        }


def _fields(model: Any) -> dict[str, Any]:
    """The attributes of a model, to build a copy with some changed."""
    return attrs.asdict(model, recurse=False)


CREATED_AT = datetime.datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def created(base: str, **members: Any) -> Any:
    result = validate_create(payload(base, **members))
    assert result.ok, result.violations
    return result.value


def detail_of(value: Any, **overrides: Any) -> CampaignDetail:
    arguments = {
        "id": 42,
        "status": CampaignStatus.PENDING,
        "created_at": CREATED_AT,
        "agent_name": "Ana",
    }
    return CampaignDetail.from_create(value, **{**arguments, **overrides})


class TestFromCreate:
    def test_a_cooldown_campaign_drops_filter_tags_and_the_members_2_2_does_not_list(self) -> None:
        value = created("cooldown", description="d", timezone="UTC", retries=3)
        wire = to_wire(detail_of(value))
        assert wire == {
            "id": 42,
            "name": "Debt reminders",
            "status": "pending",
            "integration": {"id": PHONE_INTEGRATION, "type": "phone_call"},
            "agent": {"id": AGENT, "name": "Ana"},
            "created_at": "2026-03-01T09:30:00+00:00",
            "scheduling": {"mon": dict(WINDOW), "tue": dict(WINDOW)},
            "cycles": {
                "enabled": True,
                "mode": "cooldown",
                "max_iterations": 3,
                "cooldown_minutes": 60,
                "filter_statuses": ["converted"],
            },
        }

    def test_a_scheduled_campaign_keeps_its_schedule_and_dates(self) -> None:
        wire = to_wire(detail_of(created("scheduled")))
        assert wire["cycles"] == {
            "enabled": True,
            "mode": "scheduled",
            "max_iterations": 4,
            "schedule": {"wed": dict(WINDOW)},
            "schedule_start_date": "2026-03-01",
            "schedule_end_date": "2026-04-30",
        }
        assert wire["scheduling"] == {}

    @pytest.mark.parametrize(
        "cycles",
        [None, {"enabled": False}, {}, {"enabled": False, "mode": "cooldown", "x": 1}],
        ids=repr,
    )
    def test_without_enabled_cycles_it_shows_enabled_false(self, cycles: Any) -> None:
        # D-detail-cycles: a campaign created without cycles shows {"enabled": false}.
        base = payload("whatsapp") if cycles is None else payload("whatsapp", cycles=cycles)
        result = validate_create(base)
        assert result.ok
        detail = detail_of(result.value)
        assert detail.cycles == CampaignCycles(enabled=False)
        assert to_wire(detail)["cycles"] == {"enabled": False}

    def test_without_scheduling_it_shows_an_empty_schedule(self) -> None:
        detail = detail_of(created("phone_call"))
        assert detail.scheduling == Schedule()
        assert to_wire(detail)["scheduling"] == {}

    def test_a_naive_created_at_is_utc_and_an_aware_one_is_kept(self) -> None:
        naive = detail_of(created("phone_call"), created_at=datetime.datetime(2026, 3, 1, 9, 30))
        assert naive.created_at == CREATED_AT
        assert naive.created_at.tzinfo is UTC
        aware = datetime.datetime(2026, 3, 1, 10, 30, tzinfo=PLUS_ONE)
        kept = detail_of(created("phone_call"), created_at=aware)
        assert to_wire(kept)["created_at"] == "2026-03-01T10:30:00+01:00"

    @pytest.mark.parametrize("id_", [1, PATH_ID_MAX])
    def test_an_id_within_the_wire_range_reads_back(self, id_: int) -> None:
        detail = detail_of(created("phone_call"), id=id_)
        body = {"success": True, "campaign": to_wire(detail)}
        assert parse_create_response(body).value == detail

    @pytest.mark.parametrize("id_", [0, -1, PATH_ID_MAX + 1, True, 1.0, "42"], ids=repr)
    def test_an_id_outside_the_wire_range_is_the_servers_bug(self, id_: object) -> None:
        # D-path-ids: parse_create_response would refuse the body such a detail writes.
        with pytest.raises(TypeError, match="a campaign id is an int from 1 to"):
            detail_of(created("phone_call"), id=id_)

    def test_the_agent_id_is_the_validated_lower_case_one(self) -> None:
        detail = detail_of(created("phone_call", agent_id=AGENT.upper()))
        assert detail.agent == AgentRef(AGENT, "Ana")

    def test_a_created_at_with_a_sub_minute_offset_still_reads_back(self) -> None:
        moment = datetime.datetime(1900, 1, 1, tzinfo=zoneinfo.ZoneInfo("Europe/Amsterdam"))
        assert moment.utcoffset() == datetime.timedelta(minutes=19, seconds=32)
        detail = detail_of(created("phone_call"), created_at=moment)
        wire = {"success": True, "campaign": to_wire(detail)}
        assert value_of(parse_create_response(wire)) == detail
        assert wire["campaign"]["created_at"] == "1899-12-31T23:40:28+00:00"

    def test_a_sub_minute_offset_out_of_utc_reach_is_cut_to_minutes(self) -> None:
        zone = datetime.timezone(datetime.timedelta(minutes=19, seconds=32))
        detail = detail_of(
            created("phone_call"), created_at=datetime.datetime(1, 1, 1, tzinfo=zone)
        )
        assert to_wire(detail)["created_at"] == "0001-01-01T00:00:00+00:19"

    @pytest.mark.parametrize("base", sorted(BASES))
    def test_what_a_server_builds_an_sdk_reads_back_as_the_same_value(self, base: str) -> None:
        detail = detail_of(created(base), status=CampaignStatus.ACTIVE, id=1)
        wire = {"success": True, "campaign": to_wire(detail)}
        assert value_of(parse_create_response(wire)) == detail


class TestParseError:
    def test_the_shape_follows_the_members_not_the_status(self) -> None:
        # spec 5 item 3, 7.1, 7.4: a credentials body with 404, an envelope with 401.
        assert parse_error(404, body("credentials_error")).value == CredentialsError(
            401, "invalid api key"
        )
        assert parse_error(401, body("api_error")).value == ApiError(
            error=ErrorKey.AGENT_NOT_FOUND, message="no such agent"
        )
        for status in (400, 401, 403, 404, 409, 429, 500, 503):
            assert type(parse_error(status, body("credentials_error")).value) is CredentialsError
            assert type(parse_error(status, body("api_error")).value) is ApiError

    def test_an_http_status_enum_is_a_status(self) -> None:
        # Regression: only an exact int was taken.
        assert parse_error(HTTPStatus.UNAUTHORIZED, body("credentials_error")).ok
        assert not parse_error(HTTPStatus.OK, body("credentials_error")).ok

    def test_a_parse_results_own_envelope_reads_back(self) -> None:
        broken = parse_thread([])
        assert broken.status == 500
        error = value_of(parse_error(broken.status, broken.envelope()))
        assert error == ApiError(error=ErrorKey.SERVER_ERROR, message=broken.violations[0].message)


def _envelopes_of_the_case_files() -> list[Any]:
    """`(status, envelope)` of each case the library refuses: creation, update, request, lifecycle.

    Refused by the library, not by the case's expectation (`tests/test_cases.py` judges that):
    so that a bound changed in `_core.limits` leaves this test to the envelopes alone.
    """
    found = []
    for stem, case in all_cases():
        if "response" in case:
            continue
        directory = build_directory(case["directory"]) if "directory" in case else None
        if any(source in case for source in REQUEST_SOURCES):
            result = run_request(case)
        elif "text" in case:
            result = run_text(case)
        elif "update" in case:
            update = case["update"]
            status = case_status(update.get("status"))
            result = validate_update(
                build_existing(update),
                copy.deepcopy(update["patch"]),
                status=status,
                directory=directory,
            )
        else:
            result = validate_create(build_payload(case), directory=directory)
        if result.envelope() is not None:
            param = pytest.param(result.status, result.envelope(), id=f"{stem}::{case['title']}")
            found.append(param)
    return found


def assert_reads_back(status: int, envelope: dict[str, Any] | None) -> None:
    """`parse_error` reads the body without a violation, unchanged, and writes it back as is."""
    assert envelope is not None
    before = copy.deepcopy(envelope)
    result = parse_error(status, envelope)
    assert result.violations == (), (status, envelope)
    assert envelope == before
    if isinstance(envelope["error"], str):
        # spec 7.1, with the 409 extras of D-lifecycle when present.
        assert isinstance(result.value, ApiError)
        assert result.value.error == ErrorKey(envelope["error"])
        assert result.value.field == envelope.get("field")
    else:
        # spec 7.4 and D-thread-id: a thread error is `{error: int, message}`.
        assert result.value == CredentialsError(envelope["error"], envelope["message"])
    assert result.value.message == envelope["message"]
    assert to_wire(result.value) == envelope


class TestParseErrorReadsTheLibrarysOwnErrorBodies:
    @pytest.mark.parametrize(("status", "envelope"), _envelopes_of_the_case_files())
    def test_every_refused_case_file_envelope(
        self, status: int, envelope: dict[str, Any] | None
    ) -> None:
        assert_reads_back(status, envelope)

    @given(public.invalid_create_payloads())
    def test_every_one_defect_envelope(self, triple: public.Defect) -> None:
        result = validate_create(triple[0])
        assert_reads_back(result.status, result.envelope())

    @given(st.one_of(s.hostile_payloads, public.create_payloads()), st.booleans())
    def test_every_envelope_of_any_payload(self, wire: Any, billing: bool) -> None:
        result = validate_create(wire, directory=FakeDirectory(billing_reached=billing))
        if not result.ok:
            assert_reads_back(result.status, result.envelope())
