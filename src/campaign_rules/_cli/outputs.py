"""What the command line writes: whole files or none, standard output, and their errors.

A file the command writes (`audit --html`, `--violations`) is made whole or not at all, and a
command that fails or is stopped removes nothing it did not make (D-cli-outputs): a regular
file, or a path where nothing is, is written to a temporary file beside it, created
exclusively, and renamed into place only when the command succeeds; anything else (a FIFO, a
device such as /dev/null, the command's own standard output) is written in place, never
removed and never truncated. Every failure to write, to such a file or to standard output (a
full disk, a reader that left, a closed descriptor), is a `CannotWrite`, which the command line
reports in one line with exit status 2.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import IO, Final

from campaign_rules._cli.signals import Stopped, wait_ready
from campaign_rules._cli.wording import printable
from campaign_rules._cli.wording import reason as _reason

__all__ = ["CannotWrite", "OutputFile", "guarded_stdout", "output_file"]

# The descriptors of standard input, output and error.
_STANDARD_FDS: Final = (0, 1, 2)
# Tries at a free name for a temporary file before giving up (each name has 64 random bits).
_NAME_TRIES: Final = 16


class CannotWrite(Exception):
    """An output could not be written; the message names it and says why, on one line."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"cannot write {printable(name)}: {reason}")


class OutputFile:
    """One output file of a command, open for writing text (see the module's documentation).

    `write` raises `CannotWrite`. `commit` puts the file in place when the command succeeded;
    a file never committed is discarded when `output_file` ends, and only a temporary file
    this object made is ever removed. Nothing is buffered here: each `write` is written at
    once, so that discarding never waits on a reader (a FIFO nobody reads).
    """

    def __init__(self, path: str, fd: int, temporary: str | None, target: str) -> None:
        self.path = path
        self._fd = fd
        self._temporary = temporary
        self._target = target
        self._done = False

    def write(self, text: str) -> None:
        """Write `text` as UTF-8, or raise `CannotWrite`."""
        data = memoryview(text.encode("utf-8", errors="backslashreplace"))
        try:
            while data:
                try:
                    data = data[os.write(self._fd, data) :]
                except BlockingIOError:  # a FIFO or a device that takes nothing now
                    wait_ready(self._fd, write=True)
        except OSError as error:
            raise CannotWrite(self.path, _reason(error)) from None

    def commit(self) -> None:
        """Close the file and, for a regular file, rename it into place."""
        self._done = True
        try:
            os.close(self._fd)
            if self._temporary is not None:
                os.replace(self._temporary, self._target)
        except OSError as error:
            self._remove_temporary()
            raise CannotWrite(self.path, _reason(error)) from None

    def discard(self) -> None:
        """Close the file and remove the temporary file, if any; the path is left as it was."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self._remove_temporary()

    def _remove_temporary(self) -> None:
        if self._temporary is not None:
            with contextlib.suppress(OSError):
                os.remove(self._temporary)


@contextlib.contextmanager
def output_file(path: str) -> Iterator[OutputFile]:
    """`path` open for writing, as `OutputFile` says; `CannotWrite` when it cannot be opened.

    A symbolic link is followed: the file it names is replaced, and the link stays.
    """
    output = _open(path)
    try:
        yield output
    finally:
        output.discard()  # nothing when committed


def _open(path: str) -> OutputFile:
    target = os.path.realpath(path)
    try:
        status: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise CannotWrite(path, _reason(error)) from None
    if status is not None and (not stat.S_ISREG(status.st_mode) or _is_standard(status)):
        return _in_place(path, target, status)
    # Imported on first use: of the commands, only those that write a file name one beside it.
    import secrets

    directory, name = os.path.split(target)
    for _ in range(_NAME_TRIES):
        temporary = os.path.join(directory, f".{name}.{secrets.token_hex(8)}.tmp")
        try:
            # O_EXCL: never a file that was there before, nor one a link points to.
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            raise CannotWrite(path, f"cannot make a file beside it: {_reason(error)}") from None
        if status is not None:  # the file it replaces keeps its permissions
            with contextlib.suppress(OSError):
                os.fchmod(fd, stat.S_IMODE(status.st_mode))
        return OutputFile(path, fd, temporary, target)
    raise CannotWrite(path, "no free name for a temporary file beside it")


def _in_place(path: str, target: str, status: os.stat_result) -> OutputFile:
    """A FIFO, a device or the command's own standard stream: written where it is."""
    # No O_TRUNC and no O_CREAT: what is there is written to, not made or emptied; a regular
    # file (standard output redirected to a file) is appended to, after what is in it.
    flags = os.O_WRONLY | os.O_CLOEXEC | (os.O_APPEND if stat.S_ISREG(status.st_mode) else 0)
    try:
        fd = os.open(target, flags)
    except OSError as error:
        raise CannotWrite(path, _reason(error)) from None
    if os.name == "posix":
        # A FIFO or a device may keep a write waiting, and a signal that came just before the
        # write would not end that wait: the write takes what fits and never waits, and the
        # wait is `wait_ready`'s, which a signal ends whenever it came. The descriptor is this
        # command's own (opened here), so no other process sees the change.
        os.set_blocking(fd, False)
    return OutputFile(path, fd, None, target)


def _is_standard(status: os.stat_result) -> bool:
    """Whether the file is this process's standard output or error (`/dev/stdout` to a file)."""
    for fd in _STANDARD_FDS[1:]:
        with contextlib.suppress(OSError):
            own = os.fstat(fd)
            if (own.st_dev, own.st_ino) == (status.st_dev, status.st_ino):
                return True
    return False


class _GuardedStream:
    """Standard output, whose write errors are `CannotWrite`.

    "It is closed" when the process began without it; everything else is the stream's own.
    """

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._call(text)

    def flush(self) -> None:
        self._call(None)

    def _call(self, text: str | None) -> int:
        """Write `text`, or flush for `None`; `CannotWrite` when that fails."""
        if self._stream is None:
            raise CannotWrite("standard output", "it is closed")
        try:
            if text is None:
                self._stream.flush()
                return 0
            return self._stream.write(text)
        except (OSError, ValueError) as error:
            raise CannotWrite("standard output", _reason(error)) from None

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """While the block runs, a failed write to standard output raises `CannotWrite`.

    What the block printed is flushed at its end (also when it exits with `SystemExit`, as
    `--help` does), so that a failure is reported here and not at the interpreter's exit. When
    a write failed, or the block was stopped by a signal, what is still buffered is dropped.
    """
    _hold_standard_fds()
    original = sys.stdout
    guarded = _GuardedStream(original)
    sys.stdout = guarded
    try:
        try:
            yield
        except SystemExit:
            guarded.flush()
            raise
        guarded.flush()
    except (CannotWrite, Stopped):
        _drop_buffered(original)
        raise
    finally:
        sys.stdout = original


def _hold_standard_fds() -> None:
    """Point a closed standard descriptor at /dev/null, so that no file opened later takes it.

    `sys.stdin` or `sys.stdout` stays `None` (Python's mark of a stream it began without), so
    reading or writing it still fails, with a one-line reason; but a report opened as
    descriptor 1 could receive what anything writes to "standard output".
    """
    for fd in _STANDARD_FDS:
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def _drop_buffered(stream: IO[str] | None) -> None:
    """Send what `stream` (the process's standard output) still holds to /dev/null."""
    try:
        fd = stream.fileno() if stream is not None else -1
    except (OSError, ValueError):
        return
    if fd == 1:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
