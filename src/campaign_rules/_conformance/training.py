"""The workload the compiled build is trained on, for profile-guided optimisation (D-pgo).

`setup.py` compiles the extension once with GCC's instrumentation, runs `train()` in a fresh
interpreter over that build, and compiles it again with the counts of branches and calls it
gathered, so that the compiler lays the code out for the paths requests take. The workload is
the package's own, never a benchmark's corpus: every request of the conformance kit
(`cases.json`, the edges of each rule, answered as the kit's executor answers them, bytes in),
each creation body among them decoded first (the dict path), the shipped example bodies, and an
audit of the creation bodies as JSON Lines.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Final

import campaign_rules
from campaign_rules import validate_create
from campaign_rules._conformance.executor import answer
from campaign_rules._conformance.protocol import body_bytes
from campaign_rules.audit import audit_lines

__all__ = ["PASSES", "train"]

# Enough for the counts to settle (a pass takes a few tenths of a second, compiled); the build
# waits for all of them.
PASSES: Final = 20


def train(passes: int = PASSES) -> int:
    """Run the workload `passes` times on the build that is imported; how many bodies it judged.

    Raises `RuntimeError` on the pure-Python build, which has nothing to train.
    """
    if not campaign_rules.COMPILED:
        raise RuntimeError("the training workload runs on the compiled build; this one is pure")
    kit = files("campaign_rules._conformance").joinpath("cases.json").read_text(encoding="utf-8")
    requests = [case["request"] for case in json.loads(kit)["cases"]]
    examples = files("campaign_rules._export").joinpath("examples")
    bodies = [
        *(body_bytes(request["body"]) for request in requests if request["kind"] == "create"),
        *(path.read_bytes() for path in examples.iterdir() if path.name.endswith(".json")),
    ]
    creations = [body for body in bodies if body is not None]
    decoded = _decoded(creations)
    for _ in range(passes):
        for request in requests:
            answer(request)
        for value in decoded:
            validate_create(value)
        audit_lines(creations)
    return passes * (len(requests) + len(decoded) + len(creations))


def _decoded(bodies: list[bytes]) -> list[object]:
    """The values of `bodies` as the standard library decodes them, those it decodes."""
    values: list[object] = []
    for body in bodies:
        try:
            values.append(json.loads(body))
        except (ValueError, RecursionError):  # no JSON, or nested past the decoder's depth
            continue
    return values
