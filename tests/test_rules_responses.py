"""The response rules (`campaign_rules._rules.responses`), through the `parse_*` functions.

Sources: spec 2.2-2.6, 4.1-4.3, 5, 7.1-7.4; decisions D-tolerant-reading, D-response-violations,
D-date-times, D-response-times, D-detail-cycles, D-contact-last-call, D-response-caps and
D-integral-floats. Every violation is `SERVER_ERROR` (status 500): a broken response is the
server's fault. Each test reads its body through `read`, which also checks that the body is
left as it was.
"""

from __future__ import annotations

import copy
import uuid
from http import HTTPStatus
from typing import Any

import pytest

from campaign_rules import ErrorKey
from campaign_rules._core.limits import FIELD_PATH_MAX_LENGTH, RESPONSE_OPAQUE_MAX_VALUES
from campaign_rules.responses import ParseResult, parse_error, parse_thread
from tests.property.strategies import HOSTILE_BUILDERS, deep_dict, identity_snapshot
from tests.response_support import (
    RESPONSE_BASES,
    body,
    found,
    parse,
    set_path,
    with_,
    without,
)
from tests.support import (
    AGENT,
    HostileDict,
    HostileFloat,
    HostileInt,
    HostileList,
    HostileObject,
    HostileStr,
    Trap,
    label,
)

KINDS = tuple(RESPONSE_BASES)


def assert_well_formed(result: ParseResult[Any]) -> ParseResult[Any]:
    """A result's invariants: a value iff ok; SERVER_ERROR and 500 otherwise."""
    assert result.ok is (not result.violations)
    assert (result.value is None) is (not result.ok)
    assert all(v.key is ErrorKey.SERVER_ERROR for v in result.violations)
    assert result.status == (200 if result.ok else 500)
    return result


def read(kind: str, value: Any) -> ParseResult[Any]:
    """Parse `value` as a body of `kind` and check the result's invariants and the body's."""
    before = copy.deepcopy(value)
    result = assert_well_formed(parse(kind, value))
    assert value == before, "the parser changed the body"
    return result


def read_armed(kind: str, value: Any) -> ParseResult[Any]:
    """Parse with the hostile classes' methods raising; check the body is unchanged after."""
    before = identity_snapshot(value)
    Trap.armed = True
    try:
        result = parse(kind, value)
    finally:
        Trap.armed = False
    assert identity_snapshot(value) == before
    return result


def one(kind: str, value: Any, rule: str, field: str | None) -> None:
    """Reading `value` gives exactly one violation, of `rule` at `field`."""
    assert found(read(kind, value)) == [(rule, field)]


def ok(kind: str, value: Any) -> Any:
    result = read(kind, value)
    assert result.violations == ()
    return result.value


# ---------------------------------------------------------------------------------------------


class TestBodyIsObject:
    @pytest.mark.parametrize("kind", KINDS)
    @pytest.mark.parametrize(
        ("value", "sent"),
        [
            (None, "null"),
            ([], "an array"),
            ([RESPONSE_BASES["thread"]], "an array"),
            ("{}", "a string"),
            (0, "an integer"),
            (1.5, "a number"),
            (True, "a boolean"),
            ((), "a Python value JSON cannot hold"),
        ],
        ids=repr,
    )
    def test_a_body_that_is_not_an_object_is_one_violation(
        self, kind: str, value: Any, sent: str
    ) -> None:
        # parse_error too: its status (404 or 401) is fine, and no shape rule speaks.
        result = read(kind, value)
        assert found(result) == [("response.body_is_object", None)]
        assert result.violations[0].message == (
            f"the response body must be a JSON object, not {sent}"
        )
        assert result.envelope() == {
            "success": False,
            "error": "SERVER_ERROR",
            "message": result.violations[0].message,
        }

    @pytest.mark.parametrize("kind", KINDS)
    def test_a_valid_body_of_each_kind_is_read(self, kind: str) -> None:
        assert ok(kind, body(kind)) is not None

    @pytest.mark.parametrize("kind", KINDS)
    def test_a_dict_subclass_is_an_object(self, kind: str) -> None:
        result = read_armed(kind, HostileDict(body(kind)))
        assert result.ok
        assert result.value == parse(kind, body(kind)).value

    @pytest.mark.parametrize("kind", KINDS)
    def test_a_value_that_is_not_json_at_all_is_refused_unread(self, kind: str) -> None:
        result = read_armed(kind, HostileObject())
        assert found(result) == [("response.body_is_object", None)]


class TestErrorBodyHasAKnownShape:
    @pytest.mark.parametrize(
        "error",
        [None, True, False, 1.5, [], {}, ["NOT_FOUND"], {"code": 404}],
        ids=repr,
    )
    def test_an_error_member_neither_string_nor_integer_fits_no_shape(self, error: Any) -> None:
        result = parse_error(404, {"success": False, "error": error, "message": "m"})
        assert found(result) == [("error.body_has_a_known_shape", "error")]
        assert result.value is None

    def test_a_body_without_error_fits_no_shape(self) -> None:
        result = parse_error(500, {"message": "m"})
        assert found(result) == [("error.body_has_a_known_shape", "error")]

    def test_an_empty_object_fits_no_shape(self) -> None:
        assert found(parse_error(500, {})) == [("error.body_has_a_known_shape", "error")]

    def test_a_body_that_is_not_an_object_is_the_object_rules(self) -> None:
        # The shape rule speaks only of objects; `response.body_is_object` owns the rest.
        assert found(parse_error(500, [])) == [("response.body_is_object", None)]

    @pytest.mark.parametrize("error", ["NOT_FOUND", "", "teapot"], ids=repr)
    def test_a_string_error_is_the_campaign_envelope(self, error: str) -> None:
        result = parse_error(404, {"success": False, "error": error, "message": "m"})
        assert "error.body_has_a_known_shape" not in {v.rule for v in result.violations}

    @pytest.mark.parametrize(
        "error", [401, 0, -1, 401.0, 2**53 - 1, -(2**53 - 1), HostileInt(401)], ids=label
    )
    def test_an_integer_error_is_the_credentials_body(self, error: Any) -> None:
        result = parse_error(401, {"error": error, "message": "m"})
        assert result.ok
        assert type(result.value).__name__ == "CredentialsError"
        assert type(result.value.error) is int

    @pytest.mark.parametrize("error", [2**53, -(2**53), 10**30, 10**400, 1e300], ids=label)
    def test_an_integer_error_past_the_json_range_is_refused(self, error: Any) -> None:
        # D-json-integers: the value would go back out (to_wire) as no reader reads it.
        result = parse_error(401, {"error": error, "message": "m"})
        assert found(result) == [("response.integers_are_interoperable", "error")]
        assert result.violations[0].message == (
            "error must be an integer from -9007199254740991 to 9007199254740991"
        )

    def test_the_shapes_are_told_apart_by_members_not_by_status(self) -> None:
        # A credentials body with 404 and an envelope with 401 are both read as what they are.
        assert type(parse_error(404, body("credentials_error")).value).__name__ == (
            "CredentialsError"
        )
        assert type(parse_error(401, body("api_error")).value).__name__ == "ApiError"

    def test_a_credentials_body_with_envelope_members_is_still_read_by_its_error(self) -> None:
        value = {"error": 401, "message": "m", "success": False}
        assert parse_error(401, value).ok
        mixed = {"error": "NOT_FOUND", "message": "m"}  # a string error without `success`
        assert found(parse_error(404, mixed)) == [("response.required_members_present", "success")]


