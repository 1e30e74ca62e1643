"""The examples of the site's pages, run by Sybil (`tests/doc_examples.py`)."""

from importlib.util import find_spec

from tests.doc_examples import sybil, without_sybil

PAGES = ["docs/*.md", "docs/*/*.md"]
# The rule pages are generated (docs/_ext/rule_pages.py): their code is the library's own.
GENERATED = ["docs/rules/*.md"]
# Sybil comes with the docs extra; without it, each page's examples are one test, skipped.
if find_spec("sybil") is not None:
    pytest_collect_file = sybil("myst", PAGES, GENERATED).pytest()
else:
    pytest_collect_file = without_sybil(PAGES, GENERATED)
