"""Colour: on a terminal, and as NO_COLOR and FORCE_COLOR say; none in a pipe (D-cli-colour).

Each test runs the real command, its standard output a pseudo-terminal (`pty`) or a pipe, in an
environment with or without the variables, and looks for escape sequences in what it wrote.
"""

from __future__ import annotations

import errno
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli_support import COMMAND

pty = pytest.importorskip("pty", reason="a pseudo-terminal is POSIX's")

INVALID = Path(__file__).parent.parent / "examples" / "invalid.json"
VARIABLES = ("NO_COLOR", "FORCE_COLOR", "TERM")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def check_output(*, terminal: bool, **variables: str) -> str:
    """What `check examples/invalid.json` writes to a terminal or to a pipe, with `variables`."""
    env = {name: value for name, value in os.environ.items() if name not in VARIABLES}
    env |= {"TERM": "xterm-256color"} | variables
    argv = [*COMMAND, "check", str(INVALID)]
    if not terminal:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        assert done.returncode == 1, done.stderr
        return done.stdout
    controller, terminal_end = pty.openpty()
    try:
        process = subprocess.Popen(
            argv, stdout=terminal_end, stderr=subprocess.PIPE, env=env, close_fds=True
        )
        os.close(terminal_end)
        terminal_end = -1
        output = _read_to_the_end(controller)
        assert process.wait(timeout=60) == 1, process.stderr.read()  # type: ignore[union-attr]
        process.stderr.close()  # type: ignore[union-attr]
    finally:
        os.close(controller)
        if terminal_end >= 0:
            os.close(terminal_end)
    return output.decode().replace("\r\n", "\n")


def _read_to_the_end(controller: int) -> bytes:
    """Everything written to the terminal, until its last writer closes it."""
    data = bytearray()
    while True:
        try:
            chunk = os.read(controller, 1 << 16)
        except OSError as error:  # Linux: EIO once no process holds the terminal open
            if error.errno != errno.EIO:
                raise
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def plain(text: str) -> str:
    return ESCAPE.sub("", text)


def test_a_terminal_gets_colour_and_the_same_text_under_it() -> None:
    coloured = check_output(terminal=True)
    piped = check_output(terminal=False)
    assert ESCAPE.search(coloured)
    assert plain(coloured) == piped
    first = coloured.splitlines()[0]
    assert "\x1b[1;31mINVALID_REQUEST\x1b[0m" in first
    assert coloured.splitlines()[-1] == "\x1b[1;31mFound 7 violations in 1 file\x1b[0m"


def test_a_pipe_gets_none() -> None:
    assert not ESCAPE.search(check_output(terminal=False))


@pytest.mark.parametrize("terminal", [True, False])
def test_no_color_wins_over_force_color(terminal: bool) -> None:
    assert not ESCAPE.search(check_output(terminal=terminal, NO_COLOR="1"))
    assert not ESCAPE.search(check_output(terminal=terminal, NO_COLOR="1", FORCE_COLOR="1"))


def test_force_color_colours_a_pipe() -> None:
    assert ESCAPE.search(check_output(terminal=False, FORCE_COLOR="1"))


def test_an_empty_variable_is_as_if_unset_and_a_dumb_terminal_gets_none() -> None:
    assert ESCAPE.search(check_output(terminal=True, NO_COLOR=""))
    assert not ESCAPE.search(check_output(terminal=False, FORCE_COLOR=""))
    assert not ESCAPE.search(check_output(terminal=True, TERM="dumb"))
    assert ESCAPE.search(check_output(terminal=True, TERM="dumb", FORCE_COLOR="1"))
