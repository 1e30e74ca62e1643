"""The fast JSON decoder gives exactly the standard library's answers (D-audit-fast-decoder).

Where msgspec is installed, `decode_json` (the audit's and the command line's decoder) reads a
text with msgspec's decoder first. On hostile lines (JSON values with huge integers, floats
that overflow, NaN and Infinity, lone surrogates, duplicate members, deep nesting, a byte order
mark, control characters and white space around them, then cut, spliced and mutated; and raw
bytes), its answer must be `json`'s: the same value, of the same types, member order and float
bits, or the same reason and position when there is none; and the audit's verdict on each line
must be the one it gives with the standard library alone.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import campaign_rules._core.json as json_core
from campaign_rules._core.json import NotJson, decode_json, decode_json_stdlib
from campaign_rules.audit import violation_rows
from tests.audit_support import BROKEN, INVALID, VALID
from tests.support import json_decoder

msgspec = pytest.importorskip("msgspec", reason="the fast decoder needs msgspec (the fast extra)")


def _typed(value: object) -> list[object]:
    """`value` as a flat list of tokens: the type of every part, member order, float bits.

    A walk with its own stack, since a value may be nested a thousand deep.
    """
    tokens: list[object] = []
    pending = [value]
    while pending:
        current = pending.pop()
        if type(current) is dict:
            tokens.append(("object", len(current)))
            for name, member in reversed(list(current.items())):
                pending.append(member)
                pending.append(("name", name))
        elif type(current) is list:
            tokens.append(("array", len(current)))
            pending.extend(reversed(current))
        elif type(current) is float:
            tokens.append(("float", "nan" if math.isnan(current) else current.hex()))
        elif type(current) is tuple:  # a member name, pushed above
            tokens.append(current)
        else:
            tokens.append((type(current).__name__, current))
    return tokens


def _outcome(decode, text: str) -> object:
    try:
        return ("value", _typed(decode(text)))
    except NotJson as error:
        return ("not json", error.reason, error.where)


def _fast_decoder_in_use() -> bool:
    decode_json("0")
    return json_core._fast_decoder[0] is not None


# JSON values as `json.dumps` writes them, with what JSON has not (NaN, the infinities) and
# what the decoders read differently: integers past 64 bits and past `int`'s 4,300 digits,
# floats that round to infinity or to zero, lone surrogates, every code point.
_INTEGERS = st.integers() | st.integers(min_value=-(10**30), max_value=10**30)
_LONG_INTEGERS = st.builds(
    lambda sign, digits: sign + "1" * digits,
    st.sampled_from(["", "-"]),
    st.integers(15, 40) | st.integers(4290, 4310),
)
_NUMBER_TEXTS = _LONG_INTEGERS | st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,4})?\Z", fullmatch=True
)
_SCALARS = (
    st.none()
    | st.booleans()
    | _INTEGERS
    | st.floats()
    | st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["a", "name", "retries"]), children, max_size=4
        )
    ),
    max_leaves=12,
)
_JSONISH = st.sampled_from(
    list('{}[]":,0123456789.eE+-truefalsnl \t\r\n\\/u\x00\x1f\x7f\ufeffé😀\ud800')
)


@st.composite
def _hostile_texts(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["value", "number", "number", "body", "nested", "jsonish"]))
    if kind == "value":
        text = json.dumps(draw(_VALUES), ensure_ascii=draw(st.booleans()))
    elif kind == "number":
        text = draw(_NUMBER_TEXTS)
    elif kind == "body":
        text = draw(st.sampled_from([VALID, INVALID, BROKEN]))
    elif kind == "nested":
        depth = draw(st.integers(0, 1200))
        opening, closing = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        inner = draw(st.sampled_from(["", "1", "[]", "{}"]))
        text = opening * depth + inner + closing * draw(st.integers(max(0, depth - 1), depth))
    else:
        text = "".join(draw(st.lists(_JSONISH, max_size=30)))
    # Mutations: a duplicate member, a cut, a splice, white space or worse around the text.
    for _ in range(draw(st.integers(0, 3))):
        mutation = draw(st.sampled_from(["cut", "insert", "delete", "around", "duplicate"]))
        at = draw(st.integers(0, len(text)))
        if mutation == "cut":
            text = text[:at]
        elif mutation == "insert":
            text = text[:at] + draw(_JSONISH) + text[at:]
        elif mutation == "delete":
            text = text[:at] + text[at + 1 :]
        elif mutation == "around":
            before, after = draw(
                st.lists(
                    st.sampled_from(["", " ", "\t", "\r\n", "\n", "\ufeff", "\x0c", "\x00"]),
                    min_size=2,
                    max_size=2,
                )
            )
            text = before + text + after
        elif text.startswith("{") and len(text) > 2:
            text = '{"retries": 9, "retries": "x", ' + text[1:]
    return text


@given(_hostile_texts())
def test_decode_json_gives_the_standard_librarys_answer(text):
    assert _fast_decoder_in_use()
    try:
        msgspec.json.decode(text)
        event("msgspec read it")
    except Exception:
        event("msgspec refused it: json decides")
    assert _outcome(decode_json, text) == _outcome(decode_json_stdlib, text)


@given(
    st.one_of(
        _hostile_texts().map(lambda text: text.encode("utf-8", "surrogatepass")),
        _hostile_texts(),
        st.binary(max_size=40),
        # msgspec reads a line's bytes: bytes that are not UTF-8 anywhere in a line.
        st.builds(
            lambda text, at, junk: text.encode()[:at] + junk + text.encode()[at:],
            _hostile_texts().map(
                lambda text: text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
            ),
            st.integers(0, 800),
            st.binary(min_size=1, max_size=4).filter(lambda junk: not junk.isascii()),
        ),
    )
)
def test_the_audit_gives_every_line_the_verdict_of_the_standard_library(line):
    assert _fast_decoder_in_use()
    fast = list(violation_rows([line]))
    with json_decoder("stdlib"):
        assert not _fast_decoder_in_use()
        standard = list(violation_rows([line]))
    assert fast == standard


@pytest.mark.parametrize(
    "text",
    [
        "18446744073709551616",  # past 64 bits: an int for both (orjson would give a float)
        "-" + "9" * 4300,  # the most digits `int` reads
        "1" * 4301,  # one more: refused by both, with the same reason, placed
        "1e400",  # `json` reads infinity, msgspec refuses it
        "[-1.7976931348623159e308]",
        '"\\ud800"',  # an escaped lone surrogate: `json` reads it
        '{"\\udc00": 1}',
        '{"a": 1, "b": 2, "a": 3}',  # the last of a repeated member, in the first one's place
        "\ufeff{}",
        "NaN",
        "-Infinity",
        "[1,]",
        "[" * 600 + "]" * 600,  # deeper than the fast decoder is trusted with
        "[" * 990 + "]" * 990,
        "[" * 5000,
        " {} \r\n",
        "{}\x0c",
        "-0",
        "-0.0",
        "1E2",
        "0.30000000000000004",
    ],
)
def test_the_known_differences_get_the_standard_librarys_answer(text):
    assert _fast_decoder_in_use()
    assert _outcome(decode_json, text) == _outcome(decode_json_stdlib, text)
