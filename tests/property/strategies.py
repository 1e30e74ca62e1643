"""Hypothesis strategies for the property suite, and the helpers its properties share.

The shape of a valid payload is written out here from the spec (2.1, 2.3, 2.4) and
docs/decisions.md, not read from the library, so that the properties check the library against
an independent reading. The one exception is the list of time zone names: D-timezone makes the
tzdata package's `zones` list the definition, and `campaign_rules._timezones.timezone_names()`
is where it is read (test_create_properties checks that list against tzdata's zone files).
"""

from __future__ import annotations

import copy
import datetime
import math
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from campaign_rules import IntegrationType
from campaign_rules._limits import CONTACT_STATUSES
from campaign_rules._timezones import timezone_names
from tests.support import (
    AGENT,
    OTHER_AGENT,
    PHONE_INTEGRATION,
    STATUS,
    TAGS,
    WHATSAPP_INTEGRATION,
)

# ---------------------------------------------------------------------------------------------
# The wire shape, from the spec.

CHANNELS = ("phone_call", "whatsapp")
MODES = ("cooldown", "scheduled")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
CAMPAIGN_MEMBERS = (
    "name",
    "description",
    "agent_id",
    "integration_id",
    "integration_type",
    "timezone",
    "retries",
    "message_limit",
    "first_message",
    "template",
    "template_alt",
    "scheduling",
    "cycles",
)
REQUIRED_MEMBERS = ("name", "agent_id", "integration_id", "integration_type")
WINDOW_MEMBERS = ("startTime", "stopTime", "active")
CYCLES_MEMBERS = (
    "enabled",
    "mode",
    "max_iterations",
    "cooldown_minutes",
    "filter_statuses",
    "filter_tags",
    "schedule",
    "schedule_start_date",
    "schedule_end_date",
)
SCHEDULE_ONLY = ("schedule", "schedule_start_date", "schedule_end_date")
FILTER_LISTS = ("filter_statuses", "filter_tags")
DATES = ("schedule_start_date", "schedule_end_date")
IMMUTABLE_OWNER_FIELDS = ("agent_id", "integration_id", "integration_type")

# D-blank-name: ECMAScript's `\s` is WhiteSpace (TAB, VT, FF, ZWNBSP, and every Zs character)
# plus LineTerminator (LF, CR, LS, PS). Written out from ECMA-262, not read from the library.
WHITESPACE = (
    "\t\v\f\ufeff"
    "\n\r\u2028\u2029"
    " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u202f\u205f\u3000"
)

ZONES = tuple(sorted(timezone_names()))

INVALID_REQUEST = "INVALID_REQUEST"


