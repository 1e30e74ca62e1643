"""`conformance run --http URL`: the kit's HTTP sequences against a live server.

A placeholder: the HTTP runner is written by its own change; until then it runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from campaign_rules._cli.exits import ExitStatus, say

__all__ = ["run_http"]


def run_http(kit_dir: Path, url: str, options: dict[str, object]) -> int:
    """Run the HTTP sequences of the kit at `kit_dir` against the server at `url`.

    `options` holds the run's flags by name (`strict_places`, `strict_messages`,
    `expected_failures`, `allow_other_ruleset`, `timeout`). Returns the exit status.
    """
    say(f"conformance run --http: no HTTP runner in this build (kit {kit_dir}, server {url})")
    return ExitStatus.UNREADABLE
