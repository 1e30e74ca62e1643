"""Reading a request body as I-JSON (RFC 7493): its value, or every reason there is none.

`read_body` takes the body as received (`bytes`, `bytearray`, `memoryview` or `str`) and gives
a `BodyReading`: the decoded value, or what refuses the text (D-body-limits): not bytes or
text at all, over the size limit, a byte order mark, not UTF-8, not JSON, nested too deeply,
a member name repeated in its object, a lone surrogate, a number no IEEE double holds.

The value is decoded once, by msgspec's decoder where the `fast` extra is installed and by
`json` otherwise (D-audit-fast-decoder); neither says whether a name repeated (both keep the
last value), and `json` reads lone surrogates and numbers past a double. A walk of the value
then tests, cheaply, a condition every text free of those holds (`_suspect`); only a text that
fails it is walked token by token (`_core.json_text.scan_text`), which says exactly what is
wrong and where. A valid body pays for the decoder and the walk only.
"""

from __future__ import annotations

import json
import math
from typing import Final, cast

from campaign_rules._core.json import fast_decoder, integer_or_infinity
from campaign_rules._core.json_syntax import TOO_DEEP, syntax_reason
from campaign_rules._core.json_text import DEPTH, TextProblem, scan_text
from campaign_rules._core.limits import BODY_MAX_BYTES, BODY_MAX_DEPTH, VIOLATIONS_MAX
from campaign_rules._core.unicode import has_surrogate

__all__ = ["NOT_ACCEPTED", "BodyReading", "accepted_value", "read_body"]

_EMPTY: Final[frozenset[str]] = frozenset()
# What `accepted_value` gives for a body it does not accept: no JSON value is this object.
NOT_ACCEPTED: Final = object()
# Byte order marks: UTF-8's, and UTF-16's (UTF-32's little-endian one starts as UTF-16's).
_MARKS: Final = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
_TEXT_MARK: Final = "\ufeff"
# A byte looked for in bytes by its value: `in` with a bytes pattern first tries to read the
# pattern as an integer, and makes and drops an exception, which costs more than the search.
_BACKSLASH: Final = ord("\\")
# An integer of more bits than this may round to an infinity as a double (2**1024 - 2**970
# and up do): it is then converted to tell.
_DOUBLE_SAFE_INTEGER_BITS: Final = 1023


class BodyReading:
    """What reading a body as I-JSON found: `value`, or the reasons it has none.

    `value` is the decoded body (`None` also when refused: `refused` tells). The reasons, each
    read by its rule of `BODY_RULES`: `not_text`, the type's name of data that is neither bytes
    nor text; `too_large`; `byte_order_mark`; `not_utf8`; `not_json`, why it is no JSON (a
    sentence of `_core.json_syntax`); `problems`, what the text walk found (repeated names,
    lone surrogates, numbers, depth).
    `stop` is the line and column where the text stops being UTF-8 or JSON (1, 1 for a mark).
    """

    __slots__ = (
        "byte_order_mark",
        "data",
        "not_json",
        "not_text",
        "not_utf8",
        "problems",
        "refused",
        "stop",
        "text",
        "too_large",
        "value",
    )

    def __init__(self) -> None:
        self.value: object = None
        self.refused = True
        self.data: bytes | None = None
        self.text: str | None = None
        self.not_text: str | None = None
        self.too_large = False
        self.byte_order_mark = False
        self.not_utf8 = False
        self.not_json: str | None = None
        self.problems: list[TextProblem] = []
        self.stop: tuple[int, int] | None = None

    def full_text(self) -> str | None:
        """The body as text, for placing violations: `None` when it is not UTF-8 text."""
        if self.text is None and self.data is not None and not self.not_utf8:
            try:
                self.text = self.data.decode("utf-8")
            except UnicodeDecodeError:  # refused before it was decoded (a UTF-16 mark)
                return None
        return self.text


