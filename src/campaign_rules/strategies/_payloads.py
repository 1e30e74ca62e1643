"""Valid creation payloads. Optional members are chosen by one bit mask."""

from __future__ import annotations

import json
import math
import random
from typing import Any

from hypothesis import strategies as st

from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._core.enums import IntegrationType
from campaign_rules._core.limits import (
    CHANNEL_OF_FIELD,
    CONTACT_STATUSES,
    COOLDOWN_MINUTES,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    RETRIES,
    WEEKDAYS,
    Bounds,
)
from campaign_rules.strategies._tables import (
    CHANNELS,
    CYCLES_MEMBER_NAMES,
    DATES,
    MODES,
    SAMPLE_TAGS,
    SCHEDULE_ONLY,
    WINDOW_MEMBER_NAMES,
    ZONES,
    hhmm,
)
from campaign_rules.strategies._texts import agent_ids, integration_ids, names, texts


def integers_in(bounds: Bounds) -> st.SearchStrategy[int | float]:
    """An integer field's valid values: JSON integers, and integral floats (D-integral-floats)."""
    low, high = bounds.low, bounds.high
    edges = (low, high, float(low), float(high)) + ((-0.0,) if low <= 0 <= high else ())
    return st.one_of(st.integers(low, high), st.sampled_from(edges))


_rng = random.Random(20260602)
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
    {START_TIME: hhmm(start), STOP_TIME: hhmm(stop), "active": active}
    for start, stop in _WINDOW_TIMES
    for active in (True, False)
)
_WINDOW_ORDERS = (
    WINDOW_MEMBER_NAMES,
    ("active", STOP_TIME, START_TIME),
    (STOP_TIME, START_TIME, "active"),
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
STATUSES = tuple(sorted(status.value for status in CONTACT_STATUSES[IntegrationType.PHONE_CALL]))
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
_JUNK_NAMES = (*CYCLES_MEMBER_NAMES[1:], "colour", "", "ENABLED", 7, None, (1, 2))
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
        block["filter_statuses"] = draw(filter_lists(STATUSES))
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


def channel_fields(channel: str) -> tuple[str, ...]:
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
    optional.update(dict.fromkeys(channel_fields(channel), texts))
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


def is_plain_json(value: object) -> bool:
    """Whether `value` survives `json.dumps(allow_nan=False)` and `json.loads` unchanged."""
    try:
        return bool(json.loads(json.dumps(value, allow_nan=False)) == value)
    except (TypeError, ValueError, RecursionError):
        return False
