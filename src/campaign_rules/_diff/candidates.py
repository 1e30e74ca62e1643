"""The bodies a diff tries: each a request of the executor protocol, with where it came from.

Most change one member of a valid body (a shipped example) to a value at one side of a bound
that either version declares, in its rows (`rules --json`) or its schema, so that a body that
the two versions judge differently carries one difference (D-diff); the values tried are
`edges.bound_values`. Then the bodies drawn from the public Hypothesis strategies (`drawn`),
a kit's requests (`kit`) and a replay's lines (`replay`), as the caller gives them.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources

import attrs

from campaign_rules._diff.edges import bound_values

__all__ = [
    "Candidate",
    "base_bodies",
    "candidates",
    "examples_of",
    "text_body",
    "value_at",
]

# How many bodies each Hypothesis strategy gives.
HYPOTHESIS_DRAWS = 25

_CREATION_EXAMPLES = ("phone_call", "scheduled_cycles", "whatsapp")
_RESPONSE_EXAMPLES = {
    "create_response": ("create_response", None),
    "contact_response": ("contact_response", None),
    "thread": ("thread", None),
    "api_error": ("error", 400),
    "credentials_error": ("error", 401),
}


@attrs.frozen
class Candidate:
    """One body to judge: its request, where it came from, and the one member it changes."""

    origin: str  # "example phone_call", "maximum 5 at /retries", "hypothesis", "replay line 3"
    member: str | None  # the JSON Pointer of the member changed from a valid body; None: none
    request: dict[str, object]


def examples_of(folder: str, name: str) -> object:
    """A body the package ships as an example (`_export/examples`)."""
    text = (
        resources.files("campaign_rules._export")
        .joinpath("examples", folder, f"{name}.json")
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


def base_bodies() -> dict[str, dict[str, object]]:
    """The valid creation bodies every change starts from, by name."""
    bodies: dict[str, dict[str, object]] = {}
    for name in _CREATION_EXAMPLES:
        body = examples_of("", name)
        assert isinstance(body, dict)  # the package's own examples are objects
        bodies[name] = body
    return bodies


def candidates(
    bounds: Sequence[Mapping[str, Mapping[str, list[object]]]],
    zones: Sequence[frozenset[str] | None],
    replay: Sequence[Candidate] = (),
    drawn: Sequence[Candidate] = (),
) -> list[Candidate]:
    """Every body a diff tries, each request once (the first origin kept), in a fixed order."""
    merged = _merged(bounds)
    bases = base_bodies()
    found: list[Candidate] = []
    for name, base in bases.items():
        found.append(Candidate(f"example {name}", None, _create(base)))
        for member, value, why in _member_changes(base, merged, zones):
            changed = _with(base, member, value)
            if changed is not None:
                found.append(Candidate(f"{why} at {member} of {name}", member, _create(changed)))
        found.extend(_only_item_changes(name, base, bases, merged, zones))
        found.extend(_long_integer_changes(name, base))
        found.extend(_directory_changes(name, base))
        found.extend(_update_changes(name, base, merged, zones))
    found.extend(_response_changes())
    found.extend(drawn)
    found.extend(replay)
    return _unique(found)


def _unique(found: list[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    kept: list[Candidate] = []
    for candidate in found:
        key = json.dumps(candidate.request, sort_keys=True, ensure_ascii=False)
        if key not in seen:
            seen.add(key)
            kept.append(candidate)
    return kept


def _create(body: object, directory: object = None) -> dict[str, object]:
    return {"kind": "create", "body": _text(body), "directory": directory}


def text_body(value: object) -> dict[str, object]:
    r"""A JSON value as the protocol's body: its text, with a lone surrogate written escaped.

    The protocol's `text` is UTF-8 text, which holds no lone surrogate: one is written `\uDXXX`,
    a JSON text that means the same value.
    """
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value)
    return {"text": text}


_text = text_body


def value_at(body: object, member: str) -> tuple[bool, object]:
    """Whether a request's body (`{"text"}`) holds `member`, and its value there."""
    text = body.get("text") if isinstance(body, Mapping) else None
    if not isinstance(text, str):
        return False, None
    try:
        value: object = json.loads(text, parse_int=_integer)
    except ValueError:
        return False, None
    for part in member.split("/")[1:]:
        name = part.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and name in value:
            value = value[name]
        elif isinstance(value, list) and name.isdigit() and int(name) < len(value):
            value = value[int(name)]
        else:
            return False, None
    return True, value


