"""The command line: `campaign-rules check` and `campaign-rules rules`."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_rules._catalogue import render_markdown
from campaign_rules._cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("name", ["phone_call.json", "whatsapp.json", "scheduled_cycles.json"])
def test_valid_examples_print_ok_and_the_normalized_campaign(name, capsys):
    assert main(["check", str(EXAMPLES / name)]) == 0
    out = capsys.readouterr().out
    first, rest = out.split("\n", 1)
    assert first == "ok"
    campaign = json.loads(rest)
    assert campaign["retries"] in range(6)
    assert "message_limit" in campaign


def test_invalid_example_prints_one_line_per_violation(capsys):
    assert main(["check", str(EXAMPLES / "invalid.json")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "INVALID_REQUEST retries: retries must be from 0 to 5" in lines
    assert "INVALID_REQUEST first_message: first_message is for phone_call campaigns only" in lines
    assert any(
        line.startswith("SCHEDULED_MODE_ONLY cycles.schedule_start_date: ") for line in lines
    )
    assert len(lines) == 7


def test_json_output_carries_status_and_envelope(capsys):
    assert main(["check", "--json", str(EXAMPLES / "invalid.json")]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 400
    assert out["body"] == {
        "success": False,
        "error": "INVALID_REQUEST",
        "message": "agent_id must be a UUID v4 in 8-4-4-4-12 form",
        "field": "agent_id",
    }


def test_json_output_of_a_valid_payload_is_201_and_the_campaign(capsys):
    assert main(["check", "--json", str(EXAMPLES / "whatsapp.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 201
    assert out["body"]["template"] == "order_update_v2"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"name": ', "is not valid JSON"),
        (b"[NaN]", "NaN is not a JSON value"),
        (b"\xff\xfe", "cannot read"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_unreadable_input_exits_2_with_a_reason(tmp_path, capsys, content, reason):
    path = tmp_path / "body.json"
    path.write_bytes(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("campaign-rules: ")
    assert reason in err
    assert "Traceback" not in err


def test_missing_file_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(tmp_path / "absent.json")])
    assert exit_info.value.code == 2
    assert "cannot read" in capsys.readouterr().err


def test_standard_input_is_read_with_a_dash(monkeypatch, capsys):
    body = json.dumps({"name": "x"}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    assert main(["check", "-"]) == 1
    assert "agent_id is required" in capsys.readouterr().out


def test_rules_prints_the_catalogue(capsys):
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == render_markdown()


def test_module_entry_point_runs_as_a_process():
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "check", str(EXAMPLES / "invalid.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("INVALID_REQUEST agent_id: ")
    assert done.stderr == ""
