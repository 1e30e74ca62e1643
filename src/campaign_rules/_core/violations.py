"""What a rule finds, and the violation the runner makes of it."""

from __future__ import annotations

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.findings import Finding

__all__ = ["Finding", "Violation"]


@attrs.frozen
class Violation:
    """One broken rule: the error key, the field path, a short message and the rule id.

    `field` is a dotted path of JSON member names with array items by index
    (`scheduling.mon.startTime`, `cycles.filter_tags[2]`), or `None` for the payload as a
    whole. `message` names the field and the constraint and never repeats the input value.
    """

    key: ErrorKey
    field: str | None
    message: str
    rule: str
