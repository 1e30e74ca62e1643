"""`campaign-rules audit`: the summary, its JSON, the violation rows, jobs, and bad input."""

import contextlib
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import time
import zlib

import pytest

from campaign_rules import validate_create_json
from campaign_rules._cli import audit as command
from campaign_rules._cli import main
from campaign_rules._core.limits import LINE_MAX_BYTES
from campaign_rules.audit import audit_lines, violation_rows
from tests.audit_support import (
    BROKEN,
    EDGE_LINES,
    INVALID,
    SERVER_TABLE,
    VALID,
    expected_summary,
    row_verdict,
    server_verdict,
    store_lines,
    write_store,
)
from tests.cli_support import children


@pytest.fixture
def store(tmp_path):
    return write_store(tmp_path, parts=3, count=400, seed=7)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 4 KiB instead of 1 MiB, so that a small store is many blocks."""
    monkeypatch.setattr(command, "CHUNK_BYTES", 4096)


def _all_lines(paths):
    lines = []
    for path in paths:
        data = path.read_bytes()
        lines += (gzip.decompress(data) if path.suffix == ".gz" else data).splitlines()
    return lines


def _audit_json(capsys, *args):
    status = main(["audit", "--json", *map(str, args)])
    return status, json.loads(capsys.readouterr().out)


def test_the_table_ranks_rules_with_their_key_first_records_and_summary(tmp_path, capsys):
    path = tmp_path / "store.jsonl"
    path.write_text("\n".join([VALID, "", INVALID, "[]", BROKEN, INVALID]) + "\n")
    assert main(["audit", "--jobs", "1", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "records               5",
        "valid                 1",
        "invalid               3",
        "unreadable            1  first on lines 5",
    ]
    header, first = out[5], out[6]
    assert header.split() == ["records", "rule", "key", "first", "records", "summary"]
    assert first.split()[:5] == ["2", "agent_id.is_uuid_v4", "INVALID_REQUEST", "3,", "6"]
    assert "`agent_id` is a UUID v4" in first
    assert out[-3:] == [
        "records  error key",
        "      3  INVALID_REQUEST",
        "      2  SCHEDULED_MODE_ONLY",
    ]


def test_all_valid_exits_0(tmp_path, capsys):
    path = tmp_path / "store.jsonl"
    path.write_text(f"{VALID}\n\n{VALID}")  # no line break at the end
    status, summary = _audit_json(capsys, path)
    assert status == 0
    assert (summary["records"], summary["valid"], summary["lines"]) == (2, 2, 3)


def test_the_json_summary_is_the_core_summary_of_the_files_in_order(store, capsys):
    status, summary = _audit_json(capsys, "--jobs", "1", *store)
    assert status == 1
    assert summary == audit_lines(_all_lines(store)).to_json()


def test_any_number_of_jobs_gives_the_same_summary_and_rows(store, tmp_path, capsys, small_blocks):
    outputs = []
    for jobs in ("1", "2", "3"):
        rows = tmp_path / f"rows-{jobs}.jsonl"
        status, summary = _audit_json(capsys, "--jobs", jobs, "--violations", rows, *store)
        assert status == 1
        outputs.append((summary, rows.read_text()))
    assert outputs[0] == outputs[1] == outputs[2]
    assert [json.loads(line) for line in outputs[0][1].splitlines()] == _expected_rows(store)


def _expected_rows(paths):
    """The rows of the files, numbered across them, each naming its file and its line there."""
    rows, first_line = [], 1
    for path in paths:
        lines = _all_lines([path])
        rows += violation_rows(lines, first_line=first_line, file=str(path), file_line=1)
        first_line += len(lines)
    return rows


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_line_gets_the_verdict_of_validate_create_json_and_its_row_names_its_file(
    tmp_path, capsys, small_blocks, jobs
):
    table = [line for line, _ in SERVER_TABLE]
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl.gz"
    first.write_bytes(b"\n".join([VALID.encode(), *table, b""]))
    second.write_bytes(gzip.compress(b"\n".join([*EDGE_LINES[:6], *table]) + b"\n"))
    lines = _all_lines([first, second])
    rows = tmp_path / "rows.jsonl"
    status, summary = _audit_json(capsys, "--jobs", jobs, "--violations", rows, first, second)
    assert status == 1
    counts, rules = expected_summary(lines)
    assert {name: summary[name] for name in counts} == counts
    assert {
        rule: (tally["count"], tuple(tally["first_records"]))
        for rule, tally in summary["rules"].items()
    } == rules
    for rule in {rule for _, rule in SERVER_TABLE}:
        assert rule in summary["rules"]
    found = [json.loads(row) for row in rows.read_text().splitlines()]
    assert found == _expected_rows([first, second])
    starts = {str(first): 0, str(second): len(table) + 1}
    for row in found:
        assert row["record"] == starts[row["file"]] + row["line"]
        assert row_verdict(row) in server_verdict(lines[row["record"] - 1])[1]
    assert {row["file"] for row in found} == {str(first), str(second)}


def test_a_non_json_line_is_counted_and_the_audit_goes_on(tmp_path, capsys):
    path = tmp_path / "store.jsonl"
    path.write_bytes(b"\n".join([VALID.encode(), b"{not json", b'{"name": "\xff"}', b"NaN"]))
    rows = tmp_path / "rows.jsonl"
    status, summary = _audit_json(capsys, "--violations", rows, path)
    assert status == 1
    assert (summary["valid"], summary["unreadable"], summary["unreadable_records"]) == (
        1,
        2,
        [2, 3],
    )
    # NaN is JSON to the decoder, and a number no double holds to the server: invalid.
    assert summary["rules"]["body.numbers_fit_a_double"]["first_records"] == [4]
    assert [
        (row["record"], row["rule"], row["column"])
        for row in map(json.loads, rows.read_text().splitlines())
    ] == [(2, "body.is_json", 2), (3, "body.is_utf8", 11), (4, "body.numbers_fit_a_double", 1)]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_a_missing_file_stops_the_audit_with_no_summary(store, tmp_path, capsys, as_json):
    missing = tmp_path / "absent.jsonl"
    rows = tmp_path / "rows.jsonl"
    status = main(["audit", *as_json, "--violations", str(rows), str(store[0]), str(missing)])
    assert status == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"campaign-rules: cannot read {missing}: [Errno 2] No such file or directory\n"
    )
    assert captured.out == ""
    # No rows file, nor any temporary file, for an audit that printed no summary.
    assert sorted(tmp_path.iterdir()) == sorted(store)


def test_a_file_that_cannot_be_read_prints_no_all_zero_table(tmp_path, capsys):
    assert main(["audit", str(tmp_path)]) == 2  # a directory
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"campaign-rules: cannot read {tmp_path}: [Errno 21]")


def test_a_gzip_file_cut_short_names_the_last_line_read(tmp_path, capsys):
    path = tmp_path / "store.jsonl.gz"
    lines = 3_000
    whole = gzip.compress("".join(f"{VALID}\n" for _ in range(lines)).encode())
    path.write_bytes(whole[: len(whole) * 3 // 4])
    assert main(["audit", "--json", "--jobs", "1", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    message = re.fullmatch(
        rf"campaign-rules: cannot read {re.escape(str(path))} to its end: Compressed file "
        r"ended before the end-of-stream marker was reached; the last line read was line "
        r"([\d,]+) of the file \(record ([\d,]+)\), and no summary is printed\n",
        captured.err,
    )
    assert message, captured.err
    assert message[1] == message[2]
    assert 0 < int(message[1].replace(",", "")) < lines


def test_a_file_that_shrinks_while_it_is_read_stops_the_audit(tmp_path, capsys, small_blocks):
    # The audit of the blocks read ahead ends, and `advance` runs, before the rest is read:
    # cutting the file there is a truncation half-way through the read, every time.
    path = tmp_path / "store.jsonl"
    path.write_text("".join(f"{VALID}\n" for _ in range(2_000)), encoding="utf-8")
    size = path.stat().st_size

    def rotate(records):
        os.truncate(path, size // 2)

    summary, failed = command.audit_paths([str(path)], jobs=1, advance=rotate)
    assert failed
    err = capsys.readouterr().err
    assert err.startswith(f"campaign-rules: cannot read {path} to its end: it changed while ")
    assert f"it had {size:,} bytes when opened, the read ended at byte {size // 2:,}" in err
    assert f"the last line read was line {summary.lines:,} of the file" in err


def test_a_file_cut_before_the_end_of_a_block_already_read_is_reported(tmp_path):
    # The first block is read, then the file is cut inside it: the read ends past the new
    # end of the file, which only the size at the end of the read shows.
    path = tmp_path / "store.jsonl"
    path.write_text("".join(f"{VALID}\n" for _ in range(100)), encoding="utf-8")
    blocks = command._blocks(str(path))
    first = next(blocks)
    os.truncate(path, len(first) // 2)
    with pytest.raises(command._CannotRead, match=rf"ended at byte {len(first):,}, and it has"):
        next(blocks)


def test_a_file_that_grows_while_it_is_read_is_read_to_its_new_end(tmp_path, small_blocks):
    path = tmp_path / "store.jsonl"
    path.write_text("".join(f"{VALID}\n" for _ in range(100)), encoding="utf-8")
    blocks = command._blocks(str(path))
    read = next(blocks)
    with path.open("a", encoding="utf-8") as more:
        more.write(f"{INVALID}\n")
    read += b"".join(blocks)
    assert read.count(b"\n") == 101


def test_an_unwritable_violations_file_exits_2(store, tmp_path, capsys):
    assert main(["audit", "--violations", str(tmp_path / "no" / "rows"), str(store[0])]) == 2
    assert "campaign-rules: cannot write" in capsys.readouterr().err


# `int` reads the fourth to the eighth as 3, 30, 3, 3 and 3: digits of another script, `_`
# between digits, a sign and white space are refused, as other numbers than the user may have
# meant; and a number of more digits than Python converts is refused, not a traceback.
@pytest.mark.parametrize(
    "jobs",
    ["0", "-1", "two", "\u0663", "3_0", "+3", " 3", "\uff13", "9" * 5000],
    ids=lambda jobs: repr(jobs) if len(jobs) < 10 else f"{len(jobs)} digits",
)
def test_jobs_must_be_a_positive_whole_number(jobs, store, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["audit", "--jobs", jobs, str(store[0])])
    assert exit_info.value.code == 2
    assert (
        "--jobs: must be a whole number of processes, 1 or more, written in the digits 0 to 9"
        in capsys.readouterr().err
    )


def test_the_help_says_which_extra_adds_what(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "A progress bar needs campaign-rules[progress] (tqdm)" in text
    assert "more than one machine, campaign_rules.dask (campaign-rules[dask])" in text


def test_no_progress_bar_when_standard_error_is_no_terminal(store, capsys):
    main(["audit", "--jobs", "2", *map(str, store)])
    assert capsys.readouterr().err == ""


def test_the_command_in_a_subprocess_reads_standard_input(store, capsys):
    data = b"".join(path.read_bytes() for path in store[:2])
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "audit", "--json", "--jobs", "2", "-"],
        input=data,
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (1, b"")
    assert json.loads(done.stdout) == audit_lines(data.splitlines()).to_json()
    assert main(["audit", "--json", *map(str, store[:2])]) == 1
    assert json.loads(capsys.readouterr().out) == json.loads(done.stdout)


def _stderr_on_a_terminal(argv, prelude=""):
    """Run the command with standard error on a pseudo-terminal; what it wrote there."""
    pty = pytest.importorskip("pty")
    fcntl, termios = pytest.importorskip("fcntl"), pytest.importorskip("termios")
    main_fd, terminal = pty.openpty()
    # A terminal of 24 rows and 100 columns: tqdm draws nothing on one of no width.
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    code = f"{prelude}import sys; from campaign_rules._cli import main; sys.exit(main({argv!r}))"
    with subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=terminal
    ) as process:
        os.close(terminal)
        written = b""
        with contextlib.suppress(OSError):  # the terminal closes when the command ends
            while chunk := os.read(main_fd, 4096):
                written += chunk
        process.wait()
    os.close(main_fd)
    return process.returncode, written.decode()


def test_a_progress_bar_counts_records_on_a_terminal(store):
    pytest.importorskip("tqdm", reason="the progress extra is not installed")
    status, written = _stderr_on_a_terminal(["audit", "--jobs", "2", *map(str, store)])
    assert status == 1
    last = written.strip().split("\r")[-1]
    assert re.fullmatch(r"1\.\d\dk records \[00:\d\d, [\d.]+k? records/s\]", last), written


def test_without_tqdm_a_terminal_is_told_which_extra_adds_the_bar(store):
    status, written = _stderr_on_a_terminal(
        ["audit", str(store[0])], prelude="import sys; sys.modules['tqdm'] = None; "
    )
    assert status == 1
    assert written.strip() == (
        "campaign-rules: no progress bar: install campaign-rules[progress] (tqdm) for one"
    )


def test_a_gzip_file_cut_short_exits_2_from_the_command(tmp_path):
    path = tmp_path / "store.jsonl.gz"
    whole = gzip.compress("".join(f"{line}\n" for line in store_lines(20_000, seed=5)).encode())
    path.write_bytes(whole[: len(whole) // 2])  # more than a block of lines, then no end
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "audit", "--jobs", "2", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"campaign-rules: cannot read {path} to its end: Compressed")
    assert done.stderr.endswith("), and no summary is printed\n")
    assert done.stderr.count("\n") == 1


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads open files from /proc")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_store_truncated_while_the_command_reads_it_exits_2(tmp_path, jobs):
    # The rows go to a FIFO that the test reads. The command writes the rows of its first
    # block once it has read one block per job and one more (each worker has one block, and
    # the next waits for the first to be done), and that write waits for the test to read
    # them: the first byte read here says the command is there, with the store open and read
    # that far. The store is cut a block further on, then the rows are read to their end,
    # and the command goes on to find the store shorter than when it opened it.
    block = command.CHUNK_BYTES
    line = f"{INVALID}\n".encode()
    path = tmp_path / "store.jsonl"
    path.write_bytes(line * ((jobs + 5) * block // len(line)))
    size = path.stat().st_size
    cut = (jobs + 2) * block
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    argv = ["audit", "--jobs", str(jobs), "--violations", str(fifo), str(path)]
    # Opened without waiting for a writer, so that a command that fails early cannot hang here.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    with subprocess.Popen(
        [sys.executable, "-m", "campaign_rules", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        _wait_until_open(process, fifo)
        os.set_blocking(reader, True)
        with open(reader, "rb") as rows:
            assert rows.read(1)  # the command waits in its first write of rows
            os.truncate(path, cut)
            rows.read()
        out, err = process.communicate(timeout=120)
    assert (process.returncode, out) == (2, b"")
    last = line.count(b"\n") * (cut // len(line)) + (cut % len(line) > 0)
    assert err.decode() == (
        f"campaign-rules: cannot read {path} to its end: it changed while it was read "
        f"(truncated, or rewritten by a rotation): it had {size:,} bytes when opened, the read "
        f"ended at byte {cut:,}, and it has {cut:,} now; the last line read was line {last:,} "
        f"of the file (record {last:,}), and no summary is printed\n"
    )


def _wait_until_open(process, path):
    """Wait until the running `process` has `path` open (read from /proc)."""
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{process.pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{process.pid}/fd/{fd}") == str(path):
                        return
        time.sleep(0.02)
    raise AssertionError(f"the command never opened {path}: {process.poll()}")


def _run(*argv, **options):
    return subprocess.run(
        [sys.executable, "-m", "campaign_rules", *map(str, argv)],
        capture_output=True,
        check=False,
        **options,
    )


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="sets the CPUs of a process")
@pytest.mark.parametrize("jobs", ["2", "10000"])
def test_jobs_past_the_cpus_the_process_may_use_are_lowered_to_them(tmp_path, jobs):
    path = tmp_path / "store.jsonl"
    path.write_text(f"{VALID}\n{INVALID}\n", encoding="utf-8")
    one_cpu = min(os.sched_getaffinity(0))
    done = _run(
        "audit", "--json", "--jobs", jobs, path,
        preexec_fn=lambda: os.sched_setaffinity(0, {one_cpu}),
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.decode() == (
        f"campaign-rules: --jobs {jobs} is more than the 1 CPU this process may use: "
        "auditing with 1\n"
    )
    assert json.loads(done.stdout) == audit_lines([VALID, INVALID]).to_json()


def test_jobs_within_the_cpus_say_nothing(store, capsys):
    assert main(["audit", "--jobs", str(command.available_cpus()), str(store[0])]) == 1
    assert capsys.readouterr().err == ""


def test_no_more_workers_start_than_there_are_blocks():
    # One block on a pool of eight: one worker process starts, and ends with the pool.
    block = f"{VALID}\n{INVALID}\n".encode()
    before = children(os.getpid())  # what earlier tests left running, such as helpers
    with command.workers(command._audit_block, 8) as pool:
        pool.submit((block, 1, False, "store.jsonl", 1))
        assert pool.take()[0] == audit_lines([VALID, INVALID])
        assert len(children(os.getpid()) - before) == 1
    assert children(os.getpid()) - before == set()


def test_the_help_says_how_many_jobs_run_at_most(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "at most the number of CPUs this process may use, which is the default" in text
    assert "no more start than there are blocks of 1 MiB to audit" in text


def test_an_empty_gzip_file_is_no_store(tmp_path):
    empty, of_nothing = tmp_path / "empty.jsonl.gz", tmp_path / "nothing.jsonl.gz"
    empty.write_bytes(b"")
    of_nothing.write_bytes(gzip.compress(b""))  # a whole gzip file of no lines: a store
    done = _run("audit", "--json", empty)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (
        f"campaign-rules: cannot read {empty}: the file is empty, and no gzip file is: one of "
        "no lines still holds a header and an end (RFC 1952)\n"
    )
    done = _run("audit", "--json", of_nothing)
    assert (done.returncode, json.loads(done.stdout)["records"]) == (0, 0)


def _line_of(size):
    """A JSON body of exactly `size` bytes: an invalid campaign, whose name is too long."""
    line = '{"name": ""}'
    return line[:-2] + "x" * (size - len(line)) + line[-2:]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_line_longer_than_the_limit_is_a_body_too_large_and_read_no_further(
    tmp_path, capsys, jobs
):
    limit = LINE_MAX_BYTES
    lines = [VALID, _line_of(limit + 1), VALID, _line_of(limit), "x" * (3 * limit), VALID]
    path = tmp_path / "store.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")  # the last line with no line break
    rows = tmp_path / "rows.jsonl"
    status, summary = _audit_json(capsys, "--jobs", jobs, "--violations", rows, path)
    assert status == 1
    assert (summary["records"], summary["valid"], summary["invalid"]) == (6, 3, 3)
    # As validate_create_json refuses a body over the size limit, unread (D-audit-lines).
    assert summary["rules"]["body.within_size_limit"]["first_records"] == [2, 5]
    too_large = validate_create_json(_line_of(limit + 1)).violations
    assert [violation.rule for violation in too_large] == ["body.within_size_limit"]
    found = [json.loads(row) for row in rows.read_text().splitlines()]
    assert [
        (row["record"], row["message"], row["column"])
        for row in found
        if row["rule"] == "body.within_size_limit"
    ] == [(2, too_large[0].message, None), (5, too_large[0].message, None)]
    # The library says the same of the same lines, with or without their line breaks.
    assert audit_lines(line + "\n" for line in lines).to_json() == summary
    assert audit_lines(line.encode() for line in lines).to_json() == summary


def test_one_huge_line_in_a_gzip_file_takes_bounded_memory(tmp_path):
    # 400 MiB of one line with no line break, compressed as the test writes it (some 400 KiB);
    # the command runs under a parent that reports the largest resident size of its processes.
    path = tmp_path / "huge.jsonl.gz"
    piece = b'{"name": "' + b"x" * (2**20 - 10)
    with path.open("wb") as file:
        pack = zlib.compressobj(1, zlib.DEFLATED, 31)  # 31: a gzip header and trailer
        for _ in range(400):
            file.write(pack.compress(piece))
        file.write(pack.flush())
    report = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stdout.write(done.stdout.decode())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", report, sys.executable, "-m", "campaign_rules", "audit",
         "--json", "--jobs", "2", str(path)],
        capture_output=True,
        check=True,
    )  # fmt: skip
    first, rest = done.stdout.decode().split("\n", 1)
    status, peak_kib = map(int, first.split())
    assert status == 1
    assert json.loads(rest)["rules"]["body.within_size_limit"]["first_records"] == [1]
    assert peak_kib * 1024 < 256 * 2**20
