"""Mutation testing with mutmut 3, from a clean `mutants/` folder; fails below the target score.

Usage, from the repository root, with the `mutation` extra installed
(`pip install -e '.[test,mutation]'`):

    python scripts/mutation.py                 # every module `[tool.mutmut]` names, every test
    python scripts/mutation.py --rule cycles   # one rule module, against its own tests
    python scripts/mutation.py --latest        # the rule module changed most recently (CI)
    python scripts/mutation.py --module _campaign/change --tests tests/test_rules_update.py
                                               # any one module, against the tests named

The score is the share of mutants that the tests kill (a timeout counts as killed, as in
mutmut's own badge). Every survivor is printed with its diff; each must be killed by a new test
or listed in docs/mutation.md as equivalent, with the reason. Hypothesis runs its `mutation`
profile (tests/conftest.py): derandomized, so that two runs judge a mutant alike.

One rule module is run in a scratch copy of the project whose `[tool.mutmut]` mutates that
module only and runs only its own tests (its test module and the case files), so that it fits
in CI; the full run mutates in place with the configuration of `pyproject.toml`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The rule modules proper; `table.py` only wires them and `_common.py` is shared by them.
RULE_MODULES = ("cycles", "fields", "lookups", "schedule", "shape", "update")
TARGET = 95.0
KILLED = {"killed", "timeout"}
# `scripts` too: the tests import some of them (tests/diff_support.py, through conftest.py).
COPIED = ("src", "tests", "scripts", "docs", "examples", "pyproject.toml")
# The tests of the full run (`[tool.mutmut]`): every example test, no property, no matrix.
EXAMPLE_TESTS = [
    "tests",
    "--ignore=tests/property",
    "--ignore=tests/test_adversarial.py",
    "--ignore=tests/test_concurrency.py",
]


def latest_rule_module() -> str:
    """The rule module whose last commit is the newest (ties: the first in name order)."""

    def committed_at(name: str) -> int:
        log = subprocess.run(
            ["git", "log", "-1", "--format=%ct", "--", f"src/campaign_rules/_rules/{name}.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return int(log.stdout.strip() or 0)

    return max(RULE_MODULES, key=committed_at)


def one_rule_project(rule: str, folder: Path) -> None:
    """A copy of the project in `folder` whose mutmut configuration covers `rule` alone."""
    tests = [f"tests/test_rules_{rule}.py", "tests/test_cases.py"]
    one_module_project(f"_rules/{rule}", tests, folder)


def one_module_project(module: str, tests: list[str], folder: Path) -> None:
    """A copy of the project in `folder` whose mutmut configuration mutates `module` alone.

    `module` is a path under `src/campaign_rules/` without `.py`; `tests` the tests to run.
    """
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, folder / name)
    text = (folder / "pyproject.toml").read_text(encoding="utf-8")
    head, _, rest = text.partition("\n[tool.mutmut]\n")
    _, _, tail = rest.partition("\n[")
    (folder / "pyproject.toml").write_text(
        f"{head}\n{'[' + tail if tail else ''}\n"
        "[tool.mutmut]\n"
        'source_paths = ["src/campaign_rules"]\n'
        f'only_mutate = ["src/campaign_rules/{module}.py"]\n'
        'also_copy = ["tests", "scripts", "examples", "docs", "pyproject.toml"]\n'
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider"]\n',
        encoding="utf-8",
    )


def mutmut(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the mutmut command beside this Python in `folder`, with the `mutation` profile."""
    executable = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation"}
    return subprocess.run(
        [str(executable), *args], cwd=folder, env=env, text=True, capture_output=True
    )


def score(folder: Path, target: float) -> int:
    """Print every survivor and the score of the run in `folder`; 0 when it meets `target`."""
    listing = mutmut(folder, "results", "--all", "true").stdout.splitlines()
    found = dict(line.strip().rpartition(": ")[::2] for line in listing if ": " in line)
    checked = {name: status for name, status in found.items() if status != "skipped"}
    if not checked:
        print("no mutants were checked")
        return 1
    for name, status in sorted(checked.items()):
        if status not in KILLED:
            print(f"\n{status}: {name}")
            print(mutmut(folder, "show", name).stdout.strip())
    killed = sum(status in KILLED for status in checked.values())
    percent = 100 * killed / len(checked)
    print(f"\n{killed} of {len(checked)} mutants killed: {percent:.1f}% (target {target:g}%)")
    return 0 if percent >= target else 1


def run(folder: Path, options: argparse.Namespace) -> int:
    """Run mutmut in `folder` from a clean `mutants/`, then score it."""
    shutil.rmtree(folder / "mutants", ignore_errors=True)
    started = time.monotonic()
    done = mutmut(folder, "run", "--max-children", str(options.max_children))
    print(f"mutmut ran for {time.monotonic() - started:.0f} s")
    if done.returncode != 0:
        print(done.stdout[-5000:], done.stderr[-5000:], sep="\n")
        return done.returncode
    return score(folder, options.target)


def main() -> int:
    """Run mutmut on what is asked for; print every survivor; fail below the target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--rule", choices=RULE_MODULES, help="one rule module, its own tests")
    scope.add_argument("--latest", action="store_true", help="the latest changed rule module")
    scope.add_argument(
        "--module", help="one module under src/campaign_rules/, without .py (`_campaign/document`)"
    )
    parser.add_argument(
        "--tests", nargs="+", help="with --module: the tests to run (default: every example test)"
    )
    parser.add_argument("--target", type=float, default=TARGET, help="lowest passing score, %%")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    options = parser.parse_args()

    if options.module:
        tests = options.tests or EXAMPLE_TESTS
        print(f"mutmut: src/campaign_rules/{options.module}.py, {' '.join(tests)}", flush=True)
        with tempfile.TemporaryDirectory(prefix="mutation-") as scratch:
            one_module_project(options.module, tests, Path(scratch))
            return run(Path(scratch), options)
    rule = latest_rule_module() if options.latest else options.rule
    if rule is None:
        print("mutmut: every module of [tool.mutmut], every test", flush=True)
        return run(ROOT, options)
    print(f"mutmut: src/campaign_rules/_rules/{rule}.py, its own tests", flush=True)
    with tempfile.TemporaryDirectory(prefix="mutation-") as scratch:
        one_rule_project(rule, Path(scratch))
        return run(Path(scratch), options)


if __name__ == "__main__":
    sys.exit(main())
