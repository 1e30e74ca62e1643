"""Properties of `validate_create` (spec 2.1-2.4, 4.1, 7; api-contract; docs/decisions.md)."""

from __future__ import annotations

import copy
import importlib.resources
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import (
    CreateAccepted,
    CreateRefused,
    CreateResult,
    ErrorKey,
    Violation,
    to_wire,
    validate_create,
)
from campaign_rules import strategies as cs
from campaign_rules._rules.validation import create_violations
from tests import strategies_support as parts
from tests.property import strategies as s
from tests.support import BASES, FakeDirectory, payload

# ---------------------------------------------------------------------------------------------
# Helpers.


def assert_well_formed(result: object) -> CreateResult:
    """The result has the api-contract's shape, and its envelope encodes as strict JSON."""
    # Exactly one of the two outcomes, and the one its violations say.
    assert type(result) is (CreateRefused if result.violations else CreateAccepted)
    assert type(result.violations) is tuple
    assert all(type(violation) is Violation for violation in result.violations)
    assert len(result.violations) <= 50  # D-hostile-input
    assert result.keys == tuple(violation.key for violation in result.violations)
    for violation in result.violations:
        assert type(violation.key) is ErrorKey
        assert violation.field is None or type(violation.field) is str
        assert type(violation.message) is str
        assert violation.message
    assert result.ok == (not result.violations)
    assert (result.value is None) == (not result.ok)
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)  # raises if it holds anything but plain JSON
    if result.ok:
        assert envelope is None
        assert result.status == 201
    else:
        assert (result.status, envelope) == s.expected_envelope(result.violations)
    return result


def directory_for(wire: dict[str, Any]) -> FakeDirectory:
    """A directory that knows the agent, the integration (of the right type) and the tags."""
    agent = wire["agent_id"].lower()
    cycles = wire.get("cycles")
    tags = cycles.get("filter_tags") if type(cycles) is dict else None
    return FakeDirectory(
        agents={agent},
        integrations={(agent, wire["integration_id"]): wire["integration_type"]},
        tags={tag for tag in tags if type(tag) is str} if type(tags) is list else set(),
    )


def directories() -> Iterator[FakeDirectory]:
    """The fixed directories of the offline/online comparison, fresh each time."""
    yield FakeDirectory()
    yield FakeDirectory(billing_reached=True, agents=set())


def pairs(result: CreateResult) -> list[tuple[str, str | None]]:
    return [(violation.key.value, violation.field) for violation in result.violations]


any_create_input = st.one_of(
    cs.create_payloads(),
    cs.invalid_create_payloads().map(lambda triple: triple[0]),
    s.hostile_payloads,
)

# ---------------------------------------------------------------------------------------------
# (a) Valid payloads.


@given(cs.create_payloads())
def test_valid_payload_is_accepted_and_round_trips(wire: dict[str, Any]) -> None:
    result = assert_well_formed(validate_create(wire))
    assert result.ok, pairs(result)
    assert result.status == 201
    value = result.value
    assert value is not None

    # The value holds what was sent, with the spec's defaults for what was not.
    assert value.name == wire["name"]
    assert value.agent_id == wire["agent_id"].lower()  # D-agent-id
    assert value.integration_id == wire["integration_id"]
    assert value.integration_type == wire["integration_type"]
    assert value.description == wire.get("description")
    assert value.timezone == wire.get("timezone", "America/Mexico_City")
    assert value.retries == wire.get("retries", 1)
    assert value.message_limit == wire.get("message_limit", 250)
    assert value.first_message == wire.get("first_message")
    assert value.template == wire.get("template")
    assert value.template_alt == wire.get("template_alt")
    assert (value.scheduling is None) == ("scheduling" not in wire)
    cycles = wire.get("cycles")
    enabled = type(cycles) is dict and cycles.get("enabled") is True
    assert (value.cycles is not None) == enabled  # spec 2.4 rule 2
    if value.cycles is not None:
        assert value.cycles.mode == cycles["mode"]
        assert value.cycles.max_iterations == cycles["max_iterations"]
        assert value.cycles.cooldown_minutes == cycles.get("cooldown_minutes")
        assert list(value.cycles.filter_statuses) == cycles.get("filter_statuses", [])
        assert list(value.cycles.filter_tags) == cycles.get("filter_tags", [])

    # Round trip: the wire form is strict JSON and reads back as the same value.
    back = to_wire(value)
    json.dumps(back, allow_nan=False)
    again = validate_create(back)
    assert again.ok, pairs(again)
    assert again.value == value
    assert to_wire(again.value) == back


