"""Hypothesis strategies for campaign creation bodies and their update patches.

Import requires Hypothesis: install the extra, `pip install 'campaign-rules[strategies]'`.

- `create_payloads()` draws creation bodies that `validate_create` accepts: both channels,
  every optional field, cycles absent, disabled (with ignored junk) or enabled in either mode.
- `invalid_create_payloads()` draws `(payload, expected_key, expected_field)`: a valid body
  with one defect, and the one violation it gives (`expected_field` is `None` for the body as
  a whole). There are as many kinds of defect as `DEFECT_KINDS` lists.
- `update_patches(existing)` draws JSON Merge Patches that `validate_update(existing, patch)`
  accepts on a campaign that is not finished.
- `invalid_update_patches(existing)` draws `(patch, status, expected_key, expected_field)`: an
  update with one defect (an owner field, `cycles.enabled` or `cycles.mode` changed, a cycles
  field on a campaign without cycles, a finished campaign, a patch that is not an object, a
  merged campaign that breaks a creation rule), and the one violation it gives.

A service that embeds the rules can property-test its handler in three lines::

    @given(invalid_create_payloads(json_only=True))
    def test_handler_refuses(case):
        payload, key, field = case
        ...  # post `payload`; expect status 400, error `key` and field `field`

Bounds, members and enumerations are read from the library's own tables, so the strategies
follow the rules. Free text comes mostly from pools built once from a fixed seed (accents,
emoji, control characters, every plane but surrogates), since drawing text is the costliest
thing Hypothesis does. The other names of this module are the building blocks of these four,
shared with the project's tests; only `__all__` is the public surface.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import random
import uuid
from collections.abc import Callable, Iterable
from typing import Any, Final

try:
    from hypothesis import event
    from hypothesis import strategies as st
    from hypothesis.control import currently_in_test_context
except ImportError as error:  # pragma: no cover - only without the extra
    raise ImportError(
        "campaign_rules.strategies needs Hypothesis: pip install 'campaign-rules[strategies]'"
    ) from error

from campaign_rules._convert import to_wire
from campaign_rules._enums import CampaignStatus, CyclesMode, ErrorKey, IntegrationType
from campaign_rules._limits import (
    CHANNEL_OF_FIELD,
    CONTACT_STATUSES,
    COOLDOWN_MINUTES,
    FIELD_PATH_MAX_LENGTH,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    OBJECT_MAX_MEMBERS,
    RETRIES,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    WEEKDAYS,
    WHITESPACE,
    Bounds,
)
from campaign_rules._models import CampaignCreate, CyclesConfig
from campaign_rules._shape import (
    CAMPAIGN_MEMBERS as _CAMPAIGN_SHAPE,
)
from campaign_rules._shape import (
    CYCLES_MEMBERS as _CYCLES_SHAPE,
)
from campaign_rules._shape import (
    REQUIRED_CAMPAIGN_MEMBERS,
    REQUIRED_WINDOW_MEMBERS,
)
from campaign_rules._timezones import timezone_names

__all__ = [
    "DEFECT_KINDS",
    "PATCH_DEFECT_KINDS",
    "Defect",
    "PatchDefect",
    "create_payloads",
    "invalid_create_payloads",
    "invalid_update_patches",
    "is_plain_json",
    "update_patches",
]

# ---------------------------------------------------------------------------------------------
# The wire shape, from the library's tables.

CHANNELS: Final = tuple(channel.value for channel in IntegrationType)
MODES: Final = tuple(mode.value for mode in CyclesMode)
CAMPAIGN_MEMBERS: Final = tuple(_CAMPAIGN_SHAPE)
REQUIRED_MEMBERS: Final = REQUIRED_CAMPAIGN_MEMBERS
WINDOW_MEMBERS: Final = REQUIRED_WINDOW_MEMBERS
CYCLES_MEMBERS: Final = tuple(_CYCLES_SHAPE)
SCHEDULE_ONLY: Final = SCHEDULE_ONLY_CYCLES_FIELDS
DATES: Final = tuple(name for name in SCHEDULE_ONLY_CYCLES_FIELDS if name != "schedule")
IMMUTABLE_OWNER_FIELDS: Final = ("agent_id", "integration_id", "integration_type")
ZONES: Final = tuple(sorted(timezone_names()))

# Sample identifiers: a directory that knows them sees the look-ups pass.
SAMPLE_AGENT_IDS: Final = (
    "9b2f1c1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
    "0c7d3b8a-1e2f-4a5b-9c6d-7e8f9a0b1c2d",
)
SAMPLE_INTEGRATION_IDS: Final = {
    IntegrationType.PHONE_CALL.value: "int-phone-1",
    IntegrationType.WHATSAPP.value: "int-wa-1",
}
SAMPLE_TAGS: Final = ("tag-vip", "tag-optout", "tag-3")

INVALID_REQUEST: Final = ErrorKey.INVALID_REQUEST


def hhmm(minute_of_day: int) -> str:
    """The `HH:MM` text of a minute of the day (D-time-format)."""
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


# ---------------------------------------------------------------------------------------------
# Valid creation payloads. Optional members are chosen by one bit mask.

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
    "🚀" * NAME_MAX_LENGTH,
    " " * 127 + "é" + " " * 127,
    "\u3000" * 254 + "名",
    "é" * NAME_MAX_LENGTH,
    "e\u0301" * 127 + "!",
    *(
        _long_name(_rng, size) if size > 200 else _random_text(_rng, size)
        for size in [
            _rng.choice((1, 2, 5, 20, 64, 200, 250, NAME_MAX_LENGTH - 1, NAME_MAX_LENGTH))
            for _ in range(40)
        ]
    ),
)
assert all(0 < len(name) <= NAME_MAX_LENGTH and any(map(_is_visible, name)) for name in NAME_POOL)

_NAME_CHARS = st.characters(exclude_categories=["Cs"])
_VISIBLE = st.characters(exclude_categories=["Cs"], exclude_characters=WHITESPACE)


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


def mixed_case(text: str) -> str:
    return "".join(char.upper() if index % 2 else char for index, char in enumerate(text))


uuid4_texts = st.uuids(version=4).map(str)
agent_ids = st.one_of(
    st.sampled_from((*SAMPLE_AGENT_IDS, SAMPLE_AGENT_IDS[0].upper())),
    st.builds(
        lambda text, case: case(text),
        uuid4_texts,
        st.sampled_from((str.lower, str.upper, mixed_case)),
    ),
)


def integration_ids(channel: str) -> st.SearchStrategy[str]:
    """A valid `integration_id` for `channel`: its sample id, or any non-empty text."""
    known = SAMPLE_INTEGRATION_IDS[channel]
    return st.one_of(st.just(known), non_empty_texts)


def integers_in(bounds: Bounds) -> st.SearchStrategy[int | float]:
    """An integer field's valid values: JSON integers, and integral floats (D-integral-floats)."""
    low, high = bounds.low, bounds.high
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
_TAG_POOL = (*SAMPLE_TAGS, "tag-ñ", "🏷️", "x", "tag with spaces")


