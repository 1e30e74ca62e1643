"""Ctrl-C and SIGTERM stop `campaign-rules` with one line, 130 or 143, and no worker left.

Each test starts the real command in a session of its own and feeds it standard input through
a pipe that it keeps open: once the command has taken in more than a pipe holds, it is surely
running (its handlers set, the worker pool of `audit --jobs 2` started) and waiting for more.
Ctrl-C is SIGINT to the whole process group, as a terminal sends it, so the workers get it
too; SIGTERM goes to the command's process alone, as `kill` sends it.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_rules._cli.audit import CHUNK_BYTES
from campaign_rules._core.limits import BODY_MAX_BYTES
from campaign_rules.audit import audit_chunk
from tests.audit_support import store_lines
from tests.cli_support import (
    COMMAND,
    children,
    fifo_reader,
    group,
    has_open,
    needs_proc,
    read_exactly,
    started,
    wait_until,
    where_they_wait,
)

pytestmark = needs_proc

# More than a pipe holds (64 KiB on Linux) and more than two blocks of the audit (1 MiB each).
FEED_BYTES = 3 * 2**20 + 12_345
# For `check`: more than a pipe holds, and less than a body may be, so that it waits for more
# (past the limit, it stops reading and answers).
CHECK_FEED_BYTES = BODY_MAX_BYTES // 2


def _feed(kind: str) -> bytes:
    if kind == "check":
        return b" " * CHECK_FEED_BYTES  # white space before a value that has not come yet
    text = "".join(line + "\n" for line in store_lines(1_000, seed=11)).encode()
    return text * (FEED_BYTES // len(text) + 1)


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
            workers = children(process.pid)
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


@pytest.fixture(scope="module")
def long_store(tmp_path_factory):
    """A store of some blocks of records, and the size of its violation rows."""
    unit = "".join(line + "\n" for line in store_lines(1_000, seed=11)).encode()
    data = unit * (STORE_BLOCKS * CHUNK_BYTES // len(unit) + 1)
    path = tmp_path_factory.mktemp("signals") / "store.jsonl"
    path.write_bytes(data)
    rows = audit_chunk(data.splitlines(), first_line=1, rows=True)[1]
    return path, len(rows.encode())


# Blocks of the store: more than two workers hold, so that some are read, audited and written
# while others wait.
STORE_BLOCKS = 6
# Rows left unread at the moment "last blocks": more than a pipe holds (64 KiB), so the command
# is still writing the rows of its last block when the signal comes.
LAST_UNREAD = 96 * 1024
# The moments of a run at which a signal is sent: how much of the rows the test reads first.
# "opened": the command has opened its outputs, its pool is about to start; "one worker": the
# first worker has started; then fractions of the rows, the last with LAST_UNREAD left.
MOMENTS = ["opened", "one worker", "first rows", "a third", "two thirds", "last blocks"]
FRACTIONS = {"first rows": 0.0, "a third": 1 / 3, "two thirds": 2 / 3}


@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("moment", MOMENTS)
def test_a_signal_at_any_moment_of_an_audit_ends_it_and_all_its_workers(
    tmp_path, long_store, moment, stop
):
    # The rows go to a FIFO that the test reads: the command cannot write more rows than the
    # test has read and a pipe holds, so reading a part of them is being at a moment of the run.
    number, whole_group, status, meaning = STOPS[stop]
    store, rows_size = long_store
    fifo = tmp_path / "rows.fifo"
    argv = ["audit", "--jobs", "2", "--violations", str(fifo), str(store)]
    with fifo_reader(fifo) as reader, started(argv) as process:
        wait_until(lambda: has_open(process.pid, fifo) or process.poll() is not None, 60, "open")
        if moment == "one worker":
            wait_until(lambda: children(process.pid) or process.poll() is not None, 60, "a worker")
        elif moment != "opened":
            wanted = (
                rows_size - LAST_UNREAD
                if moment == "last blocks"
                else 1 + int(FRACTIONS[moment] * rows_size)
            )
            assert len(read_exactly(reader, wanted, process, 60)) == wanted
        assert process.poll() is None  # still running: the moment is in the run
        if whole_group:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            where = where_they_wait(process.pid)
            raise AssertionError(
                f"still running 10 s after {stop} at {moment!r}:\n{where}"
            ) from None
        assert group(process.pid) == set()  # no worker left
        assert process.returncode == status
        assert process.stderr is not None
        assert process.stderr.read().decode() == f"campaign-rules: audit {meaning}\n"


# The command line run with SIGINT and SIGTERM blocked in its main thread, and a second thread
# that takes them: the kernel gives a signal to that thread, and a system call of the main
# thread goes on as if none had come, as one does when the signal came just before it.
ON_ANOTHER_THREAD = [
    sys.executable,
    "-c",
    "import signal, sys, threading\n"
    "threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
    "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})\n"
    "from campaign_rules._cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n",
]


def _sleeping(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "S"
    return False


def _unread(fd: int) -> int:
    """The bytes a pipe holds, read at its reading end `fd`."""
    held = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, held)
    return held[0]


@pytest.mark.parametrize("thread", ["main thread", "another thread"])
def test_a_signal_ends_the_wait_on_a_fifo_nobody_reads(tmp_path, long_store, thread):
    # The reader of the rows stops reading: the command fills the FIFO and waits for room. A
    # SIGTERM then ends it, whichever thread takes the signal: the command's wait is one that
    # the signal's wake-up ends, never a write that waits (it writes what fits, then waits).
    store, rows_size = long_store
    fifo = tmp_path / "rows.fifo"
    argv = ["audit", "--jobs", "1", "--violations", str(fifo), str(store)]
    command = ON_ANOTHER_THREAD if thread == "another thread" else COMMAND
    with fifo_reader(fifo) as reader, started(argv, command) as process:
        assert rows_size > fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ)  # more than the FIFO holds
        # One job audits in the command's own process: once it has written rows, it sleeps
        # only waiting for room in the FIFO.
        wait_until(
            lambda: (_unread(reader) > 0 and _sleeping(process.pid)) or process.poll() is not None,
            60,
            "the command waits for room in the FIFO",
        )
        assert process.poll() is None
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            where = where_they_wait(process.pid)
            raise AssertionError(f"still running 10 s after SIGTERM:\n{where}") from None
        assert process.returncode == 143
        assert process.stderr is not None
        assert process.stderr.read().decode() == "campaign-rules: audit terminated (SIGTERM)\n"


def test_the_workers_die_with_their_parent_even_by_sigkill(tmp_path, long_store):
    store, _ = long_store
    fifo = tmp_path / "rows.fifo"
    argv = ["audit", "--jobs", "2", "--violations", str(fifo), str(store)]
    with fifo_reader(fifo) as reader, started(argv) as process:
        wait_until(lambda: has_open(process.pid, fifo), 60, "the command opens its rows")
        read_exactly(reader, 1, process, 60)  # the command writes rows: its workers run
        wait_until(lambda: len(children(process.pid)) == 2, 60, "two workers")
        workers = children(process.pid)
        os.kill(process.pid, signal.SIGKILL)  # no handler runs, no clean-up
        process.wait(timeout=10)
        wait_until(lambda: not group(process.pid) & workers, 10, "the workers end")


# The moments of the start at which a signal is sent: once the interpreter has imported each of
# these modules (`-X importtime` writes a line on standard error as each import ends). Each comes
# after the command's first line of code, which sets the handlers, and before it reads anything:
# from the first import of the sub-commands to the last. Each is a module both builds leave
# interpreted, or the standard library's: a compiled module is loaded from the build's shared
# library, and `-X importtime` writes no line for it.
EARLY_MOMENTS = [
    "argparse",
    "campaign_rules._cli.outputs",
    "campaign_rules._export.links",
    "campaign_rules._cli.audit",
    "campaign_rules._cli.commands",
]
_IMPORT_TIME = "import time:"


@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("moment", EARLY_MOMENTS)
def test_a_signal_during_the_start_ends_the_command_with_one_line(moment, stop):
    # Standard input is a pipe the test holds open and never writes: unstopped, the command
    # would wait for it for ever, so that whatever it is doing when the signal comes, it has
    # not ended on its own.
    number, whole_group, status, meaning = STOPS[stop]
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "campaign_rules", "check", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    # Should the moment never come, the command is killed, and the test fails.
    guard = threading.Timer(60, os.killpg, (process.pid, signal.SIGKILL))
    guard.start()
    try:
        assert process.stderr is not None
        said = []
        while (line := process.stderr.readline().decode()).rpartition("|")[2].strip() != moment:
            assert line, f"the command ended before it imported {moment}: {''.join(said)}"
            said.append(line)
        guard.cancel()
        if whole_group:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            where = where_they_wait(process.pid)
            raise AssertionError(f"still running 30 s after {stop} at {moment}:\n{where}") from None
    finally:
        guard.cancel()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    lines = [
        line
        for line in [*said, *err.decode().splitlines(True)]
        if not line.startswith(_IMPORT_TIME)
    ]
    assert process.returncode == status, lines
    # The sub-command's name when it was known by then.
    assert lines in (
        [f"campaign-rules: {meaning}\n"],
        [f"campaign-rules: check {meaning}\n"],
    )
    assert out == b""


def test_the_entry_imports_nothing_of_the_sub_commands_before_its_handlers():
    # What the command imports before `main` sets the handlers: the package's root and the
    # entry module, which must import none of the rules, nor the sub-commands, nor argparse.
    code = (
        "import sys, campaign_rules._cli;"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('campaign_rules.')"
        " or m in ('campaign_rules', 'argparse'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True)
    assert done.stdout.split() == [
        "campaign_rules",
        "campaign_rules._cli",
        "campaign_rules._cli.exits",
        "campaign_rules._cli.signals",
        "campaign_rules._core",
        "campaign_rules._core.compiled",
    ]


class _SignalsItselfWhenFreed:
    """An object whose finaliser sends this process SIGTERM and runs on until it is handled."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100_000):  # backward jumps: the handler runs here, in the finaliser
            pass


