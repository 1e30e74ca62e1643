"""Reading decoded JSON without trusting it.

A payload is whatever the caller's JSON decoder (or the caller) produced. These readers look
at a value's exact type and read it through the built-in types' own methods, so no method a
subclass overrides (`__eq__`, `__hash__`, `__len__`, `__iter__`, `__getitem__`, `__str__`)
ever runs, and nothing here raises. Each reader answers with a plain built-in value, or with
`None` when the value is not of the JSON type asked for.

The readers used on members that may be absent answer `None` (what `dict.get` gives for an
absent member) before testing for a subclass: compiled, `issubclass` is a generic call through
the builtins module, most of a reader's time on `None`.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from typing import Final, NoReturn

from campaign_rules._core.display import bounded_path, shown_name
from campaign_rules._core.json_syntax import TOO_DEEP, long_integer_reason, syntax_reason
from campaign_rules._core.limits import JSON_INTEGERS, OBJECT_MAX_MEMBERS

__all__ = [
    "ONE_TEXT_CLASSES",
    "PLAIN_CLASSES",
    "NotJson",
    "array_length",
    "as_boolean",
    "as_integer",
    "as_string",
    "as_string_head",
    "decode_json",
    "decode_json_stdlib",
    "fast_decoder",
    "integer_or_infinity",
    "is_object",
    "is_oversized_object",
    "item_path",
    "json_type",
    "member_path",
    "plain_json_copy",
    "plain_json_problem",
    "read_list",
    "read_object",
]


# The built-in class whose exact instances are of each JSON type. Compared by identity only
# (`type(value) is PLAIN_CLASSES["string"]`), which runs no code of the value or its class.
PLAIN_CLASSES: Final[dict[str, type]] = {
    "string": str,
    "integer": int,
    "boolean": bool,
    "array": list,
    "object": dict,
    "null": type(None),
}


# The classes whose instances are one text, and yet iterable: a character or a byte value at a
# time. Where an iterable of items is asked for, one of these is a mistake (D-one-text).
ONE_TEXT_CLASSES: Final = (str, bytes, bytearray, memoryview)


def json_type(value: object) -> str:
    """Name the JSON type of `value`, or "unsupported" for a Python value JSON cannot hold.

    An integral float such as `1.0` is an "integer", as in JSON Schema (D-integral-floats).
    """
    cls = type(value)
    # `issubclass` on the exact type object runs no code of the value's own.
    if cls is bool:
        return "boolean"
    if cls is str or issubclass(cls, str):
        return "string"
    if cls is int or issubclass(cls, int):
        return "integer"
    if cls is float or issubclass(cls, float):
        return "integer" if _is_integral(float.__float__(value)) else "number"  # type: ignore[arg-type]
    if value is None:
        return "null"
    if cls is list or issubclass(cls, list):
        return "array"
    if cls is dict or issubclass(cls, dict):
        return "object"
    return "unsupported"


def _is_integral(number: float) -> bool:
    return math.isfinite(number) and number.is_integer()


def as_string(value: object) -> str | None:
    """The value as a plain `str` when it is a JSON string, else `None`."""
    cls = type(value)
    if cls is str:
        return value  # type: ignore[return-value]
    if value is not None and issubclass(cls, str):
        # str.__str__ of a subclass instance copies the characters; no override runs.
        return str.__str__(value)
    return None


def as_string_head(value: object, length: int) -> str | None:
    """The value as a plain `str` when it is a JSON string, cut after `length` characters.

    For a member whose rules refuse every text longer than `length - 1`: they answer the cut
    text as they answer the whole, and a huge `str` subclass is copied only that far
    (D-hostile-input). An exact `str` is given back whole, as `as_string` gives it.
    """
    cls = type(value)
    if cls is str:
        return value  # type: ignore[return-value]
    if value is not None and issubclass(cls, str):
        # str.__getitem__ of a subclass instance copies the characters; no override runs.
        return str.__getitem__(value, slice(0, length))  # type: ignore[index]
    return None


def as_integer(value: object) -> int | None:
    """The value as a plain `int` when it is a JSON integer, else `None`.

    `True` and `False` are booleans, not integers. An integral float (`3.0`) is the integer 3
    (D-integral-floats); `3.5`, `NaN` and the infinities are not integers.
    """
    cls = type(value)
    if cls is int:
        return value  # type: ignore[return-value]
    if cls is bool or value is None:
        return None
    if issubclass(cls, int):
        return int.__int__(value)  # type: ignore[arg-type]
    if cls is float or issubclass(cls, float):
        number = float.__float__(value)  # type: ignore[arg-type]
        return int(number) if _is_integral(number) else None
    return None


def as_boolean(value: object) -> bool | None:
    """The value when it is `True` or `False`, else `None`."""
    return value if type(value) is bool else None


def array_length(value: object) -> int | None:
    """The number of items of a JSON array, counted without reading them; else `None`."""
    cls = type(value)
    if cls is list:  # the common case first: compiled, `len` of a `list` reads its size
        return len(value)  # type: ignore[arg-type]
    if value is None or not issubclass(cls, list):
        return None
    return list.__len__(value)  # type: ignore[arg-type]


def read_list(value: object) -> list[object] | None:
    """The value as a plain `list` when it is a JSON array, else `None`."""
    cls = type(value)
    if cls is list:
        return value  # type: ignore[return-value]
    if value is not None and issubclass(cls, list):
        return list.copy(value)  # type: ignore[arg-type]
    return None


def is_object(value: object) -> bool:
    """Whether `value` is a JSON object (a `dict`, however large)."""
    cls = type(value)
    return cls is dict or (value is not None and issubclass(cls, dict))


def is_oversized_object(value: object) -> bool:
    """Whether `value` is a JSON object with more members than any campaign object holds."""
    return issubclass(type(value), dict) and dict.__len__(value) > OBJECT_MAX_MEMBERS  # type: ignore[arg-type]


def read_object(value: object) -> dict[str, object] | None:
    """The value's string-named members as a plain `dict`, when it is a readable JSON object.

    `None` when the value is not an object, or is an object too large to read
    (D-hostile-input). Members whose names are not strings are left out: the
    `payload.known_members_only` rule reports them.
    """
    cls = type(value)
    if cls is dict:  # the common case, without `is_oversized_object`'s test for subclasses
        if len(value) > OBJECT_MAX_MEMBERS:  # type: ignore[arg-type]
            return None
        if _names_are_plain_strings(value):  # type: ignore[arg-type]
            return value  # type: ignore[return-value]
    elif value is None or not issubclass(cls, dict) or is_oversized_object(value):
        return None
    items: Iterable[tuple[object, object]] = dict.items(value)  # type: ignore[arg-type]
    return {str.__str__(name): member for name, member in items if issubclass(type(name), str)}


def _names_are_plain_strings(value: dict[object, object]) -> bool:
    # By identity only: no `==` and no hash, so no code of a hostile key or of its class runs.
    # (A loop rather than `all()` over a generator, which costs more on small objects.)
    for name in value:  # noqa: SIM110
        if type(name) is not str:
            return False
    return True


def member_path(parent: str | None, name: str) -> str:
    """The field path of member `name` of the object at `parent` (`None`: the payload).

    The name is shown as `_core.display.shown_name` shows it (cut after 64 characters, no
    control character, a lone surrogate as U+FFFD: the path, which the error envelope carries,
    is always UTF-8 text, D-lone-surrogates), and the path is bounded (`bounded_path`); the
    violation's pointer holds the name exactly (D-shown-text).
    """
    shown = shown_name(name)
    return shown if parent is None else bounded_path(f"{parent}.{shown}")


def item_path(parent: str, index: int) -> str:
    """The field path of item `index` of the array at `parent`, bounded as `member_path`'s."""
    return bounded_path(f"{parent}[{index}]")


