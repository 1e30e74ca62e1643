"""What the defects share: the `Defect` triple, wrong values, and paths as shown."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from campaign_rules._campaign.shape import START_TIME
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.limits import FIELD_PATH_MAX_LENGTH, Bounds
from campaign_rules.strategies._tables import CAMPAIGN_MEMBER_NAMES
from campaign_rules.strategies._texts import texts
from campaign_rules.strategies._values import huge_ints

Defect = tuple[Any, ErrorKey, str | None]
"""`(payload, expected_key, expected_field)`: a body with one defect, and its one violation."""


_NOT_STRING_SCALARS = st.one_of(st.booleans(), st.integers(), st.floats(), huge_ints)
_SOME_ARRAYS = st.sampled_from(([], [1], ["a", None], [[]], ["09:00"]))
_SOME_OBJECTS = st.sampled_from(({}, {"a": 1}, {START_TIME: "09:00"}, {"enabled": True}))
NOT_STRINGS_NOR_NULL = st.one_of(_NOT_STRING_SCALARS, _SOME_ARRAYS, _SOME_OBJECTS)
NOT_STRINGS = st.one_of(st.none(), NOT_STRINGS_NOR_NULL)
NOT_OBJECTS = st.one_of(st.none(), _NOT_STRING_SCALARS, _SOME_ARRAYS, texts)
NOT_ARRAYS = st.one_of(st.none(), _NOT_STRING_SCALARS, _SOME_OBJECTS, texts)
_NOT_INTEGERS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((1.5, -0.5, math.nan, math.inf, -math.inf, "3", "", [], {}, [3])),
    st.floats().filter(lambda x: not (math.isfinite(x) and x.is_integer())),
    texts,
)


def bad_integers(bounds: Bounds) -> st.SearchStrategy[Any]:
    """Values an integer field within `bounds` refuses: past either bound, huge, or no integer."""
    low, high = bounds.low, bounds.high
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from((low - 1, high + 1, float(high + 1))),
        huge_ints,
        _NOT_INTEGERS,
    )


# Member names that the body does not have (the schedule and cycles defects also filter out
# the members of their own objects). Long ones show how a path cuts them (D-unknown-members).
unknown_names = st.one_of(
    st.sampled_from(("colour", "retry", "Name", "agentId", "cycles ", "status", "id")),
    texts,
    st.sampled_from(("x" * FIELD_PATH_MAX_LENGTH, "x" * (FIELD_PATH_MAX_LENGTH + 1), "é" * 100)),
    # Control characters, which a path shows escaped (D-shown-text).
    st.sampled_from(("x\x00\n", "\x1b[31mred", "a\u202eb")),
).filter(lambda name: name not in CAMPAIGN_MEMBER_NAMES)


def chosen_kinds(
    kinds: Iterable[str] | None, every: tuple[str, ...], unfit: frozenset[str], left_out: str
) -> tuple[str, ...]:
    """The kinds of defect asked for (`every` one when `kinds` is `None`), less the `unfit`.

    Raises `ValueError` for a kind not in `every`, and when none is left (`left_out` says why).
    """
    chosen = every if kinds is None else tuple(kinds)
    unknown = set(chosen) - set(every)
    if unknown:
        raise ValueError(f"unknown kinds of defect: {sorted(unknown)}")
    chosen = tuple(kind for kind in chosen if kind not in unfit)
    if not chosen:
        raise ValueError(f"no kind of defect is left {left_out}")
    return chosen


def draw_kind(draw: st.DrawFn, kinds: tuple[str, ...]) -> str:
    """One of `kinds`, counted in Hypothesis' statistics of the test that draws it."""
    kind = draw(st.sampled_from(kinds))
    if currently_in_test_context():
        event(kind)
    return kind
