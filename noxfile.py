"""The two builds of campaign-rules, each installed as a user installs it, and their tests.

`nox -s parity` builds the package twice from this source with `pip install .`, compiled with
mypyc and pure Python (`CAMPAIGN_RULES_PURE_PYTHON=1`), each into a virtual environment of its
own under `.nox/`, checks its command line and runs tests/test_builds.py and
tests/test_construct.py on each: on the compiled build they compare it with the pure-Python
one, call by call (D-compiled-build). `nox -s tests` runs the whole suite on each build, after
checking its command line, in a process per core, but for the tests of the source tree
(`SOURCE_TESTS`), whose verdict no build changes. `.ci/run` runs
`nox -s "tests(compiled)" "parity(pure)"`: the whole suite on the compiled build, and the
pure-Python wheel's command line and build checks (the README's test command has run the
whole suite on the same source, pure Python, already).
`-- ARGS` passes pytest arguments (`nox -s parity -- -x`), `-R` reuses the environments
already built, and `nox -s "tests(pure)"` runs one build.
"""

from __future__ import annotations

from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
# The variables each build is installed with (setup.py reads CAMPAIGN_RULES_PURE_PYTHON).
BUILDS = {"compiled": {}, "pure": {"CAMPAIGN_RULES_PURE_PYTHON": "1"}}
EXTRAS = "test,examples,dask,progress"
PARITY_TESTS = ("tests/test_builds.py", "tests/test_construct.py")
# Tests of the source tree and its scripts, not of an installed build: their verdict is the
# same on either build. The README's test command runs them; `tests` below leaves them out,
# which keeps CI within its 20 minutes.
SOURCE_TESTS = (
    # They read `src/`, `docs/` and `scripts/`, or install other revisions.
    "tests/test_docs_bound_change.py",
    "tests/test_regenerate.py",
    "tests/test_rule_reach.py",
    "tests/test_names.py",
    "tests/test_diff_mutants.py",
    "tests/test_diff_legacy.py",
    # The diff runs as a process on `src/` (`PYTHONPATH`, tests/diff_support.py and
    # scripts/diff_example.py), and so does benchmarks/ab.py on the revisions it checks out,
    # whichever build is installed.
    "tests/test_diff.py",
    "tests/test_diff_example.py",
    "tests/test_benchmark_ab.py",
    # The pages' shell blocks, run as written: they address the environment the README's test
    # command makes (`.venv`, editable), and one builds a third environment of its own.
    "tests/test_shell_blocks.py",
)
# The suite on a build runs in as many processes as the machine has cores (pytest-xdist, from
# the `test` extra), each test file in one process, so that a module's server or kit is made
# once. Its tests bind ephemeral ports and write in their own temporary folders.
PARALLEL = ("--numprocesses", "auto", "--dist", "loadfile")

nox.options.sessions = ["parity"]


def install(session: nox.Session, build: str) -> None:
    """The project with its test extras, built as `build`, in the session's environment."""
    session.install(f".[{EXTRAS}]", env=BUILDS[build])


def pytest(session: nox.Session, build: str, *args: str) -> None:
    """Run pytest on the installed `build`, which tests/test_builds.py checks is the one running.

    Run from the project root, pytest imports the package from the environment, not from
    `src/`.
    """
    session.run("python", "-m", "pytest", *args, env={"CAMPAIGN_RULES_EXPECT_BUILD": build})


def check_command_line(session: nox.Session) -> None:
    """The installed command line runs, and writes the schema and the OpenAPI document shipped."""
    session.run("campaign-rules", "--version")
    session.run("campaign-rules", "check", "examples/phone_call.json", silent=True)
    for command, name in (("schema", "campaign-create.schema.json"), ("openapi", "openapi.json")):
        written = session.run("campaign-rules", command, silent=True, stderr=None)
        if written != (ROOT / "schema" / name).read_text(encoding="utf-8"):
            session.error(f"`campaign-rules {command}` differs from schema/{name}")


@nox.session
@nox.parametrize("build", list(BUILDS), ids=list(BUILDS))
def parity(session: nox.Session, build: str) -> None:
    """Build `build`, check its command line, run the tests that compare the two builds."""
    install(session, build)
    check_command_line(session)
    pytest(session, build, *PARITY_TESTS, *session.posargs)


@nox.session
@nox.parametrize("build", list(BUILDS), ids=list(BUILDS))
def tests(session: nox.Session, build: str) -> None:
    """Build `build`, check its command line and run the suite on it, `SOURCE_TESTS` aside."""
    install(session, build)
    check_command_line(session)
    ignored = (f"--ignore={path}" for path in SOURCE_TESTS)
    pytest(session, build, *PARALLEL, *ignored, *session.posargs)
