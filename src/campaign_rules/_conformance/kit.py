"""Reading an exported kit: its manifest, its cases, and a file of expected failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from campaign_rules._conformance.export import MANIFEST
from campaign_rules._conformance.protocol import ANSWER_KINDS

__all__ = ["Kit", "KitError", "read_expected_failures", "read_kit"]


class KitError(Exception):
    """The kit, or a file the run was given, cannot be read: the run's status is 2."""


@attrs.frozen
class Kit:
    """An exported kit: its manifest, and its cases of the kinds an executor judges, in order."""

    manifest: dict[str, Any]
    cases: list[dict[str, Any]]

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the rule set that made the kit."""
        return str(self.manifest["ruleset"]["fingerprint"])

    @property
    def version(self) -> str:
        """The version of the library that made the kit."""
        return str(self.manifest["ruleset"]["version"])


def read_kit(directory: Path) -> Kit:
    """The kit in `directory`; `KitError` saying why it cannot be read."""
    manifest = _json(directory / MANIFEST)
    try:
        files = manifest["files"]
        str(manifest["ruleset"]["fingerprint"])
        listed = [(entry["path"], entry["kind"]) for entry in files if "kind" in entry]
    except (TypeError, KeyError) as error:
        raise KitError(f"{directory / MANIFEST} is not a kit's manifest ({error!r})") from None
    cases: list[dict[str, Any]] = []
    for path, kind in listed:
        if kind not in ANSWER_KINDS:
            continue  # the HTTP sequences: `run --http`
        for number, line in enumerate(_lines(directory / path), start=1):
            try:
                case = json.loads(line)
                if not (type(case["id"]) is str and case["request"]["kind"] == kind):
                    raise ValueError("not a case of this file")
                if type(case["answer"]["violations"]) is not list:
                    raise ValueError("its answer is not a judged one")
            except (ValueError, TypeError, KeyError) as error:
                raise KitError(f"{directory / path}:{number}: not a case ({error!r})") from None
            cases.append(case)
    return Kit(manifest, cases)


def read_expected_failures(path: Path) -> list[str]:
    """The case ids a file of expected failures lists: one a line, `#` starts a comment.

    A comment is a line whose first character that is not a space is `#`, or what follows
    ` #` on a line: an id holds no ` #`.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise KitError(f"cannot read the expected failures {path}: {error}") from None
    ids = [line.split(" #", 1)[0].strip() for line in text.splitlines()]
    return [case_id for case_id in ids if case_id and not case_id.startswith("#")]


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise KitError(f"cannot read {path}: {error}") from None


def _lines(path: Path) -> list[bytes]:
    try:
        return path.read_bytes().splitlines()
    except OSError as error:
        raise KitError(f"cannot read {path}: {error}") from None
