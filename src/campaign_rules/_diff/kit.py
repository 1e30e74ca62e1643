"""The conformance kit's requests (issue 39) as candidate bodies: the package's and `--kit`'s.

The installed package's kit is used when it ships one; an exported kit is read from a folder.
An exported kit is `manifest.json`, which lists its files, and the cases of each kind a file of
JSON lines, each case `{"id", "request", "answer", ...}`. Only the requests are read: the diff
asks both versions for their own answers.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from campaign_rules._cli.wording import cannot_read, reason
from campaign_rules._diff.candidates import Candidate

__all__ = ["KIT_MAX_CASES", "CannotReadKit", "kit_candidates", "packaged_kit_candidates"]

# The module of the installed package that holds the kit's source cases, when it ships one.
_PACKAGED_CASES = "campaign_rules._conformance.cases"

_KINDS = ("create", "update", "response")
# The most cases read from a kit: a bound on what one diff judges, well above the kit's own.
KIT_MAX_CASES = 20_000


class CannotReadKit(Exception):
    """The kit cannot be read: one line, the command exits 2."""


def kit_candidates(directory: str) -> list[Candidate]:
    """The requests of the kit in `directory`, in its files' order."""
    folder = Path(directory)
    manifest = _read_json(folder / "manifest.json")
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, list):
        raise CannotReadKit(f"{directory} holds no kit: its manifest lists no files")
    found: list[Candidate] = []
    for entry in files:
        if not isinstance(entry, dict) or entry.get("kind") not in _KINDS:
            continue
        path = folder / str(entry.get("path"))
        try:
            lines = path.read_bytes().splitlines()
        except OSError as error:
            raise CannotReadKit(cannot_read(str(path), reason(error))) from None
        for number, line in enumerate(lines, start=1):
            request = _request_of(line)
            if request is None:
                raise CannotReadKit(f"{path}:{number} is not a kit case")
            case = request.pop("id", None)
            found.append(Candidate(f"kit case {case}", None, request))
            if len(found) >= KIT_MAX_CASES:
                return found
    return found


def packaged_kit_candidates() -> list[Candidate]:
    """The requests of the kit the installed package ships; none when it ships no kit."""
    try:
        module = importlib.import_module(_PACKAGED_CASES)
    except ImportError:
        return []
    found: list[Candidate] = []
    for case in module.source_cases()[:KIT_MAX_CASES]:
        request = dict(case["request"])
        found.append(Candidate(f"kit case {request.pop('id', None)}", None, request))
    return found


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_bytes())
    except OSError as error:
        raise CannotReadKit(cannot_read(str(path), reason(error))) from None
    except ValueError:
        raise CannotReadKit(f"{path} is not JSON") from None


def _request_of(line: bytes) -> dict[str, object] | None:
    try:
        case = json.loads(line)
    except ValueError:
        return None
    request = case.get("request") if isinstance(case, dict) else None
    if not isinstance(request, dict) or request.get("kind") not in _KINDS:
        return None
    return dict(request)
