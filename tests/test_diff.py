"""`campaign-rules diff OLD`, run as a process against versions run as processes (issue 40).

OLD is this very source tree, or a scratch copy of it with one row's bound changed, each behind
an executable `campaign-rules` that serves the executor protocol (tests/diff_support.py).
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from campaign_rules import validate_create_json
from campaign_rules._cli.exits import SIGNAL_MEANINGS, ExitStatus
from campaign_rules._core.limits import CONTACT_STATUSES
from campaign_rules._diff.bounds import declared_bounds
from campaign_rules._diff.candidates import Candidate, base_bodies, candidates, value_at
from campaign_rules._diff.inprocess import InProcessSide
from campaign_rules._diff.narrowing import one_member_versions
from campaign_rules._diff.replay import REPLAY_LINE_MAX_BYTES, REPLAY_MAX_LINES, read_replay
from campaign_rules._diff.report import render
from campaign_rules._diff.sides import Environment
from campaign_rules._diff.structure import environment_change, row_changes
from tests.cli_support import children, group, needs_proc, wait_until
from tests.diff_support import SOURCE, changed_copy, version_command

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schema" / "diff.schema.json").read_text(encoding="utf-8"))
RETRIES = ("_core/limits.py", "RETRIES: Final = Bounds(0, 5)")
EXAMPLE = base_bodies()["phone_call"]


def diff(*arguments: str) -> subprocess.CompletedProcess[str]:
    """`campaign-rules diff ARGUMENTS` of this tree, as a process."""
    return subprocess.run(
        [sys.executable, "-m", "campaign_rules", "diff", *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(SOURCE)},
    )


@pytest.fixture(scope="module")
def same(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This version as OLD."""
    return version_command(tmp_path_factory.mktemp("same"))


@pytest.fixture(scope="module")
def same_report(same: Path) -> dict[str, object]:
    """The JSON report of this version against itself."""
    done = diff(str(same), "--format", "json")
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _report_against(source: Path, folder: Path, *arguments: str) -> dict[str, Any]:
    """The JSON report of this version against the tree `source` as OLD."""
    done = diff(str(version_command(folder, source)), "--format", "json", "--fail-on", "none")
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(report, SCHEMA)
    return report


def _this_versions_candidates() -> list[Candidate]:
    side = InProcessSide()
    bounds = declared_bounds(side.rules(), side.bounds())
    return candidates([bounds, bounds], [None, None])


def _retries_at_most(high: int, folder: Path) -> Path:
    module, line = RETRIES
    source = changed_copy(folder, module, line, f"RETRIES: Final = Bounds(0, {high})")
    return version_command(folder, source)


