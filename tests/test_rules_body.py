"""The rules on the body as received (`campaign_rules._rules.body`), through `validate_create_json`.

Sources: RFC 8259, RFC 7493; decisions D-body-limits, D-byte-order-mark, D-lone-surrogates.
Both sides of each bound; the case files (`tests/cases/body.*.json`) hold more.
"""

from __future__ import annotations

import ast
import itertools
import json
import sys
from pathlib import Path
from typing import Any, Final

import pytest

from campaign_rules import ErrorKey, validate_create, validate_create_json, validate_update_json
from campaign_rules._audit import read_line
from campaign_rules._core import json_syntax
from campaign_rules._core.json import NotJson, decode_json
from campaign_rules._core.json_syntax import (
    JSON_WHITESPACE,
    JSON_WHITESPACE_BYTES,
    SYNTAX_REASONS,
)
from campaign_rules._core.limits import BODY_MAX_BYTES, BODY_MAX_DEPTH, VIOLATIONS_MAX
from tests.support import JSON_DECODERS, json_decoder, label, payload

INVALID = ErrorKey.INVALID_REQUEST
BODY = payload("phone_call")
TEXT = json.dumps(BODY)
HEAD = TEXT[:-1]  # the body's object, open for one more member


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def rules(result: Any) -> list[str]:
    return [v.rule for v in result.violations]


def sized(size: int, char: str = "d") -> str:
    """The valid body's text with a `description` of `char`s making it `size` UTF-8 bytes."""
    short = len((HEAD + ', "description": ""}').encode("utf-8"))
    count, rest = divmod(size - short, len(char.encode("utf-8")))
    return HEAD + ', "description": "' + char * count + "d" * rest + '"}'


class TestBodyIsBytesOrText:
    @pytest.mark.parametrize(
        "data",
        [TEXT, TEXT.encode(), bytearray(TEXT.encode()), memoryview(TEXT.encode())],
        ids=["str", "bytes", "bytearray", "memoryview"],
    )
    def test_bytes_and_text_are_read(self, data: object) -> None:
        result = validate_create_json(data)
        assert result.ok
        assert result.value == validate_create(BODY).value

    @pytest.mark.parametrize("data", [None, 5, BODY, [TEXT], object()], ids=label)
    def test_anything_else_is_the_callers_bug(self, data: object) -> None:
        result = validate_create_json(data)
        assert found(result) == [(ErrorKey.SERVER_ERROR, None, "body.is_bytes_or_text")]
        assert result.status == 500
        assert result.violations[0].line is None

    def test_a_released_view_is_refused_not_raised(self) -> None:
        view = memoryview(TEXT.encode())
        view.release()
        assert rules(validate_create_json(view)) == ["body.is_bytes_or_text"]

    def test_str_and_bytes_subclasses_are_read_as_their_base(self) -> None:
        class Text(str):
            def __len__(self) -> int:
                raise AssertionError("no code of the subclass runs")

        assert validate_create_json(Text(TEXT)).ok


class TestBodyWithinSizeLimit:
    @pytest.mark.parametrize("char", ["d", "é", "🚀"], ids=["ascii", "two bytes", "four bytes"])
    def test_the_limit_is_read(self, char: str) -> None:
        text = sized(BODY_MAX_BYTES, char)
        assert len(text.encode("utf-8")) == BODY_MAX_BYTES
        assert validate_create_json(text).ok
        assert validate_create_json(text.encode()).ok

    @pytest.mark.parametrize("char", ["d", "é", "🚀"], ids=["ascii", "two bytes", "four bytes"])
    def test_one_byte_more_is_refused_unread(self, char: str) -> None:
        text = sized(BODY_MAX_BYTES + 1, char)
        for data in (text, text.encode()):
            result = validate_create_json(data)
            assert found(result) == [(INVALID, None, "body.within_size_limit")]
            assert result.violations[0].line is None

    def test_a_huge_body_is_refused_whatever_it_holds(self) -> None:
        assert rules(validate_create_json(b"\xff" * (BODY_MAX_BYTES * 4))) == [
            "body.within_size_limit"
        ]


