"""Making the frozen attrs value objects on the hot path, as fast as each build allows.

The public value objects (`CampaignCreate`, `Schedule`, `CyclesConfig`, `DayWindow`), the
`Violation`s and the results are frozen, slotted attrs classes, and stay so (issue 13). Their
generated `__init__` runs as interpreted code in both builds and sets each field through
`object.__setattr__`: about 70 ns a field. Called from compiled code, setting each slot
through its descriptor does the same in about 40 ns: building a valid payload's value went
from 3.2 to 2.3 µs (benchmarks/RESULTS.md). Interpreted, the attrs `__init__` is the faster
of the two, so the pure-Python build calls it, but for a class with keyword-only fields
(D-compiled-build).

Filling the slots is exactly what the generated `__init__` does for the classes it is used
on, and only for those: a class with a validator, a converter, a field left out of `__init__`,
an `__attrs_pre_init__` or `__attrs_post_init__`, or a cached hash is refused here
(`TypeError`, a bug of the library found by its tests), so nothing attrs would run is skipped.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Final, TypeVar

import attrs

from campaign_rules._core.compiled import COMPILED

__all__ = ["construct", "slots_filled"]

T = TypeVar("T")
Setter = Callable[[object, object], None]

_new: Final = object.__new__
# The slot setters of each class filled so far, in the order of its fields.
_SETTERS: Final[dict[type, tuple[Setter, ...]]] = {}
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
    """`cls(*values)`, made by setting each slot of a new instance through its descriptor."""
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = _slot_setters(cls)
    if len(values) != len(setters):
        raise TypeError(f"{cls.__name__} has {len(setters)} fields, not {len(values)}")
    instance: T = _new(cls)
    # By index, having checked the lengths: mypyc compiles `zip(..., strict=True)` as a
    # generic call, which doubles the cost of this loop.
    for index, setter in enumerate(setters):
        setter(instance, values[index])
    return instance


def _slot_setters(cls: type) -> tuple[Setter, ...]:
    """The `__set__` of each field's slot of `cls`, once its `__init__` is known to do no more."""
    if not (attrs.has(cls) and "__slots__" in vars(cls)):
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    extras = ("__attrs_pre_init__", "__attrs_post_init__", "_attrs_cached_hash")
    if any(hasattr(cls, extra) for extra in extras):
        raise TypeError(f"the __init__ of {cls.__name__} does more than set its fields")
    setters: list[Setter] = []
    for field in attrs.fields(cls):
        if field.validator is not None or field.converter is not None or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name} is more than a plain field")
        setters.append(_slot_of(cls, field.name).__set__)
    return tuple(setters)


def _slot_of(cls: type, name: str) -> types.MemberDescriptorType:
    # The member descriptor of a slot is in the `__dict__` of the class that declares it.
    for klass in cls.__mro__:
        slot = vars(klass).get(name)
        if isinstance(slot, types.MemberDescriptorType):
            return slot
    raise TypeError(f"{cls.__name__} has no slot {name}")


def _has_keyword_only_fields(cls: type) -> bool:
    return attrs.has(cls) and any(field.kw_only for field in attrs.fields(cls))