class TestErrorStatusIsAnErrorStatus:
    @pytest.mark.parametrize(
        "status", [400, 401, 404, 429, 500, 599, HTTPStatus.NOT_FOUND, 400.0, 404.0, 599.0]
    )
    def test_a_status_from_400_to_599_is_taken(self, status: int) -> None:
        assert parse_error(status, body("api_error")).ok

    @pytest.mark.parametrize(
        "status",
        [399, 600, 200, 201, 0, -404, 10**30, HTTPStatus.OK, 399.0, 600.0, 1e300],
    )
    def test_a_status_outside_400_to_599_is_refused(self, status: int) -> None:
        result = parse_error(status, body("api_error"))
        assert found(result) == [("error.status_is_an_error_status", None)]
        assert result.violations[0].message == (
            "the status of an error body must be an integer from 400 to 599"
        )

    @pytest.mark.parametrize(
        "status", [True, False, 404.5, float("nan"), "404", None, [404], HostileObject()], ids=label
    )
    def test_a_status_that_is_not_an_integer_is_refused(self, status: Any) -> None:
        Trap.armed = True
        try:
            result = parse_error(status, body("credentials_error"))
        finally:
            Trap.armed = False
        assert found(result) == [("error.status_is_an_error_status", None)]

    def test_an_int_subclass_status_runs_none_of_its_code(self) -> None:
        Trap.armed = True
        try:
            taken = parse_error(HostileInt(404), body("api_error"))
            refused = parse_error(HostileInt(200), body("api_error"))
        finally:
            Trap.armed = False
        assert taken.ok
        assert found(refused) == [("error.status_is_an_error_status", None)]

    def test_a_bad_status_and_a_bad_body_are_both_reported_status_first(self) -> None:
        result = parse_error(200, {"error": True})
        assert found(result) == [
            ("error.status_is_an_error_status", None),
            ("error.body_has_a_known_shape", "error"),
        ]


def _fill(target: dict[str, Any], size: int) -> None:
    """Add unknown members to `target` until it has `size` members."""
    for index in range(size - len(target)):
        target[f"x_extra{index}"] = index


# Every documented object of each kind, as (kind, dotted path to it, its field path).
DOCUMENTED_OBJECTS = [
    ("create_response", "", None),
    ("create_response", "campaign", "campaign"),
    ("create_response", "campaign.integration", "campaign.integration"),
    ("create_response", "campaign.agent", "campaign.agent"),
    ("create_response", "campaign.scheduling", "campaign.scheduling"),
    ("create_response", "campaign.scheduling.mon", "campaign.scheduling.mon"),
    ("create_response", "campaign.cycles", "campaign.cycles"),
    ("contact_response", "", None),
    ("contact_response", "contact", "contact"),
    ("thread", "", None),
    ("thread", "agent", "agent"),
    ("thread", "end_user", "end_user"),
    ("thread", "integration", "integration"),
    ("thread", "tags.1", "tags[1]"),
    ("thread", "assigned_to.0", "assigned_to[0]"),
    ("api_error", "", None),
    ("credentials_error", "", None),
]


def _object_at(value: Any, path: str) -> dict[str, Any]:
    node = value
    for step in path.split(".") if path else ():
        node = node[int(step) if step.isdigit() else step]
    assert type(node) is dict
    return node


# Every documented array, as (kind, dotted path, field path, a valid item).
DOCUMENTED_ARRAYS = [
    ("create_response", "campaign.cycles.filter_statuses", "campaign.cycles.filter_statuses", "x"),
    ("contact_response", "contact.tags", "contact.tags", "vip"),
    ("thread", "tags", "tags", {"id": "t", "name": "n"}),
    (
        "thread",
        "assigned_to",
        "assigned_to",
        {"id": "u", "email": "e", "first_name": "f", "last_name": "l"},
    ),
    ("api_error", "valid_targets", "valid_targets", "active"),
]


class TestSizesWithinCaps:
    @pytest.mark.parametrize(("kind", "path", "field"), DOCUMENTED_OBJECTS)
    def test_a_documented_object_of_64_members_is_read(
        self, kind: str, path: str, field: str | None
    ) -> None:
        value = body(kind)
        _fill(_object_at(value, path), 64)
        assert ok(kind, value) == parse(kind, body(kind)).value

    @pytest.mark.parametrize(("kind", "path", "field"), DOCUMENTED_OBJECTS)
    def test_a_documented_object_of_65_members_is_one_violation_at_its_path(
        self, kind: str, path: str, field: str | None
    ) -> None:
        value = body(kind)
        _fill(_object_at(value, path), 65)
        result = read(kind, value)
        assert found(result) == [("response.sizes_within_caps", field)]
        where = field or "the response body"
        assert result.violations[0].message == f"{where} has more than 64 members"

    def test_an_oversized_object_is_not_read_inside(self) -> None:
        # Its members are not walked: no second violation for what is broken inside it.
        value = with_("create_response", "campaign.agent.id", 5)
        _fill(value["campaign"]["agent"], 65)
        assert found(read("create_response", value)) == [
            ("response.sizes_within_caps", "campaign.agent")
        ]

    def test_a_huge_body_is_refused_unread(self) -> None:
        value = HostileDict({f"m{i}": HostileObject() for i in range(100_000)})
        assert found(read_armed("thread", value)) == [("response.sizes_within_caps", None)]

    @pytest.mark.parametrize(("kind", "path", "field", "item"), DOCUMENTED_ARRAYS)
    def test_a_documented_array_of_1000_items_is_read(
        self, kind: str, path: str, field: str, item: Any
    ) -> None:
        value = set_path(body(kind), path, [copy.deepcopy(item) for _ in range(1000)])
        ok(kind, value)

    @pytest.mark.parametrize(("kind", "path", "field", "item"), DOCUMENTED_ARRAYS)
    def test_a_documented_array_of_1001_items_is_one_violation_at_its_path(
        self, kind: str, path: str, field: str, item: Any
    ) -> None:
        # Bad items inside it are not read: the array is refused whole.
        items = [copy.deepcopy(item) for _ in range(1000)] + [None]
        result = read(kind, set_path(body(kind), path, items))
        assert found(result) == [("response.sizes_within_caps", field)]
        assert result.violations[0].message == f"{field} has more than 1000 items"

    def test_a_huge_hostile_array_is_refused_unread(self) -> None:
        value = with_("thread", "tags", HostileList([HostileObject()] * 100_000))
        assert found(read_armed("thread", value)) == [("response.sizes_within_caps", "tags")]

    def test_an_undocumented_array_or_object_is_not_capped(self) -> None:
        value = body("thread")
        value["history"] = list(range(100_000))
        value["extras"] = {f"k{i}": i for i in range(100_000)}
        ok("thread", value)