def hhmm(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


# ---------------------------------------------------------------------------------------------
# Valid creation payloads.
#
# Drawing text is the costliest thing Hypothesis does, so free text mostly comes from pools
# built once, here, from a fixed seed (accents, emoji, controls, every plane but surrogates),
# and a few members draw fresh text besides. Optional members are chosen by one bit mask.

_rng = random.Random(20260601)
_ALL_BUT_SURROGATES = [(0x0000, 0xD7FF), (0xE000, 0x10FFFF)]
_ACCENTS_AND_EMOJI = "éñüçøåßœÆÉÑ漢字ひらがなالعربيةעבריתЖжΩ🚀😀🍂🎉👍🏽✅€"


def _random_char(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:
        return rng.choice(_ACCENTS_AND_EMOJI)
    if kind < 0.6:
        return chr(rng.randrange(0x20, 0x7F))
    low, high = rng.choice(_ALL_BUT_SURROGATES)
    return chr(rng.randint(low, high))


def _random_text(rng: random.Random, size: int) -> str:
    return "".join(_random_char(rng) for _ in range(size))


_FIXED_TEXTS = (
    "",
    " ",
    "Hola 👋, soy Ana de Acme",
    "Bonjour, c'est Zoé",
    "order_update",
    "order_update_v2",
    "tab\tnew\nline",
    "\x00",
    "\u200b",
    "\x85",
    "e\u0301",
    "👨\u200d👩\u200d👧\u200d👦",
    "'\"\\/</script>{{first_name}}",
    "😀" * 50,
    "a" * 1000,
)
TEXTS = _FIXED_TEXTS + tuple(_random_text(_rng, _rng.randint(1, 40)) for _ in range(40))
_NON_EMPTY_TEXTS = tuple(text for text in TEXTS if text)


def _is_visible(char: str) -> bool:
    return char not in WHITESPACE


def _long_name(rng: random.Random, size: int) -> str:
    # Mostly white space around a few visible characters: long, and only just not blank.
    chars = [rng.choice(WHITESPACE + _ACCENTS_AND_EMOJI) for _ in range(size)]
    chars[rng.randrange(size)] = rng.choice(_ACCENTS_AND_EMOJI)
    return "".join(chars)


NAME_POOL = (
    "Campaña de otoño 🍂",
    "Relance clients — été",
    "Überprüfung der Verträge",
    "顧客フォローアップ",
    "🎉🎉🎉",
    "👨\u200d👩\u200d👧\u200d👦 family plan",
    "e\u0301te\u0301",
    " padded name ",
    "x",
    "\x85",  # NEL is not in ECMAScript's \s (D-blank-name)
    "\u200b",  # nor is ZERO WIDTH SPACE
    "\u180e",  # nor, since Unicode 6.3, MONGOLIAN VOWEL SEPARATOR
    "🚀" * 255,
    " " * 127 + "é" + " " * 127,
    "\u3000" * 254 + "名",
    "é" * 255,
    "e\u0301" * 127 + "!",
    *(
        _long_name(_rng, size) if size > 200 else _random_text(_rng, size)
        for size in [_rng.choice((1, 2, 5, 20, 64, 200, 250, 254, 255)) for _ in range(40)]
    ),
)
assert all(0 < len(name) <= 255 and any(map(_is_visible, name)) for name in NAME_POOL)

_NAME_CHARS = st.characters(exclude_categories=("Cs",))
_VISIBLE = st.characters(exclude_categories=("Cs",), exclude_characters=WHITESPACE)


def _insert(text: str, char: str, at: int) -> str:
    at %= len(text) + 1
    return text[:at] + char + text[at:]


# A valid `name`: 1 to 255 code points, at least one of them not white space (D-blank-name).
names = st.one_of(
    st.sampled_from(NAME_POOL),
    st.builds(
        _insert,
        st.text(st.one_of(_NAME_CHARS, st.sampled_from(WHITESPACE)), max_size=10),
        _VISIBLE,
        st.integers(0, 10),
    ),
)
# Any string, for the members that take any (D-channel-fields).
texts = st.one_of(st.sampled_from(TEXTS), st.text(_NAME_CHARS, max_size=6))
non_empty_texts = st.one_of(
    st.sampled_from(_NON_EMPTY_TEXTS), st.text(_NAME_CHARS, min_size=1, max_size=6)
)


def _mixed_case(text: str) -> str:
    return "".join(char.upper() if index % 2 else char for index, char in enumerate(text))


uuid4_texts = st.uuids(version=4).map(str)
agent_ids = st.one_of(
    st.sampled_from((AGENT, AGENT.upper(), OTHER_AGENT)),
    st.builds(
        lambda text, case: case(text),
        uuid4_texts,
        st.sampled_from((str.lower, str.upper, _mixed_case)),
    ),
)


def integration_ids(channel: str) -> st.SearchStrategy[str]:
    known = PHONE_INTEGRATION if channel == "phone_call" else WHATSAPP_INTEGRATION
    return st.one_of(st.just(known), non_empty_texts)


def integers_in(low: int, high: int) -> st.SearchStrategy[int | float]:
    """An integer field's valid values: JSON integers, and integral floats (D-integral-floats)."""
    edges = (low, high, float(low), float(high)) + ((-0.0,) if low <= 0 <= high else ())
    return st.one_of(st.integers(low, high), st.sampled_from(edges))


_MINUTES = 24 * 60
# Windows as (start, stop) minutes, start < stop: every edge, and a spread of others.
_WINDOW_TIMES = (
    (0, 1),
    (0, _MINUTES - 1),
    (_MINUTES - 2, _MINUTES - 1),
    (9 * 60, 17 * 60),
    (12 * 60, 12 * 60 + 1),
    (59, 60),
    *(tuple(sorted(_rng.sample(range(_MINUTES), 2))) for _ in range(200)),
)
WINDOWS = tuple(
    {"startTime": hhmm(start), "stopTime": hhmm(stop), "active": active}
    for start, stop in _WINDOW_TIMES
    for active in (True, False)
)
_WINDOW_ORDERS = (
    WINDOW_MEMBERS,
    ("active", "stopTime", "startTime"),
    ("stopTime", "startTime", "active"),
)
windows = st.builds(
    lambda window, order: {name: window[name] for name in order},
    st.sampled_from(WINDOWS),
    st.sampled_from(_WINDOW_ORDERS),
)


@st.composite
def schedules(draw: st.DrawFn) -> dict[str, Any]:
    """A Schedule object: windows on a random subset of the weekdays."""
    mask = draw(st.integers(0, 2 ** len(WEEKDAYS) - 1))
    days = [day for bit, day in enumerate(WEEKDAYS) if mask >> bit & 1]
    if draw(st.booleans()):
        days.reverse()
    return {day: draw(windows) for day in days}


# D-contact-statuses: cycles run on phone_call campaigns only, so a valid block filters on
# phone_call statuses.
_STATUSES = tuple(sorted(status.value for status in CONTACT_STATUSES[IntegrationType.PHONE_CALL]))
_TAG_POOL = (*TAGS, "tag-ñ", "🏷️", "x", "tag with spaces")


def filter_lists(pool: tuple[str, ...]) -> st.SearchStrategy[list[str]]:
    """A filter list: distinct non-empty strings (D-filter-lists)."""
    return st.lists(st.sampled_from(pool), unique=True, max_size=5)


_JUNK_VALUES = (None, True, 0, -1, 1.5, math.nan, "", "x", [], {}, [1, "a"], {"a": None}, {1: 2})
_JUNK_NAMES = (*CYCLES_MEMBERS[1:], "colour", "", "ENABLED", 7, None, (1, 2))
# The rest of a cycles block that is not enabled: anything at all, since it is ignored.
ignored_cycles_rest = st.dictionaries(
    st.sampled_from(_JUNK_NAMES), st.sampled_from(_JUNK_VALUES), max_size=4
)


@st.composite
def disabled_cycles(draw: st.DrawFn) -> dict[Any, Any]:
    """A cycles block with `enabled` false or omitted (spec 2.4 rule 2)."""
    block = draw(ignored_cycles_rest)
    if draw(st.booleans()):
        block["enabled"] = False
    return block


@st.composite
def enabled_cycles(draw: st.DrawFn, mode: str | None = None) -> dict[str, Any]:
    """An enabled cycles block holding what D-cycles-required asks for its mode."""
    mode = mode or draw(st.sampled_from(MODES))
    block: dict[str, Any] = {
        "enabled": True,
        "mode": mode,
        "max_iterations": draw(integers_in(2, 12)),
    }
    # Bits: cooldown_minutes (scheduled mode), filter_statuses, filter_tags, and in cooldown
    # mode each schedule-only field sent as null (D-null-members).
    mask = draw(st.integers(0, 63))
    if mode == "cooldown" or mask & 1:
        block["cooldown_minutes"] = draw(integers_in(0, 1440))
    if mask & 2:
        block["filter_statuses"] = draw(filter_lists(_STATUSES))
    if mask & 4:
        block["filter_tags"] = draw(filter_lists(_TAG_POOL))
    if mode == "cooldown":
        for bit, name in enumerate(SCHEDULE_ONLY, start=3):
            if mask >> bit & 1:
                block[name] = None
    else:
        block["schedule"] = draw(schedules())
        start, end = sorted(draw(st.tuples(st.dates(), st.dates())))
        for name, day in zip(DATES, (start, end), strict=True):
            choice = draw(st.sampled_from(("absent", "null", "date", "start")))
            if choice == "null":
                block[name] = None
            elif choice == "date":
                block[name] = day.isoformat()
            elif choice == "start":  # D-cycle-dates: equal dates are one day
                block[name] = start.isoformat()
    if draw(st.booleans()):
        block = dict(reversed(block.items()))
    return block


CYCLES_KINDS = ("absent", "disabled", "cooldown", "scheduled")


@st.composite
def valid_payloads(
    draw: st.DrawFn, channel: str | None = None, cycles: str | None = None
) -> dict[Any, Any]:
    """A valid creation payload. `cycles`: one of CYCLES_KINDS, or any fitting the channel."""
    if channel is None:
        channel = "phone_call" if cycles in MODES else draw(st.sampled_from(CHANNELS))
    members: dict[Any, Any] = {
        "name": draw(names),
        "agent_id": draw(agent_ids),
        "integration_id": draw(integration_ids(channel)),
        "integration_type": channel,
    }
    optional: dict[str, st.SearchStrategy[Any]] = {
        "description": texts,
        "timezone": st.sampled_from(ZONES),
        "retries": integers_in(0, 5),
        "message_limit": integers_in(1, 10_000),
        "scheduling": schedules(),
    }
    if channel == "phone_call":
        optional["first_message"] = texts
    else:
        optional["template"] = texts
        optional["template_alt"] = texts
    mask = draw(st.integers(0, 2 ** len(optional) - 1))
    for bit, (name, strategy) in enumerate(optional.items()):
        if mask >> bit & 1:
            members[name] = draw(strategy)
    if cycles is None:
        kinds = CYCLES_KINDS if channel == "phone_call" else CYCLES_KINDS[:2]
        cycles = draw(st.sampled_from(kinds))
    if cycles == "disabled":
        members["cycles"] = draw(disabled_cycles())
    elif cycles in MODES:
        members["cycles"] = draw(enabled_cycles(cycles))
    order = draw(st.permutations(list(members)))
    return {name: members[name] for name in order}


# ---------------------------------------------------------------------------------------------
# JSON-like and hostile values.

# Built by a function so that Hypothesis never has to repr a 5,001-digit int (Python refuses).
huge_ints = st.builds(
    lambda sign, power: sign * 10**power,
    st.sampled_from((1, -1)),
    st.sampled_from((19, 30, 400, 5000)),
)
SPECIAL_FLOATS = (math.nan, math.inf, -math.inf, -0.0, 1e308, 5e-324, 2.0**63, 3.0, 1.5)
INTERESTING_STRINGS = (
    "",
    " ",
    "09:00",
    "17:00",
    "24:00",
    "phone_call",
    "whatsapp",
    "cooldown",
    "scheduled",
    "2026-02-28",
    "2026-02-29",
    "UTC",
    "Europe/Madrid",
    AGENT,
    PHONE_INTEGRATION,
    "tag-vip",
    "\ud800",
    "\udfff\ud800",
    "a" * 300,
    *TEXTS,
)
_MEMBER_NAMES = tuple(
    dict.fromkeys(CAMPAIGN_MEMBERS + CYCLES_MEMBERS + WINDOW_MEMBERS + WEEKDAYS + ("colour",))
)
# Text of any code point, lone surrogates included.
surrogate_texts = st.text(st.characters(exclude_categories=()), max_size=8)
json_keys = st.one_of(st.sampled_from(_MEMBER_NAMES), surrogate_texts)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge_ints,
    st.floats(),
    st.sampled_from(SPECIAL_FLOATS),
    surrogate_texts,
    st.sampled_from(INTERESTING_STRINGS),
)


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.random()
    if depth < 4 and kind < 0.15:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 4 and kind < 0.3:
        keys = [rng.choice(_MEMBER_NAMES + INTERESTING_STRINGS) for _ in range(rng.randint(0, 4))]
        return {key: _random_json(rng, depth + 1) for key in keys}
    return rng.choice(
        (
            None,
            True,
            False,
            rng.randint(-(2**70), 2**70),
            rng.choice((0, 1, -1, 5, 6, 12, 13, 1440, 1441, 10_000, 10_001)),
            rng.choice(SPECIAL_FLOATS),
            rng.uniform(-1e6, 1e6),
            rng.choice(INTERESTING_STRINGS),
            _random_text(rng, rng.randint(0, 10)),
        )
    )


# Ready-made JSON values (cheap to draw), and freshly drawn ones (which shrink well).
JSON_POOL = tuple(_random_json(_rng) for _ in range(500))
# Deep-copied when drawn: a test that splices into a drawn value must not change the pool.
json_like = st.one_of(
    st.sampled_from(JSON_POOL).map(copy.deepcopy),
    st.recursive(
        json_scalars,
        lambda children: (
            st.lists(children, max_size=3) | st.dictionaries(json_keys, children, max_size=3)
        ),
        max_leaves=5,
    ),
)

non_string_keys = st.one_of(
    st.integers(),
    st.none(),
    st.booleans(),
    st.tuples(st.integers(), st.sampled_from(_MEMBER_NAMES)),
    st.floats(),
    st.frozensets(st.integers(), max_size=2),
)


@st.composite
def _non_string_key_dicts(draw: st.DrawFn) -> dict[Any, Any]:
    """A dict with at least one member name that is not a string, perhaps deep inside."""
    value = draw(
        st.dictionaries(
            st.one_of(json_keys, non_string_keys), st.one_of(json_scalars, json_like), max_size=3
        )
    )
    node = value
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(_MEMBER_NAMES))
        child = node.get(name)
        node[name] = node = dict(child) if type(child) is dict else {}
    node[draw(non_string_keys)] = draw(json_scalars)
    return value