def filter_lists(pool: tuple[str, ...]) -> st.SearchStrategy[list[str]]:
    """A filter list: distinct non-empty strings (D-filter-lists)."""
    return st.lists(st.sampled_from(pool), unique=True, max_size=5)


_JUNK_VALUES: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1.5,
    math.nan,
    "",
    "x",
    [],
    {},
    [1, "a"],
    {"a": None},
    {1: 2},
)
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
        "max_iterations": draw(integers_in(MAX_ITERATIONS)),
    }
    # Bits: cooldown_minutes (scheduled mode), filter_statuses, filter_tags, and in cooldown
    # mode each schedule-only field sent as null (D-null-members).
    mask = draw(st.integers(0, 63))
    if mode == "cooldown" or mask & 1:
        block["cooldown_minutes"] = draw(integers_in(COOLDOWN_MINUTES))
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


def _channel_fields(channel: str) -> tuple[str, ...]:
    """The channel-only fields that belong to `channel` (spec 4.1 rule 1)."""
    return tuple(name for name, owner in CHANNEL_OF_FIELD.items() if owner == channel)


CYCLES_KINDS = ("absent", "disabled", "cooldown", "scheduled")


def create_payloads(
    channel: str | None = None, cycles: str | None = None, *, json_only: bool = False
) -> st.SearchStrategy[dict[Any, Any]]:
    """Creation bodies that `validate_create` accepts, offline.

    `channel`: `"phone_call"` or `"whatsapp"`, or either when `None`. `cycles`: one of
    `CYCLES_KINDS` (`"absent"`, `"disabled"`, `"cooldown"`, `"scheduled"`), or any that fits
    the channel when `None`; a disabled block holds ignored junk, Python values JSON cannot
    hold among it (spec 2.4 rule 2). With `json_only=True` every payload is plain JSON that
    `json.dumps(payload, allow_nan=False)` encodes and `json.loads` reads back equal.
    """
    payloads = _create_payloads(channel, cycles)
    return payloads.filter(is_plain_json) if json_only else payloads


