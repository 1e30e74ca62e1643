"""The compiled build's profile-guided optimisation (D-pgo): its switch, its compiler, its workload.

setup.py compiles the extension instrumented, runs `campaign_rules._conformance.training.train`
over it, and compiles it again with the counts. `nox -s "tests(compiled)"` installs the build so
made, with `pip install .`, and runs this suite on it; these tests hold the parts setup.py
decides with, and the workload on the build that runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

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


# A build stopped while it trains, as setup.py runs it: in its training folder, a training
# process started with `subprocess.run` and its output captured, as the build starts it; then
# SIGTERM. The training writes its process id where the test reads it.
_STOPPED_BUILD = """
import subprocess, sys
from pathlib import Path
from tests.builds import load_setup

TRAINING = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(60)"
with load_setup().training_folder() as scratch:
    Path(sys.argv[1], "folder").write_text(str(scratch))
    subprocess.run(
        [sys.executable, "-c", TRAINING, str(Path(sys.argv[1], "training.pid"))],
        capture_output=True,
        timeout=60,
    )
"""


def test_sigterm_while_training_removes_the_folder_and_the_training(tmp_path: Path) -> None:
    pid_file = tmp_path / "training.pid"
    # The folder is made in `tmp_path` (TMPDIR), so that a failed run leaves nothing elsewhere.
    build = subprocess.Popen(
        [sys.executable, "-c", _STOPPED_BUILD, str(tmp_path)],
        cwd=Path(__file__).parent.parent,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    training = None
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text(encoding="utf-8")):
            assert time.monotonic() < deadline, "the training never started"
            time.sleep(0.05)
        training = int(pid_file.read_text(encoding="utf-8"))
        folder = Path((tmp_path / "folder").read_text(encoding="utf-8"))
        assert folder.is_dir()
        assert folder.parent == tmp_path
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=60) == 128 + signal.SIGTERM
        assert not folder.exists()
        with pytest.raises(ProcessLookupError):
            os.kill(training, 0)
    finally:
        build.kill()
        build.wait()
        if training is not None:  # left behind only when the test failed
            with contextlib.suppress(ProcessLookupError):
                os.kill(training, signal.SIGKILL)
