"""One diff, start to end: both sides opened, compared structurally and semantically, closed."""

from __future__ import annotations

from collections.abc import Sequence

from campaign_rules._diff.bounds import declared_bounds
from campaign_rules._diff.candidates import Candidate, candidates
from campaign_rules._diff.drawn import drawn_bodies
from campaign_rules._diff.environment import with_schema_zones
from campaign_rules._diff.inprocess import InProcessSide
from campaign_rules._diff.kit import packaged_kit_candidates
from campaign_rules._diff.opening import open_old
from campaign_rules._diff.report import document
from campaign_rules._diff.semantics import findings, judge_both
from campaign_rules._diff.sides import Side
from campaign_rules._diff.structure import environment_change, row_changes

__all__ = ["compare", "compare_sides"]


def compare(old_command: str, replay: Sequence[Candidate] = ()) -> dict[str, object]:
    """The report of the installed version against the one `old_command` runs.

    Raises `CannotCompare` when OLD cannot be driven. The OLD process is ended before it returns.
    """
    old = open_old(old_command)
    try:
        return compare_sides(old, InProcessSide(), replay, old_command=old_command)
    finally:
        old.close()


def compare_sides(
    old: Side, new: Side, replay: Sequence[Candidate] = (), *, old_command: str | None = None
) -> dict[str, object]:
    """The report of `new` against `old` (the JSON document of `schema/diff.schema.json`)."""
    old_rows, new_rows = old.rules(), new.rules()
    old_schema, new_schema = old.bounds(), new.bounds()
    old_environment = with_schema_zones(old.environment(), old_schema)
    new_environment = with_schema_zones(new.environment(), new_schema)
    environment = environment_change(old_environment, new_environment)
    bounds = [declared_bounds(old_rows, old_schema), declared_bounds(new_rows, new_schema)]
    tried = candidates(
        bounds,
        [old_environment.zones, new_environment.zones],
        replay=[*packaged_kit_candidates(), *replay],
        drawn=drawn_bodies(),
    )
    judged = judge_both(old, new, tried)
    rows = {str(row.get("id")): row for row in old_rows}
    rows |= {str(row.get("id")): row for row in new_rows}
    order = [str(row.get("id")) for row in new_rows]
    order += [str(row.get("id")) for row in old_rows if str(row.get("id")) not in set(order)]
    zones = frozenset(environment.zones_added + environment.zones_removed)
    found = findings(judged, rows, old, new, zones)
    return document(
        {
            "old": (old_command, old.describe(), old_environment, len(old_rows)),
            "new": (None, new.describe(), new_environment, len(new_rows)),
        },
        environment,
        row_changes(old_rows, new_rows),
        found,
        order,
        len(tried),
    )
