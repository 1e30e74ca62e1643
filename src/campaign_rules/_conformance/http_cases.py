"""The kit's HTTP cases: sequences of requests for a live server (`conformance run --http`).

A placeholder: the HTTP cases are written by their own change; until then the kit holds none.
"""

from __future__ import annotations

from typing import Any

from campaign_rules._conformance.schemas import schema_document

__all__ = ["schema", "sequences"]


def sequences() -> list[dict[str, Any]]:
    """The HTTP sequences of the kit, each one line of `cases/http.jsonl` (none yet)."""
    return []


def schema() -> dict[str, Any]:
    """The JSON Schema of one sequence (any object, until the HTTP cases are written)."""
    return schema_document("http-sequence", "An HTTP sequence of the kit", {"type": "object"})
