"""JSON lines over pipes: reading them as they come and writing them whole, each in a time.

Every wait is `_cli.signals.wait_ready`, so that SIGINT and SIGTERM stop a run or a `serve`
waiting on a quiet pipe, and a wait may end at a deadline: an executor that stops answering
is told from a slow one by the per-case timeout alone.
"""

from __future__ import annotations

import os
import time

from campaign_rules._cli.signals import wait_ready

__all__ = ["LineReader", "LineTooLong", "TimedOut", "deadline_after", "write_all"]

_CHUNK = 1 << 16


class TimedOut(Exception):
    """The pipe was not ready before the deadline."""


class LineTooLong(Exception):
    """A line longer than the reader's limit: it was read to its end and dropped."""


def deadline_after(seconds: float | None) -> float | None:
    """The `time.monotonic()` reading `seconds` from now; `None` for no deadline."""
    return None if seconds is None else time.monotonic() + seconds


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class LineReader:
    """The lines of a file descriptor, each without its line feed, read as they come."""

    def __init__(self, fd: int, limit: int) -> None:
        self._fd = fd
        self._limit = limit  # the longest line kept, in bytes: no input grows the buffer past it
        self._buffer = bytearray()
        self._searched = 0  # the buffer holds no `\n` before this
        self._ended = False
        self._dropping = False  # the line being read is too long: its bytes are not kept

    def next_line(self, deadline: float | None = None) -> bytes | None:
        """The next line; `None` at the end of the input; `TimedOut` past `deadline`.

        A last line with no line feed after it is a line too. A line over the limit is read to
        its end and dropped, then `LineTooLong` is raised; the next call reads the line after.
        """
        while True:
            end = self._buffer.find(b"\n", self._searched)
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                self._searched = 0
                return self._kept(line)
            self._searched = len(self._buffer)
            if self._searched > self._limit:
                self._dropping = True
                self._buffer.clear()
                self._searched = 0
            if self._ended:
                if not self._buffer and not self._dropping:
                    return None
                line = bytes(self._buffer)
                self._buffer.clear()
                self._searched = 0
                return self._kept(line)
            if not wait_ready(self._fd, timeout=_left(deadline)):
                raise TimedOut
            chunk = os.read(self._fd, _CHUNK)
            if chunk:
                self._buffer += chunk
            else:
                self._ended = True

    def _kept(self, line: bytes) -> bytes:
        if self._dropping or len(line) > self._limit:
            self._dropping = False
            raise LineTooLong
        return line


def write_all(fd: int, data: bytes, deadline: float | None = None) -> None:
    """Write all of `data` to `fd` (non-blocking or not); `TimedOut` past `deadline`.

    `BrokenPipeError` when the reader has gone.
    """
    view = memoryview(data)
    while view:
        if not wait_ready(fd, write=True, timeout=_left(deadline)):
            raise TimedOut
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            continue
        view = view[written:]
