"""Paths, messages and pointers stay within their bounds whatever the body (D-shown-text).

Issue 36 item 6: nested long member names gave a `field` of 4,159 characters, a member name's
control characters reached the messages, and `check --json` wrote 25 MB for a 500 KB body.
The invariant: a field path is at most 85 characters and a message at most 256, neither holds
a control character nor a lone surrogate, so the envelope is small whatever the body; the
pointer is exact in the API and at most 256 characters in an output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import validate_create, validate_create_json, validate_update_json
from campaign_rules._core.display import CONTROL_CHARACTERS, bounded_path, shown_name, shown_text
from campaign_rules._core.json import item_path, member_path
from campaign_rules._core.limits import (
    FIELD_MAX_LENGTH,
    FIELD_PATH_MAX_LENGTH,
    POINTER_OUTPUT_MAX_LENGTH,
)
from campaign_rules._core.pointers import OUTPUT_POINTER_CUT, output_pointer
from campaign_rules._core.unicode import SURROGATE_CHARACTER
from campaign_rules.audit import violation_rows
from tests.support import BASES, payload

ROOT = Path(__file__).resolve().parent.parent
# D-shown-text: a message is a sentence naming a path or two; the envelope, as JSON text, holds
# its field and message, each character escaped in at most two (no control character is left
# to escape in six), and its fixed members.
MESSAGE_MAX_LENGTH = 256
ENVELOPE_MAX_CHARACTERS = 2 * (FIELD_MAX_LENGTH + MESSAGE_MAX_LENGTH) + 100


def duplicate_at(*names: str) -> str:
    """A body whose innermost object, at `names`, repeats the member `a`."""
    opening = "".join(json.dumps(name) + ":{" for name in names)
    return "{" + opening + '"a":1,"a":2' + "}" * (len(names) + 1)


def only_violation(result: Any) -> Any:
    [violation] = result.violations
    return violation


class TestTheFieldsBound:
    @pytest.mark.parametrize("length", [FIELD_MAX_LENGTH - 1, FIELD_MAX_LENGTH])
    def test_a_path_up_to_85_characters_is_whole(self, length: int) -> None:
        # "p" * 40 + "." + "q" * x + ".a" is 43 + x characters.
        inner = "q" * (length - 43)
        violation = only_violation(validate_create_json(duplicate_at("p" * 40, inner)))
        assert violation.field == f"{'p' * 40}.{inner}.a"
        assert len(violation.field) == length
        assert violation.message == f"{violation.field} is given more than once in its object"

    def test_a_path_of_86_characters_keeps_its_head_and_tail(self) -> None:
        inner = "q" * (FIELD_MAX_LENGTH + 1 - 43)
        violation = only_violation(validate_create_json(duplicate_at("p" * 40, inner)))
        assert violation.field == "p" * 40 + "…" + "q" * 42 + ".a"
        assert len(violation.field) == FIELD_MAX_LENGTH
        assert violation.pointer == f"/{'p' * 40}/{inner}/a"

    def test_nested_long_names_give_an_85_character_field_and_an_exact_pointer(self) -> None:
        """The issue's case: a field of 4,159 characters, a message of 4,197."""
        names = [f"{index:02}" + "n" * 98 for index in range(40)]
        result = validate_create_json(duplicate_at(*names))
        violation = only_violation(result)
        assert violation.field == names[0][:40] + "…" + "n" * 41 + "….a"
        assert len(violation.message) < MESSAGE_MAX_LENGTH
        assert violation.pointer == "/" + "/".join(names) + "/a"
        assert len(json.dumps(result.envelope()).encode()) < 400  # was 9,060 bytes

    def test_a_name_is_shown_by_its_first_64_characters(self) -> None:
        assert shown_name("x" * FIELD_PATH_MAX_LENGTH) == "x" * FIELD_PATH_MAX_LENGTH
        assert shown_name("x" * (FIELD_PATH_MAX_LENGTH + 1)) == "x" * FIELD_PATH_MAX_LENGTH + "…"
        # An escaped character counts as the six it is shown as, and is never cut.
        assert shown_name("\x00" * 11) == "\\u0000" * 10 + "…"
        assert shown_name("abcd" + "\x00" * 11) == "abcd" + "\\u0000" * 10 + "…"

    def test_the_longest_path_of_a_known_object_is_whole(self) -> None:
        """D-hostile-input: `cycles.schedule.wed.`, 64 characters and `…` is 85."""
        body = payload("scheduled")
        body["cycles"]["schedule"]["wed"]["n" * 1000] = 1
        violation = only_violation(validate_create(body))
        assert violation.field == "cycles.schedule.wed." + "n" * 64 + "…"

    def test_building_a_path_a_step_at_a_time_bounds_it_as_bounding_the_whole_does(
        self,
    ) -> None:
        path, whole = "", ""
        for step in range(60):
            name = f"m{step}" * (step % 7 + 1)
            path, whole = member_path(path or None, name), f"{whole}.{name}" if whole else name
            assert path == bounded_path(whole)
            path, whole = item_path(path, step), f"{whole}[{step}]"
            assert path == bounded_path(whole)


