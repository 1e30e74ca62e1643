"""The rules on single-valued members (`campaign_rules._rules.fields`).

Sources: spec 2.1, 4.1 rule 1, 7.3, 8; decisions D-blank-name, D-agent-id, D-integration-id,
D-timezone, D-channel-fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign_rules import ErrorKey, IntegrationType, validate_create
from campaign_rules._core.formats import is_uuid_v4, lower_case_uuid_v4
from campaign_rules._core.limits import (
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    DEFAULT_TIMEZONE,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
    Bounds,
)
from tests.support import AGENT, BASES, inside, outside, payload

INVALID = ErrorKey.INVALID_REQUEST


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def with_char(text: str, index: int, char: str) -> str:
    return text[:index] + char + text[index + 1 :]


# The bounds, from `limits` (the spec's own numbers are tests/test_oracle_bounds.py's).
MAX, HALF = NAME_MAX_LENGTH, NAME_MAX_LENGTH // 2


class TestNameWithinMaxLength:
    @pytest.mark.parametrize(
        "name",
        ["x", "x" * MAX, "😀" * MAX, "é" * MAX, "e\u0301" * HALF + "x", "🇪🇸" * HALF + "x"],
        ids=["1", "max", "max emoji", "max accented", "max combining", "max flags"],
    )
    def test_up_to_the_max_code_points_is_accepted(self, name: str) -> None:
        result = validate_create(payload(name=name))
        assert result.ok
        assert result.value.name == name

    @pytest.mark.parametrize(
        "name",
        ["x" * (MAX + 1), "😀" * (MAX + 1), "e\u0301" * (HALF + 1), "🇪🇸" * (HALF + 1), "x" * 10**7],
        ids=["max+1", "max+1 emoji", "max+1 combining", "max+1 flags", "10M"],
    )
    def test_over_the_max_code_points_is_refused(self, name: str) -> None:
        result = validate_create(payload(name=name))
        assert found(result) == [(INVALID, "name", "name.within_max_length")]
        assert result.violations[0].message == f"name must be at most {MAX} characters"

    def test_a_blank_name_over_the_limit_is_only_too_long(self) -> None:
        result = validate_create(payload(name=" " * (MAX + 1)))
        assert found(result) == [(INVALID, "name", "name.within_max_length")]


class TestNameNotBlank:
    @pytest.mark.parametrize(
        "name",
        [
            "",
            " ",
            "   ",
            "\t",
            "\n\r",
            "\v\f",
            "\u00a0",
            "\u1680",
            "\u2000\u200a",
            "\u2028\u2029",
            "\u202f",
            "\u205f",
            "\u3000",
            "\ufeff",
            " \u3000\t",
        ],
        ids=repr,
    )
    def test_a_name_of_white_space_only_is_refused(self, name: str) -> None:
        result = validate_create(payload(name=name))
        assert found(result) == [(INVALID, "name", "name.not_blank")]

    @pytest.mark.parametrize(
        "name", ["a", " a ", "\u3000x", "\u200b", "\u0085", "\x1c", "\u180e", "_", "."], ids=repr
    )
    def test_a_name_with_a_character_ecmascript_does_not_call_space_is_accepted(
        self, name: str
    ) -> None:
        result = validate_create(payload(name=name))
        assert result.ok
        assert result.value.name == name

    def test_a_blank_name_of_the_max_length_is_refused_as_blank(self) -> None:
        assert found(validate_create(payload(name=" " * MAX))) == [
            (INVALID, "name", "name.not_blank")
        ]


V4 = AGENT
VERSION_AT, VARIANT_AT = 14, 19


class TestAgentIdIsUuidV4:
    @pytest.mark.parametrize(
        "agent_id",
        [
            V4,
            V4.upper(),
            with_char(V4, VARIANT_AT, "9"),
            with_char(V4, VARIANT_AT, "a"),
            with_char(V4, VARIANT_AT, "b"),
            with_char(V4, VARIANT_AT, "A"),
            with_char(V4, VARIANT_AT, "B"),
            "00000000-0000-4000-8000-000000000000",
            "ffffffff-ffff-4fff-bfff-ffffffffffff",
        ],
    )
    def test_a_v4_uuid_of_either_case_is_accepted_and_lower_cased(self, agent_id: str) -> None:
        result = validate_create(payload(agent_id=agent_id))
        assert result.ok
        assert result.value.agent_id == agent_id.lower()
        assert lower_case_uuid_v4(agent_id) == agent_id.lower()
        if agent_id == agent_id.lower():  # given back itself, not copied
            assert lower_case_uuid_v4(agent_id) is agent_id

    def test_mixed_case_is_accepted(self) -> None:
        mixed = "9B2f1C1e-3C4d-4E5f-8A6b-7C8d9E0f1A2b"
        assert validate_create(payload(agent_id=mixed)).value.agent_id == AGENT

    @pytest.mark.parametrize(
        "agent_id",
        [
            "",
            "nope",
            "{" + V4 + "}",
            "urn:uuid:" + V4,
            V4.replace("-", ""),
            V4[:-1],
            V4 + "0",
            " " + V4,
            V4 + " ",
            V4 + "\n",
            with_char(V4, VERSION_AT, "1"),
            with_char(V4, VERSION_AT, "3"),
            with_char(V4, VERSION_AT, "5"),
            with_char(V4, VERSION_AT, "7"),
            with_char(V4, VERSION_AT, "0"),
            with_char(V4, VARIANT_AT, "0"),
            with_char(V4, VARIANT_AT, "7"),
            with_char(V4, VARIANT_AT, "c"),
            with_char(V4, VARIANT_AT, "C"),
            with_char(V4, VARIANT_AT, "d"),
            with_char(V4, VARIANT_AT, "e"),
            with_char(V4, VARIANT_AT, "f"),
            with_char(V4, 0, "g"),
            with_char(V4, 0, "٩"),
            with_char(V4, 0, "９"),
            with_char(V4, 8, "_"),
            V4[:8] + V4[9:13] + "-" + V4[8] + V4[13:],
            # More dashes in place of digits, an even number of digits left: still 36 long.
            with_char(with_char(V4, 28, "-"), 30, "-"),
            with_char(V4, 0, "+"),
            with_char(V4, 0, " "),
            "0x" + V4[2:],
            "0X" + V4[2:],
            # Not ASCII, or not encodable at all: lone surrogates, Latin-1, the Kelvin sign
            # (whose lower case is "k"), a fullwidth "a"; at either end.
            *(with_char(V4, at, char) for at in (0, 35) for char in "\ud800\udfff\xe9\u212a\uff41"),
            # ASCII controls, and the neighbours of the hex digits' ranges.
            *(with_char(V4, 2, char) for char in "\x00\t/:@G`g"),
            # A dash at the version's or the variant's place, a digit at a dash's.
            with_char(V4, VERSION_AT, "-"),
            with_char(V4, VARIANT_AT, "-"),
            with_char(V4, 23, "0"),
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "x" * 10_000_000,
        ],
        ids=lambda v: repr(v)[:60],
    )
    def test_anything_else_is_refused(self, agent_id: str) -> None:
        result = validate_create(payload(agent_id=agent_id))
        assert found(result) == [(INVALID, "agent_id", "agent_id.is_uuid_v4")]
        assert result.violations[0].message == "agent_id must be a UUID v4 in 8-4-4-4-12 form"
        assert not is_uuid_v4(agent_id)
        assert lower_case_uuid_v4(agent_id) is None

    def test_a_non_string_is_a_type_error_only(self) -> None:
        assert found(validate_create(payload(agent_id=4))) == [
            (INVALID, "agent_id", "payload.members_have_json_types")
        ]


class TestIntegrationIdNotEmpty:
    def test_the_empty_string_is_refused(self) -> None:
        result = validate_create(payload(integration_id=""))
        assert found(result) == [(INVALID, "integration_id", "integration_id.not_empty")]

    @pytest.mark.parametrize("integration_id", ["x", " ", "\u3000", "int-1", "x" * 10_000, "ñ"])
    def test_any_non_empty_string_is_accepted(self, integration_id: str) -> None:
        result = validate_create(payload(integration_id=integration_id))
        assert result.ok
        assert result.value.integration_id == integration_id

    def test_a_non_string_is_a_type_error_only(self) -> None:
        assert found(validate_create(payload(integration_id=0))) == [
            (INVALID, "integration_id", "payload.members_have_json_types")
        ]


class TestIntegrationTypeIsSupported:
    @pytest.mark.parametrize(
        ("integration_type", "base"), [("phone_call", "phone_call"), ("whatsapp", "whatsapp")]
    )
    def test_the_two_channels_are_accepted(self, integration_type: str, base: str) -> None:
        value = validate_create(payload(base, integration_type=integration_type)).value
        assert value.integration_type is IntegrationType(integration_type)

    @pytest.mark.parametrize(
        "integration_type",
        [
            "sms",
            "",
            "PHONE_CALL",
            "Phone_call",
            "phone_call ",
            " whatsapp",
            "whatsApp",
            "phone-call",
            "email",
            "x" * 10_000_000,
        ],
        ids=lambda v: repr(v)[:40],
    )
    def test_an_unsupported_string_is_invalid_integration_type(self, integration_type: str) -> None:
        result = validate_create(payload(integration_type=integration_type))
        assert found(result) == [
            (ErrorKey.INVALID_INTEGRATION_TYPE, "integration_type", "integration_type.is_supported")
        ]
        assert result.status == 400

    def test_the_message_lists_both_supported_types(self) -> None:
        assert validate_create(payload(integration_type="sms")).envelope() == {
            "success": False,
            "error": "INVALID_INTEGRATION_TYPE",
            "message": "integration_type must be one of phone_call, whatsapp",
            "field": "integration_type",
        }

    @pytest.mark.parametrize(
        "integration_type", [5, None, True, ["phone_call"], {"type": "x"}], ids=repr
    )
    def test_a_non_string_is_invalid_request(self, integration_type: object) -> None:
        result = validate_create(payload(integration_type=integration_type))
        assert found(result) == [(INVALID, "integration_type", "payload.members_have_json_types")]

    def test_an_unsupported_type_leaves_the_channel_fields_unjudged(self) -> None:
        result = validate_create(
            payload(integration_type="sms", first_message="hi", template="t", template_alt="u")
        )
        assert found(result) == [
            (ErrorKey.INVALID_INTEGRATION_TYPE, "integration_type", "integration_type.is_supported")
        ]


class TestTimezoneIsIanaName:
    @pytest.mark.parametrize(
        "timezone",
        [
            "UTC",
            "US/Eastern",
            "America/Mexico_City",
            "Europe/Madrid",
            "Etc/GMT+5",
            "Asia/Kolkata",
            "America/Argentina/Buenos_Aires",
            "EST5EDT",
        ],
    )
    def test_an_iana_name_or_link_is_accepted(self, timezone: str) -> None:
        result = validate_create(payload(timezone=timezone))
        assert result.ok
        assert result.value.timezone == timezone

    @pytest.mark.parametrize(
        "timezone",
        [
            "posix/Europe/Paris",
            "right/UTC",
            "../etc/passwd",
            "../../../../etc/passwd",
            "/usr/share/zoneinfo/UTC",
            "/etc/localtime",
            "localtime",
            "Mars/Olympus",
            "",
            "utc",
            "us/eastern",
            "America/Mexico City",
            " UTC",
            "UTC ",
            "UTC\x00",
            "Europe/",
            "Europe",
            "Europe/Paris/",
            "+01:00",
            "zone.tab",
            "tzdata.zi",
            "__init__.py",
            "x" * 10_000_000,
        ],
        ids=lambda v: repr(v)[:40],
    )
    def test_anything_else_is_refused(self, timezone: str) -> None:
        result = validate_create(payload(timezone=timezone))
        assert found(result) == [(INVALID, "timezone", "timezone.is_iana_name")]
        assert result.violations[0].message == "timezone must be an IANA time zone name"

    def test_the_default_is_america_mexico_city(self) -> None:
        assert validate_create(payload()).value.timezone == DEFAULT_TIMEZONE


class TestRetriesWithinBounds:
    @pytest.mark.parametrize("retries", inside(RETRIES))
    def test_within_the_bounds_is_accepted(self, retries: float) -> None:
        result = validate_create(payload(retries=retries))
        assert result.ok
        assert result.value.retries == retries

    @pytest.mark.parametrize("retries", outside(RETRIES))
    def test_outside_the_bounds_is_refused(self, retries: float) -> None:
        result = validate_create(payload(retries=retries))
        assert found(result) == [(INVALID, "retries", "retries.within_bounds")]
        assert (
            result.violations[0].message == f"retries must be from {RETRIES.low} to {RETRIES.high}"
        )

    def test_the_default_applies(self) -> None:
        assert validate_create(payload()).value.retries == DEFAULT_RETRIES

    def test_a_bound_says_its_message_of_whatever_subject_it_is_asked(self) -> None:
        # `Bounds.must_be` keeps the last message it made; another subject gets its own.
        bounds = Bounds(3, 8)
        for subject in ("retries", "tries", "".join(["re", "tries"]), "retries"):
            assert bounds.must_be(subject) == f"{subject} must be from 3 to 8"


class TestMessageLimitWithinBounds:
    @pytest.mark.parametrize("limit", [*inside(MESSAGE_LIMIT), DEFAULT_MESSAGE_LIMIT])
    def test_within_the_bounds_is_accepted(self, limit: float) -> None:
        result = validate_create(payload(message_limit=limit))
        assert result.ok
        assert result.value.message_limit == limit

    @pytest.mark.parametrize("limit", [*outside(MESSAGE_LIMIT), -1, -0.0])
    def test_outside_the_bounds_is_refused(self, limit: float) -> None:
        result = validate_create(payload(message_limit=limit))
        assert found(result) == [(INVALID, "message_limit", "message_limit.within_bounds")]
        low, high = MESSAGE_LIMIT.low, MESSAGE_LIMIT.high
        assert result.violations[0].message == f"message_limit must be from {low} to {high}"

    def test_the_default_applies(self) -> None:
        assert validate_create(payload()).value.message_limit == DEFAULT_MESSAGE_LIMIT


class TestChannelFieldsMatchIntegrationType:
    @pytest.mark.parametrize(
        ("base", "name"),
        [
            ("whatsapp", "first_message"),
            ("phone_call", "template"),
            ("phone_call", "template_alt"),
        ],
    )
    @pytest.mark.parametrize("text", ["", "hello"])
    def test_a_field_of_the_other_channel_is_refused(self, base: str, name: str, text: str) -> None:
        result = validate_create(payload(base, **{name: text}))
        assert found(result) == [(INVALID, name, "channel.fields_match_integration_type")]
        assert result.status == 400

    @pytest.mark.parametrize(
        ("base", "members"),
        [
            ("phone_call", {"first_message": ""}),
            ("phone_call", {"first_message": "Hello, this is Ana."}),
            ("whatsapp", {"template": "", "template_alt": ""}),
            ("whatsapp", {"template": "a", "template_alt": "b"}),
            ("whatsapp", {"template_alt": "b"}),
        ],
    )
    def test_a_field_of_its_own_channel_is_accepted(
        self, base: str, members: dict[str, str]
    ) -> None:
        result = validate_create(payload(base, **members))
        assert result.ok
        for name, text in members.items():
            assert getattr(result.value, name) == text

    def test_every_misplaced_field_is_reported_in_table_order(self) -> None:
        result = validate_create(payload("phone_call", template_alt="b", template="a"))
        assert found(result) == [
            (INVALID, "template", "channel.fields_match_integration_type"),
            (INVALID, "template_alt", "channel.fields_match_integration_type"),
        ]

    def test_the_message_names_the_channel(self) -> None:
        result = validate_create(payload("whatsapp", first_message="hi"))
        assert result.violations[0].message == "first_message is for phone_call campaigns only"


class TestValueDefaults:
    def test_defaults_are_applied_in_the_value(self) -> None:
        value = validate_create(payload()).value
        assert value.timezone == DEFAULT_TIMEZONE
        assert value.retries == DEFAULT_RETRIES
        assert value.message_limit == DEFAULT_MESSAGE_LIMIT
        assert value.description is None
        assert value.first_message is None
        assert value.template is None
        assert value.template_alt is None
        assert value.scheduling is None
        assert value.cycles is None

    def test_given_values_replace_the_defaults(self) -> None:
        value = validate_create(
            payload(
                timezone="UTC",
                retries=RETRIES.low,
                message_limit=MESSAGE_LIMIT.high,
                description="",
            )
        ).value
        given = ("UTC", RETRIES.low, MESSAGE_LIMIT.high)
        assert (value.timezone, value.retries, value.message_limit) == given
        assert value.description == ""

    @pytest.mark.parametrize("base", sorted(BASES))
    def test_the_value_holds_the_given_members(self, base: str) -> None:
        value = validate_create(payload(base)).value
        for name, member in BASES[base].items():
            if name not in ("scheduling", "cycles"):
                assert getattr(value, name) == member
