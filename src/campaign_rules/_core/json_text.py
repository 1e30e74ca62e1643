"""Walking a JSON text token by token: where each value starts, and what I-JSON refuses in it.

Decoders give a value and forget the text. This walk keeps the text's offsets, for two jobs
that come only when something is to be reported (D-body-limits, D-positions): placing each
violation of a refused body at the start of its member's value, and telling exactly what a
text holds that I-JSON (RFC 7493) refuses, and where, when a cheap test of the decoded value
says it may (`_core.strict_json`). It keeps its own stack, so depth costs no recursion; it
stops at the first container nested deeper than its limit and at as many problems as a result
reports; and it passes over what can hold no problem with regular expressions (issue 36).
"""

from __future__ import annotations

import math
import re
from json import JSONDecodeError
from json.decoder import scanstring  # type: ignore[attr-defined]  # not in typeshed
from typing import Final

from campaign_rules._core.json import item_path, member_path
from campaign_rules._core.json_syntax import JSON_WHITESPACE
from campaign_rules._core.limits import VIOLATIONS_MAX
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

_WHITESPACE: Final = re.compile(rf"[{re.escape(JSON_WHITESPACE)}]*")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS: Final = ("true", "false", "null")
# What Python's `json` reads as numbers and JSON has not.
_CONSTANTS: Final = ("-Infinity", "Infinity", "NaN")

# The values no problem can be in, matched by one regular expression in C rather than token by
# token (issue 36: the walk costs at most 10 times `json.loads` of the same text). A string
# holding no surrogate code point, and no escaped one but in a pair; a number below 10**308,
# which never rounds to an infinity: one digit before its point and an exponent of at most 307,
# at most 8 digits and an exponent of at most 299, or at most 200 digits and an exponent of at
# most 99; a literal; and one level of containers of those, an object's names such strings too,
# checked apart for repeats (`_before_repeat`). The repetitions are possessive:
# Python's `re` then keeps no state to go back to for each one, five times faster.
_WS = rf"[{re.escape(JSON_WHITESPACE)}]*+"
_CHARACTER = r'[^"\\\x00-\x1f\ud800-\udfff]'
_ESCAPE = (
    r'\\(?:["\\/bfnrt]|u(?:(?![dD][89a-fA-F])[0-9a-fA-F]{4}'
    r"|[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}))"
)
_STRING = rf'"{_CHARACTER}*+(?:{_ESCAPE}{_CHARACTER}*+)*+"'
_SCALAR = (
    rf"(?:{_STRING}"
    r"|-?(?:[0-9](?:\.[0-9]+)?(?:[eE](?:-[0-9]+|\+?(?:[0-2]?[0-9]{1,2}|30[0-7])))?"
    r"|[1-9][0-9]{1,7}(?:\.[0-9]+)?(?:[eE](?:-[0-9]+|\+?[0-2]?[0-9]{1,2}))?"
    r"|[1-9][0-9]{8,199}(?:\.[0-9]+)?(?:[eE](?:-[0-9]+|\+?[0-9]{1,2}))?)"
    r"|true|false|null)"
)
_FLAT = (
    rf"(?:\[{_WS}(?:{_SCALAR}{_WS}(?:,{_WS}{_SCALAR}{_WS})*+)?\]"
    rf"|\{{{_WS}(?:{_STRING}{_WS}:{_WS}{_SCALAR}{_WS}(?:,{_WS}{_STRING}{_WS}:{_WS}{_SCALAR}{_WS})*+)?\}})"
)
_SHALLOW = rf"(?:{_SCALAR}|{_FLAT})"


class _Runs:
    """The regular expressions that pass over values no problem can be in, compiled once.

    Compiled when a text is first walked, not at import: compiling them takes milliseconds,
    which a program that never refuses a body would pay for nothing.
    """

    __slots__ = (
        "flat",
        "not_only_scalars",
        "scalar_items",
        "scalar_members",
        "shallow_item",
        "shallow_items",
        "shallow_members",
        "tokens",
    )

    def __init__(self) -> None:
        # A container of scalars only, as a value.
        self.flat = re.compile(_FLAT)
        # Runs of values as items of an array, each with its comma, and as members of an
        # object: scalars only where a container would be nested too deeply.
        self.scalar_items = re.compile(rf"(?:{_SCALAR}{_WS},{_WS})*+")
        self.shallow_items = re.compile(rf"(?:{_SHALLOW}{_WS},{_WS})*+")
        self.shallow_item = re.compile(rf"{_SHALLOW}{_WS},{_WS}")
        self.scalar_members = re.compile(rf"(?:{_STRING}{_WS}:{_WS}{_SCALAR}{_WS},{_WS})*+")
        self.shallow_members = re.compile(rf"(?:{_STRING}{_WS}:{_WS}{_SHALLOW}{_WS},{_WS})*+")
        # In such a run, from its start: each string (a name when a colon follows), and each
        # brace.
        self.tokens = re.compile(rf'"((?:[^"\\]|\\.)*+)"{_WS}(:?)|([{{}}])')
        # What makes a comma no longer one an item of a run: a string or a container.
        self.not_only_scalars = re.compile(r'["\[{]')


