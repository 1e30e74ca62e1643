"""Install a revision of this repository as a runnable `campaign-rules` command, pure Python.

Usage, from the repository root, in the development environment:

    .venv/bin/python scripts/install_revision.py REV DIR

REV is a git revision (`5d4e07d`, `HEAD~3`, a branch); DIR a directory that does not exist
yet, or an empty one. The revision's tree is unpacked with `git archive` into a scratch
directory, installed into DIR with `pip install --no-deps --target` as the pure-Python build
(`CAMPAIGN_RULES_PURE_PYTHON=1`, setup.py), and DIR/bin/campaign-rules is written: a Python
script whose `#!` line names this interpreter and which imports the package from DIR before
anything else on the path, so that a `PYTHONPATH` naming another tree does not shadow it. It
prints the command's path. The dependencies (attrs, cattrs, tzdata) are this interpreter's, so
that only the revision differs.

The build runs in pip's isolated environment: the setuptools that pyproject.toml asks for
(pip fetches the build requirements, or takes them from its cache). A few seconds.

`campaign-rules diff` (docs/guides/diff.md) takes such a command as OLD; the tests install
5d4e07d once a session this way (tests/diff_support.py), and scripts/diff_mutants.py installs
each mutant of the rule table with `install_tree`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# setup.py's switch to the pure-Python build.
PURE_SWITCH = "CAMPAIGN_RULES_PURE_PYTHON"
COMMAND_NAME = "campaign-rules"

# The command: the package from DIR first, whatever the environment's PYTHONPATH says.
_WRAPPER = """#!{python}
# campaign-rules {what}, installed by scripts/install_revision.py.
import sys

sys.path.insert(0, {directory!r})
from campaign_rules._cli import main

sys.exit(main())
"""


class InstallFailed(Exception):
    """The revision could not be unpacked or installed: the reason, in one line or pip's log."""


def install_revision(
    revision: str, directory: Path, *, repository: Path = ROOT, unpack_into: Path | None = None
) -> Path:
    """Install `revision` of `repository` into `directory`; return its command's path.

    The revision's tree is unpacked into `unpack_into` when given (a new or empty directory
    the caller keeps), else into a scratch directory removed afterwards.
    """
    if unpack_into is not None:
        commit = unpack(revision, unpack_into, repository=repository)
        return install_tree(unpack_into, directory, what=f"at {commit[:12]}")
    with tempfile.TemporaryDirectory(prefix="install-revision-") as scratch:
        tree = Path(scratch, "tree")
        commit = unpack(revision, tree, repository=repository)
        return install_tree(tree, directory, what=f"at {commit[:12]}")


def unpack(revision: str, tree: Path, *, repository: Path = ROOT) -> str:
    """Write the files of `revision` into `tree` (made if missing); return the commit's name."""
    try:
        commit = _git(repository, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except InstallFailed:
        raise InstallFailed(f"{revision}: no such commit in {repository}") from None
    tree.mkdir(parents=True, exist_ok=True)
    # Piped into tar as it comes: the archive is never written whole.
    archive = subprocess.Popen(
        ["git", "-C", str(repository), "archive", "--format=tar", commit],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        _run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout)
    finally:
        assert archive.stdout is not None
        archive.stdout.close()
        if archive.wait() != 0:
            raise InstallFailed(
                f"git archive {commit[:12]} failed (exit status {archive.returncode})"
            )
    return commit


def install_tree(tree: Path, directory: Path, *, what: str = "") -> Path:
    """Install the source tree `tree` (a copy of the repository) into `directory`.

    `directory` must not exist, or be empty: nothing the install did not make is touched.
    """
    if directory.exists() and any(directory.iterdir()):
        raise InstallFailed(f"{directory} is not empty: give a new directory")
    environment = dict(os.environ, **{PURE_SWITCH: "1"})
    environment.pop("PYTHONPATH", None)  # the build's own setuptools, not a tree's modules
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input"]
    _run([*pip, "--target", str(directory), str(tree)], environment=environment)
    return write_command(directory, what=what or f"from {tree}")


def write_command(directory: Path, *, what: str) -> Path:
    """Write `directory`/bin/campaign-rules, which runs the package installed in `directory`."""
    command = directory / "bin" / COMMAND_NAME
    command.parent.mkdir(exist_ok=True)
    text = _WRAPPER.format(python=sys.executable, what=what, directory=str(directory.resolve()))
    command.write_text(text, encoding="utf-8")
    command.chmod(0o755)
    return command


def _git(repository: Path, *arguments: str) -> str:
    return _run(["git", "-C", str(repository), *arguments]).strip()


def _run(
    command: list[str], environment: dict[str, str] | None = None, stdin: object = None
) -> str:
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        stdin=subprocess.DEVNULL if stdin is None else stdin,
    )
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
        raise InstallFailed(f"{' '.join(command[:4])} ...: {said}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    """Install REV into DIR and print the command's path; 2 with the reason when it cannot."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", metavar="REV", help="a git revision of this repository")
    parser.add_argument("directory", metavar="DIR", type=Path, help="a new or empty directory")
    arguments = parser.parse_args(argv)
    try:
        command = install_revision(arguments.revision, arguments.directory)
    except InstallFailed as error:
        print(f"install_revision: {error}", file=sys.stderr)
        return 2
    print(command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