non_string_key_dicts = _non_string_key_dicts()


def _all_keys(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            yield from item
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)


DEPTH = 10_000


def deep_dict(depth: int = DEPTH) -> dict[str, Any]:
    """`{"a": {"a": ... {} ...}}`, `depth` levels, built without recursion."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_list(depth: int = DEPTH) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def self_dict() -> dict[str, Any]:
    value: dict[str, Any] = {"enabled": True, "mode": "scheduled", "startTime": "09:00"}
    value["self"] = value
    value["schedule"] = value
    value["mon"] = value
    return value


def self_list() -> list[Any]:
    value: list[Any] = [1, "x"]
    value.append(value)
    return value


HOSTILE_BUILDERS: dict[str, Callable[[], Any]] = {
    "deep_dict": deep_dict,
    "deep_list": deep_list,
    "self_dict": self_dict,
    "self_list": self_list,
}


# ---------------------------------------------------------------------------------------------
# Splicing a value into a payload.

Path = tuple[str, ...]


def _schedule_paths(prefix: Path) -> list[Path]:
    paths = [prefix]
    for day in WEEKDAYS:
        paths.append((*prefix, day))
        paths += [(*prefix, day, member) for member in WINDOW_MEMBERS]
    paths.append((*prefix, "colour"))
    return paths


SPLICE_PATHS: tuple[Path, ...] = tuple(
    [(name,) for name in CAMPAIGN_MEMBERS if name not in ("scheduling", "cycles")]
    + [("colour",)]
    + _schedule_paths(("scheduling",))
    + [("cycles",)]
    + [("cycles", name) for name in CYCLES_MEMBERS if name != "schedule"]
    + [("cycles", "colour")]
    + _schedule_paths(("cycles", "schedule"))
)


def splice(target: dict[Any, Any], path: Path, value: Any) -> dict[Any, Any]:
    """Set `path` of `target` (in place) to `value`, making the objects on the way as needed.

    On the way to a cycles member, a block that is not an object becomes an enabled one, so that
    the member is read.
    """
    node = target
    for depth, name in enumerate(path[:-1]):
        child = node.get(name)
        # A copy of each object on the way, so that a value spliced earlier is never changed.
        if type(child) is dict:
            child = dict(child)
        else:
            child = {"enabled": True} if path[: depth + 1] == ("cycles",) else {}
        node[name] = child
        node = child
    node[path[-1]] = value
    return target


def splice_parent_into_itself(target: dict[Any, Any], path: Path) -> dict[Any, Any]:
    """Set `path` of `target` to the object that holds it: a value that contains itself."""
    splice(target, path, None)
    parent = target
    for name in path[:-1]:
        parent = parent[name]
    parent[path[-1]] = parent
    return target


@st.composite
def spliced_payloads(draw: st.DrawFn, values: st.SearchStrategy[Any] = json_like) -> Any:
    """A valid payload with one to three members, anywhere in it, set to `values`."""
    target = draw(valid_payloads())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(SPLICE_PATHS))
        splice(target, path, draw(values))
    return target


hostile_payloads = st.one_of(
    json_like,
    spliced_payloads(),
    non_string_key_dicts,
    spliced_payloads(non_string_key_dicts),
)


def identity_snapshot(value: Any, skip: int | None = None) -> list[tuple[Any, ...]]:
    """The identity-level structure of `value`: each container reached, by `id`, with the ids
    of its keys and items. Cycles and any depth are fine; immutable leaves are compared by
    identity, which is enough to tell that nothing was changed in place. The container whose
    `id` is `skip` is not entered (unless it is `value` itself)."""
    seen: set[int] = set() if skip is None or skip == id(value) else {skip}
    out: list[tuple[Any, ...]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, dict):
            pairs = list(dict.items(item))
            out.append((id(item), type(item), tuple((id(k), id(v)) for k, v in pairs)))
            stack.extend(v for _, v in pairs)
        elif isinstance(item, list):
            items = list.copy(item)
            out.append((id(item), type(item), tuple(map(id, items))))
            stack.extend(items)
    return out


# api-contract: the primary violation is the first by status 400, 404, 409, 402; D-statuses:
# then any other status, lowest first.
_PRECEDENCE = (400, 404, 409, 402)


def expected_envelope(violations: tuple[Any, ...]) -> tuple[int, dict[str, Any]] | None:
    """The status and error body the api-contract asks for these violations."""

    def rank(violation: Any) -> tuple[int, int]:
        status = STATUS[violation.key.value]
        if status in _PRECEDENCE:
            return (_PRECEDENCE.index(status), 0)
        return (len(_PRECEDENCE), status)

    if not violations:
        return None
    primary = min(violations, key=rank)
    body = {"success": False, "error": primary.key.value, "message": primary.message}
    if primary.field is not None:
        body["field"] = primary.field
    return STATUS[primary.key.value], body


def is_subsequence(short: tuple[Any, ...], long: tuple[Any, ...]) -> bool:
    """Whether every item of `short` is in `long`, in the same relative order."""
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)


# ---------------------------------------------------------------------------------------------
# One defect: a valid payload with one member broken, and the one violation it must give.

Defect = tuple[Any, str, str | None]
_DEFECTS: dict[str, Callable[[st.DrawFn], Defect]] = {}


def _defect(function: Callable[[st.DrawFn], Defect]) -> Callable[[st.DrawFn], Defect]:
    _DEFECTS[function.__name__.lstrip("_")] = function
    return function


def _cut(name: str) -> str:
    """A member name as a field path shows it (D-unknown-members: cut to 64 and `…`)."""
    return name if len(name) <= 64 else name[:64] + "…"


_NOT_STRING_SCALARS = st.one_of(st.booleans(), st.integers(), st.floats(), huge_ints)
_SOME_ARRAYS = st.sampled_from(([], [1], ["a", None], [[]], ["09:00"]))
_SOME_OBJECTS = st.sampled_from(({}, {"a": 1}, {"startTime": "09:00"}, {"enabled": True}))
_NOT_STRINGS_NOR_NULL = st.one_of(_NOT_STRING_SCALARS, _SOME_ARRAYS, _SOME_OBJECTS)
_NOT_STRINGS = st.one_of(st.none(), _NOT_STRINGS_NOR_NULL)
_NOT_OBJECTS = st.one_of(st.none(), _NOT_STRING_SCALARS, _SOME_ARRAYS, texts)
_NOT_ARRAYS = st.one_of(st.none(), _NOT_STRING_SCALARS, _SOME_OBJECTS, texts)
_NOT_INTEGERS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((1.5, -0.5, math.nan, math.inf, -math.inf, "3", "", [], {}, [3])),
    st.floats().filter(lambda x: not (math.isfinite(x) and x.is_integer())),
    texts,
)


def _bad_integers(low: int, high: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from((low - 1, high + 1, float(high + 1))),
        huge_ints,
        _NOT_INTEGERS,
    )


@_defect
def _not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    value = draw(
        st.sampled_from(
            ([base], list(base), tuple(base.items()), "body", 1, None, 1.5, True, b"{}")
        )
    )
    return value, INVALID_REQUEST, None


@_defect
def _required_missing(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    name = draw(st.sampled_from(REQUIRED_MEMBERS))
    del base[name]
    return base, INVALID_REQUEST, name


@_defect
def _name_too_long(draw: st.DrawFn) -> Defect:
    # Blank or not: a name over 255 is reported as too long only (D-blank-name).
    size = draw(st.one_of(st.just(256), st.integers(256, 2000)))
    unit = draw(st.one_of(non_empty_texts, st.sampled_from(WHITESPACE)))
    name = (unit * size)[:size]
    return draw(valid_payloads()) | {"name": name}, INVALID_REQUEST, "name"


@_defect
def _name_blank(draw: st.DrawFn) -> Defect:
    name = draw(
        st.one_of(
            st.text(st.sampled_from(WHITESPACE), max_size=8),
            st.builds(str.__mul__, st.sampled_from(WHITESPACE), st.sampled_from((0, 1, 254, 255))),
        )
    )
    return draw(valid_payloads()) | {"name": name}, INVALID_REQUEST, "name"


@st.composite
def malformed_agent_ids(draw: st.DrawFn) -> str:
    good = draw(uuid4_texts)
    return draw(
        st.sampled_from(
            (
                str(uuid.uuid1()),
                str(uuid.uuid3(uuid.NAMESPACE_DNS, "x")),
                str(uuid.uuid5(uuid.NAMESPACE_DNS, "x")),
                good[:14] + draw(st.sampled_from("0123567")) + good[15:],
                good[:19] + draw(st.sampled_from("01234567cdefCDEF")) + good[20:],
                "{" + good + "}",
                "urn:uuid:" + good,
                good.replace("-", ""),
                good + " ",
                " " + good,
                good[:-1],
                good[:8] + "_" + good[9:],
                good.replace("4", "\uff14", 1),
                "",
                "not-a-uuid",
            )
        )
    )


@_defect
def _agent_id_malformed(draw: st.DrawFn) -> Defect:
    return (
        draw(valid_payloads()) | {"agent_id": draw(malformed_agent_ids())},
        INVALID_REQUEST,
        "agent_id",
    )


@_defect
def _integration_id_empty(draw: st.DrawFn) -> Defect:
    return draw(valid_payloads()) | {"integration_id": ""}, INVALID_REQUEST, "integration_id"


@_defect
def _integration_type_unsupported(draw: st.DrawFn) -> Defect:
    value = draw(
        st.one_of(
            st.sampled_from(("sms", "PHONE_CALL", "WhatsApp", "", "phone call", "whatsapp ")),
            texts.filter(lambda text: text not in CHANNELS),
        )
    )
    return (
        draw(valid_payloads()) | {"integration_type": value},
        "INVALID_INTEGRATION_TYPE",
        "integration_type",
    )


BAD_TIMEZONES = (
    "Mars/Base",
    "europe/madrid",
    "EUROPE/MADRID",
    "posix/Europe/Paris",
    "right/UTC",
    "../zoneinfo/UTC",
    "/usr/share/zoneinfo/UTC",
    "Europe//Paris",
    "Europe/Paris/",
    "localtime",
    "",
    "UTC\x00",
    " UTC",
    "A" * 65,
    "zone.tab",
    "tzdata.zi",
    "__init__.py",
    "Europe/__init__.py",
    "./UTC",
)


@_defect
def _timezone_unknown(draw: st.DrawFn) -> Defect:
    value = draw(st.one_of(st.sampled_from(BAD_TIMEZONES), texts.filter(lambda t: t not in ZONES)))
    return draw(valid_payloads()) | {"timezone": value}, INVALID_REQUEST, "timezone"


@_defect
def _retries_bad(draw: st.DrawFn) -> Defect:
    return (
        draw(valid_payloads()) | {"retries": draw(_bad_integers(0, 5))},
        INVALID_REQUEST,
        ("retries"),
    )


@_defect
def _message_limit_bad(draw: st.DrawFn) -> Defect:
    value = draw(_bad_integers(1, 10_000))
    return draw(valid_payloads()) | {"message_limit": value}, INVALID_REQUEST, "message_limit"


@_defect
def _string_member_not_a_string(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    own = ("first_message",) if channel == "phone_call" else ("template", "template_alt")
    strings = ("name", "description", "agent_id", "integration_id", "integration_type", "timezone")
    name = draw(st.sampled_from((*strings, *own)))
    base = draw(valid_payloads(channel))
    return base | {name: draw(_NOT_STRINGS)}, INVALID_REQUEST, name


@_defect
def _channel_field_on_wrong_channel(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    name = draw(
        st.sampled_from(
            ("template", "template_alt") if channel == "phone_call" else ("first_message",)
        )
    )
    value = draw(st.one_of(st.just(""), texts))
    return draw(valid_payloads(channel)) | {name: value}, INVALID_REQUEST, name


_unknown_names = st.one_of(
    st.sampled_from(("colour", "retry", "Name", "agentId", "cycles ", "status", "id")),
    texts,
    st.sampled_from(("x" * 64, "x" * 65, "é" * 100)),
).filter(lambda name: name not in CAMPAIGN_MEMBERS)


@_defect
def _unknown_member(draw: st.DrawFn) -> Defect:
    name = draw(_unknown_names)
    base = draw(valid_payloads())
    return base | {name: draw(json_like)}, INVALID_REQUEST, _cut(name)


@_defect
def _member_name_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    base[draw(non_string_keys)] = draw(json_scalars)
    return base, INVALID_REQUEST, None


@_defect
def _payload_too_large(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    extra = draw(st.integers(65 - len(base), 80 - len(base)))
    base.update({f"extra_{index}": index for index in range(extra)})
    return base, INVALID_REQUEST, None


@_defect
def _scheduling_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(_NOT_OBJECTS)
    return draw(valid_payloads()) | {"scheduling": value}, INVALID_REQUEST, "scheduling"


def _schedule_in_force(draw: st.DrawFn, base: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A schedule object of `base` that the rules read, with its path; made if need be."""
    cycles = base.get("cycles")
    if type(cycles) is dict and cycles.get("mode") == "scheduled" and draw(st.booleans()):
        return cycles["schedule"], "cycles.schedule"
    return base.setdefault("scheduling", {}), "scheduling"


