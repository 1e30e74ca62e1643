-- The reference server's database (examples/server). Every organization has API keys, agents
-- with their integrations, thread tags and one billing flag; campaigns, their contacts and the
-- threads belong to it. Idempotency records are keyed by (API key, Idempotency-Key), as
-- D-idempotency says, so one client's key never replays another's.

CREATE TABLE organizations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    billing_limit_reached INTEGER NOT NULL DEFAULT 0 CHECK (billing_limit_reached IN (0, 1))
);

CREATE TABLE api_keys (
    key TEXT PRIMARY KEY,
    organization_id INTEGER NOT NULL REFERENCES organizations (id)
);

CREATE TABLE agents (
    id TEXT PRIMARY KEY,  -- the public id: a canonical lower-case UUID v4
    organization_id INTEGER NOT NULL REFERENCES organizations (id),
    name TEXT NOT NULL
);

CREATE TABLE integrations (
    agent_id TEXT NOT NULL REFERENCES agents (id),
    id TEXT NOT NULL,
    type TEXT NOT NULL,  -- phone_call, whatsapp
    PRIMARY KEY (agent_id, id)
);

CREATE TABLE tags (
    organization_id INTEGER NOT NULL REFERENCES organizations (id),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (organization_id, id)
);

CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    organization_id INTEGER NOT NULL REFERENCES organizations (id),
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,  -- RFC 3339, UTC
    agent_name TEXT NOT NULL,
    campaign TEXT NOT NULL  -- the validated creation input, as its wire JSON (to_wire)
);

CREATE TABLE contacts (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    id INTEGER NOT NULL,
    f_id TEXT NOT NULL,
    name TEXT NOT NULL,
    contact TEXT NOT NULL,
    status TEXT NOT NULL,
    context TEXT NOT NULL,
    retries INTEGER NOT NULL,
    has_follow_up INTEGER NOT NULL,
    call_count INTEGER NOT NULL,
    billed_duration INTEGER NOT NULL,
    last_call_at TEXT,  -- NULL for a contact never called
    extracted_data TEXT NOT NULL,  -- a JSON object of strings
    tags TEXT NOT NULL,  -- a JSON array of strings
    PRIMARY KEY (campaign_id, id)
);

CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    organization_id INTEGER NOT NULL REFERENCES organizations (id),
    thread TEXT NOT NULL  -- the thread of spec 2.6, as its wire JSON
);

-- A row is a claim while its request runs (`claim` set, `status` and `body` NULL, `stored_at`
-- the time of the claim), then the stored response (D-idempotency-claim, D-fleet).
CREATE TABLE idempotency_records (
    api_key TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER,
    body TEXT,  -- the JSON body sent
    stored_at REAL NOT NULL,  -- wall-clock seconds (the database's clock in PostgreSQL)
    claim TEXT,  -- the random token of the request that holds the claim; NULL once stored
    PRIMARY KEY (api_key, idempotency_key)
);
