"""The response schemas of the OpenAPI document accept exactly what the readers accept.

`CreateResponse`, `ContactResponse`, `Thread` and `Error` against `parse_create_response`,
`parse_contact_response`, `parse_thread` and `parse_error`, under Python's jsonschema, on every
response case of `tests/cases/` and on 2,400 drawn bodies: valid ones (with members the spec
does not list, D-tolerant-reading) and valid ones with one defect. The bodies are drawn from the
readers' own shapes (`_wire/shapes`), so what this checks is that the document says those
shapes exactly. The one tolerated disagreement: the schema accepts and the reader refuses, and
every violation comes from a rule of `OPENAPI_EXCEPTIONS` (D-openapi).
"""

from __future__ import annotations

import copy
import datetime
import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from campaign_rules._core.formats import (
    is_uuid_v4,
    parse_contact_time,
    parse_date,
    parse_date_time,
    parse_response_time,
)
from campaign_rules._core.limits import (
    OBJECT_MAX_MEMBERS,
    PATH_ID_MAX,
    RESPONSE_ARRAY_MAX_ITEMS,
    RESPONSE_MAP_MAX_MEMBERS,
    RESPONSE_OPAQUE_MAX_DEPTH,
)
from campaign_rules._export.openapi import OPENAPI_EXCEPTIONS
from campaign_rules._wire.shapes import (
    API_ERROR,
    CONTACT_RESPONSE,
    CREATE_RESPONSE,
    CREDENTIALS_ERROR,
    THREAD,
    Member,
    Shape,
)
from campaign_rules.responses import (
    ParseResult,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import openapi
from tests.cases_support import all_cases, build_body, read_response
from tests.support import draw

VALID_DRAWN = 200  # of each of the five kinds of body
INVALID_DRAWN = 280

# How each kind of body is read, and the component that says it. Error bodies come with the
# status a server sends them with; `parse_error` tells the shapes apart by their members.
KINDS: dict[str, tuple[Shape, Callable[[Any], ParseResult[Any]], str]] = {
    "create_response": (CREATE_RESPONSE, parse_create_response, "CreateResponse"),
    "contact_response": (CONTACT_RESPONSE, parse_contact_response, "ContactResponse"),
    "thread": (THREAD, parse_thread, "Thread"),
    "api_error": (API_ERROR, lambda body: parse_error(404, body), "Error"),
    "credentials_error": (CREDENTIALS_ERROR, lambda body: parse_error(401, body), "Error"),
}


@functools.cache
def validator(component: str) -> Draft202012Validator:
    document = openapi()
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    return Draft202012Validator(schema)


def disagreement(result: ParseResult[Any], component: str, body: Any) -> str | None:
    """Why the schema and the reader differ on `body`, or `None` when they agree."""
    accepted = validator(component).is_valid(body)
    if accepted == result.ok:
        return None
    rules = {violation.rule for violation in result.violations}
    if accepted and rules <= set(OPENAPI_EXCEPTIONS):
        return None  # the schema cannot say these rules (D-openapi)
    verdict = "accepts" if accepted else "refuses"
    return f"the schema {verdict}, the reader says {sorted(rules) or 'ok'}"


# ---------------------------------------------------------------------------------------------
# Valid bodies, drawn from the shapes.

_TEXT = st.text(max_size=12)
_NAMES = st.text(min_size=1, max_size=8)


def _date_time(moment: datetime.datetime, separator: str, digits: int, offset: str) -> str:
    fraction = f".{moment.microsecond:06d}000"[: digits + 1] if digits else ""
    return moment.strftime(f"%Y-%m-%d{separator}%H:%M:%S").zfill(19) + fraction + offset


_OFFSETS = st.sampled_from(["", "Z", "z", "+00:00", "-00:00", "+05:30", "-11:59", "+23:59"])
_MOMENTS = st.datetimes(datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59))

