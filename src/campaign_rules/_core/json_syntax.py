"""Why a text is not JSON, in the library's words (D-json-syntax-reasons).

Python's `json` module says where a text stops being JSON, with a message of its own: a phrase
meant to be followed by its position (`Unterminated string starting at`), in its own words,
worded differently from one Python version to the next. The body rules, the command line and
the audit give instead one whole sentence of `SYNTAX_REASONS`, chosen from what `json` found
and the text around the place it found it, so that every tool says the same thing whichever
decoder read the text. Each sentence is a clause that follows "must be JSON: " or "is not
JSON: ", and the position is given beside it, never in it.
"""

from __future__ import annotations

import sys
from typing import Final

__all__ = [
    "JSON_WHITESPACE",
    "JSON_WHITESPACE_BYTES",
    "SYNTAX_REASONS",
    "TOO_DEEP",
    "long_integer_reason",
    "syntax_reason",
]

# JSON's white space (RFC 8259 section 2), the one spelling of it: as text, and as bytes.
JSON_WHITESPACE: Final = " \t\n\r"
JSON_WHITESPACE_BYTES: Final = JSON_WHITESPACE.encode("ascii")

# Each kind of syntax error, and its sentence.
SYNTAX_REASONS: Final[dict[str, str]] = {
    "empty": "it is empty",
    "blank": "it holds only white space",
    "ends early": "it ends before its value is complete",
    "unterminated string": "a string has no closing quote",
    "missing value": "a value is missing or is not a JSON value",
    "malformed number": "a number is cut short or is not written as JSON writes numbers",
    "trailing comma": "a comma ends an array or an object, with nothing after it",
    "missing name": "a member name, in double quotes, is missing",
    "missing colon": "a member name is not followed by a colon",
    "missing comma": "a comma, or the end of the array or object, is missing after a value",
    "trailing data": "more text follows its one value",
    "invalid escape": "a string holds a backslash that starts no JSON escape",
    "control character": "a string holds a control character (U+0000 to U+001F) unescaped",
    # A message of a `json` module yet to come: still a sentence of ours.
    "other": "it breaks JSON's grammar",
}

# Why a text is not read, where Python's stack ends before its nesting does.
TOO_DEEP: Final = "it is nested too deeply for this tool"


def long_integer_reason() -> str:
    """Why a text holding an integer of more digits than Python converts is not read.

    Python's least limit is 640 digits, far past a double's 10**308: no double holds such an
    integer (RFC 7493 section 2.2).
    """
    digits = sys.get_int_max_str_digits()
    return f"an integer has more than {digits:,} digits, more than a double holds"


# The kind of each message of `json` (CPython 3.11 to 3.14), by its first words: what it
# expected, and what it found instead.
_MESSAGE_KINDS: Final = (
    ("Unterminated string", "unterminated string"),
    ("Invalid control character", "control character"),
    ("Invalid \\", "invalid escape"),  # "Invalid \escape" and "Invalid \uXXXX escape"
    ("Illegal trailing comma", "trailing comma"),  # Python 3.13 and later
    ("Extra data", "trailing data"),
    ("Expecting value", "missing value"),
    ("Expecting property name", "missing name"),
    ("Expecting ':'", "missing colon"),
    ("Expecting ','", "missing comma"),
)
# Kinds that, found where nothing but white space is left, mean the text was cut short.
_EXPECTING: Final = frozenset({"missing value", "missing name", "missing colon", "missing comma"})
# What may follow a digit within a number: after one, `json` has read a number and stops.
_DIGITS: Final = "0123456789"
_NUMBER_PARTS: Final = frozenset(".eE" + _DIGITS)


def syntax_reason(text: str, message: str, offset: int) -> str:
    """The sentence of `SYNTAX_REASONS` for `json`'s `message` at `offset` of `text`."""
    return SYNTAX_REASONS[_kind(text, message, offset)]


def _kind(text: str, message: str, offset: int) -> str:
    kind = "other"
    for start, named in _MESSAGE_KINDS:
        if message.startswith(start):
            kind = named
            break
    if kind not in _EXPECTING and kind != "trailing data":
        return kind
    if kind == "missing value" and not text.strip(JSON_WHITESPACE):
        return "empty" if not text else "blank"
    rest = text[offset:].lstrip(JSON_WHITESPACE)
    found = rest[:1]
    # `json` reads the longest number it can, then stops at what follows: `1.`, `1e5x`, `01`.
    if (offset > 0 and text[offset - 1] in _DIGITS and found in _NUMBER_PARTS) or (
        kind == "missing value" and found == "-"
    ):
        return "malformed number"
    if kind == "trailing data":
        return kind
    if not rest:
        return "ends early"
    # Before Python 3.13, `json` tells a trailing comma as a value or a name it expected.
    if (
        kind in ("missing value", "missing name")
        and found in ("]", "}")
        and text[:offset].rstrip(JSON_WHITESPACE).endswith(",")
    ):
        return "trailing comma"
    return kind
