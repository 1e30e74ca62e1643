"""`_core.construct`: the hot path makes attrs value objects equal to their constructors' own.

The compiled build fills the slots of a new instance instead of calling the generated
`__init__` (D-compiled-build); these tests run `slots_filled` in both builds, and `construct`
in the build installed, against the attrs constructor.
"""

from __future__ import annotations

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
    DayWindow,
    Schedule,
    UpdateAccepted,
    UpdateRefused,
    Violation,
    validate_create,
)
from campaign_rules._core.construct import construct, slots_filled
from campaign_rules._core.limits import WEEKDAYS
from campaign_rules.strategies import create_payloads

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


@given(create_payloads())
def test_a_built_campaign_filled_again_is_equal(payload: dict[str, Any]) -> None:
    # The values `build_campaign` makes: a campaign with schedules and cycles, slots filled.
    result = validate_create(payload)
    assert result.ok
    campaign = result.value
    again = slots_filled(CampaignCreate, attrs.astuple(campaign, recurse=False))
    assert again == campaign
    assert repr(again) == repr(campaign)


def test_a_filled_instance_stays_frozen() -> None:
    window = slots_filled(DayWindow, (None, None, True))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        window.active = False  # type: ignore[misc]


def test_the_schedule_fields_are_the_weekdays_in_order() -> None:
    # `build_campaign` gives a schedule's windows in the order of `WEEKDAYS`.
    assert tuple(field.name for field in attrs.fields(Schedule)) == WEEKDAYS


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
