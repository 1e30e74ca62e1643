"""What a rule finds, and the violation the runner makes of it."""

from __future__ import annotations

import types
from typing import Protocol

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.findings import Finding
from campaign_rules._core.pointers import pointer_of_path

__all__ = ["Finding", "TextPlaces", "Violation"]


class TextPlaces(Protocol):
    """Where the violations of one refused text are: found when first asked (D-positions)."""

    def place(self, rule: str, pointer: str) -> tuple[int, int] | None:
        """The line and column of the violation of `rule` at `pointer`, or `None`."""


class _Unplaced:
    """A violation's text, kept until its place is first read: a base holding one slot.

    Not an attrs field, so that equality, hashing, `repr`, `attrs.asdict` and pickling see only
    the public fields, which read the place through `_FoundWhenRead`.
    """

    __slots__ = ("_places",)


@attrs.frozen
class Violation(_Unplaced):
    """One broken rule: the error key, the field path, a short message, the rule id, the place.

    `field` is a dotted path of JSON member names with array items by index
    (`scheduling.mon.startTime`, `cycles.filter_tags[2]`), or `None` for the payload as a
    whole. `message` names the field and the constraint and never repeats the input value.

    `pointer` names the same member as an RFC 6901 JSON Pointer (`/cycles/filter_tags/2`, `""`
    for the body as a whole), unambiguous where a member name holds `.` or `[`; by default
    it is made from `field`. `line` and `column` (both from 1; the column counts characters,
    each code point one) place it in the text it was read from, when it was read from text
    (`validate_create_json`, `validate_update_json`): the start of the member's value, or for
    an absent member the opening brace of its object; `None` otherwise. None of the three is
    in the error envelope. A violation of a text finds its line and column there when either
    is first read (or it is compared, hashed, printed or pickled): a server that only answers
    with the envelope never pays for them (D-positions).
    """

    key: ErrorKey
    field: str | None
    message: str
    rule: str
    pointer: str = attrs.field(
        kw_only=True, default=attrs.Factory(lambda self: _pointer_of(self.field), takes_self=True)
    )
    line: int | None = attrs.field(default=None, kw_only=True)
    column: int | None = attrs.field(default=None, kw_only=True)


def _pointer_of(field: object) -> str:
    # The constructor checks no type (attrs, as the other fields): a field that is not a path
    # gives the body's pointer rather than an error.
    return pointer_of_path(field) if isinstance(field, str) else ""


class _FoundWhenRead:
    """The `line` or `column` slot of a `Violation`, found in its text when first read.

    Replaces the slot's own descriptor on the class (attrs made it), so that everything that
    reads the field (attrs' `__eq__`, `__hash__`, `__repr__`, `asdict`, `__getstate__`) reads it
    found. A slot never set (the runner sets only the fields it knows, D-positions) is `None`.
    """

    __slots__ = ("member",)

    def __init__(self, member: types.MemberDescriptorType) -> None:
        self.member = member

    def __get__(self, instance: object, owner: type | None = None) -> object:
        if instance is None:
            return self
        try:
            places: TextPlaces | None = _PLACES.__get__(instance)
        except AttributeError:  # never placed in a text
            places = None
        if places is not None:
            _find_place(instance, places)  # type: ignore[arg-type]
        try:
            return self.member.__get__(instance, owner)
        except AttributeError:
            return None

    def __set__(self, instance: object, value: object) -> None:
        self.member.__set__(instance, value)


_PLACES: types.MemberDescriptorType = vars(_Unplaced)["_places"]
_LINE: types.MemberDescriptorType = vars(Violation)["line"]
_COLUMN: types.MemberDescriptorType = vars(Violation)["column"]


def _find_place(violation: Violation, places: TextPlaces) -> None:
    # Found once: the text is let go after. Two threads may both find it, and set the same.
    where = places.place(violation.rule, violation.pointer)
    if where is not None:
        _LINE.__set__(violation, where[0])
        _COLUMN.__set__(violation, where[1])
    _PLACES.__set__(violation, None)


Violation.line = _FoundWhenRead(_LINE)  # type: ignore[assignment]
Violation.column = _FoundWhenRead(_COLUMN)  # type: ignore[assignment]
