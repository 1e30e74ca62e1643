"""Versions of campaign-rules as commands, for the diff's tests: this one, or a changed copy."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

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
