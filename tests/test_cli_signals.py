"""Ctrl-C and SIGTERM stop `campaign-rules` with one line, 130 or 143, and no worker left.

Each test starts the real command in a session of its own and feeds it standard input through
a pipe that it keeps open: once the command has taken in more than a pipe holds, it is surely
running (its handlers set, the worker pool of `audit --jobs 2` started) and waiting for more.
Ctrl-C is SIGINT to the whole process group, as a terminal sends it, so the workers get it
too; SIGTERM goes to the command's process alone, as `kill` sends it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.audit_support import store_lines

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="the test reads child processes from /proc"
)

# More than a pipe holds (64 KiB on Linux) and more than two blocks of the audit (1 MiB each).
FEED_BYTES = 3 * 2**20 + 12_345


def _feed(kind: str) -> bytes:
    if kind == "check":
        return b" " * FEED_BYTES  # white space before a value that has not come yet
    text = "".join(line + "\n" for line in store_lines(1_000, seed=11)).encode()
    return text * (FEED_BYTES // len(text) + 1)


def _children(pid: int) -> set[int]:
    """The processes `pid` has started and not yet reaped."""
    children: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        children.update(int(child) for child in (task / "children").read_text().split())
    return children


def _alive(pid: int, started: str) -> bool:
    """Whether process `pid` is still the process that had start time `started`."""
    try:
        return _start_time(pid) == started
    except OSError:
        return False


def _start_time(pid: int) -> str:
    # Field 22 of /proc/PID/stat, counted after the command name (which may hold spaces).
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]


COMMANDS = {
    "audit --jobs 1": ["audit", "--jobs", "1", "-"],
    "audit --jobs 2": ["audit", "--jobs", "2", "-"],
    "check": ["check", "-"],
}
STOPS = {
    "Ctrl-C": (signal.SIGINT, True, 130, "interrupted (Ctrl-C, SIGINT)"),
    "SIGTERM": (signal.SIGTERM, False, 143, "terminated (SIGTERM)"),
}


@contextlib.contextmanager
def running(argv: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    """`campaign-rules ARGV` in a session of its own, fed more than it can read at once.

    Whatever happens in the block, no process of the session is left behind.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "campaign_rules", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.stdin is not None
        process.stdin.write(_feed(argv[0]))  # returns once the command has read most of it
        process.stdin.flush()
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_signal_stops_the_command_with_one_line_and_no_worker_left(name, stop):
    number, whole_group, status, meaning = STOPS[stop]
    argv = COMMANDS[name]
    jobs = int(argv[2]) if argv[1] == "--jobs" else 1
    with running(argv) as process:
        workers: set[int] = set()
        deadline = time.monotonic() + 30
        while jobs > 1 and len(workers) < jobs and time.monotonic() < deadline:
            workers = _children(process.pid)
            time.sleep(0.05)
        assert len(workers) == (jobs if jobs > 1 else 0)
        started = {pid: _start_time(pid) for pid in workers}
        if whole_group:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
        out, err = process.communicate(timeout=30)
    assert process.returncode == status
    assert err.decode() == f"campaign-rules: {argv[0]} {meaning}\n"
    assert out == b""
    assert [pid for pid in workers if _alive(pid, started[pid])] == []


def test_a_stopped_audit_leaves_its_rows_but_no_empty_report(tmp_path):
    report, rows = tmp_path / "report.html", tmp_path / "rows.jsonl"
    argv = ["audit", "--jobs", "1", "--html", str(report), "--violations", str(rows), "-"]
    with running(argv) as process:
        assert report.exists()  # opened before the audit began
        os.killpg(process.pid, signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 130
    assert not report.exists()
    assert rows.stat().st_size > 0  # the rows written before the stop stay (D-cli-signals)
