"""A version driven through its executor: `OLD conformance serve`, one process for the diff.

Requests go to its standard input one JSON line each, from a thread of their own, while the
answers are read here: neither pipe can fill while the other waits (the protocol's transport).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import select
import subprocess
import threading
from collections.abc import Sequence
from typing import IO

from campaign_rules._cli.signals import wait_ready
from campaign_rules._diff.environment import environment_of_command
from campaign_rules._diff.sides import (
    Answer,
    CannotCompare,
    Description,
    Environment,
    Request,
    description_of,
    failed_answer,
)

__all__ = ["Printing", "ProcessSide"]

# How long a command may take to print its rules or its schema, or to describe itself.
_PATIENCE_SECONDS = 120
# How many times a diff starts an executor again after it ended on a request: past that, the
# version cannot be compared (each restart costs a start of the interpreter).
_MOST_RESTARTS = 100


class ProcessSide:
    """The version behind `command`, judged by its executor process."""

    def __init__(self, command: str, executor: subprocess.Popen[bytes], told: Description):
        self._command = command
        self._executor = executor
        self._told = told
        # `rules --json` and `schema`, started together once the executor has answered.
        self._printing: dict[str, Printing] = {}
        assert executor.stdout is not None
        self._lines = _Lines(executor.stdout.fileno())
        self._restarts = 0

    @classmethod
    def start(cls, command: str) -> ProcessSide | None:
        """Its executor, started and described; None when `command` speaks no protocol 1."""
        executor = _executor_of(command)
        side = cls(command, executor, Description("", None, None, ()))
        try:
            description = side._described()
        except BaseException:  # a stop signal too: the executor is ended before it goes on
            side.close()
            raise
        if description is None:
            side.close()
            return None
        side._told = description
        for arguments in (["rules", "--json"], ["schema"]):
            side._printing[arguments[0]] = Printing(command, arguments)
        return side

    def _described(self) -> Description | None:
        """The executor's answer to `describe`; None when it gives no protocol-1 answer."""
        asked = b'{"id": "describe", "kind": "describe"}\n'
        if not _answers_within(self._executor, _PATIENCE_SECONDS, asked):
            return None
        try:
            (told,) = self._read_answers([{"id": "describe"}])
        except CannotCompare:
            return None
        return description_of(told)

    def describe(self) -> Description:
        """What its executor said of itself."""
        return self._told

    def rules(self) -> list[dict[str, object]]:
        """The rows of its `rules --json`."""
        printed = self._printing["rules"].read()
        rows = printed.get("rules") if isinstance(printed, dict) else None
        if not isinstance(rows, list):
            raise CannotCompare(f"{self._command} rules --json gives no rules")
        return [row for row in rows if isinstance(row, dict)]

    def bounds(self) -> dict[str, object] | None:
        """Its `schema`, or None when it prints none."""
        try:
            printed = self._printing["schema"].read()
        except CannotCompare:
            return None
        return printed if isinstance(printed, dict) else None

    def environment(self) -> Environment:
        """The tzdata of the interpreter that runs it."""
        return environment_of_command(self._command)

    def judge(self, requests: Sequence[Request]) -> list[Answer]:
        """Its executor's answers; a request it ends on is answered failed, and it is restarted.

        A version that raises on a body (a mutant whose value objects refuse what its rules let
        through) ends its executor: a server running it answers that body 500, so the diff
        answers it so (`failed`, D-diff-legacy) and goes on with the next request.
        """
        answers: list[Answer] = []
        while len(answers) < len(requests):
            answers += self._exchange(requests[len(answers) :])
            if len(answers) < len(requests):
                ended = self._restarted()
                answers.append(
                    {"id": requests[len(answers)].get("id")}
                    | failed_answer(f"its executor ended on it (exit status {ended})")
                )
        return answers

    def _restarted(self) -> int | None:
        """The executor started again, after the one that ended; the ended one's exit status."""
        self._restarts += 1
        if self._restarts > _MOST_RESTARTS:
            raise CannotCompare(
                f"{self._command} conformance serve ended on {_MOST_RESTARTS} requests"
            )
        ended = self._executor
        if ended.stdin is not None:
            with contextlib.suppress(OSError):
                ended.stdin.close()
        status = ended.wait()
        if ended.stdout is not None:
            ended.stdout.close()
        self._executor = _executor_of(self._command)
        assert self._executor.stdout is not None
        self._lines = _Lines(self._executor.stdout.fileno())
        return status

    def close(self) -> None:
        """Ends the executor: its input closed, then waited for (a kill if it lingers)."""
        for printing in self._printing.values():
            printing.end()
        executor = self._executor
        if executor.stdin is not None and not executor.stdin.closed:
            with contextlib.suppress(OSError):
                executor.stdin.close()
        try:
            executor.wait(timeout=10)
        except subprocess.TimeoutExpired:
            executor.kill()
            executor.wait()
        if executor.stdout is not None:
            executor.stdout.close()

    def _exchange(self, requests: Sequence[Request]) -> list[Answer]:
        executor = self._executor
        assert executor.stdin is not None
        assert executor.stdout is not None
        lines = [json.dumps(request).encode("ascii") + b"\n" for request in requests]
        writer = threading.Thread(target=_write_all, args=(executor.stdin, lines), daemon=True)
        writer.start()
        answers = self._read_answers(requests, partial=True)
        writer.join()
        return answers

    def _read_answers(self, requests: Sequence[Request], *, partial: bool = False) -> list[Answer]:
        """One answer line per request, each with its id (`partial`: up to the output's end)."""
        answers: list[Answer] = []
        for request in requests:
            line = self._lines.next_line()
            if not line and partial:
                return answers
            if not line:
                raise CannotCompare(f"{self._command} conformance serve stopped answering")
            try:
                answered = json.loads(line)
            except ValueError:
                raise CannotCompare(
                    f"{self._command} conformance serve answered a line that is not JSON"
                ) from None
            if not isinstance(answered, dict) or answered.get("id") != request.get("id"):
                raise CannotCompare(f"{self._command} conformance serve answered out of order")
            answers.append(answered)
        return answers


