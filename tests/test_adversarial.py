"""The adversarial matrix: each field of a creation body and of an update patch, by hostile value.

Source: D-hostile-input (and, for the expected answers, the rules each field is under). For each
field and each value the matrix builds a valid payload (or patch) with that one value put in,
and checks that validation does not raise, reports exactly the expected `(key, field)` list (an
empty list where the value is legal), that the envelope encodes with
`json.dumps(..., allow_nan=False)`, that messages stay short and never repeat the value, and
that the offline violations are a prefix of those found with a directory.

The matrix itself, the hostile values, the fields and the answer each kind of value must get,
is `tests/adversarial_support.py`, which `tests/builds.py` replays on both builds.
"""

from __future__ import annotations

import copy

import pytest

from campaign_rules import (
    validate_create,
    validate_update,
)
from tests.adversarial_support import (
    EXISTING,
    FIELDS,
    HOSTILE,
    HOSTILE_BY_NAME,
    HUGE_STRING_LENGTH,
    IR,
    WEEKDAYS,
    WINDOW,
    Expected,
    Hostile,
    armed,
    body_with,
    check_result,
    found,
    pairs,
    patch_with,
    path_of,
    value_at,
)
from tests.support import (
    BASES,
    FakeDirectory,
    HostileStr,
)


def test_the_matrix_has_at_least_30_hostile_values_for_every_field() -> None:
    assert len(HOSTILE) >= 30
    assert len(HOSTILE_BY_NAME) == len(HOSTILE)
    creation_fields = {path_of(field).split("[")[0] for field in FIELDS}
    # Every member of every object of spec 2.1, 2.3 and 2.4 is in the matrix.
    assert {
        "name", "description", "agent_id", "integration_id", "integration_type", "timezone",
        "retries", "message_limit", "first_message", "template", "template_alt", "scheduling",
        "cycles",
    } | {f"scheduling.mon.{name}" for name in WINDOW} | {
        f"cycles.{name}"
        for name in (
            "enabled", "mode", "max_iterations", "cooldown_minutes", "filter_statuses",
            "filter_tags", "schedule", "schedule_start_date", "schedule_end_date",
        )
    } <= creation_fields  # fmt: skip


@pytest.mark.parametrize(("field", "name"), pairs())
def test_a_hostile_value_in_a_creation_body(field: str, name: str) -> None:
    base, check = FIELDS[field]
    value = HOSTILE_BY_NAME[name]
    body = body_with(base, field, value.value)

    offline = armed(lambda: validate_create(body))
    directory = FakeDirectory()
    online = armed(lambda: validate_create(body, directory=directory))

    assert found(offline) == check(value, path_of(field), False)
    assert value_at(body, field) is value.value, "the body was changed"
    check_result(offline, value)
    check_result(online, value)
    assert online.violations[: len(offline.violations)] == offline.violations


@pytest.mark.parametrize(("field", "name"), pairs())
def test_a_hostile_value_in_an_update_patch(field: str, name: str) -> None:
    base, check = FIELDS[field]
    value = HOSTILE_BY_NAME[name]
    patch = patch_with(field, value.value)
    campaign = EXISTING[base]

    offline = armed(lambda: validate_update(campaign, patch))
    directory = FakeDirectory()
    online = armed(lambda: validate_update(campaign, patch, directory=directory))

    assert found(offline) == check(value, path_of(field), True)
    check_result(offline, value)
    check_result(online, value)
    assert online.violations[: len(offline.violations)] == offline.violations


# ---------------------------------------------------------------------------------------------
# Payloads and patches as a whole.

REQUIRED = ("name", "agent_id", "integration_id", "integration_type")
TOP_LEVEL = (
    *REQUIRED,
    "description", "timezone", "retries", "message_limit", "first_message", "template",
    "template_alt", "scheduling", "cycles",
)  # fmt: skip


def whole_payload(value: Hostile) -> Expected:
    """A hostile value as the whole body: anything but an object is one violation at `None`."""
    if value.kind != "object" or value.oversized:
        return [(IR, None)]
    found_ = [(IR, name) for name in value.names if name not in TOP_LEVEL]
    if value.unnamed:
        found_.append((IR, None))
    return found_ + [(IR, name) for name in REQUIRED if name not in value.names]


