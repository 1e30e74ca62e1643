"""`_core.construct`: the hot path makes attrs value objects equal to their constructors' own.

The compiled build fills the slots of a new instance instead of calling the generated
`__init__` (D-compiled-build); these tests run `slots_filled` in both builds, and `construct`
in the build installed, against the attrs constructor.
"""

from __future__ import annotations

import datetime
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import (
    CampaignCreate,
    CreateAccepted,
    CreateRefused,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    ErrorKey,
    IntegrationType,
    Schedule,
    UpdateAccepted,
    UpdateRefused,
    Violation,
    validate_create,
)
from campaign_rules._campaign.build import build_campaign
from campaign_rules._campaign.document import Document
from campaign_rules._core.construct import construct, outcome, slots_filled, violation
from campaign_rules._core.limits import WEEKDAYS
from campaign_rules.strategies import create_payloads
from tests.support import payload

# Every class the library makes through `construct`.
CONSTRUCTED = (
    CampaignCreate,
    CyclesConfig,
    DayWindow,
    Schedule,
    Violation,
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
# Field values of any kind, hashable so that the hashes can be compared too: the classes
# check nothing, so `construct` must take whatever their constructors take.
ANY_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.tuples(st.integers())
)


def called(cls: type[Any], values: tuple[object, ...]) -> object:
    """What calling the attrs constructor of `cls` with `values` makes, by keyword if it must."""
    fields = attrs.fields(cls)
    if any(field.kw_only for field in fields):
        return cls(**{field.alias: value for field, value in zip(fields, values, strict=True)})
    return cls(*values)


@pytest.mark.parametrize("cls", CONSTRUCTED, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_both_ways_make_what_the_constructor_makes(cls: type[Any], data: st.DataObject) -> None:
    values = data.draw(st.tuples(*[ANY_VALUE] * len(attrs.fields(cls))))
    expected = called(cls, values)
    for made in (construct(cls, values), slots_filled(cls, values)):
        assert type(made) is cls
        assert made == expected
        assert attrs.astuple(made, recurse=False) == values
        assert hash(made) == hash(expected)


@given(
    st.sampled_from(ErrorKey),
    st.none() | st.text(max_size=5),
    st.text(max_size=5),
    st.text(),
    st.text(max_size=8),
)
def test_violation_makes_what_the_constructor_makes(
    key: ErrorKey, field: str | None, message: str, rule: str, pointer: str
) -> None:
    # The runner's maker, which sets the slots by name rather than by `construct`.
    made = violation(key, field, message, rule, pointer)
    expected = Violation(key, field, message, rule, pointer=pointer)
    assert type(made) is Violation
    assert made == expected
    assert attrs.astuple(made, recurse=False) == (key, field, message, rule, pointer, None, None)
    assert hash(made) == hash(expected)
    assert repr(made) == repr(expected)


@pytest.mark.parametrize(
    "cls",
    [CreateAccepted, CreateRefused, UpdateAccepted, UpdateRefused],
    ids=lambda cls: cls.__name__,
)
@given(value=ANY_VALUE, violations=st.tuples(ANY_VALUE))
def test_outcome_makes_what_the_constructor_makes(
    cls: type[Any], value: object, violations: tuple[Any, ...]
) -> None:
    # The validations' maker of their results, which sets the two slots of `Outcome` by name:
    # a result class with a field of its own would be made without it, and fail here.
    assert [field.name for field in attrs.fields(cls)] == ["value", "violations"]
    made = outcome(cls, value, violations)
    expected = cls(value, violations)
    assert type(made) is cls
    assert made == expected
    assert attrs.astuple(made, recurse=False) == (value, violations)
    assert hash(made) == hash(expected)


@given(create_payloads())
def test_a_built_campaign_filled_again_is_equal(body: dict[str, Any]) -> None:
    # The values `build_campaign` makes: a campaign with schedules and cycles, slots filled.
    result = validate_create(body)
    assert result.ok
    campaign = result.value
    again = slots_filled(CampaignCreate, attrs.astuple(campaign, recurse=False))
    assert again == campaign
    assert repr(again) == repr(campaign)


def test_a_filled_instance_stays_frozen() -> None:
    window = slots_filled(DayWindow, (None, None, True))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        window.active = False  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"name": 7},
        {"integration_type": "sms"},
        {"scheduling": {"mon": {"startTime": 900, "stopTime": "18:00", "active": True}}},
        {"scheduling": {"tue": {"startTime": "09:00", "stopTime": None, "active": True}}},
    ],
)
def test_a_value_the_rules_refuse_is_refused_by_the_value_objects_too(
    changes: dict[str, Any],
) -> None:
    # `build_campaign` trusts the rules for a value's form, not for its presence: a value they
    # refuse reaching it would be a bug of the rules, and it raises rather than build a campaign.
    body = payload("phone_call", **changes)
    assert not validate_create(body).ok
    with pytest.raises(TypeError, match="a value the rules refuse reached the value objects"):
        build_campaign(Document(body))


