"""What an auditor reads of a rule, measured (issue 38; docs/testing.md, "Measuring...").

The table of docs/testing.md is the script's answer on this source; the script counts what a
rule's code reaches, so a rule that calls one more helper counts its module and its lines.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from scripts import rule_reach

from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent
# The ten rules of issue 38's review.
REVIEWED = {
    "name.within_max_length",
    "retries.within_bounds",
    "payload.required_members_present",
    "schedule.window_times_are_hh_mm",
    "cycles.cooldown_mode_has_no_schedule",
    "cycles.dates_are_iso",
    "lookup.agent_exists",
    "text.free_text_is_unicode",
    "body.member_names_unique",
    "body.strings_are_unicode",
}


def test_the_docs_table_is_the_scripts_answer() -> None:
    text = rule_reach.DOC.read_text(encoding="utf-8")
    assert rule_reach.with_table(text, rule_reach.render_table()) == text


def test_the_check_command_agrees() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/rule_reach.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_measured_rules_are_the_reviewed_ones_of_the_catalogue() -> None:
    assert set(rule_reach.RULES) == REVIEWED
    assert rule_reach.MEMBER_RULES <= REVIEWED
    assert {info.id for info in catalogue()} >= REVIEWED


def reach_of(src: Path, rule_id: str) -> tuple[list[str], int]:
    for measured_id, _, modules, lines, _ in rule_reach.measured(src):
        if measured_id == rule_id:
            return modules, lines
    raise LookupError(rule_id)


def copied_source(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src" / "campaign_rules",
        src / "campaign_rules",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return src


def edit(path: Path, old: str, new: str, imports: str) -> None:
    """Replace the one `old` of `path` by `new`, and add `imports` after its first import."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    first = text.index("\nfrom campaign_rules.") + 1
    path.write_text(text[:first] + imports + text[first:], encoding="utf-8")


def test_a_helper_a_rule_function_calls_is_counted_with_its_module(tmp_path: Path) -> None:
    src = copied_source(tmp_path)
    before_modules, before_lines = reach_of(src, "lookup.agent_exists")
    (src / "campaign_rules" / "_rules" / "helper.py").write_text(
        '"""A helper."""\n\n\n'
        "def known(value: object) -> bool:\n"
        '    """Whether `value` is given."""\n    return value is not None\n',
        encoding="utf-8",
    )
    edit(
        src / "campaign_rules" / "_rules" / "lookups.py",
        "lookups.agent_id is not None and not lookups.agent_found",
        "known(lookups.agent_id) and not lookups.agent_found",
        "from campaign_rules._rules.helper import known\n",
    )
    modules, lines = reach_of(src, "lookup.agent_exists")
    assert modules == sorted([*before_modules, "_rules.helper"])
    assert lines == before_lines + 2  # its `def` and its `return`; no docstring


def test_a_row_reads_its_row_and_its_keywords_check_not_the_plan() -> None:
    modules, _ = reach_of(rule_reach.SRC, "name.within_max_length")
    assert {"_rules.table", "_rules.keywords"} <= set(modules)
    assert not {"_rules.plan", "_rules.reader", "_rules.fields"} & set(modules)


def test_a_helper_a_rows_keyword_check_calls_is_counted_with_its_module(tmp_path: Path) -> None:
    src = copied_source(tmp_path)
    before_modules, before_lines = reach_of(src, "name.within_max_length")
    (src / "campaign_rules" / "_rules" / "longer.py").write_text(
        '"""A helper."""\n\n\ndef longer_than(text: str, most: int) -> bool:\n'
        '    """Whether `text` is longer than `most`."""\n    return len(text) > most\n',
        encoding="utf-8",
    )
    edit(
        src / "campaign_rules" / "_rules" / "keywords.py",
        "return text is not None and len(text) > self.length",
        "return text is not None and longer_than(text, self.length)",
        "from campaign_rules._rules.longer import longer_than\n",
    )
    modules, lines = reach_of(src, "name.within_max_length")
    assert modules == sorted([*before_modules, "_rules.longer"])
    assert lines == before_lines + 2  # its `def` and its `return`; no docstring
