"""The handle on a running reference server that the end-to-end tests share."""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

import attrs
from examples.server import seed


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