@given(cs.create_payloads())
def test_valid_payload_is_accepted_by_a_directory_that_knows_it(wire: dict[str, Any]) -> None:
    directory = directory_for(wire)
    result = assert_well_formed(validate_create(wire, directory=directory))
    assert result.ok, pairs(result)
    assert result.value == validate_create(wire).value
    # The look-ups get the canonical lower-case agent id (D-agent-id).
    agent = wire["agent_id"].lower()
    assert ("agent_exists", (agent,)) in directory.calls
    assert ("integration_type", (agent, wire["integration_id"])) in directory.calls
    assert ("billing_limit_reached", ()) in directory.calls


# ---------------------------------------------------------------------------------------------
# (b) One defect, one violation.


def test_there_are_at_least_twenty_kinds_of_defect() -> None:
    assert len(cs.DEFECT_KINDS) >= 20


@given(cs.invalid_create_payloads())
def test_one_defect_gives_exactly_one_violation(triple: cs.Defect) -> None:
    wire, key, field = triple
    result = assert_well_formed(validate_create(wire))
    assert pairs(result) == [(key, field)]
    assert result.status == 400
    envelope = result.envelope()
    assert envelope is not None
    assert envelope["error"] == key
    assert envelope.get("field") == field


# ---------------------------------------------------------------------------------------------
# (c) No input raises.


@given(parts.json_like)
def test_any_json_value_as_the_payload_never_raises(value: Any) -> None:
    assert_well_formed(validate_create(value))
    assert_well_formed(validate_create(value, directory=FakeDirectory()))


@given(s.spliced_payloads())
def test_json_values_spliced_into_a_valid_payload_never_raise(wire: Any) -> None:
    assert_well_formed(validate_create(wire))
    assert_well_formed(validate_create(wire, directory=FakeDirectory()))


@given(st.one_of(s.non_string_key_dicts, s.spliced_payloads(s.non_string_key_dicts)))
def test_non_string_member_names_never_raise(wire: Any) -> None:
    result = assert_well_formed(validate_create(wire))
    assert_well_formed(validate_create(wire, directory=FakeDirectory()))
    if type(wire) is dict and any(type(name) is not str for name in wire):
        # D-hostile-input: a member name that is not a string is refused at its object's path.
        assert (ErrorKey.INVALID_REQUEST.value, None) in pairs(result)


@given(st.one_of(any_create_input, s.spliced_payloads(), parts.json_like))
def test_the_audits_check_finds_what_validate_create_finds(wire: Any) -> None:
    # The audit keeps only the violations, and builds no campaign for a valid body (issue 22).
    assert create_violations(wire) == validate_create(wire).violations


def hostile_cases(shared: Any) -> Iterator[Any]:
    """Payloads holding `shared` (deep or self-referencing) at every path, or themselves."""
    yield shared
    for base in BASES:
        for path in s.SPLICE_PATHS:
            yield s.splice(payload(base), path, shared)
            # The payload itself, and the object holding the member, spliced into itself.
            wire = payload(base)
            yield s.splice(wire, path, wire)
            yield s.splice_parent_into_itself(payload(base), path)


@pytest.mark.parametrize("kind", sorted(s.HOSTILE_BUILDERS))
def test_deep_and_self_referencing_values_never_raise_nor_change(kind: str) -> None:
    shared = s.HOSTILE_BUILDERS[kind]()
    shared_before = s.identity_snapshot(shared)
    for wire in hostile_cases(shared):
        # `shared` is compared once, at the end: a 10,000-level value is costly to walk.
        before = s.identity_snapshot(wire, skip=id(shared))
        first = assert_well_formed(validate_create(wire))
        second = assert_well_formed(validate_create(wire))
        online = assert_well_formed(validate_create(wire, directory=FakeDirectory()))
        assert first.violations == second.violations
        assert s.is_subsequence(first.violations, online.violations)
        assert s.identity_snapshot(wire, skip=id(shared)) == before
    assert s.identity_snapshot(shared) == shared_before