# What each string format reads, drawn (the same readers as the shapes name).
STRING_FORMATS: dict[Callable[[str], object], st.SearchStrategy[str]] = {
    is_uuid_v4: st.uuids(version=4).map(str) | st.uuids(version=4).map(lambda u: str(u).upper()),
    parse_date: st.dates().map(datetime.date.isoformat),
    parse_date_time: st.builds(
        _date_time, _MOMENTS, st.sampled_from("Tt "), st.integers(0, 9), _OFFSETS
    ),
    parse_contact_time: _MOMENTS.map(lambda moment: moment.isoformat(" ", "seconds")),
    parse_response_time: st.times().map(
        lambda clock: clock.isoformat("minutes" if clock.second == 0 else "seconds")
    ),
}

_PLAIN_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-PATH_ID_MAX, PATH_ID_MAX)
    | st.floats(allow_nan=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


def valid_value(member: Member) -> st.SearchStrategy[Any]:
    """A value the reader accepts for `member`, `null` where that counts as absent."""
    value = _present_value(member)
    if member.nullable or not member.required:
        return st.none() | value
    return value


def _present_value(member: Member) -> st.SearchStrategy[Any]:
    keywords = member.format.keywords if member.format is not None else {}
    if member.format is not None and member.format.reader is not None:
        return STRING_FORMATS[member.format.reader]
    if "enum" in keywords:
        return st.sampled_from(list(keywords["enum"]))  # type: ignore[call-overload]
    if "const" in keywords:
        return st.just(keywords["const"])
    if member.type == "integer":
        # D-json-integers: every documented integer is within ±(2**53 - 1).
        numbers = st.integers(keywords.get("minimum", -PATH_ID_MAX), PATH_ID_MAX)
        return numbers | numbers.map(float)  # 3.0 is the integer 3 (D-integral-floats)
    if member.type == "string":
        return _TEXT
    if member.type == "boolean":
        return st.booleans()
    if member.type == "array" and member.items is not None:
        return st.lists(valid_value(member.items), max_size=3)
    if member.map_of_strings:
        return st.dictionaries(_TEXT, _TEXT, max_size=3)
    if member.opaque:
        return st.dictionaries(_TEXT, _PLAIN_JSON, max_size=3)
    assert member.members is not None, member
    return valid_object(member.members)


def valid_object(shape: Shape) -> st.SearchStrategy[dict[str, Any]]:
    """An object of `shape`, with some of its optional members and some it does not list."""
    required = {name: valid_value(m) for name, m in shape.items() if m.required}
    optional = {name: valid_value(m) for name, m in shape.items() if not m.required}
    unknown = st.dictionaries(
        _NAMES.filter(lambda name: name not in shape), _PLAIN_JSON, max_size=2
    )
    return st.builds(
        lambda known, extra: {**extra, **known},
        st.fixed_dictionaries(required, optional=optional),
        unknown,
    )


@functools.cache
def valid_body(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    """A valid body of `kind`: its strategy made once, not once a draw (each new strategy is
    checked again by Hypothesis, which took most of this module's time)."""
    return valid_object(KINDS[kind][0])


# ---------------------------------------------------------------------------------------------
# One defect in a valid body.


def nodes(value: Any, shape: Shape, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every documented member present in `value`, and of every array item."""
    for name, member in shape.items():
        if name in value:
            yield from _member_nodes(value[name], member, (*path, name))


def _member_nodes(value: Any, member: Member, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict) and member.members is not None:
        yield from nodes(value, member.members, path)
    if isinstance(value, list) and member.items is not None:
        for index, item in enumerate(value):
            yield from _member_nodes(item, member.items, (*path, index))


def member_at(shape: Shape, path: tuple[Any, ...]) -> Member:
    member = Member(type="object", members=shape)
    for step in path:
        if isinstance(step, int):
            assert member.items is not None
            member = member.items
        else:
            assert member.members is not None
            member = member.members[step]
    return member


def _bad_strings(member: Member) -> list[Any]:
    if member.format is not None and member.format.reader is not None:
        return ["", "x", "2026-02-30", "2026-02-30T10:00:00Z", "24:00", "2026-01-01 10:00:60"]
    if member.format is not None and "enum" in member.format.keywords:
        return ["", "PENDING", "sms"]
    return []


def bad_values(member: Member) -> list[Any]:
    """Values the reader refuses for `member`, or may: the verdicts are compared, not assumed."""
    wrong_types = {
        "string": [1, True, [], {}],
        "integer": ["1", 1.5, True, [], {}],
        "boolean": ["true", 0, 1, []],
        "array": ["x", {}, 1],
        "object": ["x", [], 1],
    }[member.type]
    bad: list[Any] = [*wrong_types, *_bad_strings(member)]
    if not member.nullable and member.required:
        bad.append(None)
    low = member.format.keywords.get("minimum") if member.format is not None else None
    if isinstance(low, int):
        bad.append(low - 1)
    if member.type == "integer":  # D-json-integers
        bad += [PATH_ID_MAX + 1, -PATH_ID_MAX - 1, 10**30]
    if "const" in (member.format.keywords if member.format is not None else {}):
        bad.append(not member.format.keywords["const"])  # type: ignore[union-attr]
    if member.items is not None:
        bad.append([None] * (RESPONSE_ARRAY_MAX_ITEMS + 1))
    if member.members is not None:
        bad.append({f"m{index}": index for index in range(OBJECT_MAX_MEMBERS + 1)})
    if member.map_of_strings:
        bad.extend([{"a": 1}, {f"k{index}": "v" for index in range(RESPONSE_MAP_MAX_MEMBERS + 1)}])
    if member.opaque:
        deep: Any = 1
        for _ in range(RESPONSE_OPAQUE_MAX_DEPTH + 1):
            deep = {"a": deep}
        bad.append(deep)  # refused by a rule of OPENAPI_EXCEPTIONS only
    return bad


@st.composite
def with_one_defect(draw_: st.DrawFn, kind: str) -> Any:
    shape = KINDS[kind][0]
    body = copy.deepcopy(draw_(valid_body(kind)))
    path = draw_(st.sampled_from(list(nodes(body, shape))))
    member = member_at(shape, path)
    *parents, last = path
    parent = body
    for step in parents:
        parent = parent[step]
    if member.required and not isinstance(last, int) and draw_(st.booleans()):
        del parent[last]
    else:
        parent[last] = draw_(st.sampled_from(bad_values(member)))
    return body


# ---------------------------------------------------------------------------------------------
# The comparisons.


def test_every_response_case_gets_the_same_verdict() -> None:
    components = {
        "create_response": "CreateResponse",
        "contact_response": "ContactResponse",
        "thread": "Thread",
        "error": "Error",
    }
    compared, found = 0, []
    for stem, case in all_cases():
        response = case.get("response")
        if response is None:
            continue
        body = build_body(response)
        compared += 1
        problem = disagreement(read_response(response), components[response["parse"]], body)
        if problem:
            found.append(f"{stem}::{case['title']}: {problem}")
    assert compared > 100
    assert found == []


@pytest.mark.parametrize("kind", KINDS)
def test_drawn_bodies_get_the_same_verdict(kind: str) -> None:
    _, read, component = KINDS[kind]
    valid = draw(valid_body(kind), VALID_DRAWN)
    broken = draw(with_one_defect(kind), INVALID_DRAWN)

    found = [
        f"{problem}: {body!r:.300}"
        for body in [*valid, *broken]
        if (problem := disagreement(read(body), component, body))
    ]

    assert found == []
    assert all(read(body).ok for body in valid)
    assert sum(not read(body).ok for body in broken) > INVALID_DRAWN // 2


def test_every_exception_still_shows() -> None:
    """A listed exception no longer needed would hide nothing: the list must stay exact."""
    deep: Any = 1
    for _ in range(RESPONSE_OPAQUE_MAX_DEPTH + 1):
        deep = {"a": deep}
    body = draw(valid_object(CREATE_RESPONSE), 1)[0]
    body["campaign"]["analytics"] = deep
    error = {"error": 401, "message": "invalid api key"}
    shown = [
        (parse_create_response(body), "CreateResponse", body),
        (parse_error(200, error), "Error", error),
    ]

    for result, component, value in shown:
        assert validator(component).is_valid(value)
        assert not result.ok
    rules = {violation.rule for result, _, _ in shown for violation in result.violations}
    assert rules == set(OPENAPI_EXCEPTIONS)
