r"""The definitions the rules rest on, pinned in the kit: read from the code that decides.

An executor in another language checks its own formats, zone list, white space and limits
against these before it trusts its answers: a different tzdata release, or a regex dialect
whose `\s` differs, is found here rather than case by case.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from typing import Any

from campaign_rules._core.limits import WHITESPACE
from campaign_rules._core.timezones import timezone_names
from campaign_rules._export.patterns import DATE, DATE_TIME, HH_MM, UUID_V4
from campaign_rules._export.ruleset import bounds

__all__ = ["definitions"]


def definitions() -> dict[str, Any]:
    """The kit's `definitions.json`: formats, time zones, white space, lengths and limits."""
    return {
        # Each format as the JSON Schema keywords the schema export states it with.
        "formats": {
            "uuid_v4": UUID_V4.keywords(),
            "date": DATE.keywords(),
            "date_time": DATE_TIME.keywords(),
            "hh_mm": HH_MM.keywords(),
        },
        "timezones": {
            "tzdata": importlib.metadata.version("tzdata"),
            "iana": getattr(importlib.import_module("tzdata"), "IANA_VERSION", None),
            "names": sorted(timezone_names()),
        },
        # D-blank-name: the characters that make a name blank, ECMAScript's `\s`.
        "whitespace": [f"U+{ord(character):04X}" for character in WHITESPACE],
        # D-blank-name: a length counts code points; D-positions: so does a column.
        "length_unit": "code point",
        "column_unit": "code point",
        # Every bound and table of `_core.limits`, as the rule set's fingerprint reads them.
        "limits": bounds(),
    }
