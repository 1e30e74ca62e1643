"""The compiled build's profile-guided optimisation (D-pgo): its switch, its compiler, its workload.

setup.py compiles the extension instrumented, runs `campaign_rules._conformance.training.train`
over it, and compiles it again with the counts. `nox -s "tests(compiled)"` installs the build so
made, with `pip install .`, and runs this suite on it; these tests hold the parts setup.py
decides with, and the workload on the build that runs.
"""

from __future__ import annotations

import shutil
import sys

import pytest

import campaign_rules
from campaign_rules._conformance.training import train
from tests.builds import load_setup

SETUP = load_setup()


@pytest.mark.parametrize(
    ("value", "wanted"), [(None, True), ("", True), ("0", True), ("1", False), ("yes", False)]
)
def test_the_variable_turns_the_profile_guided_build_off(
    monkeypatch: pytest.MonkeyPatch, value: str | None, wanted: bool
) -> None:
    if value is None:
        monkeypatch.delenv(SETUP.PGO_SWITCH, raising=False)
    else:
        monkeypatch.setenv(SETUP.PGO_SWITCH, value)
    assert SETUP.wants_profile_guided() is wanted


@pytest.mark.skipif(shutil.which("gcc") is None, reason="GCC is not installed here")
def test_gcc_is_told_from_other_commands() -> None:
    # Debian's `gcc`, which CI and the README's machine have; a command that is no compiler,
    # one that fails, and one that does not exist are not GCC, and none of them raises.
    assert SETUP.is_gcc(["gcc", "-O3"])
    assert not SETUP.is_gcc([sys.executable])
    assert not SETUP.is_gcc(["false"])
    assert not SETUP.is_gcc(["/nonexistent/campaign-rules-cc"])


@pytest.mark.skipif(campaign_rules.COMPILED, reason="the pure-Python build refuses to train")
def test_the_pure_python_build_has_nothing_to_train() -> None:
    with pytest.raises(RuntimeError, match="compiled build"):
        train(passes=1)


@pytest.mark.skipif(not campaign_rules.COMPILED, reason="trains the compiled build")
def test_the_workload_judges_the_kit_the_examples_and_an_audit() -> None:
    # Each pass: the kit's requests (696 cases), their creation bodies decoded, and an audit of
    # the creation bodies, the three shipped examples among them.
    once = train(passes=1)
    assert once > 696 + 2 * 3
    assert train(passes=2) == 2 * once
