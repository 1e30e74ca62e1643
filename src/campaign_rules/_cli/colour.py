"""Colour in what the command line prints: on a terminal, or as the environment says.

`NO_COLOR` (https://no-color.org), set to any non-empty value, turns colour off, and wins over
`FORCE_COLOR`, which turns it on even in a pipe or a file; without either, a stream has colour
when it is a terminal and `TERM` is not `dumb`. This is the order CPython 3.13 follows for its
own tracebacks (can_colorize, in its module _colorize), and pytest's (D-cli-colour).
"""

from __future__ import annotations

import os
from typing import Final

__all__ = ["BOLD", "DIM", "GREEN", "RED", "Paint", "paint_for"]

# Select Graphic Rendition parameters (ECMA-48 section 8.3.117), joined by `;`.
BOLD: Final = "1"
DIM: Final = "2"
RED: Final = "31"
GREEN: Final = "32"
_RESET: Final = "\x1b[0m"


class Paint:
    """Wraps text in the escape sequences of a style, or leaves it as it is without colour."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def __call__(self, text: str, *styles: str) -> str:
        """`text` in `styles` (`BOLD`, `RED`, ...), when there is colour and text to paint."""
        if not self.colour or not text:
            return text
        return f"\x1b[{';'.join(styles)}m{text}{_RESET}"


def paint_for(stream: object) -> Paint:
    """The paint for what is written to `stream` (`sys.stdout`), as the module says."""
    return Paint(_wants_colour(stream))


def _wants_colour(stream: object) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return os.isatty(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):  # no descriptor: a test's stand-in, closed
        return False
