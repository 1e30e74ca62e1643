"""The mutants of scripts/diff_mutants.py (issue 40, item 5): one for each row's declaration.

The mutants are found in the code with `ast`; these tests hold them to the rule table as the
package loads it (each key, each bound, each enumeration, each required member) and check, on
one mutant of each kind installed in a scratch copy of the package, that the edit changes the
verdict it should.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scripts.diff_mutants import (
    UNREACHABLE,
    Mutant,
    Outcome,
    mutants,
    not_through_bytes,
    record,
    run,
    table,
)
from scripts.install_revision import ROOT

from campaign_rules._campaign import shape
from campaign_rules._core.limits import CONTACT_STATUSES
from campaign_rules._core.outcome import STATUS_OF_KEY
from campaign_rules._rules.table import BODY_RULES, CREATE_RULES
from tests.support import payload

MUTANTS = mutants(ROOT)
ROWS = (*BODY_RULES, *CREATE_RULES)


def _named(kind: str) -> list[Mutant]:
    return [mutant for mutant in MUTANTS if mutant.kind == kind]


def test_each_mutant_is_one_edit_that_still_parses() -> None:
    names = [mutant.name for mutant in MUTANTS]
    assert len(set(names)) == len(names)
    for mutant in MUTANTS:
        original = (ROOT / mutant.path).read_bytes()
        edited = mutant.applied(original)
        assert edited != original, mutant.name
        compile(edited, mutant.path, "exec")


def test_every_reachable_rule_has_its_key_changed() -> None:
    reachable = {rule.id for rule in ROWS} - set(UNREACHABLE)
    assert [mutant.rules for mutant in _named("key")] == [(id,) for id in _ids(reachable)]


def _ids(chosen: set[str]) -> list[str]:
    return [rule.id for rule in ROWS if rule.id in chosen]


def test_every_bound_of_a_row_is_moved_both_ways() -> None:
    bounded = {
        rule.id: sum(
            type(value) is int or hasattr(value, "low") for value in rule.constraint.values()
        )
        for rule in CREATE_RULES
        if rule.constraint is not None
    }
    moved: dict[str, int] = {}
    for mutant in _named("bound"):
        moved[mutant.rules[0]] = moved.get(mutant.rules[0], 0) + 1
    # Two mutants a number (one less, one more), four a range (each end, both ways); a count
    # of 1 has no mutant below 0 (`minLength` 1 -> 0 is one; 0 -> -1 none).
    assert set(moved) == {rule for rule, count in bounded.items() if count}
    assert moved["retries.within_bounds"] == 4
    assert moved["name.within_max_length"] == 2


def test_every_enumeration_loses_each_value_and_gains_one() -> None:
    expected = []
    for rule in CREATE_RULES:
        values = (rule.constraint or {}).get("enum")
        if isinstance(values, list):
            expected += [f"{rule.id}: {value} left out" for value in values]
            expected.append(f"{rule.id}: mutant_value added")
    for channel, statuses in CONTACT_STATUSES.items():
        expected += [f"CONTACT_STATUSES {channel}: {status} left out" for status in statuses]
        expected.append(f"CONTACT_STATUSES {channel}: ")
    named = [mutant.name for mutant in _named("enumeration")]
    assert len(named) == len(expected)
    for name in expected:
        assert any(found.startswith(name) for found in named), name


def test_every_required_member_is_left_out_once() -> None:
    lists = [
        shape.REQUIRED_CAMPAIGN_MEMBERS,
        shape.REQUIRED_WINDOW_MEMBERS,
        shape.REQUIRED_CYCLES_MEMBERS,
        tuple(shape.REQUIRED_CYCLES_MEMBER_IN_MODE),
    ]
    left_out = [mutant for mutant in _named("required") if "left out" in mutant.name]
    assert len(left_out) == sum(len(members) for members in lists)
    assert any("made required" in mutant.name for mutant in _named("required"))


def test_the_status_of_each_key_a_body_rule_gives_is_changed() -> None:
    keys = {rule.key for rule in ROWS if rule.id not in UNREACHABLE}
    statuses = _named("status")
    assert len(statuses) == len(keys)
    assert all(key in STATUS_OF_KEY for key in keys)
    invalid_request = next(m for m in statuses if "INVALID_REQUEST" in m.name)
    assert set(invalid_request.rules) == {
        rule.id for rule in ROWS if rule.key == "INVALID_REQUEST" and rule.id not in UNREACHABLE
    }


# One mutant of each kind, with a body whose verdict it changes: (name, body, what the
# unmutated package says of it, what the mutant says), each verdict as (status, first rule).
_EFFECTS = [
    (
        "retries.within_bounds: RETRIES high 5 -> 6",
        payload(retries=6),
        (400, "retries.within_bounds"),
        (201, None),
    ),
    (
        "integration_type.is_supported: whatsapp left out",
        payload("whatsapp"),
        (201, None),
        (400, "integration_type.is_supported"),
    ),
    (
        "REQUIRED_CAMPAIGN_MEMBERS: timezone made required",
        {key: value for key, value in payload().items() if key != "timezone"},
        (201, None),
        (400, "payload.required_members_present"),
    ),
    (
        "name.not_blank: key _400 -> ErrorKey.INVALID_STATUS",
        payload(name=" "),
        (400, "name.not_blank", "INVALID_REQUEST"),
        (400, "name.not_blank", "INVALID_STATUS"),
    ),
    (
        "STATUS_OF_KEY INVALID_INTEGRATION_TYPE: 400 -> 422",
        payload(integration_type="sms"),
        (400, "integration_type.is_supported"),
        (422, "integration_type.is_supported"),
    ),
]

# Prints (status, first rule, first key) of each body given as JSON on standard input.
_JUDGE = """
import json, sys
from campaign_rules import validate_create_json
for line in sys.stdin:
    result = validate_create_json(line.encode())
    first = result.violations[0] if result.violations else None
    print(json.dumps([result.status, first and first.rule, first and first.key.value]))
