"""The reference server's records, in SQLite: a `campaign_rules.Directory` and the stores.

Nothing here decides anything about a request: the rules are the library's. This module only
answers the questions the library asks (does this agent exist? is the billing limit reached?)
and keeps what the server has decided (campaigns, idempotency records).
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import attrs

from campaign_rules.idempotency import IdempotencyRecord

SCHEMA = Path(__file__).with_name("schema.sql")
# The tables of `schema.sql`: the server refuses to start on a database that lacks one.
TABLES = frozenset(re.findall(r"^CREATE TABLE (\w+)", SCHEMA.read_text("utf-8"), re.MULTILINE))


def connect(database: str | Path) -> sqlite3.Connection:
    """A connection with autocommit off until `BEGIN`: every write below is in a transaction."""
    connection = sqlite3.connect(database, timeout=10.0, isolation_level=None)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def table_names(connection: sqlite3.Connection) -> frozenset[str]:
    """The names of the tables the database holds."""
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return frozenset(row[0] for row in rows)


def create_schema(connection: sqlite3.Connection) -> None:
    """Create the tables of `schema.sql` in an empty database."""
    connection.executescript(SCHEMA.read_text(encoding="utf-8"))
    # Readers never wait for the writer, so the GET endpoints run while a create commits.
    connection.execute("PRAGMA journal_mode = WAL")


@attrs.frozen
class Organization:
    """The organization an API key belongs to."""

    id: int
    billing_limit_reached: bool


def organization_of(connection: sqlite3.Connection, api_key: str) -> Organization | None:
    """The organization of `api_key`, or `None` for a key nobody issued."""
    row = connection.execute(
        "SELECT o.id, o.billing_limit_reached FROM api_keys AS k"
        " JOIN organizations AS o ON o.id = k.organization_id WHERE k.key = ?",
        (api_key,),
    ).fetchone()
    if row is None:
        return None
    return Organization(id=row["id"], billing_limit_reached=bool(row["billing_limit_reached"]))


@attrs.frozen
class OrganizationDirectory:
    """The `campaign_rules.Directory` of one organization: what `validate_create` looks up."""

    connection: sqlite3.Connection
    organization: Organization

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the organization has this agent."""
        return self._exists(
            "SELECT 1 FROM agents WHERE id = ? AND organization_id = ?",
            (agent_id, self.organization.id),
        )

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type of this agent's integration, `None` when the agent has no such one."""
        row = self.connection.execute(
            "SELECT i.type FROM integrations AS i JOIN agents AS a ON a.id = i.agent_id"
            " WHERE i.agent_id = ? AND i.id = ? AND a.organization_id = ?",
            (agent_id, integration_id, self.organization.id),
        ).fetchone()
        return None if row is None else str(row["type"])

    def tag_exists(self, tag_id: str) -> bool:
        """Whether the organization has this thread tag."""
        return self._exists(
            "SELECT 1 FROM tags WHERE id = ? AND organization_id = ?",
            (tag_id, self.organization.id),
        )

    def billing_limit_reached(self) -> bool:
        """The organization's billing flag."""
        return self.organization.billing_limit_reached

    def agent_name(self, agent_id: str) -> str:
        """The name of an agent `agent_exists` has found."""
        row = self.connection.execute("SELECT name FROM agents WHERE id = ?", (agent_id,))
        return str(row.fetchone()["name"])

    def _exists(self, query: str, parameters: tuple[object, ...]) -> bool:
        return self.connection.execute(query, parameters).fetchone() is not None


def idempotency_record(
    connection: sqlite3.Connection, api_key: str, idempotency_key: str
) -> IdempotencyRecord | None:
    """The record stored under (API key, Idempotency-Key), or `None`."""
    row = connection.execute(
        "SELECT fingerprint, status, body, stored_at FROM idempotency_records"
        " WHERE api_key = ? AND idempotency_key = ?",
        (api_key, idempotency_key),
    ).fetchone()
    if row is None:
        return None
    return IdempotencyRecord(
        fingerprint=row["fingerprint"],
        status=row["status"],
        body=json.loads(row["body"]),
        stored_at=row["stored_at"],
    )


def store_idempotency_record(
    connection: sqlite3.Connection, api_key: str, idempotency_key: str, record: IdempotencyRecord
) -> None:
    """Store `record` under (API key, Idempotency-Key), replacing an expired one."""
    connection.execute(
        "INSERT OR REPLACE INTO idempotency_records"
        " (api_key, idempotency_key, fingerprint, status, body, stored_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            api_key,
            idempotency_key,
            record.fingerprint,
            record.status,
            json.dumps(record.body, allow_nan=False),
            record.stored_at,
        ),
    )


def insert_campaign(
    connection: sqlite3.Connection,
    organization: Organization,
    *,
    status: str,
    created_at: str,
    agent_name: str,
    campaign: dict[str, Any],
) -> int:
    """Store a created campaign and return its id."""
    cursor = connection.execute(
        "INSERT INTO campaigns (organization_id, status, created_at, agent_name, campaign)"
        " VALUES (?, ?, ?, ?, ?)",
        (organization.id, status, created_at, agent_name, json.dumps(campaign, allow_nan=False)),
    )
    assert cursor.lastrowid is not None  # an INSERT into a rowid table always has one
    return cursor.lastrowid


def contact_members(
    connection: sqlite3.Connection, organization: Organization, campaign_id: int, contact_id: int
) -> tuple[bool, dict[str, Any] | None]:
    """Whether the organization has the campaign, and the contact's wire members, if any."""
    campaign = connection.execute(
        "SELECT 1 FROM campaigns WHERE id = ? AND organization_id = ?",
        (campaign_id, organization.id),
    ).fetchone()
    if campaign is None:
        return False, None
    row = connection.execute(
        "SELECT * FROM contacts WHERE campaign_id = ? AND id = ?", (campaign_id, contact_id)
    ).fetchone()
    if row is None:
        return True, None
    members = dict(row)
    del members["campaign_id"]
    members["has_follow_up"] = bool(members["has_follow_up"])
    members["extracted_data"] = json.loads(members["extracted_data"])
    members["tags"] = json.loads(members["tags"])
    return True, members


def thread_members(
    connection: sqlite3.Connection, organization: Organization, thread_id: str
) -> Any | None:
    """The organization's thread `thread_id`, as stored (decoded JSON), or `None`."""
    row = connection.execute(
        "SELECT thread FROM threads WHERE id = ? AND organization_id = ?",
        (thread_id, organization.id),
    ).fetchone()
    return None if row is None else json.loads(row["thread"])
