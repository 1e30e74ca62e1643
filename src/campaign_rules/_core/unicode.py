r"""Lone surrogates: the code points a Python `str` may hold and no UTF-8 text can.

`json` decodes an escaped lone surrogate (`"\ud800"`) to one, and a caller's `str` may hold
one; such a string cannot be written as UTF-8 (D-lone-surrogates). An escaped pair is decoded
to the one character it encodes, so any surrogate code point in a decoded string is lone.
"""

from __future__ import annotations

import re
from typing import Final, cast

__all__ = [
    "LONE_SURROGATE",
    "SURROGATE_CHARACTER",
    "as_unicode_text",
    "has_surrogate",
    "string_has_surrogate",
]

# Spelt with `chr`: mypyc compiles no surrogate in a string literal.
SURROGATE_CHARACTER: Final = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")
# `str.isascii` bound once, a final name: compiled, one C call of the method, where
# `text.isascii()` looked it up by name at each call (mypyc has no primitive for it).
_IS_ASCII: Final = str.isascii
# `str.encode` itself, for a `str` subclass: called through the method of `str`, so that no
# override of the subclass runs.
_ENCODE: Final = str.encode
# The encoding a text is tried in: UTF-32 fails on exactly the surrogates, as UTF-8 does, and
# writes each code point as the four bytes it holds, where UTF-8 branches on each one's size:
# fewer instructions a body on both benchmark corpora, valid and invalid, in both builds
# (benchmarks/RESULTS.md, issue 38). Its four bytes a code point are freed at once. Spelt as
# CPython's encoder takes it without a look-up of the codec (no `-le`: the byte order mark it
# writes costs nothing here).
_ENCODING: Final = "utf-32"
# What is said of a string holding one, by the rule of the text and by that of the value.
LONE_SURROGATE: Final = "holds a lone surrogate, which is not Unicode text"


def has_surrogate(text: str) -> bool:
    """Whether `text`, a plain `str`, holds a surrogate code point.

    An ASCII text holds none, which `str.isascii` tells from a flag CPython keeps, reading no
    character (issues 37 and 38). Any other is encoded as UTF-32 (`_ENCODING`), which fails on
    exactly the surrogates and costs less than searching for them (`SURROGATE_CHARACTER`;
    benchmarks/RESULTS.md, issues 29, 37 and 38).
    """
    if _IS_ASCII(text):
        return False
    try:
        text.encode(_ENCODING)
    except UnicodeEncodeError:
        return True
    return False


def string_has_surrogate(value: object) -> bool:
    """Whether `value` is a JSON string holding a surrogate code point; any other value holds none.

    A plain `str` is read by `has_surrogate`. A `str` subclass is read by the methods of `str`
    (none of its own runs) and is not copied: an ASCII one is told at once, whatever its length,
    and any other is encoded once, as a plain `str` is (D-hostile-input).
    """
    cls = type(value)
    if cls is str:
        return has_surrogate(value)  # type: ignore[arg-type]
    if value is None or not issubclass(cls, str):
        return False
    text = cast("str", value)  # a subclass's instance, read below by `str`'s own methods
    if _IS_ASCII(text):
        return False
    try:
        _ENCODE(text, _ENCODING)
    except UnicodeEncodeError:
        return True
    return False


def as_unicode_text(text: str) -> str:
    """`text` with each surrogate code point written U+FFFD, the replacement character.

    A pointer to a member whose name holds a lone surrogate, or a file name whose bytes are not
    UTF-8 (which Python holds as surrogates, PEP 383), then has a UTF-8 form (D-output-text).
    """
    return SURROGATE_CHARACTER.sub("\ufffd", text) if has_surrogate(text) else text
