"""The exit statuses of the command line, declared once; the help text is written from them."""

from __future__ import annotations

import enum
import signal
import sys

__all__ = ["SIGNAL_MEANINGS", "ExitStatus", "describe_exits", "say"]

# A process stopped by a signal it handles exits 128 + the signal's number, as a shell reports
# one the signal ended (POSIX `sh`, "Exit Status for Commands").
_SIGNALLED = 128


class ExitStatus(enum.IntEnum):
    """What each exit status of `campaign-rules` means."""

    VALID = 0
    INVALID = 1
    UNREADABLE = 2
    INTERRUPTED = _SIGNALLED + signal.SIGINT
    TERMINATED = _SIGNALLED + signal.SIGTERM


# What the statuses of a stop by signal say, the same for every sub-command.
SIGNAL_MEANINGS: dict[ExitStatus, str] = {
    ExitStatus.INTERRUPTED: "interrupted (Ctrl-C, SIGINT)",
    ExitStatus.TERMINATED: "terminated (SIGTERM)",
}


def describe_exits(valid: str, invalid: str | None, unreadable: str) -> str:
    """The sentence of a sub-command's help that lists its exit statuses.

    `invalid` is `None` for a command that has no status 1.
    """
    # Every sub-command writes standard output, and one it cannot write is status 2 too
    # (D-cli-outputs), so each help says so.
    cannot_write = f"{unreadable}, or an output could not be written"
    meanings = {ExitStatus.VALID: valid, ExitStatus.INVALID: invalid}
    meanings |= {ExitStatus.UNREADABLE: cannot_write, **SIGNAL_MEANINGS}
    listed = ", ".join(f"{status.value} {text}" for status, text in meanings.items() if text)
    return f"Exit status: {listed}."


def say(problem: str) -> None:
    """Tell the user of a problem: one line on standard error, named for the command."""
    print(f"campaign-rules: {problem}", file=sys.stderr)
