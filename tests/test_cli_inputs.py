"""What the command line reads: bounded whatever the input, never an output, names escaped.

`check` reads at most `BODY_MAX_BYTES` + 1 bytes of any input and answers a longer one with the
size rule, so its memory is bounded: each test of that runs the real command on an input that
never ends (/dev/zero, /dev/urandom, a FIFO fed without end, standard input from /dev/zero) and
reads the command's peak memory from the kernel (`os.wait4`), not a time. An output option that
names an input is refused before anything is read (D-cli-outputs-are-not-inputs), and a file
name reaches a terminal escaped, on one line (D-cli-bounded-inputs).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_rules._cli import main
from campaign_rules._cli.commands import _parser
from campaign_rules._core.limits import BODY_MAX_BYTES
from tests.cli_support import COMMAND, needs_proc

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def size_line(kind: str = "create") -> str:
    """The head of the size rule's line: a request body, or the response kind's (issue 37)."""
    body = "the request body" if kind == "create" else f"the {kind} body"
    return f"INVALID_REQUEST {body} must be at most"


# What a run may take beyond the memory of `check` on a small file: the body read, one byte past
# the limit, and room for the allocator. Unbounded, the command grew to gigabytes.
MEMORY_MARGIN_BYTES = 8 * BODY_MAX_BYTES
# The address space a run is given: a command that reads without bound fails fast, with a
# `MemoryError`, rather than taking the machine's memory.
ADDRESS_SPACE_BYTES = 2 * 2**30
# The kinds a body may be read as: a creation request, and the response kinds.
KINDS = ["create", "create-response", "contact-response", "thread"]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_BYTES, ADDRESS_SPACE_BYTES))


def _measured(
    argv: list[str], stdin: object = subprocess.DEVNULL, feed: Path | None = None
) -> tuple[int, str, str, int]:
    """Run `campaign-rules ARGV` to its end: its status, output, errors and peak memory in bytes.

    With `feed`, a FIFO that a thread of the test writes to without end once the command opens
    it, until the command closes it. The peak is the command's own (`ru_maxrss` of `wait4`).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [*COMMAND, *argv],
            stdin=stdin,  # type: ignore[arg-type]
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=_limited,
        )
        with _fed(feed) if feed is not None else contextlib.nullcontext():
            try:
                _, status, usage = os.wait4(process.pid, 0)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        # Linux gives `ru_maxrss` in KiB.
        return process.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss * 1024


@contextlib.contextmanager
def _fed(fifo: Path) -> Iterator[None]:
    """A thread that writes white space to `fifo` for as long as a reader holds it open."""

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb", buffering=0) as writer:
            chunk = b" " * 65_536
            while True:
                writer.write(chunk)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        yield
    finally:
        # A reader opened and closed at once: the feeder's `open` returns if it still waits,
        # and its next write finds no reader.
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        feeder.join(timeout=60)
        assert not feeder.is_alive()


@pytest.fixture(scope="module")
def baseline() -> int:
    """The peak memory of `check` on a small valid file."""
    status, _, _, peak = _measured(["check", str(EXAMPLES / "whatsapp.json")])
    assert status == 0
    return peak


def _assert_too_large(
    name: str, result: tuple[int, str, str, int], baseline: int, kind: str = "create"
) -> None:
    status, out, err, peak = result
    assert (status, err) == (1, ""), err
    assert out == (
        f"{name}: {size_line(kind)} {BODY_MAX_BYTES} bytes [body.within_size_limit]\n"
        "Found 1 violation in 1 file\n"
    )
    assert peak <= baseline + MEMORY_MARGIN_BYTES, (peak, baseline)


needs_devices = pytest.mark.skipif(
    not Path("/dev/zero").exists() or not Path("/dev/urandom").exists(), reason="no /dev/zero"
)


@needs_devices
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_without_end_is_too_large_in_bounded_memory(baseline, device, kind):
    result = _measured(["check", "--kind", kind, device])
    _assert_too_large(device, result, baseline, kind)


@needs_devices
@pytest.mark.parametrize("kind", KINDS)
def test_standard_input_without_end_is_too_large_in_bounded_memory(baseline, kind):
    with open("/dev/zero", "rb") as zeros:
        result = _measured(["check", "--kind", kind, "-"], stdin=zeros)
    _assert_too_large("-", result, baseline, kind)


@needs_proc
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
@pytest.mark.parametrize("kind", KINDS)
def test_a_fifo_fed_without_end_is_too_large_in_bounded_memory(tmp_path, baseline, kind):
    fifo = tmp_path / "body.fifo"
    os.mkfifo(fifo)
    result = _measured(["check", "--kind", kind, str(fifo)], feed=fifo)
    _assert_too_large(str(fifo), result, baseline, kind)


def test_a_file_far_past_the_limit_costs_the_memory_of_the_limit(tmp_path, baseline):
    path = tmp_path / "large.json"
    with open(path, "wb") as file:
        file.truncate(300 * 2**20)  # sparse: 300 MiB of zeros on no disk
    _assert_too_large(str(path), _measured(["check", str(path)]), baseline)


