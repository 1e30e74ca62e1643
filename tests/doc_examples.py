"""The examples of the README and of the documentation site, run by Sybil as tests.

`conftest.py` (for README.md) and `docs/conftest.py` (for the site's pages) collect them:

- a `python` block runs, in order, in one namespace per page, from the repository's root;
- a `console` block is a shell session: each `$ ` line runs in one bash process per block, from
  the repository's root, and the lines that follow it, up to the next `$ `, are its output. A
  line `...` stands for any number of lines, and `...` in a line for any text. The commands are
  written with the set-up's `.venv/bin/...`; when the tests run in another environment (CI's two
  builds), `.venv/bin/` means that environment's `bin/`, so each build runs its own commands;
- Sybil shows a `sh` block without running it: `tests/test_shell_blocks.py` runs it literally,
  with bash, in a scratch copy of the repository (`scratch_repository`), or names in its one
  table the test or CI step that runs it, or why nothing can (a cluster, a run of many minutes);
- `% skip: next "reason"` (MyST) or `<!-- skip: next "reason" -->` (Markdown) skips the next
  block, which must say why.

Sybil comes with the `docs` extra; without it, each page's examples are one test, skipped,
naming the extra (`without_sybil`).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ".venv/bin/"
_SEPARATOR = "\x1f-- next command --\x1f"
# What a scratch copy of the repository leaves out: environments, caches, what builds and runs
# write (the site, the generated rule pages, the benchmarks' stores) and version control.
NOT_COPIED = (
    *(".git", ".venv*", ".nox", "node_modules", "__pycache__", "*.egg-info", ".*_cache"),
    *(".hypothesis", ".schemathesis", "mutants", "dist", "build", "_build", ".data", "demo.db"),
)
SHELL_LANGUAGES = frozenset({"sh", "bash", "shell", "zsh", "console"})
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})\s*(?P<info>[^\n]*)$")
_SKIP = re.compile(r"^\s*(?:%|<!--)\s*skip:\s*(?P<action>next|start|end)\b")


class Block(NamedTuple):
    """A fenced block of a Markdown page, named by its page and its first line."""

    page: str  # relative to the repository's root, with `/`
    line: int  # the line number of its fence
    language: str  # the first word of the info string: `sh`, `python`, `{toctree}`...
    text: str
    skipped: bool  # under a Sybil `skip: next` (or inside `skip: start` ... `skip: end`)

    @property
    def first_line(self) -> str:
        """Its first line that is not blank, which names it in tables."""
        return next((line for line in self.text.splitlines() if line.strip()), "")


def fenced_blocks(page: Path) -> list[Block]:
    """The fenced blocks of a Markdown or MyST page, in order."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    resolved = page.resolve()
    name = (resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else resolved).as_posix()
    skip_next = skipping = False
    index = 0
    while index < len(lines):
        line = lines[index]
        skip = _SKIP.match(line)
        opening = _FENCE.match(line)
        if skip is not None:
            skip_next = skip_next or skip["action"] == "next"
            skipping = {"start": True, "end": False}.get(skip["action"], skipping)
        elif opening is not None:
            fence = opening["fence"]
            closing = re.compile(f"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\\s*$")
            end = next(
                (n for n in range(index + 1, len(lines)) if closing.match(lines[n])), len(lines)
            )
            text = "".join(f"{body}\n" for body in lines[index + 1 : end])
            language = (opening["info"].split() or [""])[0]
            blocks.append(Block(name, index + 1, language, text, skip_next or skipping))
            skip_next = False
            index = end
        index += 1
    return blocks


def module_from(path: Path, name: str) -> Any:
    """The Python file at `path`, imported as the module `name` (not a package's module)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def readme_commands_module() -> Any:
    """`scripts/readme_commands.py`, which `.ci/run` reads the README's set-up commands with."""
    return module_from(ROOT / "scripts" / "readme_commands.py", "readme_commands")


def scratch_repository(folder: Path) -> Path:
    """A copy of the repository in `folder`, whose `.venv` is the environment running the tests.

    A block runs there as written (`.venv/bin/...` is this environment), and whatever it writes
    (a database, a store, a built site) stays out of the repository.
    """
    copy = folder / "repository"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    (copy / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    return copy


def console_commands(text: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the lines of output it must print."""
    session: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            session.append((line[2:], []))
        elif session:
            session[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"output before the first command: {line!r}")
    return session


def output_pattern(expected: list[str]) -> re.Pattern[str]:
    """A pattern of the whole output: each line as written, `...` for any lines."""
    parts = [
        "(?:.*\n)*?" if line == "..." else re.escape(line).replace(r"\.\.\.", ".*?") + "\n"
        for line in expected
    ]
    return re.compile("".join(parts))


def in_this_environment(command: str) -> str:
    """The command, with `.venv/bin/` naming the environment that runs the tests."""
    here = Path(sys.prefix) / "bin"
    if here == ROOT / ".venv" / "bin":
        return command
    return re.sub(r"(?<![\w/.])\.venv/bin/", f"{here}/", command)


def run_console(text: str) -> str | None:
    """Run a console block; None when every command printed what the block shows."""
    session = console_commands(text)
    script = "".join(
        f"{in_this_environment(command)}\n__status=$?\nprintf '%s\\n' '{_SEPARATOR}'\n"
        "(exit $__status)\n"
        for command, _ in session
    )
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    outputs = done.stdout.split(_SEPARATOR + "\n")
    for (command, expected), output in zip(session, outputs, strict=False):
        if not output_pattern(expected).fullmatch(output):
            return (
                f"$ {command}\nexpected:\n" + "\n".join(expected) + f"\ngot:\n{output}"
                f"standard error:\n{done.stderr}"
            )
    return None


def evaluate_console(example: Any) -> str | None:
    """Sybil's evaluator of a console block."""
    return run_console(example.parsed)


def sybil(markdown: str, patterns: list[str], excludes: list[str] = []) -> Any:  # noqa: B006
    """A Sybil for the given pages: `markdown` is "myst" (the site) or "markdown" (README)."""
    from sybil import Sybil

    if markdown == "myst":
        from sybil.parsers.myst import CodeBlockParser, PythonCodeBlockParser, SkipParser
    else:
        from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

    return Sybil(
        parsers=[
            PythonCodeBlockParser(),
            CodeBlockParser("console", evaluate_console),
            SkipParser(),
        ],
        patterns=patterns,
        excludes=excludes,
        path=str(ROOT),
    )


class _Skipped(pytest.Item):
    def runtest(self) -> None:
        pytest.skip("the docs extra is not installed: Sybil runs the examples of this page")


class _PageWithoutSybil(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield _Skipped.from_parent(self, name="examples")


def without_sybil(patterns: list[str], excludes: list[str] = []) -> Callable[..., Any]:  # noqa: B006
    """A `pytest_collect_file` hook: each page one test, skipped for want of Sybil."""

    def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.File | None:
        relative = file_path.relative_to(ROOT) if file_path.is_relative_to(ROOT) else None
        if relative is None or not any(relative.match(p) for p in patterns):
            return None
        if any(relative.match(p) for p in excludes):
            return None
        return _PageWithoutSybil.from_parent(parent, path=file_path)

    return pytest_collect_file
