"""A reference Campaign Outreach server on Starlette and SQLite, built on `campaign_rules`.

`app.py` has the endpoints, `store.py` the SQLite records (the `Directory` the rules ask),
`schema.sql` the tables and `seed.py` a demo database.
"""
