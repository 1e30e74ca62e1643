"""Worker processes that cannot outlive their parent, hang it, or hold back a signal.

`workers(function, jobs)` runs `function` on tasks in at most `jobs` worker processes, each
with a pipe of its own: tasks go to the workers in turn, one at a time each, and results come
back in the order of the tasks. There is no queue, no feeder thread and no helper thread: the
parent's only waits are on a pipe or a child, and a signal breaks into any of them.

- A worker starts only when a task needs it, so a small input starts few; `jobs` is bounded
  by the caller (`campaign-rules audit` by the CPUs, D-audit-jobs).
- Each start is a short moment with SIGINT and SIGTERM held back (`ignored_in_workers`), so a
  worker ignores them before any can reach it, and the parent gets a signal sent during the
  pool's start as soon as the worker being started has started.
- When the block ends early (a signal's `Stopped`, any error), every worker is killed and
  waited for. When the parent dies, even by SIGKILL, its workers die too: on Linux the kernel
  kills them (`PR_SET_PDEATHSIG`), elsewhere each finds the end of its pipe and exits.
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from campaign_rules._cli.signals import ignore_in_worker, ignored_in_workers, wait_ready

if TYPE_CHECKING:  # at run time, `multiprocessing` is imported when a pool starts
    import multiprocessing.connection
    from multiprocessing.process import BaseProcess

__all__ = ["Workers", "workers"]

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")

# prctl(2): the signal the kernel sends this process when the thread that started it ends.
_PR_SET_PDEATHSIG: Final = 1
# Fork on Linux: a worker starts at once, with nothing to import, as a child of the command
# (whose death it watches), which runs no other thread when it forks. Elsewhere a new
# interpreter (spawn), as Python does on macOS and Windows.
_START_METHOD: Final = "fork" if sys.platform.startswith("linux") else "spawn"
# How long a worker that was told to stop, and had no task, may take to exit before it is killed.
_EXIT_SECONDS: Final = 10.0


class WorkerDied(Exception):
    """A worker process ended without answering: killed from outside, or out of memory."""


class Workers(Generic[_Task, _Result]):
    """The running pool of `workers`: `submit` a task, `take` the oldest result."""

    def __init__(self, function: Callable[[_Task], _Result], jobs: int) -> None:
        self._function = function
        self._jobs = jobs
        self._processes: list[BaseProcess] = []
        self._pipes: list[multiprocessing.connection.Connection] = []
        self._order: collections.deque[int] = collections.deque()  # the worker of each task
        self._next = 0
        # Imported when a pool starts, not with the command: an audit on one job runs none.
        import multiprocessing

        self._context: Any = multiprocessing.get_context(_START_METHOD)

    @property
    def full(self) -> bool:
        """Whether every worker has a task: `take` before the next `submit`."""
        return len(self._order) >= self._jobs

    @property
    def pending(self) -> int:
        """The tasks submitted and not yet taken."""
        return len(self._order)

    def submit(self, task: _Task) -> None:
        """Send `task` to the next worker (started if it is not yet); not when `full`."""
        worker = self._next
        if worker == len(self._processes):
            self._start()
        self._pipes[worker].send(task)
        self._order.append(worker)
        self._next = (worker + 1) % self._jobs

    def take(self) -> _Result:
        """The result of the oldest task not yet taken; re-raises what the task raised."""
        worker = self._order.popleft()
        try:
            wait_ready(self._pipes[worker].fileno())
            ok, value = self._pipes[worker].recv()
        except (EOFError, OSError):
            process = self._processes[worker]
            process.join(_EXIT_SECONDS)
            raise WorkerDied(
                f"a worker process ended without its result (exit status {process.exitcode})"
            ) from None
        if not ok:
            raise value
        result: _Result = value
        return result

    def _start(self) -> None:
        mine, theirs = self._context.Pipe()
        # What the new worker must close: with fork it gets a copy of every descriptor, and a
        # copy of another worker's end (or of this end) would keep that pipe open when the
        # parent dies, so that no worker could see its parent go.
        others = [*self._pipes, mine]
        process = self._context.Process(
            target=_serve, args=(self._function, theirs, others, os.getpid()), daemon=True
        )
        self._pipes.append(mine)
        self._processes.append(process)  # before it starts: a signal may come right after
        try:
            with ignored_in_workers():
                process.start()
        finally:
            theirs.close()

    def close(self) -> None:
        """Let every worker end (its pipe closed), and wait for it; kill one that does not."""
        for pipe in self._pipes:
            pipe.close()
        for process in self._started():
            process.join(_EXIT_SECONDS)
        self.kill()

    def kill(self) -> None:
        """Kill every worker and wait for it (a worker ignores SIGINT and SIGTERM)."""
        started = self._started()
        for process in started:
            if process.exitcode is None:
                with contextlib.suppress(OSError):
                    process.kill()
        for process in started:
            process.join()
        for pipe in self._pipes:
            pipe.close()

    def _started(self) -> list[BaseProcess]:
        # A process whose start a signal cut short (before it began) has no pid.
        return [process for process in self._processes if process.pid is not None]


@contextlib.contextmanager
def workers(function: Callable[[_Task], _Result], jobs: int) -> Iterator[Workers[_Task, _Result]]:
    """At most `jobs` worker processes running `function`, ended when the block ends.

    `function` must be a module-level function (a worker may be a new interpreter that
    imports it). When the block raises, or is stopped by a signal, the workers are killed at
    once, and their results are lost.
    """
    pool: Workers[_Task, _Result] = Workers(function, jobs)
    try:
        yield pool
    except BaseException:
        pool.kill()
        raise
    pool.close()


def _serve(
    function: Callable[[Any], Any],
    pipe: multiprocessing.connection.Connection,
    others: list[multiprocessing.connection.Connection],
    parent: int,
) -> None:
    """A worker's life: answer each task read from `pipe` until the pipe ends.

    The answer is `(True, result)` or `(False, exception)`; the pipe ends when the parent
    closes it, or dies.
    """
    ignore_in_worker()
    _die_with(parent)
    for other in others:
        other.close()
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):
            break
        try:
            answer: tuple[bool, object] = (True, function(task))
        except Exception as error:
            answer = (False, error)
        try:
            pipe.send(answer)
        except OSError:
            break
    # No clean-up of the interpreter: a forked worker holds copies of the parent's buffered
    # output, which a normal exit would write a second time.
    os._exit(0)


def _die_with(parent: int) -> None:
    """Have the kernel kill this worker when its parent dies; exit if it has died already."""
    if sys.platform.startswith("linux"):
        import ctypes  # in the worker only: the parent never calls the C library

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the line above: this worker is an orphan
        os._exit(0)
