"""The command line: `campaign-rules check` and `campaign-rules rules`."""

import argparse
import codecs
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from campaign_rules import Violation, validate_create_json
from campaign_rules._cli import main
from campaign_rules._cli.commands import _parser
from campaign_rules._cli.exits import ExitStatus
from campaign_rules._cli.options import whole_number
from campaign_rules._core.limits import MESSAGE_LIMIT, RETRIES, VIOLATIONS_MAX
from campaign_rules._export.catalogue import render_markdown
from campaign_rules._export.links import DOCS_URL, rule_url
from tests.cli_support import lines_of

EXAMPLES = Path(__file__).parent.parent / "examples"
VALID_NAMES = ["phone_call.json", "whatsapp.json", "scheduled_cycles.json"]


@pytest.mark.parametrize("name", VALID_NAMES)
def test_a_valid_example_prints_the_count_alone(name, capsys):
    assert main(["check", str(EXAMPLES / name)]) == 0
    assert capsys.readouterr().out == "No violations in 1 file\n"


def test_invalid_example_prints_one_line_per_violation_then_the_count(capsys):
    path = EXAMPLES / "invalid.json"
    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    violations = validate_create_json(path.read_bytes()).violations
    assert lines == [*lines_of(path, violations), "Found 7 violations in 1 file"]
    assert f"{path}:7:14: INVALID_REQUEST {RETRIES.must_be('retries')} [" in "\n".join(lines)
    places = [tuple(map(int, line.split(":")[1:3])) for line in lines[:-1]]
    assert places == sorted(places)
    assert places[:3] == [(3, 15), (6, 20), (7, 14)]
    assert any(
        re.fullmatch(
            rf"{re.escape(str(path))}:\d+:\d+: SCHEDULED_MODE_ONLY "
            r"cycles\.schedule_start_date is .*",
            line,
        )
        for line in lines
    )