_DETAIL = ("id", "name", "status", "integration", "agent", "created_at", "scheduling", "cycles")
_CONTACT = (
    *("f_id", "id", "name", "contact", "status", "context", "retries", "has_follow_up"),
    *("call_count", "billed_duration", "last_call_at", "extracted_data", "tags"),
)
# Every required member of each kind of body, as (kind, dotted path).
REQUIRED = [
    *(("create_response", path) for path in ("success", "campaign")),
    *(("create_response", f"campaign.{name}") for name in _DETAIL),
    *(
        ("create_response", f"campaign.{path}")
        for path in (
            "integration.id",
            "integration.type",
            "agent.id",
            "agent.name",
            "scheduling.mon.startTime",
            "scheduling.mon.stopTime",
            "scheduling.mon.active",
            "cycles.enabled",
        )
    ),
    *(("contact_response", path) for path in ("success", "contact")),
    *(("contact_response", f"contact.{name}") for name in _CONTACT),
    *(
        ("thread", path)
        for path in (
            *RESPONSE_BASES["thread"],
            *("agent.id", "agent.name", "end_user.id", "end_user.display_name", "end_user.info"),
            *("integration.id", "tags.1.id", "tags.0.name"),
            *("assigned_to.0.id", "assigned_to.0.email"),
            *("assigned_to.0.first_name", "assigned_to.0.last_name"),
        )
    ),
    ("api_error", "success"),
    ("api_error", "message"),
    ("credentials_error", "message"),
]


class TestRequiredMembersPresent:
    @staticmethod
    def field_of(path: str) -> str:
        """`tags.1.id` as its field path, `tags[1].id`."""
        out = ""
        for step in path.split("."):
            out += f"[{step}]" if step.isdigit() else (f".{step}" if out else step)
        return out

    # Without `error`, an error body fits no shape: TestErrorBodyHasAKnownShape.
    @pytest.mark.parametrize(("kind", "path"), REQUIRED)
    def test_a_required_member_is_required_at_its_path(self, kind: str, path: str) -> None:
        field = self.field_of(path)
        result = read(kind, without(kind, path))
        assert found(result) == [("response.required_members_present", field)]
        assert result.violations[0].message == f"{field} is required"

    @pytest.mark.parametrize(
        ("kind", "path"),
        [
            ("create_response", "campaign.analytics"),
            ("create_response", "campaign.cycles.mode"),
            ("create_response", "campaign.cycles.max_iterations"),
            ("create_response", "campaign.cycles.cooldown_minutes"),
            ("create_response", "campaign.cycles.filter_statuses"),
            ("create_response", "campaign.scheduling.mon"),
            ("api_error", "field"),
            ("api_error", "current_status"),
            ("api_error", "valid_targets"),
        ],
    )
    def test_an_optional_member_may_be_absent_or_null(self, kind: str, path: str) -> None:
        absent = ok(kind, drop_if_present(body(kind), path))
        null = ok(kind, set_path(body(kind), path, None))
        assert absent == null  # D-tolerant-reading: null counts as absent

    def test_an_empty_body_lacks_every_required_member_in_table_order(self) -> None:
        assert found(read("thread", {})) == [
            ("response.required_members_present", name) for name in RESPONSE_BASES["thread"]
        ]

    def test_an_empty_scheduling_and_a_bare_cycles_are_complete(self) -> None:
        # D-detail-cycles: without scheduling a campaign shows {}; without cycles, not enabled.
        value = with_("create_response", "campaign.scheduling", {})
        set_path(value, "campaign.cycles", {"enabled": False})
        ok("create_response", value)

    def test_missing_members_of_several_objects_are_all_reported_in_document_order(self) -> None:
        value = without("create_response", "campaign.name")
        del value["campaign"]["agent"]["name"]
        del value["campaign"]["cycles"]["enabled"]
        assert found(read("create_response", value)) == [
            ("response.required_members_present", "campaign.name"),
            ("response.required_members_present", "campaign.agent.name"),
            ("response.required_members_present", "campaign.cycles.enabled"),
        ]


def drop_if_present(value: Any, path: str) -> Any:
    *parents, last = path.split(".")
    node = value
    for step in parents:
        node = node[step]
    node.pop(last, None)
    return value


# Where an unknown member goes: (kind, dotted path of a documented object).
UNKNOWN_AT = [
    ("create_response", ""),
    ("create_response", "campaign"),
    ("create_response", "campaign.integration"),
    ("create_response", "campaign.agent"),
    ("create_response", "campaign.scheduling"),
    ("create_response", "campaign.scheduling.mon"),
    ("create_response", "campaign.cycles"),
    ("contact_response", ""),
    ("contact_response", "contact"),
    ("thread", ""),
    ("thread", "agent"),
    ("thread", "end_user"),
    ("thread", "integration"),
    ("thread", "tags.0"),
    ("thread", "tags.1"),
    ("thread", "assigned_to.0"),
    ("api_error", ""),
    ("credentials_error", ""),
]


class TestTolerantReading:
    """D-tolerant-reading: members the spec does not list are ignored, at every level."""

    @pytest.mark.parametrize(("kind", "path"), UNKNOWN_AT)
    @pytest.mark.parametrize(
        "junk",
        [None, "x", 1.5, float("nan"), [1, {"a": None}], {"nested": {"deep": [True]}}, ()],
        ids=repr,
    )
    def test_an_unknown_member_anywhere_changes_nothing(
        self, kind: str, path: str, junk: Any
    ) -> None:
        value = body(kind)
        _object_at(value, path)["colour"] = junk
        assert ok(kind, value) == parse(kind, body(kind)).value

    def test_the_public_services_extra_thread_members_are_read(self) -> None:
        # The public service already sends tags[].color and integration.type on threads.
        value = body("thread")
        value["tags"][0]["color"] = "#ff0000"
        value["tags"][1]["color"] = None
        value["integration"]["type"] = "whatsapp"
        assert ok("thread", value) == parse_thread(body("thread")).value

    def test_input_only_filter_tags_in_a_detail_is_ignored(self) -> None:
        value = with_("create_response", "campaign.cycles.filter_tags", ["tag-vip"])
        assert (
            ok("create_response", value) == parse("create_response", body("create_response")).value
        )

    def test_an_unknown_weekday_in_a_schedule_is_ignored(self) -> None:
        value = with_("create_response", "campaign.scheduling.funday", {"startTime": 5})
        ok("create_response", value)

    def test_unknown_members_with_non_string_names_are_ignored(self) -> None:
        value = body("thread")
        value[5] = "x"
        value["agent"][None] = 1
        value[("a",)] = []
        assert ok("thread", value) == parse_thread(body("thread")).value

    def test_a_hostile_unknown_member_runs_no_code(self) -> None:
        value = body("contact_response")
        value["contact"][HostileStr("extra")] = HostileObject()
        value["extra"] = HostileDict({"a": HostileObject()})
        assert read_armed("contact_response", value).ok


