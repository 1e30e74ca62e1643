"""`to_wire`: value objects back into wire JSON that `validate_create` reads as the same value.

Sources: spec 2.1, 2.3, 2.4 (wire names); decisions D-time-format, D-cycle-dates, D-agent-id.
"""

from __future__ import annotations

import copy
import datetime
import json
from typing import Any

import attrs
import pytest

from campaign_rules import (
    CampaignCreate,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    IntegrationType,
    Schedule,
    to_wire,
    validate_create,
)
from campaign_rules._core.limits import MESSAGE_LIMIT, RETRIES
from tests.support import AGENT, BASES, PHONE_INTEGRATION, WINDOW, payload

DEFAULTS = {"timezone": "America/Mexico_City", "retries": 1, "message_limit": 250}


def value_of(body: dict[str, Any]) -> CampaignCreate:
    value = validate_create(body).value
    assert value is not None
    return value


def walk(node: Any) -> list[Any]:
    """Every value in a wire JSON tree, containers included."""
    found = [node]
    if isinstance(node, dict):
        for member in node.values():
            found += walk(member)
    elif isinstance(node, list):
        for item in node:
            found += walk(item)
    return found


FULL = CampaignCreate(
    name="Full",
    agent_id=AGENT,
    integration_id=PHONE_INTEGRATION,
    integration_type=IntegrationType.PHONE_CALL,
    description="",
    timezone="UTC",
    retries=RETRIES.low,
    message_limit=MESSAGE_LIMIT.high,
    first_message="Hi",
    scheduling=Schedule(
        mon=DayWindow(datetime.time(0, 0), datetime.time(23, 59), True),
        sun=DayWindow(datetime.time(9, 5), datetime.time(9, 6), False),
    ),
    cycles=CyclesConfig(
        mode=CyclesMode.SCHEDULED,
        max_iterations=12,
        cooldown_minutes=0,
        filter_statuses=("failed", "queue"),
        filter_tags=("tag-vip",),
        schedule=Schedule(wed=DayWindow(datetime.time(8, 0), datetime.time(8, 1), True)),
        schedule_start_date=datetime.date(2024, 2, 29),
        schedule_end_date=datetime.date(2024, 2, 29),
    ),
)


class TestToWire:
    def test_a_phone_call_campaign_with_its_defaults(self) -> None:
        assert to_wire(value_of(payload())) == {**BASES["phone_call"], **DEFAULTS}

    def test_a_whatsapp_campaign(self) -> None:
        wire = to_wire(value_of(payload("whatsapp", template_alt="alt")))
        assert wire == {**BASES["whatsapp"], **DEFAULTS, "template_alt": "alt"}

    def test_a_cooldown_campaign_uses_the_wire_names(self) -> None:
        assert to_wire(value_of(payload("cooldown"))) == {**BASES["cooldown"], **DEFAULTS}

    def test_a_scheduled_campaign_uses_hh_mm_and_iso_dates(self) -> None:
        wire = to_wire(value_of(payload("scheduled")))
        assert wire == {**DEFAULTS, **BASES["scheduled"]}
        assert wire["cycles"]["schedule"] == {
            "wed": {"startTime": "09:00", "stopTime": "17:00", "active": True}
        }
        assert wire["cycles"]["schedule_start_date"] == "2026-03-01"

    def test_every_member_of_a_full_campaign(self) -> None:
        assert to_wire(FULL) == {
            "name": "Full",
            "agent_id": AGENT,
            "integration_id": PHONE_INTEGRATION,
            "integration_type": "phone_call",
            "description": "",
            "timezone": "UTC",
            "retries": RETRIES.low,
            "message_limit": MESSAGE_LIMIT.high,
            "first_message": "Hi",
            "scheduling": {
                "mon": {"startTime": "00:00", "stopTime": "23:59", "active": True},
                "sun": {"startTime": "09:05", "stopTime": "09:06", "active": False},
            },
            "cycles": {
                "enabled": True,
                "mode": "scheduled",
                "max_iterations": 12,
                "cooldown_minutes": 0,
                "filter_statuses": ["failed", "queue"],
                "filter_tags": ["tag-vip"],
                "schedule": {"wed": {"startTime": "08:00", "stopTime": "08:01", "active": True}},
                "schedule_start_date": "2024-02-29",
                "schedule_end_date": "2024-02-29",
            },
        }

    @pytest.mark.parametrize(
        ("time", "text"),
        [
            (datetime.time(0, 0), "00:00"),
            (datetime.time(9, 5), "09:05"),
            (datetime.time(23, 59), "23:59"),
        ],
    )
    def test_times_are_hh_mm(self, time: datetime.time, text: str) -> None:
        window = DayWindow(time, datetime.time(23, 59), True)
        wire = to_wire(datetime_campaign(scheduling=Schedule(fri=window)))
        assert wire["scheduling"]["fri"]["startTime"] == text

    @pytest.mark.parametrize(
        ("date", "text"),
        [
            (datetime.date(1, 1, 1), "0001-01-01"),
            (datetime.date(999, 12, 31), "0999-12-31"),
            (datetime.date(2024, 2, 29), "2024-02-29"),
            (datetime.date(9999, 12, 31), "9999-12-31"),
        ],
    )
    def test_dates_are_iso(self, date: datetime.date, text: str) -> None:
        cycles = CyclesConfig(
            mode=CyclesMode.SCHEDULED,
            max_iterations=2,
            schedule=Schedule(),
            schedule_start_date=date,
        )
        wire = to_wire(datetime_campaign(cycles=cycles))
        assert wire["cycles"]["schedule_start_date"] == text
        assert "schedule_end_date" not in wire["cycles"]

    @pytest.mark.parametrize("base", sorted(BASES))
    def test_enum_values_are_plain_strings(self, base: str) -> None:
        wire = to_wire(value_of(payload(base)))
        assert type(wire["integration_type"]) is str
        if "cycles" in wire:
            assert type(wire["cycles"]["mode"]) is str
        for node in walk(wire):
            assert type(node) in (str, int, bool, dict, list)

    def test_none_optionals_and_empty_filter_lists_are_left_out(self) -> None:
        value = value_of(payload("cooldown"))
        wire = to_wire(
            CampaignCreate(
                name="x",
                agent_id=AGENT,
                integration_id="i",
                integration_type=IntegrationType.WHATSAPP,
                scheduling=Schedule(tue=value.scheduling.tue),
                cycles=CyclesConfig(mode=CyclesMode.COOLDOWN, max_iterations=2, cooldown_minutes=1),
            )
        )
        assert set(wire) == {
            "name",
            "agent_id",
            "integration_id",
            "integration_type",
            "timezone",
            "retries",
            "message_limit",
            "scheduling",
            "cycles",
        }
        assert set(wire["scheduling"]) == {"tue"}
        assert wire["cycles"] == {
            "enabled": True,
            "mode": "cooldown",
            "max_iterations": 2,
            "cooldown_minutes": 1,
        }

    def test_the_wire_json_encodes_strictly(self) -> None:
        text = json.dumps(to_wire(FULL), allow_nan=False)
        assert json.loads(text) == to_wire(FULL)

    def test_to_wire_does_not_change_the_value(self) -> None:
        before = copy.deepcopy(FULL)
        to_wire(FULL)
        assert before == FULL

    def test_each_call_returns_a_new_tree(self) -> None:
        first = to_wire(FULL)
        first["cycles"]["filter_statuses"].append("z")
        first["scheduling"]["mon"]["active"] = False
        assert to_wire(FULL)["cycles"]["filter_statuses"] == ["failed", "queue"]
        assert to_wire(FULL)["scheduling"]["mon"]["active"] is True