def _executor_of(command: str) -> subprocess.Popen[bytes]:
    """`command conformance serve`, started."""
    try:
        return subprocess.Popen(
            [command, "conformance", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError as error:
        raise CannotCompare(f"cannot run {command}: {error.strerror}") from None


class _Lines:
    """The lines of a pipe, each read after `wait_ready`, so a stop signal ends any wait."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._whole: collections.deque[bytes] = collections.deque()
        self._part = b""

    def next_line(self) -> bytes:
        """The next line, with its line feed; the rest at the end of the output; b"" after it."""
        while not self._whole:
            wait_ready(self._fd)
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                rest, self._part = self._part, b""
                return rest
            *lines, self._part = (self._part + chunk).split(b"\n")
            self._whole.extend(line + b"\n" for line in lines)
        return self._whole.popleft()


def _answers_within(executor: subprocess.Popen[bytes], seconds: float, line: bytes) -> bool:
    """Whether the executor, sent `line`, has output to read (or has ended) within `seconds`.

    A command that reads its input and never answers (not an executor) is left here, not
    waited for forever.
    """
    assert executor.stdin is not None
    assert executor.stdout is not None
    try:
        executor.stdin.write(line)
        executor.stdin.flush()
    except OSError:
        pass  # it left already: its output's end says so
    ready, _, _ = select.select([executor.stdout], [], [], seconds)
    return bool(ready)


def _write_all(into: IO[bytes], lines: list[bytes]) -> None:
    try:
        for line in lines:
            into.write(line)
        into.flush()
    except OSError:
        pass  # the executor left: the reader sees its output end and says so


class Printing:
    """A command started for what it prints as JSON, read when first asked."""

    def __init__(self, command: str, arguments: list[str]) -> None:
        self._shown = " ".join([command, *arguments])
        self._printed: object = None
        self._error: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._process = subprocess.Popen(
                [command, *arguments], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
        except OSError as error:
            self._error = f"cannot run {self._shown}: {error.strerror}"

    def read(self) -> object:
        """What it printed, as JSON; `CannotCompare` when it failed or printed no JSON."""
        process = self._process
        if process is not None:
            self._process = None
            try:
                output, _ = process.communicate(timeout=_PATIENCE_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                output = b""
                self._error = f"{self._shown} printed nothing in {_PATIENCE_SECONDS} s"
            if self._error is None and process.returncode != 0:
                self._error = f"{self._shown} exited {process.returncode}"
            if self._error is None:
                try:
                    self._printed = json.loads(output)
                except ValueError:
                    self._error = f"{self._shown} printed no JSON"
        if self._error is not None:
            raise CannotCompare(self._error)
        return self._printed

    def end(self) -> None:
        """Ends the command if it was never read."""
        process = self._process
        if process is not None:
            self._process = None
            process.kill()
            process.communicate()
