"""One timed process of `ab.py`: one revision's `campaign_rules`, every set of bodies, once.

Run by `ab.py`, never by hand: `python ab_child.py BODIES OUT PASSES [--results]`. It imports
only the standard library and the `campaign_rules` that its `PYTHONPATH` (or its interpreter's
site-packages) holds, which is the revision being timed; `ab.py` checks that it is the one
meant by reading back `campaign_rules.__file__` and the build.

BODIES is a JSON file `{set name: [body text, ...]}` that `ab.py` wrote once for both
revisions. For each set, the dict path is `validate_create(json.loads(body))` (decoded before
the timing) and the bytes path `validate_create_json(body as UTF-8)`, a revision from before
issue 29 having none. Each path is run once untimed, then timed PASSES times over the whole
set in process CPU time with garbage collection off (as `timeit` does); the least pass is
kept, the one that other jobs on a shared machine disturbed least. With `--results`, each
result is also written in a form that does not depend on the revision's class layout, so that
`ab.py` can compare the two revisions body by body.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from typing import Any

# The attributes of a violation compared between revisions. An older revision may lack some
# (`pointer`, `line` and `column` came with later issues): one it lacks is written `null`, and
# `ab.py` compares only what both sides have.
_VIOLATION_PARTS = ("key", "field", "message", "rule", "pointer", "line", "column")
_ABSENT = object()


def main(argv: list[str]) -> None:
    bodies_path, out_path, passes = argv[0], argv[1], int(argv[2])
    with_results = "--results" in argv[3:]
    import campaign_rules

    with open(bodies_path, encoding="utf-8") as file:
        sets: dict[str, list[str]] = json.load(file)
    validate_create = campaign_rules.validate_create
    validate_create_json = getattr(campaign_rules, "validate_create_json", None)
    report: dict[str, Any] = {
        "file": campaign_rules.__file__,
        "compiled": bool(getattr(campaign_rules, "COMPILED", False)),
        "times": {},
        "results": {},
    }
    for name, texts in sets.items():
        payloads = [json.loads(text) for text in texts]
        encoded = [text.encode("utf-8") for text in texts]
        paths: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
            "dict": (validate_create, payloads)
        }
        if validate_create_json is not None:
            paths["bytes"] = (validate_create_json, encoded)
        for path, (validate, inputs) in paths.items():
            results = [validate(each) for each in inputs]  # untimed: the warm-up
            report["times"][f"{name}/{path}"] = min(
                _cpu_ns_per_body(validate, inputs) for _ in range(passes)
            )
            if with_results:
                report["results"][f"{name}/{path}"] = [_comparable(each) for each in results]
    with open(out_path, "w", encoding="utf-8") as file:
        json.dump(report, file)


def _cpu_ns_per_body(validate: Callable[[Any], Any], inputs: list[Any]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time_ns()
        for each in inputs:
            validate(each)
        return (time.process_time_ns() - start) / len(inputs)
    finally:
        gc.enable()


def _comparable(result: Any) -> list[Any]:
    """Whether `result` is ok, its value's `repr`, and each violation's parts, as strings."""
    violations = [
        [_text(getattr(violation, part, _ABSENT)) for part in _VIOLATION_PARTS]
        for violation in result.violations
    ]
    return [bool(result.ok), repr(result.value), violations]


def _text(part: object) -> str | None:
    # An enum member by its value, which stays when the enum's class changes its base.
    return None if part is _ABSENT else str(getattr(part, "value", part))


if __name__ == "__main__":
    main(sys.argv[1:])
