"""The patches of `benchmarks/experiments/` apply to the commit their README names.

Each figure measured on such a patch can then be measured again, as the README says.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "benchmarks" / "experiments"
# "## issue-38-8: what it measures (on 708f15e)": a folder of patches and their commit.
HEADING = re.compile(r"^## (?P<folder>[\w-]+): .* \(on (?P<commit>[0-9a-f]{7,40})\)$", re.MULTILINE)


def _folders() -> dict[str, str]:
    readme = (EXPERIMENTS / "README.md").read_text(encoding="utf-8")
    return {match["folder"]: match["commit"] for match in HEADING.finditer(readme)}


def _has_commit(commit: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


def test_every_folder_of_patches_is_named_with_its_commit() -> None:
    folders = sorted(path.name for path in EXPERIMENTS.iterdir() if path.is_dir())
    assert folders == sorted(_folders())
    for folder in folders:
        assert list((EXPERIMENTS / folder).glob("*.patch")), folder


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="the patches are applied to a commit of the git repository",
)
def test_every_patch_applies_to_the_commit_it_names(tmp_path: Path) -> None:
    for folder, commit in _folders().items():
        if not _has_commit(commit):
            pytest.skip(f"{commit} is not in this clone's history")
        # An index of its own, filled with the commit's tree: no work tree is touched.
        environment = dict(os.environ, GIT_INDEX_FILE=str(tmp_path / f"{folder}.index"))
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "read-tree", commit], env=environment, check=True)
        for patch in sorted((EXPERIMENTS / folder).glob("*.patch")):
            applied = subprocess.run(
                [*git, "apply", "--cached", "--check", str(patch)],
                env=environment,
                capture_output=True,
                text=True,
                check=False,
            )
            assert applied.returncode == 0, f"{patch.name}: {applied.stderr}"
