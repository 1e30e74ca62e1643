"""The audit core: summaries of JSON Lines, their rows, and how summaries merge."""

import json
import subprocess
import sys

import pytest

from campaign_rules import validate_create, validate_create_json
from campaign_rules._core.limits import RETRIES
from campaign_rules.audit import (
    FIRST_RECORDS_KEPT,
    AuditSummary,
    RuleTally,
    audit_chunk,
    audit_lines,
    merge_summaries,
    violation_rows,
)
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
    summary_verdicts,
)

# The example a tally keeps of `payload.is_object` when its first record is an array.
IS_OBJECT = "the request body must be a JSON object, not an array"


def test_records_are_numbered_by_line_and_blank_lines_are_skipped():
    summary = audit_lines([VALID, "", INVALID, " \t\r\n", VALID])
    assert (summary.lines, summary.records) == (5, 3)
    assert (summary.valid, summary.invalid, summary.unreadable) == (2, 1, 0)
    assert summary.rules["retries.within_bounds"] == RuleTally(
        1, (3,), "retries", RETRIES.must_be("retries")
    )
    assert summary.keys == {"INVALID_REQUEST": 1, "SCHEDULED_MODE_ONLY": 1}


@pytest.mark.parametrize(("line", "rule"), SERVER_TABLE)
def test_each_line_of_issue_37s_table_is_refused_by_the_servers_body_rule(line, rule):
    lines = [VALID, line, line + b"\n", line.decode("utf-8", "surrogatepass")]
    summary = audit_lines(lines)
    assert (summary.valid, summary.invalid, summary.unreadable) == (1, 3, 0)
    assert set(summary.rules) == {rule}
    assert summary.rules[rule].first_records == (2, 3, 4)
    kind, violations = server_verdict(line)
    assert (kind, [violation[0] for violation in violations]) == ("invalid", [rule])
    rows = list(violation_rows(lines))
    assert [(row["record"], row["line"], row_verdict(row)) for row in rows] == [
        (number, number, violations[0]) for number in (2, 3, 4)
    ]


@pytest.mark.parametrize("line", [line for line, _ in SERVER_TABLE] + EDGE_LINES)
def test_a_line_gets_the_verdict_validate_create_json_gives_its_bytes(line):
    kind, violations = server_verdict(line)
    summary = audit_lines([line])
    counts = {"valid": summary.valid, "invalid": summary.invalid, "unreadable": summary.unreadable}
    assert counts[kind] == summary.records == 1
    assert [row_verdict(row) for row in violation_rows([line])] == violations
    ended = line + (b"\n" if isinstance(line, bytes) else "\n")
    assert [row_verdict(row) for row in violation_rows([ended])] == violations


def test_every_line_is_judged_as_validate_create_json_judges_it():
    lines = [line for line, _ in SERVER_TABLE] + EDGE_LINES + store_lines(200, seed=9)
    assert summary_verdicts(audit_lines(lines)) == expected_summary(lines)


@pytest.mark.parametrize(
    ("line", "rule", "column"),
    [
        (BROKEN, "body.is_json", 10),
        ("\x0c", "body.is_json", 1),
        (VALID + " x", "body.is_json", len(VALID) + 2),
        (b'{"name": "\xff"}', "body.is_utf8", 11),
    ],
)
def test_a_line_that_is_not_utf8_or_not_json_is_unreadable_with_its_place(line, rule, column):
    lines = [VALID, line, VALID]
    summary = audit_lines(lines)
    assert (summary.valid, summary.invalid, summary.unreadable) == (2, 0, 1)
    assert summary.unreadable_records == (2,)
    assert summary.rules == {}
    [row] = violation_rows(lines)
    assert (row["record"], row["rule"], row["key"], row["pointer"], row["column"]) == (
        2,
        rule,
        "INVALID_REQUEST",
        "",
        column,
    )


def test_an_item_that_is_no_line_is_unreadable():
    summary = audit_lines([VALID, None, 3, ["{}"], VALID])
    assert (summary.valid, summary.unreadable, summary.unreadable_records) == (2, 3, (2, 3, 4))
    [row] = violation_rows([None])
    assert (row["rule"], row["column"]) == ("body.is_bytes_or_text", None)
    assert row["message"] == validate_create_json(None).violations[0].message


def test_a_bytearray_or_a_memoryview_line_is_read_as_its_bytes():
    lines = [bytearray(INVALID.encode()), memoryview(VALID.encode()), bytearray(b"{")]
    summary = audit_lines(lines)
    assert (summary.valid, summary.invalid, summary.unreadable) == (1, 1, 1)
    assert summary.rules.keys() == audit_lines([INVALID]).rules.keys()


