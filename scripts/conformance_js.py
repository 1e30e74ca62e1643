"""Write what the JavaScript executor fails: its expected failures and the scoreboard page.

    PYTHONPATH=src python scripts/conformance_js.py [--check] [--cases CASES.json]

Runs conformance/js/executor.mjs (Node.js, `npm ci --prefix conformance/js`) on the kit's cases
(`tests/conformance_js_support.py`: the package's, or made from `tests/cases/` until it holds
them, or a kit's `cases.json` given with `--cases`) and writes
`conformance/js/expected-failures.txt`, the failing cases grouped by reason, and
`docs/conformance-scoreboard.md`, the counts. `--check` writes nothing and fails when either is
stale; tests/test_conformance_js.py checks the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance_js_support import (
    EXPECTED_FAILURES,
    ROOT,
    SCOREBOARD,
    UNEXPLAINED,
    expected_failures_text,
    failures,
    run_cases,
    scoreboard_text,
)


def main() -> int:
    """Write the two files (`--check`: say which are stale); 1 on an unexplained failure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when stale")
    parser.add_argument("--cases", type=Path, help="a kit's cases.json, for the kit's cases")
    arguments = parser.parse_args()
    runs = run_cases(arguments.cases)
    total = len(runs)
    failed = failures(runs)
    unexplained = [case_id for case_id, reason in failed.items() if reason == UNEXPLAINED]
    if unexplained:
        print(f"unexplained failures: {unexplained}", file=sys.stderr)
        return 1
    written = {
        EXPECTED_FAILURES: expected_failures_text(failed),
        SCOREBOARD: scoreboard_text(total, failed),
    }
    stale = [
        path
        for path, text in written.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    if arguments.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(written[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
