"""The structural part of a diff: the two rule sets' rows compared, rule by rule.

A member is compared only when both versions give it: a member one version does not declare
(5d4e07d's rows have no constraints) is not a change. The wording (`summary`) is left out, as
oasdiff leaves it out of its change fingerprints: it says nothing a client branches on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from campaign_rules._diff.sides import Environment

__all__ = ["EnvironmentChange", "RowChange", "environment_change", "row_changes"]

# The members of a row compared, each under the name the report gives its change.
COMPARED = {
    "key": "key",
    "status": "status",
    "source": "clause",
    "stage": "stage",
    "scope": "scope",
    "when": "facts",
    "gates": "gate",
    "pointers": "pointers",
    "constraint": "constraint",
    "function": "function",
}


@attrs.frozen
class RowChange:
    """One change of one rule's row: added, removed, or one member, old -> new."""

    rule: str
    change: str  # added | removed | one of COMPARED's names
    old: object
    new: object


@attrs.frozen
class EnvironmentChange:
    """The tzdata versions and the zone names one side has and the other lacks."""

    old_tzdata: str | None
    new_tzdata: str | None
    zones_added: tuple[str, ...]
    zones_removed: tuple[str, ...]
    known: bool  # whether both sides could tell their zones

    @property
    def changed(self) -> bool:
        """Whether the environments differ."""
        return (
            self.old_tzdata != self.new_tzdata or bool(self.zones_added) or bool(self.zones_removed)
        )


def row_changes(
    old_rows: Sequence[Mapping[str, object]], new_rows: Sequence[Mapping[str, object]]
) -> list[RowChange]:
    """Every change of the rows: the new side's rules in order, then the rules it removed."""
    old = {str(row.get("id")): row for row in old_rows}
    new = {str(row.get("id")): row for row in new_rows}
    changes: list[RowChange] = []
    for rule, row in new.items():
        before = old.get(rule)
        if before is None:
            changes.append(RowChange(rule, "added", None, _declared(row)))
            continue
        for member, name in COMPARED.items():
            if member == "scope" and "when" in before and "when" in row:
                continue  # the name of its facts: a change of them is said once (`facts`)
            if member in before and member in row and before[member] != row[member]:
                changes.append(RowChange(rule, name, before[member], row[member]))
    for rule, row in old.items():
        if rule not in new:
            changes.append(RowChange(rule, "removed", _declared(row), None))
    return changes


def _declared(row: Mapping[str, object]) -> dict[str, object]:
    """What a row declares, without its wording."""
    return {member: row[member] for member in COMPARED if member in row}


def environment_change(old: Environment, new: Environment) -> EnvironmentChange:
    """What differs between the two sides' tzdata."""
    if old.zones is None or new.zones is None:
        return EnvironmentChange(old.tzdata, new.tzdata, (), (), known=False)
    return EnvironmentChange(
        old.tzdata,
        new.tzdata,
        tuple(sorted(new.zones - old.zones)),
        tuple(sorted(old.zones - new.zones)),
        known=True,
    )
