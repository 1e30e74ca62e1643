"""The JSON Schema export: the committed file, the command, the meta-schema, and each format.

Whether the schema accepts what `validate_create` accepts, payload by payload, is
`test_schema_agreement.py`'s to check; here each piece of the schema is checked on its own, the
formats exhaustively where the space is small, against the library's own parsers.
"""

from __future__ import annotations

import itertools
import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for

from campaign_rules import json_schema
from campaign_rules._cli import main
from campaign_rules._core.formats import (
    is_blank,
    is_uuid_v4,
    lower_case_uuid_v4,
    parse_date,
    parse_time,
)
from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    DEFAULT_MESSAGE_LIMIT,
    DEFAULT_RETRIES,
    DEFAULT_TIMEZONE,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
    Bounds,
)
from campaign_rules._core.timezones import timezone_names
from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS, render_schema
from campaign_rules._rules.table import CREATE_RULES
from tests.property.strategies import ECMASCRIPT_WHITESPACE

SCHEMA_FILE = Path(__file__).parent.parent / "schema" / "campaign-create.schema.json"


def pair(bounds: Bounds) -> tuple[int, int]:
    """A bound of `limits` as the schema's `minimum` and `maximum` say it."""
    return bounds.low, bounds.high


def member(schema: dict[str, Any], *path: str | int) -> Draft202012Validator:
    """A validator of the subschema at `path`, resolving `$ref`s against the whole schema."""
    node: Any = schema
    for name in path:
        node = node[name]
    return Draft202012Validator({**node, "$defs": schema["$defs"]})


# ---------------------------------------------------------------------------------------------
# The file, the command and the meta-schema.


def test_the_committed_schema_file_is_the_generated_one() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == render_schema(), (
        "schema/campaign-create.schema.json is stale: run `python scripts/regenerate.py`"
    )


def test_the_schema_command_prints_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == SCHEMA_FILE.read_text(encoding="utf-8")


def test_the_schema_is_valid_under_the_2020_12_meta_schema() -> None:
    schema = json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert validator_for(schema) is Draft202012Validator
    Draft202012Validator.check_schema(schema)  # raises SchemaError if not


def test_each_call_returns_a_new_schema() -> None:
    first = json_schema()
    first["properties"]["retries"]["maximum"] = 99
    first["$defs"]["window"]["required"].clear()
    assert json_schema()["properties"]["retries"]["maximum"] == RETRIES.high
    assert json_schema()["$defs"]["window"]["required"] == ["startTime", "stopTime", "active"]


def test_it_uses_no_format_keyword() -> None:
    # The issue asks for patterns: validators treat `format` loosely (an annotation by default).
    assert '"format"' not in render_schema()


def test_the_listed_exceptions_are_offline_rules() -> None:
    ids = {rule.id for rule in CREATE_RULES}
    assert set(SCHEMA_EXCEPTIONS) <= ids
    assert all(reason.strip() for reason in SCHEMA_EXCEPTIONS.values())


# ---------------------------------------------------------------------------------------------
# The spec's numbers and names, written out here from the spec and docs/decisions.md.


def test_the_bounds_and_defaults_are_the_specs() -> None:
    schema = json_schema()
    top = schema["properties"]
    cycles = schema["$defs"]["enabled_cycles"]["properties"]

    def bounds(node: dict[str, Any]) -> tuple[int, int]:
        return node["minimum"], node["maximum"]

    assert top["name"]["maxLength"] == NAME_MAX_LENGTH
    assert (bounds(top["retries"]), top["retries"]["default"]) == (pair(RETRIES), DEFAULT_RETRIES)
    assert (bounds(top["message_limit"]), top["message_limit"]["default"]) == (
        pair(MESSAGE_LIMIT),
        DEFAULT_MESSAGE_LIMIT,
    )
    assert top["timezone"]["default"] == DEFAULT_TIMEZONE
    assert bounds(cycles["max_iterations"]) == pair(MAX_ITERATIONS)
    assert bounds(cycles["cooldown_minutes"]) == pair(COOLDOWN_MINUTES)
    for name in FILTER_LISTS:
        assert cycles[name]["maxItems"] == FILTER_LIST_MAX_ITEMS
        assert cycles[name]["uniqueItems"] is True
    assert schema["required"] == ["name", "agent_id", "integration_id", "integration_type"]
    assert top["integration_type"]["enum"] == ["phone_call", "whatsapp"]
    assert cycles["mode"]["enum"] == ["cooldown", "scheduled"]


