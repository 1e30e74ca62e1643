"""Properties of the response readers (`parse_*`) and `to_wire` (spec 2.2-2.6, 4.1-4.3, 5, 7).

Decisions: D-tolerant-reading, D-date-times, D-response-times, D-detail-cycles,
D-contact-last-call, D-response-violations, D-response-caps.
"""

from __future__ import annotations

import copy
import datetime
import re
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from campaign_rules import ErrorKey, Violation, to_wire
from campaign_rules.responses import ParseResult, parse_error
from tests import strategies_support as parts
from tests.property import response_strategies as r
from tests.property import strategies as s
from tests.response_support import body as example_body
from tests.response_support import parse

# ---------------------------------------------------------------------------------------------
# Helpers.


def assert_well_formed(result: object) -> ParseResult[Any]:
    """A reader's result: 200 and a value when ok, else 500, SERVER_ERROR and no value."""
    assert type(result) is ParseResult
    assert type(result.violations) is tuple
    assert len(result.violations) <= 50  # D-hostile-input
    for violation in result.violations:
        assert type(violation) is Violation
        assert violation.key is ErrorKey.SERVER_ERROR
        assert violation.field is None or type(violation.field) is str
        assert type(violation.message) is str
        assert violation.message
    assert (result.value is None) is (not result.ok)
    assert result.status == (200 if result.ok else 500)
    return result


_DATE_TIME = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:\d\d)?"
)


def canonical_date_time(text: str) -> str:
    """An RFC 3339 date-time as `YYYY-MM-DDTHH:MM:SS[.ffffff]+HH:MM`, read independently.

    D-date-times: `t` or a space is `T`; `Z`, `z`, `-00:00` and no offset are `+00:00`; the
    fraction is cut to microseconds, and a zero fraction is none.
    """
    match = _DATE_TIME.fullmatch(text)
    assert match is not None, text
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    if offset in (None, "Z", "z", "-00:00"):
        offset = "+00:00"
    clock = f"{hour}:{minute}:{second}" + (f".{micro:06d}" if micro else "")
    return f"{year}-{month}-{day}T{clock}{offset}"


def normalised(value: Any, name: str | None = None) -> Any:
    """A body with the differences parse-then-to_wire may make taken out.

    Members sent as null are dropped (D-tolerant-reading: an optional member sent as null is
    absent), but the required nullable `integration` and `last_call_at`; date-times are put
    in canonical form (above); a window time `HH:MM:00` is `HH:MM` (D-response-times: a time
    is a time of day, and whole minutes are written without seconds); an empty
    `filter_statuses` is dropped (the reported deviation, see `tests/test_parse.py`). The free
    form `analytics` and `extracted_data` are kept as they are.
    """
    if name in r.FREE_FORM:
        return value
    if type(value) is dict:
        return {
            key: normalised(member, key)
            for key, member in value.items()
            if (member is not None or key in r.NULLABLE_REQUIRED)
            and not (key == "filter_statuses" and member == [])
        }
    if type(value) is list:
        return [normalised(item) for item in value]
    if name in r.DATE_TIME_MEMBERS:
        return canonical_date_time(value)
    if name in r.TIME_MEMBERS and len(value) == len("HH:MM:SS") and value.endswith(":00"):
        return value[:5]
    return value


