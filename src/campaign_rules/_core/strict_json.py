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

from campaign_rules._core.json import fast_decoder
from campaign_rules._core.json_text import TextProblem, scan_text
from campaign_rules._core.limits import BODY_MAX_BYTES, BODY_MAX_DEPTH
from campaign_rules._core.unicode import SURROGATE_CHARACTER, has_surrogate

__all__ = ["BodyReading", "read_body"]

_EMPTY: Final[frozenset[str]] = frozenset()
# Byte order marks: UTF-8's, and UTF-16's (UTF-32's little-endian one starts as UTF-16's).
_MARKS: Final = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
_TEXT_MARK: Final = "\ufeff"
# A text with at most this many opening brackets nests no deeper than `json`'s recursion
# allows; one with more is first walked by `scan_text`, which stops past the limit.
_DECODER_MAX_OPENINGS: Final = 500
# An integer of more bits than this may round to an infinity as a double (2**1024 - 2**970
# and up do): it is then converted to tell.
_DOUBLE_SAFE_INTEGER_BITS: Final = 1023


class BodyReading:
    """What reading a body as I-JSON found: `value`, or the reasons it has none.

    `value` is the decoded body (`None` also when refused: `refused` tells). The reasons, each
    read by its rule of `BODY_RULES`: `not_text`, the type's name of data that is neither bytes
    nor text; `too_large`; `byte_order_mark`; `not_utf8`; `not_json`, the decoder's reason;
    `problems`, what the text walk found (repeated names, lone surrogates, numbers, depth).
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
    if data.startswith(_MARKS):
        reading.byte_order_mark = True
        reading.stop = (1, 1)
        return
    decode = fast_decoder()
    if decode is not None:
        # msgspec gives up past its own depth (a `RecursionError`), refused like any text it
        # refuses: `json` and `scan_text` then tell why.
        try:
            value = decode(data)
        except Exception:
            pass
        else:
            # msgspec refuses escaped lone surrogates, numbers past a double, NaN and bytes
            # that are not UTF-8: left to check are repeated names, depth and long integers.
            if not _suspect(value, data, strings=False):
                _accept(reading, value)
                return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        reading.not_utf8 = True
        reading.stop = _byte_place(data, error.start)
        return
    reading.text = text
    openings = data.count(b"[") + data.count(b"{")
    _read_decoded_text(reading, text, openings, surrogates_possible=False)


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
    surrogates = not text.isascii() and SURROGATE_CHARACTER.search(text) is not None
    decode = fast_decoder()
    if decode is not None and not surrogates:  # msgspec refuses them in a `str`
        try:
            value = decode(text)
        except Exception:
            pass
        else:
            if not _suspect(value, text, strings=False):
                _accept(reading, value)
                return
    openings = text.count("[") + text.count("{")
    _read_decoded_text(reading, text, openings, surrogates)


def _read_decoded_text(
    reading: BodyReading, text: str, openings: int, surrogates_possible: bool
) -> None:
    """Read `text` with `json`, then make sure of what it does not refuse."""
    if openings > _DECODER_MAX_OPENINGS:
        scan = scan_text(text, _EMPTY, BODY_MAX_DEPTH)
        if scan.problems and scan.problems[-1].kind == "depth":
            reading.problems = [scan.problems[-1]]
            return
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        reading.not_json = error.msg
        reading.stop = (error.lineno, error.colno)
        return
    except (ValueError, RecursionError) as error:  # an integer over 4,300 digits
        reading.not_json = str(error) if isinstance(error, ValueError) else "nested too deeply"
        return
    # `json` decodes an escaped lone surrogate to a surrogate code point: looked for when the
    # text has an escape.
    strings = surrogates_possible or "\\u" in text
    if _suspect(value, text, strings=strings):
        scan = scan_text(text, _EMPTY, BODY_MAX_DEPTH)
        if scan.problems:
            reading.problems = scan.problems
            return
    _accept(reading, value)


def _accept(reading: BodyReading, value: object) -> None:
    reading.value = value
    reading.refused = False


def _suspect(value: object, text: bytes | str, strings: bool) -> bool:
    r"""Whether `text`, whose decoded value is `value`, may hold what I-JSON refuses.

    `False` is sure; `True` sends the text to `scan_text`, which tells. Suspect: containers
    nested deeper than `BODY_MAX_DEPTH`, an integer or float no double holds, when `strings` a
    string or name holding a surrogate code point, and a text whose member names the decoded
    objects do not all hold (a repeated name leaves a member out, and any colon of its
    strings). Its colons are one per member and one per colon of its strings; when it escapes
    no colon (`\u003a`, looked for only past a backslash), each colon of a decoded string is
    one of its own, so the decoded objects hold every member exactly when their members and
    the colons of their strings number the colons of the text. Counting the text's colons is
    one pass in C (a single byte); counting the names in the text instead needs searches of
    several bytes, each slower than the walk.
    """
    if isinstance(text, bytes):
        if b"\\" in text and (b"\\u003a" in text or b"\\u003A" in text):
            return True
        members = _walk(value, True, strings)
        return members < 0 or members != text.count(b":")
    if "\\" in text and ("\\u003a" in text or "\\u003A" in text):
        return True
    members = _walk(value, True, strings)
    return members < 0 or members != text.count(":")


def _walk(value: object, colons: bool, strings: bool) -> int:
    """The members of the objects of `value`, plus, when `colons`, the colons of its strings.

    -1 when it holds a container nested deeper than `BODY_MAX_DEPTH`, a number no double
    holds, or, when `strings`, a string or name holding a surrogate code point. Only
    containers are kept to be walked; the other values are looked at where they are met.
    """
    total = 0
    pending: list[object] = [value]
    depths: list[int] = [1]  # the depth of each pending value: the body's is 1
    while pending:
        current = pending.pop()
        depth = depths.pop()
        cls = type(current)
        if cls is dict:
            if depth > BODY_MAX_DEPTH:
                return -1
            members = cast("dict[str, object]", current)
            total += len(members)
            for name, item in members.items():
                found = _leaf_count(name, str, colons, strings)
                if found < 0:
                    return -1
                total += found
                kind = type(item)
                if kind is dict or kind is list:
                    pending.append(item)
                    depths.append(depth + 1)
                else:
                    found = _leaf_count(item, kind, colons, strings)
                    if found < 0:
                        return -1
                    total += found
        elif cls is list:
            if depth > BODY_MAX_DEPTH:
                return -1
            for item in cast("list[object]", current):
                kind = type(item)
                if kind is dict or kind is list:
                    pending.append(item)
                    depths.append(depth + 1)
                else:
                    found = _leaf_count(item, kind, colons, strings)
                    if found < 0:
                        return -1
                    total += found
        else:  # the body itself is a string, a number or a literal
            found = _leaf_count(current, cls, colons, strings)
            if found < 0:
                return -1
            total += found
    return total


def _leaf_count(value: object, kind: type, colons: bool, strings: bool) -> int:
    """What a value that is no container adds to the walk's count, or -1.

    A string (a member name included) adds its `_text_count`; a number a double holds, or a
    literal, adds nothing; any other number is -1.
    """
    if kind is str:
        if colons or strings:
            return _text_count(cast("str", value), colons, strings)
        return 0
    return 0 if _number_fits(value, kind) else -1


def _text_count(text: str, colons: bool, strings: bool) -> int:
    """The colons of `text` when `colons` (else 0); -1 when `strings` and it holds a surrogate."""
    if strings and has_surrogate(text):
        return -1
    if colons and ":" in text:
        return text.count(":")
    return 0


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
