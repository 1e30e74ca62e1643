"""What the repository holds beside the package: the decisions and the cases that prove each rule.

`docs/decisions.md` and `tests/cases/<rule id>.json` are the project's, not the package's: an
installed wheel has neither. The documentation site reads them when it is built, and
`campaign-rules explain` when it runs in (or from) a source tree of the project; elsewhere it
says where they are (D-explain-sources). `source_tree()` finds that tree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import attrs

__all__ = [
    "DECISIONS",
    "Cases",
    "case_counts",
    "cited_decisions",
    "decisions",
    "source_tree",
]

# The decisions page and the cases' folder, relative to the source tree's root.
DECISIONS = "docs/decisions.md"
CASES = "tests/cases"

_DECISION = re.compile(r"D-[a-z]+(?:-[a-z]+)*")


@attrs.frozen
class Cases:
    """The cases of one rule's case file: how many it accepts and how many it refuses."""

    accepted: int
    refused: int

    @property
    def total(self) -> int:
        """Every case of the file."""
        return self.accepted + self.refused


def cited_decisions(source: str) -> list[str]:
    """The decisions a citation or a text names ("D-blank-name"), in order, each once."""
    return list(dict.fromkeys(_DECISION.findall(source)))


def decisions(text: str) -> dict[str, tuple[str, str]]:
    """Every decision of a decisions page by id ("D-blank-name"): its heading and its text.

    A decision is a `## ` heading that starts with its id and a colon.
    """
    found: dict[str, tuple[str, str]] = {}
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        match = _DECISION.match(heading)
        if match and heading[match.end() :].startswith(":"):
            found[match.group()] = (heading.strip(), body.strip())
    return found


def case_counts(folder: Path, rules: Iterable[str]) -> dict[str, Cases]:
    """The cases of each of `rules` that has a case file in `folder` (`tests/cases`)."""
    counts: dict[str, Cases] = {}
    for rule in rules:
        path = folder / f"{rule}.json"
        if path.is_file():
            cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
            refused = sum(1 for case in cases if case["violations"])
            counts[rule] = Cases(len(cases) - refused, refused)
    return counts


def source_tree(*candidates: Path) -> Path | None:
    """The first of `candidates` that is a source tree of the project, or None.

    A source tree has the decisions page and the cases' folder; by default the candidates are
    the tree the package was installed from (an editable install runs `src/campaign_rules`
    there) and the current directory.
    """
    here = Path(__file__).resolve().parents[3]
    for root in candidates or (here, Path.cwd()):
        if (root / DECISIONS).is_file() and (root / CASES).is_dir():
            return root
    return None
