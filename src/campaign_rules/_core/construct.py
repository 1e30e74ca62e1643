"""Making the frozen attrs value objects on the hot path, as fast as each build allows.

The public value objects (`CampaignCreate`, `Schedule`, `CyclesConfig`, `DayWindow`), the
`Violation`s and the results are frozen, slotted attrs classes, and stay so (issue 13). Their
generated `__init__` runs as interpreted code in both builds and sets each field through
`object.__setattr__`. Compiled, the same `object.__setattr__` here is one C call,
`PyObject_GenericSetAttr`, with no Python call around it (benchmarks/RESULTS.md, issue 22).
Interpreted, the attrs `__init__` is the faster of the two, so the pure-Python build calls it,
but for a class with keyword-only fields (D-compiled-build).

Filling the slots is exactly what the generated `__init__` does for the classes it is used
on, and only for those: a class with a validator, a converter, a field left out of `__init__`,
an `__attrs_pre_init__` or `__attrs_post_init__`, or a cached hash is refused here
(`TypeError`, a bug of the library found by its tests), so nothing attrs would run is skipped.
"""

from __future__ import annotations

import types
from typing import Any, Final, TypeVar

import attrs

from campaign_rules._core.compiled import COMPILED
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.outcome import Outcome
from campaign_rules._core.violations import TextPlaces, Violation

__all__ = ["construct", "outcome", "placed_copy", "slots_filled", "violation"]

T = TypeVar("T")
Result = TypeVar("Result", bound=Outcome[Any])

_new: Final = object.__new__
# The field names of each class filled so far, in order, each known to be a slot.
_FIELDS: Final[dict[type, tuple[str, ...]]] = {}
# Whether each class made so far by the pure-Python build has a keyword-only field.
_KEYWORD_ONLY: Final[dict[type, bool]] = {}


def construct(cls: type[T], values: tuple[object, ...]) -> T:
    """An instance of the frozen attrs class `cls` with its fields, in order, set to `values`.

    Equal to calling `cls` with `values`: the compiled build fills the slots, and so does the
    pure-Python one for a class with keyword-only fields (which would otherwise need a `dict`
    of keywords); the pure-Python build calls any other class.
    """
    if COMPILED:
        return slots_filled(cls, values)
    keyword_only = _KEYWORD_ONLY.get(cls)
    if keyword_only is None:
        keyword_only = _KEYWORD_ONLY[cls] = _has_keyword_only_fields(cls)
    return slots_filled(cls, values) if keyword_only else cls(*values)


def slots_filled(cls: type[T], values: tuple[object, ...]) -> T:
    """`cls(*values)`, made by setting each slot of a new instance as attrs' `__init__` does.

    That is `object.__setattr__`, which mypyc compiles to one C call
    (`PyObject_GenericSetAttr`), where calling the slot descriptor's `__set__` packed its
    arguments in a tuple (issue 22).
    """
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _slot_names(cls)
    if len(values) != len(names):
        raise TypeError(f"{cls.__name__} has {len(names)} fields, not {len(values)}")
    instance: T = _new(cls)
    # By index, having checked the lengths: mypyc compiles `zip(..., strict=True)` as a
    # generic call, which doubles the cost of this loop.
    for index, name in enumerate(names):
        object.__setattr__(instance, name, values[index])
    return instance


def violation(key: ErrorKey, field: str | None, message: str, rule: str, pointer: str) -> Violation:
    """`Violation(key, field, message, rule, pointer=pointer)`, made as `construct` makes it.

    The runner makes one for each finding of a rule: the compiled build sets the slots by
    name, with no tuple of values, no look-up of the class's fields and no loop (issue 22);
    `line` and `column` are `None`, as for any violation not placed in a text.
    """
    if not COMPILED:
        return Violation(key, field, message, rule, pointer=pointer)
    made: Violation = _new(_VIOLATION)
    object.__setattr__(made, "key", key)
    object.__setattr__(made, "field", field)
    object.__setattr__(made, "message", message)
    object.__setattr__(made, "rule", rule)
    object.__setattr__(made, "pointer", pointer)
    # `line` and `column` are left unset: read, they are `None` (`_core.violations`), and
    # setting them would call their descriptor, a Python call each.
    return made


def placed_copy(made: Violation, places: TextPlaces) -> Violation:
    """A copy of `made` that finds its line and column with `places` when first read.

    Its slots are set by name, as `violation` sets them (an interpreted copy took about as
    long as the rules on a small invalid body); `line` and `column` are left unset, and
    `_core.violations` reads them through `places` (D-positions).
    """
    copy: Violation = _new(_VIOLATION)
    object.__setattr__(copy, "key", made.key)
    object.__setattr__(copy, "field", made.field)
    object.__setattr__(copy, "message", made.message)
    object.__setattr__(copy, "rule", made.rule)
    object.__setattr__(copy, "pointer", made.pointer)
    object.__setattr__(copy, "_places", places)
    return copy


def outcome(cls: type[Result], value: object, violations: tuple[Violation, ...]) -> Result:
    """`cls(value, violations)`, for `Outcome` or a subclass of it with no field of its own.

    Made as `violation` makes a violation: the compiled build sets the two slots by name, with
    no tuple of values and no look-up of the class's fields (issue 22); the results of
    `validate_create` and `validate_update` are such subclasses (`_campaign.results`), which
    tests/test_construct.py checks.
    """
    if not COMPILED:
        return cls(value, violations)
    made: Result = _new(cls)
    object.__setattr__(made, "value", value)
    object.__setattr__(made, "violations", violations)
    return made


def _slot_names(cls: type) -> tuple[str, ...]:
    """The field names of `cls`, each a slot, once its `__init__` is known to do no more."""
    if not (attrs.has(cls) and "__slots__" in vars(cls)):
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    extras = ("__attrs_pre_init__", "__attrs_post_init__", "_attrs_cached_hash")
    if any(hasattr(cls, extra) for extra in extras):
        raise TypeError(f"the __init__ of {cls.__name__} does more than set its fields")
    names: list[str] = []
    for field in attrs.fields(cls):
        if field.validator is not None or field.converter is not None or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name} is more than a plain field")
        _slot_of(cls, field.name)  # raises when the field is not a slot
        names.append(field.name)
    return tuple(names)


def _slot_of(cls: type, name: str) -> types.MemberDescriptorType:
    # The member descriptor of a slot is in the `__dict__` of the class that declares it, or
    # held by the descriptor that replaced it there (`Violation.line`, `.column`).
    for klass in cls.__mro__:
        slot = vars(klass).get(name)
        slot = getattr(slot, "member", slot)
        if isinstance(slot, types.MemberDescriptorType):
            return slot
    raise TypeError(f"{cls.__name__} has no slot {name}")


def _has_keyword_only_fields(cls: type) -> bool:
    return attrs.has(cls) and any(field.kw_only for field in attrs.fields(cls))


# `violation` sets these slots by name, in this order: checked once, as `slots_filled` checks a
# class the first time it fills one. A `Final` name, not the imported class: compiled, a module
# global of a class defined elsewhere is a dictionary look-up at each use.
_VIOLATION: Final = Violation
_VIOLATION_FIELDS: Final = ("key", "field", "message", "rule", "pointer", "line", "column")
if _slot_names(_VIOLATION) != _VIOLATION_FIELDS:
    raise TypeError(f"the fields of Violation are not {', '.join(_VIOLATION_FIELDS)}")
# And `outcome` these two.
if _slot_names(Outcome) != ("value", "violations"):
    raise TypeError("the fields of Outcome are not value and violations")
