"""The identity of the rule set that judges: a version and a fingerprint of what decides.

A verdict (an audit summary, its HTML report, the catalogue) carries `ruleset(version)`:
`{"version": <package version>, "fingerprint": <SHA-256>}`, so that last month's audit can be
told from today's when the rules changed (D-ruleset). The fingerprint is the SHA-256 of the
canonical JSON of everything a verdict depends on: each rule, in the order the runner runs
them, with every field of its catalogue row; every bound and table of `_core.limits`; the code
of every module that decides a verdict (`_export.rule_code`: the rule functions, what they
call and what builds what they read, in a normal form without docstrings or comments); and
the time zone names `timezone` accepts, as the installed tzdata package lists them. It changes
when any of these does, and only then: not with a docstring, a comment, a reformatting or the
order in which the limits are written.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import TypedDict, cast

import attrs
from attrs import AttrsInstance

from campaign_rules._core import limits
from campaign_rules._core.timezones import timezone_names
from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.rule_code import code_digests

__all__ = ["Ruleset", "bounds", "fingerprint", "ruleset"]


class Ruleset(TypedDict):
    """The identity of a rule set: the package's version and the rule table's fingerprint."""

    version: str
    fingerprint: str


def bounds() -> dict[str, object]:
    """Every public bound and table of `_core.limits`, by name, as JSON data."""
    return {name: _canonical(getattr(limits, name)) for name in limits.__all__}


def fingerprint(
    rules: Iterable[RuleInfo] | None = None,
    limits_data: Mapping[str, object] | None = None,
    code: Mapping[str, str] | None = None,
    zone_names: Iterable[str] | None = None,
) -> str:
    """The SHA-256 (hex) of the canonical JSON of what decides a verdict.

    `rules` (the catalogue), `limits_data` (the bounds), `code` (each deciding module's digest)
    and `zone_names` (the names `timezone` accepts) default to this library's own:
    `catalogue()`, `bounds()`, `_export.rule_code.code_digests()` and the installed tzdata
    package's names. The rules keep their order, which is the order they run in; the rest is
    sorted.
    """
    table = catalogue() if rules is None else rules
    data = {
        "rules": [_canonical(info) for info in table],
        "bounds": bounds() if limits_data is None else dict(limits_data),
        "code": dict(code_digests() if code is None else code),
        "zone_names": sorted(timezone_names() if zone_names is None else zone_names),
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def ruleset(version: str) -> Ruleset:
    """The identity of this library's rule set, at the package's `version`."""
    return Ruleset(version=version, fingerprint=_own_fingerprint())


@functools.cache
def _own_fingerprint() -> str:
    # Once a process: the rules, the bounds, the code and the zone names do not change in one.
    return fingerprint()


def _canonical(value: object) -> object:
    """A limit or a row as JSON data the same at every run: sets sorted, ranges as bounds."""
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, limits.Bounds):
        return {"low": value.low, "high": value.high}
    if attrs.has(type(value)):  # a catalogue row, or a value of one: every field, by name
        names = [field.name for field in attrs.fields(cast("type[AttrsInstance]", type(value)))]
        return {name: _canonical(getattr(value, name)) for name in names}
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
