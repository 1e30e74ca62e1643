"""What a rule finds, and the violation the runner makes of it."""

from __future__ import annotations

from typing import NamedTuple

import attrs

from campaign_rules._core.enums import ErrorKey

__all__ = ["Finding", "Violation"]


class Finding(NamedTuple):
    """One defect as a rule reports it: where, and what, in a short sentence.

    A rule yields findings; the runner adds the error key and the rule id from the rule table,
    so that what the catalogue says of a rule is what its violations carry.
    """

    field: str | None
    message: str


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