def plain_json_problem(value: object, *, max_depth: int, max_values: int) -> str | None:
    """Why `value` is not plain JSON within the caps, or `None` when it is.

    Plain JSON: objects with string member names, arrays, strings, finite numbers (an `int`
    within `JSON_INTEGERS`, D-json-integers), booleans and null, at most `max_depth` levels of
    containers and `max_values` values in all. The walk keeps its own stack, so depth costs no
    recursion, and stops at the first problem; a value that contains itself is stopped by
    either cap.
    """
    pending: list[tuple[object, int]] = [(value, 0)]
    seen = 0
    while pending:
        current, depth = pending.pop()
        seen += 1
        if seen > max_values:
            return f"holds more than {max_values} values"
        kind = json_type(current)
        if kind == "unsupported":
            return "holds a value JSON cannot hold"
        if kind == "number" and not math.isfinite(float.__float__(current)):  # type: ignore[arg-type]
            return "holds a number JSON cannot hold"
        # D-json-integers: an `int` goes back out as one; an integral float stays a float.
        if (
            kind == "integer"
            and issubclass(type(current), int)
            and int.__int__(current) not in JSON_INTEGERS  # type: ignore[arg-type]
        ):
            return f"holds an integer outside ±{JSON_INTEGERS.high}"
        if kind not in ("object", "array"):
            continue
        if depth == max_depth:
            return f"is nested more than {max_depth} levels deep"
        # The size is taken before the items, so a huge container is refused unread.
        size = list.__len__(current) if kind == "array" else dict.__len__(current)  # type: ignore[arg-type]
        if seen + len(pending) + size > max_values:
            return f"holds more than {max_values} values"
        if kind == "array":
            children: Iterable[object] = list.__iter__(current)  # type: ignore[arg-type]
        else:
            members: Iterable[tuple[object, object]] = dict.items(current)  # type: ignore[arg-type]
            if not all(issubclass(type(name), str) for name, _ in members):
                return "has members whose names are not strings"
            children = dict.values(current)  # type: ignore[arg-type]
        pending.extend((child, depth + 1) for child in children)
    return None


