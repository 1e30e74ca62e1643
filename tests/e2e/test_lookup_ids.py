"""An id that no record can have is not found, the same over SQLite and PostgreSQL (issue 36).

`integration_id` and the filter tags reach the directory's look-ups as the body holds them, and
the offline rules accept a U+0000 in them. PostgreSQL's text cannot hold that character (psycopg
refuses to send it, which was a 500), so no record has such an id: the server answers it as an
id it does not have, on either engine, without asking the database (D-lookup-ids). Each engine
runs as a process of the test: the server over a fresh SQLite file, and over PostgreSQL 15
started on the loopback, both seeded by `seed.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from examples.server import seed

from campaign_rules import validate_create_json
from tests.e2e import engines
from tests.e2e.support import ROOT, free_port, running, seeded_server, wait_until_ready

pytestmark = pytest.mark.e2e

PHONE_BODY = json.loads((ROOT / "examples" / "phone_call.json").read_bytes())
SETTINGS = {"CAMPAIGN_SERVER_RATE_PER_SECOND": "100000"}  # no test here meets a 429


@pytest.fixture(scope="module")
def on_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server over a seeded SQLite file: its base URL and its log."""
    folder = tmp_path_factory.mktemp("sqlite")
    with seeded_server(folder, SETTINGS) as server:
        yield server.base_url, folder / "server.log"


@pytest.fixture(scope="module")
def on_postgresql(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server over a seeded PostgreSQL, both started here: its base URL and its log."""
    missing = engines.missing_programs()
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install postgresql redis-server)")
    logs = tmp_path_factory.mktemp("postgresql")
    with ExitStack() as stack:
        folder = stack.enter_context(engines.scratch_folder())
        url, _ = stack.enter_context(engines.postgresql(folder, logs / "postgresql.log"))
        seeding = [sys.executable, "-m", "examples.server.seed", url]
        subprocess.run(seeding, cwd=ROOT, check=True, capture_output=True)
        port, log = free_port(), logs / "server.log"
        command = [
            *(sys.executable, "-m", "uvicorn", "examples.server.app:create_app", "--factory"),
            *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
        ]
        environment = {**os.environ, **SETTINGS, "CAMPAIGN_SERVER_DB": url}
        process = stack.enter_context(running(command, log, cwd=ROOT, env=environment))
        base_url = f"http://127.0.0.1:{port}/api/v1.0"
        wait_until_ready(base_url, process, log)
        yield base_url, log


def create(base_url: str, body: dict[str, Any], idempotency_key: str | None) -> httpx.Response:
    headers = {"Authorization": f"api-key {seed.ACME_KEY}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    with httpx.Client(timeout=30.0) as http:
        return http.post(f"{base_url}/campaigns", json=body, headers=headers)


def with_tags(*tags: str) -> dict[str, Any]:
    return PHONE_BODY | {"cycles": PHONE_BODY["cycles"] | {"filter_tags": list(tags)}}


NUL_IDS = [
    pytest.param(
        PHONE_BODY | {"integration_id": f"{seed.PHONE_INTEGRATION}\x00"},
        (404, "INTEGRATION_NOT_FOUND", "integration_id"),
        id="integration_id",
    ),
    pytest.param(
        PHONE_BODY | {"integration_id": "\x00"},
        (404, "INTEGRATION_NOT_FOUND", "integration_id"),
        id="integration_id of U+0000 alone",
    ),
    pytest.param(
        with_tags(f"{seed.TAGS[0]}\x00", seed.TAGS[1]),
        (400, "INVALID_FILTER_TAG", "cycles.filter_tags[0]"),
        id="a filter tag",
    ),
    pytest.param(
        with_tags(seed.TAGS[0], f"\x00{seed.TAGS[1]}"),
        (400, "INVALID_FILTER_TAG", "cycles.filter_tags[1]"),
        id="a filter tag that begins with it",
    ),
]


@pytest.mark.parametrize("with_key", [False, True], ids=["without a key", "with a key"])
@pytest.mark.parametrize(("body", "expected"), NUL_IDS)
def test_an_id_with_u0000_is_not_found_the_same_on_sqlite_and_postgresql(
    on_sqlite: tuple[str, Path],
    on_postgresql: tuple[str, Path],
    body: dict[str, Any],
    expected: tuple[int, str, str],
    with_key: bool,
) -> None:
    # The offline verdict is unchanged: the rules accept the id; only the look-up finds nothing.
    assert validate_create_json(json.dumps(body)).ok
    key = str(uuid.uuid4()) if with_key else None

    servers = (on_sqlite, on_postgresql)
    answers = [create(url, body | {"name": f"nul {uuid.uuid4()}"}, key) for url, _ in servers]

    for answer in answers:
        envelope = answer.json()
        assert (answer.status_code, envelope["error"], envelope.get("field")) == expected
    sqlite_answer, postgresql_answer = answers
    assert sqlite_answer.json() == postgresql_answer.json()
    for _, log in servers:  # no look-up failed: nothing was logged
        assert "Traceback" not in log.read_text(encoding="utf-8")


def test_the_same_ids_without_u0000_are_found(
    on_sqlite: tuple[str, Path], on_postgresql: tuple[str, Path]
) -> None:
    body = with_tags(*seed.TAGS)
    for url, _ in (on_sqlite, on_postgresql):
        answer = create(url, body | {"name": f"found {uuid.uuid4()}"}, None)
        assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    "path",
    [
        f"/thread/{seed.THREAD_ID}%00",
        f"/campaigns/{seed.CAMPAIGN_ID}%00/contacts/{seed.CONTACT_ID}",
        f"/campaigns/{seed.CAMPAIGN_ID}/contacts/%00{seed.CONTACT_ID}",
    ],
)
def test_a_path_id_with_u0000_is_not_found_the_same_on_sqlite_and_postgresql(
    on_sqlite: tuple[str, Path], on_postgresql: tuple[str, Path], path: str
) -> None:
    # The path checks refuse it before any query (D-path-ids, D-thread-id).
    headers = {"Authorization": f"api-key {seed.ACME_KEY}"}
    with httpx.Client(timeout=30.0) as http:
        answers = [http.get(url + path, headers=headers) for url, _ in (on_sqlite, on_postgresql)]

    assert [answer.status_code for answer in answers] == [404, 404]
    assert answers[0].json() == answers[1].json()