@pytest.mark.parametrize("name", [value.name for value in HOSTILE])
def test_a_hostile_value_as_the_whole_body(name: str) -> None:
    value = HOSTILE_BY_NAME[name]
    offline = armed(lambda: validate_create(value.value))
    online = armed(lambda: validate_create(value.value, directory=FakeDirectory()))
    assert found(offline) == whole_payload(value)
    check_result(offline, value)
    check_result(online, value)
    assert online.violations[: len(offline.violations)] == offline.violations


@pytest.mark.parametrize("name", [value.name for value in HOSTILE])
def test_a_hostile_value_as_the_whole_patch(name: str) -> None:
    """D-merge-patch: a patch that is not an object is refused whole and not applied."""
    value = HOSTILE_BY_NAME[name]
    campaign = EXISTING["phone_call"]
    offline = armed(lambda: validate_update(campaign, value.value))
    expected: Expected
    if value.kind == "object" and not value.oversized:
        # Merged into a campaign that has every required member; unknown names stay unknown.
        expected = [(IR, name) for name in value.names]
        expected += [(IR, None)] if value.unnamed else []
    else:
        expected = [(IR, None)]
    assert found(offline) == expected
    check_result(offline, value)
    online = armed(lambda: validate_update(campaign, value.value, directory=FakeDirectory()))
    check_result(online, value)
    assert online.violations[: len(offline.violations)] == offline.violations


def test_unknown_members_that_look_like_paths_are_reported_by_their_own_names() -> None:
    """D-unknown-members: the path is the member's name as sent, and the message names its
    object, so `a.b` at the top level is told apart from a member `b` of an object `a`."""
    body = {**BASES["phone_call"], "a.b": 1, "x[0]": 2, "scheduling.mon": 3}
    result = validate_create(body)
    assert found(result) == [(IR, "a.b"), (IR, "x[0]"), (IR, "scheduling.mon")]
    assert {violation.message for violation in result.violations} == {
        "this is not a known field of the request body"
    }
    check_result(result)


def test_a_long_hostile_member_name_is_cut_in_the_path_and_kept_out_of_the_message() -> None:
    name = "\ud800\x00" + "n" * HUGE_STRING_LENGTH
    result = validate_create({**BASES["phone_call"], name: 1})
    # D-lone-surrogates, D-shown-text: the path is UTF-8 text without a control character, cut
    # after 64 characters as shown; the pointer holds the name whole.
    assert found(result) == [(IR, "\ufffd\\u0000" + "n" * 57 + "…")]
    assert result.violations[0].pointer == "/" + name
    check_result(result)
    assert "n" * 10 not in result.violations[0].message


def test_a_result_is_bounded_whatever_the_body() -> None:
    """D-hostile-input: at most 50 offline violations, then at most one per look-up."""
    full = {f"unknown-{i}-" + "x" * 100: i for i in range(60)}
    window = {**full}
    body = {
        **BASES["cooldown"],
        "scheduling": dict.fromkeys(WEEKDAYS, window),
    }
    body["cycles"] = {**body["cycles"], "filter_tags": [f"t{i}" for i in range(100)]}
    offline = validate_create(body)
    online = validate_create(body, directory=FakeDirectory())
    assert len(offline.violations) == 50
    # The look-ups add at most one violation each: here 100 unknown tags.
    assert len(online.violations) == 50 + 100
    check_result(online)


def test_the_longest_field_path_is_85_characters() -> None:
    """D-hostile-input: the deepest object is a window of the cycles schedule."""
    body = copy.deepcopy(BASES["scheduled"])
    body["cycles"]["schedule"]["wed"]["n" * 1000] = 1
    result = validate_create(body)
    assert found(result) == [(IR, "cycles.schedule.wed." + "n" * 64 + "…")]
    assert len(result.violations[0].field or "") == 85


@pytest.mark.parametrize("field", ["name", "agent_id", "integration_type", "timezone"])
def test_a_long_str_subclass_in_a_bounded_text_member_is_answered_as_its_plain_copy(
    field: str,
) -> None:
    """Only the head of it is copied (D-hostile-input); the answer is the whole text's."""
    text = "Europe/Madrid" + "x" * 100_000
    subclassed = validate_create(body_with("phone_call", field, HostileStr(text)))
    plain = validate_create(body_with("phone_call", field, text))
    assert subclassed.violations == plain.violations
    assert found(plain) != []
