"""The identity of the rule set that judges: a version and a fingerprint of the rule table.

A verdict (an audit summary, its HTML report, the catalogue) carries `ruleset(version)`:
`{"version": <package version>, "fingerprint": <SHA-256>}`, so that last month's audit can be
told from today's when the rules changed (D-ruleset). The fingerprint is the SHA-256 of the
canonical JSON of what decides a verdict: each rule, in the order the runner runs them, with
its id, stage, error key, HTTP status, citation and summary, and every bound and table of
`_core.limits`. It changes when any of these does, and only then: not with a rule function's
body, a docstring or the order in which the limits are written.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import TypedDict

from campaign_rules._core import limits
from campaign_rules._export.catalogue import RuleInfo, catalogue

__all__ = ["Ruleset", "bounds", "fingerprint", "ruleset"]


class Ruleset(TypedDict):
    """The identity of a rule set: the package's version and the rule table's fingerprint."""

    version: str
    fingerprint: str


def bounds() -> dict[str, object]:
    """Every public bound and table of `_core.limits`, by name, as JSON data."""
    return {name: _canonical(getattr(limits, name)) for name in limits.__all__}


def fingerprint(
    rules: Iterable[RuleInfo] | None = None, limits_data: Mapping[str, object] | None = None
) -> str:
    """The SHA-256 (hex) of the canonical rule table: `rules` (the catalogue) and `limits_data`.

    Both default to this library's own: `catalogue()` and `bounds()`. The rules keep their
    order, which is the order they run in; the bounds are sorted by name.
    """
    table = catalogue() if rules is None else rules
    data = {
        "rules": [
            [info.id, info.stage, info.key.value, info.status, info.source, info.summary]
            for info in table
        ],
        "bounds": bounds() if limits_data is None else dict(limits_data),
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def ruleset(version: str) -> Ruleset:
    """The identity of this library's rule set, at the package's `version`."""
    return Ruleset(version=version, fingerprint=fingerprint())


def _canonical(value: object) -> object:
    """A limit as JSON data that is the same at every run: sets sorted, ranges as bounds."""
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, limits.Bounds):
        return {"low": value.low, "high": value.high}
    if isinstance(value, range):
        return {"start": value.start, "stop": value.stop, "step": value.step}
    if isinstance(value, Mapping):
        return sorted([str(_canonical(key)), _canonical(item)] for key, item in value.items())
    if isinstance(value, frozenset | set):
        return sorted((_canonical(item) for item in value), key=repr)
    if isinstance(value, tuple | list):
        return [_canonical(item) for item in value]
    # A limit of another kind: its representation, which names its value.
    return repr(value)