def _integer(digits: str) -> object:
    """An integer of a text, or its digits when Python converts no integer that long."""
    if len(digits.lstrip("-")) > sys.get_int_max_str_digits():
        return digits
    return int(digits)


# Bounds ---------------------------------------------------------------------------------------


def _merged(
    bounds: Sequence[Mapping[str, Mapping[str, list[object]]]],
) -> dict[str, dict[str, list[object]]]:
    """Both sides' bounds by member pattern and keyword, each value once."""
    merged: dict[str, dict[str, list[object]]] = {}
    for side in bounds:
        for pattern, keywords in side.items():
            into = merged.setdefault(pattern, {})
            for keyword, values in keywords.items():
                listed = into.setdefault(keyword, [])
                for value in values:
                    if value not in listed:
                        listed.append(value)
    return merged


def _member_changes(
    base: Mapping[str, object],
    merged: Mapping[str, Mapping[str, list[object]]],
    zones: Sequence[frozenset[str] | None],
) -> Iterator[tuple[str, object, str]]:
    """Each one-member change of `base`: a bound's values, a member left out or made null."""
    for pattern, keywords in merged.items():
        for member in _instances(base, pattern):
            for keyword, values in keywords.items():
                if keyword == "required":
                    continue
                for value, why in bound_values(keyword, values, zones):
                    yield member, value, why
                if keyword in _UNIQUE_KEYWORDS:
                    for value, why in _repeated_item(base, member, keyword):
                        yield member, value, why
    for member in _members(base):
        yield member, _LEFT_OUT, "left out"
        yield member, None, "null"


_UNIQUE_KEYWORDS = frozenset({"uniqueItems", "itemsUnique"})


def _repeated_item(base: object, member: str, keyword: str) -> Iterator[tuple[object, str]]:
    """The list at `member` of `base` with its first item twice: a repeat of a valid item.

    `edges` repeats a made-up item, which other rules of the member may refuse too; a valid
    item repeated breaks the one rule alone, so a change of its key or status shows (D-diff).
    """
    held, value = value_at(_text(base), member)
    if held and isinstance(value, list) and value:
        yield [value[0], value[0]], f"{keyword}: its first item repeated"


def _only_item_changes(
    name: str,
    base: Mapping[str, object],
    bases: Mapping[str, Mapping[str, object]],
    merged: Mapping[str, Mapping[str, list[object]]],
    zones: Sequence[frozenset[str] | None],
) -> Iterator[Candidate]:
    """Each enumerated item value as the only item of its list in `base`, in each list's block.

    The block comes from each example that has the list. An enumeration that depends on
    another member (each channel's contact statuses) is reached only by a body of that channel
    holding the list: the example of each channel, given such a block (D-diff).
    """
    for pattern, keywords in merged.items():
        if not pattern.endswith("/*") or "*" in pattern[:-2] or "enum" not in keywords:
            continue
        array = pattern[:-2]
        top = array.split("/")[1]
        values = [value for value, _ in bound_values("enum", keywords["enum"], zones)]
        for donor_name, donor in bases.items():
            held, listed = value_at(_text(donor), array)
            if not held or not isinstance(listed, list) or top not in donor:
                continue
            grafted = {**base, top: copy.deepcopy(donor[top])}
            block = "" if donor_name == name else f" with the {top} of {donor_name}"
            for value in values:
                changed = _with(grafted, array, [value])
                if changed is not None:
                    why = f"enum value {value!r} as the only item at {array} of {name}{block}"
                    yield Candidate(why, array, _create(changed))