def read_body(data: object) -> BodyReading:
    """Read `data` as I-JSON; never raises."""
    reading = BodyReading()
    cls = type(data)
    if cls is bytes:
        reading.data = data  # type: ignore[assignment]
    elif cls is str:
        reading.text = data  # type: ignore[assignment]
    elif isinstance(data, (bytes, bytearray, memoryview)):
        try:
            reading.data = bytes(data)
        except (ValueError, TypeError, BufferError):  # a released view
            reading.not_text = "a released memoryview"
            return reading
    elif isinstance(data, str):
        reading.text = str.__str__(data)
    else:
        reading.not_text = cls.__name__
        return reading
    if reading.data is not None:
        _read_bytes(reading, reading.data)
    else:
        _read_text(reading, reading.text)  # type: ignore[arg-type]
    return reading


def _read_bytes(reading: BodyReading, data: bytes) -> None:
    if len(data) > BODY_MAX_BYTES:
        reading.too_large = True
        return
    value = accepted_value(data)
    if value is not NOT_ACCEPTED:
        _accept(reading, value)
        return
    if data.startswith(_MARKS):
        reading.byte_order_mark = True
        reading.stop = (1, 1)
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        reading.not_utf8 = True
        reading.stop = _byte_place(data, error.start)
        return
    reading.text = text
    _read_decoded_text(reading, text, data, surrogates_possible=False)


def accepted_value(data: bytes) -> object:
    """The value of body `data` where msgspec reads it and it is surely I-JSON, or NOT_ACCEPTED.

    `read_body` accepts such a body with this value, and tells why for any other. For a reader
    of many bodies, such as the audit: no `BodyReading` is made for a body accepted here, which
    is most of them (compiled, making and dropping one costs several hundred instructions).
    """
    decode = fast_decoder()
    if decode is None or len(data) > BODY_MAX_BYTES:
        return NOT_ACCEPTED
    # msgspec gives up past its own depth (a `RecursionError`), refused like any text it
    # refuses: `json` and `scan_text` then tell why.
    try:
        value = decode(data)
    except Exception:
        return NOT_ACCEPTED
    # msgspec refuses escaped lone surrogates, numbers past a double, NaN and bytes that are
    # not UTF-8: left to check are repeated names, depth and long integers. It refuses a byte
    # order mark too (no JSON text starts with a byte past ASCII): `read_body` looks for one
    # only in bytes refused here, as `startswith` with a tuple is a generic call compiled, a
    # thousand instructions a line.
    if _suspect(value, data, surrogates=False):
        return NOT_ACCEPTED
    return value


def _read_text(reading: BodyReading, text: str) -> None:
    size = len(text)
    if size > BODY_MAX_BYTES or (
        size * 4 > BODY_MAX_BYTES and len(text.encode("utf-8", "surrogatepass")) > BODY_MAX_BYTES
    ):
        reading.too_large = True
        return
    if text.startswith(_TEXT_MARK):
        reading.byte_order_mark = True
        reading.stop = (1, 1)
        return
    # A `str` may hold surrogate code points themselves, which no UTF-8 text can.
    surrogates = has_surrogate(text)
    decode = fast_decoder()
    if decode is not None and not surrogates:  # msgspec refuses them in a `str`
        try:
            value = decode(text)
        except Exception:
            pass
        else:
            if not _suspect(value, text, surrogates=False):
                _accept(reading, value)
                return
    _read_decoded_text(reading, text, text, surrogates)


def _read_decoded_text(
    reading: BodyReading, text: str, source: bytes | str, surrogates_possible: bool
) -> None:
    """Read `text` (`source` as received: its bytes, or itself) with `json`, then make sure.

    The text is read up to the first syntax error or the first container nested past
    `BODY_MAX_DEPTH`, whichever comes first, and what follows is not read (D-body-limits):
    whether `json` gives up on a syntax error, or on its recursion limit, past that container.
    """
    try:
        value = _loads(text)
    except json.JSONDecodeError as error:
        if not _stopped_by_depth(reading, text, error.pos):
            reading.not_json = syntax_reason(text, error.msg, error.pos)
            reading.stop = (error.lineno, error.colno)
        return
    except RecursionError:
        # Nested past `json`'s recursion, so past BODY_MAX_DEPTH, unless the caller's own stack
        # was already deep.
        if not _stopped_by_depth(reading, text, len(text)):
            reading.not_json = TOO_DEEP
        return
    # `json` decodes an escaped lone surrogate to a surrogate code point: looked for when the
    # text has an escape.
    surrogates = surrogates_possible or (_has_backslash(source) and "\\u" in text)
    if _suspect(value, source, surrogates=surrogates):
        scan = scan_text(text, _EMPTY, BODY_MAX_DEPTH)
        if scan.problems:
            reading.problems = scan.problems
            return
    _accept(reading, value)


