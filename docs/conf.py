"""Sphinx configuration of the campaign-rules documentation site (D-docs-site).

Read the Docs builds it (`.readthedocs.yaml`) in a fresh environment, as `.ci/run` does too:
`python -m pip install '.[docs]'`, then `python -m sphinx -W --keep-going -n docs OUT` (every
warning, a broken reference included, is an error). The `docs` extra holds all that autodoc
imports, the Dask and Hypothesis of `campaign_rules.dask` and `campaign_rules.strategies` too.
In the test set-up, `.venv/bin/sphinx-build -W --keep-going -n docs docs/_build/html` does the
same. Generated at build time from the library's tables: the rule pages under `rules/`
(`_ext/rule_pages.py`), the traceability page (`_ext/traceability.py`) and the benchmark charts
(`_ext/charts.py`); `_ext/spec_links.py` anchors the clauses of `spec.html` and links every
citation to them.
"""

from __future__ import annotations

import os
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
    "spec_links",
    "traceability",
    "charts",
    "cli_tables",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "conftest.py", "README.md"]
# `spec.md` includes the spec from the package: a change of it rebuilds the page.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"campaign-rules {release}"
html_css_files = ["site.css"]


def _edit_link() -> str:
    """Where a page's source is edited: the repository Read the Docs builds from, when known."""
    clone = os.environ.get("READTHEDOCS_GIT_CLONE_URL", "")
    branch = os.environ.get("READTHEDOCS_GIT_IDENTIFIER", "")
    if not (clone.startswith("https://github.com/") and branch):
        return ""
    return f"{clone.removesuffix('.git')}/edit/{branch}/docs/{{filename}}"


# A link to the source from every page: "view" opens the page's own source, copied into the
# site (`_sources/`, also for the generated pages, which the repository does not hold); "edit"
# opens it in the repository, on Read the Docs, which names the repository it builds.
html_theme_options = {
    "top_of_page_buttons": ["view", "edit"],
    "source_edit_link": _edit_link(),
}
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


# Rule ids are long words: in Furo's sidebar and in a page's title they break after a dot or an
# underscore (`<wbr>`), never mid-word (site.css stops the browser's own breaks).
_SIDEBAR_LINK = re.compile(r"(<a class=\"[^\"]*reference internal[^\"]*\"[^>]*>)([^<]+)(</a>)")
_TITLE = re.compile(r"(<h1>)([^<]+)(<a class=\"headerlink\")")


def _breaks(match: re.Match[str]) -> str:
    return match[1] + re.sub(r"([._])(?=\w)", r"\1<wbr>", match[2]) + match[3]


def _rule_id_breaks(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, object], doctree: object
) -> None:
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = _SIDEBAR_LINK.sub(_breaks, tree)
    body = context.get("body")
    if isinstance(body, str):
        context["body"] = _TITLE.sub(_breaks, body, count=1)


def setup(app: Sphinx) -> None:
    """Register the docstrings' code spans with autodoc, and the sidebar's line breaks."""
    app.connect("autodoc-process-docstring", _code_in_backquotes)
    # After Furo's own handler (priority 500), which computes the navigation tree.
    app.connect("html-page-context", _rule_id_breaks, priority=600)
