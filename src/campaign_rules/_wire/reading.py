"""One walk of a response body against its documented shape, shared by the response rules.

The walk goes only where the shape goes: into the documented members of each object and the
items of each documented array, never into a member the spec does not list, nor into an
opaque map. So however deep or wide a body is, the walk is as deep as the shape (at most six
levels) and reads each documented value once.
"""

from __future__ import annotations

import attrs

from campaign_rules._core.json import (
    array_length,
    is_object,
    item_path,
    json_type,
    member_path,
    read_list,
    read_object,
)
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS, RESPONSE_ARRAY_MAX_ITEMS
from campaign_rules._wire.shapes import Member, Shape

__all__ = ["Node", "ResponseReading"]


@attrs.frozen
class Node:
    """A documented member or array item that is present: its path, its value as given, its spec."""

    path: str
    value: object
    member: Member


class ResponseReading:
    """A response body as the response rules see it.

    `nodes`: every documented member present and every item of a documented array, in document
    order. `missing`: the paths of required members that are absent. `oversized`: the paths of
    objects and arrays too large to read, with the cap they pass (D-response-caps); what is
    inside them is not walked. `shape` is `None` for an error body that fits no error shape;
    `status` is the HTTP status an error body came with.
    """

    def __init__(self, body: object, shape: Shape | None, *, status: object = None) -> None:
        self.body = body
        self.shape = shape
        self.status = status
        self.nodes: list[Node] = []
        self.missing: list[str] = []
        self.oversized: list[tuple[str | None, str]] = []
        if shape is not None and is_object(body):
            self._walk_object(None, body, shape)

    def _walk_object(self, path: str | None, raw: object, shape: Shape) -> None:
        members = read_object(raw)
        if members is None:
            self.oversized.append((path, f"has more than {OBJECT_MAX_MEMBERS} members"))
            return
        for name, member in shape.items():
            child = member_path(path, name)
            if name not in members:
                if member.required:
                    self.missing.append(child)
                continue
            self._visit(Node(child, members[name], member))

    def _visit(self, node: Node) -> None:
        self.nodes.append(node)
        member, kind = node.member, json_type(node.value)
        if kind == "object" and member.members is not None:
            self._walk_object(node.path, node.value, member.members)
        elif kind == "array" and member.items is not None:
            length = array_length(node.value) or 0
            if length > RESPONSE_ARRAY_MAX_ITEMS:
                self.oversized.append(
                    (node.path, f"has more than {RESPONSE_ARRAY_MAX_ITEMS} items")
                )
                return
            for index, item in enumerate(read_list(node.value) or ()):
                self._visit(Node(item_path(node.path, index), item, member.items))