@pytest.mark.parametrize("kind", KINDS)
def test_the_limit_is_a_body_s_last_byte(tmp_path, capsys, kind):
    # At the limit, the body is read and judged; one byte past it, the size rule answers.
    at_limit, past_it = tmp_path / "at.json", tmp_path / "past.json"
    at_limit.write_bytes(b"[" + b" " * (BODY_MAX_BYTES - 2) + b"]")
    past_it.write_bytes(b"[" + b" " * (BODY_MAX_BYTES - 1) + b"]")
    main(["check", "--kind", kind, str(at_limit)])
    assert "body.within_size_limit" not in capsys.readouterr().out
    assert main(["check", "--kind", kind, str(past_it)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{past_it}: {size_line(kind)} ")
    assert out.count("\n") == 2


def test_a_response_body_past_the_limit_is_named_for_its_kind(tmp_path, capsys):
    # The words name the body that was given; the rule, its key and status stay the size
    # rule's, for every kind (D-cli-bounded-inputs).
    past_it = tmp_path / "past.json"
    past_it.write_bytes(b"[" + b" " * (BODY_MAX_BYTES - 1) + b"]")
    assert main(["check", "--json", "--kind", "error", "--status", "503", str(past_it)]) == 1
    [report] = json.loads(capsys.readouterr().out)
    message = f"the error body must be at most {BODY_MAX_BYTES} bytes"
    assert report["status"] == 400
    assert report["body"] == {"success": False, "error": "INVALID_REQUEST", "message": message}
    [violation] = report["violations"]
    assert (violation["rule"], violation["key"], violation["message"]) == (
        "body.within_size_limit",
        "INVALID_REQUEST",
        message,
    )


# Every output option of every sub-command, from the parser itself.
OUTPUTS = [
    (name, flag)
    for name, command in _parser()[1].choices.items()
    for flag, _ in command.get_default("_outputs") or ()
]


def test_the_outputs_are_declared():
    assert OUTPUTS == [("audit", "--violations"), ("audit", "--html")]


def _same_file_spellings(store: Path) -> dict[str, str]:
    link = store.parent / "link.jsonl"
    link.symlink_to(store)
    return {
        "the same path": str(store),
        "a symbolic link to it": str(link),
        "another spelling": f"{store.parent}/./../{store.parent.name}/{store.name}",
    }


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "store.jsonl"
    path.write_bytes((EXAMPLES / "whatsapp.json").read_bytes().replace(b"\n", b"") + b"\n")
    return path


@pytest.mark.parametrize("spelling", ["the same path", "a symbolic link to it", "another spelling"])
@pytest.mark.parametrize(("name", "flag"), OUTPUTS)
def test_an_output_that_names_an_input_is_refused_before_anything_is_read(
    store, capsys, name, flag, spelling
):
    output = _same_file_spellings(store)[spelling]
    before = store.read_bytes(), store.stat(), sorted(store.parent.iterdir())
    with pytest.raises(SystemExit) as exit_info:
        main([name, flag, output, str(EXAMPLES / "whatsapp.json"), str(store)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: campaign-rules {name} ")
    assert err.endswith(
        f"error: argument {flag}: {output} is one of the files the command reads; an output "
        "must be another file\n"
    )
    # Untouched: the same bytes, the same file (not replaced), and no temporary file beside it.
    assert (store.read_bytes(), store.stat(), sorted(store.parent.iterdir())) == before


@pytest.mark.parametrize(("name", "flag"), OUTPUTS)
def test_an_output_that_is_the_file_standard_input_reads_is_refused(store, name, flag):
    before = store.read_bytes()
    with open(store, "rb") as stdin:
        done = subprocess.run(
            [*COMMAND, name, flag, str(store), "-"], stdin=stdin, capture_output=True, check=False
        )
    assert done.returncode == 2
    assert done.stderr.decode().endswith(
        f"{store} is one of the files the command reads; an output must be another file\n"
    )
    assert done.stdout == b""
    assert store.read_bytes() == before


def test_an_output_beside_its_input_is_written(store, tmp_path):
    rows = tmp_path / "rows.jsonl"
    assert main(["audit", "--violations", str(rows), "--html", os.devnull, str(store)]) == 0
    assert rows.exists()


# File names a terminal must not act on: a line break that would forge a line, an escape
# sequence (red text, a cleared screen), a carriage return, a byte that is not UTF-8.
HOSTILE_NAMES = ["a\nb.json", "red\x1b[31m.json", "clear\x1b[2J\x1b[H.json", "cr\r.json", "x\udcff"]


def _escaped(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", [["check"], ["check", "--json"], ["audit"]])
def test_a_file_name_is_escaped_in_every_sub_command(tmp_path, name, command):
    missing = os.fsencode(tmp_path) + b"/" + os.fsencode(name)
    done = subprocess.run([*COMMAND, *command, missing], capture_output=True, check=False)
    assert done.returncode == 2
    err = done.stderr.decode("utf-8", "strict")
    assert err == (
        f"campaign-rules: cannot read {_escaped(os.fsdecode(missing))}: "
        "[Errno 2] No such file or directory\n"
    )
    assert b"\x1b" not in done.stdout


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_output_s_name_is_escaped(tmp_path, store, name):
    # No folder of that name: the temporary file beside it cannot be made.
    output = os.fsencode(tmp_path) + b"/" + os.fsencode(name) + b"/rows.jsonl"
    done = subprocess.run(
        [*COMMAND, "audit", "--violations", output, str(store)], capture_output=True, check=False
    )
    assert done.returncode == 2
    err = done.stderr.decode("utf-8", "strict")
    assert err.startswith(f"campaign-rules: cannot write {_escaped(os.fsdecode(output))}: ")
    assert err.count("\n") == 1
    assert "\x1b" not in err


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_check_and_audit_word_a_file_they_cannot_read_alike(tmp_path, name):
    missing = os.fsencode(tmp_path) + b"/" + os.fsencode(name)
    said = {
        command: subprocess.run(
            [*COMMAND, command, missing], capture_output=True, check=False
        ).stderr
        for command in ("check", "audit")
    }
    assert said["check"] == said["audit"]
