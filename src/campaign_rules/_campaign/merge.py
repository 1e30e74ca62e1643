"""JSON Merge Patch (RFC 7396) of the campaign creation fields, without deep recursion.

RFC 7396 descends into every object of a patch. This merge descends only where the creation
input has objects (the schedules, their windows, the cycles block), at most three levels, and
takes any other patch value as it is: a hostile patch, however deep or self-referencing, costs
no more than a flat one. The rules cannot tell the difference, because RFC 7396 would only
remove `null` members from inside a value that the rules refuse whole anyway (an object where a
string belongs, or an unknown member). Neither input is changed; the result is new.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from campaign_rules._core.json import is_object, is_oversized_object, read_object
from campaign_rules._core.limits import WEEKDAYS

__all__ = ["merge_patch"]

# Where the creation input has objects: each name maps to the objects inside it.
_Tree = dict[str, "_Tree"]
_SCHEDULE: Final[_Tree] = {day: {} for day in WEEKDAYS}
_CAMPAIGN: Final[_Tree] = {"scheduling": _SCHEDULE, "cycles": {"schedule": _SCHEDULE}}


def merge_patch(target: Mapping[str, object], patch: object) -> dict[object, object]:
    """The campaign wire JSON `target` with the merge patch object `patch` applied.

    A `patch` that is not an object (which RFC 7396 would put in the campaign's place) is the
    caller's to refuse; here it changes nothing.
    """
    return _merge_object(target, patch if is_object(patch) else {}, _CAMPAIGN)


def _merge(target: object, patch: object, tree: _Tree) -> object:
    if not is_object(patch) or is_oversized_object(patch):
        return patch  # RFC 7396: a patch that is not an object replaces the target
    return _merge_object(target, patch, tree)


def _merge_object(target: object, patch: object, tree: _Tree) -> dict[object, object]:
    result: dict[object, object] = {}
    result.update((read_object(target) or {}).items())
    items: Iterable[tuple[object, object]] = dict.items(patch)  # type: ignore[arg-type]
    for raw_name, value in items:
        if not issubclass(type(raw_name), str):
            # Kept under a stand-in name, so that the creation rules report it where it is,
            # without hashing the caller's object again.
            result[object()] = value
            continue
        name = str.__str__(raw_name)
        if value is None:
            result.pop(name, None)
        elif name in tree:
            result[name] = _merge(result.get(name), value, tree[name])
        else:
            result[name] = value
    return result
