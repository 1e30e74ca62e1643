"""The one cattrs converter: validated wire JSON into value objects, value objects into wire JSON.

This is the only module that maps attribute names to wire names (`start_time` to `startTime`,
which `_campaign.shape` spells) and knows wire formats (`"09:00"`, `"2026-03-01"`,
`"2026-03-01T09:00:00+00:00"`). It serves the creation input and every response
model alike, for the server and the SDK: it writes every value object, and structures the
response models (and their schedules) from bodies that passed every response rule,
reading them through `campaign_rules._core.json`, so a hostile subclass among the values runs no
code of its own here either. Members a model does not hold are left behind (D-tolerant-reading).

`validate_create` does not come here: it builds its `CampaignCreate` in `_campaign.build`, from the
values the rules have read, which is faster than structuring. So the converter, and cattrs
itself, are made on first use: importing `campaign_rules` and validating a first payload costs
less without them (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

import attrs

from campaign_rules._campaign.models import CampaignCreate, CyclesConfig, DayWindow, Schedule
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._core.enums import (
    CampaignStatus,
    ContactStatus,
    CyclesMode,
    ErrorKey,
    IntegrationType,
)
from campaign_rules._core.formats import (
    parse_contact_time,
    parse_date,
    parse_date_time,
    parse_response_time,
)
from campaign_rules._core.json import (
    ONE_TEXT_CLASSES,
    as_boolean,
    as_integer,
    as_string,
    plain_json_copy,
    read_list,
    read_object,
)

if TYPE_CHECKING:
    from typing import TypeAlias

    import cattrs

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

    # Every value object that has a wire form. (The response models are imported when the
    # converter is made, so that importing the library and validating a body never loads them.)
    WireModel: TypeAlias = (
        CampaignCreate
        | CampaignDetail
        | CampaignContact
        | Thread
        | ApiError
        | CredentialsError
        | Schedule
        | DayWindow
        | CyclesConfig
        | CampaignCycles
        | Integration
        | AgentRef
        | EndUser
        | IntegrationRef
        | ThreadTag
        | Assignee
    )

else:
    # At run time (for tools that read annotations, such as `typing.get_type_hints`), any
    # attrs instance: the precise union would import the response models.
    WireModel = attrs.AttrsInstance

__all__ = ["structure_response", "to_wire"]

T = TypeVar("T")

_WIRE_NAMES: Final = {"start_time": START_TIME, "stop_time": STOP_TIME}
_TIME_FORMAT: Final = "%H:%M"

_ENUMS: Final = (IntegrationType, CyclesMode, CampaignStatus, ContactStatus, ErrorKey)


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


def _date_time_text(moment: datetime.datetime) -> str:
    # RFC 3339 with a `T`; a naive value (which parsing never builds) is UTC (D-date-times).
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    offset = moment.utcoffset() or datetime.timedelta()
    if offset % datetime.timedelta(minutes=1):
        # RFC 3339 offsets are whole minutes; a zone's local mean time (before about 1900) has
        # seconds. The same instant in UTC says it exactly; at the very ends of the datetime
        # range, where UTC is out of reach, the offset is cut to its minutes (D-date-times).
        try:
            moment = moment.astimezone(datetime.UTC)
        except OverflowError:
            whole = datetime.timedelta(minutes=offset // datetime.timedelta(minutes=1))
            moment = moment.replace(tzinfo=datetime.timezone(whole))
    return moment.isoformat()


def _contact_time_text(moment: datetime.datetime | None) -> str | None:
    # Not strftime: its `%Y` writes year 999 as "999" on glibc, which would not read back.
    if moment is None:
        return None
    return moment.replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")


def _contact_time(value: object, _: Any) -> datetime.datetime | None:
    return None if value is None else parse_contact_time(as_string(value) or "")


def _items_hook(converter: cattrs.Converter) -> Callable[[object], list[object]]:
    """Write a homogeneous tuple as a JSON array; refuse one text (D-one-text).

    A value object built by hand with `filter_tags="vip"` would otherwise be written as
    `["v", "i", "p"]`.
    """

    def write(items: object) -> list[object]:
        if isinstance(items, ONE_TEXT_CLASSES):
            raise TypeError(
                "to_wire takes a value object whose tuple members are tuples, not one "
                f"{type(items).__name__}: write (item,) for one item"
            )
        return [converter.unstructure(item) for item in items]  # type: ignore[attr-defined]

    return write


def _is_homogeneous_tuple(type_: Any) -> bool:
    args: tuple[Any, ...] = getattr(type_, "__args__", ())
    return getattr(type_, "__origin__", None) is tuple and args[1:] == (Ellipsis,)


def _is_mapping(type_: Any) -> bool:
    return getattr(type_, "__origin__", None) is Mapping


@functools.cache
def _converter() -> cattrs.Converter:
    """The converter, made once, on first use (cattrs is imported then, not with the library)."""
    import cattrs

    # Only payloads that broke no rule are structured, so cattrs' detailed errors would never
    # be read; without them the generated functions are leaner.
    converter = cattrs.Converter(detailed_validation=False)
    converter.register_structure_hook(str, _validated(as_string))
    converter.register_structure_hook(int, _validated(as_integer))
    converter.register_structure_hook(bool, _validated(as_boolean))
    # Response windows may carry seconds (D-response-times).
    converter.register_structure_hook(
        datetime.time, _validated(lambda v: parse_response_time(as_string(v) or ""))
    )
    converter.register_structure_hook(
        datetime.date, _validated(lambda v: parse_date(as_string(v) or ""))
    )
    converter.register_structure_hook(
        datetime.datetime, _validated(lambda v: parse_date_time(as_string(v) or ""))
    )
    # A homogeneous tuple is a JSON array, read without running a list subclass's code; an
    # optional one sent as null is empty (D-tolerant-reading).
    converter.register_structure_hook_factory(
        _is_homogeneous_tuple,
        lambda type_: _tuple_hook(converter, type_.__args__[0]),
    )
    converter.register_unstructure_hook_factory(
        _is_homogeneous_tuple, lambda type_: _items_hook(converter)
    )
    converter.register_structure_hook_func(_is_mapping, _mapping_hook)
    # The mapping hook's copies are plain JSON, so a shallow copy is the wire form.
    converter.register_unstructure_hook_func(_is_mapping, dict)
    for enum_type in _ENUMS:
        converter.register_structure_hook(enum_type, lambda v, t: t(as_string(v)))
        # `str` writes a member as its value, and a plain string (a server may build a value
        # object from its own records' strings) as it is.
        converter.register_unstructure_hook(enum_type, str)
    converter.register_unstructure_hook(datetime.time, _time_text)
    converter.register_unstructure_hook(datetime.date, datetime.date.isoformat)
    converter.register_unstructure_hook(datetime.datetime, _date_time_text)

    from campaign_rules._wire import models as responses

    # The value objects, inner ones first; each gets its structure and unstructure functions.
    models = (
        DayWindow,
        Schedule,
        CyclesConfig,
        CampaignCreate,
        responses.CampaignCycles,
        responses.Integration,
        responses.AgentRef,
        responses.CampaignDetail,
        responses.CampaignContact,
        responses.EndUser,
        responses.IntegrationRef,
        responses.ThreadTag,
        responses.Assignee,
        responses.Thread,
        responses.ApiError,
        responses.CredentialsError,
    )
    # Per-field wire forms that differ from their type's: spec 2.5's `last_call_at`.
    field_hooks = {(responses.CampaignContact, "last_call_at"): (_contact_time, _contact_time_text)}
    for cls in models:
        _register_model(converter, cls, field_hooks)
    return converter


def _tuple_hook(
    converter: cattrs.Converter, item_type: Any
) -> Callable[[object, Any], tuple[Any, ...]]:
    def hook(value: object, _: Any) -> tuple[Any, ...]:
        return tuple(converter.structure(item, item_type) for item in read_list(value) or ())

    return hook


def _mapping_hook(value: object, type_: Any) -> dict[str, object]:
    """A free-form map, copied as plain JSON: its strings for `Mapping[str, str]`.

    The response rules have checked its size, its names, and (for `analytics`) that it is
    plain JSON within the caps, so the copy shares nothing with the body (D-response-caps).
    """
    items: Iterable[tuple[str, object]] = dict.items(value)  # type: ignore[arg-type]
    if type_.__args__[1] is str:
        return {str.__str__(name): as_string(member) for name, member in items}
    return {str.__str__(name): plain_json_copy(member) for name, member in items}


# A member's own structure and unstructure hooks, by its class and name.
FieldHooks = dict[tuple[type[Any], str], tuple[Callable[..., Any], Callable[..., Any]]]


def _register_model(converter: cattrs.Converter, cls: type[Any], field_hooks: FieldHooks) -> None:
    from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

    # One override per member says all the converter must know of it: its wire name, its own
    # hooks, and, for an optional member (default None or an empty tuple), that it is left out
    # of the wire form when absent.
    overrides = {}
    for field in cls.__attrs_attrs__:
        structure, unstructure = field_hooks.get((cls, field.name), (None, None))
        overrides[field.name] = override(
            rename=_WIRE_NAMES.get(field.name),
            struct_hook=structure,
            unstruct_hook=unstructure,
            omit_if_default=field.default is None or field.default == (),
        )
    structure_fn = make_dict_structure_fn(cls, converter, **overrides)  # type: ignore[arg-type]
    converter.register_structure_hook(
        cls,
        lambda value, cls_, fn=structure_fn: fn(read_object(value) or {}, cls_),  # type: ignore[misc]
    )
    converter.register_unstructure_hook(
        cls,
        make_dict_unstructure_fn(cls, converter, **overrides),  # type: ignore[arg-type]
    )


def structure_response(members: object, cls: type[T]) -> T:
    """The value object `cls` of a response body (or of its inner member) that broke no rule."""
    return _converter().structure(members, cls)


def to_wire(value: WireModel) -> dict[str, Any]:
    """The wire JSON of any value object, with the spec's member names and formats.

    A `CampaignCreate` comes back as a body `validate_create` reads as the same value; a
    response model as a body its `parse_*` function reads as the same value. Optional members
    that are absent are left out; date-times are RFC 3339 with a `T` (D-date-times).
    """
    if not attrs.has(type(value)):
        # A programming error, not bad input: the type says what `to_wire` takes.
        raise TypeError(f"to_wire takes a value object of campaign_rules, not {type(value)!r}")
    wire: dict[str, Any] = _converter().unstructure(value)
    return wire