@pytest.fixture(scope="module")
def looser_old(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An OLD whose `retries` may be 6: the installed version refuses what it accepted."""
    return _retries_at_most(6, tmp_path_factory.mktemp("looser"))


@pytest.fixture(scope="module")
def stricter_old(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An OLD whose `retries` may be at most 4."""
    return _retries_at_most(4, tmp_path_factory.mktemp("stricter"))


def test_the_installed_version_against_itself_changes_nothing(
    same_report: dict[str, Any],
) -> None:
    report = same_report
    jsonschema.validate(report, SCHEMA)
    assert report["changes"] == []
    assert report["old"]["fingerprint"] == report["new"]["fingerprint"]
    assert report["summary"]["breaking"] == 0
    assert report["bodies"] > 500
    # The rules no executor request reaches are named, with why.
    assert {item["rule"].split(".")[0] for item in report["unprobed"]} == {
        "path",
        "header",
        "lifecycle",
        "idempotency",
        "rate",
    }


def test_a_bound_made_stricter_is_reported_breaking_with_a_witness(looser_old: Path) -> None:
    done = diff(str(looser_old), "--format", "json")
    assert done.returncode == 1, done.stderr  # --fail-on breaking is the default
    report = json.loads(done.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["old"]["fingerprint"] != report["new"]["fingerprint"]
    [change] = report["changes"]
    assert change["rule"] == "retries.within_bounds"
    assert change["change"] == "constraint"
    assert (change["old"]["maximum"], change["new"]["maximum"]) == (6, 5)
    assert (change["verdict"], change["breaking"]) == ("stricter", True)
    witness = change["witness"]
    assert witness["member"] == "/retries"
    assert json.loads(witness["body"])["retries"] == 6
    assert witness["old"]["ok"] is True
    assert [item["rule"] for item in witness["new"]["violations"]] == ["retries.within_bounds"]
    # The witness, judged again here and by OLD's own `check`, is judged differently.
    assert not validate_create_json(witness["body"]).ok
    body = looser_old.parent / "witness.json"
    body.write_text(witness["body"], encoding="utf-8")
    checked = subprocess.run(
        [str(looser_old), "check", str(body)], capture_output=True, timeout=60, check=False
    )
    assert checked.returncode == 0, checked.stdout
    assert diff(str(looser_old), "--fail-on", "none").returncode == 0


def test_a_bound_made_looser_is_not_breaking_but_fails_on_any(stricter_old: Path) -> None:
    done = diff(str(stricter_old), "--format", "markdown")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # Counts first, then the table of changes.
    counts = lines.index(
        "| changes | breaking | stricter | looser | incomparable | equivalent | not probed |"
    )
    assert lines[counts + 2].startswith("| 1 | 0 | 0 | 1 | 0 | 0 |")
    [row] = [line for line in lines if line.startswith("| `retries.within_bounds`")]
    assert "| looser | no |" in row
    assert counts < lines.index(row)
    text = diff(str(stricter_old), "--fail-on", "any")
    assert text.returncode == 1
    assert "- retries.within_bounds: constraint (looser)" in text.stdout


def test_an_old_that_is_missing_cannot_be_compared(tmp_path: Path) -> None:
    done = diff(str(tmp_path / "nowhere" / "campaign-rules"))
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("campaign-rules: cannot compare: ")
    assert "nowhere" in line


def test_an_old_that_is_not_a_campaign_rules_cannot_be_compared(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.write_text("#!/bin/sh\necho hello\n", encoding="utf-8")
    other.chmod(0o755)
    done = diff(str(other))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1


def test_replayed_lines_and_kit_cases_are_judged_and_unreadable_ones_cannot_be(
    same: Path, same_report: dict[str, Any], tmp_path: Path
) -> None:
    replay = tmp_path / "traffic.jsonl"
    lines = [f'{{"name": "replayed {index}"}}' for index in range(3)] + ["not json", ""]
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kit = tmp_path / "kit"
    (kit / "cases").mkdir(parents=True)
    listed = [{"path": "cases/create.jsonl", "kind": "create"}, {"path": "cases/http.jsonl"}]
    (kit / "manifest.json").write_text(json.dumps({"files": listed}), encoding="utf-8")
    body = {"text": '{"name": "only in the kit of this test"}'}
    request = {"id": "a kit case", "kind": "create", "body": body, "directory": None}
    case = {"id": "a kit case", "request": request, "answer": {"violations": []}}
    (kit / "cases" / "create.jsonl").write_text(json.dumps(case) + "\n", encoding="utf-8")
    arguments = ["--format", "json", "--replay", str(replay), "--kit", str(kit)]
    done = diff(str(same), *arguments)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bodies"] == same_report["bodies"] + 4 + 1
    assert report["changes"] == []
    for option in ("--replay", "--kit"):
        done = diff(str(same), option, str(tmp_path / "absent"))
        assert (done.returncode, done.stdout, len(done.stderr.splitlines())) == (2, "", 1)


def test_rows_compare_only_the_members_both_versions_give() -> None:
    old = [{"id": "a", "key": "K", "status": 400}, {"id": "gone", "key": "K", "status": 400}]
    new = [
        {"id": "a", "key": "L", "status": 400, "constraint": {"maximum": 5}},
        {"id": "new", "key": "K", "status": 404},
    ]
    changes = [(change.rule, change.change) for change in row_changes(old, new)]
    assert changes == [("a", "key"), ("new", "added"), ("gone", "removed")]


def test_a_change_of_the_facts_a_rule_reads_in_is_said_once() -> None:
    enabled = {"needs": [{"pointer": "/cycles/enabled", "const": True}], "unless": []}
    anywhere = {"needs": [], "unless": []}
    old = [{"id": "a", "scope": "an enabled block", "when": enabled}, {"id": "b", "scope": "x"}]
    new = [
        {"id": "a", "scope": "its whole subject", "when": anywhere},
        {"id": "b", "scope": "y", "when": anywhere},
    ]
    changes = [(change.rule, change.change) for change in row_changes(old, new)]
    # Its scope only names its facts; a version without `when` has its scope compared.
    assert changes == [("a", "facts"), ("b", "scope")]


def test_the_environment_names_the_zones_each_side_lacks() -> None:
    old = Environment("2025.1", frozenset({"UTC", "Europe/Kyiv"}))
    new = Environment("2026.6", frozenset({"UTC", "America/Ciudad_Juarez"}))
    change = environment_change(old, new)
    assert (change.zones_added, change.zones_removed) == (
        ("America/Ciudad_Juarez",),
        ("Europe/Kyiv",),
    )
    assert change.changed
    assert not environment_change(Environment(None, None), new).known


def test_a_body_many_members_away_is_narrowed_to_bodies_one_member_away() -> None:
    body = {"name": "x", "agent_id": "not a uuid", "retries": 6, "integration_type": "fax"}
    request = {"kind": "create", "body": {"text": json.dumps(body)}, "directory": None}
    versions = one_member_versions(Candidate("replay line 1", None, request))
    assert versions
    examples = base_bodies().values()
    for version in versions:
        changed = json.loads(str(version.request["body"]["text"]))  # type: ignore[index]
        member = str(version.member)[1:]
        # Some example differs from it in that one member only.
        assert any(
            {key: item for key, item in changed.items() if key != member}
            == {key: item for key, item in example.items() if key != member}
            and changed.get(member, "absent") != example.get(member, "absent")
            for example in examples
        )
    assert {"/retries", "/agent_id", "/integration_type"} <= {v.member for v in versions}


def test_a_zone_only_one_side_has_is_the_environment_not_a_rule_change(tmp_path: Path) -> None:
    # OLD's zone list lacks Europe/Kyiv: its schema says so, beside its verdicts.
    line = 'return frozenset(listing.decode("utf-8").split())'
    source = changed_copy(tmp_path, "_core/timezones.py", line, f'{line} - {{"Europe/Kyiv"}}')
    done = diff(str(version_command(tmp_path, source)), "--format", "json", "--fail-on", "any")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["changes"] == []
    environment = report["environment"]
    assert (environment["zones_added"], environment["zones_removed"]) == (["Europe/Kyiv"], [])
    assert environment["breaking"] is False
    assert validate_create_json(json.dumps(EXAMPLE | {"timezone": "Europe/Kyiv"})).ok


def test_a_key_changed_on_refused_bodies_is_breaking(tmp_path: Path) -> None:
    row = '_row("retries.within_bounds", _400,'
    changed = row.replace("_400", "ErrorKey.INVALID_STATUS")
    source = changed_copy(tmp_path, "_rules/table.py", row, changed)
    done = diff(str(version_command(tmp_path, source)), "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    [change] = report["changes"]
    assert (change["rule"], change["change"]) == ("retries.within_bounds", "key")
    assert (change["old"], change["new"]) == ("INVALID_STATUS", "INVALID_REQUEST")
    assert (change["verdict"], change["breaking"]) == ("incomparable", True)
    witness = change["witness"]
    assert [item["key"] for item in witness["old"]["violations"]] == ["INVALID_STATUS"]
    assert [item["key"] for item in witness["new"]["violations"]] == ["INVALID_REQUEST"]
    assert [item.key for item in validate_create_json(witness["body"]).violations] == [
        "INVALID_REQUEST"
    ]


@needs_proc
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_diff_and_the_old_versions_processes(
    same: Path, number: signal.Signals
) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "campaign_rules", "diff", str(same)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(SOURCE)},
    )
    try:

        def serving() -> bool:
            return any(b"serve" in _command_line(child) for child in children(process.pid))

        wait_until(serving, 60, "OLD's executor")
        process.send_signal(number)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 128 + number, err
        assert err.decode().splitlines() == [
            f"campaign-rules: diff {SIGNAL_MEANINGS[ExitStatus(128 + number)]}"
        ]
        wait_until(lambda: not group(process.pid), 10, "OLD's processes end")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_a_replay_is_read_bounded_in_lines_and_in_line_size(tmp_path: Path) -> None:
    replay = tmp_path / "store.jsonl"
    update = {"id": "u", "kind": "update", "body": {"text": "{}"}, "directory": None}
    update |= {"existing": EXAMPLE, "status": None}
    with replay.open("wb") as file:
        file.write(b'"' + b"x" * REPLAY_LINE_MAX_BYTES + b'"\n')  # over the limit: left out
        file.write(json.dumps(update).encode() + b"\n")  # a protocol request, kept as it is
        for index in range(REPLAY_MAX_LINES + 5):
            file.write(f'{{"name": "line {index}"}}\n'.encode())
    found = read_replay(str(replay))
    assert len(found) == REPLAY_MAX_LINES - 1
    assert found[0].origin == "replay line 2"
    assert found[0].request == {key: value for key, value in update.items() if key != "id"}
    assert found[1].request["body"] == {"text": '{"name": "line 0"}'}
    assert found[-1].origin == f"replay line {REPLAY_MAX_LINES}"


def test_each_channels_statuses_are_tried_alone_on_each_channels_example() -> None:
    # Each status of each channel, as the only filter status of an enabled cycles block, on the
    # example of each channel: a status is judged only on a body of its channel (note 8).
    tried: set[tuple[object, object]] = set()
    for candidate in _this_versions_candidates():
        text = candidate.request["body"]["text"]  # type: ignore[index]
        if candidate.request["kind"] != "create" or not isinstance(text, str):
            continue
        try:
            body = json.loads(text)
        except ValueError:  # the integer past Python's digit limit
            continue
        cycles = body.get("cycles") if isinstance(body, dict) else None
        if isinstance(cycles, dict) and cycles.get("enabled") is True:
            statuses = cycles.get("filter_statuses")
            if isinstance(statuses, list) and len(statuses) == 1:
                tried.add((body.get("integration_type"), statuses[0]))
    every = {status.value for listed in CONTACT_STATUSES.values() for status in listed}
    assert {channel.value for channel in CONTACT_STATUSES} == {"phone_call", "whatsapp"}
    for channel in CONTACT_STATUSES:
        assert {status for on, status in tried if on == channel.value} >= every


def test_a_status_left_out_of_a_channels_list_is_reported_on_that_channel(tmp_path: Path) -> None:
    line = "_S.QUEUE, _S.SENDING, _S.SENT, _S.DELIVERED,"
    source = changed_copy(tmp_path, "_core/limits.py", line, line.replace(" _S.SENT,", ""))
    report = _report_against(source, tmp_path)
    [change] = [c for c in report["changes"] if c["rule"] == "cycles.filter_statuses_match_channel"]
    assert change["verdict"] == "looser"
    witness = change["witness"]
    body = json.loads(witness["body"])
    assert (body["integration_type"], body["cycles"]["filter_statuses"]) == ("whatsapp", ["sent"])
    assert "cycles.filter_statuses_match_channel" in {
        item["rule"] for item in witness["old"]["violations"]
    }
    assert "cycles.filter_statuses_match_channel" not in {
        item["rule"] for item in witness["new"]["violations"]
    }


def test_no_witness_is_judged_alike_by_both_versions(tmp_path: Path) -> None:
    # OLD gives INVALID_REQUEST 422: a repeated made-up status is refused alike (INVALID_STATUS
    # decides the status); a repeated valid one shows the change (note 10).
    line = "    ErrorKey.INVALID_REQUEST: 400,"
    source = changed_copy(tmp_path, "_core/outcome.py", line, line.replace("400", "422"))
    report = _report_against(source, tmp_path)
    shown = [change for change in report["changes"] if change["witness"] is not None]
    assert len(shown) > 10
    for change in shown:
        witness = change["witness"]
        parts = [
            (answer["ok"], answer["status"], answer["violations"])
            for answer in (witness["old"], witness["new"])
        ]
        assert parts[0] != parts[1], change["rule"]
    [unique] = [c for c in shown if c["rule"] == "cycles.filter_items_are_unique"]
    assert (unique["witness"]["old"]["status"], unique["witness"]["new"]["status"]) == (422, 400)


def test_an_integer_longer_than_python_converts_is_tried() -> None:
    # The library reads an integer past `sys.get_int_max_str_digits()` as the infinity it rounds
    # to (body.numbers_fit_a_double); 5d4e07d refused it as not JSON (note 2).
    digits = sys.get_int_max_str_digits()
    long = [
        candidate
        for candidate in _this_versions_candidates()
        if candidate.request["kind"] == "create"
        and "1" + "0" * digits in str(candidate.request["body"]["text"])  # type: ignore[index]
    ]
    assert long
    for candidate in long:
        result = validate_create_json(candidate.request["body"]["text"])  # type: ignore[index]
        assert [item.rule for item in result.violations] == ["body.numbers_fit_a_double"]
        assert result.violations[0].pointer == candidate.member
        # The report shows the member's value, its digits, not the member as left out.
        held, value = value_at(candidate.request["body"], str(candidate.member))
        assert held
        assert value == "1" + "0" * digits


def test_a_body_rules_key_changed_is_reported_with_a_body_of_bad_bytes(tmp_path: Path) -> None:
    # The kit's body cases are candidates: a body with a byte order mark (note 9).
    row = 'Rule("body.has_no_byte_order_mark", _400,'
    changed = row.replace("_400", "ErrorKey.INVALID_STATUS")
    report = _report_against(changed_copy(tmp_path, "_rules/table.py", row, changed), tmp_path)
    [change] = [c for c in report["changes"] if c["rule"] == "body.has_no_byte_order_mark"]
    assert (change["change"], change["verdict"], change["breaking"]) == (
        "key",
        "incomparable",
        True,
    )
    witness = change["witness"]
    assert witness["origin"].startswith("kit case body.has_no_byte_order_mark")
    assert [item["key"] for item in witness["old"]["violations"]] == ["INVALID_STATUS"]
    assert [item["key"] for item in witness["new"]["violations"]] == ["INVALID_REQUEST"]


def test_a_version_that_raises_on_a_body_is_shown_failing_it(tmp_path: Path) -> None:
    # OLD lets a channel it does not know through its rules, and its value objects raise (a
    # campaign has a known channel): its executor ends on that body, which it is taken to
    # answer 500, and is started again.
    row = '("/integration_type",), {"enum": _values(IntegrationType)}'
    changed = row.replace("_values(IntegrationType)", '[*_values(IntegrationType), "sms"]')
    source = changed_copy(tmp_path, "_rules/table.py", row, changed)
    report = _report_against(source, tmp_path)
    [change] = [c for c in report["changes"] if c["rule"] == "integration_type.is_supported"]
    assert (change["verdict"], change["breaking"]) == ("stricter", True)
    witness = change["witness"]
    assert json.loads(witness["body"])["integration_type"] == "sms"
    assert (witness["old"]["status"], witness["old"]["violations"]) == (500, [])
    # The requests after it were answered by the executor started again.
    assert report["bodies"] > 500
    assert len(report["changes"]) == 1


def test_the_markdown_names_each_side_whole_however_long_its_description(
    same_report: dict[str, Any],
) -> None:
    # 5d4e07d's side is described at length (how it is driven): its line was cut (note 3).
    report = copy.deepcopy(same_report)
    report["old"]["executor"] = "campaign-rules 0.2.0, driven through " + "check --json, " * 12
    lines = render(report, "markdown").splitlines()
    [old] = [line for line in lines if line.startswith("Old: ")]
    [new] = [line for line in lines if line.startswith("New: ")]
    assert report["old"]["executor"] in old
    assert "…" not in old
    assert (
        f"fingerprint {report['old']['fingerprint'][:16]}, {report['old']['rules']} rules, " in old
    )
    assert (
        f"fingerprint {report['new']['fingerprint'][:16]}, {report['new']['rules']} rules, " in new
    )
