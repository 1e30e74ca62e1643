"""The two builds of one source (D-compiled-build): which one runs, and that they agree.

setup.py declares, in one list, the modules the compiled build leaves interpreted; every other
module of the package is compiled, and the first tests here check that against the build that
runs. `nox -s tests` (noxfile.py) runs the suite on the build compiled with mypyc and on the
pure-Python build, each installed with `pip install .`, with `CAMPAIGN_RULES_EXPECT_BUILD` set
to `compiled` or `pure`, so that a build that quietly fell back (or a source tree on
`sys.path` in front of the installed package) fails here; `nox -s parity` runs only this
module and tests/test_construct.py. `.ci/run` runs the first on the compiled build and the
second on the pure-Python one. On the compiled build, the
pure-Python build of the same source runs in a second process (`tests/builds.py`), and both
must give the same outcome for generated and hostile inputs to every public function whose
work the compiled modules do. Under an editable install, which is pure Python, the comparisons
are skipped.
"""

from __future__ import annotations

import ast
import ctypes
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import campaign_rules
from campaign_rules import CampaignCreate, CampaignStatus, validate_create
from campaign_rules._export.rule_code import STORED, code_digests, deciding_modules, render_stored
from campaign_rules.idempotency import IdempotencyRecord
from campaign_rules.strategies import (
    create_payloads,
    invalid_create_payloads,
    invalid_update_patches,
    update_patches,
)
from tests.builds import call, load_setup, matrix_outcomes, receive, send
from tests.property import response_strategies as responses
from tests.property import strategies as s

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_BUILD = os.environ.get("CAMPAIGN_RULES_EXPECT_BUILD")


SETUP = load_setup()
COMPILED_MODULES = frozenset(SETUP.compiled_modules())
PACKAGE_MODULES = sorted(
    SETUP.module_name(path.relative_to(ROOT).as_posix()) for path in SETUP.PACKAGE.rglob("*.py")
)

needs_compiled = pytest.mark.skipif(
    not campaign_rules.COMPILED, reason="compares the compiled build with the pure-Python one"
)


def is_extension(module: str) -> bool:
    """Whether `module` is an extension module, found as `import` would find it (not run)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None, module
    return isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def test_every_entry_of_the_interpreted_list_names_part_of_the_package() -> None:
    paths = [path.relative_to(SETUP.PACKAGE).as_posix() for path in SETUP.PACKAGE.rglob("*.py")]
    stale = [entry for entry in SETUP.INTERPRETED if not any(p.startswith(entry) for p in paths)]
    assert stale == []


def test_the_modules_setup_py_compiles_are_those_compiled_and_no_other() -> None:
    # What the sources rely on: `_core.compiled` tells the build by its own file, so it is
    # compiled; `_validate` holds the entry points' docstrings, which compiling would lose.
    assert "campaign_rules._core.compiled" in COMPILED_MODULES
    assert "campaign_rules._validate" not in COMPILED_MODULES
    wrong = [
        module
        for module in PACKAGE_MODULES
        if is_extension(module) != (campaign_rules.COMPILED and module in COMPILED_MODULES)
    ]
    assert wrong == []


@pytest.mark.skipif(
    not (campaign_rules.COMPILED and sys.platform == "linux"),
    reason="reads the symbols of the compiled build's shared library",
)
def test_the_compiled_library_exports_its_module_init_only() -> None:
    # setup.py's `DIRECT_CALL_FLAGS`: with its own functions hidden, the library calls them
    # directly rather than through the PLT. `ctypes` finds exported symbols only.
    spec = importlib.util.find_spec("campaign_rules__mypyc")
    assert spec is not None
    assert spec.origin is not None
    library = ctypes.CDLL(spec.origin)
    assert hasattr(library, "PyInit_campaign_rules__mypyc")
    assert not hasattr(library, "CPyDef_validation___create_result")
    assert not hasattr(library, "CPyDict_NextItem")  # mypyc's own runtime, built in


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


# The modules that may read which build runs (issue 38: one implementation for both builds):
# where the flag is made and exported, the command line that prints it, `_core.construct`,
# which only chooses how to make an attrs value, equal either way (tests/test_construct.py),
# and the build's training workload, which refuses to run on the pure build (D-pgo).
READS_THE_BUILD = frozenset(
    {
        "campaign_rules",
        "campaign_rules._cli.commands",
        "campaign_rules._conformance.training",
        "campaign_rules._core.compiled",
        "campaign_rules._core.construct",
    }
)


def _names(path: Path) -> set[str]:
    """Every name `path` reads, assigns, imports or takes as an attribute."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name)
    return names


