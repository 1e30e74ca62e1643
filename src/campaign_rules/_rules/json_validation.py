"""The two validations from the request body as received: read as I-JSON, then judged.

`validate_create_json` and `validate_update_json` (`campaign_rules._validate`) call these. A
body the body rules refuse is judged no further; any other is judged by exactly what judges
its decoded value, so the verdict on an I-JSON text is that of `validate_create` on
`json.loads` of it. Positions are found only for a refused body: a valid one
pays for the reading alone.
"""

from __future__ import annotations

from typing import Final

import attrs

from campaign_rules._campaign.directory import Directory
from campaign_rules._campaign.results import (
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
from campaign_rules._core.construct import outcome
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.json_text import place, scan_text
from campaign_rules._core.limits import BODY_MAX_DEPTH
from campaign_rules._core.strict_json import BodyReading, read_body
from campaign_rules._core.violations import Violation
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import BODY_RULES, STORED_CAMPAIGN_RULES, UPDATE_RULES
from campaign_rules._rules.validation import create_result, update_result

__all__ = ["create_json_result", "placed_violations", "update_json_result"]

# The body rules placed where the text stops being what they require, rather than at a member.
_PLACED_AT_STOP: Final = frozenset({"body.has_no_byte_order_mark", "body.is_utf8", "body.is_json"})
# Violations about what the server passes beside the patch, which has no place in its text.
_NOT_IN_PATCH: Final = frozenset(
    [rule.id for rule in STORED_CAMPAIGN_RULES if rule.key is ErrorKey.SERVER_ERROR]
    + [rule.id for rule in UPDATE_RULES if rule.key is ErrorKey.SERVER_ERROR]
)


def create_json_result(data: object, directory: Directory | None) -> CreateAccepted | CreateRefused:
    """`validate_create_json(data, directory=directory)`, for a `directory` already checked."""
    reading = read_body(data)
    if reading.refused:
        return outcome(CreateRefused, None, _refusal(reading))
    result = create_result(reading.value, directory)
    if result.ok:
        return result
    return outcome(CreateRefused, None, placed_violations(result.violations, reading))


def update_json_result(
    existing: object, patch_data: object, status: object, directory: Directory | None
) -> UpdateAccepted | UpdateRefused:
    """`validate_update_json(existing, patch_data, ...)`, for a `directory` already checked."""
    reading = read_body(patch_data)
    if reading.refused:
        return outcome(UpdateRefused, None, _refusal(reading))
    result = update_result(existing, reading.value, status, directory)
    if result.ok:
        return result
    violations = placed_violations(result.violations, reading, _NOT_IN_PATCH)
    return outcome(UpdateRefused, None, violations)


def _refusal(reading: BodyReading) -> tuple[Violation, ...]:
    return placed_violations(run_rules(reading, BODY_RULES), reading)


def placed_violations(
    violations: tuple[Violation, ...],
    reading: BodyReading,
    unplaced: frozenset[str] = frozenset(),
) -> tuple[Violation, ...]:
    """`violations`, each with the line and column of its member in the text read.

    A member's place is the start of its value; a member absent from the text is placed at the
    start of its nearest ancestor there (for an absent member, its object's opening brace). The
    violations of the rules in `unplaced`, and those of a text over the size limit or not
    text, keep `None`.
    """
    stop = reading.stop
    text = None if reading.too_large else reading.full_text()
    wanted: set[str] = set()
    for violation in violations:
        if violation.rule not in unplaced and violation.rule not in _PLACED_AT_STOP:
            wanted.update(_ancestors(violation.pointer))
    starts = scan_text(text, frozenset(wanted), BODY_MAX_DEPTH).starts if text and wanted else {}
    placed: list[Violation] = []
    for violation in violations:
        where: tuple[int, int] | None = None
        if violation.rule in _PLACED_AT_STOP:
            where = stop
        elif text is not None and violation.rule not in unplaced:
            for pointer in reversed(_ancestors(violation.pointer)):
                offset = starts.get(pointer)
                if offset is not None:
                    where = place(text, offset)
                    break
        if where is None:
            placed.append(violation)
        else:
            placed.append(attrs.evolve(violation, line=where[0], column=where[1]))
    return tuple(placed)


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