def datetime_campaign(**members: Any) -> CampaignCreate:
    return CampaignCreate(
        name="x",
        agent_id=AGENT,
        integration_id=PHONE_INTEGRATION,
        integration_type=IntegrationType.PHONE_CALL,
        **members,
    )


@pytest.mark.parametrize("one_text", ["vip", b"vip"])
def test_one_text_in_a_tuple_member_is_refused_not_spelt_out(one_text: object) -> None:
    # D-one-text: a value built by hand with filter_tags="vip" is no ["v", "i", "p"].
    cycles = CyclesConfig(
        mode=CyclesMode.COOLDOWN,
        max_iterations=2,
        cooldown_minutes=60,
        filter_tags=one_text,  # type: ignore[arg-type]
    )
    message = f"whose tuple members are tuples, not one {type(one_text).__name__}"
    with pytest.raises(TypeError, match=f"^to_wire takes a value object {message}"):
        to_wire(cycles)
    written = to_wire(
        CyclesConfig(**{**attrs.asdict(cycles, recurse=False), "filter_tags": ("vip",)})
    )
    assert written["filter_tags"] == ["vip"]


class TestRoundTrip:
    @pytest.mark.parametrize("base", sorted(BASES))
    def test_validate_create_reads_the_wire_json_back_as_the_same_value(self, base: str) -> None:
        value = value_of(payload(base))
        again = validate_create(to_wire(value))
        assert again.ok
        assert again.value == value

    @pytest.mark.parametrize(
        "body",
        [
            payload(agent_id=AGENT.upper(), retries=0.0, message_limit=1e4),
            payload(
                "whatsapp", template="", template_alt="", description="d", timezone="US/Eastern"
            ),
            payload(
                scheduling={
                    day: dict(WINDOW) for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
                }
            ),
            payload(cycles={"enabled": False, "mode": "garbage"}),
            payload("cooldown", cycles={**BASES["cooldown"]["cycles"], "schedule": None}),
        ],
        ids=[
            "upper agent and floats",
            "whatsapp",
            "all weekdays",
            "disabled block",
            "null schedule",
        ],
    )
    def test_a_normalised_payload_round_trips(self, body: dict[str, Any]) -> None:
        value = value_of(body)
        assert validate_create(to_wire(value)).value == value

    def test_a_value_built_by_hand_round_trips(self) -> None:
        assert validate_create(to_wire(FULL)).value == FULL