def test_the_schedule_fields_are_the_weekdays_in_order() -> None:
    # `build_campaign` gives a schedule's windows in the order of `WEEKDAYS`.
    assert tuple(field.name for field in attrs.fields(Schedule)) == WEEKDAYS


# `build_campaign` fills `CampaignCreate` and `CyclesConfig` by position. Each payload below
# gives every member it can a value of its own, so that the campaign each field would get if
# two fields of a class changed places differs from the one made here by name.
_OFFICE = {"startTime": "10:00", "stopTime": "20:00", "active": True}
_QUIET = {"startTime": "11:00", "stopTime": "16:00", "active": False}
BY_NAME = [
    (
        {
            "name": "Survey",
            "agent_id": "5A1E9C3B-7D2F-4B8A-A6E0-3C9F1D7B5E24",
            "integration_id": "int_voice",
            "integration_type": "phone_call",
            "description": "About it",
            "timezone": "Europe/Madrid",
            "retries": 2,
            "message_limit": 7,
            "first_message": "Hello",
            "scheduling": {"mon": _OFFICE},
            "cycles": {
                "enabled": True,
                "mode": "scheduled",
                "max_iterations": 4,
                "cooldown_minutes": 90,
                "filter_statuses": ["converted"],
                "filter_tags": ["vip"],
                "schedule": {"tue": _QUIET},
                "schedule_start_date": "2027-01-04",
                "schedule_end_date": "2027-03-26",
            },
        },
        CampaignCreate(
            name="Survey",
            agent_id="5a1e9c3b-7d2f-4b8a-a6e0-3c9f1d7b5e24",
            integration_id="int_voice",
            integration_type=IntegrationType.PHONE_CALL,
            description="About it",
            timezone="Europe/Madrid",
            retries=2,
            message_limit=7,
            first_message="Hello",
            scheduling=Schedule(mon=DayWindow(datetime.time(10), datetime.time(20), True)),
            cycles=CyclesConfig(
                enabled=True,
                mode=CyclesMode.SCHEDULED,
                max_iterations=4,
                cooldown_minutes=90,
                filter_statuses=("converted",),
                filter_tags=("vip",),
                schedule=Schedule(tue=DayWindow(datetime.time(11), datetime.time(16), False)),
                schedule_start_date=datetime.date(2027, 1, 4),
                schedule_end_date=datetime.date(2027, 3, 26),
            ),
        ),
    ),
    (
        {
            "name": "Follow-up",
            "agent_id": "b7e4d2c1-9a3f-4e6b-8c5d-2f1a0e9d8c7b",
            "integration_id": "int_wa",
            "integration_type": "whatsapp",
            "template": "order_update",
            "template_alt": "order_short",
        },
        CampaignCreate(
            name="Follow-up",
            agent_id="b7e4d2c1-9a3f-4e6b-8c5d-2f1a0e9d8c7b",
            integration_id="int_wa",
            integration_type=IntegrationType.WHATSAPP,
            template="order_update",
            template_alt="order_short",
        ),
    ),
]


def by_name(value: object) -> dict[str, object]:
    """The fields of an attrs instance by name, those of attrs instances in them too."""
    return attrs.asdict(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("payload", "expected"), BY_NAME, ids=["phone_call", "whatsapp"])
def test_build_campaign_fills_each_field_by_its_name(
    payload: dict[str, Any], expected: CampaignCreate
) -> None:
    # The field order of `CampaignCreate` and `CyclesConfig`, which `build_campaign` follows,
    # pinned: made by keyword here, a field moved in either class puts its value in another.
    result = validate_create(payload)
    assert result.ok, result.violations
    assert by_name(result.value) == by_name(expected)
    assert result.value == expected


@pytest.mark.parametrize("values", [(), (1, 2), (1, 2, 3, 4)])
def test_a_wrong_number_of_values_is_refused(values: tuple[object, ...]) -> None:
    with pytest.raises(TypeError, match="DayWindow has 3 fields"):
        slots_filled(DayWindow, values)


@attrs.frozen
class Validated:
    number: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen
class Converted:
    number: int = attrs.field(converter=int)


@attrs.frozen
class PostInit:
    number: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen
class PreInit:
    number: int

    def __attrs_pre_init__(self) -> None:
        pass


@attrs.frozen(cache_hash=True)
class CachedHash:
    number: int


@attrs.frozen
class NotInInit:
    number: int = attrs.field(init=False, default=0)


@attrs.define(slots=False)
class NotSlotted:
    number: int


class NotAttrs:
    __slots__ = ("number",)


@pytest.mark.parametrize(
    "cls",
    [Validated, Converted, PostInit, PreInit, CachedHash, NotInInit, NotSlotted, NotAttrs],
    ids=lambda cls: cls.__name__,
)
def test_a_class_whose_init_does_more_than_set_its_slots_is_refused(cls: type[Any]) -> None:
    with pytest.raises(TypeError):
        slots_filled(cls, (1,))
