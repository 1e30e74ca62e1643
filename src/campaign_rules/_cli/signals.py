"""Stopping cleanly on SIGINT (Ctrl-C) and SIGTERM: one line, a status, no worker left behind.

While a command runs, either signal raises `Stopped` in the main thread, wherever it is, so
that every `finally` and context manager on the way out runs (the worker pool of `audit` is
killed and joined there); the command line then prints one line and exits 128 + the signal's
number. Worker processes ignore both signals: a Ctrl-C reaches the whole process group, and
only the parent, which owns the workers, should answer it.

A signal that comes while Python's C code is between two system calls (a buffered read of a
pipe, a loop of writes) is noted, and its handler runs only when Python code runs again: the
next system call can wait forever on a pipe that stays open and quiet. So every wait of the
command on something outside it (a pipe, a FIFO, a worker) is a `wait_ready`, which also
wakes when a signal came, at any time before or during it (`signal.set_wakeup_fd`).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Final

from campaign_rules._cli.exits import ExitStatus

__all__ = [
    "STOP_SIGNALS",
    "Stopped",
    "ignore_in_worker",
    "ignored_in_workers",
    "stop_on_signals",
    "wait_ready",
]

# The signals that stop a command, and the status each gives.
_STATUS_OF_SIGNAL: Final = {
    signal.SIGINT: ExitStatus.INTERRUPTED,
    signal.SIGTERM: ExitStatus.TERMINATED,
}
STOP_SIGNALS: Final = tuple(_STATUS_OF_SIGNAL)
# Signal masks are POSIX: elsewhere (Windows) a worker is set to ignore them once it runs.
_CAN_MASK: Final = hasattr(signal, "pthread_sigmask")
# The reading end of the pipe a signal writes a byte to while `stop_on_signals` runs; -1 before.
_wake = -1
# The stop signal whose handler ran while `stop_on_signals` runs; 0 before. Its `Stopped` may be
# lost: a handler that runs in a finaliser (`__del__`, a weak reference's callback) raises
# there, and Python drops what a finaliser raises (`sys.unraisablehook`, which would print it
# on standard error: `_unraisable` keeps it quiet). Both signals are ignored by then, so the
# next `wait_ready` raises it again, rather than wait for a signal that cannot come.
_stopped = 0


class Stopped(BaseException):
    """The command was stopped by a signal: a `BaseException`, as `KeyboardInterrupt` is."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.status = _STATUS_OF_SIGNAL[signal.Signals(number)]


def _stop(number: int, frame: FrameType | None) -> None:
    global _stopped
    # A second signal must not break into the clean-up that the first one starts.
    for each in STOP_SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    _stopped = number
    raise Stopped(number)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM raise `Stopped`; the old handlers after it.

    Only the main thread may set handlers: in another thread the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _wake, _stopped  # one wake-up pipe for the process, as it has one handler
    _stopped = 0
    previous = {number: signal.signal(number, _stop) for number in STOP_SIGNALS}
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(previous_hook)
    pipe = _wake_up_pipe()
    if pipe is not None:
        previous_wakeup = signal.set_wakeup_fd(pipe[1], warn_on_full_buffer=False)
        _wake = pipe[0]
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        sys.unraisablehook = previous_hook
        _stopped = 0
        if pipe is not None:
            signal.set_wakeup_fd(previous_wakeup)
            _wake = -1
            for end in pipe:
                os.close(end)


def _unraisable(
    previous: Callable[[sys.UnraisableHookArgs], object],
) -> Callable[[sys.UnraisableHookArgs], object]:
    """A hook that drops a `Stopped` raised in a finaliser, and passes anything else on.

    The stop is not lost: the next `wait_ready` raises it again (`_stopped`); printed, it
    would be a traceback on standard error where the command says one line.
    """

    def hook(unraisable: sys.UnraisableHookArgs) -> object:
        if isinstance(unraisable.exc_value, Stopped):
            return None
        return previous(unraisable)

    return hook


def _wake_up_pipe() -> tuple[int, int] | None:
    """A pipe for `signal.set_wakeup_fd`, both ends non-blocking.

    `None` where `select` cannot wait on a pipe (Windows): a wait is the system call's there.
    """
    if os.name != "posix":
        return None
    read, write = os.pipe()
    for end in (read, write):
        os.set_blocking(end, False)
    return read, write


def wait_ready(fd: int, *, write: bool = False, timeout: float | None = None) -> bool:
    """Wait until `fd` can be read (or written, with `write`) without waiting; `True` then.

    While `stop_on_signals` runs, a stop signal that came before or during the wait ends it
    with its `Stopped`, whatever the C code before it did with the signal, and whatever code
    its handler ran in (`_stopped`). A descriptor set non-blocking (`OutputFile`'s FIFOs and
    devices) is waited for here, with or without it.
    With `timeout` (seconds), `False` when that time passed first.
    """
    if _stopped:
        raise Stopped(_stopped)
    deadline = None if timeout is None else time.monotonic() + timeout
    wake = [_wake] if _wake >= 0 else []
    if not wake and os.name != "posix":
        return True  # `select` waits on sockets only there: the read or write that follows waits
    readers, writers = (wake, [fd]) if write else ([fd, *wake], [])
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        readable, writable, _ = select.select(readers, writers, [], left)
        if not readable and not writable:
            return False
        if _wake not in readable:
            return True
        with contextlib.suppress(BlockingIOError):
            while os.read(_wake, 64):
                pass
        # The handler of the signal runs here, at the latest, and raises `Stopped`; a byte
        # of a signal whose handler had run already is only drained.
        if _stopped:
            raise Stopped(_stopped)
        if fd in readable or fd in writable:
            return True


@contextlib.contextmanager
def ignored_in_workers() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while the block may start worker processes.

    A worker starts with the signal mask of the thread that starts it, so the signals wait
    until `ignore_in_worker` has set the worker to ignore them, and no signal finds a worker
    between its start and that moment. The parent gets a held signal when the block ends.
    """
    if not _CAN_MASK:
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def ignore_in_worker() -> None:
    """In a worker process: ignore SIGINT and SIGTERM, then let them through (discarded)."""
    global _wake  # a forked worker has a copy of the parent's
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    with contextlib.suppress(ValueError):  # not the main thread: no wake-up pipe was set
        signal.set_wakeup_fd(-1)
    _wake = -1
    if _CAN_MASK:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
