"""The string formats of the creation input, as plain predicates and parsers.

Each checks the length first, so a huge string costs no more than a short one, and accepts
ASCII digits only (`str.isdigit` also takes "٠٩"). No regular expression runs on the hot path.
"""

from __future__ import annotations

import datetime
import operator
from typing import Final

from campaign_rules._limits import WHITESPACE

__all__ = ["is_blank", "is_uuid_v4", "parse_date", "parse_time"]

_HEX_DIGITS: Final = "0123456789abcdefABCDEF"
_UUID_LENGTH: Final = 36
_UUID_DASHES: Final = (8, 13, 18, 23)
_dashes_of: Final = operator.itemgetter(*_UUID_DASHES)
_FOUR_DASHES: Final = ("-",) * len(_UUID_DASHES)
_UUID_VERSION_AT: Final = 14
_UUID_VARIANT_AT: Final = 19
_UUID_V4_VARIANTS: Final = frozenset("89abAB")
# D-time-format: each of the 1,440 times of day, under its one accepted spelling `HH:MM`. A
# look-up here is the whole parse: seconds, `24:00`, `9:00` and non-ASCII digits are not keys.
# (Joining two-digit strings spelt once builds the table three times faster than formatting
# each time: it is built on import.)
_TWO_DIGITS: Final = [f"{number:02d}" for number in range(60)]
_TIMES_OF_DAY: Final = {
    _TWO_DIGITS[hour] + ":" + _TWO_DIGITS[minute]: datetime.time(hour, minute)
    for hour in range(24)
    for minute in range(60)
}


def is_uuid_v4(text: str) -> bool:
    """Whether `text` is a version 4 UUID of the RFC 9562 variant, in 8-4-4-4-12 form.

    Either case of hex digit is taken (RFC 9562 section 4: case-insensitive on input);
    braces, `urn:uuid:` and the 32-digit form without dashes are not (D-agent-id).
    """
    if len(text) != _UUID_LENGTH or _dashes_of(text) != _FOUR_DASHES:
        return False
    digits = text.replace("-", "")
    # strip() takes away every hex digit at either end: nothing is left when all are hex.
    return (
        len(digits) == _UUID_LENGTH - len(_UUID_DASHES)
        and not digits.strip(_HEX_DIGITS)
        and text[_UUID_VERSION_AT] == "4"
        and text[_UUID_VARIANT_AT] in _UUID_V4_VARIANTS
    )


def parse_time(text: str) -> datetime.time | None:
    """The time of day of a 24-hour `HH:MM` string, 00:00 to 23:59, else `None` (D-time-format)."""
    # The length first, so that a huge string is never hashed for the look-up.
    return _TIMES_OF_DAY.get(text) if len(text) == len("HH:MM") else None


def parse_date(text: str) -> datetime.date | None:
    """The calendar date of an ISO 8601 `YYYY-MM-DD` string, else `None` (D-cycle-dates).

    The date must exist: 2025-02-29 does not; year 0000 does not either.
    """
    if len(text) != len("YYYY-MM-DD") or text[4] != "-" or text[7] != "-":
        return None
    year, month, day = text[:4], text[5:7], text[8:]
    if not (_is_ascii_number(year) and _is_ascii_number(month) and _is_ascii_number(day)):
        return None
    try:
        return datetime.date(int(year), int(month), int(day))
    except ValueError:  # month 13, day 31 of a 30-day month, year 0
        return None


def is_blank(text: str) -> bool:
    """Whether `text` has no character but white space (D-blank-name)."""
    return not text.strip(WHITESPACE)


def _is_ascii_number(text: str) -> bool:
    # isdigit() alone also takes "٠٩" and "²"; only ASCII digits pass both.
    return text.isascii() and text.isdigit()