def _window_in_force(draw: st.DrawFn, base: dict[str, Any]) -> tuple[dict[str, Any], str]:
    schedule, path = _schedule_in_force(draw, base)
    day = draw(st.sampled_from(WEEKDAYS))
    if day not in schedule:
        schedule[day] = draw(windows)
    return schedule[day], f"{path}.{day}"


@_defect
def _schedule_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    schedule, path = _schedule_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("monday", "Mon", "MON", "weekend", "0")), _unknown_names).filter(
            lambda name: name not in WEEKDAYS
        )
    )
    schedule[name] = draw(windows)
    return base, INVALID_REQUEST, f"{path}.{_cut(name)}"


@_defect
def _schedule_too_large(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    schedule, path = _schedule_in_force(draw, base)
    schedule.update({f"day{index}": None for index in range(draw(st.integers(65, 70)))})
    return base, INVALID_REQUEST, path


@_defect
def _window_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    schedule, path = _schedule_in_force(draw, base)
    day = draw(st.sampled_from(WEEKDAYS))
    schedule[day] = draw(_NOT_OBJECTS)
    return base, INVALID_REQUEST, f"{path}.{day}"


BAD_TIMES = (
    "25:00",
    "24:00",
    "23:60",
    "9:00",
    "09:0",
    "09:00:00",
    "0900",
    "09.00",
    "٠٩:٠٠",
    "０９:００",
    "09:0a",
    " 9:00",
    "",
    "-1:00",
    "+9:00",
    "9am",
)


@_defect
def _window_time_malformed(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(("startTime", "stopTime")))
    window[name] = draw(st.sampled_from(BAD_TIMES))
    return base, INVALID_REQUEST, f"{path}.{name}"


@_defect
def _window_time_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(("startTime", "stopTime")))
    window[name] = draw(_NOT_STRINGS)
    return base, INVALID_REQUEST, f"{path}.{name}"


