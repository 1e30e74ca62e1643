"""Write what the JavaScript executor fails: its expected failures and the scoreboard page.

    PYTHONPATH=src python scripts/conformance_js.py [--check]

Runs conformance/js/executor.mjs (Node.js, `npm ci --prefix conformance/js`) on the cases of
`tests/cases/` (`tests/conformance_js_support.py`, ids `<rule id>/<index>` as the kit names them)
and writes `conformance/js/expected-failures.txt`, the failing cases grouped by reason, and
`docs/conformance-scoreboard.md`, the counts. `--check` writes nothing and fails when either is
stale; tests/test_conformance_js.py checks the same.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance_js_support import (  # noqa: E402
    EXPECTED_FAILURES,
    ROOT,
    UNEXPLAINED,
    failures,
    run_cases,
)

SCOREBOARD = ROOT / "docs" / "conformance-scoreboard.md"


def grouped(failed: dict[str, str]) -> dict[str, list[str]]:
    """The failing case ids by reason, each group in case order, the groups largest first."""
    groups: dict[str, list[str]] = defaultdict(list)
    for case_id, reason in failed.items():
        groups[reason].append(case_id)
    return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))


def expected_failures_text(failed: dict[str, str]) -> str:
    lines = [
        "# The cases conformance/js/executor.mjs fails: give this file to",
        "# `campaign-rules conformance run --expected-failures`. Written by",
        "# scripts/conformance_js.py; docs/conformance-scoreboard.md counts them.",
        "# Each group: `# ` and its reason, then its case ids (`<rule id>/<index>`), one a line.",
    ]
    for reason, case_ids in grouped(failed).items():
        lines += ["", f"# {reason}", *case_ids]
    return "\n".join(lines) + "\n"


def scoreboard_text(total: int, failed: dict[str, str]) -> str:
    lines = [
        "# Conformance scoreboard",
        "",
        "<!-- Written by scripts/conformance_js.py from a run; tests/test_conformance_js.py",
        "checks it. Do not edit by hand. -->",
        "",
        "The cases each executor passes, compared strictly (ok, status, each violation's rule,",
        "key, field and pointer in order, the envelope but its message), on the cases of",
        "`tests/cases/` that an executor is sent.",
        "",
        "| executor | cases | passed | expected failures |",
        "|---|---:|---:|---:|",
        f"| the library (`validate_create_json`: its answers are the expected ones) | {total} "
        f"| {total} | 0 |",
        f"| JavaScript, ajv on the exported schema (`conformance/js/executor.mjs`) | {total} "
        f"| {total - len(failed)} | {len(failed)} |",
        "",
        "## Why each expected failure of the JavaScript executor fails",
        "",
        "Listed, case by case, in `conformance/js/expected-failures.txt`.",
        "",
        "| cases | reason |",
        "|---:|---|",
    ]
    lines += [f"| {len(ids)} | {reason} |" for reason, ids in grouped(failed).items()]
    lines += [
        "",
        "## Running it",
        "",
        "`npm ci --prefix conformance/js` installs its ajv; then the kit's runner drives it:",
        "`campaign-rules conformance run KIT --expected-failures "
        "conformance/js/expected-failures.txt -- node conformance/js/executor.mjs "
        "schema/campaign-create.schema.json`. `python scripts/conformance_js.py` runs it on",
        "the cases by a driver of its own and writes this page and that file.",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    total = len(run_cases())
    failed = failures()
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
    if "--check" in sys.argv[1:]:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(written[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
