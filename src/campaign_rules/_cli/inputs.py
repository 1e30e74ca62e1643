"""What the command line reads from outside: standard input, pipes and FIFOs, interruptibly.

A pipe can stay open and send nothing; a read of it must end on Ctrl-C or SIGTERM even when the
signal came between two of the reads that one buffered read makes (`signals.wait_ready`). A
regular file never waits like that, and is read as it is.

An input may also never end (`/dev/zero`, a FIFO fed without end) or be far larger than anything
the command judges: a body is read to at most one byte past its limit (`read_at_most`), so that
the memory of a command is bounded whatever it is given (D-cli-bounded-inputs).
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from typing import BinaryIO, Final

from campaign_rules._cli.signals import wait_ready

__all__ = ["STDIN", "interruptible", "read_at_most", "standard_input"]

# The name that stands for standard input among the files of a command.
STDIN: Final = "-"


class _WaitingReader(io.RawIOBase):
    """The descriptor `fd`, read only once it has something to read (it is not closed here)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while True:
            wait_ready(self._fd)
            try:
                data = os.read(self._fd, len(buffer))
            except BlockingIOError:  # another reader was first, or a descriptor set non-blocking
                continue
            buffer[: len(data)] = data
            return len(data)


def interruptible(file: BinaryIO) -> BinaryIO:
    """`file`, or, when it is a pipe, a FIFO or a terminal, a reader of it that a signal ends.

    The new reader reads from where `file` is, and must be used instead of it.
    """
    try:
        fd = file.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return file  # not a descriptor (a test's stand-in): nothing waits outside Python
    if regular:
        return file
    return io.BufferedReader(_WaitingReader(fd))


def standard_input() -> BinaryIO:
    """Standard input as bytes; `OSError` when the process began with it closed (`<&-`)."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return interruptible(sys.stdin.buffer)


def read_at_most(path: str, limit: int) -> bytes:
    """The first `limit` + 1 bytes of the file `path` (`STDIN` for standard input), or all of it.

    A file of more than `limit` bytes is told by the length of what is returned, and none of it
    past that byte is read, whatever the file is (a device, a pipe that never ends). `OSError`
    when it cannot be opened or read.
    """
    if path == STDIN:
        return standard_input().read(limit + 1)
    with open(path, "rb") as file:
        return interruptible(file).read(limit + 1)