class TestBodyHasNoByteOrderMark:
    @pytest.mark.parametrize(
        "data",
        [
            b"\xef\xbb\xbf" + TEXT.encode(),
            "\ufeff" + TEXT,
            "\ufeff".encode("utf-16"),
            b"\xef\xbb\xbf",
        ],
        ids=["utf-8", "str", "utf-16", "only the mark"],
    )
    def test_a_mark_is_refused_at_the_start(self, data: object) -> None:
        result = validate_create_json(data)
        assert found(result) == [(INVALID, None, "body.has_no_byte_order_mark")]
        assert (result.violations[0].line, result.violations[0].column) == (1, 1)

    def test_a_mark_after_white_space_is_no_json(self) -> None:
        assert rules(validate_create_json(" \ufeff" + TEXT)) == ["body.is_json"]


class TestBodyIsUtf8:
    @pytest.mark.parametrize(
        "raw", [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]
    )
    def test_bytes_that_are_no_utf8_are_refused_where_they_are(self, raw: bytes) -> None:
        data = (HEAD + ', "description": "é ').encode() + raw + b'"}'
        result = validate_create_json(data)
        assert found(result) == [(INVALID, None, "body.is_utf8")]
        column = len(HEAD + ', "description": "é ') + 1
        assert (result.violations[0].line, result.violations[0].column) == (1, column)

    def test_every_code_point_in_utf8_is_read(self) -> None:
        text = HEAD + ', "description": "\x7f\u07ff\uffff\U0010ffff"}'
        assert validate_create_json(text.encode()).ok


class TestBodyIsJson:
    @pytest.mark.parametrize(
        ("text", "place"),
        [("", (1, 1)), ("{", (1, 2)), (TEXT + " x", (1, len(TEXT) + 2)), ('{\n"a" 1}', (2, 5))],
        ids=["empty", "cut", "trailing data", "second line"],
    )
    def test_a_text_that_is_no_json_is_refused_where_it_stops(
        self, text: str, place: tuple[int, int]
    ) -> None:
        result = validate_create_json(text)
        assert found(result) == [(INVALID, None, "body.is_json")]
        assert (result.violations[0].line, result.violations[0].column) == place

    def test_every_truncation_of_a_body_is_refused_or_read(self) -> None:
        text = json.dumps(payload("scheduled"), indent=1)
        for end in range(len(text)):
            assert rules(validate_create_json(text[:end].encode())) == ["body.is_json"]

    # A text for each kind of syntax error, and where it stops being JSON.
    SYNTAX_ERRORS: Final = {
        "empty": ("", (1, 1)),
        "blank": (" \r\n\t", (2, 2)),
        "ends early": ('{"name": "x",\n "retries": ', (2, 13)),
        "unterminated string": ('{"name": "Spring ren', (1, 10)),
        "missing value": ('{"name": tru}', (1, 10)),
        "malformed number": ('{"retries": 1.}', (1, 14)),
        "trailing comma": ('{"retries": 1,}', (1, 15)),
        "missing name": ("{'name': 'x'}", (1, 2)),
        "missing colon": ('{"name" "x"}', (1, 9)),
        "missing comma": ('{"name": "x" "retries": 1}', (1, 14)),
        "trailing data": ("{} {}", (1, 4)),
        "invalid escape": ('{"name": "\\x"}', (1, 11)),
        "control character": ('{"name": "a\tb"}', (1, 12)),
    }

    @JSON_DECODERS
    @pytest.mark.parametrize("kind", sorted(SYNTAX_ERRORS))
    def test_each_syntax_error_is_a_whole_sentence_of_the_librarys(
        self, decoder: str, kind: str
    ) -> None:
        text, place = self.SYNTAX_ERRORS[kind]
        with json_decoder(decoder):
            for data in (text, text.encode()):
                [violation] = validate_create_json(data).violations
                assert violation.rule == "body.is_json"
                assert violation.message == "the request body must be JSON: " + SYNTAX_REASONS[kind]
                assert (violation.line, violation.column) == place
            # The command line and the audit read a file or a line with the same sentence.
            with pytest.raises(NotJson) as refused:
                decode_json(text)
            assert (refused.value.reason, refused.value.where) == (SYNTAX_REASONS[kind], place)

    def test_every_sentence_is_met_and_none_is_cut(self) -> None:
        assert set(self.SYNTAX_ERRORS) == set(SYNTAX_REASONS) - {"other"}
        for sentence in SYNTAX_REASONS.values():
            assert sentence[0].islower()
            assert not sentence.endswith((" at", ":", ",", " "))
            assert not any(word in sentence for word in ("Expecting", "delimiter", "sys."))


