"""The helpers the property suite shares, beside the public strategies it draws from.

Valid payloads, one-defect payloads and the JSON-like values they use live in
`campaign_rules.strategies` (one copy, used here and by services that embed the rules): its
public strategies, and the building blocks that `tests/strategies_support.py` imports from its
private modules. What is only for this suite stays here: deep and self-referencing values,
splicing a value into a payload, identity snapshots and the expected envelope.

The public strategies read their bounds and members from the library's tables. So that the
properties still check the library against an independent reading of the spec,
`test_strategies.py` checks those tables against numbers and names written out there, from the
spec and docs/decisions.md, and `ECMASCRIPT_WHITESPACE` below is written out from ECMA-262.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from campaign_rules._core.limits import WEEKDAYS
from campaign_rules.strategies import create_payloads
from tests.strategies_support import (
    CAMPAIGN_MEMBER_NAMES,
    CYCLES_MEMBER_NAMES,
    MEMBER_NAMES,
    WINDOW_MEMBER_NAMES,
    json_keys,
    json_like,
    json_scalars,
    non_string_keys,
)
from tests.support import STATUS

# D-blank-name: ECMAScript's `\s` is WhiteSpace (TAB, VT, FF, ZWNBSP, and every Zs character)
# plus LineTerminator (LF, CR, LS, PS). Written out from ECMA-262, not read from the library.
ECMASCRIPT_WHITESPACE = (
    "\t\v\f\ufeff"
    "\n\r\u2028\u2029"
    " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u202f\u205f\u3000"
)


@st.composite
def _non_string_key_dicts(draw: st.DrawFn) -> dict[Any, Any]:
    """A dict with at least one member name that is not a string, perhaps deep inside."""
    value = draw(
        st.dictionaries(
            st.one_of(json_keys, non_string_keys), st.one_of(json_scalars, json_like), max_size=3
        )
    )
    node = value
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(MEMBER_NAMES))
        child = node.get(name)
        node[name] = node = dict(child) if type(child) is dict else {}
    node[draw(non_string_keys)] = draw(json_scalars)
    return value


non_string_key_dicts = _non_string_key_dicts()


DEPTH = 10_000


def deep_dict(depth: int = DEPTH) -> dict[str, Any]:
    """`{"a": {"a": ... {} ...}}`, `depth` levels, built without recursion."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_list(depth: int = DEPTH) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def self_dict() -> dict[str, Any]:
    value: dict[str, Any] = {"enabled": True, "mode": "scheduled", "startTime": "09:00"}
    value["self"] = value
    value["schedule"] = value
    value["mon"] = value
    return value


def self_list() -> list[Any]:
    value: list[Any] = [1, "x"]
    value.append(value)
    return value


HOSTILE_BUILDERS: dict[str, Callable[[], Any]] = {
    "deep_dict": deep_dict,
    "deep_list": deep_list,
    "self_dict": self_dict,
    "self_list": self_list,
}


# ---------------------------------------------------------------------------------------------
# Splicing a value into a payload.

Path = tuple[str, ...]


def _schedule_paths(prefix: Path) -> list[Path]:
    paths = [prefix]
    for day in WEEKDAYS:
        paths.append((*prefix, day))
        paths += [(*prefix, day, member) for member in WINDOW_MEMBER_NAMES]
    paths.append((*prefix, "colour"))
    return paths


SPLICE_PATHS: tuple[Path, ...] = tuple(
    [(name,) for name in CAMPAIGN_MEMBER_NAMES if name not in ("scheduling", "cycles")]
    + [("colour",)]
    + _schedule_paths(("scheduling",))
    + [("cycles",)]
    + [("cycles", name) for name in CYCLES_MEMBER_NAMES if name != "schedule"]
    + [("cycles", "colour")]
    + _schedule_paths(("cycles", "schedule"))
)


def splice(target: dict[Any, Any], path: Path, value: Any) -> dict[Any, Any]:
    """Set `path` of `target` (in place) to `value`, making the objects on the way as needed.

    On the way to a cycles member, a block that is not an object becomes an enabled one, so that
    the member is read.
    """
    node = target
    for depth, name in enumerate(path[:-1]):
        child = node.get(name)
        # A copy of each object on the way, so that a value spliced earlier is never changed.
        if type(child) is dict:
            child = dict(child)
        else:
            child = {"enabled": True} if path[: depth + 1] == ("cycles",) else {}
        node[name] = child
        node = child
    node[path[-1]] = value
    return target


def splice_parent_into_itself(target: dict[Any, Any], path: Path) -> dict[Any, Any]:
    """Set `path` of `target` to the object that holds it: a value that contains itself."""
    splice(target, path, None)
    parent = target
    for name in path[:-1]:
        parent = parent[name]
    parent[path[-1]] = parent
    return target


@st.composite
def spliced_payloads(draw: st.DrawFn, values: st.SearchStrategy[Any] = json_like) -> Any:
    """A valid payload with one to three members, anywhere in it, set to `values`."""
    target = draw(create_payloads())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(SPLICE_PATHS))
        splice(target, path, draw(values))
    return target


hostile_payloads = st.one_of(
    json_like,
    spliced_payloads(),
    non_string_key_dicts,
    spliced_payloads(non_string_key_dicts),
)


def identity_snapshot(value: Any, skip: int | None = None) -> list[tuple[Any, ...]]:
    """The identity-level structure of `value`: each container reached, by `id`, with the ids
    of its keys and items. Cycles and any depth are fine; immutable leaves are compared by
    identity, which is enough to tell that nothing was changed in place. The container whose
    `id` is `skip` is not entered (unless it is `value` itself)."""
    seen: set[int] = set() if skip is None or skip == id(value) else {skip}
    out: list[tuple[Any, ...]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, dict):
            pairs = list(dict.items(item))
            out.append((id(item), type(item), tuple((id(k), id(v)) for k, v in pairs)))
            stack.extend(v for _, v in pairs)
        elif isinstance(item, list):
            items = list.copy(item)
            out.append((id(item), type(item), tuple(map(id, items))))
            stack.extend(items)
    return out


# api-contract: the primary violation is the first by status 400, 404, 409, 402; D-statuses:
# then any other status, lowest first.
_PRECEDENCE = (400, 404, 409, 402)


def expected_envelope(violations: tuple[Any, ...]) -> tuple[int, dict[str, Any]] | None:
    """The status and error body the api-contract asks for these violations."""

    def rank(violation: Any) -> tuple[int, int]:
        status = STATUS[violation.key.value]
        if status in _PRECEDENCE:
            return (_PRECEDENCE.index(status), 0)
        return (len(_PRECEDENCE), status)

    if not violations:
        return None
    primary = min(violations, key=rank)
    body = {"success": False, "error": primary.key.value, "message": primary.message}
    if primary.field is not None:
        body["field"] = primary.field
    return STATUS[primary.key.value], body


def is_subsequence(short: tuple[Any, ...], long: tuple[Any, ...]) -> bool:
    """Whether every item of `short` is in `long`, in the same relative order."""
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)
