"""Every JSON output of the command line is I-JSON: this library's strict reader accepts it.

A member name with a lone surrogate and a file name whose bytes are not UTF-8 are written with
U+FFFD where they are not Unicode text (D-output-text). Each test runs the real command as a
process and reads what it wrote, bytes and all, with `_core.strict_json.read_body`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from campaign_rules._core.strict_json import read_body
from campaign_rules._core.written_json import i_json
from tests.cli_support import COMMAND

EXAMPLES = Path(__file__).parent.parent / "examples"
# A member name holding an escaped lone surrogate, as a body's text gives it.
SURROGATE_BODY = b'{"\\ud800x": 1}'
# A file name that is no UTF-8: Python holds its last byte as the surrogate U+DCFF.
NOT_UTF8_NAME = b"bad\xff.json"

needs_byte_names = pytest.mark.skipif(
    os.name != "posix", reason="a file name of any bytes is a POSIX file system's"
)


def strictly_read(data: bytes) -> object:
    """The JSON value of `data`, read as I-JSON; the test fails when the reader refuses it."""
    reading = read_body(data)
    assert not reading.refused, (reading.not_utf8, reading.not_json, reading.problems)
    return reading.value


def run(argv: list[bytes | str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*COMMAND, *argv], capture_output=True, cwd=cwd, check=False)


@needs_byte_names
def test_check_json_writes_names_and_pointers_that_are_not_text_as_u_fffd(tmp_path):
    (tmp_path / "surrogate.json").write_bytes(SURROGATE_BODY)
    (tmp_path / os.fsdecode(NOT_UTF8_NAME)).write_bytes((EXAMPLES / "invalid.json").read_bytes())
    done = run(["check", "--json", "surrogate.json", NOT_UTF8_NAME], tmp_path)
    assert done.returncode == 1, done.stderr
    surrogate, not_utf8 = strictly_read(done.stdout)
    assert surrogate["file"] == "surrogate.json"
    assert [v["pointer"] for v in surrogate["violations"]] == ["/\ufffdx"]
    assert not_utf8["file"] == "bad\ufffd.json"
    assert not_utf8["violations"]


@needs_byte_names
def test_audit_json_and_violation_rows_are_read_strictly(tmp_path):
    store = tmp_path / os.fsdecode(b"store\xff.jsonl")
    store.write_bytes(
        SURROGATE_BODY
        + b"\n"
        + (EXAMPLES / "invalid.json").read_bytes().replace(b"\n", b"")
        + b"\n"
    )
    rows = tmp_path / "rows.jsonl"
    done = run(["audit", "--jobs", "1", "--json", "--violations", rows, store], tmp_path)
    assert done.returncode == 1, done.stderr
    summary = strictly_read(done.stdout)
    assert summary["records"] == 2
    lines = rows.read_bytes().splitlines()
    assert len(lines) > 1
    read = [strictly_read(line) for line in lines]
    assert "/\ufffdx" in [row["pointer"] for row in read]


def test_the_writer_leaves_text_as_it_is_and_replaces_only_lone_surrogates():
    value = {"a\ud800": ["\udcff", "é😀", "\\ud800"], "n": [1, 2.5, None, True]}
    text = i_json(value, indent=2)
    assert text.isascii()
    assert strictly_read(text.encode()) == {
        "a\ufffd": ["\ufffd", "é😀", "\\ud800"],
        "n": [1, 2.5, None, True],
    }
    plain = {"file": "ok.json", "pointer": "/name"}
    assert i_json(plain) == json.dumps(plain)
