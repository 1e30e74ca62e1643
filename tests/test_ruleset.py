"""The rule set's identity: its fingerprint changes when a rule does, and only then (D-ruleset).

A rule is its row, the bounds, the code that decides its verdict and the time zone names
`timezone` accepts; the code and the zone names are changed in a scratch copy of the package
and of tzdata, run as a process of its own. Also where it shows: `AuditSummary.to_json()`,
`audit --json`, the HTML report and `campaign-rules rules --json`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import campaign_rules
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.limits import RETRIES, Bounds
from campaign_rules._core.timezones import timezone_names
from campaign_rules._export.rule_code import (
    SHOWING_MODULES,
    STORED,
    code_digests,
    deciding_modules,
    normal_form,
    read_code,
    render_stored,
    stored_code,
)
from campaign_rules._export.ruleset import bounds, fingerprint
from campaign_rules._rules import table
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
        "when": {"needs": [], "unless": []},
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
    # The facts it reads in, for an implementation in another language.
    assert cooldown["when"] == {
        "needs": [
            {"pointer": "/cycles/enabled", "const": True},
            {"pointer": "/cycles/mode", "const": "cooldown"},
        ],
        "unless": [],
    }
    assert rows["cycles.dates_are_iso"]["when"]["unless"] == [
        {"pointer": "/cycles/mode", "const": "cooldown"}
    ]
    assert rows["schedule.window_starts_before_stop"]["when"] == {
        "needs": [{"test": "windows_in_force"}],
        "unless": [],
    }
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


def test_the_code_of_every_rule_and_of_what_runs_it_is_hashed() -> None:
    modules = deciding_modules()
    rules = [
        rule for name in table.__all__ if name.endswith("_RULES") for rule in getattr(table, name)
    ]
    # A row's check is made by the plan (compiled, a method of no module): its function rules'.
    functions = [rule for rule in rules if rule.constraint is None]
    assert {rule.check.__module__ for rule in functions} <= set(modules)
    assert "campaign_rules._rules.plan" in modules
    for reached in (
        "campaign_rules._rules.table",
        "campaign_rules._rules.runner",
        "campaign_rules._campaign.document",  # what builds what the creation rules read
        "campaign_rules._core.formats",
        "campaign_rules._core.timezones",
        "campaign_rules._core.limits",
        "campaign_rules._server.gcra",
    ):
        assert reached in modules
    assert not [m for m in modules if m.startswith(SHOWING_MODULES) or m == "campaign_rules"]
    assert set(code_digests()) == set(modules)
    assert all(SHA256.fullmatch(digest) for digest in code_digests().values())


def test_the_normal_form_keeps_code_and_drops_docstrings_comments_and_layout() -> None:
    code = 'def f(x):\n    """Doc."""\n    return x + 1  # why\n'
    same = "def f(x):\n\n    return (x\n            + 1)\n"
    other_docstring = 'def f(x):\n    """Another doc."""\n    return x + 1\n'
    assert normal_form(code) == normal_form(same) == normal_form(other_docstring)
    assert normal_form(code) != normal_form(code.replace("+ 1", "+ 2"))
    assert normal_form(code) != normal_form(code.replace("return x", "return -x"))
    # A string that is not a docstring is code.
    assert normal_form("x = 1\n'a'\n") != normal_form("x = 1\n'b'\n")


def test_a_changed_module_digest_or_zone_list_changes_it() -> None:
    code = code_digests()
    changed = code | {"campaign_rules._rules.fields": "0" * 64}
    assert fingerprint(TABLE, BOUNDS, code) == fingerprint()
    assert fingerprint(TABLE, BOUNDS, changed) != fingerprint()
    assert fingerprint(TABLE, BOUNDS, code, timezone_names()) == fingerprint()
    fewer = timezone_names() - {"Europe/Paris"}
    assert fingerprint(TABLE, BOUNDS, code, fewer) != fingerprint()
    assert fingerprint(TABLE, BOUNDS, code, [*timezone_names(), "Mars/Olympus_Mons"]) != (
        fingerprint()
    )


SOURCE = Path(campaign_rules.__file__).resolve().parent


def scratch_fingerprint(root: Path, *, tzdata: Path | None = None) -> str:
    """The fingerprint the package copied under `root / "src"` gives, in a process of its own."""
    path = [str(root / "src"), *([str(tzdata)] if tzdata is not None else [])]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import campaign_rules, tzdata, sys\n"
            "from campaign_rules.schema import ruleset\n"
            "print(campaign_rules.__file__, tzdata.__file__, ruleset()['fingerprint'])",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
    )
    assert done.returncode == 0, done.stderr
    package_file, tzdata_file, printed = done.stdout.split()
    assert Path(package_file).is_relative_to(root / "src")
    assert tzdata is None or Path(tzdata_file).is_relative_to(tzdata)
    return printed


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A copy of the package's source under `tmp_path / "src"`."""
    shutil.copytree(
        SOURCE, tmp_path / "src" / "campaign_rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


def edit(root: Path, module: str, old: str, new: str) -> None:
    path = root / "src" / "campaign_rules" / module
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


CHANNEL_CHECK = "if name in doc.root:"


def test_a_copy_of_the_package_has_the_same_fingerprint(scratch: Path) -> None:
    assert scratch_fingerprint(scratch) == fingerprint()


def test_a_changed_rule_function_changes_it(scratch: Path) -> None:
    edit(
        scratch,
        "_rules/fields.py",
        CHANNEL_CHECK,
        CHANNEL_CHECK.replace(" in ", " not in "),
    )
    assert scratch_fingerprint(scratch) != fingerprint()


def test_a_changed_keyword_check_a_row_is_judged_by_changes_it(scratch: Path) -> None:
    edit(
        scratch,
        "_rules/keywords.py",
        "return text is not None and text not in self.values",
        "return text is not None and text in self.values",
    )
    assert scratch_fingerprint(scratch) != fingerprint()


def test_reworded_docstrings_comments_and_layout_keep_it(scratch: Path) -> None:
    edit(
        scratch,
        "_rules/fields.py",
        f"        {CHANNEL_CHECK}\n",
        f"        # A comment.\n\n        {CHANNEL_CHECK.replace(' in ', '  in ')}\n",
    )
    edit(
        scratch,
        "_rules/fields.py",
        "Runs on a known channel; reports each field of another one, whatever its value, "
        "at its name.",
        "Reworded: reports each field of another channel.",
    )
    assert scratch_fingerprint(scratch) == fingerprint()


def fake_tzdata(root: Path, names: list[str], version: str) -> Path:
    """A tzdata package under `root / "tz"` that lists `names`, of IANA release `version`."""
    package = root / "tz" / "tzdata"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"IANA_VERSION = {version!r}\n", encoding="utf-8")
    (package / "zones").write_text("".join(f"{name}\n" for name in names), encoding="utf-8")
    return root / "tz"


