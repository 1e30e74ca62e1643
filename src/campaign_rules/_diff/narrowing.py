"""A differing body that is not one member away from a valid body, narrowed to one that is.

A drawn, replayed or kit body may differ from a valid body in many members. Each of its
top-level members is put, alone, into each shipped example (and each member it lacks is left
out of one), so that a body that still shows the difference carries one change (D-diff).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from campaign_rules._diff.candidates import Candidate, base_bodies, text_body

__all__ = ["one_member_versions"]

# The most one-member bodies tried for one witness.
_MOST = 120


def one_member_versions(candidate: Candidate) -> list[Candidate]:
    """Bodies that each take one member of `candidate`'s creation body into a shipped example."""
    request = candidate.request
    body = request.get("body")
    text = body.get("text") if isinstance(body, dict) else None
    if request.get("kind") != "create" or not isinstance(text, str):
        return []
    try:
        value = json.loads(text)
    except ValueError:
        return []
    if not isinstance(value, dict):
        return []
    return list(_versions(candidate, value))[:_MOST]


def _versions(candidate: Candidate, value: dict[str, object]) -> Iterator[Candidate]:
    directory = candidate.request.get("directory")
    for name, base in base_bodies().items():
        for member, item in value.items():
            if base.get(member) != item:
                changed = {**base, member: item}
                yield _candidate(
                    candidate, f"its {member} in example {name}", member, changed, directory
                )
        for member in base:
            if member not in value:
                changed = {key: item for key, item in base.items() if key != member}
                yield _candidate(
                    candidate, f"example {name} without {member}", member, changed, directory
                )


def _candidate(
    candidate: Candidate, why: str, member: str, body: object, directory: object
) -> Candidate:
    pointer = "/" + member.replace("~", "~0").replace("/", "~1")
    request = {"kind": "create", "body": text_body(body), "directory": directory}
    return Candidate(f"{candidate.origin}, narrowed: {why}", pointer, request)
