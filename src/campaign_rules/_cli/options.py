"""Options that more than one sub-command takes, each declared once."""

from __future__ import annotations

import argparse

from campaign_rules._export.links import DOCS_URL

__all__ = ["add_docs_url"]


def add_docs_url(command: argparse.ArgumentParser, what: str) -> None:
    """Add `--docs-url`, the documentation site whose rule pages `what` (a phrase) links to."""
    command.add_argument(
        "--docs-url",
        metavar="URL",
        default=DOCS_URL,
        help=f"the documentation site {what} (default: {DOCS_URL})",
    )
