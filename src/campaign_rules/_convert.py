"""The one cattrs converter: value objects into wire JSON, and wire JSON into value objects.

This is the only module that knows wire formats of value objects (`"09:00"`, `"2026-03-01"`).
It structures only data that passed every rule, reading it through `campaign_rules._json`, so a
hostile subclass among the values runs no code of its own here either.

`validate_create` does not come here: it builds its `CampaignCreate` in `_build`, from the
values the rules have read, which measured three times faster than structuring. So the
converter, and cattrs itself, are made on first use: importing `campaign_rules` and validating
a first payload costs about a third less without them (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from campaign_rules._enums import CyclesMode, IntegrationType
from campaign_rules._formats import parse_date, parse_time
from campaign_rules._json import as_boolean, as_integer, as_string, read_list, read_object
from campaign_rules._models import CampaignCreate, CyclesConfig, DayWindow, Schedule

if TYPE_CHECKING:
    import cattrs

__all__ = ["to_wire"]

T = TypeVar("T")

_WIRE_NAMES: Final = {"start_time": "startTime", "stop_time": "stopTime"}
_TIME_FORMAT: Final = "%H:%M"


def _validated(reader: Callable[[object], T | None]) -> Callable[[object, Any], T]:
    """A structure hook that reads a leaf already checked by the rules."""

    def hook(value: object, _: Any) -> T:
        result = reader(value)
        if result is None:  # the rules let no such value through: a bug, not bad input
            raise TypeError(f"unvalidated {type(value).__name__} reached the converter")
        return result

    return hook


def _time_text(time: datetime.time) -> str:
    # The wire form is HH:MM (D-time-format); a time with seconds, which validation never
    # builds, keeps them rather than losing them without a word.
    if time.second or time.microsecond:
        return time.isoformat()
    return time.strftime(_TIME_FORMAT)


def _is_string_tuple(type_: Any) -> bool:
    return bool(type_ == tuple[str, ...])


@functools.cache
def _converter() -> cattrs.Converter:
    """The converter, made once, on first use (cattrs is imported then, not with the library)."""
    import cattrs
    from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

    # Only payloads that broke no rule are structured, so cattrs' detailed errors would never
    # be read; without them the generated functions are leaner.
    converter = cattrs.Converter(detailed_validation=False)
    converter.register_structure_hook(str, _validated(as_string))
    converter.register_structure_hook(int, _validated(as_integer))
    converter.register_structure_hook(bool, _validated(as_boolean))
    converter.register_structure_hook(
        datetime.time, _validated(lambda v: parse_time(as_string(v) or ""))
    )
    converter.register_structure_hook(
        datetime.date, _validated(lambda v: parse_date(as_string(v) or ""))
    )
    string = _validated(as_string)
    converter.register_structure_hook_func(
        _is_string_tuple, lambda v, _: tuple(string(item, str) for item in read_list(v) or ())
    )
    for enum_type in (IntegrationType, CyclesMode):
        converter.register_structure_hook(enum_type, lambda v, t: t(as_string(v)))
        converter.register_unstructure_hook(enum_type, lambda member: member.value)
    converter.register_unstructure_hook(datetime.time, _time_text)
    converter.register_unstructure_hook(datetime.date, datetime.date.isoformat)
    converter.register_unstructure_hook_func(_is_string_tuple, list)

    for cls in (DayWindow, Schedule, CyclesConfig, CampaignCreate):
        renames = {
            field.name: override(rename=_WIRE_NAMES[field.name])
            for field in cls.__attrs_attrs__
            if field.name in _WIRE_NAMES
        }
        structure = make_dict_structure_fn(cls, converter, **renames)  # type: ignore[arg-type]
        converter.register_structure_hook(
            cls, lambda value, cls_, fn=structure: fn(read_object(value) or {}, cls_)
        )
        # An optional member that is absent (None, or an empty filter list) is left out.
        omitted = {
            field.name: override(omit_if_default=True, rename=_WIRE_NAMES.get(field.name))
            for field in cls.__attrs_attrs__
            if field.default is None or field.default == ()
        }
        converter.register_unstructure_hook(
            cls,
            make_dict_unstructure_fn(cls, converter, **{**renames, **omitted}),  # type: ignore[arg-type]
        )
    return converter


def to_wire(value: CampaignCreate) -> dict[str, Any]:
    """The wire JSON of a campaign: what `validate_create` reads back as the same value."""
    wire: dict[str, Any] = _converter().unstructure(value)
    return wire
