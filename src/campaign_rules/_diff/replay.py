"""`--replay FILE.jsonl`: the lines of real traffic or a store, read bounded in count and size."""

from __future__ import annotations

from campaign_rules._cli.wording import cannot_read, reason
from campaign_rules._diff.candidates import (
    REPLAY_LINE_MAX_BYTES,
    REPLAY_MAX_LINES,
    Candidate,
    replayed,
)

__all__ = ["CannotReplay", "read_replay"]


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
