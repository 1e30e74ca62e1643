"""`benchmarks/ab.py`, the side-by-side timing of two revisions, runs to its end and cleans up.

Run in its tiny mode (a few bodies, one round, the pure-Python build) on HEAD against HEAD, so
that it cannot rot between the days it is used; no time it prints is asserted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.ab import _bodies, _parser, _same

ROOT = Path(__file__).resolve().parent.parent


def _worktrees() -> str:
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="ab.py checks revisions out of a git repository",
)
def test_head_against_head_runs_agrees_and_leaves_no_worktree(tmp_path: Path) -> None:
    before = _worktrees()
    figures = tmp_path / "figures.json"
    command = [sys.executable, "benchmarks/ab.py", "--corpus", "small", "--size", "4"]
    command += ["--rounds", "1", "--passes", "1", "--json", str(figures), "HEAD", "HEAD"]
    completed = subprocess.run(
        command,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "The results are identical on every body." in completed.stdout
    written = json.loads(figures.read_text(encoding="utf-8"))
    assert written["differences"] == []
    assert [row["set"] for row in written["rows"]] == [
        "small/valid/dict",
        "small/valid/bytes",
        "small/invalid/dict",
        "small/invalid/bytes",
    ]
    assert _worktrees() == before


def test_results_differ_by_any_part_both_revisions_have() -> None:
    violation = ["INVALID_REQUEST", "name", "name is required", "r", "/name", "None", "None"]
    reworded = [*violation[:2], "name must be given", *violation[3:]]
    older = [*violation[:4], None, None, None]  # a revision from before pointers and places
    assert _same([False, "None", [violation]], [False, "None", [violation]])
    assert not _same([False, "None", [violation]], [False, "None", [reworded]])
    assert not _same([False, "None", [violation]], [False, "None", []])
    assert not _same([True, "A()", []], [True, "B()", []])
    assert _same([False, "None", [older]], [False, "None", [violation]])


def test_kind_keeps_the_bodies_of_that_kind_only() -> None:
    def sets(*options: str) -> dict[str, list[str]]:
        arguments = [*options, "--corpus", "small", "--size", "3", "OLD", "NEW"]
        return _bodies(_parser().parse_args(arguments))

    both = sets()
    assert list(both) == ["small/valid", "small/invalid"]
    assert sets("--kind", "valid") == {"small/valid": both["small/valid"]}
    assert sets("--kind", "invalid") == {"small/invalid": both["small/invalid"]}
    assert sets("--kind", "valid", "--kind", "invalid") == both
