"""The README's examples, run by Sybil (`tests/doc_examples.py`); docs/conftest.py: the site's."""

from importlib.util import find_spec

from tests.doc_examples import sybil, without_sybil

PAGES = ["README.md"]
# Sybil comes with the docs extra; without it, the page's examples are one test, skipped.
if find_spec("sybil") is not None:
    pytest_collect_file = sybil("markdown", PAGES).pytest()
else:
    pytest_collect_file = without_sybil(PAGES)
