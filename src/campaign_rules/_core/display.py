r"""How a caller's text is shown in what the library writes: field paths, messages, outputs.

A member name is the caller's text, and a field path, which every rule's message names, is
made of names (D-hostile-input, D-shown-text). Said once here, for every rule:

- a control character is shown as `\u` and its four hex digits, as JSON writes it, so that no
  path or message holds one (`CONTROL_CHARACTERS` lists them), and a lone surrogate as U+FFFD
  (D-lone-surrogates), so that each is UTF-8 text a terminal or a page shows as it is;
- a member name is shown by its first `FIELD_PATH_MAX_LENGTH` characters, then `…`;
- a field path longer than `FIELD_MAX_LENGTH` characters keeps its head and its tail, with `…`
  between them, so that it names both the member of the body it is in and its own member.

The exact member is the violation's pointer (`_core.pointers`), never made from the path.
"""

from __future__ import annotations

import re
from typing import Final

from campaign_rules._core.limits import FIELD_MAX_LENGTH, FIELD_PATH_MAX_LENGTH
from campaign_rules._core.unicode import SURROGATE_CHARACTER, has_surrogate

__all__ = [
    "CONTROL_CHARACTERS",
    "FIELD_HEAD_LENGTH",
    "FIELD_TAIL_LENGTH",
    "bounded_path",
    "shown_name",
    "shown_text",
]

# The characters that would change how the text around them is shown, or end its line: the C0
# and C1 controls and DEL (Unicode's `Cc`), the line and paragraph separators, and the
# bidirectional formatting characters (which reorder what follows them, "Trojan Source",
# CVE-2021-42574). Listed by code point, not read from Python's Unicode database, so that a
# path is the same under every Python version.
CONTROL_CHARACTERS: Final = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]"
)

# A path past `FIELD_MAX_LENGTH` keeps this many characters of its head and of its tail, with
# `…` between them: the head holds the deepest known path a shape gives an answer's member
# (`thread.messages[999].extracted_data.` is 36 characters), the tail the member's own name.
FIELD_HEAD_LENGTH: Final = 40
FIELD_TAIL_LENGTH: Final = FIELD_MAX_LENGTH - FIELD_HEAD_LENGTH - 1
_CUT: Final = "…"
# The length of a control character's escape, `\u` and four hex digits.
_ESCAPE_LENGTH: Final = 6


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def shown_text(text: str) -> str:
    r"""`text` with each control character as `\uXXXX` and each lone surrogate as U+FFFD.

    Not shortened; the text of a plain, printable ASCII string is given back as it is, tested
    without a search (`isascii` is constant time in CPython).
    """
    if text.isascii():
        if text.isprintable():
            return text
    elif has_surrogate(text):
        text = SURROGATE_CHARACTER.sub("\ufffd", text)
    return CONTROL_CHARACTERS.sub(_escaped, text)


def shown_name(name: str) -> str:
    """A member name as a field path shows it: `shown_text` of it, cut after 64 characters.

    A cut name ends with `…`, and an escape is never cut: the name keeps the characters whose
    shown form fits in 64. Only the head of a long name is read.
    """
    limit = FIELD_PATH_MAX_LENGTH
    head = name[: limit + 1] if len(name) > limit else name
    shown = shown_text(head)
    if len(shown) <= limit:  # escaping never shortens: the name is whole
        return shown
    kept = length = 0
    for character in head:
        length += _ESCAPE_LENGTH if CONTROL_CHARACTERS.match(character) else 1
        if length > limit:
            break
        kept += 1
    return shown_text(head[:kept]) + _CUT


def bounded_path(path: str) -> str:
    """`path` when it is at most `FIELD_MAX_LENGTH` characters; else its head, `…`, its tail.

    A path is made a member or an item at a time from its parent's bounded path, and bounding
    the two gives what bounding the whole would: the tail of the parent's kept part and the
    child's is the tail of the whole (the child adds at least one character), and the head
    stays the parent's.
    """
    if len(path) <= FIELD_MAX_LENGTH:
        return path
    return path[:FIELD_HEAD_LENGTH] + _CUT + path[-FIELD_TAIL_LENGTH:]
