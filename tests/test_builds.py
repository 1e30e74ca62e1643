"""The two builds of one source (D-compiled-build): which one runs, and that they agree.

`.ci/run` runs the whole suite twice, on the build compiled with mypyc and on the pure-Python
build, with `CAMPAIGN_RULES_EXPECT_BUILD` set to `compiled` or `pure`, so that a build that
quietly fell back (or a source tree on `sys.path` in front of the installed package) fails
here. On the compiled build, the pure-Python build of the same source runs in a second process
(`tests/builds.py`), and both must give the same outcome for generated and hostile payloads.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import campaign_rules
from campaign_rules import validate_create
from campaign_rules.strategies import create_payloads, invalid_create_payloads
from tests.builds import matrix_outcomes, outcome, receive, send
from tests.property.strategies import hostile_payloads

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_BUILD = os.environ.get("CAMPAIGN_RULES_EXPECT_BUILD")
# The modules every payload goes through: compiled in the compiled build (setup.py).
HOT_PATH = (
    "campaign_rules._campaign.build",
    "campaign_rules._campaign.document",
    "campaign_rules._core.compiled",
    "campaign_rules._core.construct",
    "campaign_rules._core.json",
    "campaign_rules._rules.cycles",
    "campaign_rules._rules.fields",
    "campaign_rules._rules.runner",
    "campaign_rules._rules.schedule",
    "campaign_rules._rules.shape",
    "campaign_rules._rules.table",
    "campaign_rules._rules.validation",
)

needs_compiled = pytest.mark.skipif(
    not campaign_rules.COMPILED, reason="compares the compiled build with the pure-Python one"
)


def is_extension(module: str) -> bool:
    loader = importlib.import_module(module).__loader__
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def test_compiled_says_whether_the_hot_path_is_compiled() -> None:
    assert {is_extension(module) for module in HOT_PATH} == {campaign_rules.COMPILED}


@pytest.mark.skipif(EXPECTED_BUILD is None, reason="CAMPAIGN_RULES_EXPECT_BUILD is not set")
def test_the_build_ci_installed_is_the_one_that_runs() -> None:
    assert EXPECTED_BUILD in ("compiled", "pure")
    assert campaign_rules.COMPILED is (EXPECTED_BUILD == "compiled")
    assert "site-packages" in campaign_rules.__file__, "the source tree shadows the installed build"


def test_version_names_the_build() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "campaign_rules", "--version"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    build = "compiled with mypyc" if campaign_rules.COMPILED else "pure Python"
    assert printed == f"campaign-rules {campaign_rules.__version__} ({build})\n"


@pytest.fixture(scope="module")
def pure_build() -> Iterator[subprocess.Popen[bytes]]:
    """A process running the pure-Python build of this source (`tests/builds.py`)."""
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.builds"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert ask(process, ("build",)) is False, "the second process runs the compiled build"
        yield process
    finally:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.close()
        process.wait(timeout=60)
        process.stdout.close()


def ask(process: subprocess.Popen[bytes], request: tuple[Any, ...]) -> Any:
    assert process.stdin is not None
    assert process.stdout is not None
    send(process.stdin, request)
    return receive(process.stdout)


@needs_compiled
@given(
    st.one_of(
        create_payloads(),
        invalid_create_payloads().map(lambda defect: defect[0]),
        hostile_payloads,
    )
)
def test_both_builds_give_the_same_outcome(
    pure_build: subprocess.Popen[bytes], payload: Any
) -> None:
    assert ask(pure_build, ("create", payload)) == outcome(validate_create(payload))


@needs_compiled
def test_both_builds_answer_the_adversarial_matrix_alike(
    pure_build: subprocess.Popen[bytes],
) -> None:
    compiled = matrix_outcomes()
    pure = ask(pure_build, ("matrix",))
    assert len(pure) == len(compiled) > 5000
    differ = [
        index
        for index, (mine, theirs) in enumerate(zip(pure, compiled, strict=True))
        if mine != theirs
    ]
    assert differ == []