# Wrong JSON types: (kind, dotted path, field path, the type the message names).
TYPED = [
    ("create_response", "success", "success", "a boolean"),
    ("create_response", "campaign", "campaign", "an object"),
    ("create_response", "campaign.id", "campaign.id", "an integer"),
    ("create_response", "campaign.name", "campaign.name", "a string"),
    ("create_response", "campaign.status", "campaign.status", "a string"),
    ("create_response", "campaign.integration", "campaign.integration", "an object or null"),
    ("create_response", "campaign.integration.id", "campaign.integration.id", "a string"),
    ("create_response", "campaign.integration.type", "campaign.integration.type", "a string"),
    ("create_response", "campaign.agent", "campaign.agent", "an object"),
    ("create_response", "campaign.agent.id", "campaign.agent.id", "a string"),
    ("create_response", "campaign.created_at", "campaign.created_at", "a string"),
    ("create_response", "campaign.scheduling", "campaign.scheduling", "an object"),
    ("create_response", "campaign.scheduling.mon", "campaign.scheduling.mon", "an object"),
    (
        "create_response",
        "campaign.scheduling.mon.startTime",
        "campaign.scheduling.mon.startTime",
        "a string",
    ),
    (
        "create_response",
        "campaign.scheduling.mon.active",
        "campaign.scheduling.mon.active",
        "a boolean",
    ),
    ("create_response", "campaign.cycles", "campaign.cycles", "an object"),
    ("create_response", "campaign.cycles.enabled", "campaign.cycles.enabled", "a boolean"),
    ("create_response", "campaign.cycles.mode", "campaign.cycles.mode", "a string"),
    (
        "create_response",
        "campaign.cycles.max_iterations",
        "campaign.cycles.max_iterations",
        "an integer",
    ),
    (
        "create_response",
        "campaign.cycles.cooldown_minutes",
        "campaign.cycles.cooldown_minutes",
        "an integer",
    ),
    (
        "create_response",
        "campaign.cycles.filter_statuses",
        "campaign.cycles.filter_statuses",
        "an array",
    ),
    (
        "create_response",
        "campaign.cycles.filter_statuses.0",
        "campaign.cycles.filter_statuses[0]",
        "a string",
    ),
    ("create_response", "campaign.analytics", "campaign.analytics", "an object"),
    ("contact_response", "contact.id", "contact.id", "an integer"),
    ("contact_response", "contact.f_id", "contact.f_id", "a string"),
    ("contact_response", "contact.retries", "contact.retries", "an integer"),
    ("contact_response", "contact.has_follow_up", "contact.has_follow_up", "a boolean"),
    ("contact_response", "contact.call_count", "contact.call_count", "an integer"),
    ("contact_response", "contact.billed_duration", "contact.billed_duration", "an integer"),
    ("contact_response", "contact.last_call_at", "contact.last_call_at", "a string or null"),
    ("contact_response", "contact.extracted_data", "contact.extracted_data", "an object"),
    ("contact_response", "contact.tags", "contact.tags", "an array"),
    ("contact_response", "contact.tags.1", "contact.tags[1]", "a string"),
    ("thread", "id", "id", "a string"),
    ("thread", "agent.id", "agent.id", "a string"),
    ("thread", "end_user.info", "end_user.info", "a string"),
    ("thread", "integration", "integration", "an object"),
    ("thread", "updated_at", "updated_at", "a string"),
    ("thread", "active", "active", "a boolean"),
    ("thread", "blocked", "blocked", "a boolean"),
    ("thread", "tags", "tags", "an array"),
    ("thread", "tags.1", "tags[1]", "an object"),
    ("thread", "tags.1.name", "tags[1].name", "a string"),
    ("thread", "assigned_to.0.email", "assigned_to[0].email", "a string"),
    ("api_error", "success", "success", "a boolean"),
    ("api_error", "message", "message", "a string"),
    ("api_error", "field", "field", "a string"),
    ("api_error", "current_status", "current_status", "a string"),
    ("api_error", "valid_targets", "valid_targets", "an array"),
    ("credentials_error", "message", "message", "a string"),
]


# Optional members: sent as null, they count as absent (D-tolerant-reading).
OPTIONAL = {
    "campaign.scheduling.mon",
    "campaign.cycles.mode",
    "campaign.cycles.max_iterations",
    "campaign.cycles.cooldown_minutes",
    "campaign.cycles.filter_statuses",
    "campaign.analytics",
    "field",
    "current_status",
    "valid_targets",
}
# One value of each JSON type, with the type's name as messages give it.
ONE_OF_EACH = {
    "a string": "x",
    "an integer": 3,
    "a number": 1.5,
    "a boolean": True,
    "an object": {"a": 1},
    "an array": ["x"],
}


def wrong_values(expected: str, path: str) -> list[Any]:
    """Values of every JSON type but `expected` (strings like "3" and "false" too), null where
    it is not allowed, and a value no JSON type has."""
    allowed = expected.removesuffix(" or null")
    values = [value for name, value in ONE_OF_EACH.items() if name != allowed]
    if allowed != "a string":
        values += ["3", "false"]
    if allowed == "an integer":
        values += [False, float("nan")]
    if not expected.endswith(" or null") and path not in OPTIONAL:
        values.append(None)
    return [*values, HostileObject()]


