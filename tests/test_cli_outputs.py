"""What the command writes: whole output files or none, and output errors as one line, exit 2.

Every test runs the real command as a process. An audit that fails or is stopped leaves each
output path as it was: a file that was there keeps its bytes, a symbolic link its target, a
device and a FIFO stay what they are, and a path where nothing was stays empty, with no
temporary file left beside it (D-cli-outputs). An output that cannot be written, standard
output included, is one line on standard error and exit status 2, from every sub-command.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.audit_support import INVALID, VALID, store_lines
from tests.cli_support import COMMAND, fifo_reader, read_exactly, started

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BEFORE = b"a file the user keeps\n"
KINDS = ["nothing", "regular file", "symbolic link", "device", "FIFO"]


@contextlib.contextmanager
def existing(kind: str, path: Path) -> Iterator[None]:
    """Make an output path of `kind` at `path` for the block (a FIFO is read meanwhile)."""
    if kind == "regular file":
        path.write_bytes(BEFORE)
    elif kind == "symbolic link":
        (path.parent / f"{path.name}.target").write_bytes(BEFORE)
        path.symlink_to(f"{path.name}.target")
    elif kind == "device":
        try:  # the numbers of /dev/null, made here: the test never touches the machine's own
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            os.close(os.open(path, os.O_WRONLY))
        except OSError as error:
            pytest.skip(f"cannot make a device node here: {error}")
    if kind == "FIFO":
        with fifo_reader(path):
            yield
    else:
        yield


def snapshot(directory: Path) -> dict[str, tuple[str, bytes | str | None]]:
    """What each entry of `directory` is, and what it holds (a link: where it points)."""
    found: dict[str, tuple[str, bytes | str | None]] = {}
    for entry in sorted(directory.iterdir()):
        mode = entry.lstat().st_mode
        if stat.S_ISLNK(mode):
            found[entry.name] = ("link", os.readlink(entry))
        elif stat.S_ISREG(mode):
            found[entry.name] = ("file", entry.read_bytes())
        else:
            found[entry.name] = (stat.filemode(mode)[0], None)
    return found


def _feeding(process: subprocess.Popen[bytes]) -> None:
    """Write more than a pipe holds: the command is auditing when this returns.

    A block and a half: the command audits the first, then waits for the rest of the second,
    and writes no rows before it has read a third (it would wait on a FIFO nobody reads).
    """
    assert process.stdin is not None
    text = "".join(line + "\n" for line in store_lines(1_000, seed=3)).encode()
    process.stdin.write(text * (3 * 2**19 // len(text) + 1))
    process.stdin.flush()


@pytest.mark.parametrize("ending", ["a file it cannot read", "SIGTERM"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_failed_or_stopped_audit_leaves_every_output_path_as_it_was(tmp_path, kind, ending):
    outputs = tmp_path / "out"
    outputs.mkdir()
    report, rows = outputs / "report.html", outputs / "rows.jsonl"
    with existing(kind, report), existing(kind, rows):
        before = snapshot(outputs)
        options = ["--html", str(report), "--violations", str(rows)]
        if ending == "SIGTERM":
            with started(["audit", "--jobs", "2", *options, "-"], stdin=subprocess.PIPE) as run:
                _feeding(run)
                os.kill(run.pid, signal.SIGTERM)
                run.wait(timeout=30)
            expected = 143
        else:
            missing = tmp_path / "absent.jsonl"
            run = subprocess.run([*COMMAND, "audit", *options, str(missing)], check=False)
            expected = 2
        assert run.returncode == expected
        assert snapshot(outputs) == before


@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_audit_writes_its_outputs_in_place(tmp_path, kind):
    store = tmp_path / "store.jsonl"
    store.write_text(f"{VALID}\n{INVALID}\n", encoding="utf-8")
    outputs = tmp_path / "out"
    outputs.mkdir()
    rows = outputs / "rows.jsonl"
    with existing(kind, rows):
        mode_before = rows.stat().st_mode if kind == "regular file" else None
        argv = ["audit", "--violations", str(rows), str(store)]
        with started(argv) as run:
            if kind == "FIFO":  # written in place: what the test reads is the rows
                reader = os.open(rows, os.O_RDONLY)
                written = read_exactly(reader, 1 << 20, run, 30)
                os.close(reader)
            run.wait(timeout=30)
        assert run.returncode == 1
        after = snapshot(outputs)
        if kind in {"nothing", "regular file"}:
            assert after["rows.jsonl"][0] == "file"
            assert after["rows.jsonl"][1].count(b'"record": 2') > 0  # type: ignore[union-attr]
            assert len(after) == 1  # no temporary file left
        if kind == "regular file":  # replaced, with the permissions it had
            assert rows.stat().st_mode == mode_before
        if kind == "symbolic link":  # the link stays; the file it names is the rows
            assert after["rows.jsonl"] == ("link", "rows.jsonl.target")
            assert b'"record": 2' in after["rows.jsonl.target"][1]  # type: ignore[operator]
        if kind == "device":
            assert after["rows.jsonl"] == ("c", None)
        if kind == "FIFO":
            assert b'"record": 2' in written
            assert after["rows.jsonl"] == ("p", None)


def test_a_new_output_gets_the_permissions_of_any_new_file(tmp_path):
    store = tmp_path / "store.jsonl"
    store.write_text(f"{VALID}\n", encoding="utf-8")
    report = tmp_path / "report.html"
    done = subprocess.run(
        ["sh", "-c", 'umask 027 && exec "$@"', "sh", *COMMAND, "audit", "--html", str(report),
         str(store)],
        capture_output=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(report.stat().st_mode) == 0o640


# Every sub-command, writing to standard output.
WRITERS = {
    "check": ["check", str(EXAMPLES / "invalid.json")],
    "check --json": ["check", "--json", str(EXAMPLES / "phone_call.json")],
    "rules": ["rules"],
    "schema": ["schema"],
    "openapi": ["openapi"],
    "audit": ["audit", "--jobs", "2", str(EXAMPLES / "phone_call.json")],
    "--help": ["audit", "--help"],
    "--version": ["--version"],
}


def _one_line_exit_2(done: subprocess.CompletedProcess[bytes], start: str) -> None:
    err = done.stderr.decode()
    assert (done.returncode, err.count("\n")) == (2, 1), err
    assert err.startswith(f"campaign-rules: {start}"), err
    assert "Traceback" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("name", list(WRITERS))
def test_a_full_disk_is_one_line_and_exit_2(name):
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*COMMAND, *WRITERS[name]], stdout=full, stderr=subprocess.PIPE, check=False
        )
    _one_line_exit_2(done, "cannot write standard output: [Errno 28] No space left on device")


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_closed_standard_output_is_one_line_and_exit_2(name):
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *COMMAND, *WRITERS[name]],
        capture_output=True,
        check=False,
    )
    _one_line_exit_2(done, "cannot write standard output: it is closed")


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_reader_that_left_is_one_line_and_exit_2(name):
    # The reading end is closed before the command starts: its first write finds no reader,
    # as when `head` has read its lines and gone.
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        done = subprocess.run(
            [*COMMAND, *WRITERS[name]], stdout=pipe, stderr=subprocess.PIPE, check=False
        )
    _one_line_exit_2(done, "cannot write standard output: [Errno 32] Broken pipe")


@pytest.mark.parametrize("command", [["check", "-"], ["audit", "-"], ["check", "--json", "-"]])
def test_a_closed_standard_input_is_one_line_and_exit_2(command):
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" <&-', "sh", *COMMAND, *command], capture_output=True, check=False
    )
    # `check` and `audit` word it as they word any file they cannot read.
    _one_line_exit_2(done, "cannot read -: [Errno 9] standard input is closed")
    # `check` still counts what it checked (none), or lists the file; `audit` prints no
    # summary of no store.
    listed = [{"file": "-", "error": "[Errno 9] standard input is closed"}]
    if command[1] == "--json":
        assert json.loads(done.stdout) == listed
    else:
        assert done.stdout in {b"", b"No files checked; 1 file could not be read\n"}


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="no /proc/version here")
@pytest.mark.parametrize("option", ["--html", "--violations"])
def test_an_output_that_cannot_be_made_is_one_line_and_exit_2(option):
    before = Path("/proc/version").read_bytes()
    done = subprocess.run(
        [*COMMAND, "audit", option, "/proc/version", str(EXAMPLES / "phone_call.json")],
        capture_output=True,
        check=False,
    )
    _one_line_exit_2(done, "cannot write /proc/version: ")
    assert done.stdout == b""
    assert Path("/proc/version").read_bytes() == before
