"""Where the documentation site is, and the address of each rule's page on it.

The command line's `--docs-url`, the audit's HTML report and `explain` link rules to their
pages; the published site is the default, and another copy of it (a local build, a mirror) can
be named instead.
"""

from __future__ import annotations

import urllib.parse
from typing import Final

__all__ = ["DOCS_URL", "rule_url"]

# The published documentation site; each rule has a page at `rules/<rule id>.html` under it.
DOCS_URL: Final = "https://campaign-rules.readthedocs.io/en/latest/"


def rule_url(rule: str, docs_url: str = DOCS_URL) -> str:
    """The address of a rule's page on the documentation site at `docs_url`.

    A rule id is percent-encoded as UTF-8, a lone surrogate (in a summary made by hand, which
    names any rule) as its code point's bytes, rather than raising (D-shown-text).
    """
    base = docs_url if docs_url.endswith("/") else docs_url + "/"
    return f"{base}rules/{urllib.parse.quote(rule, safe='._-', errors='surrogatepass')}.html"
