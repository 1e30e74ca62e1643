"""Options that more than one sub-command takes, each declared once.

The files a sub-command reads and the files it writes are declared here too, so that one check
covers every output option of every sub-command: an output that names one of the command's
inputs is refused before anything is read or written (D-cli-outputs-are-not-inputs).
"""

from __future__ import annotations

import argparse
import os
import stat
from typing import Final

from campaign_rules._cli.inputs import STDIN
from campaign_rules._cli.wording import printable
from campaign_rules._export.links import DOCS_URL

__all__ = [
    "add_docs_url",
    "add_inputs",
    "add_output",
    "ascii_integer",
    "refuse_outputs_that_are_inputs",
    "whole_number",
]

# Where a sub-command's parser records, among its defaults, which of its arguments name the
# files it reads (one positional argument) and which the files it writes (each option's flag
# and destination). Names no option can have: they start with an underscore.
_INPUTS: Final = "_inputs"
_OUTPUTS: Final = "_outputs"


def ascii_integer(text: str) -> int | None:
    """`text` as a whole number written in the digits `0` to `9` alone; `None` for anything else.

    The one reading of a number on the command line: `int` also takes a sign, `_` between
    digits, white space around and the digits of every script (`int("٣")` is 3), none of which
    a user types for a count or a status, and which would be read as another number than meant.
    """
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than Python converts
        return None


def whole_number(text: str) -> int:
    """An option's `type` for a whole number: `ascii_integer`, or the usage's error, exit 2."""
    number = ascii_integer(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number written in the digits 0 to 9: {printable(text)}"
        )
    return number


def add_docs_url(command: argparse.ArgumentParser, what: str) -> None:
    """Add `--docs-url`, the documentation site whose rule pages `what` (a phrase) links to."""
    command.add_argument(
        "--docs-url",
        metavar="URL",
        default=DOCS_URL,
        help=f"the documentation site {what} (default: {DOCS_URL})",
    )


def add_inputs(command: argparse.ArgumentParser, name: str, *, metavar: str, help: str) -> None:
    """Add the positional argument `name`: one or more files to read, `-` for standard input."""
    command.add_argument(name, nargs="+", metavar=metavar, help=help)
    command.set_defaults(**{_INPUTS: name})


def add_output(command: argparse.ArgumentParser, flag: str, *, metavar: str, help: str) -> None:
    """Add the option `flag`: a file the sub-command writes, which may be none of its inputs."""
    action = command.add_argument(flag, metavar=metavar, help=help)
    declared: tuple[tuple[str, str], ...] = command.get_default(_OUTPUTS) or ()
    command.set_defaults(**{_OUTPUTS: (*declared, (flag, action.dest))})


def refuse_outputs_that_are_inputs(
    args: argparse.Namespace, command: argparse.ArgumentParser
) -> None:
    """Exit with the usage and status 2 when an output option names a file the command reads.

    Called before anything is read: the output would replace the store being read (or read its
    own rows). A file is the same when it is the same file on the disk (a link, another spelling
    of its path, or standard input redirected from it), as `os.stat` tells; a character device
    (a terminal, `/dev/null`) is read and written as two streams, and is no conflict.
    """
    inputs = getattr(args, _INPUTS, None)
    if inputs is None:
        return
    read = {same for path in getattr(args, inputs) if (same := _identity(path, read=True))}
    for flag, dest in getattr(args, _OUTPUTS, ()):
        path = getattr(args, dest)
        if path is not None and _identity(path, read=False) in read:
            command.error(
                f"argument {flag}: {printable(path)} is one of the files the command reads; "
                "an output must be another file"
            )


def _identity(path: str, *, read: bool) -> tuple[int, int] | None:
    """The device and inode of the file `path`; `None` if there is none.

    An input `-` is standard input; an output `-` is a file of that name. `None` too for a
    character device, which reading and writing do not share.
    """
    try:
        status = os.fstat(0) if read and path == STDIN else os.stat(path)
    except OSError:
        return None  # nothing there yet, or nothing this command can read
    if stat.S_ISCHR(status.st_mode):
        return None
    return status.st_dev, status.st_ino
