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


def _git(
    *arguments: str, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(ROOT), *arguments],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_folder_of_patches_is_named_with_its_commit() -> None:
    folders = sorted(path.name for path in EXPERIMENTS.iterdir() if path.is_dir())
    assert folders == sorted(_folders())
    for folder in folders:
        assert list((EXPERIMENTS / folder).glob("*.patch")), folder


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="the patches are applied to a commit of the git repository",
)
@pytest.mark.parametrize(("folder", "commit"), sorted(_folders().items()))
def test_every_patch_applies_to_the_commit_it_names(
    folder: str, commit: str, tmp_path: Path
) -> None:
    if _git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        # A shallow clone lacks the history; any other clone must have the commit named.
        shallow = _git("rev-parse", "--is-shallow-repository").stdout.strip() == "true"
        if shallow:
            pytest.skip(f"{commit} is not in this shallow clone's history")
        pytest.fail(f"{folder}: {commit}, named in the README, is no commit of this repository")
    # An index of its own, filled with the commit's tree: no work tree is touched.
    environment = dict(os.environ, GIT_INDEX_FILE=str(tmp_path / "index"))
    assert _git("read-tree", commit, environment=environment).returncode == 0
    for patch in sorted((EXPERIMENTS / folder).glob("*.patch")):
        applied = _git("apply", "--cached", "--check", str(patch), environment=environment)
        assert applied.returncode == 0, f"{patch.name}: {applied.stderr}"
