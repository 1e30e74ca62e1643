"""The real diff docs/guides/diff.md shows is what `campaign-rules diff` reports now (issue 40).

The page's section is written by scripts/diff_example.py: 5d4e07d against this tree. The same
diff runs here, as a process, against 5d4e07d installed once a session; the page must say what
it reports, but for the figures that change with every commit (the fingerprint, the number of
bodies judged, the tzdata version, the commit named).
"""

from __future__ import annotations

from pathlib import Path

from scripts import diff_example


def test_the_guide_shows_what_the_diff_reports_now(legacy_command: Path) -> None:
    now = diff_example.section(diff_example.report(legacy_command))
    page = diff_example.PAGE.read_text(encoding="utf-8")
    shown = diff_example.written(page)
    assert diff_example.normalized(shown) == diff_example.normalized(now), (
        "docs/guides/diff.md is stale: run scripts/diff_example.py --write"
    )
    assert shown.splitlines()[1].startswith("Made at commit ")
