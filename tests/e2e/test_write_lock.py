"""Two workers over one SQLite file: rules hold no lock, and a busy database is a 503 (issue 36).

The server runs as uvicorn with two worker processes. The test itself holds the database's write
lock, as a worker does while it creates: a body the rules refuse without a look-up is answered
while the lock is held, since no rule but the look-ups runs inside a write transaction; a create
that needs the lock waits for SQLite's busy timeout and is answered 503 with `Retry-After`,
never 500, and leaves no campaign and no claim of its key behind (D-write-lock).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path

import httpx
import pytest
from examples.server import seed, store

from campaign_rules import validate_create_json
from tests.e2e.support import Server, seeded_server, whatsapp_body

pytestmark = pytest.mark.e2e

BUSY = "the database is busy now: retry after 1 second"


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {"CAMPAIGN_SERVER_RATE_PER_SECOND": "100000"}  # no test here meets a 429
    with seeded_server(tmp_path_factory.mktemp("workers"), settings, workers=2) as server:
        yield server


@contextmanager
def write_lock(database: Path) -> Iterator[None]:
    """Hold `database`'s write lock, as another worker's create does, until the block ends."""
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")


def create(server: Server, content: bytes, idempotency_key: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"api-key {seed.ACME_KEY}", "Content-Type": "application/json"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    with httpx.Client(timeout=60.0) as http:
        return http.post(f"{server.base_url}/campaigns", content=content, headers=headers)


def campaigns_named(server: Server, name: str) -> list[tuple[object, ...]]:
    return server.query("SELECT id FROM campaigns WHERE json_extract(campaign, '$.name') = ?", name)


@pytest.mark.parametrize(
    "content",
    [
        b'{"name": "x", "name": "y"}',  # a body rule: a member twice
        b"[" + b"1e999," * 1000 + b"1e999]",  # a body rule, a thousand times
        b'{"name": 5}',  # the offline rules, with no agent to look up
        b'{"name": "", "retries": 99, "integration_type": "fax"}',
    ],
    ids=["a member twice", "numbers past a double", "a name not text", "three offline rules"],
)
def test_a_body_the_rules_refuse_is_answered_while_another_worker_writes(
    two_workers: Server, content: bytes
) -> None:
    with write_lock(two_workers.database):
        refused = create(two_workers, content)

    expected = validate_create_json(content)
    assert (refused.status_code, refused.json()) == (expected.status, expected.envelope())
    assert refused.status_code == 400


def test_a_create_that_waits_past_the_busy_timeout_is_a_503_that_leaves_nothing(
    two_workers: Server,
) -> None:
    key = str(uuid.uuid4())
    alone, keyed = whatsapp_body(), whatsapp_body()

    # Sent together: each waits out the busy timeout (10 s), and the two workers wait at once.
    with write_lock(two_workers.database), ThreadPoolExecutor(2) as senders:
        busy = list(
            senders.map(
                lambda sent: create(two_workers, *sent),
                [(json.dumps(alone).encode(), None), (json.dumps(keyed).encode(), key)],
            )
        )

    for response in busy:
        assert (response.status_code, response.headers.get("Retry-After")) == (503, "1")
        assert response.json() == {"success": False, "error": "SERVER_ERROR", "message": BUSY}
    assert campaigns_named(two_workers, alone["name"]) == []
    assert campaigns_named(two_workers, keyed["name"]) == []
    # The key was never claimed: the retry runs at once, rather than a 429 for a minute.
    assert (
        two_workers.query("SELECT * FROM idempotency_records WHERE idempotency_key = ?", key) == []
    )
    retried = create(two_workers, json.dumps(keyed).encode(), key)
    assert retried.status_code == 201, retried.text
    assert len(campaigns_named(two_workers, keyed["name"])) == 1
    log = (two_workers.database.parent / "server.log").read_text(encoding="utf-8")
    assert log.count("the database is busy now (database is locked); answered 503") == 2
    assert "Traceback" not in log


# Which errors are "busy": each raised by a real SQLite, never made up.


def busy(folder: Path) -> None:
    """Another connection holds the write lock, and this one does not wait (SQLITE_BUSY)."""
    database = folder / "busy.db"
    with closing(sqlite3.connect(database, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with closing(sqlite3.connect(database, isolation_level=None, timeout=0)) as waiter:
            waiter.execute("BEGIN IMMEDIATE")


def locked(folder: Path) -> None:
    """A table another connection of the shared cache is writing (SQLITE_LOCKED_SHAREDCACHE)."""
    uri = f"file:{folder / 'locked.db'}?cache=shared"
    with closing(sqlite3.connect(uri, uri=True, isolation_level=None)) as writer:
        writer.execute("CREATE TABLE t (x)")
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("INSERT INTO t VALUES (1)")
        with closing(sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0)) as reader:
            reader.execute("SELECT * FROM t").fetchall()


def no_table(folder: Path) -> None:
    with closing(sqlite3.connect(folder / "empty.db")) as connection:
        connection.execute("SELECT * FROM campaigns")


def read_only(folder: Path) -> None:
    database = folder / "read-only.db"
    with closing(sqlite3.connect(database)) as connection:
        connection.execute("CREATE TABLE t (x)")
    with closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as connection:
        connection.execute("INSERT INTO t VALUES (1)")


def full(folder: Path) -> None:
    """A database that may not grow (SQLITE_FULL, as a full disk gives)."""
    with closing(sqlite3.connect(folder / "full.db", isolation_level=None)) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("PRAGMA max_page_count = 2")
        connection.execute("INSERT INTO t VALUES (zeroblob(100000))")


def not_a_database(folder: Path) -> None:
    path = folder / "text.db"
    path.write_text("not a database\n" * 100, encoding="utf-8")
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("SELECT * FROM sqlite_master")


@pytest.mark.parametrize(
    ("fail", "is_busy"),
    [
        (busy, True),
        (locked, True),
        (no_table, False),
        (read_only, False),
        (full, False),
        (not_a_database, False),
    ],
)
def test_only_sqlites_busy_and_locked_errors_are_answered_503(
    tmp_path: Path, fail: Callable[[Path], None], is_busy: bool
) -> None:
    with pytest.raises(sqlite3.DatabaseError) as raised:
        fail(tmp_path)

    assert store.is_busy(raised.value) is is_busy
