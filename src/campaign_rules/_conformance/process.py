"""The executor as a process: one request line written, one answer line read, each in a time.

The process runs in a session of its own, so that it and whatever it starts are ended
together: when its input ends it has a moment to exit, then it is killed; on an error or a
signal of the run it is killed at once, and always reaped (no process is left behind).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Final

from campaign_rules._conformance.executor import LINE_MAX_BYTES
from campaign_rules._conformance.lines import (
    LineReader,
    LineTooLong,
    TimedOut,
    deadline_after,
    write_all,
)

__all__ = ["EXIT_GRACE_SECONDS", "ExecutorFailed", "ExecutorProcess"]

# How long an executor whose input ended may take to exit before it is killed.
EXIT_GRACE_SECONDS: Final = 5.0
# How much of a line that is not the protocol's an error shows.
_SHOWN_BYTES: Final = 200


class ExecutorFailed(Exception):
    """The executor timed out, ended, or wrote a line that is not the protocol's: status 2."""


class ExecutorProcess:
    """A started executor; a context manager that ends it."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self._timeout = timeout
        try:
            self._process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            raise ExecutorFailed(f"cannot start the executor {list(command)}: {error}") from None
        try:
            assert self._process.stdin is not None  # both are pipes: PIPE was asked for
            assert self._process.stdout is not None
            self._stdin = self._process.stdin
            os.set_blocking(self._stdin.fileno(), False)  # a write waits at most the timeout
            self._answers = LineReader(self._process.stdout.fileno(), LINE_MAX_BYTES)
        except BaseException:  # a signal before the `with` block that would end it
            self._process.kill()
            self._process.wait()
            raise

    def __enter__(self) -> ExecutorProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.end(at_once=error is not None)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The executor's answer to `request`: a JSON object with the request's id.

        `ExecutorFailed`, naming the case, when no answer came in the time, the executor ended,
        or its line is not a JSON object with that id.
        """
        case_id = request["id"]
        deadline = deadline_after(self._timeout)
        line = json.dumps(request, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n"
        try:
            write_all(self._stdin.fileno(), line, deadline)
            answer = self._answers.next_line(deadline)
        except TimedOut:
            raise ExecutorFailed(
                f"case {case_id}: no answer within {self._timeout:g} s (--timeout)"
            ) from None
        except LineTooLong:
            raise ExecutorFailed(
                f"case {case_id}: the executor wrote a line longer than {LINE_MAX_BYTES:,} bytes"
            ) from None
        except BrokenPipeError:
            answer = None
        if answer is None:
            raise ExecutorFailed(f"case {case_id}: the executor ended {self._ending()}")
        try:
            decoded = json.loads(answer.decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested too deep
            decoded = None
        if type(decoded) is not dict or decoded.get("id") != case_id:
            raise ExecutorFailed(
                f"case {case_id}: the executor wrote a line that is not the protocol's answer "
                f"to it: {answer[:_SHOWN_BYTES]!r}"
            )
        return decoded

    def end(self, *, at_once: bool = False) -> int | None:
        """End the executor: its input closed, a moment to exit unless `at_once`, then killed.

        Its exit status; `None` when it had to be killed.
        """
        with contextlib.suppress(OSError):
            self._stdin.close()
        status: int | None = None
        try:
            if not at_once:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    status = self._process.wait(EXIT_GRACE_SECONDS)
        finally:
            if self._process.poll() is None:
                # The session's group is the executor's own while it is not reaped.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
                status = None
            if self._process.stdout is not None:
                self._process.stdout.close()
        return status

    def _ending(self) -> str:
        """How the executor ended, once it has: its exit status, or the signal that ended it."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            status = self._process.wait(EXIT_GRACE_SECONDS)
            if status < 0:
                return f"(killed by {signal.Signals(-status).name}) before answering"
            return f"(exit status {status}) before answering"
        return "its output before answering"
