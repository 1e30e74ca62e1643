"""The command line: `check FILE...`, `audit`, `rules`, `explain`, `schema` and `openapi`.

`main` is where the command starts (the `campaign-rules` script, `python -m campaign_rules`).
It sets the handlers of SIGINT and SIGTERM before it imports anything of the sub-commands, which
take most of the start, so that a signal at any moment after the command's first line of code
ends it with one line and 130 or 143, never a traceback (D-cli-signals). This module imports
only what those handlers need; the package's root imports nothing of its rules either.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign_rules._cli.exits import SIGNAL_MEANINGS, say
from campaign_rules._cli.signals import Stopped, stop_on_signals

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (`ExitStatus`).

    SIGINT (Ctrl-C) and SIGTERM stop a command with one line on standard error and the status
    128 + the signal's number, 130 or 143, with no traceback and no worker process left, from
    the moment this function runs. An output that cannot be written (a full disk, a reader
    that left, standard output closed) is one line on standard error and the status 2,
    whatever the sub-command (D-cli-outputs).
    """
    try:
        with stop_on_signals():
            # Imported once the handlers are set: the sub-commands and the rules they import.
            from campaign_rules._cli.commands import run_command

            return run_command(argv)
    except Stopped as stop:  # before the sub-command was known: no name to give it
        say(SIGNAL_MEANINGS[stop.status])
        return stop.status
