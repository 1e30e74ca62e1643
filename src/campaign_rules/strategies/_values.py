"""JSON-like values, among them what JSON cannot hold: NaN, huge integers, lone surrogates.

Also member names that are not strings, for the defects and properties that need them.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

from hypothesis import strategies as st

from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    RETRIES,
    WEEKDAYS,
)
from campaign_rules.strategies._tables import (
    CAMPAIGN_MEMBER_NAMES,
    CHANNELS,
    CYCLES_MEMBER_NAMES,
    MODES,
    SAMPLE_AGENT_IDS,
    SAMPLE_INTEGRATION_IDS,
    WINDOW_MEMBER_NAMES,
)
from campaign_rules.strategies._texts import TEXTS, random_text

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
    *CHANNELS,
    *MODES,
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
MEMBER_NAMES = tuple(
    dict.fromkeys(
        CAMPAIGN_MEMBER_NAMES + CYCLES_MEMBER_NAMES + WINDOW_MEMBER_NAMES + WEEKDAYS + ("colour",)
    )
)
# Text of any code point, lone surrogates included.
surrogate_texts = st.text(st.characters(exclude_categories=()), max_size=8)
json_keys = st.one_of(st.sampled_from(MEMBER_NAMES), surrogate_texts)
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
        keys = [rng.choice(MEMBER_NAMES + INTERESTING_STRINGS) for _ in range(rng.randint(0, 4))]
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
            random_text(rng, rng.randint(0, 10)),
        )
    )


# Ready-made JSON values (cheap to draw), and freshly drawn ones (which shrink well).
_rng = random.Random(20260603)
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
    st.tuples(st.integers(), st.sampled_from(MEMBER_NAMES)),
    st.floats(),
    st.frozensets(st.integers(), max_size=2),
)
