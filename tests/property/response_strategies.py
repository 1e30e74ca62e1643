"""Hypothesis strategies for valid response bodies, written from the spec, not the library.

Spec 2.2-2.6, 4.1-4.3, 5 and 7.1 give the members and their types; docs/decisions.md the rest:
date-times in every RFC 3339 spelling D-date-times takes, window times with or without seconds
(D-response-times), optional members absent or null (D-tolerant-reading), `last_call_at` null
for a contact never called (D-contact-last-call), and analytics within D-response-caps.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from campaign_rules._core.json import member_path
from campaign_rules._core.limits import PATH_ID_MAX, WEEKDAYS
from tests.strategies_support import TEXTS, texts, uuid4_texts
from tests.support import SPEC_ERROR_KEYS

KINDS = ("create_response", "contact_response", "thread", "api_error", "credentials_error")

CAMPAIGN_STATUSES = ("pending", "ready", "active", "inactive", "cooldown", "finished")
CHANNELS = ("phone_call", "whatsapp")
MODES = ("cooldown", "scheduled")
ERROR_KEYS = SPEC_ERROR_KEYS

# The date-time members, and the window-time members.
DATE_TIME_MEMBERS = ("created_at", "updated_at")
TIME_MEMBERS = ("startTime", "stopTime")
# Required members that may be null (spec 2.2 integration; D-contact-last-call).
NULLABLE_REQUIRED = ("integration", "last_call_at")


def wrap(kind: str, inner: dict[str, Any]) -> dict[str, Any]:
    """The body of `kind` around the wire form of its inner model."""
    if kind == "create_response":
        return {"success": True, "campaign": inner}
    if kind == "contact_response":
        return {"success": True, "contact": inner}
    return inner


# ---------------------------------------------------------------------------------------------
# Leaves.

# Drawing text is the costliest thing Hypothesis does: most members take text from the shared
# pool (accents, emoji, controls, every plane), and the names of things draw fresh text too.
pooled_texts = st.sampled_from(TEXTS)

# D-json-integers: a valid body's integers are within ±(2**53 - 1), the path ids' bound.
_JSON_MAX = PATH_ID_MAX
json_integers = st.integers(-_JSON_MAX, _JSON_MAX)
positive_ids = st.one_of(
    st.integers(1, _JSON_MAX), st.sampled_from((1, 2, 1.0, _JSON_MAX)), st.integers(1, 1000)
)
counts = st.one_of(st.integers(0, 2**31), st.sampled_from((0, 1, 0.0, -0.0, _JSON_MAX)))
any_integers = st.one_of(st.integers(-(2**40), 2**40), st.sampled_from((0, -1, 2, 12, 1441)))

_offsets = st.one_of(
    st.sampled_from(("Z", "z", "", "-00:00", "+00:00", "+23:59", "-23:59", "+05:30")),
    st.builds(
        lambda sign, minutes: f"{sign}{minutes // 60:02d}:{minutes % 60:02d}",
        st.sampled_from("+-"),
        st.integers(0, 23 * 60 + 59),
    ),
)


@st.composite
def date_times(draw: st.DrawFn) -> str:
    """An RFC 3339 date-time in any spelling D-date-times takes."""
    moment = draw(st.datetimes(min_value=datetime.datetime(1, 1, 1)))
    separator = draw(st.sampled_from("Tt "))
    fraction = ""
    if moment.microsecond or draw(st.booleans()):
        digits = f"{moment.microsecond:06d}"
        style = draw(st.sampled_from(("six", "trimmed", "nine", "one")))
        if style == "trimmed":
            fraction = "." + (digits.rstrip("0") or "0")
        elif style == "nine":
            fraction = "." + digits + draw(st.text("0123456789", min_size=3, max_size=3))
        elif style == "one":
            fraction = "." + digits[0]
        else:
            fraction = "." + digits
    day = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
    clock = f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    return f"{day}{separator}{clock}{fraction}{draw(_offsets)}"


def _clock(with_seconds: bool) -> st.SearchStrategy[str]:
    if with_seconds:
        return st.builds(
            "{:02d}:{:02d}:{:02d}".format,
            st.integers(0, 23),
            st.integers(0, 59),
            st.integers(0, 59),
        )
    return st.builds("{:02d}:{:02d}".format, st.integers(0, 23), st.integers(0, 59))


window_times = st.one_of(_clock(False), _clock(True))
contact_times = st.builds(
    lambda day, clock: f"{day.year:04d}-{day.month:02d}-{day.day:02d} {clock}",
    st.dates(),
    _clock(True),
)
iso_dates = st.dates().map(lambda day: f"{day.year:04d}-{day.month:02d}-{day.day:02d}")

# Plain JSON for the opaque analytics: string names, finite numbers, small.
_plain_scalars = st.one_of(
    st.none(),
    st.booleans(),
    json_integers,
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)


def _containers_of(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`values`, or a small array or object of them."""
    return st.one_of(
        values,
        st.lists(values, max_size=3),
        st.dictionaries(pooled_texts, values, max_size=3),
    )