_COMPILED: list[_Runs] = []


def _runs() -> _Runs:
    """The regular expressions of the runs, compiled on the first call."""
    if not _COMPILED:
        _COMPILED.append(_Runs())
    return _COMPILED[0]


# The kinds of `TextProblem`.
DUPLICATE: Final = "duplicate"
SURROGATE: Final = "surrogate"
NUMBER: Final = "number"
DEPTH: Final = "depth"


class TextProblem:
    """One thing I-JSON refuses: its kind, the member's pointer and path, and its own offset.

    The offset is that of the token at fault: a member name's opening quote for a repeated name
    or one holding a surrogate, else the value's first character (D-positions).
    """

    __slots__ = ("kind", "offset", "path", "pointer")

    def __init__(self, kind: str, pointer: str, path: str | None, offset: int) -> None:
        self.kind = kind
        self.pointer = pointer
        self.path = path
        self.offset = offset


class TextScan:
    """What `scan_text` found: `starts`, the offset of each wanted value; `problems`; `complete`.

    `complete` is whether the walk reached the end of the text: it stops at a syntax error, at
    the first container nested too deeply, and once it has found as many problems as asked.
    """

    __slots__ = ("complete", "problems", "starts")

    def __init__(self) -> None:
        self.starts: dict[str, int] = {}
        self.problems: list[TextProblem] = []
        self.complete = False


class _Frame:
    """An open container, and where in it the walk is.

    Its own place (`location`: its pointer and path) is made only when asked, from its parent's
    and its key there (`key_name` in an object, `key_index` in an array): a walk with nothing to
    report makes none. `current` is the name of the member being read, `index` the item's;
    `names` the names seen; `wanted_within` whether a wanted value may be inside it.
    """

    __slots__ = (
        "current",
        "index",
        "is_object",
        "key_index",
        "key_name",
        "names",
        "parent",
        "path",
        "pointer",
        "wanted_within",
    )

    def __init__(self, is_object: bool, parent: _Frame | None, within: frozenset[str]) -> None:
        self.is_object = is_object
        self.parent = parent
        self.current = ""
        self.index = 0
        self.key_name = "" if parent is None else parent.current
        self.key_index = 0 if parent is None else parent.index
        self.pointer: str | None = None
        self.path: str | None = None
        self.names: set[str] = set()
        self.wanted_within = False
        if within and (parent is None or parent.wanted_within):
            self.wanted_within = self.location()[0] in within

    def location(self) -> tuple[str, str | None]:
        """The pointer and the path of this container."""
        pointer = self.pointer
        if pointer is None:
            parent = self.parent
            if parent is None:
                pointer = ""
            else:
                parent_pointer, parent_path = parent.location()
                pointer, self.path = _child(
                    parent_pointer, parent_path, parent.is_object, self.key_name, self.key_index
                )
            self.pointer = pointer
        return pointer, self.path

    def here(self) -> tuple[str, str | None]:
        """The pointer and the path of the value being read in this container."""
        pointer, path = self.location()
        return _child(pointer, path, self.is_object, self.current, self.index)


def _child(
    pointer: str, path: str | None, is_object: bool, name: str, index: int
) -> tuple[str, str | None]:
    """The pointer and path of a member `name` of an object, or item `index` of an array."""
    if is_object:
        return f"{pointer}/{escaped_token(name)}", member_path(path, name)
    return f"{pointer}/{index}", item_path(path or "", index)


def _within(wanted: frozenset[str]) -> frozenset[str]:
    """The pointers of the containers that hold a pointer of `wanted`."""
    found: set[str] = set()
    for pointer in wanted:
        end = pointer.rfind("/")
        while end >= 0:
            found.add(pointer[:end])
            end = pointer.rfind("/", 0, end)
    return frozenset(found)


