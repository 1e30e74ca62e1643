"""The building blocks of `campaign_rules.strategies` that the project's own tests draw from.

They live in the private modules of the package, beside the public strategies they make up;
only `campaign_rules.strategies.__all__` is shipped as public. The tests import them from here,
so that the shipped package exports nothing for the tests' sake.
"""

from __future__ import annotations

from campaign_rules.strategies._field_defects import BAD_TIMEZONES, malformed_agent_ids
from campaign_rules.strategies._payloads import CYCLES_KINDS, enabled_cycles, ignored_cycles_rest
from campaign_rules.strategies._tables import (
    CAMPAIGN_MEMBER_NAMES,
    CHANNELS,
    CYCLES_MEMBER_NAMES,
    DATES,
    IMMUTABLE_OWNER_FIELDS,
    MODES,
    REQUIRED_MEMBERS,
    SCHEDULE_ONLY,
    WINDOW_MEMBER_NAMES,
)
from campaign_rules.strategies._texts import (
    TEXTS,
    agent_ids,
    mixed_case,
    non_empty_texts,
    texts,
    uuid4_texts,
)
from campaign_rules.strategies._values import (
    MEMBER_NAMES,
    json_keys,
    json_like,
    json_scalars,
    non_string_keys,
    surrogate_texts,
)

__all__ = [
    "BAD_TIMEZONES",
    "CAMPAIGN_MEMBER_NAMES",
    "CHANNELS",
    "CYCLES_KINDS",
    "CYCLES_MEMBER_NAMES",
    "DATES",
    "IMMUTABLE_OWNER_FIELDS",
    "MEMBER_NAMES",
    "MODES",
    "REQUIRED_MEMBERS",
    "SCHEDULE_ONLY",
    "TEXTS",
    "WINDOW_MEMBER_NAMES",
    "agent_ids",
    "enabled_cycles",
    "ignored_cycles_rest",
    "json_keys",
    "json_like",
    "json_scalars",
    "malformed_agent_ids",
    "mixed_case",
    "non_empty_texts",
    "non_string_keys",
    "surrogate_texts",
    "texts",
    "uuid4_texts",
]
