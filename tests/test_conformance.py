"""The conformance kit (issue 39): its export, this library as its executor, and its runner.

The kit is run through `campaign-rules conformance serve` as real processes, strictly (places
and messages too), so that the kit cannot drift from the rules; and each case of it is checked
against the case file of `tests/cases/` it comes from, so that neither can drift from the other.
Broken executors (tiny Python scripts) show what the runner refuses and how it ends.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing
from scripts import kit_cases

from campaign_rules._cli import conformance as conformance_cli
from campaign_rules._conformance.cases import source_cases
from campaign_rules._conformance.executor import LINE_MAX_BYTES, answer
from campaign_rules._conformance.export import kit_files
from campaign_rules._conformance.process import EXIT_GRACE_SECONDS
from campaign_rules._conformance.runner import DEFAULT_TIMEOUT_SECONDS
from campaign_rules.schema import catalogue, ruleset
from tests.cases_support import all_cases, expected_of
from tests.cli_support import COMMAND, needs_proc, wait_until

SERVE = [*COMMAND, "conformance", "serve"]
# The rules no bytes reach (issue 39): one judges a Python argument, and one is answered
# first by `body.strings_are_unicode` for any body.
NOT_FROM_BYTES = {"body.is_bytes_or_text", "text.free_text_is_unicode"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit, exported by the command."""
    directory = tmp_path_factory.mktemp("kit")
    done = subprocess.run([*COMMAND, "conformance", "export", str(directory)], capture_output=True)
    assert done.returncode == 0, done.stderr
    return directory


def cases_of(kit: Path) -> list[dict[str, Any]]:
    """The executor's cases of `kit`, as its manifest lists them (the HTTP sequences are a
    server's, run with `--http`)."""
    manifest = json.loads((kit / "manifest.json").read_bytes())
    return [
        json.loads(line)
        for entry in manifest["files"]
        if entry.get("kind") in {"create", "update", "response"}
        for line in (kit / entry["path"]).read_bytes().splitlines()
    ]


def run(kit: Path, *options: str, executor: list[str] = SERVE) -> subprocess.CompletedProcess[str]:
    argv = [*COMMAND, "conformance", "run", str(kit), *options, "--", *executor]
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


# The export


def test_the_export_writes_the_same_bytes_each_time(kit: Path) -> None:
    files = kit_files()
    written = {
        path.relative_to(kit).as_posix(): path.read_bytes()
        for path in kit.rglob("*")
        if path.is_file()
    }
    assert written == files


def test_every_file_of_the_kit_is_listed_and_valid_by_its_schema(kit: Path) -> None:
    manifest = json.loads((kit / "manifest.json").read_bytes())
    schemas = [json.loads(path.read_bytes()) for path in (kit / "schemas").glob("*.json")]
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        (schema["$id"], referencing.Resource.from_contents(schema)) for schema in schemas
    )
    by_path = {
        f"schemas/{path.name}": json.loads(path.read_bytes())
        for path in (kit / "schemas").glob("*.json")
    }
    listed = {entry["path"] for entry in manifest["files"]}
    assert listed == {p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file()}
    for entry in manifest["files"]:
        path = kit / entry["path"]
        if entry["schema"].startswith("https://json-schema.org/"):
            jsonschema.Draft202012Validator.check_schema(json.loads(path.read_bytes()))
            continue
        validator = jsonschema.Draft202012Validator(by_path[entry["schema"]], registry=registry)
        documents = (
            [json.loads(line) for line in path.read_bytes().splitlines()]
            if path.suffix == ".jsonl"
            else [json.loads(path.read_bytes())]
        )
        assert len(documents) == entry["count"], entry
        for document in documents:
            validator.validate(document)
    assert manifest["ruleset"] == dict(ruleset())