@st.composite
def _create_payloads(
    draw: st.DrawFn, channel: str | None = None, cycles: str | None = None
) -> dict[Any, Any]:
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
        "retries": integers_in(RETRIES),
        "message_limit": integers_in(MESSAGE_LIMIT),
        "scheduling": schedules(),
    }
    optional.update(dict.fromkeys(_channel_fields(channel), texts))
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
    *SAMPLE_AGENT_IDS,
    *SAMPLE_INTEGRATION_IDS.values(),
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


# Each bound, and one past it.
_EDGE_INTEGERS = (
    0,
    1,
    -1,
    *(
        number
        for bounds in (RETRIES, MESSAGE_LIMIT, MAX_ITERATIONS, COOLDOWN_MINUTES)
        for number in (bounds.low - 1, bounds.low, bounds.high, bounds.high + 1)
    ),
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
            rng.choice(_EDGE_INTEGERS),
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


# ---------------------------------------------------------------------------------------------
# One defect: a valid payload with one member broken, and the one violation it must give.

Defect = tuple[Any, ErrorKey, str | None]
"""`(payload, expected_key, expected_field)`: a body with one defect, and its one violation."""


def _cut(name: str) -> str:
    """A member name as a field path shows it (D-unknown-members: cut to 64 and `…`)."""
    cut = FIELD_PATH_MAX_LENGTH
    return name if len(name) <= cut else name[:cut] + "…"


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


def _bad_integers(bounds: Bounds) -> st.SearchStrategy[Any]:
    low, high = bounds.low, bounds.high
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from((low - 1, high + 1, float(high + 1))),
        huge_ints,
        _NOT_INTEGERS,
    )


def _not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    value = draw(
        st.sampled_from(
            ([base], list(base), tuple(base.items()), "body", 1, None, 1.5, True, b"{}")
        )
    )
    return value, INVALID_REQUEST, None


