r"""JSON that the tools write: I-JSON (RFC 7493), which a strict reader accepts whole.

`json.dumps` writes any `str`, a lone surrogate included, as `"\ud800"`: valid JSON, but not
I-JSON (RFC 7493 section 2.1), and a strict reader, this library's own among them
(`_core.strict_json`), refuses the whole document. A string of an output may hold one: a
violation's pointer keeps a member name exactly, lone surrogate and all (D-positions), and a
file name whose bytes are not UTF-8 reaches Python with surrogates for them (PEP 383). Each
such code point is written U+FFFD (D-output-text); every other character is written as it is.
"""

from __future__ import annotations

import json

from campaign_rules._core.unicode import as_unicode_text

__all__ = ["i_json"]

# How `json.dumps` (ASCII) writes a code point from U+D000 to U+DFFF, surrogates among them.
_MAYBE_SURROGATE = "\\ud"


def i_json(value: object, *, indent: int | None = None) -> str:
    """`value` (plain JSON data) as I-JSON text, in ASCII, with no lone surrogate.

    `ValueError` for a float that is not finite, as `json.dumps(allow_nan=False)`.
    """
    text = json.dumps(value, indent=indent, allow_nan=False)
    if _MAYBE_SURROGATE not in text:  # the common case: one pass, no walk
        return text
    return json.dumps(_unicode_strings(value), indent=indent, allow_nan=False)


def _unicode_strings(value: object) -> object:
    """`value` with every string in it, member names included, as `as_unicode_text` writes it."""
    if isinstance(value, str):
        return as_unicode_text(value)
    if isinstance(value, dict):
        return {
            as_unicode_text(name) if isinstance(name, str) else name: _unicode_strings(member)
            for name, member in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_unicode_strings(item) for item in value]
    return value