class TestJsonWhiteSpace:
    """JSON's four white-space characters, and no other, wherever a text is read (RFC 8259)."""

    # The four, and characters that other grammars call white space (a byte order mark has a
    # rule of its own).
    CHARACTERS: Final = " \t\n\r\v\f\x00\x1c\x85\xa0\u2028\u3000"

    @JSON_DECODERS
    @pytest.mark.parametrize("char", CHARACTERS, ids=lambda char: f"U+{ord(char):04X}")
    def test_a_text_and_a_line_read_json_s_white_space_only(self, decoder: str, char: str) -> None:
        blank = char in JSON_WHITESPACE
        repeated = f'{{{char}"a"{char}:{char}1{char},{char}"a"{char}:{char}2{char}}}'
        with json_decoder(decoder):
            for data in (char + TEXT + char, (char + TEXT + char).encode()):
                assert rules(validate_create_json(data)) == ([] if blank else ["body.is_json"])
            # The walk that places a repeated name steps over white space, and only over it.
            expected = "body.member_names_unique" if blank else "body.is_json"
            assert rules(validate_create_json(repeated))[0] == expected
            # The audit skips a line of white space, and reads any other.
            assert (read_line(char * 3) is None) is blank
            assert (read_line((char * 3).encode()) is None) is blank

    def test_the_bytes_are_the_text_s(self) -> None:
        assert JSON_WHITESPACE_BYTES == JSON_WHITESPACE.encode() == b" \t\n\r"

    def test_no_other_module_spells_it(self) -> None:
        # The one spelling is `_core.json_syntax`'s: a constant of the four characters, in any
        # order, or of their escapes in a regular expression, anywhere else is a second one.
        spellings = {
            "".join(order)
            for four in ((" ", "\t", "\n", "\r"), (" ", "\\t", "\\n", "\\r"))
            for order in itertools.permutations(four)
        }
        package = Path(json_syntax.__file__).resolve().parent.parent
        found = []
        for path in sorted(package.rglob("*.py")):
            if path.name == "json_syntax.py" and path.parent.name == "_core":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
                    value = node.value
                    text = value.decode("latin-1") if isinstance(value, bytes) else value
                    if any(spelling in text for spelling in spellings):
                        found.append(f"{path.relative_to(package)}:{node.lineno}")
        assert found == []


