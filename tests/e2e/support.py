"""Processes the tests start, and the reference server's handle that the end-to-end tests share.

`running` starts a command in a process group of its own and always stops the group;
`wait_for` polls until it is ready, bounded. `running_server` starts uvicorn so on a free port
over a database file; the end-to-end tests and the contract test (`tests/contract/run.py`)
start it the same way, and the Dask cluster test its scheduler, workers and moto's server.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any

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


class DidNotStart(Exception):
    """A process exited or was not ready in time; the message holds its log."""


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running(
    command: list[str], log: Path, *, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """`command` in a process group of its own, output to `log`; the group is stopped after.

    SIGTERM first (uvicorn, dask, moto and bash then stop their children), SIGKILL to what is
    left after 10 s.
    """
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        _signal_group(process.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        _signal_group(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _signal_group(group: int, number: signal.Signals) -> None:
    with suppress(ProcessLookupError):
        os.killpg(group, number)


def wait_for(
    ready: Callable[[], object],
    what: str,
    process: subprocess.Popen[bytes],
    log: Path,
    seconds: float = _STARTUP_SECONDS,
) -> None:
    """Poll `ready()` until it is true, for at most `seconds`.

    `DidNotStart`, with `log`, if `process` exits first or the time runs out.
    """
    deadline = time.monotonic() + seconds
    while not ready():
        if process.poll() is not None:
            raise DidNotStart(f"{what} exited with {process.returncode}:\n{log.read_text()}")
        if time.monotonic() > deadline:
            raise DidNotStart(f"{what} was not ready within {seconds} s:\n{log.read_text()}")
        time.sleep(0.05)


def answers(url: str) -> bool:
    """Whether anything answers a GET of `url` (any status will do)."""
    try:
        httpx.get(url, timeout=1.0)
    except httpx.TransportError:
        return False
    return True


@contextmanager
def running_server(
    database: Path,
    log: Path,
    settings: Mapping[str, str] | None = None,
    *,
    workers: int = 1,
    log_level: str = "warning",
) -> Iterator[Server]:
    """The server on a free port over `database` (seeded), with `settings` in its environment.

    uvicorn runs `workers` worker processes and logs at `log_level` to `log`. It is stopped on
    leaving; `DidNotStart` if it never answers.
    """
    port = free_port()
    command = [
        *(sys.executable, "-m", "uvicorn", "examples.server.app:create_app", "--factory"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", log_level),
        *("--workers", str(workers)),
    ]
    environment = {**os.environ, "CAMPAIGN_SERVER_DB": str(database), **(settings or {})}
    base_url = f"http://127.0.0.1:{port}/api/v1.0"
    with running(command, log, cwd=ROOT, env=environment) as process:
        wait_until_ready(base_url, process, log)
        yield Server(base_url=base_url, database=database)


@contextmanager
def seeded_server(
    directory: Path,
    settings: Mapping[str, str] | None = None,
    *,
    workers: int = 1,
    log_level: str = "warning",
) -> Iterator[Server]:
    """`running_server` over a freshly seeded `directory/campaigns.db`, logging to `server.log`.

    The test fails, with the server's log, if the server does not start.
    """
    database = directory / "campaigns.db"
    seed.seed(database)
    log = directory / "server.log"
    try:
        with running_server(
            database, log, settings, workers=workers, log_level=log_level
        ) as server:
            yield server
    except DidNotStart as failure:
        pytest.fail(str(failure))


def wait_until_ready(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll until the server at `base_url` answers (no credentials, no budget), or raise."""
    wait_for(lambda: answers(f"{base_url}/openapi.json"), "the server", process, log)


def whatsapp_body(**changes: Any) -> dict[str, Any]:
    """A WhatsApp body the seeded records accept, under a name no other request uses."""
    body = {
        "name": f"e2e {uuid.uuid4()}",
        "agent_id": seed.ACME_AGENT,
        "integration_id": seed.WHATSAPP_INTEGRATION,
        "integration_type": "whatsapp",
        "template": "renewal_reminder",
    }
    return body | changes