@pytest.mark.parametrize(
    "text", ['{"name": 1}', b"{}", bytearray(b"{}\n{}"), memoryview(b"{}"), "x" * 5_000_000]
)
def test_one_text_is_refused_for_lines_with_what_to_pass_instead(text):
    message = (
        rf"lines must be an iterable of lines, not one {type(text).__name__}: "
        r"pass text\.splitlines\(\) or an open file"
    )
    with pytest.raises(TypeError, match=message):
        audit_lines(text)
    with pytest.raises(TypeError, match=message):
        next(violation_rows(text))
    with pytest.raises(TypeError, match=message):
        audit_chunk(text, first_line=1, rows=True)


def test_the_lines_of_a_text_or_an_open_file_are_audited(tmp_path):
    text = f"{VALID}\n{INVALID}\n"
    path = tmp_path / "store.jsonl"
    path.write_text(text, encoding="utf-8")
    with path.open("rb") as file:
        assert audit_lines(file) == audit_lines(text.splitlines()) == audit_lines([VALID, INVALID])


@pytest.mark.parametrize("wrong", ["summary", [AuditSummary(), "summary"], 7])
def test_merge_summaries_refuses_anything_but_summaries(wrong):
    with pytest.raises(TypeError, match=r"^summaries must (hold AuditSummary|be an iterable)"):
        merge_summaries(wrong)


def test_json_that_is_no_object_is_an_invalid_record():
    summary = audit_lines(["[1, 2]", "null", '"text"'])
    assert (summary.invalid, summary.unreadable) == (3, 0)
    assert summary.rules == {"payload.is_object": RuleTally(3, (1, 2, 3), None, IS_OBJECT)}


def test_bytes_and_text_lines_with_or_without_line_breaks_give_one_summary():
    lines = store_lines(200, seed=3)
    as_text = audit_lines(lines)
    assert audit_lines([line.encode() for line in lines]) == as_text
    assert audit_lines([line + "\r\n" for line in lines]) == as_text
    assert audit_lines([(line + "\n").encode() for line in lines]) == as_text


def test_rows_are_the_violations_validate_create_reports_in_order():
    rows = list(violation_rows([VALID, "", INVALID], first_line=41))
    violations = validate_create(json.loads(INVALID)).violations
    assert [(row["rule"], row["key"], row["field"], row["message"]) for row in rows] == [
        (violation.rule, violation.key.value, violation.field, violation.message)
        for violation in violations
    ]
    assert {row["record"] for row in rows} == {43}


def test_rows_carry_the_pointer_the_line_and_the_column_of_each_violation():
    # Known places: a character past ASCII and an emoji before the members, each one column.
    line = '{"name": "Café 🌱", "retries": 9, "cycles": {"enabled": true, "mode": "x"}}'
    rows = list(violation_rows([VALID, line.encode(), line + "\r\n"], first_line=7))
    placed = {(row["record"], row["pointer"]): (row["line"], row["column"]) for row in rows}
    assert placed[(8, "/retries")] == (8, line.index("9") + 1) == (8, 31)
    assert placed[(9, "/retries")] == (9, 31)
    assert placed[(8, "/cycles/mode")] == (8, line.index('"x"') + 1)
    # An absent member is placed at its object's opening brace.
    assert placed[(8, "/agent_id")] == (8, 1)
    assert {row["record"] for row in rows} == {8, 9}


def test_rows_have_the_places_validate_create_json_gives_the_line():
    compared = 0
    for line in store_lines(200, seed=5):
        expected = validate_create_json(line)
        if any(violation.rule.startswith("body.") for violation in expected.violations):
            continue  # not I-JSON: the audit reads it as `json` does (D-audit-fast-decoder)
        compared += bool(expected.violations)
        rows = list(violation_rows([line]))
        assert [(row["pointer"], row["line"], row["column"]) for row in rows] == [
            (violation.pointer, violation.line, violation.column)
            for violation in expected.violations
        ]
    assert compared > 20


def test_an_unreadable_row_has_its_line_and_where_the_line_stops_being_json():
    [row] = violation_rows([VALID, BROKEN], first_line=3)
    assert (row["record"], row["file"], row["line"], row["pointer"], row["column"]) == (
        4,
        None,
        4,
        "",
        10,
    )