def test_the_stored_code_is_what_the_sources_give_now() -> None:
    # A stale stored file fails here (and in `scripts/regenerate.py --check`).
    assert (SOURCE / "_export" / STORED).read_text(encoding="utf-8") == render_stored()
    stored = stored_code()
    assert sorted(stored) == list(deciding_modules())
    assert {module: code.digest for module, code in stored.items()} == code_digests()
    fields = read_code((SOURCE / "_rules" / "fields.py").read_bytes())
    assert stored["campaign_rules._rules.fields"] == fields
    assert "campaign_rules._campaign.document:Document" in fields.imports


def stored_file(root: Path) -> Path:
    return root / "src" / "campaign_rules" / "_export" / STORED


def restore(root: Path, module: str, field: str, value: object) -> None:
    """Write `value` as the stored `field` of `module` in the package copied under `root`."""
    path = stored_file(root)
    data = json.loads(path.read_text(encoding="utf-8"))
    data[module][field] = value
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_run_reads_the_stored_digest_of_a_module_whose_source_is_the_stored_one(
    scratch: Path,
) -> None:
    # Stored for this very source, the digest is not computed again: a wrong one shows.
    restore(scratch, "campaign_rules._rules.fields", "digest", "0" * 64)
    assert scratch_fingerprint(scratch) == fingerprint(
        TABLE, BOUNDS, code_digests() | {"campaign_rules._rules.fields": "0" * 64}
    )


def test_a_module_whose_source_is_not_the_stored_one_is_read_from_its_source(
    scratch: Path,
) -> None:
    # Another source hash (an edited or patched module): its stored digest and imports are not
    # read, so the wrong ones stored here change nothing.
    module = "campaign_rules._rules.fields"
    restore(scratch, module, "source", "0" * 64)
    restore(scratch, module, "digest", "0" * 64)
    restore(scratch, module, "imports", [])
    assert scratch_fingerprint(scratch) == fingerprint()
    edit(scratch, "_rules/fields.py", CHANNEL_CHECK, CHANNEL_CHECK.replace(" in ", " not in "))
    assert scratch_fingerprint(scratch) != fingerprint()


def test_without_the_stored_file_every_module_is_read_from_its_source(scratch: Path) -> None:
    stored_file(scratch).unlink()
    assert scratch_fingerprint(scratch) == fingerprint()


def test_a_changed_zone_list_changes_it_and_a_release_with_the_same_list_keeps_it(
    scratch: Path,
) -> None:
    names = sorted(timezone_names())
    assert scratch_fingerprint(scratch, tzdata=fake_tzdata(scratch, names, "2099a")) == (
        fingerprint()
    )
    shutil.rmtree(scratch / "tz")
    fewer = [name for name in names if name != "Europe/Paris"]
    assert scratch_fingerprint(scratch, tzdata=fake_tzdata(scratch, fewer, "2099a")) != (
        fingerprint()
    )
