"""The reference server in a subprocess, on a free port, over a fresh SQLite file.

The server is started once per test module and killed after it. Its rate limiters run on a
frozen clock (`CAMPAIGN_SERVER_FROZEN_CLOCK_NS`), so each API key has exactly 12 requests per
operation: tests never depend on how fast the machine is, and each test takes fresh API keys
(`server.new_key()`) so that no test spends another's budget.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from examples.server import seed

from tests.e2e.support import Server, ServerDidNotStart, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("server")
    database, log = directory / "campaigns.db", directory / "server.log"
    seed.seed(database)
    try:
        with running_server(database, log, {"CAMPAIGN_SERVER_FROZEN_CLOCK_NS": "0"}) as started:
            yield started
    except ServerDidNotStart as failure:
        pytest.fail(str(failure))


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10.0) as client:
        yield client
