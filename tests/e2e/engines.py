"""PostgreSQL and Redis as processes of a test, on the loopback, in a scratch folder.

Debian's packages (`apt-get install postgresql redis-server`): `initdb` makes a cluster in a
folder of its own, `postgres` serves it on a free port (its socket in that folder too), and
`redis-server` keeps nothing on disk. Each is started with `support.running`, so it is stopped
with its process group whatever the test does. PostgreSQL refuses to run as root: as root, both
run as the `postgres` user (`setpriv`, which execs the program itself), in a folder it owns.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import redis

from tests.e2e.support import free_port, running, wait_for

POSTGRESQL_BIN = Path("/usr/lib/postgresql/15/bin")
_USER = "postgres"


def missing_programs() -> list[str]:
    """The programs of Debian's postgresql and redis-server packages that are not installed."""
    programs = [POSTGRESQL_BIN / "initdb", POSTGRESQL_BIN / "postgres"]
    missing = [str(program) for program in programs if not os.access(program, os.X_OK)]
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    return missing


def _as_postgres_user() -> list[str]:
    """The prefix that runs a program as `postgres` when this process is root, else nothing."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={_USER}", f"--regid={_USER}", "--init-groups", "--"]


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A new folder, owned by `postgres` when run as root, removed after."""
    folder = Path(tempfile.mkdtemp(prefix="campaign-fleet-"))
    try:
        if os.geteuid() == 0:
            user = pwd.getpwnam(_USER)
            os.chown(folder, user.pw_uid, user.pw_gid)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgresql(folder: Path, log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A PostgreSQL cluster made in `folder`, served on a free loopback port: URL and process."""
    data, port = folder / "data", free_port()
    subprocess.run(
        [
            *(*_as_postgres_user(), str(POSTGRESQL_BIN / "initdb"), "-D", str(data)),
            *("-U", _USER, "-A", "trust", "--no-sync", "-E", "UTF8"),
        ],
        check=True,
        capture_output=True,
    )
    command = [
        *_as_postgres_user(),
        *(str(POSTGRESQL_BIN / "postgres"), "-D", str(data), "-p", str(port), "-k", str(folder)),
        *("-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=60"),
    ]
    url = f"postgresql://{_USER}@127.0.0.1:{port}/postgres"
    with running(command, log) as process:
        wait_for(lambda: _connects(url), "PostgreSQL", process, log)
        yield url, process


@contextmanager
def redis_server(log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis on a free loopback port that keeps nothing on disk: its URL and its process."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(log.parent)]
    url = f"redis://127.0.0.1:{port}/0"
    with running(command, log) as process:
        wait_for(lambda: _pings(url), "Redis", process, log)
        yield url, process


def _connects(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=2):
            return True
    except psycopg.OperationalError:
        return False


def _pings(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False
