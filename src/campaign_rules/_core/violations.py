"""What a rule finds, and the violation the runner makes of it."""

from __future__ import annotations

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.findings import Finding
from campaign_rules._core.pointers import pointer_of_path

__all__ = ["Finding", "Violation"]


@attrs.frozen
class Violation:
    """One broken rule: the error key, the field path, a short message, the rule id, the place.

    `field` is a dotted path of JSON member names with array items by index
    (`scheduling.mon.startTime`, `cycles.filter_tags[2]`), or `None` for the payload as a
    whole. `message` names the field and the constraint and never repeats the input value.

    `pointer` names the same member as an RFC 6901 JSON Pointer (`/cycles/filter_tags/2`, `""`
    for the body as a whole), unambiguous where a member name holds `.` or `[`; by default
    it is made from `field`. `line` and `column` (both from 1; the column counts characters,
    each code point one) place it in the text it was read from, when it was read from text
    (`validate_create_json`, `validate_update_json`): the start of the member's value, or for
    an absent member the opening brace of its object; `None` otherwise. None of the three is
    in the error envelope.
    """

    key: ErrorKey
    field: str | None
    message: str
    rule: str
    pointer: str = attrs.field(
        kw_only=True,
        default=attrs.Factory(lambda self: pointer_of_path(self.field), takes_self=True),
    )
    line: int | None = attrs.field(default=None, kw_only=True)
    column: int | None = attrs.field(default=None, kw_only=True)
