"""The examples of the site's pages, run by Sybil (`tests/doc_examples.py`)."""

from importlib.util import find_spec

if find_spec("sybil") is not None:  # the docs extra; tests/test_docs.py says when it is missing
    from tests.doc_examples import sybil

    # The rule pages are generated (docs/_ext/rule_pages.py): their code is the library's own.
    pytest_collect_file = sybil("myst", ["docs/*.md", "docs/*/*.md"], ["docs/rules/*.md"]).pytest()