class TestMembersHaveJsonTypes:
    @pytest.mark.parametrize(("kind", "path", "field", "expected"), TYPED)
    def test_a_value_of_another_json_type_is_one_violation_at_its_path(
        self, kind: str, path: str, field: str, expected: str
    ) -> None:
        for wrong in wrong_values(expected, path):
            result = read_armed(kind, with_(kind, path, wrong))
            assert found(result) == [("response.members_have_json_types", field)], wrong
            assert result.violations[0].message == f"{field} must be {expected}"

    @pytest.mark.parametrize(
        ("kind", "path", "field"),
        [
            ("create_response", "campaign.id", "campaign.id"),
            ("contact_response", "contact.id", "contact.id"),
            ("contact_response", "contact.retries", "contact.retries"),
            ("contact_response", "contact.call_count", "contact.call_count"),
            ("contact_response", "contact.billed_duration", "contact.billed_duration"),
            ("create_response", "campaign.cycles.max_iterations", "campaign.cycles.max_iterations"),
        ],
    )
    @pytest.mark.parametrize("wrong", ["3", True, False, 1.5, float("nan"), float("inf")], ids=repr)
    def test_an_integer_member_refuses_strings_booleans_and_fractions(
        self, kind: str, path: str, field: str, wrong: Any
    ) -> None:
        one(kind, with_(kind, path, wrong), "response.members_have_json_types", field)

    @pytest.mark.parametrize(
        ("wrong", "expected"),
        [
            # A string `error` makes the body the envelope, which then lacks `success`, and
            # whose `error` is no key of spec 7.2.
            (
                "3",
                [
                    ("response.required_members_present", "success"),
                    ("response.values_have_formats", "error"),
                ],
            ),
            # Neither a string nor an integer: no shape fits.
            (True, [("error.body_has_a_known_shape", "error")]),
            (1.5, [("error.body_has_a_known_shape", "error")]),
            (float("nan"), [("error.body_has_a_known_shape", "error")]),
        ],
        ids=repr,
    )
    def test_a_credentials_error_that_is_not_an_integer(
        self, wrong: Any, expected: list[tuple[str, str]]
    ) -> None:
        assert found(read("credentials_error", with_("credentials_error", "error", wrong))) == (
            expected
        )

    @pytest.mark.parametrize(
        ("kind", "path"),
        [
            ("create_response", "campaign.id"),
            ("contact_response", "contact.id"),
            ("contact_response", "contact.retries"),
            ("credentials_error", "error"),
        ],
    )
    @pytest.mark.parametrize("integral", [5.0, HostileInt(5), HostileFloat(5.0)], ids=label)
    def test_an_integral_float_or_an_int_subclass_is_the_integer(
        self, kind: str, path: str, integral: Any
    ) -> None:
        # D-integral-floats, as on the creation side.
        plain = parse(kind, with_(kind, path, 5)).value
        result = read_armed(kind, with_(kind, path, integral))
        assert result.ok
        assert result.value == plain

    @pytest.mark.parametrize(
        ("kind", "path", "field"),
        [
            ("create_response", "success", "success"),
            ("create_response", "campaign.cycles.enabled", "campaign.cycles.enabled"),
            ("create_response", "campaign.scheduling.mon.active", "campaign.scheduling.mon.active"),
            ("contact_response", "contact.has_follow_up", "contact.has_follow_up"),
            ("thread", "active", "active"),
            ("thread", "blocked", "blocked"),
            ("api_error", "success", "success"),
        ],
    )
    @pytest.mark.parametrize("wrong", ["false", "true", 0, 1, None, "", 0.0], ids=repr)
    def test_a_boolean_member_refuses_look_alikes(
        self, kind: str, path: str, field: str, wrong: Any
    ) -> None:
        one(kind, with_(kind, path, wrong), "response.members_have_json_types", field)

    def test_null_is_taken_only_where_nullable(self) -> None:
        # spec 2.2: integration is "object or null"; D-contact-last-call: last_call_at is null
        # for a contact never called. A required member that is not nullable refuses null.
        detail = ok("create_response", with_("create_response", "campaign.integration", None))
        assert detail.integration is None
        contact = ok("contact_response", with_("contact_response", "contact.last_call_at", None))
        assert contact.last_call_at is None
        one(
            "thread",
            with_("thread", "integration", None),
            "response.members_have_json_types",
            "integration",
        )

    def test_every_wrong_member_is_reported_in_document_order(self) -> None:
        value = body("thread")
        value["id"] = 1
        value["tags"][1]["name"] = 2
        value["assigned_to"][0]["email"] = None
        value["blocked"] = "false"
        assert found(read("thread", value)) == [
            ("response.members_have_json_types", "id"),
            ("response.members_have_json_types", "blocked"),
            ("response.members_have_json_types", "tags[1].name"),
            ("response.members_have_json_types", "assigned_to[0].email"),
        ]

    def test_a_hostile_value_of_a_documented_member_runs_no_code(self) -> None:
        value = with_("thread", "agent.name", HostileObject())
        assert found(read_armed("thread", value)) == [
            ("response.members_have_json_types", "agent.name")
        ]

    def test_string_and_list_subclasses_are_read_as_plain_values(self) -> None:
        value = body("thread")
        value["id"] = HostileStr("th-1")
        value["tags"] = HostileList([HostileDict(tag) for tag in value["tags"]])
        value["agent"] = HostileDict(
            {HostileStr(k): HostileStr(v) for k, v in value["agent"].items()}
        )
        result = read_armed("thread", value)
        assert result.ok
        assert result.value == parse_thread(body("thread")).value
        assert type(result.value.id) is str
        assert type(result.value.agent.name) is str


# Format edges: (kind, dotted path, field path, accepted values, refused values).
ACCEPTED_DATE_TIMES = [
    "2026-03-01T09:30:00Z",
    "2026-03-01T09:30:00z",
    "2026-03-01t09:30:00Z",
    "2026-03-01 09:30:00Z",
    "2026-03-01T09:30:00+00:00",
    "2026-03-01T09:30:00-00:00",
    "2026-03-01T09:30:00+05:30",
    "2026-03-01T09:30:00-23:59",
    "2026-03-01T09:30:00+23:59",
    "2026-03-01T09:30:00",
    "2026-03-01T09:30:00.5Z",
    "2026-03-01T09:30:00.123456+01:00",
    "2026-03-01T09:30:00.123456789-03:00",
    "2026-03-01T09:30:00.000000000",
    "2024-02-29T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
]
REFUSED_DATE_TIMES = [
    "",
    "2026-03-01",
    "2026-03-01T09:30Z",
    "2026-03-01T09:30:00.Z",
    "2026-03-01T09:30:00.1234567890Z",  # ten fraction digits (D-date-times: nine at most)
    "2026-03-01T09:30:00.1234567890",
    "2026-03-01T09:30:00.12345678901234",
    "2026-03-01T24:00:00Z",
    "2026-03-01T23:60:00Z",
    "2026-03-01T23:59:60Z",
    "2026-03-01T09:30:00+24:00",
    "2026-03-01T09:30:00+05:60",
    "2026-03-01T09:30:00+0530",
    "2026-03-01T09:30:00+05",
    "2026-03-01T09:30:00 Z",
    "2026-03-01T09:30:00ZZ",
    "2026-03-01_09:30:00Z",
    "2026-03-01T9:30:00Z",
    "2025-02-29T09:30:00Z",
    "0000-01-01T00:00:00Z",
    "2026-3-01T09:30:00Z",
    "２０２６-03-01T09:30:00Z",
    "2026-03-01T09:30:00+05:30 ",
    "1772357400",
    "2026-03-01T09:30:00.1234567890123456789012345Z",
    # "/" and ":" stand either side of the ASCII digits: one in each number of the text.
    "202/-03-01T09:30:00Z",
    "2026-0:-01T09:30:00Z",
    "2026-03-0/T09:30:00Z",
    "2026-03-01T0::30:00Z",
    "2026-03-01T09:3/:00Z",
    "2026-03-01T09:30:0:Z",
    "2026-03-01T09:30:00+0/:30",
    "2026-03-01T09:30:00+05:3:",
]


class TestIntegersAreInteroperable:
    @pytest.mark.parametrize("number", [2**53, -(2**53), 10**400, 1e300, -1e300], ids=label)
    def test_an_integer_past_the_json_range_is_refused_at_its_path(self, number: Any) -> None:
        result = read("create_response", with_("create_response", "campaign.id", number))
        assert found(result) == [("response.integers_are_interoperable", "campaign.id")]
        assert result.violations[0].message == (
            "campaign.id must be an integer from -9007199254740991 to 9007199254740991"
        )

    @pytest.mark.parametrize("number", [1, 2**53 - 1, 9007199254740991.0], ids=label)
    def test_an_integer_within_the_range_is_read(self, number: Any) -> None:
        result = read("create_response", with_("create_response", "campaign.id", number))
        assert result.ok
        assert result.value.id == int(number)

    @pytest.mark.parametrize("number", [2**53, -(2**53), 10**400])
    def test_an_opaque_member_holds_only_integers_within_the_range(self, number: int) -> None:
        body = with_("create_response", "campaign.analytics", {"calls": [1, {"n": number}]})
        one(
            "create_response", body, "response.opaque_members_hold_plain_json", "campaign.analytics"
        )

    def test_an_integral_float_of_an_opaque_member_stays_a_float(self) -> None:
        body = with_("create_response", "campaign.analytics", {"calls": 1e300})
        ok("create_response", body)


