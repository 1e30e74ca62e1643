"""The reference server in a subprocess, on a free port, over a fresh SQLite file.

The server is started once per test module and killed after it. Its rate limiters run on a
frozen clock (`CAMPAIGN_SERVER_FROZEN_CLOCK_NS`), so each API key has exactly 12 requests per
operation: tests never depend on how fast the machine is, and each test takes fresh API keys
(`server.new_key()`) so that no test spends another's budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server, seeded_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {"CAMPAIGN_SERVER_FROZEN_CLOCK_NS": "0"}
    with seeded_server(tmp_path_factory.mktemp("server"), settings) as started:
        yield started


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10.0) as client:
        yield client


@pytest.fixture
def breakable(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own, whose database the test may break (and mend)."""
    with seeded_server(tmp_path) as started:
        yield started