class _RaisesWhenFreed:
    """An object whose finaliser raises `ValueError`: an error of the program, not a stop."""

    def __del__(self) -> None:
        raise ValueError("freed")


def test_a_stop_raised_in_a_finaliser_is_not_printed_and_other_errors_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Python hands what a finaliser raises to `sys.unraisablehook`, which prints it: a stop's
    # traceback on standard error, after the command's one line, was seen in CI.
    from campaign_rules._cli.signals import Stopped, stop_on_signals, wait_ready

    handed: list[type[BaseException] | None] = []
    monkeypatch.setattr(
        sys, "unraisablehook", lambda unraisable: handed.append(unraisable.exc_type)
    )
    read, write = os.pipe()
    try:
        with stop_on_signals():
            freed: object = _RaisesWhenFreed()
            del freed
            freed = _SignalsItselfWhenFreed()
            del freed
            with pytest.raises(Stopped):
                wait_ready(read, timeout=5)
    finally:
        os.close(read)
        os.close(write)
    assert handed == [ValueError]
    hook = sys.unraisablehook
    assert getattr(hook, "__name__", "") == "<lambda>"  # the hook it found, given back


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_stop_its_handler_raised_in_a_finaliser_still_ends_the_next_wait() -> None:
    # Python prints and drops what a finaliser raises, so the `Stopped` of a signal handled
    # there is lost; the handler has set both signals to be ignored by then, so the command's
    # next wait (here on a pipe nobody writes) must end by itself, or it waits for ever.
    from campaign_rules._cli.signals import Stopped, stop_on_signals, wait_ready

    read, write = os.pipe()
    try:
        with stop_on_signals():
            freed = _SignalsItselfWhenFreed()
            del freed  # its finaliser runs the handler, whose exception Python drops
            with pytest.raises(Stopped):
                wait_ready(read, timeout=5)  # without the fix: `False` after 5 s, or for ever
    finally:
        os.close(read)
        os.close(write)
