"""Draw docs/_static/audit-report.png: the HTML audit report of a generated store, in Chromium.

The store is 20,000 lines of the benchmark corpus (benchmarks/corpus.py): mostly valid bodies
of both channels, about a quarter with one to three defects each, a few blank lines and a few
that are not JSON. `campaign-rules audit --html` reports on it in a subprocess, and the
headless Chromium of the tests (tests/browser.py: Debian's chromium package) takes the picture.

    python scripts/report_screenshot.py [PNG]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import make_corpus  # noqa: E402
from tests.browser import launch, missing, screenshot  # noqa: E402

LINES = 20_000
SEED = 20261125
# What is not a body: a line cut in half by a crash, one that is not UTF-8, a stray `NaN`.
BROKEN = ('{"name": "Spring promo", "agent_id": "3f9c', '{"name": "\xff"}', "NaN")


def store(path: Path) -> None:
    """Write the store: about 73% valid bodies, 25% invalid, 1% blank, 1% not JSON."""
    corpus = make_corpus(SEED, size=600)
    valid = [json.dumps(payload) for payload in corpus.valid]
    invalid = [json.dumps(case.payload) for case in corpus.invalid]
    rng = random.Random(SEED)
    with path.open("w", encoding="utf-8", errors="surrogateescape") as file:
        for _ in range(LINES):
            draw = rng.random()
            if draw < 0.73:
                line = rng.choice(valid)
            elif draw < 0.98:
                line = rng.choice(invalid)
            elif draw < 0.99:
                line = ""
            else:
                line = rng.choice(BROKEN)
            file.write(line + "\n")


def main() -> None:
    """Audit a generated store with `--html` and draw the top of the report to a PNG file."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/_static/audit-report.png"
    reason = missing()
    if reason:
        sys.exit(f"cannot draw the report: {reason}")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        data, report = Path(scratch) / "campaigns.jsonl", Path(scratch) / "report.html"
        store(data)
        audit = [sys.executable, "-m", "campaign_rules", "audit", str(data), "--html", str(report)]
        done = subprocess.run(audit, check=False, stdout=subprocess.DEVNULL)
        if done.returncode not in (0, 1):  # 1: some records are invalid, as they should be
            sys.exit(f"campaign-rules audit failed with status {done.returncode}")
        with sync_playwright() as playwright:
            browser = launch(playwright)
            # The top of the report: the totals, both charts and the first rows of the table.
            page = browser.new_page(viewport={"width": 1240, "height": 1640})
            page.goto(report.as_uri())
            screenshot(page, target, full_page=False)
            browser.close()
    print(target)


if __name__ == "__main__":
    main()