def place(text: str, offset: int) -> tuple[int, int]:
    """The line and column, both from 1, of `offset` in `text`.

    A line ends at a line feed (CR LF included: the column after it is 1); the column counts
    characters, each code point one, astral ones included (D-positions).
    """
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def scan_text(
    text: str, wanted: frozenset[str], max_depth: int, most: int = VIOLATIONS_MAX
) -> TextScan:
    """Walk the JSON text `text`; note the offset of each value whose pointer is in `wanted`.

    Every member name repeated in its object, string holding a surrogate code point (in its
    name too), number that is `NaN`, an infinity or rounds to one as an IEEE double, and the
    first container nested deeper than `max_depth`, is a `TextProblem`, placed at its own token;
    the walk stops at the `most`-th, as a result reports no more (D-hostile-input). Where a name
    repeats, the offset noted for its pointer is its last value's, the one decoders keep.

    Runs of values no problem can be in, and containers of such values, are passed over by one
    regular expression each where no wanted value is in them, so that the walk's cost in Python
    grows with the containers and the suspect values of the text rather than with its tokens.
    """
    runs = _runs()
    found = TextScan()
    problems = found.problems
    within = _within(wanted)
    end = len(text)
    stack: list[_Frame] = []
    top: _Frame | None = None
    pos = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    while True:
        # A value starts at `pos`, in `top` (`None`: the text's own value).
        if len(problems) >= most:
            del problems[most:]
            return found
        here: str | None = None
        if wanted and (top is None or top.wanted_within):
            here = "" if top is None else top.here()[0]
            if here in wanted:
                found.starts[here] = pos
        char = text[pos] if pos < end else ""
        if char == "{" or char == "[":
            if len(stack) == max_depth:
                problems.append(_problem(DEPTH, top, pos))
                return found
            # A container of scalars is passed over whole, but the text's own value: it is
            # what the walk is for, and the runs in it find the same at less cost.
            passed = -1
            if top is not None and not (here is not None and here in within):
                passed = _pass_flat(text, pos, runs)
            if passed >= 0:
                pos = passed
            else:
                frame = _Frame(char == "{", top, within)
                stack.append(frame)
                top = frame
                pos += 1
                if pos < end and text[pos] in JSON_WHITESPACE:
                    pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
                room = len(stack) < max_depth
                if pos < end and text[pos] == ("}" if frame.is_object else "]"):
                    stack.pop()
                    top = stack[-1] if stack else None
                    pos += 1
                elif frame.is_object:
                    pos = _member(text, pos, frame, problems, runs, room)
                    if pos < 0:
                        return found
                    continue
                else:
                    if not frame.wanted_within:
                        pos = _pass_items(text, pos, frame, runs, room)
                    continue
        elif char == '"':
            try:
                string, after = scanstring(text, pos + 1, True)
            except (JSONDecodeError, ValueError):
                return found
            if SURROGATE_CHARACTER.search(string) is not None:
                problems.append(_problem(SURROGATE, top, pos))
            pos = after
        else:
            number = _NUMBER.match(text, pos)
            if number is not None:
                if math.isinf(float(number.group())):
                    problems.append(_problem(NUMBER, top, pos))
                pos = number.end()
            else:
                word = _word_at(text, pos)
                if word is None:
                    return found
                if word in _CONSTANTS:
                    problems.append(_problem(NUMBER, top, pos))
                pos += len(word)
        # After a value: a comma, or the end of its container, or of the text.
        while True:
            if pos < end and text[pos] in JSON_WHITESPACE:
                pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
            if top is None:
                found.complete = pos == end and len(problems) <= most
                del problems[most:]
                return found
            char = text[pos] if pos < end else ""
            if char == ",":
                pos += 1
                if pos < end and text[pos] in JSON_WHITESPACE:
                    pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
                room = len(stack) < max_depth
                if top.is_object:
                    pos = _member(text, pos, top, problems, runs, room)
                    if pos < 0:
                        return found
                else:
                    top.index += 1
                    if not top.wanted_within:
                        pos = _pass_items(text, pos, top, runs, room)
                break
            if char == ("}" if top.is_object else "]"):
                stack.pop()
                top = stack[-1] if stack else None
                pos += 1
                continue
            return found


def _problem(kind: str, top: _Frame | None, offset: int) -> TextProblem:
    """A problem of the value being read in `top` (`None`: the text's value), at `offset`."""
    pointer, path = ("", None) if top is None else top.here()
    return TextProblem(kind, pointer, path, offset)


def _pass_flat(text: str, pos: int, runs: _Runs) -> int:
    """The end of the container at `pos` when it holds scalars only, none a problem, else -1."""
    flat = runs.flat.match(text, pos)
    if flat is None:
        return -1
    stop = flat.end()
    # No name repeats in an object of one member: one colon or none, a string's included.
    repeats = (
        text[pos] == "{"
        and text.count(":", pos, stop) > 1
        and _before_repeat(text, pos + 1, stop - 1, set(), runs) < stop - 1
    )
    return -1 if repeats else stop


