"""A reference Campaign Outreach server on Starlette and SQLite, built on `campaign_rules`.

`app.py` has the endpoints, `store.py` the records (the `Directory` the rules ask), `schema.sql`
the tables and `seed.py` a demo database. As a fleet (docs/guides/fleet.md), `postgres.py` runs
the same statements on PostgreSQL and `shared_rate.py` keeps the rate limits in Redis.
"""