def _required_missing(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    name = draw(st.sampled_from(REQUIRED_MEMBERS))
    del base[name]
    return base, INVALID_REQUEST, name


def _name_too_long(draw: st.DrawFn) -> Defect:
    # Blank or not: a name over 255 is reported as too long only (D-blank-name).
    size = draw(st.one_of(st.just(NAME_MAX_LENGTH + 1), st.integers(NAME_MAX_LENGTH + 1, 2000)))
    unit = draw(st.one_of(non_empty_texts, st.sampled_from(WHITESPACE)))
    name = (unit * size)[:size]
    return draw(create_payloads()) | {"name": name}, INVALID_REQUEST, "name"


def _name_blank(draw: st.DrawFn) -> Defect:
    name = draw(
        st.one_of(
            st.text(st.sampled_from(WHITESPACE), max_size=8),
            st.builds(
                str.__mul__,
                st.sampled_from(WHITESPACE),
                st.sampled_from((0, 1, NAME_MAX_LENGTH - 1, NAME_MAX_LENGTH)),
            ),
        )
    )
    return draw(create_payloads()) | {"name": name}, INVALID_REQUEST, "name"


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


def _agent_id_malformed(draw: st.DrawFn) -> Defect:
    return (
        draw(create_payloads()) | {"agent_id": draw(malformed_agent_ids())},
        INVALID_REQUEST,
        "agent_id",
    )


def _integration_id_empty(draw: st.DrawFn) -> Defect:
    return draw(create_payloads()) | {"integration_id": ""}, INVALID_REQUEST, "integration_id"


def _integration_type_unsupported(draw: st.DrawFn) -> Defect:
    value = draw(
        st.one_of(
            st.sampled_from(("sms", "PHONE_CALL", "WhatsApp", "", "phone call", "whatsapp ")),
            texts.filter(lambda text: text not in CHANNELS),
        )
    )
    return (
        draw(create_payloads()) | {"integration_type": value},
        ErrorKey.INVALID_INTEGRATION_TYPE,
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
    "A" * 65,  # longer than any name: refused unread (D-timezone)
    "zone.tab",
    "tzdata.zi",
    "__init__.py",
    "Europe/__init__.py",
    "./UTC",
)


def _timezone_unknown(draw: st.DrawFn) -> Defect:
    value = draw(st.one_of(st.sampled_from(BAD_TIMEZONES), texts.filter(lambda t: t not in ZONES)))
    return draw(create_payloads()) | {"timezone": value}, INVALID_REQUEST, "timezone"


def _retries_bad(draw: st.DrawFn) -> Defect:
    return (
        draw(create_payloads()) | {"retries": draw(_bad_integers(RETRIES))},
        INVALID_REQUEST,
        ("retries"),
    )


def _message_limit_bad(draw: st.DrawFn) -> Defect:
    value = draw(_bad_integers(MESSAGE_LIMIT))
    return draw(create_payloads()) | {"message_limit": value}, INVALID_REQUEST, "message_limit"


def _string_member_not_a_string(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    own = _channel_fields(channel)
    strings = ("name", "description", "agent_id", "integration_id", "integration_type", "timezone")
    name = draw(st.sampled_from((*strings, *own)))
    base = draw(create_payloads(channel))
    return base | {name: draw(_NOT_STRINGS)}, INVALID_REQUEST, name


def _channel_field_on_wrong_channel(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    others = tuple(name for name in CHANNEL_OF_FIELD if name not in _channel_fields(channel))
    name = draw(st.sampled_from(others))
    value = draw(st.one_of(st.just(""), texts))
    return draw(create_payloads(channel)) | {name: value}, INVALID_REQUEST, name


_unknown_names = st.one_of(
    st.sampled_from(("colour", "retry", "Name", "agentId", "cycles ", "status", "id")),
    texts,
    st.sampled_from(("x" * FIELD_PATH_MAX_LENGTH, "x" * (FIELD_PATH_MAX_LENGTH + 1), "é" * 100)),
).filter(lambda name: name not in CAMPAIGN_MEMBERS)


def _unknown_member(draw: st.DrawFn) -> Defect:
    name = draw(_unknown_names)
    base = draw(create_payloads())
    return base | {name: draw(json_like)}, INVALID_REQUEST, _cut(name)


def _member_name_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    base[draw(non_string_keys)] = draw(json_scalars)
    return base, INVALID_REQUEST, None


def _payload_too_large(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    extra = draw(
        st.integers(OBJECT_MAX_MEMBERS + 1 - len(base), OBJECT_MAX_MEMBERS + 16 - len(base))
    )
    base.update({f"extra_{index}": index for index in range(extra)})
    return base, INVALID_REQUEST, None


def _scheduling_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(_NOT_OBJECTS)
    return draw(create_payloads()) | {"scheduling": value}, INVALID_REQUEST, "scheduling"


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


def _schedule_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    schedule, path = _schedule_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("monday", "Mon", "MON", "weekend", "0")), _unknown_names).filter(
            lambda name: name not in WEEKDAYS
        )
    )
    schedule[name] = draw(windows)
    return base, INVALID_REQUEST, f"{path}.{_cut(name)}"


def _schedule_too_large(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    schedule, path = _schedule_in_force(draw, base)
    schedule.update(
        {
            f"day{index}": None
            for index in range(draw(st.integers(OBJECT_MAX_MEMBERS + 1, OBJECT_MAX_MEMBERS + 6)))
        }
    )
    return base, INVALID_REQUEST, path


def _window_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
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


def _window_time_malformed(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(("startTime", "stopTime")))
    window[name] = draw(st.sampled_from(BAD_TIMES))
    return base, INVALID_REQUEST, f"{path}.{name}"


def _window_time_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(("startTime", "stopTime")))
    window[name] = draw(_NOT_STRINGS)
    return base, INVALID_REQUEST, f"{path}.{name}"


def _window_not_before_stop(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    stop = draw(st.integers(0, 24 * 60 - 1))
    start = draw(st.integers(stop, 24 * 60 - 1))
    window["startTime"], window["stopTime"] = hhmm(start), hhmm(stop)
    return base, INVALID_REQUEST, f"{path}.stopTime"


def _window_member_missing(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(st.sampled_from(WINDOW_MEMBERS))
    del window[name]
    return base, INVALID_REQUEST, f"{path}.{name}"


def _window_active_not_boolean(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    window["active"] = draw(
        st.one_of(st.sampled_from((0, 1, "true", "false", None, 1.0, [])), texts)
    )
    return base, INVALID_REQUEST, f"{path}.active"


def _window_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    window, path = _window_in_force(draw, base)
    name = draw(
        st.one_of(st.sampled_from(("colour", "start_time", "starttime")), _unknown_names).filter(
            lambda name: name not in WINDOW_MEMBERS
        )
    )
    window[name] = draw(json_like)
    return base, INVALID_REQUEST, f"{path}.{_cut(name)}"


def _cycles_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(_NOT_OBJECTS)
    return draw(create_payloads()) | {"cycles": value}, INVALID_REQUEST, "cycles"


def _cycles_enabled_not_boolean(draw: st.DrawFn) -> Defect:
    block = draw(ignored_cycles_rest)
    block["enabled"] = draw(st.one_of(st.sampled_from(("true", 1, 0, None, 1.0, [], {})), texts))
    return draw(create_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles.enabled"


def _cycles_too_large(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    block.update(
        {
            f"extra_{index}": index
            for index in range(draw(st.integers(OBJECT_MAX_MEMBERS + 1, OBJECT_MAX_MEMBERS + 6)))
        }
    )
    return draw(create_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles"


def _cycles_enabled_on_whatsapp(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    # Only that one defect: the filter statuses are read as the campaign's channel's.
    whatsapp = CONTACT_STATUSES[IntegrationType.WHATSAPP]
    if "filter_statuses" in block:
        block["filter_statuses"] = [s for s in block["filter_statuses"] if s in whatsapp]
    return draw(create_payloads("whatsapp")) | {"cycles": block}, INVALID_REQUEST, "cycles"


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
    base = draw(create_payloads(cycles=mode))
    del base["cycles"][name]
    return base, INVALID_REQUEST, f"cycles.{name}"


def _cycles_mode_bad(draw: st.DrawFn) -> Defect:
    # Scheduled blocks only, for the same reason as above.
    base = draw(create_payloads(cycles="scheduled"))
    base["cycles"]["mode"] = draw(
        st.one_of(
            st.sampled_from(("weekly", "COOLDOWN", "Scheduled", "", 1, None, [])),
            texts.filter(lambda text: text not in MODES),
        )
    )
    return base, INVALID_REQUEST, "cycles.mode"


def _max_iterations_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["max_iterations"] = draw(_bad_integers(MAX_ITERATIONS))
    return base, INVALID_REQUEST, "cycles.max_iterations"


def _cooldown_minutes_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["cooldown_minutes"] = draw(_bad_integers(COOLDOWN_MINUTES))
    return base, INVALID_REQUEST, "cycles.cooldown_minutes"


def _cycles_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(
        st.one_of(
            st.sampled_from(("colour", "maxIterations", "filter_status")), _unknown_names
        ).filter(lambda name: name not in CYCLES_MEMBERS)
    )
    base["cycles"][name] = draw(json_like)
    return base, INVALID_REQUEST, f"cycles.{_cut(name)}"


def _filter_list_not_an_array(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    value = draw(_NOT_ARRAYS)
    base["cycles"][name] = value
    return base, INVALID_REQUEST, f"cycles.{name}"


def _filter_item_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    index = draw(st.integers(0, len(items)))
    items.insert(index, draw(st.one_of(st.just(""), _NOT_STRINGS)))
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


def _filter_item_repeated(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    if not items:
        items.append(draw(st.sampled_from(_STATUSES if name == "filter_statuses" else SAMPLE_TAGS)))
    original = draw(st.integers(0, len(items) - 1))
    index = draw(st.integers(original + 1, len(items)))
    items.insert(index, items[original])
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


def _filter_status_unknown(draw: st.DrawFn) -> Defect:
    # D-contact-statuses: a status of the other channel, another spelling, or any other text.
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    items = base["cycles"].setdefault("filter_statuses", [])
    index = draw(st.integers(0, len(items)))
    whatsapp_only = CONTACT_STATUSES[IntegrationType.WHATSAPP] - set(_STATUSES)
    unknown = st.one_of(
        st.sampled_from(sorted(whatsapp_only)),
        st.sampled_from(("Converted", "QUEUE", " queue", "failed ", "no_answer", "busy")),
        texts.filter(lambda text: text != "" and text not in _STATUSES),
    )
    items.insert(index, draw(unknown))
    return base, ErrorKey.INVALID_STATUS, f"cycles.filter_statuses[{index}]"


def _filter_list_too_long(draw: st.DrawFn) -> Defect:
    # D-filter-lists: a list over 100 items is refused whole, unread, so even bad items in it
    # give no second violation.
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    size = draw(st.integers(FILTER_LIST_MAX_ITEMS + 1, FILTER_LIST_MAX_ITEMS + 20))
    item = draw(st.sampled_from(("distinct", "repeated", "bad")))
    if item == "distinct":
        items: list[Any] = [f"item-{index}" for index in range(size)]
    elif item == "repeated":
        items = ["same"] * size
    else:
        items = [None, "", 5] * (size // 3 + 1)
    base["cycles"][name] = items
    return base, INVALID_REQUEST, f"cycles.{name}"


def _scheduled_mode_only(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="cooldown"))
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
    return base, ErrorKey.SCHEDULED_MODE_ONLY, f"cycles.{name}"


def _cycles_schedule_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
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


def _date_malformed(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(st.sampled_from(BAD_DATES))
    return base, INVALID_REQUEST, f"cycles.{name}"


def _date_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(_NOT_STRINGS_NOR_NULL)
    return base, INVALID_REQUEST, f"cycles.{name}"


def _start_date_after_end_date(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    end = draw(st.dates(max_value=datetime.date(9999, 12, 30)))
    start = draw(st.dates(min_value=end + datetime.timedelta(days=1)))
    base["cycles"]["schedule_start_date"] = start.isoformat()
    base["cycles"]["schedule_end_date"] = end.isoformat()
    return base, INVALID_REQUEST, "cycles.schedule_end_date"


# The kinds of defect, by name; each draws one `Defect`.
_DEFECTS: Final[dict[str, Callable[[st.DrawFn], Defect]]] = {
    "not_an_object": _not_an_object,
    "required_missing": _required_missing,
    "name_too_long": _name_too_long,
    "name_blank": _name_blank,
    "agent_id_malformed": _agent_id_malformed,
    "integration_id_empty": _integration_id_empty,
    "integration_type_unsupported": _integration_type_unsupported,
    "timezone_unknown": _timezone_unknown,
    "retries_bad": _retries_bad,
    "message_limit_bad": _message_limit_bad,
    "string_member_not_a_string": _string_member_not_a_string,
    "channel_field_on_wrong_channel": _channel_field_on_wrong_channel,
    "unknown_member": _unknown_member,
    "member_name_not_a_string": _member_name_not_a_string,
    "payload_too_large": _payload_too_large,
    "scheduling_not_an_object": _scheduling_not_an_object,
    "schedule_member_unknown": _schedule_member_unknown,
    "schedule_too_large": _schedule_too_large,
    "window_not_an_object": _window_not_an_object,
    "window_time_malformed": _window_time_malformed,
    "window_time_not_a_string": _window_time_not_a_string,
    "window_not_before_stop": _window_not_before_stop,
    "window_member_missing": _window_member_missing,
    "window_active_not_boolean": _window_active_not_boolean,
    "window_member_unknown": _window_member_unknown,
    "cycles_not_an_object": _cycles_not_an_object,
    "cycles_enabled_not_boolean": _cycles_enabled_not_boolean,
    "cycles_too_large": _cycles_too_large,
    "cycles_enabled_on_whatsapp": _cycles_enabled_on_whatsapp,
    "cycles_required_missing": _cycles_required_missing,
    "cycles_mode_bad": _cycles_mode_bad,
    "max_iterations_bad": _max_iterations_bad,
    "cooldown_minutes_bad": _cooldown_minutes_bad,
    "cycles_member_unknown": _cycles_member_unknown,
    "filter_list_not_an_array": _filter_list_not_an_array,
    "filter_item_bad": _filter_item_bad,
    "filter_item_repeated": _filter_item_repeated,
    "filter_status_unknown": _filter_status_unknown,
    "filter_list_too_long": _filter_list_too_long,
    "scheduled_mode_only": _scheduled_mode_only,
    "cycles_schedule_not_an_object": _cycles_schedule_not_an_object,
    "date_malformed": _date_malformed,
    "date_not_a_string": _date_not_a_string,
    "start_date_after_end_date": _start_date_after_end_date,
}

DEFECT_KINDS: Final = tuple(_DEFECTS)
"""The names of the kinds of defect `invalid_create_payloads` draws."""

# The kinds whose payload always holds a Python value that JSON cannot (a tuple, bytes, a
# member name that is not a string).
_NOT_JSON_KINDS: Final = frozenset({"member_name_not_a_string"})


def invalid_create_payloads(
    *, kinds: Iterable[str] | None = None, json_only: bool = False
) -> st.SearchStrategy[Defect]:
    """`(payload, expected_key, expected_field)`: a valid body with one defect, and its violation.

    `validate_create(payload)` reports exactly one violation, with the error key `expected_key`
    and the field path `expected_field` (`None` for the body as a whole). `kinds` limits the
    defects to some of `DEFECT_KINDS` (all by default). Defects include Python values JSON
    cannot hold (NaN, tuples, member names that are not strings), for callers that pass
    decoded values around; with `json_only=True` every payload is plain JSON that
    `json.dumps(payload, allow_nan=False)` encodes and `json.loads` reads back equal, as a body
    sent over HTTP would be. Raises `ValueError` when no kind is left to draw.
    """
    chosen = DEFECT_KINDS if kinds is None else tuple(kinds)
    unknown = set(chosen) - set(DEFECT_KINDS)
    if unknown:
        raise ValueError(f"unknown kinds of defect: {sorted(unknown)}")
    chosen = tuple(kind for kind in chosen if not (json_only and kind in _NOT_JSON_KINDS))
    if not chosen:
        raise ValueError("no kind of defect is left to draw")
    defects = _one_defect(chosen)
    return defects.filter(lambda defect: is_plain_json(defect[0])) if json_only else defects


@st.composite
def _one_defect(draw: st.DrawFn, kinds: tuple[str, ...]) -> Defect:
    kind = draw(st.sampled_from(kinds))
    if currently_in_test_context():
        event(kind)  # Hypothesis' statistics show how often each kind was drawn
    return _DEFECTS[kind](draw)


def is_plain_json(value: object) -> bool:
    """Whether `value` survives `json.dumps(allow_nan=False)` and `json.loads` unchanged."""
    try:
        return bool(json.loads(json.dumps(value, allow_nan=False)) == value)
    except (TypeError, ValueError, RecursionError):
        return False


# ---------------------------------------------------------------------------------------------
# Update patches.


@st.composite
def update_patches(draw: st.DrawFn, existing: CampaignCreate) -> dict[str, Any]:
    """A JSON Merge Patch (RFC 7396) of `existing` that `validate_update` accepts.

    The patch turns the campaign into another valid one of the same owner, channel and cycles
    (api-contract: those never change): any other member may be set, changed or removed with
    `null`. It may re-send the current owner fields (the agent id in another case) and the
    current `cycles.enabled` and `cycles.mode`, which is no change.
    """
    current = to_wire(existing)
    enabled = _enabled_cycles(existing)
    cycles = "absent" if enabled is None else enabled.mode.value
    target = draw(create_payloads(existing.integration_type.value, cycles))
    for name in IMMUTABLE_OWNER_FIELDS:
        target[name] = current[name]
    patch = _merge_diff(current, _without_nulls(target))
    resent = {
        "agent_id": draw(st.sampled_from(_cases_of(existing.agent_id))),
        "integration_id": existing.integration_id,
        "integration_type": existing.integration_type.value,
    }
    patch.update((name, value) for name, value in resent.items() if draw(st.booleans()))
    if enabled is not None and draw(st.booleans()):
        block = patch.setdefault("cycles", {})
        block.update(enabled=True, mode=enabled.mode.value)
    return patch


def _enabled_cycles(existing: CampaignCreate) -> CyclesConfig | None:
    """The campaign's cycles when enabled (a hand-built `CyclesConfig` may say `enabled=False`)."""
    cycles = existing.cycles
    return cycles if cycles is not None and cycles.enabled else None


def _cases_of(agent_id: str) -> tuple[str, ...]:
    # D-agent-id: the same UUID in either case.
    return (agent_id, agent_id.upper(), mixed_case(agent_id))


def _without_nulls(payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` without its `null` cycles members (absent and null mean the same there).

    A merge patch cannot set a member to `null`: `null` removes it.
    """
    cycles = payload.get("cycles")
    if type(cycles) is dict:
        payload["cycles"] = {name: value for name, value in cycles.items() if value is not None}
    return payload


def _merge_diff(current: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    """The merge patch that turns `current` into `target` (neither holds a `null`)."""
    patch: dict[str, Any] = {name: None for name in current if name not in target}
    for name, value in target.items():
        old = current.get(name)
        if type(old) is dict and type(value) is dict:
            inner = _merge_diff(old, value)
            if inner:
                patch[name] = inner
        elif name not in current or type(old) is not type(value) or old != value:
            patch[name] = value
    return patch


# ---------------------------------------------------------------------------------------------
# Update patches with one defect.

PatchDefect = tuple[Any, CampaignStatus | None, ErrorKey, str | None]
"""`(patch, status, expected_key, expected_field)`: an update with one defect, and its violation."""


def _owner_field_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # api-contract: the owner and channel never change; the current value is no change.
    patch = draw(update_patches(existing))
    name = draw(st.sampled_from(IMMUTABLE_OWNER_FIELDS))
    if name == "agent_id":  # another agent, in any case (D-agent-id)
        others = [agent for agent in SAMPLE_AGENT_IDS if agent != existing.agent_id.lower()]
        value = draw(st.sampled_from(_cases_of(draw(st.sampled_from(others)))))
    elif name == "integration_id":
        value = existing.integration_id + draw(st.sampled_from(("-2", "x", " ")))
    else:
        value = next(channel for channel in CHANNELS if channel != existing.integration_type)
    patch[name] = value
    return patch, None, ErrorKey.IMMUTABLE_FIELD, name


def _cycles_enabled_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # spec 2.4 rule 4: enabled at creation or never. Removing the block disables it too.
    patch = draw(update_patches(existing))
    if _enabled_cycles(existing) is None:
        patch["cycles"] = {"enabled": True}
    else:
        patch["cycles"] = draw(st.sampled_from(({"enabled": False}, None)))
    return patch, None, ErrorKey.IMMUTABLE_FIELD, "cycles.enabled"


def _cycles_mode_changed(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    enabled = _enabled_cycles(existing)
    if enabled is None:
        raise ValueError("the campaign has no cycles whose mode could change")
    patch = draw(update_patches(existing))
    other = next(mode for mode in MODES if mode != enabled.mode)
    patch["cycles"] = {"mode": other}
    return patch, None, ErrorKey.IMMUTABLE_FIELD, "cycles.mode"


def _cycles_field_without_cycles(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # api-contract: no cycles field but `enabled` is set on a campaign without cycles.
    if _enabled_cycles(existing) is not None:
        raise ValueError("the campaign has cycles: its cycles fields may be set")
    patch = draw(update_patches(existing))
    name, value = draw(
        st.sampled_from(
            (
                ("mode", "cooldown"),
                ("max_iterations", MAX_ITERATIONS.low),
                ("cooldown_minutes", COOLDOWN_MINUTES.high),
                ("filter_tags", [SAMPLE_TAGS[0]]),
                ("schedule", {}),
            )
        )
    )
    patch["cycles"] = {name: value}
    return patch, None, ErrorKey.CYCLES_NOT_ENABLED, f"cycles.{name}"


def _campaign_finished(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # api-contract: a finished campaign takes no change; `{}` is no change, so it is not drawn.
    patch = draw(update_patches(existing).filter(bool))
    return patch, CampaignStatus.FINISHED, ErrorKey.CAMPAIGN_FINISHED, None


def _patch_not_an_object(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # D-merge-patch: a patch is a JSON object.
    value = draw(st.sampled_from(([], [{"name": "x"}], "name=x", 1, 1.5, True, None)))
    return value, None, INVALID_REQUEST, None


def _merged_retries_out_of_bounds(draw: st.DrawFn, existing: CampaignCreate) -> PatchDefect:
    # Every creation rule runs on the merged campaign; one breaks.
    patch = draw(update_patches(existing))
    patch["retries"] = draw(
        st.one_of(st.integers(max_value=RETRIES.low - 1), st.integers(min_value=RETRIES.high + 1))
    )
    return patch, None, INVALID_REQUEST, "retries"


_PATCH_DEFECTS: Final[dict[str, Callable[[st.DrawFn, CampaignCreate], PatchDefect]]] = {
    "owner_field_changed": _owner_field_changed,
    "cycles_enabled_changed": _cycles_enabled_changed,
    "cycles_mode_changed": _cycles_mode_changed,
    "cycles_field_without_cycles": _cycles_field_without_cycles,
    "campaign_finished": _campaign_finished,
    "patch_not_an_object": _patch_not_an_object,
    "merged_retries_out_of_bounds": _merged_retries_out_of_bounds,
}
PATCH_DEFECT_KINDS: Final = tuple(_PATCH_DEFECTS)
# The kinds that need an enabled cycles block, and those that need none.
_NEEDS_CYCLES: Final = frozenset({"cycles_mode_changed"})
_NEEDS_NO_CYCLES: Final = frozenset({"cycles_field_without_cycles"})


def invalid_update_patches(
    existing: CampaignCreate, *, kinds: Iterable[str] | None = None
) -> st.SearchStrategy[PatchDefect]:
    """`(patch, status, expected_key, expected_field)`: an update of `existing` with one defect.

    `validate_update(existing, patch, status=status)` reports exactly one violation, with the
    error key `expected_key` and the field path `expected_field` (`None` for the patch as a
    whole). `status` is `None` but for a finished campaign. Every patch is plain JSON. `kinds`
    limits the defects to some of `PATCH_DEFECT_KINDS` (all that fit `existing` by default: a
    mode cannot change on a campaign without enabled cycles). Raises `ValueError` when no kind
    is left.
    """
    chosen = PATCH_DEFECT_KINDS if kinds is None else tuple(kinds)
    unknown = set(chosen) - set(PATCH_DEFECT_KINDS)
    if unknown:
        raise ValueError(f"unknown kinds of defect: {sorted(unknown)}")
    misfits = _NEEDS_NO_CYCLES if _enabled_cycles(existing) is not None else _NEEDS_CYCLES
    chosen = tuple(kind for kind in chosen if kind not in misfits)
    if not chosen:
        raise ValueError("no kind of defect is left that fits this campaign")
    return _one_patch_defect(existing, chosen)


@st.composite
def _one_patch_defect(
    draw: st.DrawFn, existing: CampaignCreate, kinds: tuple[str, ...]
) -> PatchDefect:
    kind = draw(st.sampled_from(kinds))
    if currently_in_test_context():
        event(kind)
    return _PATCH_DEFECTS[kind](draw, existing)
