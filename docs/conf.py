"""Sphinx configuration of the campaign-rules documentation site (D-docs-site).

Build it with `.venv/bin/sphinx-build -W --keep-going -n docs docs/_build/html` after
`.venv/bin/pip install -e '.[docs]'`. The rule pages under `rules/` are generated at build time
by `_ext/rule_pages.py` from the rule table, the decisions, the rule functions and the case files.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sphinx.application import Sphinx

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))
# The site documents the source tree, as pure Python, whichever build is installed: a compiled
# module's functions carry no source for the rule pages, nor their full signatures.
sys.path.insert(0, str(HERE.parent / "src"))

from campaign_rules import __version__ as release  # noqa: E402
from campaign_rules._audit.report import DOCS_URL  # noqa: E402

project = "campaign-rules"
author = "campaign-rules developers"
copyright = "2026, campaign-rules developers"
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "rule_pages",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "conftest.py", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"campaign-rules {release}"
# docs/_static holds the screenshot of an audit report, which the README shows.
html_static_path = ["_static"] if (HERE / "_static").is_dir() else []
# The published site, which the audit report links each rule to.
html_baseurl = DOCS_URL
# The search lists pages by title, without fetching each found page for a summary: a fetch that
# a page opened from the disk (file:) may not make, and the browser tests open it so.
html_show_search_summary = False

# The API reference: the public modules' own docstrings, in the order the source gives them.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}

# Broken references are errors (-n -W); these targets are outside the documented surface: the
# private subpackages, and the types of the standard library and of third-party packages, which
# this offline build does not link to.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"campaign_rules\._.*"),
    (r"py:.*", r"(typing|collections\.abc|enum|datetime|decimal|types|_io|io|os)\..*"),
    (r"py:.*", r"(attrs|cattrs|hypothesis|dask|distributed|fsspec)(\..*)?"),
    (r"py:.*", r"(int|str|bytes|bool|float|object|dict|list|tuple|set|frozenset|type|None)"),
    (r"py:.*", r"(Value|attr\.AttrsInstance)"),  # the type variable of the results; attrs
    (r"py:.*", r"(Any|Final|Literal|Self|TypeVar|Generic|Iterable|Iterator|Mapping|Sequence)"),
]

# Heading anchors as GitHub makes them, with the function the rule pages link with.
myst_heading_slug_func = "rule_pages.slugify"


# The docstrings write code as Markdown does, in single backquotes; in reStructuredText, which
# autodoc reads, that is an italic "title reference". Shown as code instead (not a role's
# :role:`target`, nor a link's `text <url>`_).
_SINGLE_BACKQUOTES = re.compile(r"(?<![`:\w])`([^`\n]+)`(?![`_\w])")


def _code_in_backquotes(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    lines[:] = [_SINGLE_BACKQUOTES.sub(r"``\1``", line) for line in lines]


def setup(app: Sphinx) -> None:
    """Register the docstrings' code spans with autodoc."""
    app.connect("autodoc-process-docstring", _code_in_backquotes)