def test_no_rule_and_no_format_reads_which_build_runs() -> None:
    readers = {
        SETUP.module_name(path.relative_to(ROOT).as_posix())
        for path in SETUP.PACKAGE.rglob("*.py")
        if "COMPILED" in _names(path)
    }
    assert readers == READS_THE_BUILD


def test_the_installed_version_is_the_one_the_package_states() -> None:
    # pyproject.toml reads it from `campaign_rules.__version__`, where it is written once.
    assert importlib.metadata.version("campaign-rules") == campaign_rules.__version__


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


def assert_alike(
    pure_build: subprocess.Popen[bytes], name: str, *args: object, **kwargs: object
) -> None:
    """`name(*args, **kwargs)` gives the same outcome in the pure-Python build as in this one."""
    compiled = call(name, *args, **kwargs)
    assert ask(pure_build, ("call", name, args, kwargs)) == compiled


# ---------------------------------------------------------------------------------------------
# Inputs: valid, with one defect, and hostile.

# Any value at all, of a header, a path, a status or a clock.
anything = st.one_of(
    s.json_like,
    s.json_scalars,
    s.non_string_keys,
    st.binary(max_size=8),
    st.sampled_from((float("nan"), float("inf"), 10**5000, b"api-key x", "api-key x", "12")),
)


