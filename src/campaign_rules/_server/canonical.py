"""The canonical JSON text that a request's fingerprint hashes (spec 4.1 rule 2, D-fingerprint).

`request_fingerprint` is the SHA-256, in hex, of one canonical JSON text: the array
`[method, path, body]`, with object members sorted by name (code point order), no white space,
strings in ASCII with JSON escapes, and numbers in one spelling each: an integral float is
the integer (`1.0` is `1`, as D-integral-floats reads it), other floats are Python's shortest
round-trip form. Two requests have one fingerprint exactly when they decode to the same JSON
data and go to the same method and path, however the text was spaced or its members ordered.

Values are read by exact type through the built-in types' own methods, as `_core.json` does, so no
method of a subclass runs; nesting, size and integer length are bounded (`_core.limits`), so a
hostile body costs at most one bounded walk and never raises.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable

from campaign_rules._core.json import as_string
from campaign_rules._core.limits import (
    FINGERPRINT_MAX_DEPTH,
    FINGERPRINT_MAX_INTEGER_BITS,
    FINGERPRINT_MAX_VALUES,
)

__all__ = ["canonical_text"]

_encode_string = json.encoder.encode_basestring_ascii


class _NotPlainJson(Exception):
    """Raised inside the walk, and caught by `request_fingerprint`, never beyond it."""


def canonical_text(method: object, path: object, body: object) -> str | None:
    """The canonical JSON of `[method, path, body]`, or `None` when it is not plain JSON."""
    budget = [FINGERPRINT_MAX_VALUES]
    pieces: list[str] = []
    try:
        if as_string(method) is None or as_string(path) is None:
            raise _NotPlainJson
        _write(pieces, [method, path, body], 0, budget)
    except _NotPlainJson:
        return None
    return "".join(pieces)


def _write(pieces: list[str], value: object, depth: int, budget: list[int]) -> None:
    """Append the canonical JSON of `value`, or raise `_NotPlainJson`."""
    budget[0] -= 1
    if budget[0] < 0 or depth > FINGERPRINT_MAX_DEPTH:
        raise _NotPlainJson
    cls = type(value)
    if value is None or cls is bool:
        pieces.append("null" if value is None else "true" if value else "false")
    elif cls is str or issubclass(cls, str):
        pieces.append(_encode_string(str.__str__(value)))
    elif cls is int or issubclass(cls, int):
        pieces.append(_integer(int.__int__(value)))  # type: ignore[arg-type]
    elif cls is float or issubclass(cls, float):
        pieces.append(_float(float.__float__(value)))  # type: ignore[arg-type]
    elif cls is list or issubclass(cls, list):
        # The length is checked before any item is read, and the items are read once.
        if list.__len__(value) > budget[0]:  # type: ignore[arg-type]
            raise _NotPlainJson
        _write_array(pieces, list.copy(value), depth, budget)  # type: ignore[arg-type]
    elif cls is dict or issubclass(cls, dict):
        if dict.__len__(value) > budget[0]:  # type: ignore[arg-type]
            raise _NotPlainJson
        _write_object(pieces, dict.items(value), depth, budget)  # type: ignore[arg-type]
    else:
        raise _NotPlainJson


def _integer(number: int) -> str:
    if number.bit_length() > FINGERPRINT_MAX_INTEGER_BITS:
        raise _NotPlainJson
    return int.__repr__(number)


def _float(number: float) -> str:
    if not math.isfinite(number):
        raise _NotPlainJson
    if number.is_integer():
        return _integer(int(number))  # D-fingerprint: 1.0 is 1, and -0.0 is 0
    return float.__repr__(number)


def _write_array(pieces: list[str], items: list[object], depth: int, budget: list[int]) -> None:
    pieces.append("[")
    for index, item in enumerate(items):
        if index:
            pieces.append(",")
        _write(pieces, item, depth + 1, budget)
    pieces.append("]")


def _write_object(
    pieces: list[str], members: Iterable[tuple[object, object]], depth: int, budget: list[int]
) -> None:
    named: dict[str, object] = {}
    for name, member in members:
        text = as_string(name)
        if text is None or text in named:
            raise _NotPlainJson  # not a string, or a second member of one name
        named[text] = member
    pieces.append("{")
    for index, text in enumerate(sorted(named)):
        if index:
            pieces.append(",")
        pieces.append(_encode_string(text))
        pieces.append(":")
        _write(pieces, named[text], depth + 1, budget)
    pieces.append("}")