def test_rows_name_their_file_and_their_line_in_it_and_records_run_on():
    rows = list(
        violation_rows([VALID, INVALID, BROKEN], first_line=101, file="b.jsonl", file_line=7)
    )
    assert {(row["record"], row["file"], row["line"]) for row in rows} == {
        (102, "b.jsonl", 8),
        (103, "b.jsonl", 9),
    }
    _, text = audit_chunk([VALID, INVALID], first_line=11, rows=True, file="a.jsonl", file_line=1)
    assert {
        (row["record"], row["file"], row["line"]) for row in map(json.loads, text.splitlines())
    } == {(12, "a.jsonl", 2)}


@pytest.mark.parametrize(
    ("arguments", "refusal"),
    [
        ({"file": b"a.jsonl"}, "file must be a str or None, not bytes"),
        ({"file_line": 1.0}, "file_line must be an int, not float"),
        ({"first_line": "1"}, "first_line must be an int, not str"),
    ],
)
def test_a_file_or_a_line_number_of_the_wrong_type_is_a_type_error(arguments, refusal):
    with pytest.raises(TypeError, match=refusal):
        next(violation_rows([INVALID], **arguments))
    with pytest.raises(TypeError, match=refusal):
        audit_chunk([INVALID], **{"first_line": 1, "rows": True, **arguments})


def test_a_chunk_gives_its_summary_and_its_rows_as_json_lines_in_one_pass():
    lines = store_lines(300, seed=4)
    summary, text = audit_chunk(lines, first_line=1001, rows=True)
    assert summary == audit_lines(lines)
    assert [json.loads(row) for row in text.splitlines()] == list(
        violation_rows(lines, first_line=1001)
    )
    assert audit_chunk(lines, first_line=1, rows=False) == (summary, "")


def test_only_the_first_record_numbers_are_kept():
    summary = audit_lines(["[]"] * 12 + [BROKEN] * 9)
    assert summary.rules["payload.is_object"] == RuleTally(12, (1, 2, 3, 4, 5), None, IS_OBJECT)
    assert summary.unreadable_records == (13, 14, 15, 16, 17)
    assert FIRST_RECORDS_KEPT == 5


def test_the_json_summary_has_integer_counts_and_ranks_rules_by_records():
    summary = audit_lines(["[]", "[]", INVALID, BROKEN, VALID, ""])
    data = summary.to_json()
    assert {name: data[name] for name in ("records", "valid", "invalid", "unreadable")} == {
        "records": 5,
        "valid": 1,
        "invalid": 3,
        "unreadable": 1,
    }
    assert data["lines"] == 6
    assert data["unreadable_records"] == [4]
    assert next(iter(data["rules"].items())) == (
        "payload.is_object",
        {"count": 2, "first_records": [1, 2], "field": None, "message": IS_OBJECT},
    )
    assert data["keys"] == {"INVALID_REQUEST": 3, "SCHEDULED_MODE_ONLY": 1}
    assert json.loads(json.dumps(data)) == data


def test_the_summaries_of_consecutive_parts_merge_into_the_summary_of_the_whole():
    lines = store_lines(500, seed=5)
    parts = [lines[:7], lines[7:7], lines[7:230], lines[230:]]
    assert merge_summaries(audit_lines(part) for part in parts) == audit_lines(lines)
    assert merge_summaries([]) == AuditSummary() == audit_lines([])
    assert AuditSummary().all_valid


def test_without_dask_the_dask_module_says_which_extra_adds_it():
    code = (
        "import sys; sys.modules['dask'] = None\n"
        "try:\n    import campaign_rules.dask\n"
        "except ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "campaign_rules.dask needs Dask: pip install 'campaign-rules[dask]'\n"


class _HostileBytes(bytes):
    """A line whose own methods raise: the audit must read it by its value, as the server does."""

    def __len__(self) -> int:
        raise RuntimeError("len")

    def strip(self, *_: object) -> bytes:
        raise RuntimeError("strip")


class _HostileText(str):
    def strip(self, *_: object) -> str:
        raise RuntimeError("strip")

    def endswith(self, *_: object) -> bool:
        raise RuntimeError("endswith")


@pytest.mark.parametrize("text", [VALID, INVALID, BROKEN])
def test_a_subclass_line_is_judged_by_its_value_without_calling_its_methods(text):
    for line in (_HostileBytes(text.encode("utf-8")), _HostileText(text)):
        summary = audit_lines([line])
        kind, violations = server_verdict(text.encode("utf-8"))
        counts = {
            "valid": summary.valid,
            "invalid": summary.invalid,
            "unreadable": summary.unreadable,
        }
        assert counts[kind] == summary.records == 1
        assert [row_verdict(row) for row in violation_rows([line])] == violations