# Three levels written out rather than `st.recursive`, whose check that the extension uses its
# argument can misfire (a HypothesisDeprecationWarning, an error here) on a derandomized run.
plain_json_objects = st.dictionaries(
    texts, _containers_of(_containers_of(_plain_scalars)), max_size=4
)


def _optional(
    draw: st.DrawFn, target: dict[str, Any], name: str, values: st.SearchStrategy[Any]
) -> None:
    """Leave `name` out, send it as null, or set it (D-tolerant-reading)."""
    choice = draw(st.sampled_from(("absent", "null", "value", "value")))
    if choice == "null":
        target[name] = None
    elif choice == "value":
        target[name] = draw(values)


def _shuffled(draw: st.DrawFn, members: dict[str, Any]) -> dict[str, Any]:
    order = draw(st.permutations(list(members)))
    return {name: members[name] for name in order}


# ---------------------------------------------------------------------------------------------
# Objects.


@st.composite
def windows(draw: st.DrawFn) -> dict[str, Any]:
    """A weekday window as read back: times in any order (not checked on a response)."""
    return {
        "startTime": draw(window_times),
        "stopTime": draw(window_times),
        "active": draw(st.booleans()),
    }


@st.composite
def schedules(draw: st.DrawFn) -> dict[str, Any]:
    """Some weekdays, each with a window or null (an optional member, D-tolerant-reading)."""
    present = draw(st.integers(0, 2 ** len(WEEKDAYS) - 1))
    null = draw(st.integers(0, 2 ** len(WEEKDAYS) - 1))
    schedule: dict[str, Any] = {}
    for bit, day in enumerate(WEEKDAYS):
        if present >> bit & 1:
            schedule[day] = None if null >> bit & 1 and bit % 3 == 0 else draw(windows())
    return schedule


@st.composite
def detail_cycles(draw: st.DrawFn) -> dict[str, Any]:
    """A campaign's cycles: `enabled` always (D-detail-cycles), the rest optional."""
    cycles: dict[str, Any] = {"enabled": draw(st.booleans())}
    _optional(draw, cycles, "mode", st.sampled_from(MODES))
    _optional(draw, cycles, "max_iterations", any_integers)
    _optional(draw, cycles, "cooldown_minutes", any_integers)
    _optional(draw, cycles, "filter_statuses", st.lists(pooled_texts, min_size=1, max_size=4))
    _optional(draw, cycles, "schedule", schedules())
    _optional(draw, cycles, "schedule_start_date", iso_dates)
    _optional(draw, cycles, "schedule_end_date", iso_dates)
    return cycles


@st.composite
def campaign_details(draw: st.DrawFn) -> dict[str, Any]:
    integration = draw(
        st.one_of(
            st.none(),
            st.fixed_dictionaries({"id": pooled_texts, "type": st.sampled_from(CHANNELS)}),
        )
    )
    detail: dict[str, Any] = {
        "id": draw(positive_ids),
        "name": draw(texts),
        "status": draw(st.sampled_from(CAMPAIGN_STATUSES)),
        "integration": integration,
        "agent": {"id": draw(uuid4_texts.map(_any_case(draw))), "name": draw(pooled_texts)},
        "created_at": draw(date_times()),
        "scheduling": draw(schedules()),
        "cycles": draw(detail_cycles()),
    }
    _optional(draw, detail, "analytics", plain_json_objects)
    return _shuffled(draw, detail)


def _any_case(draw: st.DrawFn) -> Callable[[str], str]:
    return draw(st.sampled_from((str.lower, str.upper)))


