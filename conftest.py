"""The README's examples, run by Sybil (`tests/doc_examples.py`); docs/conftest.py: the site's."""

from importlib.util import find_spec

if find_spec("sybil") is not None:  # the docs extra; tests/test_docs.py says when it is missing
    from tests.doc_examples import sybil

    pytest_collect_file = sybil("markdown", ["README.md"]).pytest()