def _long_integer_changes(name: str, base: Mapping[str, object]) -> Iterator[Candidate]:
    """`base` with its first integer member one digit longer than Python converts to `int`.

    The library reads such a text by its own limit (`sys.get_int_max_str_digits`); the text is
    written by hand since `json.dumps` itself refuses so long an integer.
    """
    for member, value in base.items():
        if isinstance(value, int) and not isinstance(value, bool):
            marker = "\u0000long integer"
            digits = "1" + "0" * sys.get_int_max_str_digits()
            text = json.dumps({**base, member: marker}, ensure_ascii=False)
            text = text.replace(json.dumps(marker), digits, 1)
            origin = f"an integer of {len(digits):,} digits at /{member} of {name}"
            yield Candidate(
                origin, f"/{_escaped(member)}", {**_create(None), "body": {"text": text}}
            )
            return


def _members(value: object, pointer: str = "", depth: int = 0) -> Iterator[str]:
    """The pointer of each member of a body's objects, to three levels."""
    if not isinstance(value, dict) or depth >= 3:
        return
    for name, item in value.items():
        child = f"{pointer}/{_escaped(name)}"
        yield child
        yield from _members(item, child, depth + 1)


def _escaped(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _instances(base: object, pattern: str) -> Iterator[str]:
    """The members of `base` a pattern (`*` for any name or index) names; the last may be new."""
    parts = pattern.split("/")[1:]
    if not parts:
        return

    def walk(value: object, at: int, pointer: str) -> Iterator[str]:
        part = parts[at]
        last = at == len(parts) - 1
        names: list[str]
        if isinstance(value, dict):
            names = list(value) if part == "*" else [part.replace("~1", "/").replace("~0", "~")]
        elif isinstance(value, list):
            names = [str(index) for index in range(len(value))] if part == "*" else [part]
        else:
            return
        for name in names:
            child = f"{pointer}/{_escaped(name)}"
            if last:
                yield child
            elif isinstance(value, dict) and name in value:
                yield from walk(value[name], at + 1, child)
            elif isinstance(value, list) and name.isdigit() and int(name) < len(value):
                yield from walk(value[int(name)], at + 1, child)

    yield from walk(base, 0, "")


class _LeftOut:
    """The marker of a member removed, not given a value."""


_LEFT_OUT = _LeftOut()


def _with(base: object, member: str, value: object) -> object | None:
    """A copy of `base` with `member` set to `value` (or left out); None when it has no place."""
    changed = copy.deepcopy(base)
    parts = [part.replace("~1", "/").replace("~0", "~") for part in member.split("/")[1:]]
    holder = changed
    for part in parts[:-1]:
        if isinstance(holder, dict) and part in holder:
            holder = holder[part]
        elif isinstance(holder, list) and part.isdigit() and int(part) < len(holder):
            holder = holder[int(part)]
        else:
            return None
    last = parts[-1]
    if isinstance(holder, dict):
        if isinstance(value, _LeftOut):
            if last not in holder:
                return None
            del holder[last]
        else:
            holder[last] = copy.deepcopy(value)
        return changed
    if isinstance(holder, list) and last.isdigit() and int(last) < len(holder):
        if isinstance(value, _LeftOut):
            del holder[int(last)]
        else:
            holder[int(last)] = copy.deepcopy(value)
        return changed
    return None


# Look-ups, updates, responses -------------------------------------------------------------------


def _directory_of(base: Mapping[str, object]) -> dict[str, object]:
    """The records that know everything `base` names."""
    cycles = base.get("cycles")
    tags = cycles.get("filter_tags", []) if isinstance(cycles, dict) else []
    return {
        "agents": [
            {
                "id": base.get("agent_id"),
                "integrations": {str(base.get("integration_id")): base.get("integration_type")},
            }
        ],
        "tags": list(tags) if isinstance(tags, list) else [],
        "billing_limit_reached": False,
    }


def _directory_changes(name: str, base: Mapping[str, object]) -> Iterator[Candidate]:
    """`base` judged with records that know it, then with one record changed."""
    known = _directory_of(base)
    yield Candidate(f"example {name} with its records", None, _create(base, known))
    other = "whatsapp" if base.get("integration_type") == "phone_call" else "phone_call"
    agent = known["agents"][0]  # type: ignore[index]
    changes: dict[str, dict[str, object]] = {
        "agent unknown": {**known, "agents": []},
        "integration unknown": {**known, "agents": [{**agent, "integrations": {}}]},
        "integration of the other type": {
            **known,
            "agents": [{**agent, "integrations": {str(base.get("integration_id")): other}}],
        },
        "tags unknown": {**known, "tags": []},
        "billing limit reached": {**known, "billing_limit_reached": True},
    }
    for why, records in changes.items():
        yield Candidate(f"records of {name}: {why}", None, _create(base, records))


_STATUSES = ("pending", "running", "paused", "completed", "cancelled", "unknown_status")


def _update_changes(
    name: str,
    base: Mapping[str, object],
    merged: Mapping[str, Mapping[str, list[object]]],
    zones: Sequence[frozenset[str] | None],
) -> Iterator[Candidate]:
    """Patches on `base` stored: each top-level bound's values, owner fields, each status."""

    def update(why: str, member: str | None, patch: object, status: str | None = None) -> Candidate:
        request: dict[str, object] = {"kind": "update", "body": _text(patch), "directory": None}
        request |= {"existing": dict(base), "status": status}
        return Candidate(f"update of {name}: {why}", member, request)

    yield update("an empty patch", None, {})
    yield update("a patch that is not an object", None, [])
    for status in _STATUSES:
        yield update(f"status {status}", None, {"name": "Renamed"}, status)
    for member, value in (
        ("agent_id", "5a1e9c3b-7d2f-4b8a-a6e0-3c9f1d7b5e24"),
        ("integration_id", "another"),
        ("integration_type", "whatsapp"),
        ("cycles", {"enabled": False}),
        ("cycles", {"mode": "scheduled"}),
        ("cycles", {"max_iterations": 5}),
    ):
        yield update(f"{member} changed", f"/{member}", {member: value})
    for pattern, keywords in merged.items():
        if pattern.count("/") != 1 or "*" in pattern:
            continue
        for keyword, values in keywords.items():
            for bound, why in bound_values(keyword, values, zones):
                yield update(why, pattern, {pattern[1:]: bound})
    yield Candidate(
        f"update of {name}: a stored campaign that is not one",
        None,
        {"kind": "update", "body": _text({}), "directory": None, "existing": [], "status": None},
    )


def _response_changes() -> Iterator[Candidate]:
    """Each shipped response example, then each with one member left out or made null."""
    for example, (reader, http_status) in _RESPONSE_EXAMPLES.items():
        body = examples_of("responses", example)
        yield Candidate(f"response {example}", None, _response(body, reader, http_status))
        if reader == "error":
            for status in (200, 404, 409, 500, 503):
                yield Candidate(
                    f"response {example} with status {status}",
                    None,
                    _response(body, reader, status),
                )
        for member in _members(body):
            for value, why in ((_LEFT_OUT, "left out"), (None, "null"), ("", "empty")):
                changed = _with(body, member, value)
                if changed is not None:
                    yield Candidate(
                        f"response {example}: {member} {why}",
                        member,
                        _response(changed, reader, http_status),
                    )


def _response(body: object, reader: str, http_status: int | None) -> dict[str, object]:
    request: dict[str, object] = {"kind": "response", "body": _text(body), "reader": reader}
    return request | {"http_status": http_status}