@st.composite
def contacts(draw: st.DrawFn) -> dict[str, Any]:
    contact = {
        "f_id": draw(pooled_texts),
        "id": draw(positive_ids),
        "name": draw(pooled_texts),
        "contact": draw(pooled_texts),
        "status": draw(pooled_texts),
        "context": draw(pooled_texts),
        "retries": draw(counts),
        "has_follow_up": draw(st.booleans()),
        "call_count": draw(counts),
        "billed_duration": draw(counts),
        "last_call_at": draw(st.one_of(st.none(), contact_times)),
        "extracted_data": draw(st.dictionaries(texts, pooled_texts, max_size=5)),
        "tags": draw(st.lists(pooled_texts, max_size=4)),
    }
    return _shuffled(draw, contact)


@st.composite
def threads(draw: st.DrawFn) -> dict[str, Any]:
    tag = st.fixed_dictionaries({"id": pooled_texts, "name": texts})
    assignee = st.fixed_dictionaries(
        {"id": pooled_texts, "email": pooled_texts, "first_name": texts, "last_name": pooled_texts}
    )
    thread = {
        "id": draw(pooled_texts),
        "agent": {"id": draw(pooled_texts), "name": draw(pooled_texts)},
        "end_user": {
            "id": draw(pooled_texts),
            "display_name": draw(pooled_texts),
            "info": draw(pooled_texts),
        },
        "integration": {"id": draw(pooled_texts)},
        "updated_at": draw(date_times()),
        "active": draw(st.booleans()),
        "blocked": draw(st.booleans()),
        "tags": draw(st.lists(tag, max_size=4)),
        "assigned_to": draw(st.lists(assignee, max_size=3)),
    }
    return _shuffled(draw, thread)


@st.composite
def api_errors(draw: st.DrawFn) -> dict[str, Any]:
    error: dict[str, Any] = {
        "success": False,
        "error": draw(st.sampled_from(ERROR_KEYS)),
        "message": draw(pooled_texts),
    }
    _optional(draw, error, "field", pooled_texts)
    _optional(draw, error, "current_status", st.sampled_from(CAMPAIGN_STATUSES))
    _optional(
        draw, error, "valid_targets", st.lists(st.sampled_from(CAMPAIGN_STATUSES), max_size=6)
    )
    return _shuffled(draw, error)


credentials_errors = st.fixed_dictionaries(
    {"error": st.one_of(json_integers, st.sampled_from((401, 403, 401.0))), "message": texts}
)