class TestControlCharacters:
    def test_the_issue_s_name_is_escaped_in_field_and_message(self) -> None:
        violation = only_violation(validate_create_json(b'{"x\\u0000\\n":1,"x\\u0000\\n":2}'))
        assert violation.field == "x\\u0000\\u000a"
        assert violation.message == "x\\u0000\\u000a is given more than once in its object"
        assert violation.pointer == "/x\x00\n"

    @pytest.mark.parametrize(
        "character",
        [
            *("\x00", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9f", "\u061c"),
            *("\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069"),
        ],
        ids=lambda character: f"U+{ord(character):04X}",
    )
    def test_each_control_character_is_shown_as_its_escape(self, character: str) -> None:
        violation = only_violation(validate_create({**BASES["phone_call"], f"a{character}b": 1}))
        assert violation.field == f"a\\u{ord(character):04x}b"

    @pytest.mark.parametrize("name", ["é", "名前", "🎉", "a\u200db", "a b", "\\u0000", "a~/b"])
    def test_other_characters_are_shown_as_they_are(self, name: str) -> None:
        assert only_violation(validate_create({**BASES["phone_call"], name: 1})).field == name

    def test_a_lone_surrogate_is_shown_as_the_replacement_character(self) -> None:
        assert shown_text("a\ud800\x00") == "a\ufffd\\u0000"

    def test_a_class_name_in_a_message_is_shown_as_a_name(self) -> None:
        hostile = type("\x1b[2J" + "k" * 500, (), {})
        violation = only_violation(validate_create_json(hostile()))
        assert violation.message == (
            "the request body must be bytes or str, not \\u001b[2J" + "k" * 55 + "…"
        )


class TestPointersInOutputs:
    @pytest.mark.parametrize("length", [POINTER_OUTPUT_MAX_LENGTH - 1, POINTER_OUTPUT_MAX_LENGTH])
    def test_a_pointer_up_to_256_characters_is_written_whole(self, length: int) -> None:
        pointer = "/" + "p" * (length - 1)
        assert output_pointer(pointer) == pointer

    def test_a_longer_pointer_keeps_its_head_and_tail_around_a_mark_no_pointer_holds(
        self,
    ) -> None:
        pointer = "/" + "p" * 200 + "/" + "q" * 55  # 257 characters
        written = output_pointer(pointer)
        assert written == pointer[:128] + OUTPUT_POINTER_CUT + pointer[-126:]
        assert len(written) == POINTER_OUTPUT_MAX_LENGTH

    def test_the_audit_s_rows_write_a_long_pointer_shortened(self) -> None:
        line = json.dumps({**BASES["phone_call"], "n" * 500_000: 1})
        [row] = violation_rows([line])
        assert row["pointer"] == "/" + "n" * 127 + OUTPUT_POINTER_CUT + "n" * 126
        assert row["field"] == "n" * 64 + "…"

    def test_check_json_writes_a_500_kb_name_in_a_bounded_output(self, tmp_path: Path) -> None:
        """The issue's case: a 500 KB name, in the pointers of 50 violations, gave 25 MB."""
        name = "n" * 500_000
        body = duplicate_at(name).replace('"a":1,"a":2', ",".join(['"a":1'] * 51))
        path = tmp_path / "body.json"
        path.write_text(body, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "campaign_rules", "check", "--json", str(path)],
            capture_output=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 1, done.stderr
        assert len(done.stdout) < len(body) / 4
        [report] = json.loads(done.stdout)
        violations = report["violations"]
        assert len(violations) >= 50
        expected = "/" + "n" * 127 + OUTPUT_POINTER_CUT + "n" * 124 + "/a"
        assert {violation["pointer"] for violation in violations} == {expected}
        assert {violation["field"] for violation in violations} == {"n" * 64 + "….a"}


# Member names that test every part of the display: controls, escapes JSON writes, long ones,
# names that read like paths, lone surrogates, astral characters.
names = st.one_of(
    st.text(max_size=6),
    st.text(st.sampled_from('\x00\n\x1b\x7f\x85\u2028\u202e.[]/~\\"é🎉a'), max_size=8),
    st.builds(lambda char, count: char * count, st.characters(), st.integers(60, 200)),
    st.sampled_from(["a", "name", "scheduling", "cycles", "\ud800", "x\udfff"]),
)
scalars = st.sampled_from(["1", "1e999", "-1e999", "NaN", '"\\ud800"', '"x"', "true", "null"])


def objects(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """JSON objects as text, whose names may repeat (a decoder's dict could not hold them)."""
    members = st.lists(st.tuples(names, children), max_size=5)
    return members.map(lambda pairs: "{" + ",".join(f"{json.dumps(n)}:{v}" for n, v in pairs) + "}")


def arrays(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(children, max_size=4).map(lambda items: "[" + ",".join(items) + "]")


json_texts = st.recursive(
    scalars, lambda children: st.one_of(objects(children), arrays(children)), max_leaves=30
)
bodies = st.one_of(
    objects(json_texts),
    json_texts.map(lambda text: json.dumps(BASES["phone_call"])[:-1] + ',"x":' + text + "}"),
    st.binary(max_size=40),
)


def assert_bounded(result: Any) -> None:
    for violation in result.violations:
        for text in (violation.field or "", violation.message):
            assert CONTROL_CHARACTERS.search(text) is None, violation
            assert SURROGATE_CHARACTER.search(text) is None, violation
        assert len(violation.field or "") <= FIELD_MAX_LENGTH, violation
        assert len(violation.message) <= MESSAGE_MAX_LENGTH, violation
        assert len(output_pointer(violation.pointer)) <= POINTER_OUTPUT_MAX_LENGTH
    envelope = result.envelope()
    if envelope is not None:
        assert len(json.dumps(envelope, ensure_ascii=False)) <= ENVELOPE_MAX_CHARACTERS


@given(bodies)
def test_any_body_gives_bounded_fields_messages_and_envelope(body: str | bytes) -> None:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    assert_bounded(validate_create_json(data))
    assert_bounded(validate_update_json(payload("phone_call"), data))


@given(st.dictionaries(names, st.none() | st.integers() | st.dictionaries(names, st.integers())))
def test_any_decoded_body_gives_bounded_fields_and_messages(members: dict[str, Any]) -> None:
    assert_bounded(validate_create({**BASES["scheduled"], **members}))