class TestValuesHaveFormats:
    @pytest.mark.parametrize("text", ACCEPTED_DATE_TIMES)
    def test_an_rfc_3339_date_time_is_taken(self, text: str) -> None:
        # D-date-times: T, t or a space; Z, z, an offset, -00:00 or none (both UTC); up to nine
        # fraction digits.
        ok("create_response", with_("create_response", "campaign.created_at", text))
        ok("thread", with_("thread", "updated_at", text))

    @pytest.mark.parametrize("text", REFUSED_DATE_TIMES)
    def test_anything_else_is_not_a_date_time(self, text: str) -> None:
        result = read("create_response", with_("create_response", "campaign.created_at", text))
        assert found(result) == [("response.values_have_formats", "campaign.created_at")]
        assert result.violations[0].message == ("campaign.created_at must be an RFC 3339 date-time")
        one(
            "thread",
            with_("thread", "updated_at", text),
            "response.values_have_formats",
            "updated_at",
        )

    @pytest.mark.parametrize(
        "text",
        [
            "2026-03-02 10:15:00",
            "0001-01-01 00:00:00",
            "9999-12-31 23:59:59",
            "2024-02-29 23:59:59",
        ],
    )
    def test_last_call_at_takes_yyyy_mm_dd_hh_mm_ss(self, text: str) -> None:
        ok("contact_response", with_("contact_response", "contact.last_call_at", text))

    @pytest.mark.parametrize(
        "text",
        [
            "",
            "2026-03-02T10:15:00",
            "2026-03-02 10:15",
            "2026-03-02 10:15:00Z",
            "2026-03-02 10:15:00+00:00",
            "2026-03-02 10:15:00.5",
            "2026-03-02 24:00:00",
            "2026-03-02 10:60:00",
            "2026-03-02 10:15:60",
            "2026-02-30 10:00:00",
            "2026-03-02  10:15:0",
            "02/03/2026 10:15:00",
        ],
    )
    def test_last_call_at_refuses_other_forms(self, text: str) -> None:
        one(
            "contact_response",
            with_("contact_response", "contact.last_call_at", text),
            "response.values_have_formats",
            "contact.last_call_at",
        )

    @pytest.mark.parametrize(
        "text", ["00:00", "09:00", "23:59", "00:00:00", "09:00:30", "23:59:59"]
    )
    @pytest.mark.parametrize("member", ["startTime", "stopTime"])
    def test_a_window_time_is_hh_mm_with_or_without_seconds(self, text: str, member: str) -> None:
        # D-response-times. The window's order is not checked on what is read back.
        ok("create_response", with_("create_response", f"campaign.scheduling.mon.{member}", text))

    @pytest.mark.parametrize(
        "text",
        [
            "24:00",
            "23:60",
            "24:00:00",
            "23:59:60",
            "23:60:00",
            "9:00",
            "09:0",
            "09:00:0",
            "0900",
            "09.00",
            "09:00 ",
            "",
            "０９:00",
            "09:00:00.5",
            "09:00Z",
            "0::00:00",
            "09:/0:00",
            "09:00:0:",
        ],
    )
    def test_anything_else_is_not_a_window_time(self, text: str) -> None:
        for path in ("campaign.scheduling.mon.stopTime", "campaign.cycles.schedule.wed.startTime"):
            value = body("create_response")
            value["campaign"]["cycles"] = {
                "enabled": True,
                "mode": "scheduled",
                "schedule": {"wed": {"startTime": "08:00", "stopTime": "09:00", "active": True}},
            }
            one(
                "create_response", set_path(value, path, text), "response.values_have_formats", path
            )

    @pytest.mark.parametrize(
        ("text", "taken"),
        [
            ("2026-02-28", True),
            ("2024-02-29", True),
            ("2026-02-29", False),
            ("2026-13-01", False),
            ("2026-03-01T00:00:00Z", False),
            ("", False),
        ],
    )
    @pytest.mark.parametrize("member", ["schedule_start_date", "schedule_end_date"])
    def test_cycle_dates_are_calendar_dates(self, text: str, taken: bool, member: str) -> None:
        path = f"campaign.cycles.{member}"
        value = with_("create_response", path, text)
        if taken:
            ok("create_response", value)
        else:
            one("create_response", value, "response.values_have_formats", path)

    @pytest.mark.parametrize(
        ("kind", "path", "field"),
        [
            ("create_response", "campaign.id", "campaign.id"),
            ("contact_response", "contact.id", "contact.id"),
        ],
    )
    def test_ids_are_positive(self, kind: str, path: str, field: str) -> None:
        ok(kind, with_(kind, path, 1))
        ok(kind, with_(kind, path, 2**53 - 1))
        for bad in (0, -1, 0.0, -(2**53 - 1)):
            result = read(kind, with_(kind, path, bad))
            assert found(result) == [("response.values_have_formats", field)]
            assert result.violations[0].message == f"{field} must be a positive integer"

    @pytest.mark.parametrize("name", ["retries", "call_count", "billed_duration"])
    def test_contact_counters_are_zero_or_more(self, name: str) -> None:
        path = f"contact.{name}"
        ok("contact_response", with_("contact_response", path, 0))
        ok("contact_response", with_("contact_response", path, 2**53 - 1))
        for bad in (-1, -1.0, -(2**53 - 1)):
            one(
                "contact_response",
                with_("contact_response", path, bad),
                "response.values_have_formats",
                path,
            )

    @pytest.mark.parametrize("value", [-1, 0, 1, 13, 10**6], ids=repr)
    def test_cycles_counts_read_back_are_not_bounded(self, value: int) -> None:
        # Spec 8's bounds apply to creation input, not to what a service sends back.
        for name in ("max_iterations", "cooldown_minutes"):
            ok("create_response", with_("create_response", f"campaign.cycles.{name}", value))

    def test_the_campaign_agent_id_is_a_uuid_v4(self) -> None:
        path = "campaign.agent.id"
        for good in (AGENT, AGENT.upper(), str(uuid.uuid4())):
            ok("create_response", with_("create_response", path, good))
        for bad in (
            "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
            "9b2f1c1e-3c4d-3e5f-8a6b-7c8d9e0f1a2b",
            "9b2f1c1e-3c4d-4e5f-7a6b-7c8d9e0f1a2b",
            AGENT.replace("-", ""),
            "{" + AGENT + "}",
            "",
            "ag-1",
        ):
            result = read("create_response", with_("create_response", path, bad))
            assert found(result) == [("response.values_have_formats", path)]
            assert result.violations[0].message == f"{path} must be a UUID v4"

    @pytest.mark.parametrize(
        "agent_id", ["ag-1", "", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", AGENT]
    )
    def test_the_thread_agent_id_is_any_string(self, agent_id: str) -> None:
        # Spec 2.6 types the thread's agent id as a string, with no UUID.
        ok("thread", with_("thread", "agent.id", agent_id))

    @pytest.mark.parametrize(
        ("kind", "path", "good", "bad"),
        [
            (
                "create_response",
                "campaign.status",
                ["pending", "ready", "active", "inactive", "cooldown", "finished"],
                ["PENDING", "archived", "", " active", "Active"],
            ),
            (
                "create_response",
                "campaign.integration.type",
                ["phone_call", "whatsapp"],
                ["sms", "PHONE_CALL", "phone-call", ""],
            ),
            (
                "create_response",
                "campaign.cycles.mode",
                ["cooldown", "scheduled"],
                ["weekly", "Cooldown", ""],
            ),
            (
                "api_error",
                "error",
                ["NOT_FOUND", "SERVER_ERROR", "INVALID_STATUS_TRANSITION", "RATE_LIMITED"],
                ["not_found", "TEAPOT", "", "NOT_FOUND "],
            ),
            (
                "api_error",
                "current_status",
                ["pending", "finished"],
                ["archived", "FINISHED"],
            ),
        ],
    )
    def test_enumerations_take_their_values_only(
        self, kind: str, path: str, good: list[str], bad: list[str]
    ) -> None:
        for text in good:
            ok(kind, with_(kind, path, text))
        for text in bad:
            one(kind, with_(kind, path, text), "response.values_have_formats", path)

    def test_valid_targets_are_campaign_statuses(self) -> None:
        ok("api_error", with_("api_error", "valid_targets", ["active", "inactive", "finished"]))
        ok("api_error", with_("api_error", "valid_targets", []))
        value = with_("api_error", "valid_targets", ["active", "paused", "", "ready"])
        assert found(read("api_error", value)) == [
            ("response.values_have_formats", "valid_targets[1]"),
            ("response.values_have_formats", "valid_targets[2]"),
        ]

    def test_success_is_true_in_a_success_body_and_false_in_an_error_body(self) -> None:
        for kind in ("create_response", "contact_response"):
            result = read(kind, with_(kind, "success", False))
            assert found(result) == [("response.values_have_formats", "success")]
            assert result.violations[0].message == "success must be true in a success body"
        result = read("api_error", with_("api_error", "success", True))
        assert found(result) == [("response.values_have_formats", "success")]
        assert result.violations[0].message == "success must be false in an error body"

    def test_a_value_of_the_wrong_type_is_not_also_a_format_violation(self) -> None:
        one(
            "create_response",
            with_("create_response", "campaign.id", "0"),
            "response.members_have_json_types",
            "campaign.id",
        )

    def test_a_string_subclass_is_checked_by_its_characters(self) -> None:
        good = with_("thread", "updated_at", HostileStr("2026-03-02T10:15:00Z"))
        assert read_armed("thread", good).ok
        bad = with_("create_response", "campaign.status", HostileStr("archived"))
        assert found(read_armed("create_response", bad)) == [
            ("response.values_have_formats", "campaign.status")
        ]

    def test_a_huge_string_costs_no_parse(self) -> None:
        one(
            "thread",
            with_("thread", "updated_at", "2" * 10_000_000),
            "response.values_have_formats",
            "updated_at",
        )


class TestMapsHoldStrings:
    def test_extracted_data_maps_strings_to_strings(self) -> None:
        value = with_("contact_response", "contact.extracted_data", {"": "", "é 🚀": "x" * 10_000})
        contact = ok("contact_response", value)
        assert dict(contact.extracted_data) == {"": "", "é 🚀": "x" * 10_000}

    def test_an_empty_map_is_read(self) -> None:
        assert ok("contact_response", with_("contact_response", "contact.extracted_data", {}))

    @pytest.mark.parametrize(
        "wrong", [None, 1, 1.5, True, [], ["x"], {}, {"a": "b"}, (), HostileObject()], ids=label
    )
    def test_a_value_that_is_not_a_string_is_refused_at_its_key(self, wrong: Any) -> None:
        data = {"plan": "gold", "score": wrong, "z": "ok"}
        result = read_armed(
            "contact_response", with_("contact_response", "contact.extracted_data", data)
        )
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data.score")]
        assert result.violations[0].message == "contact.extracted_data.score must be a string"

    def test_every_bad_value_is_reported_in_order(self) -> None:
        data = {"a": 1, "b": "ok", "c": None}
        assert found(
            read("contact_response", with_("contact_response", "contact.extracted_data", data))
        ) == [
            ("response.maps_hold_strings", "contact.extracted_data.a"),
            ("response.maps_hold_strings", "contact.extracted_data.c"),
        ]

    def test_a_long_key_is_cut_to_the_path_s_max_length(self) -> None:
        name = "k" * (FIELD_PATH_MAX_LENGTH + 36)
        result = read(
            "contact_response", with_("contact_response", "contact.extracted_data", {name: 1})
        )
        # The name is cut to 64 and `…`, then the path, 88 characters, to 85 (D-shown-text).
        path = "contact.extracted_data." + "k" * FIELD_PATH_MAX_LENGTH + "…"
        assert found(result) == [("response.maps_hold_strings", path[:40] + "…" + path[-44:])]
        assert result.violations[0].pointer == "/contact/extracted_data/" + name

    def test_a_key_s_control_characters_are_escaped_and_its_pointer_is_exact(self) -> None:
        name = "a.b/\x1b[31m"
        result = read(
            "contact_response", with_("contact_response", "contact.extracted_data", {name: 1})
        )
        assert found(result) == [
            ("response.maps_hold_strings", "contact.extracted_data.a.b/\\u001b[31m")
        ]
        assert result.violations[0].pointer == "/contact/extracted_data/a.b~1\x1b[31m"

    @pytest.mark.parametrize("name", [5, None, 1.5, ("a",), b"a", True], ids=repr)
    def test_names_that_are_not_strings_are_one_violation_at_the_map(self, name: Any) -> None:
        data = {"plan": "gold", name: "x", "other": "y"}
        result = read("contact_response", with_("contact_response", "contact.extracted_data", data))
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data")]
        assert result.violations[0].message == (
            "contact.extracted_data has members whose names are not strings"
        )

    def test_1000_members_are_read_and_1001_refused_whole(self) -> None:
        data = {f"k{i}": "v" for i in range(1000)}
        contact = ok("contact_response", with_("contact_response", "contact.extracted_data", data))
        assert len(contact.extracted_data) == 1000
        data["k1000"] = 5  # refused whole: the bad value in it is not read
        result = read("contact_response", with_("contact_response", "contact.extracted_data", data))
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data")]
        assert result.violations[0].message == "contact.extracted_data has more than 1000 members"

    def test_a_deep_value_is_one_violation_at_its_key(self) -> None:
        data = {"deep": deep_dict(100_000)}
        value = with_("contact_response", "contact.extracted_data", {"x": "y"})
        value["contact"]["extracted_data"] = data
        before = identity_snapshot(value)
        result = parse("contact_response", value)
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data.deep")]
        assert identity_snapshot(value) == before

    def test_a_map_holding_itself_is_one_violation_at_its_key(self) -> None:
        data: dict[str, Any] = {"plan": "gold"}
        data["self"] = data
        value = body("contact_response")
        value["contact"]["extracted_data"] = data
        before = identity_snapshot(value)
        result = parse("contact_response", value)
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data.self")]
        assert identity_snapshot(value) == before

    def test_hostile_names_and_values_run_no_code(self) -> None:
        data = HostileDict(
            {HostileStr("plan"): HostileStr("gold"), HostileStr("n"): HostileStr("")}
        )
        result = read_armed(
            "contact_response", with_("contact_response", "contact.extracted_data", data)
        )
        assert result.ok
        assert dict(result.value.extracted_data) == {"plan": "gold", "n": ""}
        assert all(
            type(k) is str and type(v) is str for k, v in result.value.extracted_data.items()
        )

    def test_a_huge_hostile_map_is_refused_unread(self) -> None:
        data = HostileDict({HostileStr(f"k{i}"): HostileObject() for i in range(5000)})
        result = read_armed(
            "contact_response", with_("contact_response", "contact.extracted_data", data)
        )
        assert found(result) == [("response.maps_hold_strings", "contact.extracted_data")]

    def test_an_extracted_data_that_is_not_an_object_is_the_type_rules(self) -> None:
        one(
            "contact_response",
            with_("contact_response", "contact.extracted_data", ["a", "b"]),
            "response.members_have_json_types",
            "contact.extracted_data",
        )


def nested(levels: int, kind: type = dict) -> Any:
    """`levels` containers, each (but the innermost) holding the next."""
    value: Any = {} if kind is dict else []
    for _ in range(levels - 1):
        value = {"a": value} if kind is dict else [value]
    return value


class TestOpaqueMembersHoldPlainJson:
    RULE = "response.opaque_members_hold_plain_json"

    def analytics(self, value: Any) -> Any:
        return with_("create_response", "campaign.analytics", value)

    def test_plain_json_is_kept_as_given(self) -> None:
        snapshot = {"calls": 10, "rate": 0.25, "by_day": [{"mon": 3}, None, True, "x"], "": {}}
        detail = ok("create_response", self.analytics(copy.deepcopy(snapshot)))
        assert dict(detail.analytics) == snapshot

    def test_an_empty_snapshot_is_kept_and_differs_from_none(self) -> None:
        assert dict(ok("create_response", self.analytics({})).analytics) == {}
        assert ok("create_response", body("create_response")).analytics is None

    @pytest.mark.parametrize("kind", [dict, list])
    def test_32_levels_are_read_and_33_refused(self, kind: type) -> None:
        # D-response-caps: the analytics object itself is the first of the 32 levels.
        inner = nested(31, kind)
        ok("create_response", self.analytics({"a": inner}))
        result = read("create_response", self.analytics({"a": nested(32, kind)}))
        assert found(result) == [(self.RULE, "campaign.analytics")]
        assert result.violations[0].message == (
            "campaign.analytics is nested more than 32 levels deep"
        )

    def test_a_scalar_at_the_deepest_level_is_fine(self) -> None:
        # 32 levels of containers, with scalars inside the innermost.
        ok("create_response", self.analytics({"a": [*nested(30, list), 1, "x", None]}))

    def test_the_max_values_are_read_and_one_more_refused(self) -> None:
        # D-response-caps: every value counts, containers too, the analytics object included.
        most = RESPONSE_OPAQUE_MAX_VALUES
        ok("create_response", self.analytics({"a": [0] * (most - 2)}))
        ok("create_response", self.analytics({f"k{i}": 0 for i in range(most - 1)}))
        for too_many in ({"a": [0] * (most - 1)}, {f"k{i}": 0 for i in range(most)}):
            result = read("create_response", self.analytics(too_many))
            assert found(result) == [(self.RULE, "campaign.analytics")]
            expected = f"campaign.analytics holds more than {most} values"
            assert result.violations[0].message == expected

    def test_a_100000_deep_snapshot_is_refused_without_recursion(self) -> None:
        value = self.analytics(deep_dict(100_000))
        before = identity_snapshot(value)
        result = parse("create_response", value)
        assert found(result) == [(self.RULE, "campaign.analytics")]
        assert identity_snapshot(value) == before

    @pytest.mark.parametrize("where", ["top", "inside", "list"])
    def test_a_snapshot_that_contains_itself_is_refused(self, where: str) -> None:
        snapshot: dict[str, Any] = {"calls": 1}
        if where == "top":
            snapshot["self"] = snapshot
        elif where == "inside":
            snapshot["inner"] = {"up": snapshot}
        else:
            loop: list[Any] = [1]
            loop.append(loop)
            snapshot["loop"] = loop
        value = self.analytics(snapshot)
        before = identity_snapshot(value)
        assert found(parse("create_response", value)) == [(self.RULE, "campaign.analytics")]
        assert identity_snapshot(value) == before

    @pytest.mark.parametrize(
        ("inner", "problem"),
        [
            (float("nan"), "holds a number JSON cannot hold"),
            (float("inf"), "holds a number JSON cannot hold"),
            (-float("inf"), "holds a number JSON cannot hold"),
            ((1, 2), "holds a value JSON cannot hold"),
            ({1, 2}, "holds a value JSON cannot hold"),
            (b"x", "holds a value JSON cannot hold"),
            (HostileObject(), "holds a value JSON cannot hold"),
            ({5: "x"}, "has members whose names are not strings"),
            ({None: "x"}, "has members whose names are not strings"),
        ],
        ids=label,
    )
    def test_what_json_cannot_hold_is_refused(self, inner: Any, problem: str) -> None:
        result = read_armed("create_response", self.analytics({"ok": 1, "bad": [inner]}))
        assert found(result) == [(self.RULE, "campaign.analytics")]
        assert result.violations[0].message == f"campaign.analytics {problem}"

    def test_a_snapshot_with_hostile_containers_runs_no_code(self) -> None:
        snapshot = HostileDict({HostileStr("a"): HostileList([HostileInt(1), HostileFloat(1.5)])})
        assert read_armed("create_response", self.analytics(snapshot)).ok

    @pytest.mark.parametrize("wrong", [[], "x", 1, True], ids=repr)
    def test_a_snapshot_that_is_not_an_object_is_the_type_rules(self, wrong: Any) -> None:
        one(
            "create_response",
            self.analytics(wrong),
            "response.members_have_json_types",
            "campaign.analytics",
        )

    def test_a_huge_snapshot_is_refused_before_its_items_are_read(self) -> None:
        snapshot = {"a": HostileList([HostileObject()] * 100_000)}
        assert found(read_armed("create_response", self.analytics(snapshot))) == [
            (self.RULE, "campaign.analytics")
        ]


class TestNoBodyIsChanged:
    """Whatever the body, the parsers leave it as it was, and raise for none."""

    @pytest.mark.parametrize("builder", sorted(HOSTILE_BUILDERS))
    def test_deep_and_self_referencing_values_at_every_documented_member(
        self, builder: str
    ) -> None:
        # 10,000 levels deep, or containing itself, at each member of TYPED and at the root.
        hostile = HOSTILE_BUILDERS[builder]()
        # The hostile value's own structure is compared once, at the end (it is large).
        hostile_before = identity_snapshot(hostile)
        for kind in KINDS:
            assert_well_formed(parse(kind, hostile))
        for kind, path, field, _ in TYPED:
            value = with_(kind, path, hostile)
            before = identity_snapshot(value, skip=id(hostile))
            result = assert_well_formed(parse(kind, value))
            assert identity_snapshot(value, skip=id(hostile)) == before
            # What is wrong is inside the member given, not elsewhere in the body.
            fields = [violation.field or "" for violation in result.violations]
            assert all(name.startswith(field) for name in fields), (path, fields)
        assert identity_snapshot(hostile) == hostile_before

    @pytest.mark.parametrize("kind", KINDS)
    def test_valid_and_broken_bodies_are_unchanged(self, kind: str) -> None:
        variants = [body(kind), HostileDict(body(kind))]
        broken = body(kind)
        for name in list(broken)[:3]:
            broken[name] = [None, {"x": 1}]
        variants.append(broken)
        for value in variants:
            before = copy.deepcopy(value)
            parse(kind, value)
            assert value == before
            assert type(value) is type(before)