def mostly(common: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`common` three times in four, else `anything` (which `st.one_of` would outnumber)."""
    return st.integers(0, 3).flatmap(lambda pick: common if pick else anything)


created = create_payloads().map(lambda payload: validate_create(payload).value)


@needs_compiled
@given(
    st.one_of(
        create_payloads(),
        invalid_create_payloads().map(lambda defect: defect[0]),
        s.hostile_payloads,
    )
)
def test_both_builds_validate_a_create_alike(
    pure_build: subprocess.Popen[bytes], payload: Any
) -> None:
    assert_alike(pure_build, "validate_create", payload)


@needs_compiled
@given(created, st.data())
def test_both_builds_validate_an_update_alike(
    pure_build: subprocess.Popen[bytes], existing: CampaignCreate, data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(("valid", "one defect", "hostile")))
    status = None
    if kind == "valid":
        patch = data.draw(update_patches(existing))
    elif kind == "one defect":
        patch, status, _, _ = data.draw(invalid_update_patches(existing))
    else:
        patch = data.draw(s.hostile_payloads)
    assert_alike(pure_build, "validate_update", existing, patch, status=status)


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


# The reader of each kind of response body (tests/property/response_strategies.py).
READERS = {
    "create_response": "parse_create_response",
    "contact_response": "parse_contact_response",
    "thread": "parse_thread",
}
statuses = mostly(st.one_of(st.integers(100, 600), st.sampled_from((400, 401, 429, 500))))


@needs_compiled
@given(
    st.one_of(
        responses.kinds_and_bodies,
        responses.one_defect().map(lambda defect: (defect[0], defect[1])),
        st.tuples(st.sampled_from(responses.KINDS), s.hostile_payloads),
    ),
    statuses,
)
def test_both_builds_read_a_response_alike(
    pure_build: subprocess.Popen[bytes], pair: tuple[str, Any], status: object
) -> None:
    kind, body = pair
    if kind in READERS:
        assert_alike(pure_build, READERS[kind], body)
    else:
        assert_alike(pure_build, "parse_error", status, body)


header_texts = st.one_of(
    st.text(alphabet=" \tAaPpIiKkEeYy-x!~\u212a\x00", max_size=12),
    st.text(max_size=12).map(lambda key: f"api-key {key}"),
)
id_texts = st.one_of(
    st.text(alphabet="0123456789", max_size=18),
    st.text(alphabet="aZ09-._~/% \u00e9\x00", max_size=130),
    st.integers(-(2**64), 2**64),
)
request_values = mostly(st.one_of(header_texts, id_texts))


@needs_compiled
@given(request_values, request_values)
def test_both_builds_check_a_request_alike(
    pure_build: subprocess.Popen[bytes], first: object, second: object
) -> None:
    assert_alike(pure_build, "parse_authorization", first)
    assert_alike(pure_build, "check_contact_path", first, second)
    assert_alike(pure_build, "check_thread_path", first)
    assert_alike(pure_build, "check_idempotency_key", first)


@needs_compiled
@given(
    st.one_of(s.json_like, s.hostile_payloads, create_payloads()),
    mostly(st.sampled_from(("POST", "PATCH", "post"))),
    mostly(st.sampled_from(("/campaigns", "/campaigns/1", ""))),
)
def test_both_builds_fingerprint_a_request_alike(
    pure_build: subprocess.Popen[bytes], body: object, method: object, path: object
) -> None:
    assert_alike(pure_build, "request_fingerprint", body, method=method, path=path)


fingerprints = mostly(st.sampled_from(("a" * 64, "b" * 64)))
times = mostly(st.one_of(st.floats(), st.integers(-(2**70), 2**70)))
records = st.builds(
    IdempotencyRecord,
    fingerprint=fingerprints,
    status=mostly(st.integers(100, 599)),
    body=s.json_like,
    stored_at=times,
)


@needs_compiled
@given(mostly(st.one_of(st.none(), records)), fingerprints, times, times)
def test_both_builds_decide_on_an_idempotency_key_alike(
    pure_build: subprocess.Popen[bytes],
    stored: object,
    fingerprint: object,
    now: object,
    window: object,
) -> None:
    assert_alike(pure_build, "decide_idempotency", stored, fingerprint, now)
    assert_alike(pure_build, "decide_idempotency", stored, fingerprint, now, window_seconds=window)


campaign_statuses = mostly(
    st.sampled_from([*CampaignStatus, *(status.value for status in CampaignStatus)])
)
actions = mostly(st.sampled_from(("activate", "pause", "resume", "archive", "Pause")))
billing_flags = mostly(st.one_of(st.booleans(), st.sampled_from((None, 0, 1, "true"))))


@needs_compiled
@given(campaign_statuses, actions, billing_flags)
def test_both_builds_check_a_transition_alike(
    pure_build: subprocess.Popen[bytes], status: object, action: object, billing: object
) -> None:
    assert_alike(pure_build, "check_transition", status, action, billing_limit_reached=billing)


settings = st.fixed_dictionaries(
    {},
    optional={
        "requests": st.integers(1, 20) | st.just(0),
        "period_ns": st.integers(1, 2 * 10**9) | st.just(0),
        "burst": st.integers(1, 15) | st.just(0),
    },
)


@st.composite
def clock_readings(draw: st.DrawFn) -> list[object]:
    """Readings of a clock that mostly goes on by less than a second, now and then unusable."""
    now = draw(st.integers(-(10**18), 10**18))
    readings: list[object] = []
    gaps = st.one_of(st.just(0), st.integers(0, 10**8), st.integers(0, 2 * 10**9))
    for gap in draw(st.lists(gaps, max_size=40)):
        now += gap
        readings.append(now if draw(st.integers(0, 9)) else draw(anything))
    return readings


@needs_compiled
@given(settings, clock_readings(), st.data())
def test_both_builds_limit_the_rate_alike(
    pure_build: subprocess.Popen[bytes],
    setting: dict[str, int],
    readings: list[object],
    data: st.DataObject,
) -> None:
    keys = mostly(st.sampled_from(("k", "other")))
    requests = [(data.draw(keys), reading) for reading in readings]
    assert_alike(pure_build, "acquisitions", setting, requests)


def json_text(value: object) -> str:
    """`value` as JSON text (NaN as `NaN`), or text that is not JSON where `json.dumps` fails."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return "{not json"


json_lines = st.one_of(
    create_payloads().map(json_text),
    invalid_create_payloads().map(lambda defect: json_text(defect[0])),
    s.json_like.map(json_text),
)
audit_lines = st.one_of(
    json_lines,
    json_lines.map(lambda line: line.encode("utf-8") + b"\n"),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.sampled_from(("", "  \n", b"\xff{}", '{"a": 1, "a": 2}', "[" * 3000, "1e999", "\ud800")),
)


@needs_compiled
@given(st.lists(audit_lines, max_size=5), st.integers(-3, 10**6))
def test_both_builds_audit_json_lines_alike(
    pure_build: subprocess.Popen[bytes], lines: list[object], first_line: int
) -> None:
    assert_alike(pure_build, "audit_chunk", lines, first_line=first_line, rows=True)


@needs_compiled
@pytest.mark.parametrize("export", ["catalogue", "json_schema", "openapi", "ruleset"])
def test_both_builds_export_the_same_tables(
    pure_build: subprocess.Popen[bytes], export: str
) -> None:
    assert_alike(pure_build, export)


def test_the_build_ships_the_source_the_rule_set_fingerprint_hashes() -> None:
    # D-ruleset: the fingerprint hashes the `.py` file of every module that decides a verdict,
    # read from the installed package; the compiled build ships it beside its extension.
    digests = code_digests()
    assert set(digests) == set(deciding_modules())
    assert set(digests) & COMPILED_MODULES
    # And the code stored for them, read from the sources it ships: a run reads no tree.
    shipped = resources.files("campaign_rules").joinpath("_export", STORED)
    assert shipped.read_text(encoding="utf-8") == render_stored()