def test_each_case_is_its_case_file_s_verdict_made_whole(kit: Path) -> None:
    """The kit's rule, key and field of each violation are those tests/cases/ expects.

    But where the case file's payload holds a lone surrogate: its bytes are then refused by
    `body.strings_are_unicode` first, at the same fields (issue 39).
    """
    files = {f"{stem}::{case['title']}": case for stem, case in all_cases()}
    kit_ids = set()
    for case in cases_of(kit):
        kit_ids.add(case["id"])
        want = expected_of(files[case["id"]])
        got = [(v["rule"], v["key"], v["field"]) for v in case["answer"]["violations"]]
        if got != want:
            assert {rule for rule, _, _ in got} == {"body.strings_are_unicode"}, case["id"]
            assert [field for _, _, field in got] == [field for _, _, field in want], case["id"]
        assert case["answer"]["ok"] is (not want)
        assert " #" not in case["id"]  # an expected failures file can comment after an id
    _, left_out = kit_cases.requests()
    # Every case of tests/cases/ a body carries is in the kit; the rest are the HTTP cases'.
    for case_id, case in files.items():
        assert (case_id in kit_ids) is (case_id not in left_out and "body" in _input(case))


def _input(case: dict[str, Any]) -> str:
    bodies = ("payload", "base", "update", "response", "text")
    return "body" if any(name in case for name in bodies) else "request"


def test_the_package_data_is_tests_cases_as_regenerate_writes_it() -> None:
    cases, _ = kit_cases.requests()
    assert source_cases() == cases


def test_every_rule_bytes_reach_is_expected_by_a_case(kit: Path) -> None:
    expected = {v["rule"] for case in cases_of(kit) for v in case["answer"]["violations"]}
    reached = {
        info.id
        for info in catalogue()
        if info.stage in ("body", "create", "update", "lookup", "response", "error")
    }
    assert reached - expected == NOT_FROM_BYTES


# This library as the executor


def test_the_kit_passes_through_serve_with_places_and_messages(kit: Path) -> None:
    done = run(kit, "--strict-places", "--strict-messages")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    total = len(cases_of(kit))
    assert done.stdout == f"{total:,} cases: {total:,} passed, 0 failed\n"


def test_serve_answers_every_line_and_never_stops_on_one() -> None:
    lines = [
        b"not json",
        b"[]",
        b'{"id": 7}',
        b'{"id": "a", "kind": "nope"}',
        b'{"id": "b", "kind": "create", "body": {"hex": "00"}, "directory": null}',
        b'{"id": "c", "kind": "create", "body": {"text": "{}"}, "directory": 3}',
        b'{"id": "e", "kind": "response", "body": {"text": "{}"}, "reader": [], "http_status": 1}',
        b"[" * 100_000,
        b" " * (LINE_MAX_BYTES + 1),
        b'{"id": "describe", "kind": "describe"}',
        b'{"id": "d", "kind": "create", "body": {"base64": "77u/e30="}, "directory": null}',
    ]
    done = subprocess.run(SERVE, input=b"\n".join(lines) + b"\n", capture_output=True)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    ids = [None, None, None, "a", "b", "c", "e", None, None, "describe", "d"]
    assert [a["id"] for a in answers] == ids
    assert all("unsupported" in a for a in answers[:9])
    assert answers[9]["ruleset"] == dict(ruleset())
    assert answers[9]["kinds"] == ["create", "update", "response"]
    # A UTF-8 byte order mark, carried as base64: its rule, in its place.
    assert [(v["rule"], v["line"], v["column"]) for v in answers[10]["violations"]] == [
        ("body.has_no_byte_order_mark", 1, 1)
    ]


def test_answer_in_process_is_what_serve_writes() -> None:
    request = {"id": "x", "kind": "update", "body": {"text": "[]"}, "directory": None}
    request |= {"existing": {"name": "n"}, "status": "nope"}
    got = answer(request)
    assert got["id"] == "x"
    assert got["ok"] is False
    assert answer({"id": "describe", "kind": "describe"})["ruleset"] == dict(ruleset())


