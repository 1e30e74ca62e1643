"""The string formats of the creation input and of responses, as plain predicates and parsers.

Each checks the length first, so a huge string costs no more than a short one, and accepts
ASCII digits only (`str.isdigit` also takes "٠٩"). No regular expression runs on the hot path.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Final

from campaign_rules._core.limits import (
    DATE_TIME_FRACTION_MAX_DIGITS,
    DATE_TIME_MAX_LENGTH,
    WHITESPACE,
)

if TYPE_CHECKING:
    # Read by mypy and mypyc only: in annotations, which are never evaluated, so an installed
    # build that lacks mypy_extensions still imports (as `_core.compiled` says).
    from mypy_extensions import i64

__all__ = [
    "HH_MM_TEXTS",
    "is_blank",
    "is_uuid_v4",
    "lower_case_uuid_v4",
    "minute_of_day",
    "parse_contact_time",
    "parse_date",
    "parse_date_time",
    "parse_response_time",
    "parse_time",
    "time_at_minute",
]

_UUID_LENGTH: Final = 36
_UUID_VERSION_AT: Final = 14
_UUID_VARIANT_AT: Final = 19
_UUID_V4_VARIANTS: Final = frozenset("89abAB")
# Every 8-4-4-4-12 UUID, once each hex digit in either case is read as "0", is this form; any
# other character (sign, space, underscore, `x`, a dash out of place) stays what it is and so
# no longer matches. The ASCII encoding and one `translate` read the text once each, in C,
# where removing the dashes and `unhexlify` made copies.
_HEX_DIGITS_AS_ZERO: Final = bytes.maketrans(b"0123456789abcdefABCDEF", b"0" * 22)
# The same with lower-case hex digits only: a text that takes this form is its own lower case.
_LOWER_CASE_HEX_DIGITS_AS_ZERO: Final = bytes.maketrans(b"0123456789abcdef", b"0" * 16)
_UUID_FORM: Final = b"00000000-0000-0000-0000-000000000000"

# D-time-format: each of the 1,440 times of day, under its one accepted spelling `HH:MM`, by
# its minute of the day. A look-up here is the whole parse, in both builds: seconds, `24:00`,
# `9:00` and non-ASCII digits are not keys. (Joining two-digit strings spelt once builds the
# table faster than formatting each time: it is built on import.)
_TWO_DIGITS: Final = [f"{number:02d}" for number in range(60)]
_MINUTES_OF_DAY: Final = {
    _TWO_DIGITS[hour] + ":" + _TWO_DIGITS[minute]: hour * 60 + minute
    for hour in range(24)
    for minute in range(60)
}
# The texts `minute_of_day` accepts, as a set: the `hhMm` keyword judges a value by them.
HH_MM_TEXTS: Final = frozenset(_MINUTES_OF_DAY)
# The time of day of each minute of the day: one object each, its hash kept once computed.
_TIMES_OF_DAY: Final[tuple[datetime.time, ...]] = tuple(
    datetime.time(minute // 60, minute % 60) for minute in range(24 * 60)
)


def is_uuid_v4(text: str) -> bool:
    """Whether `text` is a version 4 UUID of the RFC 9562 variant, in 8-4-4-4-12 form.

    Either case of hex digit is taken (RFC 9562 section 4: case-insensitive on input);
    braces, `urn:uuid:` and the 32-digit form without dashes are not (D-agent-id).
    """
    return _has_uuid_v4_form(text, _HEX_DIGITS_AS_ZERO)


def lower_case_uuid_v4(text: str) -> str | None:
    """`text` in lower case when `is_uuid_v4` takes it, else `None` (D-agent-id).

    A text already in lower case is given back itself, not copied.
    """
    # Most ids are written in lower case: one check then answers, where `is_uuid_v4` and
    # `str.lower` made two passes and a copy.
    if _has_uuid_v4_form(text, _LOWER_CASE_HEX_DIGITS_AS_ZERO):
        return text
    return text.lower() if is_uuid_v4(text) else None


def _has_uuid_v4_form(text: str, digits_as_zero: bytes) -> bool:
    # The version and the variant first (the form reads them as any digit): a UUID of
    # another version is refused before it is copied.
    if not (
        len(text) == _UUID_LENGTH
        and text[_UUID_VERSION_AT] == "4"
        and text[_UUID_VARIANT_AT] in _UUID_V4_VARIANTS
    ):
        return False
    try:
        ascii_text = text.encode("ascii")
    except UnicodeEncodeError:  # a non-ASCII character is no hex digit ("٩", "９")
        return False
    return ascii_text.translate(digits_as_zero) == _UUID_FORM


def parse_time(text: str) -> datetime.time | None:
    """The time of day of a 24-hour `HH:MM` string, 00:00 to 23:59, else `None` (D-time-format)."""
    return time_at_minute(minute_of_day(text))


def minute_of_day(text: str) -> int:
    """The minute of the day of a 24-hour `HH:MM` string, 0 to 1439, else -1 (D-time-format)."""
    # One reading for both builds (D-one-implementation): of those timed, the look-up costs
    # least over both (benchmarks/RESULTS.md, issue 38). The length first, so that a huge
    # string is never hashed for the look-up.
    return _MINUTES_OF_DAY.get(text, -1) if len(text) == len("HH:MM") else -1


def time_at_minute(minute: int) -> datetime.time | None:
    """The time of day `minute` minutes after midnight; `None` for -1 (`minute_of_day`'s no)."""
    return _TIMES_OF_DAY[minute] if minute >= 0 else None


# On a text of ten characters with its dashes at 4 and 7, CPython's `date.fromisoformat` reads
# exactly `YYYY-MM-DD`, ASCII digits only (any other character, including a non-ASCII one,
# which makes the text longer than ten bytes in UTF-8, is a `ValueError`), and refuses a date
# that does not exist. Bound once, a final name compiled: one C call, where slicing the three
# numbers, testing each, converting each with `int` and calling `date` made several.
_DATE_FROM_ISO: Final = datetime.date.fromisoformat


def parse_date(text: str) -> datetime.date | None:
    """The calendar date of an ISO 8601 `YYYY-MM-DD` string, else `None` (D-cycle-dates).

    The date must exist: 2025-02-29 does not; year 0000 does not either.
    """
    if len(text) != len("YYYY-MM-DD") or text[4] != "-" or text[7] != "-":
        return None
    try:
        return _DATE_FROM_ISO(text)
    except ValueError:  # a character not a digit, month 13, day 31 of a 30-day month, year 0
        return None


def parse_response_time(text: str) -> datetime.time | None:
    """The time of day of `HH:MM` or `HH:MM:SS` in a response, else `None` (D-response-times)."""
    if len(text) == len("HH:MM"):
        return parse_time(text)
    if len(text) != len("HH:MM:SS") or text[5] != ":":
        return None
    clock = _clock(text)
    return None if clock is None else datetime.time(*clock)


def parse_contact_time(text: str) -> datetime.datetime | None:
    """The naive date-time of `YYYY-MM-DD HH:MM:SS` (spec 2.5 `last_call_at`), else `None`."""
    if len(text) != len("YYYY-MM-DD HH:MM:SS") or text[10] != " ":
        return None
    date, clock = parse_date(text[:10]), _clock(text[11:])
    if date is None or clock is None:
        return None
    return datetime.datetime(date.year, date.month, date.day, *clock)


_DATE_TIME_MIN_LENGTH: Final = len("YYYY-MM-DDTHH:MM:SS")
_MICROSECOND_DIGITS: Final = 6


def parse_date_time(text: str) -> datetime.datetime | None:
    """The aware date-time of an RFC 3339 `date-time`, else `None` (D-date-times).

    `T`, `t` or a space between date and time; seconds required; a fraction of any length up
    to nine digits, cut to microseconds; `Z`, `z` or `+HH:MM`/`-HH:MM`. Without an offset the
    time is taken as UTC, as is `-00:00` (RFC 3339 4.3: offset unknown).
    """
    if not _DATE_TIME_MIN_LENGTH <= len(text) <= DATE_TIME_MAX_LENGTH or text[10] not in "Tt ":
        return None
    date, clock = parse_date(text[:10]), _clock(text[11:19])
    if date is None or clock is None:
        return None
    rest, microsecond = text[19:], 0
    if rest.startswith("."):
        digits = len(rest) - 1 - len(rest[1:].lstrip("0123456789"))
        # The length cap alone would let ten or more digits through before a `Z` or none.
        if not 1 <= digits <= DATE_TIME_FRACTION_MAX_DIGITS:
            return None
        fraction = rest[1 : 1 + digits]
        microsecond = int(fraction[:_MICROSECOND_DIGITS].ljust(_MICROSECOND_DIGITS, "0"))
        rest = rest[1 + digits :]
    zone = _offset(rest)
    if zone is None:
        return None
    return datetime.datetime(
        date.year, date.month, date.day, *clock, microsecond=microsecond, tzinfo=zone
    )


def _clock(text: str) -> tuple[int, int, int] | None:
    """Hours, minutes and seconds of `HH:MM:SS`; a leap second (`:60`) is not taken."""
    if len(text) != len("HH:MM:SS") or text[2] != ":" or text[5] != ":":
        return None
    hour, minute, second = (
        _ascii_number(text, 0, 2),
        _ascii_number(text, 3, 5),
        _ascii_number(text, 6, 8),
    )
    if not (0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59):
        return None
    return hour, minute, second


def _offset(text: str) -> datetime.tzinfo | None:
    """The zone of an RFC 3339 offset (`""` and `-00:00` are UTC, D-date-times), else `None`."""
    if text in ("", "Z", "z", "-00:00"):
        return datetime.UTC
    if len(text) != len("+HH:MM") or text[0] not in "+-" or text[3] != ":":
        return None
    # As `int`s, which `timedelta` takes (mypy refuses an `i64` there).
    hours: int = _ascii_number(text, 1, 3)
    minutes: int = _ascii_number(text, 4, 6)
    if not (0 <= hours <= 23 and 0 <= minutes <= 59):
        return None
    delta = datetime.timedelta(hours=hours, minutes=minutes)
    return datetime.timezone(-delta if text[0] == "-" else delta)


_WHITESPACE_CHARACTERS: Final = frozenset(WHITESPACE)


def is_blank(text: str) -> bool:
    """Whether `text` has no character but white space (D-blank-name)."""
    # Most texts start with something else, and are then not blank: answered without `strip`,
    # which first builds its look-up of the 25 characters.
    if text and text[0] not in _WHITESPACE_CHARACTERS:
        return False
    return not text.strip(WHITESPACE)


def _ascii_number(text: str, start: i64, stop: i64) -> i64:
    """The number that the ASCII digits `text[start:stop]` spell, or -1 if another is there."""
    # Read in place: compiled, `ord(text[at])` makes no string, where a slice, `isascii` and
    # `isdigit` (which alone also takes "٠٩" and "²"), then `int` made one and read it three
    # times. In `i64`s, mypyc's machine integers (plain `int`s interpreted), the sums are
    # machine arithmetic with no check for a large integer, and the code is made one before
    # the subtraction.
    number: i64 = 0
    for at in range(start, stop):
        code: i64 = ord(text[at])
        digit = code - ord("0")
        if not 0 <= digit <= 9:
            return -1
        number = number * 10 + digit
    return number
