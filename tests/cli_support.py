"""The real command as a process, for the tests of signals, outputs and the worker pool.

Every process is started in a session of its own (`start_new_session`), so that its workers
are in its process group: `group` lists what is left of it, read from /proc, and every helper
kills the whole group when its block ends, whatever happened in it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from campaign_rules import Violation

COMMAND = [sys.executable, "-m", "campaign_rules"]

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="the test reads processes from /proc"
)


def children(pid: int) -> set[int]:
    """The processes `pid` has started and not yet reaped."""
    found: set[int] = set()
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found.update(int(child) for child in (task / "children").read_text().split())
    return found


def group(pgid: int) -> set[int]:
    """The live processes of process group `pgid` (zombies not counted: they are gone)."""
    members: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            # Fields after the command name (which may hold spaces): state, ppid, pgrp.
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            if int(fields[2]) == pgid and fields[0] not in "ZX":
                members.add(int(entry.name))
    return members


def where_they_wait(pgid: int) -> str:
    """What each live process of group `pgid` is doing, for the message of a test that failed.

    From /proc: its state, its signals pending, blocked, ignored and caught (masks), the kernel
    function it sleeps in, and the system call it is in (its number first), so that a command
    still running after a signal says where it is stuck.
    """
    lines = []
    wanted = ("State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
    for pid in sorted(group(pgid)):
        proc = Path(f"/proc/{pid}")
        with contextlib.suppress(OSError):
            status = (proc / "status").read_text().splitlines()
            facts = [line.replace("\t", " ") for line in status if line.startswith(wanted)]
            wchan = (proc / "wchan").read_text()
            syscall = " ".join((proc / "syscall").read_text().split()[:2])
            lines.append(f"{pid}: {'; '.join(facts)}; wchan {wchan}; syscall {syscall}")
    return "\n".join(lines) or "no live process in the group"


def wait_until(ready: object, seconds: float, what: str) -> None:
    """Poll `ready()` every 10 ms until it is true; fail the test after `seconds`."""
    deadline = time.monotonic() + seconds
    while not ready():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.01)


def has_open(pid: int, path: Path) -> bool:
    """Whether process `pid` has `path` open (read from /proc)."""
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                    return True
    return False


@contextlib.contextmanager
def started(
    argv: list[str], command: Sequence[str] = COMMAND, **options: object
) -> Iterator[subprocess.Popen[bytes]]:
    """`campaign-rules ARGV`, run by `command`, in a session of its own; its group killed after."""
    process = subprocess.Popen(
        [*command, *argv],
        stdout=options.pop("stdout", subprocess.PIPE),  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        start_new_session=True,
        **options,  # type: ignore[call-overload]
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


@contextlib.contextmanager
def fifo_reader(path: Path) -> Iterator[int]:
    """A FIFO made at `path`, open for reading without waiting for a writer; its descriptor.

    Opened first, so that a command opening it to write never waits, nor does the test.
    """
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        yield reader
    finally:
        os.close(reader)


def read_exactly(fd: int, size: int, process: subprocess.Popen[bytes], seconds: float) -> bytes:
    """`size` bytes from the non-blocking `fd`, as the command writes them; fewer if it ends."""
    data = bytearray()
    deadline = time.monotonic() + seconds
    while len(data) < size:
        try:
            chunk = os.read(fd, min(size - len(data), 1 << 16))
        except BlockingIOError:
            chunk = None
        if chunk == b"":  # every writer closed it
            break
        if chunk:
            data += chunk
            continue
        if process.poll() is not None or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    return bytes(data)


def line_of(path: object, violation: Violation) -> str:
    """What `check` prints of a violation read from text (D-check-output)."""
    message = violation.message
    if violation.field is not None and not message.startswith(f"{violation.field} "):
        message = f"{violation.field}: {message}"
    return (
        f"{path}:{violation.line}:{violation.column}: {violation.key.value} {message} "
        f"[{violation.rule}]"
    )


def lines_of(path: object, violations: Sequence[Violation]) -> list[str]:
    """What `check` prints of a file's violations: in the order of the text (D-check-output)."""
    placed = sorted(violations, key=lambda v: (v.line is not None, v.line or 0, v.column or 0))
    return [line_of(path, v) for v in placed]
