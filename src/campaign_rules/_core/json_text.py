"""Walking a JSON text token by token: where each value starts, and what I-JSON refuses in it.

Decoders give a value and forget the text. This walk keeps the text's offsets, for two jobs
that come only when something is to be reported (D-body-limits, D-positions): placing each
violation of a refused body at the start of its member's value, and telling exactly what a
text holds that I-JSON (RFC 7493) refuses, when a cheap test of the decoded value says it may
(`_core.strict_json`). It keeps its own stack, so depth costs no recursion, and it stops at the
first container nested deeper than its limit.
"""

from __future__ import annotations

import math
import re
from json import JSONDecodeError
from json.decoder import scanstring  # type: ignore[attr-defined]  # not in typeshed
from typing import Final

from campaign_rules._core.json import item_path, member_path
from campaign_rules._core.pointers import escaped_token
from campaign_rules._core.unicode import SURROGATE_CHARACTER

__all__ = [
    "DEPTH",
    "DUPLICATE",
    "NUMBER",
    "SURROGATE",
    "TextProblem",
    "TextScan",
    "place",
    "scan_text",
]

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS: Final = ("true", "false", "null")
# What Python's `json` reads as numbers and JSON has not.
_CONSTANTS: Final = ("-Infinity", "Infinity", "NaN")

# The kinds of `TextProblem`.
DUPLICATE: Final = "duplicate"
SURROGATE: Final = "surrogate"
NUMBER: Final = "number"
DEPTH: Final = "depth"


class TextProblem:
    """One thing I-JSON refuses: its kind, the member's pointer and path, its value's offset."""

    __slots__ = ("kind", "offset", "path", "pointer")

    def __init__(self, kind: str, pointer: str, path: str | None, offset: int) -> None:
        self.kind = kind
        self.pointer = pointer
        self.path = path
        self.offset = offset


class TextScan:
    """What `scan_text` found: `starts`, the offset of each wanted value; `problems`; `complete`.

    `complete` is whether the walk reached the end of the text: it stops at a syntax error and
    at the first container nested too deeply.
    """

    __slots__ = ("complete", "problems", "starts")

    def __init__(self) -> None:
        self.starts: dict[str, int] = {}
        self.problems: list[TextProblem] = []
        self.complete = False


class _Frame:
    """An open container: whether an object, its pointer and path, its names, its next index."""

    __slots__ = ("index", "is_object", "names", "path", "pointer")

    def __init__(self, is_object: bool, pointer: str, path: str | None) -> None:
        self.is_object = is_object
        self.pointer = pointer
        self.path = path
        self.names: set[str] = set()
        self.index = 0


def place(text: str, offset: int) -> tuple[int, int]:
    """The line and column, both from 1, of `offset` in `text`.

    A line ends at a line feed (CR LF included: the column after it is 1); the column counts
    characters, each code point one, astral ones included (D-positions).
    """
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def scan_text(text: str, wanted: frozenset[str], max_depth: int) -> TextScan:
    """Walk the JSON text `text`; note the offset of each value whose pointer is in `wanted`.

    Every member name repeated in its object, string holding a surrogate code point (in its
    name too), number that is `NaN`, an infinity or rounds to one as an IEEE double, and the
    first container nested deeper than `max_depth`, is a `TextProblem`. Where a name repeats,
    the offset noted for its pointer is its last value's, the one decoders keep.
    """
    found = TextScan()
    end = len(text)
    stack: list[_Frame] = []
    pointer = ""
    path: str | None = None
    pending: list[str] = []  # problems of the member name, placed at the start of its value
    pos = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    while True:
        # A value starts at `pos`, at `pointer`.
        if pointer in wanted:
            found.starts[pointer] = pos
        for kind in pending:
            found.problems.append(TextProblem(kind, pointer, path, pos))
        pending.clear()
        char = text[pos] if pos < end else ""
        if char == "{" or char == "[":
            if len(stack) == max_depth:
                found.problems.append(TextProblem(DEPTH, pointer, path, pos))
                return found
            frame = _Frame(char == "{", pointer, path)
            stack.append(frame)
            pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            closing = "}" if frame.is_object else "]"
            if pos < end and text[pos] == closing:
                stack.pop()
                pos += 1
            elif frame.is_object:
                pos, pointer, path = _member_name(text, pos, frame, pending)
                if pos < 0:
                    return found
                continue
            else:
                pointer, path = f"{frame.pointer}/0", item_path(frame.path or "", 0)
                continue
        elif char == '"':
            try:
                string, pos = scanstring(text, pos + 1, True)
            except (JSONDecodeError, ValueError):
                return found
            if SURROGATE_CHARACTER.search(string) is not None:
                found.problems.append(TextProblem(SURROGATE, pointer, path, pos))
        else:
            number = _NUMBER.match(text, pos)
            if number is not None:
                if math.isinf(float(number.group())):
                    found.problems.append(TextProblem(NUMBER, pointer, path, pos))
                pos = number.end()
            else:
                word = _word_at(text, pos)
                if word is None:
                    return found
                if word in _CONSTANTS:
                    found.problems.append(TextProblem(NUMBER, pointer, path, pos))
                pos += len(word)
        # After a value: a comma, or the end of its container, or of the text.
        while True:
            pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
            if not stack:
                found.complete = pos == end
                return found
            frame = stack[-1]
            char = text[pos] if pos < end else ""
            if char == ",":
                pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                if frame.is_object:
                    pos, pointer, path = _member_name(text, pos, frame, pending)
                    if pos < 0:
                        return found
                else:
                    frame.index += 1
                    pointer = f"{frame.pointer}/{frame.index}"
                    path = item_path(frame.path or "", frame.index)
                break
            if char == ("}" if frame.is_object else "]"):
                stack.pop()
                pos += 1
                continue
            return found


def _member_name(
    text: str, pos: int, frame: _Frame, pending: list[str]
) -> tuple[int, str, str | None]:
    """Read the member name at `pos` of the object `frame`, and its colon.

    The answer is the offset after the colon, the member's pointer and its path; the offset is
    -1 when there is no name and colon there. The problems of the name (a repeat, a surrogate)
    are added to `pending`.
    """
    if pos >= len(text) or text[pos] != '"':
        return -1, "", None
    try:
        name, pos = scanstring(text, pos + 1, True)
    except (JSONDecodeError, ValueError):
        return -1, "", None
    if name in frame.names:
        pending.append(DUPLICATE)
    frame.names.add(name)
    if SURROGATE_CHARACTER.search(name) is not None:
        pending.append(SURROGATE)
    pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
    if pos >= len(text) or text[pos] != ":":
        return -1, "", None
    after = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return after, f"{frame.pointer}/{escaped_token(name)}", member_path(frame.path, name)


def _word_at(text: str, pos: int) -> str | None:
    """The literal or the constant at `pos`, or `None`."""
    for word in _LITERALS + _CONSTANTS:
        if text.startswith(word, pos):
            return word
    return None