def _loads(text: str) -> object:
    """`json.loads(text)`, with an integer of more digits than `int` converts as an infinity.

    Such an integer is no double (`long_integer_reason`): read as the infinity it rounds to,
    as `json` reads `1e400`, it is found by `_suspect` and reported where it is.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # `int` refused the digits: no other `ValueError` comes from `json`
        return json.loads(text, parse_int=integer_or_infinity)


def _stopped_by_depth(reading: BodyReading, text: str, stop: int) -> bool:
    """Whether a container nested past `BODY_MAX_DEPTH` opens before offset `stop` of `text`.

    When one does, the reading stops there: its problems are those `scan_text` finds up to it,
    that container the last. Opening brackets are counted first: a text with no more of them
    than the limit before `stop` cannot be nested that deep there, and is not walked.
    """
    if text.count("[", 0, stop) + text.count("{", 0, stop) <= BODY_MAX_DEPTH:
        return False
    scan = scan_text(text, _EMPTY, BODY_MAX_DEPTH)
    problems = scan.problems
    if not problems or problems[-1].offset >= stop:
        return False
    # A walk cut at the cap (D-hostile-input) stopped before the deep container, if any: its
    # problems all come before `stop`, so they are the first a result reports, as for a body
    # that is JSON.
    if problems[-1].kind != DEPTH and len(problems) < VIOLATIONS_MAX:
        return False
    reading.problems = problems
    return True


def _accept(reading: BodyReading, value: object) -> None:
    reading.value = value
    reading.refused = False


def _suspect(value: object, source: bytes | str, surrogates: bool) -> bool:
    r"""Whether the text `source`, whose decoded value is `value`, may hold what I-JSON refuses.

    `False` is sure; `True` sends the text to `scan_text`, which tells. Suspect: containers
    nested deeper than `BODY_MAX_DEPTH`, an integer or float no double holds, when
    `surrogates` a string or name holding a surrogate code point, and a text whose member
    names the decoded objects do not all hold, as when a name repeats: its quotes then
    outnumber theirs. Each string of a text, a member name included, is written between two
    quotes, and a quote inside it as `\"` (`\u0022`, which hides one, is suspect): so the
    decoded value holds every member exactly when its strings, each counted as two quotes and
    the quotes within, number the text's quotes. A text with no backslash has no quote within
    a string, and its strings are counted without being read. Counting the quotes is one pass
    in C over a single byte.
    """
    if isinstance(source, bytes):
        escapes = _BACKSLASH in source
        if escapes and b"\\u0022" in source:
            return True
        quotes = source.count(b'"')
    else:
        escapes = "\\" in source
        if escapes and "\\u0022" in source:
            return True
        quotes = source.count('"')
    # Most bodies have no escape: every string is two quotes, and none is read.
    plain = not escapes and not surrogates
    counted = _plain_quotes(value) if plain else _quotes(value, escapes, surrogates)
    return counted < 0 or counted != quotes


def _has_backslash(source: bytes | str) -> bool:
    """Whether the text `source` holds a backslash, with which JSON escapes a character."""
    if isinstance(source, bytes):
        return _BACKSLASH in source
    return "\\" in source


def _plain_quotes(value: object) -> int:
    """`_quotes(value, False, False)`, for a text with no escape and no surrogate.

    The items of a container are told apart by their class, with no call for a string, a
    boolean or null, most of a body's values: a string is two quotes, unread. An object and an
    array are each read by a function of their own, whose loop compiled is a native loop over
    the `dict` or the `list`, not a generic iterator, and which a child of that type is passed
    to as it is, with no class to tell again.
    """
    cls = type(value)
    if cls is dict:
        return _plain_object_quotes(value, 1)  # type: ignore[arg-type]
    if cls is list:
        return _plain_array_quotes(value, 1)  # type: ignore[arg-type]
    return _leaf_quotes(value, cls, False, False)


def _plain_object_quotes(members: dict[str, object], depth: int) -> int:
    """`_plain_quotes` of an object at `depth`: two quotes a name, and those of its values."""
    if depth > BODY_MAX_DEPTH:
        return -1
    total = 2 * len(members)
    for item in members.values():
        kind = type(item)
        if kind is str:
            total += 2
        elif kind is dict:
            found = _plain_object_quotes(item, depth + 1)  # type: ignore[arg-type]
            if found < 0:
                return -1
            total += found
        elif kind is list:
            found = _plain_array_quotes(item, depth + 1)  # type: ignore[arg-type]
            if found < 0:
                return -1
            total += found
        elif kind is not bool and item is not None and not _number_fits(item, kind):
            return -1
    return total


def _plain_array_quotes(items: list[object], depth: int) -> int:
    """`_plain_quotes` of an array at `depth`: those of its items."""
    if depth > BODY_MAX_DEPTH:
        return -1
    total = 0
    for item in items:
        kind = type(item)
        if kind is str:
            total += 2
        elif kind is dict:
            found = _plain_object_quotes(item, depth + 1)  # type: ignore[arg-type]
            if found < 0:
                return -1
            total += found
        elif kind is list:
            found = _plain_array_quotes(item, depth + 1)  # type: ignore[arg-type]
            if found < 0:
                return -1
            total += found
        elif kind is not bool and item is not None and not _number_fits(item, kind):
            return -1
    return total


def _quotes(value: object, within: bool, surrogates: bool, depth: int = 1) -> int:
    """The quotes a text of `value` writes: two a string and a name, and when `within` its own.

    -1 when `value` holds a container nested deeper than `BODY_MAX_DEPTH`, a number no double
    holds, or, when `surrogates`, a string or name holding a surrogate code point. `depth` is
    that of `value`, the body's being 1: the recursion stops past the limit, so it is short.
    """
    cls = type(value)
    if cls is dict:
        if depth > BODY_MAX_DEPTH:
            return -1
        total = 0
        for name, item in cast("dict[str, object]", value).items():
            name_quotes = _leaf_quotes(name, str, within, surrogates)
            item_quotes = _quotes(item, within, surrogates, depth + 1)
            if name_quotes < 0 or item_quotes < 0:
                return -1
            total += name_quotes + item_quotes
        return total
    if cls is list:
        if depth > BODY_MAX_DEPTH:
            return -1
        total = 0
        for item in cast("list[object]", value):
            found = _quotes(item, within, surrogates, depth + 1)
            if found < 0:
                return -1
            total += found
        return total
    return _leaf_quotes(value, cls, within, surrogates)


def _leaf_quotes(value: object, kind: type, within: bool, surrogates: bool) -> int:
    """The quotes a text of a value that is no container writes, or -1 (`_quotes`)."""
    if kind is str:
        text = cast("str", value)
        if surrogates and has_surrogate(text):
            return -1
        if within and '"' in text:
            return 2 + text.count('"')
        return 2
    return 0 if _number_fits(value, kind) else -1


def _number_fits(value: object, kind: type) -> bool:
    """Whether `value`, of class `kind`, is no number, or one a double holds."""
    if kind is int:
        number = cast("int", value)
        return number.bit_length() <= _DOUBLE_SAFE_INTEGER_BITS or not _overflows(number)
    if kind is float:
        return math.isfinite(cast("float", value))
    return True


def _overflows(number: int) -> bool:
    try:
        float(number)
    except OverflowError:
        return True
    return False


def _byte_place(data: bytes, offset: int) -> tuple[int, int]:
    """The line and column of byte `offset` of `data`, valid UTF-8 up to there."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8")) + 1
    return data.count(b"\n", 0, offset) + 1, column
