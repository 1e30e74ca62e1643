"""The rule on the free text of the payload, a row of the table (`unicodeText`).

Source: decision D-lone-surrogates.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import ErrorKey, validate_create, validate_create_json
from campaign_rules._core.limits import NAME_MAX_LENGTH
from campaign_rules._core.unicode import has_surrogate
from campaign_rules._rules.scope import POSSIBLE_FACTS
from campaign_rules._rules.table import _BLOCK_NOT_ENABLED, CREATE_RULES
from tests.support import FakeDirectory, payload

INVALID = ErrorKey.INVALID_REQUEST
(ROW,) = [rule for rule in CREATE_RULES if rule.id == "text.free_text_is_unicode"]
# The members of the payload it reads besides `name` and `integration_id`.
FREE_TEXT_MEMBERS = [
    pointer[1:]
    for pointer in ROW.pointers
    if pointer.count("/") == 1 and pointer not in ("/name", "/integration_id")
]


class Text(str):
    """A `str` subclass, which the rules read as the text it holds."""


# A plain text and a subclass, for the tests that hold for both.
STR_CLASSES: list[type[str]] = [str, Text]


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


class TestFreeTextIsUnicode:
    @pytest.mark.parametrize("member", ["name", "integration_id", *FREE_TEXT_MEMBERS])
    @pytest.mark.parametrize("text", ["\ud800", "x\udfff", "\udc00\ud800", "é\ud83d"])
    def test_a_lone_surrogate_is_refused(self, member: str, text: str) -> None:
        base = "whatsapp" if member.startswith("template") else "phone_call"
        result = validate_create(payload(base, **{member: text}))
        assert (INVALID, member, "text.free_text_is_unicode") in found(result)

    @pytest.mark.parametrize("member", ["name", "integration_id", *FREE_TEXT_MEMBERS])
    @pytest.mark.parametrize("text", ["🚀", "é", "\uffff", "\U0010ffff", "plain"])
    def test_unicode_text_is_accepted(self, member: str, text: str) -> None:
        base = "whatsapp" if member.startswith("template") else "phone_call"
        assert validate_create(payload(base, **{member: text})).ok

    def test_a_filter_tag_is_refused_at_its_index(self) -> None:
        body = payload("cooldown")
        body["cycles"]["filter_tags"] = ["tag-ok", "\ud800"]
        assert found(validate_create(body)) == [
            (INVALID, "cycles.filter_tags[1]", "text.free_text_is_unicode")
        ]

    def test_such_a_tag_or_integration_is_not_looked_up(self) -> None:
        body = payload("cooldown", integration_id="\ud800")
        body["cycles"]["filter_tags"] = ["\ud800"]
        directory = FakeDirectory()
        validate_create(body, directory=directory)
        assert all("\ud800" not in args for _, args in directory.calls)

    def test_the_free_text_members_are_those_of_the_spec(self) -> None:
        assert FREE_TEXT_MEMBERS == ["description", "first_message", "template", "template_alt"]

    @pytest.mark.parametrize("enabled", [False, None, "true", 1])
    def test_a_tag_of_a_block_not_enabled_is_not_read(self, enabled: object) -> None:
        body = payload("cooldown")
        body["cycles"].update(enabled=enabled, filter_tags=["\ud800"])
        assert "text.free_text_is_unicode" not in {v.rule for v in validate_create(body).violations}

    def test_the_tags_of_a_long_array_are_not_read(self) -> None:
        body = payload("cooldown")
        body["cycles"]["filter_tags"] = ["\ud800"] * 101
        assert "text.free_text_is_unicode" not in {v.rule for v in validate_create(body).violations}
        body["cycles"]["filter_tags"] = ["\ud800"] * 100
        assert "text.free_text_is_unicode" in {v.rule for v in validate_create(body).violations}

    @pytest.mark.parametrize("item", [7, None, "", ["\ud800"], {"a": "\ud800"}])
    def test_a_tag_not_a_non_empty_string_is_the_item_rules(self, item: object) -> None:
        body = payload("cooldown")
        body["cycles"]["filter_tags"] = [item]
        assert "text.free_text_is_unicode" not in {v.rule for v in validate_create(body).violations}

    @pytest.mark.parametrize("member", ["name", "description"])
    def test_a_str_subclass_is_read_as_the_text_it_holds(self, member: str) -> None:
        result = validate_create(payload(**{member: Text("a\ud800")}))
        assert (INVALID, member, "text.free_text_is_unicode") in found(result)

    @pytest.mark.parametrize("text_class", STR_CLASSES)
    def test_a_text_with_no_length_limit_is_read_whole(self, text_class: type[str]) -> None:
        text = text_class("a" * 300 + "\ud800")
        result = validate_create(payload(description=text))
        assert found(result) == [(INVALID, "description", "text.free_text_is_unicode")]

    @pytest.mark.parametrize("text_class", STR_CLASSES)
    def test_a_name_over_its_length_limit_is_the_length_rules_only(
        self, text_class: type[str]
    ) -> None:
        # Both sides of the bound: at the limit the name is read for a surrogate; one character
        # over, it is `name.within_max_length`'s, and not read further (D-lone-surrogates).
        at_limit = text_class("a" * (NAME_MAX_LENGTH - 1) + "\ud800")
        over = text_class("a" * NAME_MAX_LENGTH + "\ud800")
        assert found(validate_create(payload(name=at_limit))) == [
            (INVALID, "name", "text.free_text_is_unicode")
        ]
        assert found(validate_create(payload(name=over))) == [
            (INVALID, "name", "name.within_max_length")
        ]

    def test_another_rules_member_is_left_to_it(self) -> None:
        assert found(validate_create(payload(timezone="\ud800"))) == [
            (INVALID, "timezone", "timezone.is_iana_name")
        ]


class TestGatedOnAText:
    # A value read from a text is left to body.strings_are_unicode, as the row declares: the
    # body rule refuses every lone surrogate first, and a refused body is judged no further.
    def test_the_row_declares_its_gates(self) -> None:
        assert [(gate.kind, gate.rule) for gate in ROW.gates] == [
            ("scope", None),
            ("type", "payload.members_have_json_types"),
            ("defers_to", "name.within_max_length"),
            ("defers_to", "cycles.filter_lists_within_max_items"),
            ("defers_to", "cycles.filter_items_are_non_empty_strings"),
            ("defers_to", "body.strings_are_unicode"),
        ]
        assert ROW.gates[0].says == _BLOCK_NOT_ENABLED
        assert "read from a text" in ROW.gates[-1].says

    def test_the_runner_leaves_it_out_for_a_text_only(self) -> None:
        from campaign_rules._rules import validation

        for facts in POSSIBLE_FACTS:
            given = [rule.id for rule in validation._CREATE_RULES_BY_FACTS[facts]]
            read = [rule.id for rule in validation._TEXT_CREATE_RULES_BY_FACTS[facts]]
            assert "text.free_text_is_unicode" in given
            assert read == [name for name in given if name != "text.free_text_is_unicode"]

    @pytest.mark.parametrize("member", ["name", "integration_id", *FREE_TEXT_MEMBERS])
    def test_a_text_holding_one_is_the_body_rules(self, member: str) -> None:
        base = "whatsapp" if member.startswith("template") else "phone_call"
        text = json.dumps(payload(base, **{member: "x\ud800"}))
        assert [(v.rule, v.pointer) for v in validate_create_json(text).violations] == [
            ("body.strings_are_unicode", f"/{member}")
        ]
        assert found(validate_create(json.loads(text))) == [
            (INVALID, member, "text.free_text_is_unicode")
        ]


class TestHasSurrogate:
    # `has_surrogate` tells an ASCII text at once and encodes any other (issue 38): both ways
    # are read here, on every ASCII character, every surrogate and their neighbours, in texts
    # that CPython holds in two bytes a character and in four (one beyond the Basic
    # Multilingual Plane), whose encoders differ.
    def test_no_ascii_text_holds_one(self) -> None:
        assert not has_surrogate("".join(map(chr, range(128))))
        assert not has_surrogate("")

    @pytest.mark.parametrize("around", ["plain", "plaín", "pl🚀in"])
    @pytest.mark.parametrize("at", [0, 1, 5])
    def test_each_surrogate_is_told_wherever_it_stands(self, at: int, around: str) -> None:
        for code in range(0xD800, 0xE000):
            assert has_surrogate(around[:at] + chr(code) + around[at:])

    @given(st.lists(st.integers(0, 0x10FFFF) | st.integers(0xD7F0, 0xE010), max_size=40))
    def test_it_is_whether_a_code_point_is_a_surrogate(self, codes: list[int]) -> None:
        text = "".join(map(chr, codes))
        assert has_surrogate(text) == any(0xD800 <= code <= 0xDFFF for code in codes)

    @pytest.mark.parametrize("text", ["\ud7ff", "\ue000", "é", "🚀", "\U0010ffff", "a\x80"])
    def test_a_neighbour_outside_ascii_is_text(self, text: str) -> None:
        assert not has_surrogate(text)
