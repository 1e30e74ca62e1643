"""How the command line words what it says of a file: on one line, the same in every sub-command.

A file name comes from the user and may hold anything a file system allows: a line break would
forge a second line of the output, and an escape sequence would reach the terminal. Every name
the command line prints goes through `printable`, and every file it cannot read or write is
told in the words of `cannot_read` and `reason`, whichever sub-command met it.
"""

from __future__ import annotations

__all__ = ["cannot_read", "counted", "printable", "reason"]


def printable(text: str) -> str:
    r"""`text` on one line, with no control character: escaped as Python writes a string.

    A text all printable is left as it is; any other is escaped whole (`\n`, `\x1b`, `\udcff`
    for a byte of a name that is not UTF-8), so that no escape can be read as another's.
    """
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")


def reason(error: BaseException) -> str:
    """Why reading or writing a file failed, without the file's name, which the line gives.

    An operating system's error is `[Errno N] what`, as Python words it; any other is its text.
    """
    if isinstance(error, OSError) and error.strerror:
        return f"[Errno {error.errno}] {error.strerror}"
    return str(error)


def cannot_read(name: str, why: str) -> str:
    """The line that says a file could not be read: `cannot read NAME: WHY`."""
    return f"cannot read {printable(name)}: {why}"


def counted(count: int, noun: str) -> str:
    """`count` and `noun`, in the plural unless one: `1 file`, `2 files`, `1,000 CPUs`."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
