"""Each sub-command imports what it runs, and not what the others run (issue 37).

The parser is built from every sub-command's module, and each of them imports at its top only
what its parser needs: a command's work is imported when it runs. A user who checks one file
pays for the interpreter, the parser and the rules of a creation body; an audit on one job
starts no pool. Each case runs the real command, `python -m campaign_rules`, in a fresh
interpreter, and reads the modules it had imported when it ended.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "phone_call.json"
# Run in the child: the command as `python -m campaign_rules` runs it, and, at the exit, the
# names of the modules it imported, one a line, into the file named first.
_CHILD = """
import atexit, runpy, sys
report, *arguments = sys.argv[1:]
def write():
    with open(report, "w", encoding="utf-8") as file:
        file.write("\\n".join(sorted(sys.modules)))
atexit.register(write)
sys.argv = ["campaign-rules", *arguments]
runpy.run_module("campaign_rules", run_name="__main__", alter_sys=True)
"""

# What no command but its own imports: the kit, the diff's run, the documents, the audit, the
# response readers and their models, the pool's processes.
OTHERS_WORK = (
    "campaign_rules._conformance",
    "campaign_rules._diff.comparing",
    "campaign_rules._diff.sides",
    "campaign_rules._export.openapi",
    "campaign_rules._export.json_schema",
    "campaign_rules._export.clauses",
    "campaign_rules._audit.report",
    "campaign_rules.responses",
    "campaign_rules._wire.models",
    "multiprocessing",
    "hypothesis",
)


def imported_by(tmp_path: Path, *arguments: str) -> tuple[int, set[str]]:
    """The exit status of `campaign-rules ARGUMENTS`, and every module it had imported."""
    report = tmp_path / "modules.txt"
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(report), *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    return done.returncode, set(report.read_text(encoding="utf-8").splitlines())


def test_checking_a_file_imports_the_rules_and_nothing_of_the_other_commands(tmp_path):
    status, modules = imported_by(tmp_path, "check", str(EXAMPLE))
    assert status == 0
    assert {"campaign_rules._cli.commands", "campaign_rules._validate"} <= modules  # it ran
    assert sorted(modules.intersection(OTHERS_WORK)) == []
    assert "campaign_rules.audit" not in modules
    assert "campaign_rules._audit" not in modules
    assert "campaign_rules._export.catalogue" not in modules


def test_an_audit_on_one_job_imports_no_pool_and_no_other_command(tmp_path):
    store = tmp_path / "store.jsonl"
    store.write_bytes(EXAMPLE.read_bytes().replace(b"\n", b"") + b"\n")
    status, modules = imported_by(tmp_path, "audit", "--json", "--jobs", "1", str(store))
    assert status == 0
    assert {"campaign_rules.audit", "campaign_rules._export.ruleset"} <= modules  # it ran
    assert sorted(modules.intersection(OTHERS_WORK)) == []


@pytest.mark.parametrize(
    ("arguments", "own"),
    [
        (["check", "--kind", "thread", str(EXAMPLE)], "campaign_rules.responses"),
        (["schema"], "campaign_rules._export.json_schema"),
        (["explain", "retries.within_bounds"], "campaign_rules._export.clauses"),
    ],
)
def test_a_command_imports_its_own_work_when_it_runs(tmp_path, arguments, own):
    # The other side: what the commands above leave out is there when its command runs.
    _, modules = imported_by(tmp_path, *arguments)
    assert own in modules