"""


@pytest.mark.parametrize(
    ("name", "body", "before", "after"), _EFFECTS, ids=[e[0] for e in _EFFECTS]
)
def test_a_mutant_changes_the_verdict_it_names(
    tmp_path: Path, name: str, body: object, before: tuple[object, ...], after: tuple[object, ...]
) -> None:
    (mutant,) = [found for found in MUTANTS if found.name == name]
    package = tmp_path / "campaign_rules"
    shutil.copytree(ROOT / "src" / "campaign_rules", package, ignore=_caches)
    module = tmp_path / Path(mutant.path).relative_to("src")
    module.write_bytes(mutant.applied(module.read_bytes()))
    line = json.dumps(body) + "\n"
    judged = []
    for path in (ROOT / "src", tmp_path):
        done = subprocess.run(
            [sys.executable, "-c", _JUDGE],
            input=line,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"},
        )
        judged.append(tuple(json.loads(done.stdout))[: len(before)])
    assert judged == [before, after]


def _caches(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if name == "__pycache__" or name.endswith(".so")]


# The script end to end, on two mutants: one of a bound in `_core/limits.py` (the diff must
# find it stricter) and one of a key in the rule table (a refused body comes back rekeyed).
_END_TO_END = (
    "retries.within_bounds: RETRIES high 5 -> 4",
    "cycles.mode_is_known: key _400 -> ErrorKey.INVALID_STATUS",
)


def test_the_script_reports_each_mutant_on_its_rule() -> None:
    chosen = [mutant for mutant in MUTANTS if mutant.name in _END_TO_END]
    assert len(chosen) == len(_END_TO_END)
    outcomes = run("HEAD", chosen, jobs=2, progress=False)
    assert [outcome.problems for outcome in outcomes] == [[], []]
    assert [outcome.verdicts for outcome in outcomes] == [
        {"retries.within_bounds": "looser"},
        {"cycles.mode_is_known": "incomparable"},
    ]
    assert [outcome.verified for outcome in outcomes] == [1, 1]
    summary = table(record(outcomes, "abcdef0", 60.0, 1))
    assert summary.endswith("2 of 2 mutants reported on their rules with a verified witness.\n")


def test_a_rule_that_defers_to_a_body_rule_is_listed_not_reachable_through_bytes() -> None:
    # Its row's gate leaves every value read from a text to the body rule: the diff, which
    # judges texts, cannot see its key change; the run lists it with why, apart from the count.
    beyond = not_through_bytes()
    assert set(beyond) == {
        rule.id
        for rule in ROWS
        if any(
            gate.kind == "defers_to" and (gate.rule or "").startswith("body.")
            for gate in rule.gates
        )
    }
    assert "text.free_text_is_unicode" in beyond
    (key,) = [m for m in _named("key") if m.rules == ("text.free_text_is_unicode",)]
    (reported,) = [m for m in _named("key") if m.rules == ("retries.within_bounds",)]
    why = beyond["text.free_text_is_unicode"]
    outcomes = [
        Outcome(key, {}, 0, [], 1.0, {"text.free_text_is_unicode": why}),
        Outcome(reported, {"retries.within_bounds": "incomparable"}, 1, [], 1.0),
    ]
    summary = table(record(outcomes, "abcdef0", 60.0, 1))
    assert "| not reachable through bytes (below) |" in summary
    assert (
        "1 of 1 mutants reported on their rules with a verified witness; 1 more not reachable "
        "through bytes, listed with why."
    ) in summary
    assert f"- {why}." in summary