class TestDepthWithinLimit:
    @staticmethod
    def nested(depth: int) -> str:
        return HEAD + ', "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    def test_the_limit_is_read(self) -> None:
        assert rules(validate_create_json(self.nested(BODY_MAX_DEPTH))) == [
            "payload.known_members_only"
        ]

    @JSON_DECODERS
    @pytest.mark.parametrize("depth", [BODY_MAX_DEPTH + 1, 300, sys.getrecursionlimit() + 10])
    def test_the_text_after_the_first_container_too_deep_is_not_read(
        self, decoder: str, depth: int
    ) -> None:
        # Below the decoder's recursion limit or past it, the same verdict: the reading stops
        # at the first container past the limit, and the syntax error after it is not read.
        text = '{"retries": 1, "retries": 2, "x": ' + "[" * depth + "]" * depth + "} x"
        with json_decoder(decoder):
            for data in (text, text.encode()):
                result = validate_create_json(data)
                assert rules(result) == ["body.depth_within_limit", "body.member_names_unique"]
                depth_problem = result.violations[0]
                assert (depth_problem.line, depth_problem.column) == (1, 35 + BODY_MAX_DEPTH - 1)

    @JSON_DECODERS
    @pytest.mark.parametrize("depth", [BODY_MAX_DEPTH + 1, sys.getrecursionlimit() + 10])
    def test_a_syntax_error_before_that_container_is_the_verdict(
        self, decoder: str, depth: int
    ) -> None:
        text = '{"name": "x" "x": ' + "[" * depth + "]" * depth + "}"
        with json_decoder(decoder):
            [violation] = validate_create_json(text).violations
        assert (violation.rule, violation.line, violation.column) == ("body.is_json", 1, 14)

    @JSON_DECODERS
    @pytest.mark.parametrize("depth", [BODY_MAX_DEPTH + 1, sys.getrecursionlimit() + 10])
    @pytest.mark.parametrize("tail", ["}", "} x"])
    def test_the_cap_reached_before_that_container_is_the_verdict(
        self, decoder: str, depth: int, tail: str
    ) -> None:
        # The walk stops at the cap (D-hostile-input), before the deep container: the first
        # problems are the verdict, each placed, whether or not the text is JSON after it.
        numbers = ",".join(f'"n{index}": 1e999' for index in range(VIOLATIONS_MAX + 5))
        text = "{" + numbers + ', "deep": ' + "[" * depth + "]" * depth + tail
        with json_decoder(decoder):
            result = validate_create_json(text)
        assert len(result.violations) == VIOLATIONS_MAX
        assert {violation.rule for violation in result.violations} == {"body.numbers_fit_a_double"}
        assert (result.violations[0].line, result.violations[0].column) == (1, 8)

    def test_one_level_more_is_refused_at_the_first_container_past_it(self) -> None:
        result = validate_create_json(self.nested(BODY_MAX_DEPTH + 1))
        # The path, 190 characters, keeps its head and tail (D-shown-text); the pointer is exact.
        path = "x" + "[0]" * (BODY_MAX_DEPTH - 1)
        assert found(result) == [(INVALID, path[:40] + "…" + path[-44:], "body.depth_within_limit")]
        assert result.violations[0].pointer == "/x" + "/0" * (BODY_MAX_DEPTH - 1)

    @JSON_DECODERS
    @pytest.mark.parametrize("opening", ["[", '{"a":'])
    def test_a_hundred_thousand_levels_are_refused_not_raised(
        self, decoder: str, opening: str
    ) -> None:
        with json_decoder(decoder):
            for text in (opening * 100_000, opening * 100_000 + "1" + "]" * 100_000):
                assert rules(validate_create_json(text)) == ["body.depth_within_limit"]
                assert rules(validate_create_json(text.encode())) == ["body.depth_within_limit"]


