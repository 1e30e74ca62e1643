"""The reference server in a subprocess, on a free port, over a fresh SQLite file.

The server is started once per test module and killed after it. Its rate limiters run on a
frozen clock (`CAMPAIGN_SERVER_FROZEN_CLOCK_NS`), so each API key has exactly 12 requests per
operation: tests never depend on how fast the machine is, and each test takes fresh API keys
(`server.new_key()`) so that no test spends another's budget.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from examples.server import seed

from tests.e2e.support import Server

ROOT = Path(__file__).resolve().parents[2]
_STARTUP_SECONDS = 20.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_ready(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll until the server answers (any status will do), or fail with its log."""
    deadline = time.monotonic() + _STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            httpx.get(f"{base_url}/thread/ready", timeout=1.0)  # 401: no credentials, no budget
        except httpx.TransportError:
            time.sleep(0.05)
        else:
            return
    pytest.fail(f"the server did not answer within {_STARTUP_SECONDS} s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("server")
    database, log = directory / "campaigns.db", directory / "server.log"
    seed.seed(database)
    port = _free_port()
    command = [
        *(sys.executable, "-m", "uvicorn", "examples.server.app:create_app", "--factory"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
    ]
    environment = {
        **os.environ,
        "CAMPAIGN_SERVER_DB": str(database),
        "CAMPAIGN_SERVER_FROZEN_CLOCK_NS": "0",
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}/api/v1.0"
    try:
        _wait_until_ready(base_url, process, log)
        yield Server(base_url=base_url, database=database)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10.0) as client:
        yield client
