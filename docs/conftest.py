"""The examples of the site's pages, run by Sybil (`tests/doc_examples.py`)."""

from importlib.util import find_spec

from tests.doc_examples import sybil, without_sybil

PAGES = ["docs/*.md", "docs/*/*.md"]
NOT_HERE = [
    # Generated (docs/_ext/rule_pages.py): their code is the library's own.
    "docs/rules/*.md",
    # Its blocks talk to a running reference server: tests/e2e runs them against one.
    "docs/guides/reference-server.md",
    # A recipe for a cluster: commands for other machines, a scheduler's address, a bucket.
    "docs/guides/dask.md",
]
# Sybil comes with the docs extra; without it, each page's examples are one test, skipped.
if find_spec("sybil") is not None:
    pytest_collect_file = sybil("myst", PAGES, NOT_HERE).pytest()
else:
    pytest_collect_file = without_sybil(PAGES, NOT_HERE)