class TestMemberNamesUnique:
    def test_a_repeat_is_refused_at_its_repeated_name(self) -> None:
        text = HEAD + ',\n "retries": 1,\n "retries": 2}'
        result = validate_create_json(text)
        assert found(result) == [(INVALID, "retries", "body.member_names_unique")]
        assert (result.violations[0].line, result.violations[0].column) == (3, 2)

    def test_repeats_at_any_depth_each_at_its_pointer(self) -> None:
        text = HEAD + ', "x": {"a": [{"b/c": 1, "b/c": 2}], "a": 3}}'
        result = validate_create_json(text)
        assert [(v.rule, v.pointer) for v in result.violations] == [
            ("body.member_names_unique", "/x/a/0/b~1c"),
            ("body.member_names_unique", "/x/a"),
        ]

    def test_names_that_differ_are_read(self) -> None:
        text = HEAD + ', "description": "a:b", "scheduling": {"mon": {"startTime": "09:00", '
        text += '"stopTime": "17:00", "active": true}, "tue": {"startTime": "09:00", '
        text += '"stopTime": "17:00", "active": false}}}'
        assert validate_create_json(text).ok

    @JSON_DECODERS
    @pytest.mark.parametrize(
        "members",
        [
            '"retries" :1, "retries":1',
            '"retries"\n:1, "retries":1',
            '"retries":1, "retries"\t: 1, "description": "\\":"',
            '"a\\\\":1, "a\\\\" :1',
            '"a\\"":1, "a\\"":1',
            '"description": "x \\": y", "retries":1, "retries":1',
            '"description": "\\\\", "retries":1, "retries":"\\"\\""',
        ],
        ids=[
            "space",
            "line feed",
            "tab",
            "a name ending in a backslash",
            "a name ending in an escaped quote",
            "an escaped quote",
            "escaped quotes in the value kept",
        ],
    )
    def test_white_space_or_an_escaped_quote_cannot_hide_a_repeat(
        self, decoder: str, members: str
    ) -> None:
        with json_decoder(decoder):
            result = validate_create_json((HEAD + ", " + members + "}").encode())
        assert rules(result) == ["body.member_names_unique"]

    @JSON_DECODERS
    @pytest.mark.parametrize(
        "members",
        [
            '"description": "\\u003a", "retries": 1, "retries": 1',
            '"retries": 1, "retries": "\\u0022\\u0022"',
            '"description": "\\u0022\\u0022", "retries": 1, "retries": 1',
        ],
        ids=["an escaped colon", "escaped quotes in the value kept", "escaped quotes before"],
    )
    def test_an_escaped_colon_or_quote_cannot_hide_a_repeat(
        self, decoder: str, members: str
    ) -> None:
        with json_decoder(decoder):
            result = validate_create_json(HEAD + ", " + members + "}")
        assert rules(result) == ["body.member_names_unique"]

    @JSON_DECODERS
    @pytest.mark.parametrize("description", ['\\"', "\\\\", "\\u0022", '\\\\\\"', "a\\nb", "é:🚀"])
    def test_escapes_without_a_repeat_are_read(self, decoder: str, description: str) -> None:
        with json_decoder(decoder):
            result = validate_create_json(HEAD + ', "description": "' + description + '"}')
        assert result.ok


class TestStringsAreUnicode:
    @pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\udc00\\ud800", "\\ud83d x"])
    def test_an_escaped_lone_surrogate_is_refused(self, escape: str) -> None:
        text = HEAD + ', "description": "' + escape + '"}'
        result = validate_create_json(text.encode())
        assert found(result) == [(INVALID, "description", "body.strings_are_unicode")]

    def test_a_lone_surrogate_in_a_str_is_refused(self) -> None:
        result = validate_create_json(HEAD + ', "description": "\ud800"}')
        assert rules(result) == ["body.strings_are_unicode"]

    @pytest.mark.parametrize("escape", ["\\ud83d\\ude80", "\\u00e9", "\\\\ud800", "\\uffff"])
    def test_escaped_text_is_read(self, escape: str) -> None:
        assert validate_create_json(HEAD + ', "description": "' + escape + '"}').ok


