"""The reference server's records, in SQLite or PostgreSQL: a `Directory` and the stores.

Nothing here decides anything about a request: the rules are the library's. This module only
answers the questions the library asks (does this agent exist? is the billing limit reached?)
and keeps what the server has decided (campaigns, idempotency records and claims). Each
statement is written once, in SQL both engines read (`postgres.py`, D-fleet).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import psycopg
from examples.server import postgres

from campaign_rules.idempotency import IdempotencyClaim, IdempotencyRecord

SCHEMA = Path(__file__).with_name("schema.sql")
# The tables of `schema.sql`: the server refuses to start on a database that lacks one.
TABLES = frozenset(re.findall(r"^CREATE TABLE (\w+)", SCHEMA.read_text("utf-8"), re.MULTILINE))
# A connection to either engine: both take the statements below as they are.
Connection = sqlite3.Connection | postgres.Connection
# What either engine raises for a database it cannot use.
DatabaseError = (sqlite3.DatabaseError, psycopg.Error)


class Unavailable(Exception):
    """The database cannot be reached now: the server answers 503 (D-fleet)."""


def connect(database: str | Path) -> Connection:
    """A connection with autocommit off until `BEGIN`: every write below is in a transaction.

    `database` is an SQLite file or a `postgresql://` URL; `Unavailable` when PostgreSQL does
    not answer.
    """
    if postgres.is_url(database):
        try:
            return postgres.Connection(str(database))
        except psycopg.OperationalError as error:
            raise Unavailable(f"PostgreSQL cannot be reached: {one_line(error)}") from None
    connection = sqlite3.connect(database, timeout=10.0, isolation_level=None)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite's "busy" or "locked": worth sending again (D-write-lock).

    Another connection held the database past the busy timeout, so the same statement may well
    succeed a moment later. Read from the error's primary result code, never its text: a
    missing table, a full disk, a read-only or corrupt file is no such error, and stays a 500.
    """
    if not isinstance(error, sqlite3.OperationalError):
        return False
    # An error the sqlite3 module raises itself has no code; an extended code keeps its primary
    # one in the low byte (SQLITE_BUSY_SNAPSHOT is SQLITE_BUSY).
    code: int = getattr(error, "sqlite_errorcode", -1)
    return code >= 0 and (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def one_line(error: BaseException) -> str:
    """An error's message on one line (libpq's run over several, with tabs)."""
    return " ".join(str(error).split())


def table_names(connection: Connection) -> frozenset[str]:
    """The names of the tables the database holds."""
    if isinstance(connection, postgres.Connection):
        rows = connection.execute(
            "SELECT table_name AS name FROM information_schema.tables"
            " WHERE table_schema = current_schema()"
        )
        return frozenset(row["name"] for row in rows)
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return frozenset(row[0] for row in rows)


def create_schema(connection: Connection) -> None:
    """Create the tables of `schema.sql` in an empty database."""
    schema = SCHEMA.read_text(encoding="utf-8")
    if isinstance(connection, postgres.Connection):
        connection.executescript(postgres.postgresql_schema(schema))
        return
    connection.executescript(schema)
    # Readers never wait for the writer, so the GET endpoints run while a create commits.
    connection.execute("PRAGMA journal_mode = WAL")


def clock(connection: Connection) -> float:
    """Wall-clock seconds: PostgreSQL's own, which every instance shares; SQLite's machine's."""
    if isinstance(connection, postgres.Connection):
        row = connection.execute("SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8 AS now")
        return float(row.fetchone()["now"])
    return time.time()


@attrs.frozen
class Organization:
    """The organization an API key belongs to."""

    id: int
    billing_limit_reached: bool


def organization_of(connection: Connection, api_key: str) -> Organization | None:
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
    """The `campaign_rules.Directory` of one organization: what `validate_create` looks up.

    `transaction` gives the connection of the create's write transaction, which begins when it
    is first called: the rules that run before the first look-up hold no lock (D-write-lock).
    """

    transaction: Callable[[], Connection]
    organization: Organization

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the organization has this agent."""
        return could_be_an_id(agent_id) and self._exists(
            "SELECT 1 FROM agents WHERE id = ? AND organization_id = ?",
            (agent_id, self.organization.id),
        )

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type of this agent's integration, `None` when the agent has no such one."""
        if not could_be_an_id(integration_id):
            return None
        connection = self.transaction()
        row = connection.execute(
            "SELECT i.type FROM integrations AS i JOIN agents AS a ON a.id = i.agent_id"
            " WHERE i.agent_id = ? AND i.id = ? AND a.organization_id = ?",
            (agent_id, integration_id, self.organization.id),
        ).fetchone()
        return None if row is None else str(row["type"])

    def tag_exists(self, tag_id: str) -> bool:
        """Whether the organization has this thread tag."""
        return could_be_an_id(tag_id) and self._exists(
            "SELECT 1 FROM tags WHERE id = ? AND organization_id = ?",
            (tag_id, self.organization.id),
        )

    def billing_limit_reached(self) -> bool:
        """The organization's billing flag."""
        return self.organization.billing_limit_reached

    def agent_name(self, agent_id: str) -> str:
        """The name of an agent `agent_exists` has found."""
        row = self.transaction().execute("SELECT name FROM agents WHERE id = ?", (agent_id,))
        return str(row.fetchone()["name"])

    def _exists(self, query: str, parameters: tuple[object, ...]) -> bool:
        return self.transaction().execute(query, parameters).fetchone() is not None


def could_be_an_id(text: str) -> bool:
    """Whether a record of either engine could have `text` as its id (D-lookup-ids).

    PostgreSQL's text cannot hold U+0000, so no id there has one, and the server stores none in
    SQLite: an id with one names nothing, and is not looked up (psycopg would refuse to send it).
    """
    return "\x00" not in text


def claim_key(
    connection: Connection,
    api_key: str,
    idempotency_key: str,
    claim: IdempotencyClaim,
    token: str,
) -> bool:
    """Claim (API key, Idempotency-Key) for a request about to run; `False` if it has a row."""
    row = connection.execute(
        "INSERT INTO idempotency_records"
        " (api_key, idempotency_key, fingerprint, status, body, stored_at, claim)"
        " VALUES (?, ?, ?, NULL, NULL, ?, ?)"
        " ON CONFLICT (api_key, idempotency_key) DO NOTHING RETURNING claim",
        (api_key, idempotency_key, claim.fingerprint, claim.claimed_at, token),
    ).fetchone()
    return row is not None


def idempotency_entry(
    connection: Connection, api_key: str, idempotency_key: str
) -> IdempotencyRecord | IdempotencyClaim | None:
    """The record or claim under (API key, Idempotency-Key), locked to the end of the transaction.

    SQLite's `BEGIN IMMEDIATE` holds the whole database; PostgreSQL locks the row.
    """
    lock = " FOR UPDATE" if isinstance(connection, postgres.Connection) else ""
    row = connection.execute(
        "SELECT fingerprint, status, body, stored_at, claim FROM idempotency_records"
        f" WHERE api_key = ? AND idempotency_key = ?{lock}",
        (api_key, idempotency_key),
    ).fetchone()
    if row is None:
        return None
    if row["claim"] is not None:
        return IdempotencyClaim(fingerprint=row["fingerprint"], claimed_at=row["stored_at"])
    return IdempotencyRecord(
        fingerprint=row["fingerprint"],
        status=row["status"],
        body=json.loads(row["body"]),
        stored_at=row["stored_at"],
    )


def take_claim(
    connection: Connection,
    api_key: str,
    idempotency_key: str,
    claim: IdempotencyClaim,
    token: str,
) -> None:
    """Claim the key in place of an expired record or claim (the row is locked, or gone)."""
    connection.execute(
        "INSERT INTO idempotency_records"
        " (api_key, idempotency_key, fingerprint, status, body, stored_at, claim)"
        " VALUES (?, ?, ?, NULL, NULL, ?, ?) ON CONFLICT (api_key, idempotency_key) DO UPDATE"
        " SET fingerprint = excluded.fingerprint, status = NULL, body = NULL,"
        " stored_at = excluded.stored_at, claim = excluded.claim",
        (api_key, idempotency_key, claim.fingerprint, claim.claimed_at, token),
    )


def finish_claim(
    connection: Connection,
    api_key: str,
    idempotency_key: str,
    token: str,
    record: IdempotencyRecord,
) -> bool:
    """Store the response in place of this request's claim; `False` if the claim was lost.

    The compare-and-set on `token` is what makes the campaign inserted in the same transaction
    exist once per key: a claim taken over by another request is no longer this one's.
    """
    row = connection.execute(
        "UPDATE idempotency_records SET status = ?, body = ?, stored_at = ?, claim = NULL"
        " WHERE api_key = ? AND idempotency_key = ? AND claim = ? RETURNING status",
        (
            record.status,
            json.dumps(record.body, allow_nan=False),
            record.stored_at,
            api_key,
            idempotency_key,
            token,
        ),
    ).fetchone()
    return row is not None


def release_claim(connection: Connection, api_key: str, idempotency_key: str, token: str) -> bool:
    """Remove this request's claim, whose response is not stored; `False` if it was lost."""
    row = connection.execute(
        "DELETE FROM idempotency_records"
        " WHERE api_key = ? AND idempotency_key = ? AND claim = ? RETURNING claim",
        (api_key, idempotency_key, token),
    ).fetchone()
    return row is not None


def insert_campaign(
    connection: Connection,
    organization: Organization,
    *,
    status: str,
    created_at: str,
    agent_name: str,
    campaign: dict[str, Any],
) -> int:
    """Store a created campaign and return its id."""
    row = connection.execute(
        "INSERT INTO campaigns (organization_id, status, created_at, agent_name, campaign)"
        " VALUES (?, ?, ?, ?, ?) RETURNING id",
        (organization.id, status, created_at, agent_name, json.dumps(campaign, allow_nan=False)),
    ).fetchone()
    return int(row["id"])


def contact_members(
    connection: Connection, organization: Organization, campaign_id: int, contact_id: int
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
    connection: Connection, organization: Organization, thread_id: str
) -> Any | None:
    """The organization's thread `thread_id`, as stored (decoded JSON), or `None`."""
    row = connection.execute(
        "SELECT thread FROM threads WHERE id = ? AND organization_id = ?",
        (thread_id, organization.id),
    ).fetchone()
    return None if row is None else json.loads(row["thread"])