def valid_bodies(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    """A valid body of `kind`: the whole response, wrapper included."""
    if kind == "create_response":
        return campaign_details().map(lambda inner: wrap(kind, inner))
    if kind == "contact_response":
        return contacts().map(lambda inner: wrap(kind, inner))
    return {
        "thread": threads(),
        "api_error": api_errors(),
        "credentials_error": credentials_errors,
    }[kind]


# `(kind, body)`, each kind equally likely.
kinds_and_bodies = st.one_of([st.tuples(st.just(kind), valid_bodies(kind)) for kind in KINDS])


# ---------------------------------------------------------------------------------------------
# Walking a body.

Step = str | int
Path = tuple[Step, ...]


def field_path(path: Path) -> str:
    """The library's field path of `path`: `campaign.tags[1].name`."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += f".{step}" if out else step
    return out


# Members whose values are free-form (D-response-caps): not documented objects inside.
FREE_FORM = ("analytics", "extracted_data")


def documented_containers(body: Any) -> Iterator[tuple[Path, Any]]:
    """Every object and array of the documented shape of `body`, with its path."""
    stack: list[tuple[Path, Any]] = [((), body)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if type(node) is dict:
            for name, member in node.items():
                if name not in FREE_FORM and type(member) in (dict, list):
                    stack.append(((*path, name), member))
        else:
            for index, item in enumerate(node):
                if type(item) in (dict, list):
                    stack.append(((*path, index), item))


def value_at(body: Any, path: Path) -> Any:
    node = body
    for step in path:
        node = node[step]
    return node


# ---------------------------------------------------------------------------------------------
# One defect: a valid body with one thing wrong, the rule it breaks, and the field it names.

Defect = tuple[str, Any, str, "str | None"]

# Required members of each documented object, by the path of the object with items as `[]`.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "create_response:": ("success", "campaign"),
    "create_response:campaign": (
        *("id", "name", "status", "integration", "agent", "created_at", "scheduling"),
        "cycles",
    ),
    "create_response:campaign.integration": ("id", "type"),
    "create_response:campaign.agent": ("id", "name"),
    "create_response:campaign.cycles": ("enabled",),
    "contact_response:": ("success", "contact"),
    "contact_response:contact": (
        *("f_id", "id", "name", "contact", "status", "context", "retries", "has_follow_up"),
        *("call_count", "billed_duration", "last_call_at", "extracted_data", "tags"),
    ),
    "thread:": (
        *("id", "agent", "end_user", "integration", "updated_at", "active", "blocked"),
        *("tags", "assigned_to"),
    ),
    "thread:agent": ("id", "name"),
    "thread:end_user": ("id", "display_name", "info"),
    "thread:integration": ("id",),
    "thread:tags[]": ("id", "name"),
    "thread:assigned_to[]": ("id", "email", "first_name", "last_name"),
    # Without `error` an error body fits no shape: not a one-member defect of these rules.
    "api_error:": ("success", "message"),
    "credentials_error:": ("message",),
}
_WINDOW_MEMBERS = ("startTime", "stopTime", "active")


def _shape_key(kind: str, path: Path) -> str:
    """`thread:tags[]` for the object at ("tags", 1) of a thread; windows are `window`."""
    names = [step for step in path if isinstance(step, str)]
    if len(names) >= 2 and names[-2] in ("scheduling", "schedule") and names[-1] in WEEKDAYS:
        return "window"
    text = field_path(tuple(step if isinstance(step, str) else -1 for step in path))
    return f"{kind}:" + text.replace("[-1]", "[]")


def _required_of(kind: str, path: Path) -> tuple[str, ...]:
    key = _shape_key(kind, path)
    return _WINDOW_MEMBERS if key == "window" else _REQUIRED.get(key, ())


# Optional members of each documented object (D-tolerant-reading, D-detail-cycles).
_OPTIONAL: dict[str, tuple[str, ...]] = {
    "create_response:campaign": ("analytics",),
    "create_response:campaign.scheduling": WEEKDAYS,
    "create_response:campaign.cycles": (
        *("mode", "max_iterations", "cooldown_minutes", "filter_statuses", "schedule"),
        *("schedule_start_date", "schedule_end_date"),
    ),
    "create_response:campaign.cycles.schedule": WEEKDAYS,
    "api_error:": ("error", "field", "current_status", "valid_targets"),
    "credentials_error:": ("error",),
}


def documented_members(kind: str, path: Path) -> frozenset[str]:
    """The members the spec lists for the object at `path` of a body of `kind`."""
    return frozenset(_required_of(kind, path) + _OPTIONAL.get(_shape_key(kind, path), ()))


# Values of the wrong JSON type for a member whose valid value has the type of the key.
_WRONG_TYPES: dict[type, tuple[Any, ...]] = {
    str: (5, True, 1.5, [], {"a": "b"}),
    int: ("3", True, 1.5, "x", [], {}),
    float: ("3", True, 1.5, [], {}),
    bool: ("false", "true", 0, 1, [], {}),
    dict: ([], "x", 5, True),
    list: ({}, "x", 5, False),
}


@st.composite
def _missing_member(draw: st.DrawFn, kind: str, body: Any) -> Defect:
    candidates = [
        (path, name)
        for path, node in documented_containers(body)
        if type(node) is dict
        for name in _required_of(kind, path)
    ]
    path, name = draw(st.sampled_from(candidates))
    del value_at(body, path)[name]
    return kind, body, "response.required_members_present", field_path((*path, name))


@st.composite
def _wrong_type(draw: st.DrawFn, kind: str, body: Any) -> Defect:
    candidates: list[Path] = []
    for path, node in documented_containers(body):
        steps = node if type(node) is dict else range(len(node))
        for step in steps:
            member = node[step]
            if type(member) in _WRONG_TYPES and not (path == () and step == "error"):
                candidates.append((*path, step))
    path = draw(st.sampled_from(candidates))
    parent, step = value_at(body, path[:-1]), path[-1]
    # An integral float is an integer (D-integral-floats): 1.5 is wrong for both.
    wrong = draw(st.sampled_from(_WRONG_TYPES[type(parent[step])]))
    if type(parent[step]) is float and wrong == 1.5:
        wrong = "1.5"
    parent[step] = wrong
    return kind, body, "response.members_have_json_types", field_path(path)


# Bad values of the right type, by member name (and, for `id`, only where it is an integer).
_BAD_FORMATS: dict[str, tuple[Any, ...]] = {
    "created_at": ("2026-03-01T09:30Z", "2026-03-01T24:00:00Z", "2026-03-01", ""),
    "updated_at": ("2026-03-01T09:30:00+24:00", "2026-02-30T00:00:00Z", "yesterday"),
    "startTime": ("24:00", "23:60", "9:00", "09:00:60"),
    "stopTime": ("24:00:00", "12:5", ""),
    "last_call_at": ("2026-03-02T10:15:00", "2026-03-02 10:15", "2026-03-02 10:15:00Z"),
    "schedule_start_date": ("2026-02-30", "2026-3-1"),
    "schedule_end_date": ("0000-01-01", ""),
    "status": ("archived", "PENDING"),
    "type": ("sms", "PHONE_CALL"),
    "mode": ("weekly", "Scheduled"),
    "retries": (-1, -(2**53 - 1)),
    "call_count": (-1,),
    "billed_duration": (-1, -1.0),
    "current_status": ("paused",),
}


@st.composite
def _bad_format(draw: st.DrawFn, kind: str, body: Any) -> Defect:
    candidates: list[tuple[Path, tuple[Any, ...]]] = []
    for path, node in documented_containers(body):
        if type(node) is not dict:
            if path[-1:] == ("valid_targets",) and node:
                candidates.append(((*path, 0), ("paused", "")))
            continue
        for name, member in node.items():
            if member is None or type(node) is not dict:
                continue
            if name == "status" and kind == "contact_response":
                continue  # a contact's status is any string (D-contact-statuses)
            if name in _BAD_FORMATS:
                candidates.append(((*path, name), _BAD_FORMATS[name]))
            elif name == "id" and type(member) in (int, float):
                candidates.append(((*path, name), (0, -1, 0.0)))
            elif name == "id" and path == ("campaign", "agent"):
                candidates.append(((*path, name), ("ag-1", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")))
            elif name == "success":
                candidates.append(((*path, name), (not member,)))
            elif name == "error" and type(member) is str:
                candidates.append(((*path, name), ("TEAPOT", "not_found")))
    path, bad = draw(st.sampled_from(candidates))
    value_at(body, path[:-1])[path[-1]] = draw(st.sampled_from(bad))
    return kind, body, "response.values_have_formats", field_path(path)


@st.composite
def _bad_map_value(draw: st.DrawFn, body: Any) -> Defect:
    name = draw(pooled_texts)
    body["contact"]["extracted_data"][name] = draw(st.sampled_from((None, 5, True, [], {"a": "b"})))
    # The path shows the name as every path does (D-hostile-input, D-shown-text).
    field = member_path("contact.extracted_data", name)
    return "contact_response", body, "response.maps_hold_strings", field


@st.composite
def _bad_analytics(draw: st.DrawFn, body: Any) -> Defect:
    too_deep: Any = {}
    for _ in range(32):
        too_deep = {"a": too_deep}
    snapshot = draw(
        st.sampled_from(
            (
                {"deep": too_deep},
                {"x": float("nan")},
                {"x": [0] * 10_000},
                {"x": {1: "a"}},
                {"x": (1,)},
            )
        )
    )
    body["campaign"]["analytics"] = copy.deepcopy(snapshot)
    return "create_response", body, "response.opaque_members_hold_plain_json", "campaign.analytics"


_DEFECT_KINDS = ("missing", "wrong_type", "bad_format", "bad_map_value", "bad_analytics")


@st.composite
def one_defect(draw: st.DrawFn) -> Defect:
    """`(kind, body, rule, field)`: a valid body with one defect that `rule` reports at `field`.

    The kind of defect is drawn first, so that each is as likely as the others.
    """
    defect = draw(st.sampled_from(_DEFECT_KINDS))
    event(defect)
    if defect == "bad_map_value":
        return draw(_bad_map_value(draw(valid_bodies("contact_response"))))
    if defect == "bad_analytics":
        return draw(_bad_analytics(draw(valid_bodies("create_response"))))
    kinds = KINDS if defect != "bad_format" else KINDS[:-1]  # `{error, message}` has no format
    kind = draw(st.sampled_from(kinds))
    body = draw(valid_bodies(kind))
    maker = {"missing": _missing_member, "wrong_type": _wrong_type, "bad_format": _bad_format}
    return draw(maker[defect](kind, body))