class TestNumbersFitADouble:
    # The least integer that rounds to an infinity as a double: half an ulp past the largest.
    OVERFLOW = 2**1024 - 2**970

    @pytest.mark.parametrize(
        "number",
        ["1e309", "-1e309", "NaN", "Infinity", "-Infinity", str(OVERFLOW), "-" + str(OVERFLOW)],
    )
    def test_a_number_no_double_holds_is_refused(self, number: str) -> None:
        result = validate_create_json(HEAD + ', "retries": ' + number + "}")
        assert found(result) == [(INVALID, "retries", "body.numbers_fit_a_double")]

    @JSON_DECODERS
    @pytest.mark.parametrize("sign", ["", "-"])
    def test_an_integer_of_more_digits_than_python_converts_is_refused_where_it_is(
        self, decoder: str, sign: str
    ) -> None:
        digits = sys.get_int_max_str_digits() or 4300
        text = HEAD + ',\n "retries": ' + sign + "9" * (digits + 1) + "}"
        with json_decoder(decoder):
            for data in (text, text.encode()):
                [violation] = validate_create_json(data).violations
                assert (violation.rule, violation.field) == ("body.numbers_fit_a_double", "retries")
                assert (violation.line, violation.column) == (2, 13)
                assert violation.message == "retries must be a number an IEEE double holds"

    @JSON_DECODERS
    def test_a_syntax_error_after_such_an_integer_is_the_verdict(self, decoder: str) -> None:
        text = '{"retries": ' + "9" * 5000 + ", }"
        with json_decoder(decoder):
            [violation] = validate_create_json(text.encode()).violations
        assert violation.rule == "body.is_json"
        assert violation.message.endswith(SYNTAX_REASONS["trailing comma"])

    @pytest.mark.parametrize(
        "number", ["1.7976931348623157e308", str(OVERFLOW - 1), "1e-400", "-0", "0.0"]
    )
    def test_a_number_a_double_holds_is_read(self, number: str) -> None:
        result = validate_create_json(HEAD + ', "retries": ' + number + "}")
        assert "body.numbers_fit_a_double" not in rules(result)
        assert (
            result.keys == validate_create(json.loads(HEAD + ', "retries": ' + number + "}")).keys
        )


class TestTheBodyRulesAreCapped:
    """At most `VIOLATIONS_MAX` violations of the body rules, as of the offline rules
    (D-hostile-input, issue 36): the first ones of the text, each placed at its token."""

    @JSON_DECODERS
    def test_the_issues_body_gives_the_first_fifty(self, decoder: str) -> None:
        data = b"[" + b"1e999," * 174761 + b"1e999]"
        with json_decoder(decoder):
            result = validate_create_json(data)
        assert len(result.violations) == VIOLATIONS_MAX
        assert {v.rule for v in result.violations} == {"body.numbers_fit_a_double"}
        assert [v.pointer for v in result.violations] == [f"/{i}" for i in range(VIOLATIONS_MAX)]
        assert [(v.line, v.column) for v in result.violations] == [
            (1, 2 + 6 * i) for i in range(VIOLATIONS_MAX)
        ]

    def test_the_kinds_are_cut_together_in_the_texts_order(self) -> None:
        # 30 repeats, then 30 lone surrogates: the first 50 problems of the text are reported,
        # in the rules' order.
        members = ", ".join(['"a": 1'] * 31 + [f'"s{i}": "\\udc00"' for i in range(30)])
        result = validate_create_json("{" + members + "}")
        assert rules(result) == ["body.member_names_unique"] * 30 + ["body.strings_are_unicode"] * (
            VIOLATIONS_MAX - 30
        )
        assert [v.pointer for v in result.violations[30:]] == [f"/s{i}" for i in range(20)]

    def test_fewer_than_the_cap_are_all_reported(self) -> None:
        data = b"[" + b"1e999," * (VIOLATIONS_MAX - 2) + b"1e999]"
        assert len(validate_create_json(data).violations) == VIOLATIONS_MAX - 1

    def test_a_patch_is_capped_the_same_way(self) -> None:
        existing = validate_create(BODY).value
        members = ", ".join(f'"k{i}": NaN' for i in range(200))
        result = validate_update_json(existing, "{" + members + "}")
        assert rules(result) == ["body.numbers_fit_a_double"] * VIOLATIONS_MAX
