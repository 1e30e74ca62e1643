"""Properties of `validate_create_json` and `validate_update_json` (D-body-limits, D-positions).

On any I-JSON text the verdict is `validate_create`'s on its decoded value: ok, each
violation's key, field, rule and pointer in order, and the value; a text that is not I-JSON is
refused by the body rules alone; no data raises. Each runs with the decoder as installed and
with the standard library's forced (the two paths of `_core.strict_json`), on either build.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import (
    CreateAccepted,
    CreateRefused,
    Violation,
    validate_create,
    validate_create_json,
    validate_update,
    validate_update_json,
)
from campaign_rules import strategies as cs
from campaign_rules._core import json_text
from campaign_rules._core.json import NotJson, decode_json
from campaign_rules._core.json_syntax import SYNTAX_REASONS
from campaign_rules._core.limits import BODY_MAX_DEPTH, VIOLATIONS_MAX
from campaign_rules._core.unicode import has_surrogate
from tests.property import strategies as s
from tests.support import JSON_DECODERS, json_decoder, payload


def verdict(result: Any) -> tuple[Any, ...]:
    return (
        result.ok,
        [(v.key, v.field, v.rule, v.pointer) for v in result.violations],
        result.value,
    )


def is_i_json(value: object) -> bool:
    """Whether `value` (as `json.loads` gives it) is the value of an I-JSON text, checked apart
    from the library: finite numbers a double holds, Unicode strings and names, no deeper than
    the limit (`json.dumps` writes no repeated name)."""
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        current, depth = pending.pop()
        if type(current) in (dict, list):
            if depth == BODY_MAX_DEPTH:
                return False
            if type(current) is dict:
                for name, member in current.items():  # type: ignore[attr-defined]
                    if has_surrogate(name):
                        return False
                    pending.append((member, depth + 1))
            else:
                items: list[object] = current  # type: ignore[assignment]
                pending.extend((item, depth + 1) for item in items)
        elif (type(current) is str and has_surrogate(current)) or (
            type(current) is float and not math.isfinite(current)
        ):
            return False
        elif type(current) is int:
            try:
                float(current)
            except OverflowError:
                return False
    return True


def _texts(value: object) -> list[str]:
    """The texts of `value`: compact, indented, with non-ASCII as escapes and as it is."""
    return [
        json.dumps(value),
        json.dumps(value, indent=2, ensure_ascii=False),
        json.dumps(value, separators=(",", ":")).replace("\n", "\r\n"),
    ]


def check_text_agrees(value: object) -> None:
    for text in _texts(value):
        decoded = json.loads(text)
        for data in (text, text.encode("utf-8", "surrogatepass")):
            result = validate_create_json(data)
            assert type(result) in (CreateAccepted, CreateRefused)
            if is_i_json(decoded):
                assert verdict(result) == verdict(validate_create(decoded))
                for violation in result.violations:
                    assert violation.line is not None
                    assert violation.column is not None
            else:
                assert not result.ok
                assert all(v.rule.startswith("body.") for v in result.violations), result


def _dumpable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


json_bodies = st.one_of(
    cs.create_payloads(),
    cs.invalid_create_payloads(json_only=True).map(lambda defect: defect[0]),
    s.spliced_payloads(),
    s.json_like,
).filter(_dumpable)


@JSON_DECODERS
@given(value=json_bodies)
def test_the_verdict_on_a_text_is_that_on_its_value(decoder: str, value: Any) -> None:
    with json_decoder(decoder):
        check_text_agrees(value)


# Hostile bytes: cut, spliced, repeated names, marks, surrogates, random bytes.
_VALID_TEXT = json.dumps(payload("scheduled"), indent=1).encode()
_MUTATIONS = [
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\\ud800",
    b'"\\udc00"',
    b"\xed\xa0\x80",
    b'"name": 1, "name": 2,',
    b'{"a": {"a": 1, "a": 2}}',
    b"NaN",
    b"1e999",
    b"[" * 70,
    b"\\u003a",
    b":",
    b"\x00",
]


@st.composite
def hostile_bytes(draw: st.DrawFn) -> bytes:
    base = draw(st.sampled_from([_VALID_TEXT, json.dumps(draw(json_bodies)).encode()]))
    kind = draw(st.sampled_from(["cut", "insert", "random"]))
    if kind == "cut":
        return base[: draw(st.integers(0, len(base)))]
    if kind == "insert":
        at = draw(st.integers(0, len(base)))
        return base[:at] + draw(st.sampled_from(_MUTATIONS)) + base[at:]
    return draw(st.binary(max_size=64))


def assert_no_raise_and_well_formed(result: Any) -> None:
    assert type(result) is (CreateRefused if result.violations else CreateAccepted)
    assert all(type(v) is Violation for v in result.violations)
    assert len(result.violations) <= VIOLATIONS_MAX + 103
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False, ensure_ascii=False).encode("utf-8")
    for violation in result.violations:
        assert (violation.line is None) is (violation.column is None)


@JSON_DECODERS
@given(data=hostile_bytes())
def test_hostile_bytes_never_raise(decoder: str, data: bytes) -> None:
    with json_decoder(decoder):
        for given_as in (data, bytearray(data), memoryview(data)):
            result = validate_create_json(given_as)
            assert_no_raise_and_well_formed(result)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        assert verdict(validate_create_json(text)) == verdict(validate_create_json(data))


@JSON_DECODERS
def test_every_truncation_of_a_valid_body_never_raises(decoder: str) -> None:
    with json_decoder(decoder):
        for end in range(len(_VALID_TEXT) + 1):
            result = validate_create_json(_VALID_TEXT[:end])
            assert_no_raise_and_well_formed(result)
            assert result.ok is (end == len(_VALID_TEXT))


@JSON_DECODERS
@given(depth=st.integers(1, 200), opening=st.sampled_from(["[", '{"a":']))
def test_nesting_is_refused_past_the_limit_only(decoder: str, depth: int, opening: str) -> None:
    closing = "]" if opening == "[" else "}"
    text = opening * depth + "1" + closing * depth
    with json_decoder(decoder):
        rules = [v.rule for v in validate_create_json(text).violations]
    assert rules == (
        ["body.depth_within_limit"]
        if depth > BODY_MAX_DEPTH
        else ["payload.is_object"]
        if opening == "["
        else rules
    )
    if depth > BODY_MAX_DEPTH:
        assert rules == ["body.depth_within_limit"]


@JSON_DECODERS
@given(
    depth=st.integers(0, BODY_MAX_DEPTH - 3),
    in_array=st.booleans(),
    name=st.text(max_size=3),
    between=st.lists(
        st.sampled_from(['"b": 1', '"c": "x:y"', '"d": [1]']), max_size=2, unique=True
    ),
)
def test_a_repeated_name_at_any_depth_is_found(
    decoder: str, depth: int, in_array: bool, name: str, between: list[str]
) -> None:
    if has_surrogate(name) or name in ("b", "c", "d"):
        return
    spelt = json.dumps(name)
    inner = "{" + ", ".join([f"{spelt}: 1", *between, f"{spelt}: 2"]) + "}"
    opening, closing, step = ("[", "]", "/0") if in_array else ('{"k": ', "}", "/k")
    text = json.dumps(payload())[:-1] + ', "x": ' + opening * depth + inner + closing * depth + "}"
    with json_decoder(decoder):
        result = validate_create_json(text)
    assert [v.rule for v in result.violations] == ["body.member_names_unique"]
    escaped = name.replace("~", "~0").replace("/", "~1")
    assert result.violations[0].pointer == "/x" + step * depth + "/" + escaped
    line, column = result.violations[0].line, result.violations[0].column
    # At the repeated name's opening quote (D-positions).
    assert (line, column) == (1, text.rindex(f"{spelt}: 2") + 1)


@given(data=st.data())
def test_a_patch_as_text_agrees_with_the_patch(data: st.DataObject) -> None:
    existing = validate_create(data.draw(cs.create_payloads())).value
    assert existing is not None
    patch = data.draw(
        st.one_of(
            cs.update_patches(existing),
            cs.invalid_update_patches(existing).map(lambda defect: defect[0]),
        )
    )
    for text in _texts(patch):
        result = validate_update_json(existing, text.encode())
        assert verdict(result) == verdict(validate_update(existing, json.loads(text)))


# Each message `body.is_json` may give: a whole sentence of the library's (issue 37), each
# telling what is wrong ("other" is for a message of a `json` module yet to come).
_REASONS = {reason for kind, reason in SYNTAX_REASONS.items() if kind != "other"}
_NOT_JSON_MESSAGES = {f"the request body must be JSON: {reason}" for reason in _REASONS}


@JSON_DECODERS
@given(
    value=json_bodies,
    indent=st.sampled_from([None, 1]),
    cut=st.floats(0, 1, exclude_max=True),
)
def test_a_truncated_body_is_refused_with_a_sentence_of_the_librarys(
    decoder: str, value: Any, indent: int | None, cut: float
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    text = text[: int(len(text) * cut)]
    with json_decoder(decoder):
        for data in (text, text.encode("utf-8", "surrogatepass")):
            for violation in validate_create_json(data).violations:
                if violation.rule == "body.is_json":
                    assert violation.message in _NOT_JSON_MESSAGES
        reason = _not_json_reason(text)
        assert (
            reason is None
            or reason in _REASONS
            or reason.endswith(("is not a JSON value", "more than a double holds"))
        )


def _not_json_reason(text: str) -> str | None:
    """Why `decode_json` (the command line's reader and the audit's) refuses `text`, if it does."""
    try:
        decode_json(text)
    except NotJson as refused:
        return refused.reason
    return None


@JSON_DECODERS
@given(data=hostile_bytes())
def test_any_text_that_is_no_json_is_refused_with_a_sentence_of_the_librarys(
    decoder: str, data: bytes
) -> None:
    with json_decoder(decoder):
        for violation in validate_create_json(data).violations:
            if violation.rule == "body.is_json":
                assert violation.message in _NOT_JSON_MESSAGES


# Texts written token by token with the offset of each problem noted as it is written
# (issue 36, D-positions): a problem is placed at its own token, whatever comes before it, and
# whatever shadows it.
_PROBLEM_VALUES = {
    "1e999": "number",
    "-1E+400": "number",
    "NaN": "number",
    "-Infinity": "number",
    "1" + "0" * 400: "number",
    "2e308": "number",
    "99999999999e299": "number",
    '"\\ud800"': "surrogate",
    '"x\\udfff,"': "surrogate",
    '"\\ud83d"': "surrogate",
}
_NAMES = ["a", "b", "a,b", '":x', "\\", "é😀", "a/b~", "\ud800", "\udc00y"]
_SPACES = st.sampled_from(["", " ", "\n", "\r\n", "\t", "\n  "])


class _Problem:
    def __init__(self, token: str) -> None:
        self.token = token


class _Object:
    def __init__(self, members: list[tuple[str, object]]) -> None:
        self.members = members


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.sampled_from(sorted(_PROBLEM_VALUES)).map(_Problem),
)
_TREES = st.recursive(
    _LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.lists(st.tuples(st.sampled_from(_NAMES), children), max_size=6).map(_Object),
    ),
    max_leaves=30,
)


def _written(
    draw: st.DrawFn, tree: object, pointer: str, out: list[str], found: list[tuple[str, str, int]]
) -> None:
    """Write `tree` to `out`, noting each problem as (kind, pointer, offset) in text order."""
    offset = sum(map(len, out))
    if isinstance(tree, _Problem):
        out.append(tree.token)
        found.append((_PROBLEM_VALUES[tree.token], pointer, offset))
    elif isinstance(tree, _Object):
        out.append("{" + draw(_SPACES))
        seen: set[str] = set()
        for index, (name, value) in enumerate(tree.members):
            if index:
                out.append(draw(_SPACES) + "," + draw(_SPACES))
            here = f"{pointer}/{name.replace('~', '~0').replace('/', '~1')}"
            at = sum(map(len, out))
            if name in seen:
                found.append(("duplicate", here, at))
            if has_surrogate(name):
                found.append(("surrogate", here, at))
            seen.add(name)
            out.append(json.dumps(name, ensure_ascii=draw(st.booleans())))
            out.append(draw(_SPACES) + ":" + draw(_SPACES))
            _written(draw, value, here, out, found)
        out.append(draw(_SPACES) + "}")
    elif isinstance(tree, list):
        out.append("[" + draw(_SPACES))
        for index, item in enumerate(tree):
            if index:
                out.append(draw(_SPACES) + "," + draw(_SPACES))
            _written(draw, item, f"{pointer}/{index}", out, found)
        out.append(draw(_SPACES) + "]")
    else:
        out.append(json.dumps(tree, ensure_ascii=draw(st.booleans())))


_RULE_OF_KIND = {
    "duplicate": "body.member_names_unique",
    "surrogate": "body.strings_are_unicode",
    "number": "body.numbers_fit_a_double",
}


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    lines = text[:offset].split("\n")
    return len(lines), len(lines[-1]) + 1


@JSON_DECODERS
@given(data=st.data())
def test_each_problem_is_placed_at_its_own_token(decoder: str, data: st.DataObject) -> None:
    out: list[str] = [data.draw(_SPACES)]
    found: list[tuple[str, str, int]] = []
    _written(data.draw, data.draw(_TREES), "", out, found)
    text = "".join(out)
    if not found:
        return
    with json_decoder(decoder):
        result = validate_create_json(text)
    # Each rule's violations in the text's order, the rules in the table's, the first 50.
    expected = [
        (_RULE_OF_KIND[kind], pointer, *_line_and_column(text, offset))
        for kind in ("duplicate", "surrogate", "number")
        for kind_found, pointer, offset in found[:VIOLATIONS_MAX]
        if kind_found == kind
    ]
    assert [(v.rule, v.pointer, v.line, v.column) for v in result.violations] == expected


_NUMBER_TEXTS = st.builds(
    lambda sign, whole, fraction, exponent: sign + whole + fraction + exponent,
    st.sampled_from(["", "-"]),
    st.one_of(st.just("0"), st.from_regex(r"[1-9][0-9]{0,210}", fullmatch=True)),
    st.one_of(st.just(""), st.from_regex(r"\.[0-9]{1,5}", fullmatch=True)),
    st.one_of(st.just(""), st.from_regex(r"[eE][-+]?0{0,2}[0-9]{1,3}", fullmatch=True)),
)


@given(number=_NUMBER_TEXTS)
def test_a_number_the_walk_passes_over_is_one_a_double_holds(number: str) -> None:
    # The runs of `scan_text` pass over the values their expression matches unread: never one
    # that rounds to an infinity (issue 36).
    if re.fullmatch(json_text._SCALAR, number) is not None:
        assert math.isfinite(float(number))


@given(text=st.text(), ascii_only=st.booleans())
def test_a_string_the_walk_passes_over_holds_no_surrogate(text: str, ascii_only: bool) -> None:
    written = json.dumps(text, ensure_ascii=ascii_only)
    if re.fullmatch(json_text._SCALAR, written) is not None:
        assert not has_surrogate(json.loads(written))
    if not has_surrogate(text):
        # A string without a surrogate code point is passed over, escaped or not.
        assert re.fullmatch(json_text._SCALAR, written) is not None
