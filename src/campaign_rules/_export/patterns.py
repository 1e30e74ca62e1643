r"""The string formats of the interface as JSON Schema keywords, read alike by every regex dialect.

The creation schema (`json_schema`) and the OpenAPI document (`openapi`) say each format of
`_core/formats` with these. Patterns use explicit character classes (`[0-9]`, never `\d` or
`\s`, whose meaning differs), no look-around and no back-references, so that ECMA-262 (with
or without the `u` flag), Python's `re` and RE2 read them alike. A pattern is unanchored in
JSON Schema, and Python's `$` also matches before a final line break, so each whole-string
format also states its exact length, or refuses a line break where its length varies.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import attrs

from campaign_rules._core.limits import DATE_TIME_MAX_LENGTH, WHITESPACE

__all__ = [
    "CONTACT_TIME",
    "DATE",
    "DATE_TIME",
    "HH_MM",
    "HH_MM_SS",
    "LINE_BREAK",
    "NOT_BLANK",
    "UUID_V4",
    "Pattern",
    "character_class",
]


@attrs.frozen
class Pattern:
    """A whole-string format: its anchored pattern, and its exact length (`fixed`) or greatest."""

    pattern: str
    length: int
    fixed: bool = True

    def keywords(self) -> dict[str, Any]:
        """The JSON Schema keywords of a string of this format (a new dict each call)."""
        if self.fixed:
            return {"minLength": self.length, "maxLength": self.length, "pattern": self.pattern}
        # A line break is in no format: refusing it closes the gap Python's `$` leaves.
        return {"maxLength": self.length, "pattern": self.pattern, "not": dict(LINE_BREAK)}


# A string holding a line break: no format has one.
LINE_BREAK: Final = {"type": "string", "pattern": "\n"}


def character_class(characters: Iterable[str]) -> str:
    r"""A class of exactly `characters`, as `\uXXXX` escapes and ranges of them."""
    codes = sorted(set(map(ord, characters)))
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return (
        "["
        + "".join(
            f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}"
            for low, high in ranges
        )
        + "]"
    )


def _hex(count: int) -> str:
    return f"[0-9a-fA-F]{{{count}}}"


# D-agent-id: 8-4-4-4-12 hex digits of either case, version nibble 4, variant 8, 9, a or b.
UUID_V4: Final = Pattern(
    f"^{_hex(8)}-{_hex(4)}-4{_hex(3)}-[89abAB]{_hex(3)}-{_hex(12)}$",
    len("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"),
)

_HOUR_MINUTE = "(?:[01][0-9]|2[0-3]):[0-5][0-9]"
_CLOCK = f"{_HOUR_MINUTE}:[0-5][0-9]"  # no leap second

# D-time-format: 24-hour HH:MM, 00:00 to 23:59.
HH_MM: Final = Pattern(f"^{_HOUR_MINUTE}$", len("HH:MM"))
# D-response-times: a response window may carry seconds.
HH_MM_SS: Final = Pattern(f"^{_CLOCK}$", len("HH:MM:SS"))

# D-cycle-dates: a YYYY-MM-DD date of the proleptic Gregorian calendar that exists, years 0001
# to 9999 (Python's `datetime.date`). February 29 needs a leap year: a year divisible by 4
# whose last two digits are not 00, or a century divisible by 400 (0000 excluded).
_YEAR = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_MONTH_DAY = (
    "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"  # days 1 to 28 of every month
    "|(?:0[13-9]|1[0-2])-(?:29|30)"  # 29 and 30 of every month but February
    "|(?:0[13578]|1[02])-31)"  # 31 of the long months
)
_DAY = f"(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_YEAR}-02-29)"
DATE: Final = Pattern(f"^{_DAY}$", len("YYYY-MM-DD"))

# spec 2.5, D-contact-last-call: `YYYY-MM-DD HH:MM:SS`, no zone.
CONTACT_TIME: Final = Pattern(f"^{_DAY} {_CLOCK}$", len("YYYY-MM-DD HH:MM:SS"))

# D-date-times: RFC 3339, `T`, `t` or a space, seconds, one to nine digits of fraction, and
# `Z`, `z`, `+HH:MM`, `-HH:MM` or no offset.
DATE_TIME: Final = Pattern(
    f"^{_DAY}[Tt ]{_CLOCK}(?:[.][0-9]{{1,9}})?(?:[Zz]|[+-]{_HOUR_MINUTE})?$",
    DATE_TIME_MAX_LENGTH,
    fixed=False,
)

# D-blank-name: a name holds a character that is not white space. The class lists the
# characters of `_core.limits.WHITESPACE` (exactly ECMAScript's `\s`) as \uXXXX escapes,
# which every regular expression dialect reads alike.
NOT_BLANK: Final = "[^" + "".join(f"\\u{ord(char):04x}" for char in WHITESPACE) + "]"
