"""The command line: `campaign-rules check` and `campaign-rules rules`."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_rules import validate_create
from campaign_rules._cli import main
from campaign_rules._cli.exits import ExitStatus
from campaign_rules._core.limits import RETRIES
from campaign_rules._export.catalogue import render_markdown

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("name", ["phone_call.json", "whatsapp.json", "scheduled_cycles.json"])
def test_valid_examples_print_ok_and_the_normalized_campaign(name, capsys):
    assert main(["check", str(EXAMPLES / name)]) == 0
    out = capsys.readouterr().out
    first, rest = out.split("\n", 1)
    assert first == "ok"
    campaign = json.loads(rest)
    assert campaign["retries"] in RETRIES
    assert "message_limit" in campaign


def test_invalid_example_prints_one_line_per_violation(capsys):
    assert main(["check", str(EXAMPLES / "invalid.json")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"INVALID_REQUEST retries: {RETRIES.must_be('retries')}" in lines
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


def test_json_output_lists_every_violation(capsys):
    assert main(["check", "--json", str(EXAMPLES / "invalid.json")]) == 1
    out = json.loads(capsys.readouterr().out)
    expected = validate_create(json.loads((EXAMPLES / "invalid.json").read_text()))
    assert len(expected.violations) > 1
    assert out["violations"] == [
        {"key": v.key.value, "field": v.field, "message": v.message, "rule": v.rule}
        for v in expected.violations
    ]


def test_json_output_of_a_response_lists_its_violations(capsys, tmp_path):
    path = tmp_path / "thread.json"
    path.write_text('{"id": 7}', encoding="utf-8")
    assert main(["check", "--json", "--kind", "thread", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 500
    assert out["violations"]
    assert {v["key"] for v in out["violations"]} == {"SERVER_ERROR"}


def test_json_output_of_a_valid_payload_is_201_and_the_campaign(capsys):
    assert main(["check", "--json", str(EXAMPLES / "whatsapp.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 201
    assert out["body"]["template"] == "order_update_v2"
    assert out["violations"] == []


@pytest.mark.parametrize("kind", ["create", "thread", "create-response"])
def test_status_without_kind_error_is_a_usage_error(capsys, kind):
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--kind", kind, "--status", "404", str(EXAMPLES / "phone_call.json")])
    assert exit_.value.code == 2
    assert "--status goes with --kind error only" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["check", "rules", "schema"])
def test_every_sub_command_describes_itself(capsys, command):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    usage, _, description = capsys.readouterr().out.partition("\n\n")
    assert usage.startswith(f"usage: campaign-rules {command}")
    assert len(description.split("\n\n")[0]) > 40


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


RESPONSES = EXAMPLES / "responses"


@pytest.mark.parametrize(
    ("kind", "name", "member"),
    [
        ("create-response", "create_response.json", "created_at"),
        ("contact-response", "contact_response.json", "last_call_at"),
        ("thread", "thread.json", "updated_at"),
    ],
)
def test_a_valid_response_prints_ok_and_its_wire_form(kind, name, member, capsys):
    assert main(["check", "--kind", kind, str(RESPONSES / name)]) == 0
    first, rest = capsys.readouterr().out.split("\n", 1)
    assert first == "ok"
    assert member in json.loads(rest)


def test_a_thread_is_printed_without_the_members_the_spec_does_not_list(capsys):
    assert main(["check", "--kind", "thread", str(RESPONSES / "thread.json")]) == 0
    thread = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert thread["integration"] == {"id": "int-wa-2"}
    assert thread["tags"] == [{"id": "tag-vip", "name": "VIP"}]


@pytest.mark.parametrize(
    ("status", "name", "expected"),
    [
        (400, "api_error.json", {"error": "IMMUTABLE_FIELD", "field": "cycles.mode"}),
        (401, "credentials_error.json", {"error": 401}),
    ],
)
def test_an_error_body_is_read_as_its_own_shape(status, name, expected, capsys):
    assert (
        main(["check", "--json", "--kind", "error", "--status", str(status), str(RESPONSES / name)])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == 200
    assert expected.items() <= out["body"].items()


def test_a_broken_response_prints_its_violations_with_paths(tmp_path, capsys):
    body = json.loads((RESPONSES / "create_response.json").read_text(encoding="utf-8"))
    body["campaign"]["integration"]["id"] = 5
    del body["campaign"]["agent"]["name"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    assert main(["check", "--kind", "create-response", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "SERVER_ERROR campaign.agent.name: campaign.agent.name is required",
        "SERVER_ERROR campaign.integration.id: campaign.integration.id must be a string",
    ]


def test_a_response_kind_in_json_mode_answers_500_and_the_envelope(tmp_path, capsys):
    path = tmp_path / "list.json"
    path.write_text("[]", encoding="utf-8")
    assert main(["check", "--json", "--kind", "thread", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "status": 500,
        "body": {
            "success": False,
            "error": "SERVER_ERROR",
            "message": "the response body must be a JSON object, not an array",
        },
        "violations": [
            {
                "key": "SERVER_ERROR",
                "field": None,
                "message": "the response body must be a JSON object, not an array",
                "rule": "response.body_is_object",
            }
        ],
    }


def test_kind_error_needs_a_status(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--kind", "error", str(RESPONSES / "api_error.json")])
    assert exit_info.value.code == 2
    assert "--kind error needs --status" in capsys.readouterr().err


def test_an_unknown_kind_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--kind", "campaign", str(EXAMPLES / "phone_call.json")])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "code"), [(["rules"], 0), (["check", str(EXAMPLES / "invalid.json")], 1)]
)
def test_a_reader_that_leaves_early_ends_the_command_quietly(command, code, monkeypatch):
    # A pipe whose reading end is closed: the first flush raises BrokenPipeError.
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w", encoding="utf-8") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert main(command) == code
        # stdout now writes to devnull, so the flush at exit cannot fail again.
        closed_pipe.write("more")
        closed_pipe.flush()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (
            b'\xef\xbb\xbf{"name": "x"}',
            "the file starts with a UTF-8 byte order mark; save it as UTF-8 without one",
        ),
        (b"", "the file is empty; it should hold one JSON value"),
        (b" \r\n\t", "the file holds only white space; it should hold one JSON value"),
        (b'{"name": "\xff"}', "it is not UTF-8 text: 'utf-8' codec can't decode byte 0xff"),
    ],
)
@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_a_file_with_no_json_value_says_what_to_do(tmp_path, capsys, content, reason, as_json):
    path = tmp_path / "body.json"
    path.write_bytes(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", *as_json, str(path)])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"campaign-rules: cannot read {path}: {reason}")
    assert captured.err.count("\n") == 1
    assert captured.out == ""


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["check", "--bogus", "x.json"], "unrecognized arguments: --bogus"),
        (["check", "x.json", "y.json"], "unrecognized arguments: y.json"),
        (["check", "--kind", "error", "x.json"], "--kind error needs --status"),
        (["check", "--status", "404", "x.json"], "--status goes with --kind error only"),
        (["audit", "--bogus", "x.jsonl"], "unrecognized arguments: --bogus"),
        (["rules", "--bogus"], "unrecognized arguments: --bogus"),
        (["schema", "x"], "unrecognized arguments: x"),
    ],
)
def test_a_flag_error_prints_the_usage_of_its_sub_command(capsys, argv, error):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: campaign-rules {argv[0]} ")
    assert f"\ncampaign-rules {argv[0]}: error: {error}" in err


@pytest.mark.parametrize("command", ["check", "audit"])
def test_the_help_lists_every_exit_status(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    listed = re.search(r"Exit status: (.*?)\.", text)
    assert listed, text
    assert [int(status) for status in re.findall(r"(?:^|, )(\d+) ", listed[1])] == list(ExitStatus)
    assert "130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM)" in listed[1]