def test_objects_are_closed_and_bounded() -> None:
    # D-unknown-members and D-hostile-input: no unknown member; more than 64 refused whole.
    schema = json_schema()
    for node in (schema, *(schema["$defs"][name] for name in ("schedule", "window"))):
        assert node["additionalProperties"] is False
        assert node["maxProperties"] == 64
    # spec 2.4 rule 2: a block that is not enabled is open (its rest is ignored), but bounded.
    assert "additionalProperties" not in schema["$defs"]["cycles"]
    assert schema["$defs"]["cycles"]["maxProperties"] == 64
    assert schema["$defs"]["enabled_cycles"]["additionalProperties"] is False


def test_the_time_zones_are_the_tzdata_list() -> None:
    assert json_schema()["properties"]["timezone"]["enum"] == sorted(timezone_names())


# ---------------------------------------------------------------------------------------------
# Each format against the parser the rules use.


def test_the_time_format_is_hh_mm_exactly() -> None:
    window = member(json_schema(), "$defs", "window", "properties", "startTime")
    texts = [f"{hours:02d}:{minutes:02d}" for hours in range(100) for minutes in range(100)]
    texts += ["9:00", "09:0", "0900", "09:00:00", "٠٩:٠٠", " 9:00", "", "09:00\n", "\n09:00"]
    for text in texts:
        assert window.is_valid(text) == (parse_time(text) is not None), text


_YEARS = ("0000", "0001", "0004", "0100", "0400", "1900", "2000", "2024", "2025", "2100", "9999")


def test_the_date_format_is_a_calendar_date_that_exists() -> None:
    date = member(
        json_schema(),
        "$defs",
        "enabled_cycles",
        "allOf",
        0,
        "else",
        "properties",
        "schedule_start_date",
    )
    texts = [
        f"{year}-{month:02d}-{day:02d}"
        for year in _YEARS
        for month in range(14)
        for day in range(33)
    ]
    texts += [
        "2026-1-01",
        "20260101",
        "2026/01/01",
        "２０２６-01-01",
        "2026-01-01\n",
        "+2026-01-01",
        # "/" and ":" stand either side of the ASCII digits.
        "202/-01-01",
        "202:-01-01",
        "2026-0/-01",
        "2026-0:-01",
        "2026-01-0/",
        "2026-01-0:",
    ]
    for text in texts:
        assert date.is_valid(text) == (parse_date(text) is not None), text
    assert date.is_valid(None)  # D-cycle-dates: the dates are nullable


@given(
    st.one_of(
        st.uuids().map(str),
        st.uuids().map(lambda value: str(value).upper()),
        st.text(st.sampled_from(string.hexdigits + "-{}\n "), min_size=30, max_size=40),
        st.builds(
            lambda text, at, char: text[:at] + char + text[at + 1 :],
            st.uuids(version=4).map(str),
            st.integers(0, 35),
            st.characters(),
        ),
    )
)
def test_the_agent_id_format_is_uuid_v4(text: str) -> None:
    agent_id = member(json_schema(), "properties", "agent_id")
    assert agent_id.is_valid(text) == is_uuid_v4(text)
    assert lower_case_uuid_v4(text) == (text.lower() if is_uuid_v4(text) else None)


def test_the_not_blank_pattern_lists_ecmascript_white_space() -> None:
    assert set(ECMASCRIPT_WHITESPACE) == set(json.loads(f'"{_class_body()}"'))


def _class_body() -> str:
    pattern: str = json_schema()["properties"]["name"]["pattern"]
    assert pattern.startswith("[^")
    assert pattern.endswith("]")
    return pattern[2:-1]


@given(
    st.text(
        st.one_of(
            st.sampled_from(ECMASCRIPT_WHITESPACE),
            st.sampled_from("\x85\u200b\u180ea\x00é🚀"),
            st.characters(),
        ),
        max_size=6,
    )
)
def test_the_name_pattern_is_not_blank(text: str) -> None:
    name = member(json_schema(), "properties", "name")
    assert name.is_valid(text) == (not is_blank(text))


def test_every_single_character_name_is_judged_as_the_rule_does() -> None:
    name = member(json_schema(), "properties", "name")
    for code in itertools.chain(range(0x3100), range(0xFE00, 0x10000)):
        char = chr(code)
        assert name.is_valid(char) == (not is_blank(char)), hex(code)