def _pass_items(text: str, pos: int, frame: _Frame, runs: _Runs, room: bool) -> int:
    """Pass over the items from `pos` of the array `frame` that hold no problem, but the last.

    `room` says whether a container may be nested in it. The answer is the offset of the next
    item to read; `frame.index` becomes its index.
    """
    stop = (runs.shallow_items if room else runs.scalar_items).match(text, pos).end()  # type: ignore[union-attr]
    if stop == pos:
        return pos
    if room and text.find("{", pos, stop) >= 0:
        stop = _before_repeat(text, pos, stop, None, runs)
    if runs.not_only_scalars.search(text, pos, stop) is None:
        frame.index += text.count(",", pos, stop)  # each item passed is followed by its comma
    else:
        frame.index += len(runs.shallow_item.findall(text, pos, stop))
    return stop


def _pass_members(text: str, pos: int, frame: _Frame, runs: _Runs, room: bool) -> int:
    """Pass over the members from `pos` of the object `frame` that hold no problem, but the last.

    `room` as for `_pass_items`. The answer is the offset of the next member to read, and the
    names passed are added to `frame.names`.
    """
    stop = (runs.shallow_members if room else runs.scalar_members).match(text, pos).end()  # type: ignore[union-attr]
    if stop == pos:
        return pos
    return _before_repeat(text, pos, stop, frame.names, runs)


def _before_repeat(text: str, pos: int, stop: int, names: set[str] | None, runs: _Runs) -> int:
    """Where the run from `pos` to `stop` ends: before its first member or item holding a repeat.

    A repeat of one of its own members' names (`names` holds those of its object read before
    the run; `None` for a run of items), or in an object that is a value of the run. The names
    of the run's own members passed are added to `names`.
    """
    tokens = runs.tokens.findall(text, pos, stop)
    own: list[str] = []
    first = _first_repeat(tokens, names, own)
    if names is not None:
        names.update(own)
    if first < 0:
        return stop
    # Found again with their offsets, up to that token only.
    for index, token in enumerate(runs.tokens.finditer(text, pos, stop)):
        if index == first:
            return token.start()
    return stop


def _first_repeat(
    tokens: list[tuple[str, str, str]], names: set[str] | None, own: list[str]
) -> int:
    """The index of the token that starts the first member or item holding a repeat, or -1.

    `tokens` are a run's strings and braces, `names` as for `_before_repeat`; the names of the
    run's own members before that one are added to `own`, in order.
    """
    seen: set[str] = set()
    inner: set[str] = set()
    in_inner = False
    unit = 0
    for index, (string, colon, brace) in enumerate(tokens):
        if brace:
            in_inner = brace == "{"
            inner.clear()
            if in_inner and names is None:  # an object that is an item of the run
                unit = index
            continue
        if not colon:
            continue
        if "\\" in string:
            string = _unescaped(string)
        if in_inner:
            if string in inner:
                if names is not None:  # the member whose value holds it is not passed
                    own.pop()
                return unit
            inner.add(string)
        else:
            unit = index
            if string in seen or (names is not None and string in names):
                return unit
            seen.add(string)
            own.append(string)
    return -1


def _unescaped(written: str) -> str:
    """The string written between two quotes as `written`, its escapes read."""
    string: str = scanstring(written + '"', 0, True)[0]
    return string


def _member(
    text: str, pos: int, frame: _Frame, problems: list[TextProblem], runs: _Runs, room: bool
) -> int:
    """Read the member name at `pos` of the object `frame`, and its colon.

    The answer is the offset of its value, or -1 when there is no name and colon there. The
    problems of the name (a repeat, a surrogate) are added to `problems`, at the name. Members
    before it that hold no problem are passed over first (`_pass_members`).
    """
    if not frame.wanted_within:
        pos = _pass_members(text, pos, frame, runs, room)
    if pos >= len(text) or text[pos] != '"':
        return -1
    try:
        name, after = scanstring(text, pos + 1, True)
    except (JSONDecodeError, ValueError):
        return -1
    frame.current = name
    if name in frame.names:
        problems.append(_problem(DUPLICATE, frame, pos))
    else:
        frame.names.add(name)
    if SURROGATE_CHARACTER.search(name) is not None:
        problems.append(_problem(SURROGATE, frame, pos))
    after = _WHITESPACE.match(text, after).end()  # type: ignore[union-attr]
    if after >= len(text) or text[after] != ":":
        return -1
    return _WHITESPACE.match(text, after + 1).end()  # type: ignore[union-attr]


def _word_at(text: str, pos: int) -> str | None:
    """The literal or the constant at `pos`, or `None`."""
    for word in _LITERALS + _CONSTANTS:
        if text.startswith(word, pos):
            return word
    return None
