"""Starting the reference server and seeding its database, as a new user does (issue 14).

Every mistake ends in one line on standard error and an exit status, never a traceback, and
never a server that answers 500 from an empty file.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from examples.server import seed
from examples.server.app import create_app

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def run(
    *command: str, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, **(environment or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def seed_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "examples.server.seed", *arguments)


def one_line(text: str) -> str:
    assert text.count("\n") == 1, text
    assert "Traceback" not in text
    return text.strip()


# The seed script


def test_seeding_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    database = tmp_path / "demo.db"

    first, second = seed_script(str(database)), seed_script(str(database))

    assert (first.returncode, first.stderr) == (0, "")
    assert one_line(first.stdout).startswith(f"seeded {database}: API keys 'acme-demo-key'")
    assert (second.returncode, second.stderr) == (0, "")
    assert one_line(second.stdout).startswith(f"{database} was seeded before; nothing changed")
    with closing(sqlite3.connect(database)) as connection:
        keys = connection.execute("SELECT key FROM api_keys ORDER BY key").fetchall()
    assert keys == [(seed.ACME_KEY,), (seed.OVERDRAWN_KEY,)]


@pytest.mark.parametrize("arguments", [(), ("a.db", "b.db"), ("--database",)])
def test_the_seed_script_without_one_file_prints_its_usage(arguments: tuple[str, ...]) -> None:
    result = seed_script(*arguments)

    assert (result.returncode, result.stdout) == (2, "")
    assert one_line(result.stderr).startswith("usage: python -m examples.server.seed DATABASE")


def test_the_seed_script_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not SQLite, and long enough to have a header\n" * 4)

    result = seed_script(str(notes))

    assert result.returncode == 1
    assert one_line(result.stderr) == (
        f"seed: {notes} cannot be used as an SQLite database (file is not a database)"
    )
    assert notes.read_text().startswith("not SQLite")


def test_the_seed_script_refuses_a_database_of_other_tables(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with closing(sqlite3.connect(other)) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")

    result = seed_script(str(other))

    assert result.returncode == 1
    assert one_line(result.stderr) == f"seed: {other} holds tables that are not the server's"


def test_the_seed_script_says_when_the_folder_is_missing(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "demo.db"

    result = seed_script(str(missing))

    assert result.returncode == 1
    assert one_line(result.stderr).startswith(f"seed: {missing} cannot be used")


# The server's start


def test_uvicorn_without_a_database_setting_stops_with_one_line() -> None:
    environment = {name: "" for name in os.environ if name.startswith("CAMPAIGN_SERVER_")}
    result = run(
        *(sys.executable, "-m", "uvicorn", "--factory", "examples.server.app:create_app"),
        environment=environment,
    )

    assert result.returncode == 2
    assert one_line(result.stderr) == (
        "campaign server: CAMPAIGN_SERVER_DB is not set: it names the SQLite file of the server"
    )


def stopped(capsys: pytest.CaptureFixture[str], status: int) -> str:
    """The one line `create_app` printed before it stopped with `status`."""
    with pytest.raises(SystemExit) as stop:
        create_app()
    assert stop.value.code == status
    captured = capsys.readouterr()
    assert captured.out == ""
    return one_line(captured.err)


def test_a_database_that_does_not_exist_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "demo.db"
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(missing))

    line = stopped(capsys, 1)

    assert line.startswith(f"campaign server: the database {str(missing)!r} does not exist; ")
    assert line.endswith(f" -m examples.server.seed {missing}")
    assert not missing.exists()


def test_a_database_without_the_servers_tables_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(empty))

    line = stopped(capsys, 1)

    assert line.startswith(f"campaign server: the database {str(empty)!r} lacks the table(s) ")
    assert "api_keys" in line
    assert empty.read_bytes() == b""


def test_a_file_that_is_not_a_database_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not SQLite, and long enough to have a header\n" * 4)
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(notes))

    assert "cannot be read (file is not a database)" in stopped(capsys, 1)


def notes(path: Path) -> None:
    path.write_text("not SQLite, and long enough to have a header\n" * 4)


def other_tables(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")


def empty_sqlite(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("VACUUM")  # writes the header of a database without tables


BAD_DATABASES = {
    # name: (the file to make, how; whether the hint seeds that very file)
    "missing": ("demo.db", None, True),
    "missing folder": ("no/such/folder/demo.db", None, True),
    "empty file": ("empty.db", Path.touch, True),
    "SQLite without tables": ("fresh.db", empty_sqlite, True),
    "not a database": ("notes.txt", notes, False),
    "other tables": ("other.db", other_tables, False),
}


@pytest.mark.parametrize(
    ("name", "make", "same_file"), BAD_DATABASES.values(), ids=BAD_DATABASES.keys()
)
def test_the_hint_of_a_database_that_cannot_be_used_runs_as_printed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    make: Any,
    same_file: bool,
) -> None:
    # Issue 20: the hint for a file that is not a database suggested seeding that file, which
    # the seed script then refused.
    database = tmp_path / name
    if make is not None:
        make(database)
    before = database.read_bytes() if database.is_file() else None
    (tmp_path / "campaigns.db").write_text("taken: the hint must pick another name\n")
    monkeypatch.chdir(ROOT)  # where the server starts, and so where its hint runs
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(database))

    line = stopped(capsys, 1)
    hint = line.split("make one with: ", 1)[-1].split("make a new one with: ", 1)[-1]
    command, _, setting = hint.partition(" and start with CAMPAIGN_SERVER_DB=")
    seeded = run("bash", "-c", command)

    assert (seeded.returncode, seeded.stderr) == (0, ""), command
    if same_file:
        made = database
        assert setting == ""
    else:
        made = Path(shlex.split(setting)[0])
        assert made.parent == tmp_path
        assert made != tmp_path / "campaigns.db"
        assert database.read_bytes() == before  # what was there is left alone
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(made))
    assert create_app().routes


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CAMPAIGN_SERVER_RATE_PER_SECOND", "0"),
        ("CAMPAIGN_SERVER_RATE_PER_SECOND", "fast"),
        ("CAMPAIGN_SERVER_RATE_PER_SECOND", "1.5"),
        ("CAMPAIGN_SERVER_FROZEN_CLOCK_NS", "-1"),
    ],
)
def test_a_wrong_setting_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
) -> None:
    database = tmp_path / "demo.db"
    seed.seed(database)
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(database))
    monkeypatch.setenv(name, value)

    assert stopped(capsys, 2).startswith(f"campaign server: {name} must be a whole number")


def test_a_seeded_database_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "demo.db"
    seed.seed(database)
    monkeypatch.setenv("CAMPAIGN_SERVER_DB", str(database))
    monkeypatch.setenv("CAMPAIGN_SERVER_RATE_PER_SECOND", "100")

    assert create_app().routes


def test_the_rate_setting_gives_each_key_that_many_requests_per_operation(
    tmp_path: Path,
) -> None:
    database = tmp_path / "demo.db"
    seed.seed(database)
    app = create_app(database, frozen_clock_ns=0, rate_per_second=30)
    headers = {"Authorization": f"api-key {seed.ACME_KEY}"}

    async def statuses() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://demo") as client:
            url = f"/api/v1.0/thread/{seed.THREAD_ID}"
            return [(await client.get(url, headers=headers)).status_code for _ in range(31)]

    assert asyncio.run(statuses()) == [200] * 30 + [429]
