"""The rule set's identity: its fingerprint changes when a rule does, and only then (D-ruleset).

Also where it shows: `AuditSummary.to_json()`, `audit --json`, the HTML report and
`campaign-rules rules --json`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import campaign_rules
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.limits import RETRIES, Bounds
from campaign_rules._export.ruleset import bounds, fingerprint
from campaign_rules.audit import audit_lines, html_report
from campaign_rules.schema import catalogue, ruleset

TABLE = catalogue()
BOUNDS = bounds()
SHA256 = re.compile(r"[0-9a-f]{64}")


def test_the_ruleset_is_the_version_and_the_fingerprint_of_this_table() -> None:
    identity = ruleset()
    assert identity == {"version": campaign_rules.__version__, "fingerprint": fingerprint()}
    assert SHA256.fullmatch(identity["fingerprint"])
    assert fingerprint(TABLE, BOUNDS) == fingerprint()


def test_a_copy_of_the_table_has_the_same_fingerprint() -> None:
    copy = [attrs.evolve(info) for info in TABLE]
    assert fingerprint(copy, dict(reversed(list(BOUNDS.items())))) == fingerprint()


FIELDS = {
    "id": "retries.within_limits",
    "key": ErrorKey.IMMUTABLE_FIELD,
    "status": 409,
    "source": "spec 2.1, 8; D-blank-name",
    "summary": "`retries` is a small number.",
    "stage": "lookup",
}


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_changing_any_field_of_one_rule_changes_the_fingerprint(field: str) -> None:
    index = next(n for n, info in enumerate(TABLE) if info.id == "retries.within_bounds")
    changed = list(TABLE)
    changed[index] = attrs.evolve(TABLE[index], **{field: FIELDS[field]})
    assert fingerprint(changed, BOUNDS) != fingerprint()


def test_a_bound_a_new_rule_a_dropped_rule_and_the_order_change_it() -> None:
    assert RETRIES.low == 0
    wider = BOUNDS | {"RETRIES": {"low": 0, "high": 6}}
    assert fingerprint(TABLE, wider) != fingerprint()
    assert fingerprint(TABLE, BOUNDS | {"NEW_BOUND": 3}) != fingerprint()
    assert fingerprint([*TABLE, TABLE[0]], BOUNDS) != fingerprint()
    assert fingerprint(TABLE[1:], BOUNDS) != fingerprint()
    assert fingerprint([TABLE[1], TABLE[0], *TABLE[2:]], BOUNDS) != fingerprint()


def test_the_bounds_are_read_from_the_limits_as_plain_data() -> None:
    assert BOUNDS["RETRIES"] == {"low": RETRIES.low, "high": RETRIES.high}
    assert BOUNDS["ERROR_STATUSES"] == {"start": 400, "stop": 600, "step": 1}
    assert json.loads(json.dumps(BOUNDS)) == BOUNDS
    assert not any(isinstance(value, str) and " at 0x" in value for value in BOUNDS.values())
    assert isinstance(RETRIES, Bounds)


@given(st.sampled_from(range(len(TABLE))), st.sampled_from(sorted(FIELDS)), st.text(min_size=1))
def test_any_change_of_a_rule_changes_the_fingerprint(index: int, field: str, text: str) -> None:
    old = getattr(TABLE[index], field)
    new = FIELDS[field] if field in {"key", "status"} else f"{old}{text}"
    if new == old:
        new = ErrorKey.NOT_FOUND if field == "key" else 599
    changed = list(TABLE)
    changed[index] = attrs.evolve(TABLE[index], **{field: new})
    assert fingerprint(changed, BOUNDS) != fingerprint()


def test_an_audit_summary_and_its_report_name_the_ruleset() -> None:
    summary = audit_lines(["[]", "{}"])
    assert summary.to_json()["ruleset"] == ruleset()
    page = html_report(summary)
    assert f"data-fingerprint='{ruleset()['fingerprint']}'" in page
    assert f"data-version='{campaign_rules.__version__}'" in page


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campaign_rules", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_rules_json_gives_the_ruleset_and_every_rule() -> None:
    done = run("rules", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ruleset"] == ruleset()
    assert [row["id"] for row in data["rules"]] == [info.id for info in TABLE]
    assert data["rules"][0] == {
        "id": TABLE[0].id,
        "stage": TABLE[0].stage,
        "key": TABLE[0].key.value,
        "status": TABLE[0].status,
        "source": TABLE[0].source,
        "summary": TABLE[0].summary,
        "scope": "its whole subject",
        "gates": [],
        "function": "campaign_rules._rules.body:body_is_bytes_or_text",
    }
    rows = {row["id"]: row for row in data["rules"]}
    # Issue 38: a row gives its pointers, constraint and gates; no function of its own.
    name = rows["name.not_blank"]
    assert name["pointers"] == ["/name"]
    assert name["constraint"] == {"notBlank": True}
    assert "function" not in name
    assert {"kind": "defers_to", "rule": "name.within_max_length"}.items() <= name["gates"][
        -1
    ].items()
    cooldown = rows["cycles.cooldown_mode_has_no_schedule"]
    assert cooldown["scope"] == "an enabled cycles block in cooldown mode (spec 2.4 rule 3)"
    assert cooldown["pointers"] == [
        "/cycles/schedule",
        "/cycles/schedule_start_date",
        "/cycles/schedule_end_date",
    ]
    assert rows["cycles.start_date_not_after_end_date"]["function"] == (
        "campaign_rules._rules.cycles:start_date_not_after_end_date"
    )


def test_audit_json_gives_the_ruleset(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "audit", "--json", "-"],
        input="[]\n{}\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["ruleset"] == ruleset()
