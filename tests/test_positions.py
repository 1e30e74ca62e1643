"""Where each violation is: its JSON Pointer always, its line and column from text (D-positions).

Texts with known places: indented, compact, CRLF line ends, and characters past ASCII (astral
ones included, one column each) before the member.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import attrs
import pytest

from campaign_rules import (
    Violation,
    validate_create,
    validate_create_json,
    validate_update,
    validate_update_json,
)
from campaign_rules._core.limits import RETRIES
from tests.support import payload

AGENT = payload()["agent_id"]
# Values on each side of a bound are read from `limits`, so that changing a bound there changes
# no test here (docs/testing.md, "Changing a bound").
TOO_MANY_RETRIES = RETRIES.high + 1


def places(result: Any) -> list[tuple[str, str, int | None, int | None]]:
    return [(v.rule, v.pointer, v.line, v.column) for v in result.violations]


def where(text: str, marker: str) -> tuple[int, int]:
    """The line and column of the first `marker` in `text`, counted by hand."""
    offset = text.index(marker)
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


INDENTED = f"""{{
  "name": "Spring renewals",
  "agent_id": "{AGENT}",
  "integration_id": "int-phone-1",
  "integration_type": "phone_call",
  "retries": {TOO_MANY_RETRIES},
  "scheduling": {{
    "mon": {{"startTime": "25:00", "stopTime": "17:00"}}
  }}
}}"""


class TestLinesAndColumns:
    def test_an_indented_text(self) -> None:
        result = validate_create_json(INDENTED)
        assert places(result) == [
            ("payload.required_members_present", "/scheduling/mon/active", 8, 12),
            ("retries.within_bounds", "/retries", 6, 14),
            ("schedule.window_times_are_hh_mm", "/scheduling/mon/startTime", 8, 26),
        ]
        assert where(INDENTED, f"{TOO_MANY_RETRIES},") == (6, 14)

    def test_a_compact_text(self) -> None:
        text = json.dumps(json.loads(INDENTED), separators=(",", ":"))
        result = validate_create_json(text.encode())
        assert [(line, column) for _, _, line, column in places(result)] == [
            (1, text.index('{"startTime"') + 1),
            (1, text.index(f"{TOO_MANY_RETRIES},") + 1),
            (1, text.index('"25:00"') + 1),
        ]

    def test_crlf_line_ends(self) -> None:
        text = INDENTED.replace("\n", "\r\n")
        result = validate_create_json(text.encode())
        assert [(line, column) for _, _, line, column in places(result)] == [
            (8, 12),
            (6, 14),
            (8, 26),
        ]

    @pytest.mark.parametrize("before", ["é", "日本", "🚀", "🇪🇸", "e\u0301"])
    def test_characters_past_ascii_count_one_column_each(self, before: str) -> None:
        retries = f'"retries": {TOO_MANY_RETRIES}'
        text = INDENTED.replace(retries, f'"description": "{before}", {retries}')
        result = validate_create_json(text.encode())
        line, column = where(text, f"{TOO_MANY_RETRIES},")
        assert ("retries.within_bounds", "/retries", line, column) in places(result)
        assert column == len('  "description": "", "retries": ') + len(before) + 1

    def test_an_absent_member_is_placed_at_its_objects_brace(self) -> None:
        text = f'\n\n   {{"agent_id": "{AGENT}"}}'
        result = validate_create_json(text)
        assert {(v.pointer, v.line, v.column) for v in result.violations} == {
            ("/name", 3, 4),
            ("/integration_id", 3, 4),
            ("/integration_type", 3, 4),
        }

    def test_a_body_that_is_no_object_is_placed_at_its_value(self) -> None:
        assert places(validate_create_json("\n  [1]")) == [("payload.is_object", "", 2, 3)]

    def test_a_valid_body_has_no_violation_to_place(self) -> None:
        assert validate_create_json(json.dumps(payload("scheduled"), indent=4)).ok

    def test_a_decoded_body_has_no_place(self) -> None:
        result = validate_create(json.loads(INDENTED))
        assert {(v.line, v.column) for v in result.violations} == {(None, None)}


class TestPointers:
    def test_pointers_of_the_library_s_names(self) -> None:
        body = payload("cooldown", retries=TOO_MANY_RETRIES)
        body["cycles"]["filter_tags"] = ["a", "a"]
        result = validate_create(body)
        assert [(v.field, v.pointer) for v in result.violations] == [
            ("retries", "/retries"),
            ("cycles.filter_tags[1]", "/cycles/filter_tags/1"),
        ]

    @pytest.mark.parametrize(
        ("name", "pointer"),
        [("a/b", "/a~1b"), ("m~0", "/m~00"), ("a.b", "/a.b"), ("x[0]", "/x[0]"), ("", "/")],
    )
    def test_a_name_the_payload_chose_is_escaped_never_parsed(
        self, name: str, pointer: str
    ) -> None:
        result = validate_create(payload(**{name: 1}))
        assert [(v.rule, v.pointer) for v in result.violations] == [
            ("payload.known_members_only", pointer)
        ]

    def test_a_long_name_is_whole_in_the_pointer(self) -> None:
        name = "n" * 100
        (violation,) = validate_create(payload(**{name: 1})).violations
        assert violation.field is not None
        assert violation.field.endswith("…")
        assert violation.pointer == "/" + name

    def test_a_name_inside_the_schedule(self) -> None:
        body = payload("scheduled")
        body["cycles"]["schedule"]["wed"]["a/b"] = 1
        text = json.dumps(body, indent=2)
        (violation,) = validate_create_json(text).violations
        assert violation.pointer == "/cycles/schedule/wed/a~1b"
        assert (violation.line, violation.column) == where(text, "1\n")

    def test_the_envelope_is_unchanged(self) -> None:
        result = validate_create_json(INDENTED)
        envelope = result.envelope()
        assert envelope is not None
        assert set(envelope) == {"success", "error", "message", "field"}

    def test_the_constructor_makes_the_pointer_of_the_field(self) -> None:
        made = Violation(validate_create({}).violations[0].key, "cycles.filter_tags[2]", "m", "r")
        assert (made.pointer, made.line, made.column) == ("/cycles/filter_tags/2", None, None)
        assert Violation(made.key, None, "m", "r").pointer == ""


class TestUpdates:
    def test_a_patch_is_placed_in_its_own_text(self) -> None:
        existing = validate_create(payload("phone_call")).value
        patch = '{{\n  "retries": {},\n  "agent_id": "{}"\n}}'.format(
            TOO_MANY_RETRIES, AGENT.replace("9b", "8b")
        )
        result = validate_update_json(existing, patch)
        decoded = validate_update(existing, json.loads(patch))
        assert [(v.rule, v.field) for v in result.violations] == [
            (v.rule, v.field) for v in decoded.violations
        ]
        assert {(v.pointer, v.line, v.column) for v in result.violations} == {
            ("/agent_id", 3, 15),
            ("/retries", 2, 14),
        }

    def test_a_stored_campaign_s_problems_have_no_place_in_the_patch(self) -> None:
        result = validate_update_json({"name": 5}, b'{"retries": 1}')
        assert result.violations
        assert {(v.key.value, v.line) for v in result.violations} == {("SERVER_ERROR", None)}

    def test_a_patch_that_is_no_json_is_refused_where_it_stops(self) -> None:
        existing = validate_create(payload("phone_call")).value
        result = validate_update_json(existing, b'{"retries": }')
        assert places(result) == [("body.is_json", "", 1, 13)]
        assert result.status == 400

    def test_an_ok_patch(self) -> None:
        existing = validate_create(payload("phone_call")).value
        result = validate_update_json(existing, f'{{"retries": {RETRIES.high}}}')
        assert result.ok
        assert result.value == validate_update(existing, {"retries": RETRIES.high}).value


class TestFoundWhenRead:
    def test_every_reader_of_the_fields_sees_the_place(self) -> None:
        (violation,) = validate_create_json(b'{\n "name": 5}').violations[-1:]
        expected = (violation.line, violation.column)
        assert expected == (2, 10)
        for again in (
            pickle.loads(pickle.dumps(validate_create_json(b'{\n "name": 5}').violations[-1])),
            copy.copy(validate_create_json(b'{\n "name": 5}').violations[-1]),
        ):
            assert (again.line, again.column) == expected
            assert again == violation
        fields = attrs.asdict(validate_create_json(b'{\n "name": 5}').violations[-1])
        assert set(fields) == {"key", "field", "message", "rule", "pointer", "line", "column"}
        assert (fields["line"], fields["column"]) == expected
        assert "line=2, column=10" in repr(validate_create_json(b'{\n "name": 5}').violations[-1])

    def test_a_violation_of_text_is_not_one_of_a_value(self) -> None:
        text = b'{\n "name": 5}'
        assert validate_create_json(text).violations != validate_create(json.loads(text)).violations
        assert validate_create_json(text).violations == validate_create_json(text).violations

    def test_evolve_and_the_constructor_set_them(self) -> None:
        (violation,) = validate_create_json(b'{\n "name": 5}').violations[-1:]
        moved = attrs.evolve(violation, line=7)
        assert (moved.line, moved.column) == (7, 10)
        made = Violation(violation.key, "name", "m", "r", line=3, column=4)
        assert (made.line, made.column, made.pointer) == (3, 4, "/name")


class TestEachProblemAtItsOwnToken:
    """The body rules' violations are placed at the token at fault, not at a member's last value
    (issue 36): a name's problem at the name's opening quote, a value's at its first character."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # The shadowed value is placed at itself, not at the value that shadows it.
            (
                '{"a":"\\ud800","a":"ok"}',
                [
                    ("body.member_names_unique", "/a", 1, 15),
                    ("body.strings_are_unicode", "/a", 1, 6),
                ],
            ),
            (
                '{"a":1e999,"a":"ok"}',
                [
                    ("body.member_names_unique", "/a", 1, 12),
                    ("body.numbers_fit_a_double", "/a", 1, 6),
                ],
            ),
            # A name's problems at the name: its repeat, and a lone surrogate in it.
            (
                '{"a\\ud800":1,\r\n "a\\ud800" : [1, NaN]}',
                [
                    ("body.member_names_unique", "/a\ud800", 2, 2),
                    ("body.strings_are_unicode", "/a\ud800", 1, 2),
                    ("body.strings_are_unicode", "/a\ud800", 2, 2),
                    ("body.numbers_fit_a_double", "/a\ud800/1", 2, 18),
                ],
            ),
            # The text's own value, at its first character, after white space.
            ("1e999", [("body.numbers_fit_a_double", "", 1, 1)]),
            ('\n\t "\\udc00"', [("body.strings_are_unicode", "", 2, 3)]),
            ("-Infinity", [("body.numbers_fit_a_double", "", 1, 1)]),
            # The last token of the text, after astral characters on its line (one column each).
            ('["😀😀", "é",\n -1e400]', [("body.numbers_fit_a_double", "/2", 2, 2)]),
            # After a run of values no problem is in, and inside strings that look like problems.
            (
                '[1, "1e999", "NaN", true, null, "\\u00e9,", 2.5e99, -0.0, {"k": [0, 1, 1E+999]}]',
                [("body.numbers_fit_a_double", "/8/k/2", 1, 71)],
            ),
            # A repeat after members passed over, with an escaped spelling of the same name.
            (
                '{"x": 1, "y": "a,b", "z": ":", "\\u0078": 2}',
                [("body.member_names_unique", "/x", 1, 32)],
            ),
            # An escaped surrogate pair is one astral character: no problem; a lone one is.
            ('["\\ud83d\\ude00", "\\ud83d"]', [("body.strings_are_unicode", "/1", 1, 18)]),
        ],
    )
    def test_examples_at_the_edges(self, text: str, expected: list[tuple[Any, ...]]) -> None:
        result = validate_create_json(text)
        assert places(result) == expected
        for rule, _, line, column in expected:
            assert line is not None
            assert column is not None
            offset = len("\n".join(text.split("\n")[: line - 1])) + (line > 1) + column - 1
            assert text[offset] in '"-1NI', rule

    def test_the_example_of_the_issue(self) -> None:
        result = validate_create_json(b'{"a":"\\ud800","a":"ok"}')
        surrogate = [v for v in result.violations if v.rule == "body.strings_are_unicode"]
        assert [(v.line, v.column) for v in surrogate] == [(1, 6)]

    def test_a_patch_is_placed_the_same_way(self) -> None:
        existing = validate_create(payload()).value
        result = validate_update_json(existing, '{"retries": 1e999, "retries": 2}')
        assert places(result) == [
            ("body.member_names_unique", "/retries", 1, 20),
            ("body.numbers_fit_a_double", "/retries", 1, 13),
        ]
