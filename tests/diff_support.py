"""Versions of campaign-rules as commands, for the diff's tests: this one, a changed copy, 5d4e07d.

`version_command` runs the package of a source tree (this one, or a `changed_copy`) as a command
that serves the executor protocol. `legacy_command` installs the version at 5d4e07d (0.2.0,
which speaks no executor protocol) once a test session, pure Python, with
scripts/install_revision.py, into a directory of the session's own; a clone without that commit
(a shallow one) skips the tests that ask for it. `old_library_answers` judges bodies with that
version's own library, in a process of its own: what its command line must agree with.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scripts.install_revision import ROOT, install_revision

SOURCE = Path(__file__).resolve().parent.parent / "src"


def version_command(folder: Path, source: Path = SOURCE) -> Path:
    """An executable `campaign-rules` in `folder` that runs the package found in `source`."""
    command = folder / "campaign-rules"
    command.write_text(
        f'#!/bin/sh\nPYTHONPATH="{source}" exec "{sys.executable}" -m campaign_rules "$@"\n',
        encoding="utf-8",
    )
    command.chmod(0o755)
    return command


def changed_copy(folder: Path, module: str, old: str, new: str) -> Path:
    """A scratch copy of the source tree with `old` replaced by `new` (once) in `module`."""
    copy = folder / "src"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    path = copy / "campaign_rules" / module
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {module}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return copy


# The last commit before the conformance executor protocol, as issue 40 names it.
LEGACY_REVISION = "5d4e07d"

# What the old library says of each body, as the protocol's answer; run with the old package
# first on the path. Arguments: the kind (`create` or an `error` status), then the files.
_ORACLE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import campaign_rules
from campaign_rules import validate_create_json
assert campaign_rules.__file__.startswith(sys.argv[1]), campaign_rules.__file__
from campaign_rules.responses import parse_error

kind = sys.argv[2]
answers = []
for name in sys.argv[3:]:
    with open(name, "rb") as file:
        data = file.read()
    if kind == "create":
        result = validate_create_json(data)
    else:
        result = parse_error(int(kind), json.loads(data))
    violations = [
        {"rule": v.rule, "key": v.key.value, "field": v.field, "pointer": v.pointer,
         "line": v.line, "column": v.column, "message": v.message}
        for v in result.violations
    ]
    answers.append({"ok": result.ok, "status": None if result.ok else result.status,
                    "violations": violations, "envelope": result.envelope()})
print(json.dumps(answers))
"""


@pytest.fixture(scope="session")
def legacy_command(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `campaign-rules` command of 5d4e07d, installed once a session."""
    known = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{LEGACY_REVISION}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if known.returncode != 0:
        pytest.skip(f"this clone has no commit {LEGACY_REVISION} (a shallow clone?)")
    return install_revision(LEGACY_REVISION, tmp_path_factory.mktemp("legacy") / "install")


def old_library_answers(command: Path, kind: str, files: list[Path]) -> list[dict[str, object]]:
    """The protocol answers (without ids) the installed version's library gives `files`."""
    package = command.parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _ORACLE, str(package), kind, *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    answers: list[dict[str, object]] = json.loads(done.stdout)
    return answers