# The runner against broken executors

FAKE = r"""
import json, os, sys, time
mode = sys.argv[1]
if mode == "hangs":  # its pid, for the test to see it gone
    with open(sys.argv[2], "w") as pid:
        pid.write(str(os.getpid()))
EMPTY = {"rule": "", "key": "", "field": None, "pointer": None, "line": None, "column": None,
         "message": ""}
for number, line in enumerate(sys.stdin):
    request = json.loads(line)
    if request["kind"] == "describe":
        ruleset = {"version": "0", "fingerprint": "0" * 64} if mode == "other" else None
        reply = {"id": "describe", "protocol": 1, "executor": "fake", "ruleset": ruleset,
                 "kinds": ["create", "update", "response"]}
    elif mode == "dies":
        sys.exit(3)
    elif mode == "garbage":
        sys.stdout.write("hello\n")
        sys.stdout.flush()
        continue
    elif mode == "hangs":
        time.sleep(3600)
    else:  # "empty", "other": one empty violation for every case
        reply = {"id": request["id"], "ok": False, "status": 400, "violations": [EMPTY],
                 "envelope": None}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
"""


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fake") / "executor.py"
    path.write_text(FAKE, encoding="utf-8")
    return path


def test_one_empty_violation_for_every_case_fails_every_case(kit: Path, fake: Path) -> None:
    done = run(kit, executor=[sys.executable, str(fake), "empty"])
    assert done.returncode == 1, done.stderr
    total = len(cases_of(kit))
    assert done.stdout.splitlines()[-1] == f"{total:,} cases: 0 passed, {total:,} failed"
    first = cases_of(kit)[0]
    # A structured diff: each member that differs, wanted and got.
    assert f"FAILED {first['id']}\n  ok: want true, got false\n" in done.stdout
    assert "  violations[0]: want absent, got " in done.stdout
    assert "the executor names no rule set" in done.stderr


def test_an_expected_failure_that_passes_fails_the_run(kit: Path, tmp_path: Path) -> None:
    first, second = (case["id"] for case in cases_of(kit)[:2])
    listed = tmp_path / "expected-failures.txt"
    listed.write_text(f"# what JSON Schema cannot say\n{first}  # a reason\n\n", encoding="utf-8")
    done = run(kit, "--expected-failures", str(listed))
    assert done.returncode == 1, done.stderr
    assert f"PASSED {first}\n" in done.stdout
    assert done.stdout.splitlines()[-1].endswith("1 listed as expected failures passed")
    listed.write_text(f"{first}\nno such case\n", encoding="utf-8")
    done = run(kit, "--expected-failures", str(listed))
    assert done.returncode == 2
    assert "lists cases the kit has not: no such case" in done.stderr
    assert second


def test_a_listed_failure_that_fails_passes_the_run(kit: Path, fake: Path, tmp_path: Path) -> None:
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("".join(case["id"] + "\n" for case in cases_of(kit)), encoding="utf-8")
    done = run(kit, "--expected-failures", str(listed), executor=[sys.executable, str(fake), "x"])
    assert done.returncode == 0, done.stdout[-2000:]
    total = len(cases_of(kit))
    assert done.stdout == f"{total:,} cases: 0 passed, 0 failed, {total:,} failed as expected\n"


def test_a_kit_of_another_rule_set_is_refused_showing_both(kit: Path, fake: Path) -> None:
    done = run(kit, executor=[sys.executable, str(fake), "other"])
    assert done.returncode == 2
    assert ruleset()["fingerprint"] in done.stderr
    assert "0" * 64 in done.stderr
    assert done.stdout == ""
    allowed = run(kit, "--allow-other-ruleset", executor=[sys.executable, str(fake), "other"])
    assert allowed.returncode == 1  # judged, and every case fails


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("dies", "the executor ended (exit status 3) before answering"),
        ("garbage", "the executor wrote a line that is not the protocol's answer to it: b'hello'"),
    ],
)
def test_an_executor_that_dies_or_writes_garbage_ends_the_run(
    kit: Path, fake: Path, mode: str, said: str
) -> None:
    done = run(kit, executor=[sys.executable, str(fake), mode])
    assert done.returncode == 2
    assert f"case {cases_of(kit)[0]['id']}: {said}" in done.stderr


