"""Every shell block of every page runs as written, or this module says why not (issue 19).

A shell block is a fenced `sh`, `bash`, `shell`, `zsh` or `console` block of any Markdown page
of the repository (the README, the site's pages, the benchmarks' README, ...). Each is one of:

- a `console` block of a page Sybil reads (`conftest.py`, `docs/conftest.py`): Sybil runs it,
  and checks its output (`tests/doc_examples.py`);
- in `RUN_HERE`: run below, its text as written, with bash, in a scratch copy of the repository
  whose `.venv` is the environment running the tests, and checked for what it must print and
  write;
- in `ELSEWHERE`, the one table of the blocks this suite does not run here: why, and the test or
  the step of `.ci/run` that runs it, where one does.

A block that is none of these fails `test_every_shell_block_is_run_or_listed`, so a new block
cannot go unrun unnoticed; an entry whose block is gone (or was edited: a block is named by its
page and its first line) fails `test_every_listed_block_exists`.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.doc_examples import (
    NOT_COPIED,
    ROOT,
    SHELL_LANGUAGES,
    Block,
    fenced_blocks,
    module_from,
    readme_commands_module,
    scratch_repository,
)

README_SET_UP = ".ci/run: python3 scripts/readme_commands.py"


class Expect(NamedTuple):
    """What a block run here must do: its exit status, what it prints, the files it writes."""

    status: int = 0
    prints: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    needs: tuple[tuple[str, str], ...] = ()  # (module, the extra that installs it)
    then: tuple[str, str] | None = None  # a command run after it, and what that must print


class Elsewhere(NamedTuple):
    """A block not run here: why, and who runs it (`tests/x.py::name`, `.ci/run: text`)."""

    why: str
    runner: str | None


# (page, first line) -> what the block must do when it runs here.
RUN_HERE: dict[tuple[str, str], Expect] = {
    ("benchmarks/README.md", '.venv/bin/python -m pyinstrument -c "'): Expect(
        prints=("validate_create",), needs=(("pyinstrument", "bench"),)
    ),
    ("docs/guides/audit.md", ".venv/bin/python benchmarks/audit.py --sizes 20000 --no-dask"): (
        Expect(
            status=1,  # the audit's: some records are invalid
            prints=("summaries all equal: yes", "INVALID_REQUEST"),
            writes=("rows.jsonl",),
        )
    ),
    (
        "docs/guides/builds.md",
        "python3 -m venv .venv-pure && CAMPAIGN_RULES_PURE_PYTHON=1 .venv-pure/bin/pip install .",
    ): Expect(  # about ten seconds, from the package index pip is set up with
        then=(".venv-pure/bin/campaign-rules --version", "(pure Python)")
    ),
}

# (page, first line) -> why it does not run here, and what runs it.
ELSEWHERE: dict[tuple[str, str], Elsewhere] = {
    (
        "README.md",
        "python3 -m venv .venv && .venv/bin/pip install -e . && "
        ".venv/bin/campaign-rules check examples/phone_call.json",
    ): Elsewhere(
        "the set-up: it makes the environment the tests run in; .ci/run runs it first, read "
        "out of the README",
        README_SET_UP,
    ),
    (
        "README.md",
        "python3 -m venv .venv && .venv/bin/pip install -e "
        "'.[test,examples,dask,progress,docs,bench]' && npm ci --prefix tests/ajv && "
        "npm ci --prefix conformance/js && "
        ".venv/bin/python -m pytest -n auto --dist loadfile",
    ): Elsewhere(
        "the set-up and the whole suite, this module included; .ci/run runs it, read out of "
        "the README",
        README_SET_UP,
    ),
    ("README.md", ".venv/bin/sphinx-build -W --keep-going -n docs docs/_build/html"): Elsewhere(
        "it builds the whole site: the `site` fixture of tests/test_docs.py runs it as written "
        "in a scratch copy, once, for the tests of the site it built",
        "tests/test_docs.py::site",
    ),
    ("docs/getting-started.md", "python3 -m venv .venv && .venv/bin/pip install -e ."): Elsewhere(
        "the set-up: the README's first set-up command begins with it",
        README_SET_UP,
    ),
    ("docs/guides/audit.md", ".venv/bin/sphinx-build -q docs docs/_build/html"): Elsewhere(
        "it builds the whole site, then audits the reader's store: the `site` fixture builds it, "
        "and the test writes a report linked to it and opens every link from the disk",
        "tests/test_docs.py::test_an_offline_report_links_to_the_built_site",
    ),
    ("docs/index.md", "python3 -m venv .venv && .venv/bin/pip install -e ."): Elsewhere(
        "the install line of the front page: the README's first set-up command begins with it",
        README_SET_UP,
    ),
    (
        "benchmarks/README.md",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[bench]' && "
        ".venv/bin/python benchmarks/run.py",
    ): Elsewhere(
        "every benchmark, a run of several minutes, in an environment it makes; "
        "tests/test_benchmark_corpus.py tests the corpus and the peers' agreement it starts with",
        None,
    ),
    (
        "benchmarks/README.md",
        "python3 -m venv .venv-compiled && .venv-compiled/bin/pip install '.[bench]' && "
        ".venv-compiled/bin/python benchmarks/run.py",
    ): Elsewhere(
        "the compiled build, then every benchmark on it: several minutes",
        None,
    ),
    (
        "benchmarks/README.md",
        ".venv/bin/python benchmarks/ab.py HEAD~1 HEAD                 # a commit against its "
        "parent, pure",
    ): Elsewhere(
        "it times two revisions side by side, a minute or more (compiled, minutes of mypyc "
        "each); the test runs the same tool on HEAD against HEAD in its tiny mode",
        "tests/test_benchmark_ab.py::test_head_against_head_runs_agrees_and_leaves_no_worktree",
    ),
    ("benchmarks/experiments/README.md", "git switch --detach 708f15e"): Elsewhere(
        "it checks out an older commit, changes it, and builds two revisions with mypyc: "
        "minutes each; the test checks that every patch applies to the commit it names",
        "tests/test_benchmark_experiments.py::test_every_patch_applies_to_the_commit_it_names",
    ),
    ("docs/guides/builds.md", ".venv/bin/nox -s parity"): Elsewhere(
        "it builds the package twice with mypyc and pip, a few minutes; .ci/run runs the same "
        "builds, the whole suite on the compiled one, the parity tests included",
        '.ci/run: .venv/bin/nox -s "tests(compiled)" "parity(pure)"',
    ),
    ("docs/mutation.md", "python3 -m venv .venv && .venv/bin/pip install -e '.[test,mutation]'"): (
        Elsewhere(
            "the whole mutation run takes hours; CI runs its fourth line, one rule module",
            ".ci/run: .venv/bin/python scripts/mutation.py --latest",
        )
    ),
    (
        "docs/guides/diff.md",
        ".venv/bin/python scripts/install_revision.py 5d4e07d /tmp/campaign-rules-5d4e07d",
    ): Elsewhere(
        "it writes outside the repository: the fixture installs 5d4e07d with the same function "
        "into the session's own directory, and the test runs the same diff as a process",
        "tests/test_diff_example.py::test_the_guide_shows_what_the_diff_reports_now",
    ),
    (
        "docs/guides/diff.md",
        ".venv/bin/python scripts/diff_mutants.py            # all of them: about 5 s each",
    ): Elsewhere(
        "the whole run takes half an hour or more; the test runs the same script on three "
        "mutants, one of each file it edits",
        "tests/test_diff_mutants.py::test_the_script_reports_each_mutant_on_its_rule",
    ),
    (
        "docs/guides/schema-and-openapi.md",
        ".venv/bin/pip install -e '.[test,examples]' && .venv/bin/python -m tests.contract.run",
    ): Elsewhere(
        "it installs into the environment the tests run in, and runs for up to two minutes",
        ".ci/run: .venv/bin/python -m tests.contract.run",
    ),
    ("docs/guides/reference-server.md", ".venv/bin/pip install -e '.[examples]'"): Elsewhere(
        "it starts the demo server, which runs until stopped: the fixture runs its second and "
        "third lines on a free port, and checks that the first is the install its environment has",
        "tests/e2e/test_reference_server_guide.py::demo",
    ),
    ("docs/guides/fleet.md", ".venv/bin/pip install -e '.[examples]'"): Elsewhere(
        "it installs PostgreSQL and Redis with sudo and apt-get, and the server runs until "
        "stopped: the fleet test starts its own on free ports, seeds with the same module and "
        "serves the same app with `--workers`",
        "tests/e2e/test_fleet.py::fleet",
    ),
    ("docs/guides/reference-server.md", "API=http://127.0.0.1:8000/api/v1.0"): Elsewhere(
        "it needs the demo server: the test runs it against the fixture's, on a free port",
        "tests/e2e/test_reference_server_guide.py::test_each_curl_line_answers_what_the_guide_says",
    ),
    ("docs/guides/reference-server.md", ".venv/bin/python sdk_demo.py"): Elsewhere(
        "it needs the demo server and the script the page shows: the test saves it and runs it",
        "tests/e2e/test_reference_server_guide.py::test_the_sdk_demo_prints_what_the_guide_says",
    ),
    ("docs/guides/dask.md", "$ pip install 'campaign-rules[dask,s3]'"): Elsewhere(
        "for each machine of a cluster, from the package index",
        None,
    ),
    ("docs/guides/dask.md", "$ dask scheduler --scheduler-file /shared/scheduler.json"): Elsewhere(
        "on the scheduler's machine, with a shared filesystem: the fixture starts "
        "`dask scheduler` on the loopback",
        "tests/test_audit_dask_cluster.py::cluster",
    ),
    ("docs/guides/dask.md", "$ dask worker tcp://10.0.0.5:8786 --nworkers 8 --nthreads 1"): (
        Elsewhere(
            "on each worker's machine, at the scheduler's address: the fixture starts "
            "`dask worker ADDRESS --nworkers 2` on the loopback",
            "tests/test_audit_dask_cluster.py::cluster",
        )
    ),
    (
        "docs/guides/dask.md",
        ".venv/bin/python -c 'import json, sys; from campaign_rules.dask import audit; "
        "print(json.dumps(audit(sys.argv[1], client=sys.argv[2]).to_json(), indent=2))' "
        "'s3://exports/campaigns/part-*.jsonl.gz' tcp://10.0.0.5:8786",
    ): Elsewhere(
        "it needs a cluster and a bucket: the test makes the same call on the loopback's",
        "tests/test_audit_dask_cluster.py::test_the_cluster_summary_of_an_s3_store_is_the_single_process_one",
    ),
}


# The pages and their blocks


def pages() -> list[Path]:
    """Every Markdown page of the repository, but in what a scratch copy leaves out."""
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = sorted(
            name
            for name in folders
            if not any(fnmatch.fnmatch(name, pattern) for pattern in NOT_COPIED)
        )
        found += [Path(folder) / name for name in sorted(files) if name.endswith(".md")]
    return found


def sybil_pages() -> set[Path]:
    """The pages whose `console` blocks Sybil runs."""
    from docs.conftest import NOT_HERE, PAGES

    # By its path: the module `conftest` may be another page's.
    README_PAGES = module_from(ROOT / "conftest.py", "readme_conftest").PAGES

    def matching(patterns: Iterable[str]) -> set[Path]:
        return {page.resolve() for pattern in patterns for page in ROOT.glob(pattern)}

    return matching([*README_PAGES, *PAGES]) - matching(NOT_HERE)


def shell_blocks() -> list[Block]:
    """Every shell block of every page."""
    return [
        block
        for page in pages()
        for block in fenced_blocks(page)
        if block.language in SHELL_LANGUAGES
    ]


def run_by_sybil(block: Block, by_sybil: set[Path]) -> bool:
    return block.language == "console" and not block.skipped and ROOT / block.page in by_sybil


def unaccounted(blocks: Iterable[Block], by_sybil: set[Path]) -> list[tuple[str, int, str]]:
    """The blocks that nothing runs and no table lists: (page, line, first line)."""
    listed = RUN_HERE.keys() | ELSEWHERE.keys()
    return [
        (block.page, block.line, block.first_line)
        for block in blocks
        if not run_by_sybil(block, by_sybil) and (block.page, block.first_line) not in listed
    ]


def the_block(page: str, first_line: str) -> Block:
    [block] = [b for b in fenced_blocks(ROOT / page) if b.first_line == first_line]
    return block


# The tables cover every block, and only blocks that exist


def test_every_shell_block_is_run_or_listed() -> None:
    blocks = shell_blocks()
    assert len(blocks) > 20
    assert unaccounted(blocks, sybil_pages()) == []


def test_a_new_block_that_nothing_runs_is_found() -> None:
    by_sybil = sybil_pages()
    new = Block("docs/guides/audit.md", 1, "sh", ".venv/bin/campaign-rules rules\n", False)
    skipped = Block("docs/cli.md", 1, "console", "$ .venv/bin/campaign-rules rules\n", True)
    run = Block("docs/cli.md", 1, "console", "$ .venv/bin/campaign-rules rules\n", False)
    elsewhere = Block("docs/guides/dask.md", 1, "console", "$ .venv/bin/campaign-rules\n", False)
    found = unaccounted([new, skipped, run, elsewhere], by_sybil)
    assert [line for _, _, line in found] == [
        ".venv/bin/campaign-rules rules",
        "$ .venv/bin/campaign-rules rules",
        "$ .venv/bin/campaign-rules",
    ]


def test_every_listed_block_exists() -> None:
    by_sybil = sybil_pages()
    named: dict[tuple[str, str], list[Block]] = {}
    for block in shell_blocks():
        named.setdefault((block.page, block.first_line), []).append(block)
    assert RUN_HERE.keys().isdisjoint(ELSEWHERE.keys())
    for key in RUN_HERE.keys() | ELSEWHERE.keys():
        assert len(named.get(key, [])) == 1, f"no block, or more than one, is {key}"
        [block] = named[key]
        assert not run_by_sybil(block, by_sybil), f"Sybil runs {key}: list it nowhere"


def test_each_named_runner_exists() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for key, listed in ELSEWHERE.items():
        assert listed.why.strip(), key
        if listed.runner is None:
            continue
        if listed.runner.startswith(".ci/run: "):
            assert listed.runner.removeprefix(".ci/run: ") in ci, (key, listed.runner)
            continue
        module, name = listed.runner.split("::")
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert name in defined, (key, listed.runner)


def test_the_blocks_of_the_set_up_are_what_ci_runs() -> None:
    # A block listed as run by .ci/run's set-up is one of the README's set-up commands, as
    # scripts/readme_commands.py reads them, or the start of one.
    commands = readme_commands_module().set_up_commands(
        (ROOT / "README.md").read_text(encoding="utf-8")
    )
    listed = [key for key, entry in ELSEWHERE.items() if entry.runner == README_SET_UP]
    for page, first_line in listed:
        text = the_block(page, first_line).text.strip()
        assert "\n" not in text
        assert any(command.startswith(text) for command in commands), (page, text)
    assert {first_line for page, first_line in listed if page == "README.md"} == set(commands)


# The blocks run here


@pytest.mark.parametrize(("page", "first_line"), sorted(RUN_HERE), ids=lambda key: str(key))
def test_a_block_runs_as_written(page: str, first_line: str, tmp_path: Path) -> None:
    expect = RUN_HERE[(page, first_line)]
    for module, extra in expect.needs:
        pytest.importorskip(module, reason=f"the {extra} extra is not installed (no {module})")
    copy = scratch_repository(tmp_path)
    environment = {name: value for name, value in os.environ.items() if name != "CI"}

    ran = subprocess.run(
        ["bash", "-e", "-c", the_block(page, first_line).text],
        cwd=copy,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert ran.returncode == expect.status, ran.stdout + ran.stderr
    for printed in expect.prints:
        assert printed in ran.stdout, (printed, ran.stdout, ran.stderr)
    for written in expect.writes:
        assert (copy / written).stat().st_size > 0, written
    if expect.then is not None:
        command, printed = expect.then
        then = subprocess.run(
            ["bash", "-c", command], cwd=copy, capture_output=True, text=True, check=False
        )
        assert printed in then.stdout, (command, then.stdout, then.stderr)


# The reader of the pages


def test_fenced_blocks_reads_fences_languages_and_skips(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '# A page\n\n```sh\na\n\nb\n```\n\n% skip: next "why"\n\n~~~~console\n$ c\n```\n~~~~\n'
        "<!-- skip: start -->\n```bash\nd\n```\n<!-- skip: end -->\n```{toctree}\ne\n```\n",
        encoding="utf-8",
    )
    blocks = fenced_blocks(page)
    assert [(b.line, b.language, b.text, b.skipped) for b in blocks] == [
        (3, "sh", "a\n\nb\n", False),
        (11, "console", "$ c\n```\n", True),
        (16, "bash", "d\n", True),
        (20, "{toctree}", "e\n", False),
    ]
    assert [b.first_line for b in blocks] == ["a", "$ c", "d", "e"]
