"""The README's "Try it" runs as written (issue 14): seed, start, curl and the SDK.

Each command of the section runs in a scratch folder that holds the repository's `examples`
(so that `demo.db` lands there, not in the repository), with `.venv/bin/` meaning this
interpreter's folder and a free port instead of 8000; the answers are read with the library's
readers.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from tests.e2e.support import ROOT, ServerDidNotStart, free_port, wait_until_ready

pytestmark = pytest.mark.e2e


def try_it_blocks() -> list[tuple[str, str]]:
    """The (language, code) of each fenced block of the README's "Try it" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Try it", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, flags=re.DOTALL)


def as_here(line: str, port: int) -> str:
    """The line for this machine: this interpreter's folder, and `port` for 8000."""
    here = f"{Path(sys.executable).parent}/"
    return line.replace(".venv/bin/", here).replace("127.0.0.1:8000", f"127.0.0.1:{port}")


def run(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=folder, capture_output=True, text=True, timeout=60, check=False
    )


# What each curl line of the section answers, read by the library.
CURL_ANSWERS = [
    parse_create_response,
    parse_contact_response,
    parse_thread,
    lambda body: parse_error(401, body),
]


def test_the_try_it_section_works_as_written(tmp_path: Path) -> None:
    [(_, setup), (_, requests), (python_language, sdk)] = try_it_blocks()
    assert python_language == "python"
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    port = free_port()
    install, seed_line, server_line = setup.strip().splitlines()
    assert install.startswith(".venv/bin/pip install")  # the test's own environment has it

    seeded = run(as_here(seed_line, port), tmp_path)
    assert seeded.returncode == 0, seeded.stderr
    assert (tmp_path / "demo.db").is_file()

    command = f"{as_here(server_line.split('#')[0], port)} --port {port}"
    with (tmp_path / "server.log").open("wb") as log:
        server = subprocess.Popen(
            ["bash", "-c", command], cwd=tmp_path, stdout=log, stderr=log, start_new_session=True
        )
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/api/v1.0", server, tmp_path / "server.log")
        curls = [line for line in requests.strip().splitlines() if line.startswith("curl")]
        assert len(curls) == len(CURL_ANSWERS)
        for line, read in zip(curls, CURL_ANSWERS, strict=True):
            answered = run(as_here(line, port), tmp_path)
            assert answered.returncode == 0, answered.stderr
            body: Any = json.loads(answered.stdout)
            assert read(body).ok, (shlex.split(line)[-1], body)

        script = run(
            f"{shlex.quote(sys.executable)} -c {shlex.quote(as_here(sdk, port))}", tmp_path
        )
        assert script.returncode == 0, script.stderr
        created, contact, thread, refused = script.stdout.splitlines()
        assert created == "201 pending"
        assert (contact, thread) == ("Marta Ruiz", "Marta Ruiz")
        assert refused == "False [('INVALID_REQUEST', 'retries')]"
    except ServerDidNotStart as failure:
        pytest.fail(str(failure))
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # bash and the server it started
        server.wait(timeout=10)
