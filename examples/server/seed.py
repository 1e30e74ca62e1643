"""Make a database for the reference server: `python -m examples.server.seed demo.db`.

The database is an SQLite file, or a PostgreSQL database named by a `postgresql://` URL
(`python -m examples.server.seed postgresql://user@host/campaigns`, docs/guides/fleet.md).

Two organizations: Acme, in good standing, and Overdrawn, whose billing limit is reached. Each
has an API key and an agent with a phone and a WhatsApp integration; Acme also has thread tags,
a campaign with one contact, a thread, and the agents and integrations that the bundled
examples name (`examples/whatsapp.json`, `examples/scheduled_cycles.json`), so that each of
them is created as it is. The names below are what the end-to-end tests and the guide
(docs/guides/reference-server.md) use.
"""

from __future__ import annotations

import json
import sys
from contextlib import closing
from pathlib import Path

from examples.server import postgres, store

from campaign_rules import to_wire, validate_create

ACME = 1
OVERDRAWN = 2
ACME_KEY = "acme-demo-key"
OVERDRAWN_KEY = "overdrawn-demo-key"
ACME_AGENT = "3f9c2a7e-5b1d-4c8e-9a2f-6d4b8e1c7a90"
ACME_AGENT_NAME = "Lucía"
OVERDRAWN_AGENT = "7d1e4b2a-9c3f-4a6d-8e5b-1f2a3c4d5e6f"
PHONE_INTEGRATION = "int_voice_mx_01"
WHATSAPP_INTEGRATION = "int_wa_mx_02"
TAGS = ("tag_vip", "tag_do_not_call")
# The agents and integrations of examples/scheduled_cycles.json and examples/whatsapp.json.
SURVEY_AGENT = "5a1e9c3b-7d2f-4b8a-a6e0-3c9f1d7b5e24"
SURVEY_INTEGRATION = "int_voice_us_07"
ORDERS_AGENT = "b7e4d2c1-9a3f-4e6b-8c5d-2f1a0e9d8c7b"
ORDERS_INTEGRATION = "int_wa_es_02"
CAMPAIGN_ID = 1042  # the ids of examples/responses/, which the OpenAPI document shows
CONTACT_ID = 17
THREAD_ID = "th_5f2a9c"

CONTACT = {
    "f_id": "c-88f1",
    "id": CONTACT_ID,
    "name": "Marta Ruiz",
    "contact": "+525512345678",
    "status": "answered",
    "context": "renewal due in December",
    "retries": 1,
    "has_follow_up": False,
    "call_count": 2,
    "billed_duration": 94,
    "last_call_at": "2026-11-21 17:42:10",
    "extracted_data": {"renewal": "yes", "preferred_time": "mornings"},
    "tags": ["tag_vip"],
}

THREAD = {
    "id": THREAD_ID,
    "agent": {"id": ACME_AGENT, "name": ACME_AGENT_NAME},
    "end_user": {"id": "eu_301", "display_name": "Marta Ruiz", "info": "+525512345678"},
    "integration": {"id": WHATSAPP_INTEGRATION, "type": "whatsapp"},
    "updated_at": "2026-11-21T17:45:03.120000+00:00",
    "active": True,
    "blocked": False,
    "tags": [{"id": "tag_vip", "name": "VIP"}],
    "assigned_to": [
        {"id": "u_12", "email": "ana@example.com", "first_name": "Ana", "last_name": "Gómez"}
    ],
}

_CAMPAIGN = {
    "name": "Renovación de pólizas",
    "agent_id": ACME_AGENT,
    "integration_id": PHONE_INTEGRATION,
    "integration_type": "phone_call",
}


class SeedError(Exception):
    """The database cannot be seeded; the message says why, in one line."""


def seed(database: str | Path) -> bool:
    """Create the schema and the demo records in a new (or empty) database file or URL.

    A database seeded before is left as it is, so running the script again is harmless: the
    answer is then `False`. A file that is not an SQLite database, or one that holds other
    tables, raises `SeedError`.
    """
    try:
        with closing(store.connect(database)) as connection:
            tables = store.table_names(connection)
            if tables >= store.TABLES:
                return False
            if tables:
                raise SeedError(f"{database} holds tables that are not the server's")
            _seed_records(connection)
    except store.Unavailable as error:
        raise SeedError(str(error)) from None
    except store.DatabaseError as error:  # not an SQLite file, a folder that is missing
        engine = "a PostgreSQL" if postgres.is_url(database) else "an SQLite"
        reason = store.one_line(error)
        raise SeedError(f"{database} cannot be used as {engine} database ({reason})") from None
    return True


