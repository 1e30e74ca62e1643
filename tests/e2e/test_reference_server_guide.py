"""The guide's "Try it" runs as written (issues 14, 19): seed, start, curl and the SDK.

`docs/guides/reference-server.md` is read block by block. Each command runs in a scratch folder
that holds the repository's `examples` (so that `demo.db` and `sdk_demo.py` land there, not in
the repository), with `.venv/bin/` meaning this interpreter's folder and a free port instead of
8000. Each curl line ends in the status (and error key) the guide promises, which is checked
against the server's answer, read with the library's readers; the SDK script's output is
checked against the output the guide prints.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from examples.server import seed

from campaign_rules import validate_create_json
from campaign_rules.responses import (
    ParseResult,
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from tests.cli_support import lines_of
from tests.doc_examples import fenced_blocks
from tests.e2e.support import ROOT, DidNotStart, free_port, running, wait_until_ready

pytestmark = pytest.mark.e2e

GUIDE = ROOT / "docs" / "guides" / "reference-server.md"
EXAMPLES = ROOT / "examples"


def section(title: str) -> str:
    """The text of the guide's `### title` section, up to the next heading."""
    guide = GUIDE.read_text(encoding="utf-8")
    return re.split(r"\n#{2,3} ", guide.split(f"\n### {title}\n", 1)[1], maxsplit=1)[0]


def blocks(title: str) -> list[tuple[str, str]]:
    """The (language, code) of each fenced block of the guide's `### title` section.

    Read by the docs tests' own reader (`tests.doc_examples.fenced_blocks`), so that a block
    is what every other test of the pages takes it to be.
    """
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    heading = lines.index(f"### {title}") + 1  # line numbers from 1, as `Block.line`
    after = (n for n, line in enumerate(lines[heading:], heading + 1) if re.match("#{2,3} ", line))
    end = next(after, len(lines) + 1)
    return [(b.language, b.text) for b in fenced_blocks(GUIDE) if heading < b.line < end]


def as_here(text: str, port: int) -> str:
    """The text for this machine: this interpreter's folder, and `port` for 8000."""
    here = f"{Path(sys.executable).parent}/"
    return text.replace(".venv/bin/", here).replace("127.0.0.1:8000", f"127.0.0.1:{port}")


def run(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=folder, capture_output=True, text=True, timeout=60, check=False
    )


@attrs.frozen
class Demo:
    folder: Path
    port: int


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """The demo server, seeded and started by the guide's three lines."""
    folder = tmp_path_factory.mktemp("guide")
    (folder / "examples").symlink_to(EXAMPLES)
    [(language, setup)] = blocks("Start the demo server")
    assert language == "sh"
    install, seed_line, server_line = setup.strip().splitlines()
    assert install == ".venv/bin/pip install -e '.[examples]'"  # the test's environment has it
    port = free_port()

    seeded = run(as_here(seed_line, port), folder)
    assert seeded.returncode == 0, seeded.stderr
    assert (folder / "demo.db").is_file()

    command = f"{as_here(server_line, port)} --port {port}"
    log = folder / "server.log"
    with running(["bash", "-c", command], log, cwd=folder) as server:  # bash and its server
        try:
            wait_until_ready(f"http://127.0.0.1:{port}/api/v1.0", server, log)
        except DidNotStart as failure:
            pytest.fail(str(failure))
        yield Demo(folder, port)


def curl_block() -> str:
    [(language, code)] = blocks("Requests with curl")
    assert language == "sh"
    return code


PROMISE = re.compile(r"  # (?P<status>\d{3})(?: (?P<key>[A-Z_]{2,}\b))?")


def reader_of(line: str, status: int) -> Callable[[object], ParseResult[Any]]:
    """The library's reader of what the curl line's URL answers with `status`."""
    url = line.split("  #")[0]
    if status >= 400:
        return lambda body: parse_error(status, body)
    if "/contacts/" in url:
        return parse_contact_response
    if "/thread/" in url:
        return parse_thread
    return parse_create_response


def test_each_curl_line_answers_what_the_guide_says(demo: Demo) -> None:
    code = curl_block()
    curls = [line for line in code.splitlines() if line.startswith("curl ")]

    answered = run(as_here(code, demo.port), demo.folder)

    assert answered.returncode == 0, answered.stderr
    outputs = answered.stdout.splitlines()
    assert len(outputs) == len(curls)
    for line, output in zip(curls, outputs, strict=True):
        promise = PROMISE.search(line)
        assert promise is not None, f"a curl line without its status: {line}"
        text, _, status = output.rpartition(" ")
        body = json.loads(text)
        assert int(status) == int(promise["status"]), (line, output)
        assert reader_of(line, int(status))(body).ok, (line, body)
        if promise["key"] is not None:
            assert body["error"] == promise["key"], (line, body)


def test_every_bundled_example_and_demo_key_is_posted() -> None:
    # Issue 19: every example works against the demo database, or the guide says what it gives.
    code = curl_block()
    posted = set(re.findall(r"-d @examples/([\w.]+\.json)", code))

    assert posted == {path.name for path in EXAMPLES.glob("*.json")}
    for key in (seed.ACME_KEY, seed.OVERDRAWN_KEY):
        assert f"api-key {key}" in code
    assert seed.OVERDRAWN_AGENT in code


def test_the_sdk_demo_prints_what_the_guide_says(demo: Demo) -> None:
    [(python_language, script), (sh_language, command), (text_language, printed)] = blocks(
        "The SDK"
    )
    assert (python_language, sh_language, text_language) == ("python", "sh", "text")
    saved_as = re.search(r"Save this as `(\w+\.py)`", section("The SDK"))
    assert saved_as is not None
    (demo.folder / saved_as[1]).write_text(as_here(script, demo.port), encoding="utf-8")
    assert command.strip() == f".venv/bin/python {saved_as[1]}"

    result = run(as_here(command.strip(), demo.port), demo.folder)

    assert result.returncode == 0, result.stderr
    assert result.stdout == printed


def test_every_included_piece_of_source_exists() -> None:
    # The guide shows the server's and the SDK's code by `literalinclude`, not a copy: a
    # renamed method would leave it showing nothing.
    guide = GUIDE.read_text(encoding="utf-8")
    includes = re.findall(r"```\{literalinclude\} (\S+)\n(?::\w+:.*\n)*?:pyobject: (\S+)", guide)
    assert len(includes) == 4
    for relative, name in includes:
        tree = ast.parse((GUIDE.parent / relative).read_text(encoding="utf-8"))
        class_name, function_name = name.split(".")
        [owner] = [node for node in tree.body if getattr(node, "name", None) == class_name]
        assert isinstance(owner, ast.ClassDef)
        assert function_name in {getattr(node, "name", None) for node in owner.body}


def test_the_offline_check_of_the_invalid_example_lists_every_violation(tmp_path: Path) -> None:
    # The guide says examples/invalid.json is for showing refusals: the server answers its first
    # violation, and this command lists them all.
    [command] = re.findall(
        r"`(\.venv/bin/campaign-rules check examples/\w+\.json)`",
        section("The demo database and its keys"),
    )
    (tmp_path / "examples").symlink_to(EXAMPLES)

    result = run(as_here(command, 8000), tmp_path)

    violations = validate_create_json((EXAMPLES / "invalid.json").read_bytes()).violations
    assert result.returncode == 1, result.stderr
    assert len(violations) > 1
    assert result.stdout.splitlines() == [
        *lines_of("examples/invalid.json", violations),
        f"Found {len(violations)} violations in 1 file",
    ]
