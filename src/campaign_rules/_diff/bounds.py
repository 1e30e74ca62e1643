"""A side's declared bounds, by member: from its rows' constraints and from its JSON Schema.

Both are read, since a version may declare a bound in one and not the other (5d4e07d has no
row constraints; a row keyword such as `hhMm` has no JSON Schema keyword). A member is a JSON
Pointer pattern, `*` standing for any name or index.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

__all__ = ["Bounds", "declared_bounds"]

# Pattern -> keyword -> the values that keyword takes there (of every row and schema node).
Bounds = dict[str, dict[str, list[object]]]

# The JSON Schema keywords a member's candidate values are drawn from.
_SCHEMA_KEYWORDS = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "enum",
    "const",
    "uniqueItems",
    "type",
)
# How deep a schema is followed (its `$ref`s included): past the deepest member of a body.
_DEPTH = 12


def declared_bounds(
    rows: Sequence[Mapping[str, object]], schema: Mapping[str, object] | None
) -> Bounds:
    """Every bound a side declares, by member pattern."""
    found: Bounds = {}
    for row in rows:
        pointers = row.get("pointers")
        constraint = row.get("constraint")
        if isinstance(pointers, list) and isinstance(constraint, Mapping):
            for pointer in pointers:
                for keyword, value in constraint.items():
                    _add(found, str(pointer), str(keyword), value)
    if schema is not None:
        for pointer, keyword, value in _schema_bounds(schema, schema, "", 0):
            _add(found, pointer, keyword, value)
    return found


def _add(found: Bounds, pointer: str, keyword: str, value: object) -> None:
    listed = found.setdefault(pointer, {}).setdefault(keyword, [])
    if value not in listed:
        listed.append(value)


def _schema_bounds(
    root: Mapping[str, object], node: object, pointer: str, depth: int
) -> Iterator[tuple[str, str, object]]:
    """Each (member, keyword, value) a schema node and the nodes under it say."""
    if not isinstance(node, Mapping) or depth > _DEPTH:
        return
    if pointer:
        for keyword in _SCHEMA_KEYWORDS:
            if keyword in node:
                yield pointer, keyword, node[keyword]
    required = node.get("required")
    if isinstance(required, list):
        for name in required:
            yield f"{pointer}/{name}", "required", True
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/"):
        yield from _schema_bounds(root, _resolved(root, reference), pointer, depth + 1)
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        for name, child in properties.items():
            escaped = str(name).replace("~", "~0").replace("/", "~1")
            yield from _schema_bounds(root, child, f"{pointer}/{escaped}", depth + 1)
    items = node.get("items")
    if isinstance(items, Mapping):
        yield from _schema_bounds(root, items, f"{pointer}/*", depth + 1)
    branches = [node.get("then"), node.get("else")]
    all_of = node.get("allOf")
    if isinstance(all_of, list):
        branches.extend(all_of)
    for branch in branches:
        yield from _schema_bounds(root, branch, pointer, depth + 1)


def _resolved(root: Mapping[str, object], reference: str) -> object:
    node: object = root
    for part in reference[2:].split("/"):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part.replace("~1", "/").replace("~0", "~"))
    return node
