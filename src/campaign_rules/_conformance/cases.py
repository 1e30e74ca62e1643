"""The kit's cases: the requests the package ships, each with this library's exact answer.

The requests are package data (`cases.json`, written from `tests/cases/` by
`scripts/regenerate.py`, D-conformance-data); the answers are not stored but made here, by the
executor that `conformance serve` runs, so that they are always this library's.
"""

from __future__ import annotations

import json
import pkgutil
from typing import Any

from campaign_rules._conformance.executor import answer

__all__ = ["kit_cases", "source_cases"]


def source_cases() -> list[dict[str, Any]]:
    """The requests of the package's `cases.json`, each with its rule and title."""
    data = pkgutil.get_data(__package__ or "", "cases.json")
    if data is None:
        raise FileNotFoundError("campaign_rules/_conformance/cases.json is not installed")
    cases: list[dict[str, Any]] = json.loads(data)["cases"]
    for case in cases:
        case["request"]["body"] = _unpacked(case["request"]["body"])
    return cases


def _unpacked(body: dict[str, Any]) -> dict[str, Any]:
    """A stored body as the protocol writes it: a packed text made whole again.

    The size rule's long bodies are stored as their run of one character (scripts/kit_cases.py).
    """
    packed = body.get("packed")
    if packed is None:
        return body
    return {"text": packed["head"] + packed["repeat"] * packed["count"] + packed["tail"]}


def kit_cases() -> list[dict[str, Any]]:
    """Every case of the kit, in the package's order: id, rule, title, request and answer."""
    return [
        {
            "id": case["request"]["id"],
            "rule": case["rule"],
            "title": case["title"],
            "request": case["request"],
            "answer": answer(case["request"]),
        }
        for case in source_cases()
    ]