@_defect
def _window_not_before_stop(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    stop = draw(st.integers(0, 24 * 60 - 1))
    start = draw(st.integers(stop, 24 * 60 - 1))
    window["startTime"], window["stopTime"] = hhmm(start), hhmm(stop)
    return base, INVALID_REQUEST, f"{path}.stopTime"


@_defect
def _window_member_missing(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(WINDOW_MEMBERS))
    del window[name]
    return base, INVALID_REQUEST, f"{path}.{name}"


@_defect
def _window_active_not_boolean(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    window["active"] = draw(
        st.one_of(st.sampled_from((0, 1, "true", "false", None, 1.0, [])), texts)
    )
    return base, INVALID_REQUEST, f"{path}.active"


@_defect
def _window_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("colour", "start_time", "starttime")), _unknown_names).filter(
            lambda name: name not in WINDOW_MEMBERS
        )
    )
    window[name] = draw(json_like)
    return base, INVALID_REQUEST, f"{path}.{_cut(name)}"


@_defect
def _cycles_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(_NOT_OBJECTS)
    return draw(valid_payloads()) | {"cycles": value}, INVALID_REQUEST, "cycles"


@_defect
def _cycles_enabled_not_boolean(draw: st.DrawFn) -> Defect:
    block = draw(ignored_cycles_rest)
    block["enabled"] = draw(st.one_of(st.sampled_from(("true", 1, 0, None, 1.0, [], {})), texts))
    return draw(valid_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles.enabled"


@_defect
def _cycles_too_large(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    block.update({f"extra_{index}": index for index in range(draw(st.integers(65, 70)))})
    return draw(valid_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles"


@_defect
def _cycles_enabled_on_whatsapp(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    # Only that one defect: the filter statuses are read as the campaign's channel's.
    whatsapp = CONTACT_STATUSES[IntegrationType.WHATSAPP]
    if "filter_statuses" in block:
        block["filter_statuses"] = [s for s in block["filter_statuses"] if s in whatsapp]
    return draw(valid_payloads("whatsapp")) | {"cycles": block}, INVALID_REQUEST, "cycles"


@_defect
def _cycles_required_missing(draw: st.DrawFn) -> Defect:
    # `mode` is dropped only in scheduled mode: without a mode, a cooldown block's
    # `schedule: null` would be read as a schedule and give a second violation.
    mode, name = draw(
        st.sampled_from(
            (
                ("cooldown", "max_iterations"),
                ("scheduled", "max_iterations"),
                ("cooldown", "cooldown_minutes"),
                ("scheduled", "schedule"),
                ("scheduled", "mode"),
            )
        )
    )
    base = draw(valid_payloads(cycles=mode))
    del base["cycles"][name]
    return base, INVALID_REQUEST, f"cycles.{name}"


@_defect
def _cycles_mode_bad(draw: st.DrawFn) -> Defect:
    # Scheduled blocks only, for the same reason as above.
    base = draw(valid_payloads(cycles="scheduled"))
    base["cycles"]["mode"] = draw(
        st.one_of(
            st.sampled_from(("weekly", "COOLDOWN", "Scheduled", "", 1, None, [])),
            texts.filter(lambda text: text not in MODES),
        )
    )
    return base, INVALID_REQUEST, "cycles.mode"


@_defect
def _max_iterations_bad(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["max_iterations"] = draw(_bad_integers(2, 12))
    return base, INVALID_REQUEST, "cycles.max_iterations"


@_defect
def _cooldown_minutes_bad(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["cooldown_minutes"] = draw(_bad_integers(0, 1440))
    return base, INVALID_REQUEST, "cycles.cooldown_minutes"


@_defect
def _cycles_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(
        st.one_of(
            st.sampled_from(("colour", "maxIterations", "filter_status")), _unknown_names
        ).filter(lambda name: name not in CYCLES_MEMBERS)
    )
    base["cycles"][name] = draw(json_like)
    return base, INVALID_REQUEST, f"cycles.{_cut(name)}"


@_defect
def _filter_list_not_an_array(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    value = draw(_NOT_ARRAYS)
    base["cycles"][name] = value
    return base, INVALID_REQUEST, f"cycles.{name}"


@_defect
def _filter_item_bad(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    index = draw(st.integers(0, len(items)))
    items.insert(index, draw(st.one_of(st.just(""), _NOT_STRINGS)))
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


@_defect
def _filter_item_repeated(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    if not items:
        items.append(draw(st.sampled_from(_STATUSES if name == "filter_statuses" else TAGS)))
    original = draw(st.integers(0, len(items) - 1))
    index = draw(st.integers(original + 1, len(items)))
    items.insert(index, items[original])
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


@_defect
def _filter_status_unknown(draw: st.DrawFn) -> Defect:
    # D-contact-statuses: a status of the other channel, another spelling, or any other text.
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    items = base["cycles"].setdefault("filter_statuses", [])
    index = draw(st.integers(0, len(items)))
    whatsapp_only = CONTACT_STATUSES[IntegrationType.WHATSAPP] - set(_STATUSES)
    unknown = st.one_of(
        st.sampled_from(sorted(whatsapp_only)),
        st.sampled_from(("Converted", "QUEUE", " queue", "failed ", "no_answer", "busy")),
        texts.filter(lambda text: text != "" and text not in _STATUSES),
    )
    items.insert(index, draw(unknown))
    return base, "INVALID_STATUS", f"cycles.filter_statuses[{index}]"


@_defect
def _filter_list_too_long(draw: st.DrawFn) -> Defect:
    # D-filter-lists: a list over 100 items is refused whole, unread, so even bad items in it
    # give no second violation.
    base = draw(valid_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    size = draw(st.integers(101, 120))
    item = draw(st.sampled_from(("distinct", "repeated", "bad")))
    if item == "distinct":
        items: list[Any] = [f"item-{index}" for index in range(size)]
    elif item == "repeated":
        items = ["same"] * size
    else:
        items = [None, "", 5] * (size // 3 + 1)
    base["cycles"][name] = items
    return base, INVALID_REQUEST, f"cycles.{name}"


@_defect
def _scheduled_mode_only(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles="cooldown"))
    name = draw(st.sampled_from(SCHEDULE_ONLY))
    if name == "schedule":
        value = draw(st.one_of(st.just({}), schedules(), _NOT_STRINGS_NOR_NULL, texts))
    else:
        value = draw(
            st.one_of(
                st.dates().map(datetime.date.isoformat),
                _NOT_STRINGS_NOR_NULL,
                texts,
            )
        )
    base["cycles"][name] = value
    return base, "SCHEDULED_MODE_ONLY", f"cycles.{name}"


@_defect
def _cycles_schedule_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles="scheduled"))
    value = draw(_NOT_OBJECTS)
    base["cycles"]["schedule"] = value
    return base, INVALID_REQUEST, "cycles.schedule"


BAD_DATES = (
    "2026-02-29",
    "2025-02-29",
    "2026-13-01",
    "2026-00-10",
    "2026-04-31",
    "0000-01-01",
    "2026-1-01",
    "20260101",
    "2026/01/01",
    "2026-01-01T00:00:00",
    "",
    "２０２６-01-01",
    "+2026-01-01",
    "-001-01-01",
)


@_defect
def _date_malformed(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(st.sampled_from(BAD_DATES))
    return base, INVALID_REQUEST, f"cycles.{name}"


@_defect
def _date_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(_NOT_STRINGS_NOR_NULL)
    return base, INVALID_REQUEST, f"cycles.{name}"


@_defect
def _start_date_after_end_date(draw: st.DrawFn) -> Defect:
    base = draw(valid_payloads(cycles="scheduled"))
    end = draw(st.dates(max_value=datetime.date(9999, 12, 30)))
    start = draw(st.dates(min_value=end + datetime.timedelta(days=1)))
    base["cycles"]["schedule_start_date"] = start.isoformat()
    base["cycles"]["schedule_end_date"] = end.isoformat()
    return base, INVALID_REQUEST, "cycles.schedule_end_date"


DEFECT_KINDS = tuple(_DEFECTS)


@st.composite
def one_defect(draw: st.DrawFn) -> Defect:
    """`(payload, expected_key, expected_field)`: a valid payload with one defect."""
    kind = draw(st.sampled_from(DEFECT_KINDS))
    event(kind)
    return _DEFECTS[kind](draw)