@needs_proc
def test_a_case_that_times_out_ends_the_run_and_the_executor(
    kit: Path, fake: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pid"
    executor = [sys.executable, str(fake), "hangs", str(pid_file)]
    done = run(kit, "--timeout", "2", executor=executor)
    assert done.returncode == 2
    assert f"case {cases_of(kit)[0]['id']}: no answer within 2 s" in done.stderr
    _gone(int(pid_file.read_text()))


@needs_proc
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_run_and_its_executor(
    kit: Path, fake: Path, tmp_path: Path, number: int
) -> None:
    pid_file = tmp_path / "pid"
    argv = [*COMMAND, "conformance", "run", str(kit), "--"]
    argv += [sys.executable, str(fake), "hangs", str(pid_file)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: pid_file.is_file() and pid_file.read_text(), 60, "the executor waits")
        process.send_signal(number)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + number, stderr
    assert b"conformance" in stderr
    _gone(int(pid_file.read_text()))


def _gone(pid: int) -> None:
    """The executor was killed and reaped: no such process remains."""
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# The page and the command line


def test_the_page_s_example_answer_is_the_library_s() -> None:
    page = (Path(__file__).parent.parent / "docs" / "conformance.md").read_text(encoding="utf-8")
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", page, re.DOTALL)]
    [request] = [block for block in blocks if block.get("kind") == "create"]
    [shown] = [block for block in blocks if block.get("id") == request["id"] and "ok" in block]
    assert answer(request) == shown
    [describe] = [block for block in blocks if block.get("id") == "describe"]
    assert set(describe) == set(answer(describe | {"kind": "describe"}))
    text = " ".join(page.split())
    assert f"({DEFAULT_TIMEOUT_SECONDS:g} by default)" in text
    assert f"within {EXIT_GRACE_SECONDS:g} seconds" in text


def test_the_help_s_default_timeout_is_the_runner_s() -> None:
    # The parser imports no module of the kit, so the help's default is written there too.
    assert conformance_cli._DEFAULT_TIMEOUT == DEFAULT_TIMEOUT_SECONDS


@pytest.mark.parametrize("action", ["export", "serve", "run"])
def test_each_action_s_help_lists_every_exit_status(action: str) -> None:
    done = subprocess.run([*COMMAND, "conformance", action, "--help"], capture_output=True)
    assert done.returncode == 0
    text = " ".join(done.stdout.decode().split())
    assert "Exit status: 0 " in text
    assert "130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM)." in text


def test_run_needs_an_executor_or_a_server(kit: Path) -> None:
    done = subprocess.run([*COMMAND, "conformance", "run", str(kit)], capture_output=True)
    assert done.returncode == 2
    assert b"give the executor to run after --" in done.stderr


def test_a_kit_that_cannot_be_written_is_status_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    done = subprocess.run(
        [*COMMAND, "conformance", "export", str(blocker / "kit")], capture_output=True
    )
    assert done.returncode == 2
    assert b"conformance export: cannot write the kit into" in done.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize(
    ("folder", "executor", "said"),
    [
        ("empty", SERVE, "cannot read"),
        ("kit", ["/nonexistent/executor"], "cannot start the executor"),
    ],
)
def test_a_kit_or_an_executor_that_cannot_be_had_is_status_2(
    kit: Path, tmp_path: Path, folder: str, executor: list[str], said: str
) -> None:
    done = run(kit if folder == "kit" else tmp_path, executor=executor)
    assert done.returncode == 2
    assert said in done.stderr
    assert done.stdout == ""
