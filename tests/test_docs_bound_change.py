"""What changing a bound touches is what `docs/testing.md` ("Changing a bound") says, measured.

In a scratch copy of the repository, `RETRIES` is raised by two in `_core/limits.py` and
`scripts/regenerate.py` is run as a maintainer runs it: the files it writes are as many as the
page says, the comment of `limits.py` that quotes the spec is left as the spec says it, and a
second run finds nothing stale.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from campaign_rules._core.limits import RETRIES
from tests.doc_examples import ROOT, scratch_repository

LIMITS = Path("src/campaign_rules/_core/limits.py")
DECLARED = f"RETRIES: Final = Bounds({RETRIES.low}, {RETRIES.high})"


def regenerate(copy: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`scripts/regenerate.py` run in `copy`, on the copy's own source."""
    return subprocess.run(
        [sys.executable, "scripts/regenerate.py", *arguments],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy / "src")},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_raising_retries_rewrites_as_many_files_as_the_page_says(tmp_path: Path) -> None:
    copy = scratch_repository(tmp_path)
    limits = copy / LIMITS
    before = limits.read_text(encoding="utf-8")
    assert before.count(DECLARED) == 1
    quote = next(
        line for line in before.splitlines() if line.startswith("# spec 2.1, spec 8: `retries`")
    )
    raised = f"RETRIES: Final = Bounds({RETRIES.low}, {RETRIES.high + 2})"
    limits.write_text(before.replace(DECLARED, raised), encoding="utf-8")

    done = regenerate(copy)
    assert done.returncode == 0, done.stderr
    written = sorted(line.removeprefix("wrote ") for line in done.stdout.splitlines())
    assert LIMITS.as_posix() not in written
    assert quote in limits.read_text(encoding="utf-8")  # the spec still says what it said
    assert regenerate(copy, "--check").returncode == 0

    lines = sum(changed_lines(ROOT / name, copy / name) for name in written)

    page = " ".join((ROOT / "docs" / "testing.md").read_text(encoding="utf-8").split())
    text = page[page.index("## Changing a bound") :]
    [(said_lines, said_files)] = re.findall(r"the command rewrote (\d+) lines in (\d+) files", text)
    [(total, by_hand)] = re.findall(r"That is (\d+) files, (\d+) of them edited by hand", text)
    assert (int(said_lines), int(said_files)) == (lines, len(written)), written
    assert int(total) == len(written) + int(by_hand)


def changed_lines(old: Path, new: Path) -> int:
    """How many lines a rewrite changed: the command rewrites within lines, adding none."""
    before = old.read_text(encoding="utf-8").splitlines()
    after = new.read_text(encoding="utf-8").splitlines()
    assert len(before) == len(after), new
    return sum(1 for a, b in zip(before, after, strict=True) if a != b)