def test_several_files_are_checked_in_order_and_counted(capsys):
    invalid = EXAMPLES / "invalid.json"
    paths = [str(EXAMPLES / name) for name in VALID_NAMES] + [str(invalid)]
    assert main(["check", *paths]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [str(invalid)] * 7
    assert lines[-1] == "Found 7 violations in 1 of 4 files"


def test_several_valid_files_exit_0(capsys):
    assert main(["check", *(str(EXAMPLES / name) for name in VALID_NAMES)]) == 0
    assert capsys.readouterr().out == "No violations in 3 files\n"


def test_the_count_says_one_violation_and_several_invalid_files(tmp_path, capsys):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    body = json.loads((EXAMPLES / "whatsapp.json").read_text(encoding="utf-8"))
    # Out of range whatever the bounds of `limits` are.
    too_many, too_few = RETRIES.high + 1, MESSAGE_LIMIT.low - 1
    one.write_text(json.dumps(body | {"retries": too_many}), encoding="utf-8")
    two.write_text(
        json.dumps(body | {"retries": too_many, "message_limit": too_few}), encoding="utf-8"
    )
    assert main(["check", str(one)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "Found 1 violation in 1 file"
    assert main(["check", str(one), str(two)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "Found 3 violations in 2 of 2 files"


def test_an_unreadable_file_among_others_is_named_and_the_rest_checked(tmp_path, capsys):
    absent = tmp_path / "absent.json"
    argv = ["check", str(EXAMPLES / "invalid.json"), str(absent), str(EXAMPLES / "whatsapp.json")]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"campaign-rules: cannot read {absent}: [Errno 2] No such file or directory\n"
    )
    assert captured.out.splitlines()[-1] == (
        "Found 7 violations in 1 of 2 files; 1 file could not be read"
    )


def test_json_lists_an_unreadable_file_in_its_place_with_its_error(tmp_path, capsys):
    absent = tmp_path / "absent.json"
    argv = ["check", "--json", str(EXAMPLES / "invalid.json"), str(absent)]
    assert main([*argv, str(EXAMPLES / "whatsapp.json")]) == 2
    captured = capsys.readouterr()
    reports = json.loads(captured.out)
    assert [report["file"] for report in reports] == [*argv[2:], str(EXAMPLES / "whatsapp.json")]
    assert reports[1] == {"file": str(absent), "error": "[Errno 2] No such file or directory"}
    assert captured.err == f"campaign-rules: cannot read {absent}: {reports[1]['error']}\n"


def test_the_command_reads_what_the_server_reads(tmp_path, capsys):
    # A byte order mark, UTF-16, a member twice: violations with their place, as the server's
    # 400 (D-body-reading), not a file the command cannot read.
    text = (EXAMPLES / "whatsapp.json").read_text(encoding="utf-8")
    bodies = {
        "bom.json": codecs.BOM_UTF8 + text.encode(),
        "utf16.json": text.encode("utf-16"),
        "twice.json": text.replace('"name"', '"name": "x", "name"', 1).encode(),
        "empty.json": b"",
    }
    assert bodies["twice.json"] != text.encode()
    for name, data in bodies.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert main(["check", str(path)]) == 1
        violations = validate_create_json(data).violations
        assert violations
        assert capsys.readouterr().out.splitlines()[:-1] == lines_of(path, violations)


def test_json_output_carries_status_and_envelope(capsys):
    assert main(["check", "--json", str(EXAMPLES / "invalid.json")]) == 1
    [out] = json.loads(capsys.readouterr().out)
    assert out["file"] == str(EXAMPLES / "invalid.json")
    assert out["status"] == 400
    assert out["body"] == {
        "success": False,
        "error": "INVALID_REQUEST",
        "message": "agent_id must be a UUID v4 in 8-4-4-4-12 form",
        "field": "agent_id",
    }


def test_json_output_lists_every_violation_with_every_field_and_its_url(capsys):
    assert main(["check", "--json", str(EXAMPLES / "invalid.json")]) == 1
    [out] = json.loads(capsys.readouterr().out)
    expected = validate_create_json((EXAMPLES / "invalid.json").read_bytes())
    assert len(expected.violations) > 1
    names = [field.name for field in attrs.fields(Violation)]
    assert {"pointer", "line", "column"} <= set(names)
    assert out["violations"] == [
        {
            **{name: getattr(v, name) for name in names},
            "key": v.key.value,
            "url": f"{DOCS_URL}rules/{v.rule}.html",
        }
        for v in expected.violations
    ]
    assert [list(v) for v in out["violations"]] == [[*names, "url"]] * len(expected.violations)
    assert all(isinstance(v["line"], int) and v["column"] >= 1 for v in out["violations"])


@pytest.mark.parametrize("base", ["http://127.0.0.1:8000/docs/", "file:///srv/site"])
def test_the_docs_url_sets_where_each_url_points(capsys, base):
    assert main(["check", "--json", "--docs-url", base, str(EXAMPLES / "invalid.json")]) == 1
    [out] = json.loads(capsys.readouterr().out)
    assert [v["url"] for v in out["violations"]] == [
        rule_url(v["rule"], base) for v in out["violations"]
    ]
    assert out["violations"][0]["url"].startswith(base.rstrip("/") + "/rules/")


def test_json_output_of_several_files_is_one_array_in_their_order(capsys):
    paths = [str(EXAMPLES / "invalid.json"), str(EXAMPLES / "whatsapp.json")]
    assert main(["check", "--json", *paths]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [(report["file"], report["status"]) for report in out] == [
        (paths[0], 400),
        (paths[1], 201),
    ]


def test_json_output_of_a_response_lists_its_violations(capsys, tmp_path):
    path = tmp_path / "thread.json"
    path.write_text('{"id": 7}', encoding="utf-8")
    assert main(["check", "--json", "--kind", "thread", str(path)]) == 1
    [out] = json.loads(capsys.readouterr().out)
    assert out["status"] == 500
    assert out["violations"]
    assert {v["key"] for v in out["violations"]} == {"SERVER_ERROR"}


def test_json_output_of_a_valid_payload_is_201_and_the_campaign(capsys):
    assert main(["check", "--json", str(EXAMPLES / "whatsapp.json")]) == 0
    [out] = json.loads(capsys.readouterr().out)
    assert out["status"] == 201
    assert out["body"]["retries"] in RETRIES
    assert "message_limit" in out["body"]
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


HOSTILE_TEXTS = [
    b'{"name": ',
    b"[NaN]",
    b"\xff\xfe",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"name": "\\ud800"}',
]


@pytest.mark.parametrize("content", HOSTILE_TEXTS)
def test_a_creation_body_that_is_not_i_json_is_a_violation_with_its_place(
    tmp_path, capsys, content
):
    path = tmp_path / "body.json"
    path.write_bytes(content)
    assert main(["check", str(path)]) == 1
    captured = capsys.readouterr()
    violations = validate_create_json(content).violations
    assert captured.out.splitlines()[:-1] == lines_of(path, violations)
    assert captured.err == ""


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"name": ', "is not valid JSON"),
        (b"[NaN]", "NaN is not a JSON value"),
        (b"\xff\xfe", "it is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_a_response_body_that_is_not_json_exits_2_with_a_reason(tmp_path, capsys, content, reason):
    path = tmp_path / "body.json"
    path.write_bytes(content)
    assert main(["check", "--kind", "thread", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"campaign-rules: cannot read {path}: ")
    assert reason in err
    assert err.count("\n") == 1


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["check", str(tmp_path / "absent.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_standard_input_is_read_with_a_dash(monkeypatch, capsys):
    body = json.dumps({"name": "x"}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    assert main(["check", "-"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("-:1:1: INVALID_REQUEST agent_id is required")


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
    first = f"{EXAMPLES / 'invalid.json'}:3:15: INVALID_REQUEST agent_id must be"
    assert done.stdout.startswith(first)
    assert done.stderr == ""


def test_a_file_whose_violations_reach_the_cap_is_said_to_be_cut(tmp_path):
    # Issue 36: 174,762 numbers no double holds; the command lists the first 50, each at its
    # number, and its last line says the list reached the cap (D-hostile-input).
    hostile = tmp_path / "hostile.json"
    hostile.write_bytes(b"[" + b"1e999," * 174761 + b"1e999]")
    fewer = tmp_path / "fewer.json"
    fewer.write_bytes(b"[1e999, NaN]")
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "check", str(hostile), str(fewer)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == VIOLATIONS_MAX + 2 + 1
    assert lines[0].startswith(f"{hostile}:1:2: INVALID_REQUEST [0] ")
    assert lines[VIOLATIONS_MAX - 1].startswith(f"{hostile}:1:{2 + 6 * (VIOLATIONS_MAX - 1)}: ")
    assert lines[-1] == (
        f"Found {VIOLATIONS_MAX + 2} violations in 2 of 2 files; 1 file reached the limit of "
        f"{VIOLATIONS_MAX} violations listed, and may have more"
    )


def test_the_command_reads_files_and_standard_input_in_one_process(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_bytes(
        b'{\r\n  "name": "\xc3\xa9t\xc3\xa9",\r\n  "retries": 9,\r\n  "retries": 1\r\n}'
    )
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "check", str(broken), "-"],
        input=(EXAMPLES / "phone_call.json").read_bytes(),
        capture_output=True,
        check=False,
    )
    out = done.stdout.decode()
    assert done.returncode == 1
    assert done.stderr == b""
    violations = validate_create_json(broken.read_bytes()).violations
    assert out.splitlines() == [
        *lines_of(broken, violations),
        "Found 1 violation in 1 of 2 files",
    ]
    # The repeat, placed at its repeated name: the fourth line, after the CR LF of each line before.
    [repeated] = violations
    assert (repeated.pointer, repeated.line, repeated.column) == ("/retries", 4, 3)


def test_the_command_words_a_body_that_is_no_json_as_the_library_does(tmp_path):
    # A cut body, and an integer of more digits than Python converts (issues 36 and 37): each
    # a whole sentence of the library's, placed, whichever decoder is installed.
    cut = tmp_path / "cut.json"
    cut.write_bytes(b'{"name": "Spring ren')
    long = tmp_path / "long.json"
    long.write_bytes(b'{"retries":\n ' + b"9" * 5000 + b"}")
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "check", str(cut), str(long)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{cut}:1:10: INVALID_REQUEST ")
    assert lines[0].endswith(
        " the request body must be JSON: a string has no closing quote [body.is_json]"
    )
    assert lines[1].startswith(f"{long}:2:2: INVALID_REQUEST ")
    assert lines[1].endswith(
        " retries must be a number an IEEE double holds [body.numbers_fit_a_double]"
    )
    assert "sys." not in done.stdout
    # A response body is read by the same sentences.
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "check", "--kind", "thread", str(cut)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"campaign-rules: cannot read {cut}: it is not valid JSON: a string has no closing quote "
        "at line 1 column 10\n"
    )


RESPONSES = EXAMPLES / "responses"


@pytest.mark.parametrize(
    ("kind", "name", "member"),
    [
        ("create-response", "create_response.json", "created_at"),
        ("contact-response", "contact_response.json", "last_call_at"),
        ("thread", "thread.json", "updated_at"),
    ],
)
def test_a_valid_response_is_counted_and_its_wire_form_is_in_json(kind, name, member, capsys):
    assert main(["check", "--kind", kind, str(RESPONSES / name)]) == 0
    assert capsys.readouterr().out == "No violations in 1 file\n"
    assert main(["check", "--json", "--kind", kind, str(RESPONSES / name)]) == 0
    [out] = json.loads(capsys.readouterr().out)
    assert member in out["body"]


def test_a_thread_is_printed_without_the_members_the_spec_does_not_list(capsys):
    assert main(["check", "--json", "--kind", "thread", str(RESPONSES / "thread.json")]) == 0
    thread = json.loads(capsys.readouterr().out)[0]["body"]
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
    [out] = json.loads(capsys.readouterr().out)
    assert out["status"] == 200
    assert expected.items() <= out["body"].items()


def test_a_broken_response_prints_its_violations_with_paths(tmp_path, capsys):
    body = json.loads((RESPONSES / "create_response.json").read_text(encoding="utf-8"))
    body["campaign"]["integration"]["id"] = 5
    del body["campaign"]["agent"]["name"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    assert main(["check", "--kind", "create-response", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.rpartition(" [")[0] for line in lines[:-1]] == [
        f"{path}: SERVER_ERROR campaign.agent.name is required",
        f"{path}: SERVER_ERROR campaign.integration.id must be a string",
    ]
    assert lines[-1] == "Found 2 violations in 1 file"


def test_a_response_kind_in_json_mode_answers_500_and_the_envelope(tmp_path, capsys):
    path = tmp_path / "list.json"
    path.write_text("[]", encoding="utf-8")
    assert main(["check", "--json", "--kind", "thread", str(path)]) == 1
    [out] = json.loads(capsys.readouterr().out)
    assert out == {
        "file": str(path),
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
                "pointer": "",
                "line": None,
                "column": None,
                "url": rule_url("response.body_is_object"),
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
def test_a_response_file_with_no_json_value_says_what_to_do(
    tmp_path, capsys, content, reason, as_json
):
    path = tmp_path / "body.json"
    path.write_bytes(content)
    assert main(["check", "--kind", "thread", *as_json, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"campaign-rules: cannot read {path}: {reason}")
    assert captured.err.count("\n") == 1
    if as_json:  # the file is listed with the reason standard error gives
        said = captured.err.removeprefix(f"campaign-rules: cannot read {path}: ").rstrip("\n")
        assert json.loads(captured.out) == [{"file": str(path), "error": said}]
    else:
        assert captured.out == "No files checked; 1 file could not be read\n"


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["check", "--bogus", "x.json"], "unrecognized arguments: --bogus"),
        (["check"], "the following arguments are required: FILE"),
        (["check", "--kind", "error", "x.json"], "--kind error needs --status"),
        (["check", "--status", "404", "x.json"], "--status goes with --kind error only"),
        (
            ["check", "--kind", "error", "--status", "\u0664\u0660\u0664", "x.json"],
            "argument --status: must be a whole number written in the digits 0 to 9: "
            "\u0664\u0660\u0664",
        ),
        (
            ["check", "--kind", "error", "--status", "4_04", "x.json"],
            "argument --status: must be a whole number written in the digits 0 to 9: 4_04",
        ),
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


def test_every_number_option_reads_ascii_digits_only() -> None:
    # `type=int` would read `٣` as 3: every option of a number has the command line's reader.
    parser, commands = _parser()
    typed = [
        (name, action.dest, action.type)
        for name, command in [("", parser), *commands.choices.items()]
        for action in command._actions
        if action.type is not None
    ]
    assert not [(name, dest) for name, dest, kind in typed if kind in (int, float)]
    assert ("check", "status", whole_number) in typed
    for name, dest, kind in typed:
        try:
            read = kind("\u0663")  # ARABIC-INDIC DIGIT THREE
        except argparse.ArgumentTypeError:
            continue
        assert read != 3, (name, dest)


@pytest.mark.parametrize("command", ["check", "audit"])
def test_the_help_lists_every_exit_status(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    listed = re.search(r"Exit status: (.*?)\.", text)
    assert listed, text
    assert [int(status) for status in re.findall(r"(?:^|, )(\d+) ", listed[1])] == list(ExitStatus)
    assert "130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM)" in listed[1]


def test_a_line_names_its_field_once_before_a_message_that_does_not_begin_with_it(tmp_path, capsys):
    body = json.loads((EXAMPLES / "whatsapp.json").read_text(encoding="utf-8"))
    path = tmp_path / "unknown.json"
    body.pop("retries", None)
    # `retries` first in the text, and its rule after `payload.known_members_only` in the table.
    text = json.dumps({"retries": 9} | body | {"retry": 2}, indent=1)
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()[:-1]
    [unknown] = [line for line in lines if "payload.known_members_only" in line]
    [retries] = [line for line in lines if "retries.within_bounds" in line]
    assert re.fullmatch(
        rf"{re.escape(str(path))}:\d+:\d+: INVALID_REQUEST retry: this is not a known field "
        r"of the request body \[payload.known_members_only\]",
        unknown,
    )
    assert f" INVALID_REQUEST {RETRIES.must_be('retries')} [" in retries
    assert lines.index(retries) < lines.index(unknown)
