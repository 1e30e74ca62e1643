"""Write the seed corpus: every payload and patch of `tests/cases/`, and the examples.

Usage: `python -m fuzz.seeds DIR` (from the repository root). One JSON file per input, named by
the case file and the case's position, so the fuzzer starts from inputs that reach every rule.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.cases_support import build_payload, case_files, is_creation_case

EXAMPLES = Path(__file__).parent.parent / "examples"


def seeds() -> dict[str, object]:
    """Every seed input, by file name."""
    inputs: dict[str, object] = {}
    for stem, doc in case_files().items():
        for index, case in enumerate(doc["cases"]):
            if "update" in case:
                inputs[f"{stem}-{index}.json"] = case["update"]["patch"]
            elif is_creation_case(case):
                inputs[f"{stem}-{index}.json"] = build_payload(case)
            # Response, request and lifecycle cases hold no body the harness reads.
    for example in sorted(EXAMPLES.glob("*.json")):
        inputs[f"example-{example.name}"] = json.loads(example.read_text(encoding="utf-8"))
    return inputs


def main(folder: str) -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for name, value in seeds().items():
        (target / name).write_text(json.dumps(value), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