# ---------------------------------------------------------------------------------------------
# (d) The input is never changed.


@given(any_create_input)
def test_input_is_never_mutated(wire: Any) -> None:
    copied = copy.deepcopy(wire)
    snapshot = s.identity_snapshot(wire)
    validate_create(wire)
    validate_create(wire, directory=FakeDirectory())
    assert [wire] == [copied]  # in a list, so that a NaN equals itself (identity)
    assert s.identity_snapshot(wire) == snapshot


@given(any_create_input)
def test_the_shared_empty_readings_stay_empty(wire: Any) -> None:
    # A payload without an enabled cycles block shares these with every other (a document
    # with one gets its own): were one written, the next payload would see its items.
    from campaign_rules._campaign import cycles_state

    validate_create(wire, directory=FakeDirectory())
    assert cycles_state._NO_FILTER_LISTS == {}
    assert cycles_state._NO_CYCLE_DATES == {}


# ---------------------------------------------------------------------------------------------
# (e) Offline violations are a subset of online ones, in the same order.


@given(any_create_input)
def test_offline_violations_are_a_subsequence_of_online_ones(wire: Any) -> None:
    offline = validate_create(wire).violations
    online_directories = list(directories())
    if type(wire) is dict and all(
        type(wire.get(name)) is str for name in ("agent_id", "integration_id", "integration_type")
    ):
        online_directories.append(directory_for(wire))
    for directory in online_directories:
        online = validate_create(wire, directory=directory).violations
        assert s.is_subsequence(offline, online), (offline, online)
        # D-hostile-input: only the look-ups add violations, after the offline ones, so the
        # offline result is even a prefix of the online one.
        assert online[: len(offline)] == offline
        assert all(v.rule.startswith("lookup.") for v in online[len(offline) :])


# ---------------------------------------------------------------------------------------------
# (f) Determinism.


@given(any_create_input)
def test_same_input_gives_the_same_violations(wire: Any) -> None:
    assert validate_create(wire).violations == validate_create(wire).violations
    first = validate_create(wire, directory=FakeDirectory()).violations
    assert first == validate_create(wire, directory=FakeDirectory()).violations


# ---------------------------------------------------------------------------------------------
# (g) Time zones.

_ZONEINFO = importlib.resources.files("tzdata.zoneinfo")


def ships_zone_file(key: str) -> bool:
    """Whether the tzdata package has a zone file for `key` (path-like keys never do)."""
    parts = key.split("/")
    if "\x00" in key or key.startswith("/") or any(part in ("", ".", "..") for part in parts):
        return False
    return _ZONEINFO.joinpath(*parts).is_file()


@given(st.timezone_keys())
def test_timezone_is_accepted_iff_tzdata_ships_its_zone_file(key: str) -> None:
    assert validate_create(payload(timezone=key)).ok == ships_zone_file(key)


def _tzdata_zone_files() -> Iterator[str]:
    stack = [("", _ZONEINFO)]
    while stack:
        prefix, node = stack.pop()
        for child in node.iterdir():
            if child.is_dir():
                stack.append((f"{prefix}{child.name}/", child))
            elif child.read_bytes()[:4] == b"TZif":
                yield prefix + child.name


def test_every_zone_file_of_tzdata_is_accepted() -> None:
    zones = list(_tzdata_zone_files())
    assert len(zones) > 500
    refused = [zone for zone in zones if not validate_create(payload(timezone=zone)).ok]
    assert refused == []


@pytest.mark.parametrize("name", parts.BAD_TIMEZONES)
def test_names_outside_the_tzdata_list_are_refused_path_like_ones_too(name: str) -> None:
    assert pairs(validate_create(payload(timezone=name))) == [("INVALID_REQUEST", "timezone")]