def _seed_records(connection: store.Connection) -> None:
    store.create_schema(connection)
    connection.executemany(
        "INSERT INTO organizations (id, name, billing_limit_reached) VALUES (?, ?, ?)",
        [(ACME, "Acme", 0), (OVERDRAWN, "Overdrawn", 1)],
    )
    connection.executemany(
        "INSERT INTO api_keys (key, organization_id) VALUES (?, ?)",
        [(ACME_KEY, ACME), (OVERDRAWN_KEY, OVERDRAWN)],
    )
    connection.executemany(
        "INSERT INTO agents (id, organization_id, name) VALUES (?, ?, ?)",
        [
            (ACME_AGENT, ACME, ACME_AGENT_NAME),
            (OVERDRAWN_AGENT, OVERDRAWN, "Bruno"),
            (SURVEY_AGENT, ACME, "Grace"),
            (ORDERS_AGENT, ACME, "Nuria"),
        ],
    )
    connection.executemany(
        "INSERT INTO integrations (agent_id, id, type) VALUES (?, ?, ?)",
        [
            *(
                (agent, integration, kind)
                for agent in (ACME_AGENT, OVERDRAWN_AGENT)
                for integration, kind in (
                    (PHONE_INTEGRATION, "phone_call"),
                    (WHATSAPP_INTEGRATION, "whatsapp"),
                )
            ),
            (SURVEY_AGENT, SURVEY_INTEGRATION, "phone_call"),
            (ORDERS_AGENT, ORDERS_INTEGRATION, "whatsapp"),
        ],
    )
    connection.executemany(
        "INSERT INTO tags (organization_id, id, name) VALUES (?, ?, ?)",
        [(ACME, tag, tag.removeprefix("tag_").upper()) for tag in TAGS],
    )
    _seed_campaign(connection)
    connection.execute(
        "INSERT INTO threads (id, organization_id, thread) VALUES (?, ?, ?)",
        (THREAD_ID, ACME, json.dumps(THREAD)),
    )


def _seed_campaign(connection: store.Connection) -> None:
    campaign = validate_create(_CAMPAIGN).value
    assert campaign is not None, "the seed campaign must be valid"
    connection.execute(
        "INSERT INTO campaigns (id, organization_id, status, created_at, agent_name, campaign)"
        " VALUES (?, ?, 'pending', '2026-11-20T09:00:00+00:00', ?, ?)",
        (CAMPAIGN_ID, ACME, ACME_AGENT_NAME, json.dumps(to_wire(campaign))),
    )
    row = {**CONTACT, "extracted_data": json.dumps(CONTACT["extracted_data"])}
    row["tags"] = json.dumps(CONTACT["tags"])
    row["has_follow_up"] = int(CONTACT["has_follow_up"])  # an INTEGER column, 0 or 1
    columns = ", ".join(row)
    connection.execute(
        f"INSERT INTO contacts (campaign_id, {columns}) VALUES (?{', ?' * len(row)})",
        (CAMPAIGN_ID, *row.values()),
    )
    if isinstance(connection, postgres.Connection):
        # An identity column counts from 1 whatever was inserted; the next campaign is 1043.
        connection.execute(
            "SELECT setval(pg_get_serial_sequence('campaigns', 'id'), max(id)) FROM campaigns"
        )


def add_api_key(database: str | Path, organization: int, key: str) -> None:
    """Issue `key` to `organization` (the tests issue a fresh key to each test)."""
    with closing(store.connect(database)) as connection:
        connection.execute(
            "INSERT INTO api_keys (key, organization_id) VALUES (?, ?)", (key, organization)
        )


_USAGE = "usage: python -m examples.server.seed DATABASE"


def main(arguments: list[str]) -> int:
    """The command: seed the file named by the one argument; the exit status."""
    if arguments in (["-h"], ["--help"]):
        print(_USAGE)
        return 0
    if len(arguments) != 1 or arguments[0].startswith("-"):
        print(
            f"{_USAGE} (the SQLite file to create, e.g. demo.db, or a postgresql:// URL)",
            file=sys.stderr,
        )
        return 2
    database = arguments[0]
    keys = f"API keys {ACME_KEY!r} and {OVERDRAWN_KEY!r}"
    try:
        created = seed(database)
    except SeedError as error:
        print(f"seed: {error}", file=sys.stderr)
        return 1
    if created:
        print(f"seeded {database}: {keys}")
    else:
        print(f"{database} was seeded before; nothing changed: {keys}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
