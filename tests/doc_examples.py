"""The examples of the README and of the documentation site, run by Sybil as tests.

`conftest.py` (for README.md) and `docs/conftest.py` (for the site's pages) collect them:

- a `python` block runs, in order, in one namespace per page, from the repository's root;
- a `console` block is a shell session: each `$ ` line runs in one bash process per block, from
  the repository's root, and the lines that follow it, up to the next `$ `, are its output. A
  line `...` stands for any number of lines, and `...` in a line for any text. The commands are
  written with the set-up's `.venv/bin/...`; when the tests run in another environment (CI's two
  builds), `.venv/bin/` means that environment's `bin/`, so each build runs its own commands;
- a `sh` block is shown, not run (a long run, a server, a set-up command: `.ci/run` runs the
  README's set-up commands, literally);
- `% skip: next "reason"` (MyST) or `<!-- skip: next "reason" -->` (Markdown) skips the next
  block, which must say why.

Sybil comes with the `docs` extra; without it, each page's examples are one test, skipped,
naming the extra (`without_sybil`).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ".venv/bin/"
_SEPARATOR = "\x1f-- next command --\x1f"


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
