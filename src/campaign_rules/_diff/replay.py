"""`--replay FILE.jsonl`: the lines of real traffic or a store, read bounded in count and size."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence

from campaign_rules._cli.wording import cannot_read, reason
from campaign_rules._core.limits import BODY_MAX_BYTES
from campaign_rules._diff.candidates import Candidate

__all__ = ["REPLAY_LINE_MAX_BYTES", "REPLAY_MAX_LINES", "CannotReplay", "read_replay", "replayed"]

# The most lines of a replay file read, and the most bytes of one line.
REPLAY_MAX_LINES = 1000
REPLAY_LINE_MAX_BYTES = BODY_MAX_BYTES


class CannotReplay(Exception):
    """The replay file cannot be read: one line, the command exits 2."""


def read_replay(path: str) -> list[Candidate]:
    """The first `REPLAY_MAX_LINES` lines of `path` as requests; a longer line is left out whole.

    A line is left out rather than cut, since a cut body is another body than the one replayed.
    """
    lines: list[bytes] = []
    try:
        with open(path, "rb") as file:
            while len(lines) < REPLAY_MAX_LINES:
                line = file.readline(REPLAY_LINE_MAX_BYTES + 1)
                if not line:
                    break
                if len(line) > REPLAY_LINE_MAX_BYTES and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):  # the rest of the long line
                        line = file.readline(REPLAY_LINE_MAX_BYTES + 1)
                    lines.append(b"")  # its number kept, its body not judged
                    continue
                lines.append(line)
    except OSError as error:
        raise CannotReplay(cannot_read(path, reason(error))) from None
    return replayed(lines)


def replayed(lines: Sequence[bytes]) -> list[Candidate]:
    """Each replayed line as a request: a protocol request as it is, any other as a body to create.

    The caller reads at most `REPLAY_MAX_LINES` lines of at most `REPLAY_LINE_MAX_BYTES` each.
    """
    found: list[Candidate] = []
    for number, line in enumerate(lines, start=1):
        text = line.rstrip(b"\r\n")
        if not text.strip():
            continue
        request = _as_request(text)
        found.append(Candidate(f"replay line {number}", None, request))
    return found


def _as_request(text: bytes) -> dict[str, object]:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    kind = value.get("kind") if isinstance(value, dict) else None
    if (
        isinstance(value, dict)
        and kind in {"create", "update", "response"}
        and isinstance(value.get("body"), dict)
    ):
        return {name: item for name, item in value.items() if name != "id"}
    try:
        return {"kind": "create", "body": {"text": text.decode("utf-8")}, "directory": None}
    except UnicodeDecodeError:
        coded = base64.b64encode(text).decode("ascii")
        return {"kind": "create", "body": {"base64": coded}, "directory": None}
