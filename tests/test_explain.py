"""`campaign-rules explain RULE_ID` (or an error key): the clause, decisions, key and cases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_rules._export import sources
from campaign_rules._export.clauses import clauses
from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent


def explain(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campaign_rules", "explain", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )


def cases_of(rule: str) -> list[dict[str, object]]:
    path = ROOT / "tests" / "cases" / f"{rule}.json"
    cases: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases


def test_a_rule_is_explained_from_its_clause_to_its_cases() -> None:
    done = explain("cycles.cooldown_mode_has_no_schedule", "--source", str(ROOT))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    text = done.stdout
    clause = next(clause for clause in clauses() if clause.id == "2.4 rule 3")
    assert "spec 2.4 Cycles config object, rule 3" in text
    assert " ".join(clause.text.split()) in " ".join(text.split())
    assert "key SCHEDULED_MODE_ONLY, status 400, stage create" in text
    assert 'D-null-members: `null` is not "absent" in a create body' in text
    cases = cases_of("cycles.cooldown_mode_has_no_schedule")
    refused = sum(1 for case in cases if case["violations"])
    assert f"Cases: {len(cases)} prove it, {len(cases) - refused} accepted and {refused} " in text
    assert "rules/cycles.cooldown_mode_has_no_schedule.html" in text


def test_every_rule_can_be_explained() -> None:
    done = explain("INVALID_REQUEST")
    assert done.returncode == 0, done.stderr
    yielding = [info.id for info in catalogue() if info.key.value == "INVALID_REQUEST"]
    assert done.stdout.startswith(f"{len(yielding)} rules yield INVALID_REQUEST: ")
    for rule in yielding:
        assert f"\n{rule}: " in done.stdout
    assert "no such clause" not in done.stdout
    assert "no such decision" not in done.stdout


def test_a_rule_that_cites_only_decisions_says_so() -> None:
    done = explain("name.not_blank")
    assert "It cites no clause of the spec" in done.stdout
    assert "D-blank-name: a name needs a visible character" in done.stdout


def test_an_unknown_id_exits_2_with_one_line_that_suggests_the_nearest() -> None:
    done = explain("retries.within_bound")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "campaign-rules: explain: no rule or error key 'retries.within_bound'; "
        "did you mean retries.within_bounds?\n"
    )


@pytest.mark.parametrize(
    ("name", "suggested"),
    [
        ("retries", "retries.within_bounds"),
        ("retry", "retries.within_bounds"),
        ("timezone", "timezone.is_iana_name"),
        ("invalid_reqest", "INVALID_REQUEST"),
        ("name", "name.within_max_length, name.not_blank or timezone.is_iana_name"),
    ],
)
def test_a_name_of_no_rule_is_answered_with_the_rules_and_keys_nearest_it(
    name: str, suggested: str
) -> None:
    done = explain(name)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"campaign-rules: explain: no rule or error key {name!r}; did you mean {suggested}?\n"
    )


def test_a_name_like_none_says_where_the_names_are() -> None:
    done = explain("zzz")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith("; `campaign-rules rules` lists them all\n")
    assert done.stderr.count("\n") == 1


def test_an_error_key_is_taken_in_any_case_and_one_rule_is_counted_as_one() -> None:
    upper = explain("SCHEDULED_MODE_ONLY")
    assert upper.returncode == 0, upper.stderr
    assert upper.stdout.startswith(
        "1 rule yields SCHEDULED_MODE_ONLY: cycles.cooldown_mode_has_no_schedule\n"
    )
    for spelling in ("scheduled_mode_only", "Scheduled_Mode_Only"):
        assert explain(spelling).stdout == upper.stdout
    lower = explain("invalid_request")
    assert lower.returncode == 0, lower.stderr
    assert lower.stdout == explain("INVALID_REQUEST").stdout
    yielding = sum(1 for info in catalogue() if info.key.value == "INVALID_REQUEST")
    assert lower.stdout.startswith(f"{yielding} rules yield INVALID_REQUEST: ")


def test_one_case_is_counted_as_one(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / sources.DECISIONS).write_text("# Decisions\n", encoding="utf-8")
    cases = tmp_path / sources.CASES
    cases.mkdir(parents=True)
    one = {"rule": "name.not_blank", "cases": [{"title": "blank", "violations": [["x"]]}]}
    (cases / "name.not_blank.json").write_text(json.dumps(one), encoding="utf-8")
    done = explain("name.not_blank", "--source", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Cases: 1 proves it, 0 accepted and 1 refused (tests/cases/name.not_blank.json)." in (
        done.stdout
    )


def test_a_directory_that_is_no_source_tree_exits_2(tmp_path: Path) -> None:
    done = explain("retries.within_bounds", "--source", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "is not a source tree of campaign-rules" in done.stderr


def test_without_a_source_tree_it_says_where_the_decisions_and_cases_are(tmp_path: Path) -> None:
    code = (
        "import argparse, sys\n"
        "from campaign_rules._cli import explain\n"
        "from campaign_rules._export import sources\n"
        "sources.source_tree = lambda *candidates: None\n"
        "args = argparse.Namespace(rule='name.not_blank', source=None, docs_url='https://x/')\n"
        "print(explain.explain(args)[1])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert "D-blank-name: in docs/decisions.md of the source tree" in done.stdout
    assert "Cases: in tests/cases/name.not_blank.json of the source tree" in done.stdout
    assert "page https://x/rules/name.not_blank.html" in done.stdout


def test_the_source_tree_is_found_from_the_package_or_the_current_directory(
    tmp_path: Path,
) -> None:
    assert sources.source_tree(tmp_path, ROOT) == ROOT
    assert sources.source_tree(tmp_path) is None
    counts = sources.case_counts(ROOT / "tests" / "cases", ["retries.within_bounds", "no.such"])
    assert list(counts) == ["retries.within_bounds"]
    assert counts["retries.within_bounds"].total == len(cases_of("retries.within_bounds"))