def inner_of(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The part of a body that the value stands for."""
    return {"create_response": body.get("campaign"), "contact_response": body.get("contact")}.get(
        kind, body
    )


# ---------------------------------------------------------------------------------------------
# Valid bodies.


@given(r.kinds_and_bodies)
def test_a_valid_body_is_read_and_to_wire_gives_the_same_json(pair: tuple[str, Any]) -> None:
    """Parse then `to_wire` gives the body's JSON, up to exactly these differences.

    Both sides are compared after `normalised`: null optional members dropped (absent versus
    null), date-times as instant and offset in one spelling (`Z`, `z`, `-00:00` and no offset
    are `+00:00`; `t` and a space are `T`; the fraction cut to microseconds), `HH:MM:00` as
    `HH:MM`, and an empty `filter_statuses` as absent. Integral floats equal their integers
    by Python's `==` (D-integral-floats).
    """
    kind, body = pair
    event(kind)
    before = copy.deepcopy(body)
    result = assert_well_formed(parse(kind, body))
    assert result.violations == ()
    assert body == before
    assert normalised(to_wire(result.value)) == normalised(inner_of(kind, body))


@given(r.kinds_and_bodies)
def test_the_value_reads_back_from_its_own_wire_form(pair: tuple[str, Any]) -> None:
    """`to_wire` of a parsed value parses to an equal value, with the same offsets.

    Date-times are aware (D-date-times); `last_call_at` is naive, as the spec gives it no
    zone, and is the wall-clock time written (spec 2.5).
    """
    kind, body = pair
    value = parse(kind, body).value
    for name in r.DATE_TIME_MEMBERS:
        if hasattr(value, name):
            assert getattr(value, name).tzinfo is not None
    if kind == "contact_response" and value.last_call_at is not None:
        assert value.last_call_at.tzinfo is None
        wire = body["contact"]["last_call_at"]
        assert value.last_call_at == datetime.datetime.strptime(wire, "%Y-%m-%d %H:%M:%S")
    wire = to_wire(value)
    again = parse(kind, r.wrap(kind, wire))
    assert again.violations == ()
    assert again.value == value
    assert to_wire(again.value) == wire
    # Equal date-times could still differ in offset: the wire keeps the one sent.
    for name in r.DATE_TIME_MEMBERS:
        if hasattr(value, name):
            assert getattr(again.value, name).utcoffset() == getattr(value, name).utcoffset()


# ---------------------------------------------------------------------------------------------
# Tolerance: members the spec does not list change nothing (D-tolerant-reading).

# The public service already sends `tags[].color` and `integration.type` on threads; names of
# members documented elsewhere (`filter_tags` in a detail, `type` on a thread's integration)
# are unknown where the spec does not list them.
unknown_names = st.one_of(
    st.sampled_from(("color", "type", "filter_tags", "id", "x-trace", "Created_At", "ID", "")),
    parts.surrogate_texts,
)


@given(r.kinds_and_bodies, st.data())
def test_unknown_members_anywhere_documented_change_nothing(
    pair: tuple[str, Any], data: st.DataObject
) -> None:
    kind, body = pair
    expected = parse(kind, body).value
    objects = [(path, node) for path, node in r.documented_containers(body) if type(node) is dict]
    # The strategies send documented members only: this checks their list against the bodies.
    documented = {path: r.documented_members(kind, path) for path, _ in objects}
    assert all(documented[path] >= set(node) for path, node in objects)
    for _ in range(data.draw(st.integers(1, 3))):
        path, node = data.draw(st.sampled_from(objects))
        name = data.draw(unknown_names.filter(lambda name, path=path: name not in documented[path]))
        node[name] = data.draw(parts.json_like)
        event(f"unknown member at {r.field_path(path) or 'the root'}")
    result = assert_well_formed(parse(kind, body))
    assert result.violations == ()
    assert result.value == expected


# ---------------------------------------------------------------------------------------------
# No body raises, and none is changed.


@given(st.sampled_from(r.KINDS), parts.json_like)
def test_any_json_value_never_raises_nor_changes(kind: str, value: Any) -> None:
    before = s.identity_snapshot(value)
    assert_well_formed(parse(kind, value))
    assert s.identity_snapshot(value) == before


@given(r.kinds_and_bodies, st.data())
def test_a_valid_body_with_one_member_replaced_by_junk_never_raises_nor_changes(
    pair: tuple[str, Any], data: st.DataObject
) -> None:
    kind, body = pair
    containers = [(path, node) for path, node in r.documented_containers(body) if len(node) > 0]
    path, node = data.draw(st.sampled_from(containers))
    step = data.draw(st.sampled_from(list(node) if type(node) is dict else range(len(node))))
    node[step] = data.draw(st.one_of(parts.json_like, s.non_string_key_dicts))
    event(f"junk at {r.field_path((*path, step))}")
    before = s.identity_snapshot(body)
    assert_well_formed(parse(kind, body))
    assert s.identity_snapshot(body) == before


@given(
    st.one_of(
        parts.json_like,
        st.integers(),
        st.floats(),
        st.sampled_from((True, None, 404.0, 404.5, 599.0, 600.0, "404")),
    )
)
def test_parse_error_never_raises_whatever_the_status(status: Any) -> None:
    for kind in ("api_error", "credentials_error"):
        result = assert_well_formed(parse_error(status, example_body(kind)))
        # D-integral-floats: an integral float is the integer it equals.
        integral = type(status) is int or (type(status) is float and status.is_integer())
        in_range = integral and 400 <= status <= 599
        assert result.ok is in_range


# ---------------------------------------------------------------------------------------------
# One defect, one violation, at its path.


@given(r.one_defect())
def test_one_defect_gives_exactly_one_violation_at_its_path(defect: r.Defect) -> None:
    kind, body, rule, field = defect
    before = copy.deepcopy(body)
    result = assert_well_formed(parse(kind, body))
    assert [(v.rule, v.field) for v in result.violations] == [(rule, field)]
    assert body == before
