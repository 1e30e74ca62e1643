"""The two validations from the request body as received: read as I-JSON, then judged.

`validate_create_json` and `validate_update_json` (`campaign_rules._validate`) call these. A
body the body rules refuse is judged no further; any other is judged by exactly what judges
its decoded value, so the verdict on an I-JSON text is that of `validate_create` on
`json.loads` of it. Positions are found only for a refused body, and only when first read: a
valid one pays for the reading alone, a refused one for its violations' copies.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.results import (
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
from campaign_rules._core.construct import outcome, placed_copy
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.json_text import DEPTH, DUPLICATE, NUMBER, SURROGATE, place, scan_text
from campaign_rules._core.limits import BODY_MAX_DEPTH, VIOLATIONS_MAX
from campaign_rules._core.strict_json import BodyReading, read_body
from campaign_rules._core.violations import Violation
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import BODY_RULES, STORED_CAMPAIGN_RULES, UPDATE_RULES
from campaign_rules._rules.validation import create_result, update_result

__all__ = [
    "TextPlaces",
    "TokenPlace",
    "body_refusal",
    "create_json_result",
    "placed_violations",
    "update_json_result",
]

# The body rules placed where the text stops being what they require, rather than at a member.
_PLACED_AT_STOP: Final = frozenset({"body.has_no_byte_order_mark", "body.is_utf8", "body.is_json"})
# The body rules that report the problems the text walk found, each of one kind, in the text's
# order: each violation is placed at its own problem's token (D-positions).
_PLACED_AT_PROBLEM: Final = {
    "body.depth_within_limit": DEPTH,
    "body.member_names_unique": DUPLICATE,
    "body.strings_are_unicode": SURROGATE,
    "body.numbers_fit_a_double": NUMBER,
}
# Violations about what the server passes beside the patch, which has no place in its text.
_NOT_IN_PATCH: Final = frozenset(
    [rule.id for rule in STORED_CAMPAIGN_RULES if rule.key is ErrorKey.SERVER_ERROR]
    + [rule.id for rule in UPDATE_RULES if rule.key is ErrorKey.SERVER_ERROR]
)


def create_json_result(data: object, directory: Directory | None) -> CreateAccepted | CreateRefused:
    """`validate_create_json(data, directory=directory)`, for a `directory` already checked."""
    reading = read_body(data)
    if reading.refused:
        return outcome(CreateRefused, None, body_refusal(reading))
    result = create_result(reading.value, directory, from_text=True)
    if result.ok:
        return result
    return outcome(CreateRefused, None, placed_violations(result.violations, reading))


def update_json_result(
    existing: object, patch_data: object, status: object, directory: Directory | None
) -> UpdateAccepted | UpdateRefused:
    """`validate_update_json(existing, patch_data, ...)`, for a `directory` already checked."""
    reading = read_body(patch_data)
    if reading.refused:
        return outcome(UpdateRefused, None, body_refusal(reading))
    result = update_result(existing, reading.value, status, directory)
    if result.ok:
        return result
    violations = placed_violations(result.violations, reading, _NOT_IN_PATCH)
    return outcome(UpdateRefused, None, violations)


def body_refusal(reading: BodyReading) -> tuple[Violation, ...]:
    """The violations of the body rules, each placed, at most `VIOLATIONS_MAX` (D-hostile-input).

    What `validate_create_json` answers for a body the body rules refuse, and the audit for
    such a line (D-audit-bytes).

    The text walk stops at as many problems (`scan_text`), and the rules there too.
    """
    violations = run_rules(reading, BODY_RULES, VIOLATIONS_MAX)
    if not reading.problems:
        return placed_violations(violations, reading)
    offsets: dict[str, list[int]] = {}
    for problem in reading.problems:
        offsets.setdefault(problem.kind, []).append(problem.offset)
    placed: list[Violation] = []
    for made in violations:
        kind = _PLACED_AT_PROBLEM.get(made.rule)
        if kind is None:  # no such rule reports with problems; placed as any other would be
            placed.extend(placed_violations((made,), reading))
        else:
            placed.append(placed_copy(made, TokenPlace(reading, offsets[kind].pop(0))))
    return tuple(placed)


def placed_violations(
    violations: tuple[Violation, ...],
    reading: BodyReading,
    unplaced: frozenset[str] = frozenset(),
) -> tuple[Violation, ...]:
    """`violations`, each to find its line and column in the text read when first asked.

    A member's place is the start of its value; a member absent from the text is placed at the
    start of its nearest ancestor there (for an absent member, its object's opening brace). The
    violations of the rules in `unplaced`, and those of a text over the size limit or not
    text, keep `None`. Nothing is looked for here: a server that answers with the envelope
    never reads a place (D-positions).
    """
    if reading.not_text is not None or reading.too_large:
        return violations
    places = TextPlaces(reading, violations)
    return tuple(
        [
            violation if violation.rule in unplaced else placed_copy(violation, places)
            for violation in violations
        ]
    )


class TokenPlace:
    """The place of one violation at a token of a text, found when first asked (D-positions)."""

    __slots__ = ("_offset", "_reading")

    def __init__(self, reading: BodyReading, offset: int) -> None:
        self._reading = reading
        self._offset = offset

    def place(self, rule: str, pointer: str) -> tuple[int, int] | None:
        """The line and column of the token, whatever `rule` and `pointer`."""
        text = self._reading.full_text()
        return None if text is None else place(text, self._offset)


class TextPlaces:
    """The places of the violations of one text, found all at once when the first is asked.

    One walk of the text to the pointer of every violation reported (`scan_text`), then each
    is a look-up.
    """

    __slots__ = ("_reading", "_starts", "_violations")

    def __init__(self, reading: BodyReading, violations: tuple[Violation, ...]) -> None:
        self._reading = reading
        self._violations = violations
        self._starts: dict[str, int] | None = None

    def place(self, rule: str, pointer: str) -> tuple[int, int] | None:
        """The line and column of the violation of `rule` at `pointer`, or `None`."""
        if rule in _PLACED_AT_STOP:
            return self._reading.stop
        text = self._reading.full_text()
        if text is None:
            return None
        starts = self._starts
        if starts is None:
            wanted: set[str] = set()
            for violation in self._violations:
                wanted.update(_ancestors(violation.pointer))
            starts = self._starts = scan_text(text, frozenset(wanted), BODY_MAX_DEPTH).starts
        for ancestor in reversed(_ancestors(pointer)):
            offset = starts.get(ancestor)
            if offset is not None:
                return place(text, offset)
        return None


def _ancestors(pointer: str) -> list[str]:
    """`pointer` and the pointers of the values that hold it, the body's (`""`) first."""
    found = [""]
    end = pointer.find("/", 1)
    while end != -1:
        found.append(pointer[:end])
        end = pointer.find("/", end + 1)
    if pointer:
        found.append(pointer)
    return found
