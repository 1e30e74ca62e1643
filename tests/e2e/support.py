"""The reference server in a subprocess, and the handle on it that the end-to-end tests share.

`running_server` starts uvicorn on a free port over a database file; the end-to-end tests and
the contract test (`tests/contract/run.py`) start it the same way.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path

import attrs
import httpx
import pytest
from examples.server import seed

ROOT = Path(__file__).resolve().parents[2]
_STARTUP_SECONDS = 20.0


@attrs.frozen
class Server:
    """A running reference server and its database file."""

    base_url: str
    database: Path

    def new_key(self, organization: int = seed.ACME) -> str:
        """Issue a fresh API key to `organization`."""
        key = f"test-{uuid.uuid4()}"
        seed.add_api_key(self.database, organization, key)
        return key

    def query(self, sql: str, *parameters: object) -> list[tuple[object, ...]]:
        """Rows of a read-only query on the server's database."""
        with closing(sqlite3.connect(self.database)) as connection:
            return connection.execute(sql, parameters).fetchall()

    def execute(self, sql: str, *parameters: object) -> None:
        """Change the server's records, as another part of the service would."""
        with closing(sqlite3.connect(self.database)) as connection, connection:
            connection.execute(sql, parameters)


class ServerDidNotStart(Exception):
    """The server exited or did not answer in time; the message holds its log."""


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(
    database: Path, log: Path, settings: Mapping[str, str] | None = None
) -> Iterator[Server]:
    """The server on a free port over `database` (seeded), with `settings` in its environment.

    Its output goes to `log`. It is stopped on leaving; `ServerDidNotStart` if it never answers.
    """
    port = free_port()
    command = [
        *(sys.executable, "-m", "uvicorn", "examples.server.app:create_app", "--factory"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
    ]
    environment = {**os.environ, "CAMPAIGN_SERVER_DB": str(database), **(settings or {})}
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}/api/v1.0"
    try:
        wait_until_ready(base_url, process, log)
        yield Server(base_url=base_url, database=database)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def seeded_server(directory: Path, settings: Mapping[str, str] | None = None) -> Iterator[Server]:
    """`running_server` over a freshly seeded `directory/campaigns.db`, logging to `server.log`.

    The test fails, with the server's log, if the server does not start.
    """
    database = directory / "campaigns.db"
    seed.seed(database)
    try:
        with running_server(database, directory / "server.log", settings) as server:
            yield server
    except ServerDidNotStart as failure:
        pytest.fail(str(failure))


def wait_until_ready(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll until the server answers (any status will do), or raise with its log."""
    deadline = time.monotonic() + _STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerDidNotStart(
                f"the server exited with {process.returncode}:\n{log.read_text()}"
            )
        try:
            httpx.get(f"{base_url}/openapi.json", timeout=1.0)  # no credentials, no budget
        except httpx.TransportError:
            time.sleep(0.05)
        else:
            return
    raise ServerDidNotStart(
        f"the server did not answer within {_STARTUP_SECONDS} s:\n{log.read_text()}"
    )
