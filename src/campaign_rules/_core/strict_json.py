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
# A text with at most this many opening brackets nests no deeper than either decoder's
# recursion allows; one with more is first walked by `scan_text`, which stops past the limit.
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
    openings = data.count(b"[") + data.count(b"{")
    if decode is not None and openings <= _DECODER_MAX_OPENINGS:
        try:
            value = decode(data)
        except Exception:
            pass
        else:
            # msgspec refuses escaped lone surrogates, numbers past a double, NaN and bytes
            # that are not UTF-8: left to check are repeated names, depth and long integers.
            colons_escaped = b"\\u003a" in data or b"\\u003A" in data
            if not _suspect(value, data.count(b":"), colons_escaped, strings=False):
                _accept(reading, value)
                return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        reading.not_utf8 = True
        reading.stop = _byte_place(data, error.start)
        return
    reading.text = text
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
    openings = text.count("[") + text.count("{")
    # A `str` may hold surrogate code points themselves, which no UTF-8 text can.
    surrogates = not text.isascii() and SURROGATE_CHARACTER.search(text) is not None
    decode = fast_decoder()
    if decode is not None and openings <= _DECODER_MAX_OPENINGS and not surrogates:
        try:
            value = decode(text)
        except Exception:
            pass
        else:
            colons_escaped = "\\u003a" in text or "\\u003A" in text
            if not _suspect(value, text.count(":"), colons_escaped, strings=False):
                _accept(reading, value)
                return
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
    colons_escaped = "\\u003a" in text or "\\u003A" in text
    # `json` decodes an escaped lone surrogate to a surrogate code point: looked for when the
    # text has an escape.
    strings = surrogates_possible or "\\u" in text
    if _suspect(value, text.count(":"), colons_escaped, strings=strings):
        scan = scan_text(text, _EMPTY, BODY_MAX_DEPTH)
        if scan.problems:
            reading.problems = scan.problems
            return
    _accept(reading, value)


def _accept(reading: BodyReading, value: object) -> None:
    reading.value = value
    reading.refused = False


def _suspect(value: object, colons: int, colons_escaped: bool, strings: bool) -> bool:
    """Whether the text of the decoded `value` may hold what I-JSON refuses; `False` is sure.

    `colons` is the number of `:` in the text: one per member, and one per colon in its
    strings. A text with no escaped colon (`colons_escaped`) decodes each colon of a string
    from one of its own, so its members number `colons` less the colons of the decoded strings
    at least: when the decoded objects hold that many members, no name was repeated (a repeat
    leaves a member out, and with it any colon of its strings). Also suspect: containers nested
    deeper than `BODY_MAX_DEPTH`, an integer or float no double holds, and, when `strings`,
    a string holding a surrogate code point.
    """
    if colons_escaped:
        return True
    members = 0
    string_colons = 0
    pending: list[object] = [value]
    depths: list[int] = [1]  # the depth of each pending value: the body's is 1
    while pending:
        current = pending.pop()
        depth = depths.pop()
        cls = type(current)
        if cls is str:
            text = cast("str", current)
            if ":" in text:
                string_colons += text.count(":")
            if strings and has_surrogate(text):
                return True
        elif cls is dict:
            if depth > BODY_MAX_DEPTH:
                return True
            members_of = cast("dict[str, object]", current)
            members += len(members_of)
            for name, item in members_of.items():
                if ":" in name:
                    string_colons += name.count(":")
                if strings and has_surrogate(name):
                    return True
                pending.append(item)
                depths.append(depth + 1)
        elif cls is list:
            if depth > BODY_MAX_DEPTH:
                return True
            for item in cast("list[object]", current):
                pending.append(item)
                depths.append(depth + 1)
        elif cls is int:
            number = cast("int", current)
            if number.bit_length() > _DOUBLE_SAFE_INTEGER_BITS and _overflows(number):
                return True
        elif cls is float and not math.isfinite(cast("float", current)):
            return True
    return members + string_colons != colons


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