def plain_json_copy(value: object) -> object:
    """A copy of plain JSON made of built-in values only: no subclass, nothing shared.

    Only for a value `plain_json_problem` has passed, whose depth is capped, so the recursion
    is as shallow as that cap. Subclass instances become their base type's plain value, read
    through the base type's own methods.
    """
    kind = json_type(value)
    if kind == "object":
        members: Iterable[tuple[str, object]] = dict.items(value)  # type: ignore[arg-type]
        return {str.__str__(name): plain_json_copy(member) for name, member in members}
    if kind == "array":
        items: Iterable[object] = list.__iter__(value)  # type: ignore[arg-type]
        return [plain_json_copy(item) for item in items]
    if kind == "string":
        return as_string(value)
    if type(value) is bool or value is None:
        return value
    if issubclass(type(value), int):
        return int.__int__(value)  # type: ignore[arg-type]
    return float.__float__(value)  # type: ignore[arg-type]


class NotJson(ValueError):
    """Why a text is not one JSON value: `where` is its position, when the decoder gave one."""

    def __init__(self, reason: str, where: tuple[int, int] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where  # (line, column), both from 1


# D-audit-fast-decoder: where msgspec is installed (the `fast` extra), a text is decoded with
# its JSON decoder, and with `json` whenever msgspec refuses it or might read it otherwise.
_FAST_DECODER_MODULE: Final = "msgspec.json"
# A text with more opening brackets than this may be nested deeper than either decoder's
# recursion allows, where the two may give up at different depths: it is left to `json`.
_FAST_MAX_OPENINGS: Final = 500
# The fast decoder once looked for: empty until then, then `[decode]` or `[None]`.
_fast_decoder: list[Callable[[str | bytes], object] | None] = []


def _load_fast_decoder() -> Callable[[str | bytes], object] | None:
    """The decode function of msgspec's JSON decoder, or `None` when msgspec is not installed."""
    try:
        module = importlib.import_module(_FAST_DECODER_MODULE)
    except ImportError:
        return None
    decode: Callable[[str | bytes], object] = module.Decoder().decode
    return decode


def fast_decoder() -> Callable[[str | bytes], object] | None:
    """Msgspec's JSON decode function where the `fast` extra is installed, else `None`."""
    if not _fast_decoder:
        _fast_decoder.append(_load_fast_decoder())
    return _fast_decoder[0]


def _fast_decoder_for(text: str | bytes) -> Callable[[str | bytes], object] | None:
    """The fast decoder, when it is installed and `text` is not nested too deeply for it."""
    decode = fast_decoder()
    # A text nested d deep holds d opening brackets and as many closing ones; in UTF-8 no byte
    # of a character past ASCII is a bracket, so a line's bytes hold as many as its text.
    if decode is not None and (
        len(text) <= 2 * _FAST_MAX_OPENINGS
        or (
            text.count("[") + text.count("{")
            if isinstance(text, str)
            else text.count(b"[") + text.count(b"{")
        )
        <= _FAST_MAX_OPENINGS
    ):
        return decode
    return None


def decode_json(text: str) -> object:
    """The JSON value of `text` (RFC 8259), or `NotJson` saying why there is none.

    Python's `json` module reads `NaN` and `Infinity`, which JSON has not: they are refused.
    An integer of more digits than `int` converts (placed at the integer, unless the text is no
    JSON at all), nesting too deep for the decoder, and a text that starts with a byte order
    mark are refused too (the command line reads a response body with it). A syntax error's
    reason is a sentence of the library's own (`_core.json_syntax`), placed where `json` found
    it.

    With msgspec installed its decoder reads the text first, and its value is the answer; when
    it refuses the text, or the text may be nested too deeply to tell, `decode_json_stdlib`
    decides, so the value, or the reason there is none, is always the one `json` leads to
    (D-audit-fast-decoder).
    """
    decode = _fast_decoder_for(text)
    if decode is not None:
        # msgspec refuses what `json` refuses (and more: NaN, Infinity, numbers that overflow a
        # float, escaped lone surrogates, which `json` reads); it reads integers of any length,
        # as `json` does up to its limit of digits, and refuses beyond it.
        try:
            return decode(text)
        except Exception:  # whatever it refuses, and why, is `json`'s to say
            pass
    return decode_json_stdlib(text)


def decode_json_stdlib(text: str) -> object:
    """`decode_json` with Python's `json` module only, whatever is installed."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise _syntax_error(text, error) from None
    except _Constant as error:
        raise NotJson(str(error)) from None
    except ValueError:  # an integer of more digits than `int` converts
        pass
    except RecursionError:
        raise NotJson(TOO_DEEP) from None
    # Read again with such an integer as an infinity, to tell whether the text is JSON at all
    # (a syntax error anywhere is the answer, as it is for `1e400`), and a constant after it.
    try:
        json.loads(text, parse_constant=_refuse_constant, parse_int=integer_or_infinity)
    except json.JSONDecodeError as error:
        raise _syntax_error(text, error) from None
    except _Constant as error:
        raise NotJson(str(error)) from None
    except RecursionError:
        raise NotJson(TOO_DEEP) from None
    raise NotJson(long_integer_reason(), _long_integer_place(text))


def _syntax_error(text: str, error: json.JSONDecodeError) -> NotJson:
    if text.startswith(_BYTE_ORDER_MARK):  # the module's hint, utf-8-sig, is no JSON
        return NotJson("it starts with a UTF-8 byte order mark", (1, 1))
    return NotJson(syntax_reason(text, error.msg, error.pos), (error.lineno, error.colno))


def integer_or_infinity(digits: str) -> int | float:
    """The integer written `digits`, or, past the digits `int` converts, the double it rounds to.

    A `parse_int` for `json.loads`: that double is an infinity (`long_integer_reason`), as
    `json` reads `1e400`.
    """
    try:
        return int(digits)
    except ValueError:
        return float(digits)


# The tokens of a JSON text that may hold digits: its strings, read whole, and its numbers.
_DIGIT_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?')


def _long_integer_place(text: str) -> tuple[int, int] | None:
    """The line and column of the first integer of more digits than `int` converts.

    Only for a text that `json` reads up to that integer: every token before it is JSON, so
    walking its strings and numbers finds it, and no digits inside a string.
    """
    limit = sys.get_int_max_str_digits()
    for token in _DIGIT_TOKENS.finditer(text):
        start, end = token.span()
        is_integer = text[start] != '"' and token.group(1) is None and token.group(2) is None
        if is_integer and end - start - (text[start] == "-") > limit:
            line_start = text.rfind("\n", 0, start) + 1
            return text.count("\n", 0, start) + 1, start - line_start + 1
    return None


# JSON text has none (RFC 8259 section 8.1); a decoder may ignore one, this library refuses it
# (D-byte-order-mark).
_BYTE_ORDER_MARK: Final = "\ufeff"


class _Constant(ValueError):
    """`NaN`, `Infinity` or `-Infinity`, which Python's `json` reads and JSON has not."""


def _refuse_constant(name: str) -> NoReturn:
    raise _Constant(f"{name} is not a JSON value")
