"""The performance sentence of the README and the site states what was measured (issue 37).

Each page that claims a speed says, for the compiled build, how long a valid body takes as a
ratio to pydantic v2 strict's, by each path: the dict path (`validate_create` on a decoded body,
against `model_validate`) and the bytes path (`validate_create_json`, with the `fast` extra and
with the standard library's `json`, against `model_validate_json`). The figures are measured
once, in the table marked `chart: claims` under "Current figures" in `benchmarks/RESULTS.md`
(read by the site's chart extension, `docs/_ext/charts.py`); a page's "about 0.5x" holds when it
is within 0.05x of that table's figure on every valid set, so that a new run which moves a
figure makes these pages fail until they say it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
TABLE = "claims"
# The table's rows, in the order every page states their figures.
PATHS = ("dict path", "bytes path, fast", "bytes path, json")
PAGES = ("README.md", "docs/index.md", "docs/guides/builds.md")
# "about 0.5x" rounds a measured figure: it may be off by half a step of its one decimal; "about
# 0.9x to 1.0x" spans the valid sets' figures the same way.
ROUNDING = 0.05
_STATED = re.compile(r"about (\d+\.\d+)x(?: to (\d+\.\d+)x)?")


def measured() -> dict[str, list[float]]:
    """The valid sets' figures of the table the pages cite, by path."""
    pytest.importorskip("sphinx", reason="the docs extra is not installed (no sphinx)")
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from charts import marked_table
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    sets, rows = marked_table(TABLE, RESULTS.read_text(encoding="utf-8"))
    valid = [n for n, name in enumerate(sets) if name.endswith(" valid")]
    assert valid, sets
    figures = {}
    for path in PATHS:
        cells = [rows[path][n] for n in valid]
        figures[path] = [cell for cell in cells if cell is not None]
        assert len(figures[path]) == len(valid), (path, cells)
    return figures


def performance_paragraph(page: str) -> str:
    """The one paragraph or list item of `page` that compares the paths' speed with pydantic."""
    text = (ROOT / page).read_text(encoding="utf-8")
    paragraphs = [
        paragraph
        for paragraph in re.split(r"\n\s*\n|\n(?=- )", text)
        if "pydantic" in paragraph and "validate_create_json" in paragraph
    ]
    assert len(paragraphs) == 1, f"{page}: {len(paragraphs)} performance paragraphs"
    return paragraphs[0]


def misstated(paragraph: str, figures: dict[str, list[float]]) -> list[str]:
    """What `paragraph` states that the measured `figures` do not bear out, path by path."""
    stated = _STATED.findall(paragraph)
    if len(stated) != len(PATHS):
        return [f"{len(stated)} figures stated, one for each of {', '.join(PATHS)} expected"]
    wrong = []
    for path, (low, high) in zip(PATHS, stated, strict=True):
        least, most = float(low), float(high or low)
        if not all(
            least - ROUNDING <= f + 1e-9 and f - 1e-9 <= most + ROUNDING for f in figures[path]
        ):
            wrong.append(
                f"{path}: about {low}x{f' to {high}x' if high else ''}, measured {figures[path]}"
            )
    return wrong


def test_the_figures_are_under_current_figures() -> None:
    text = RESULTS.read_text(encoding="utf-8")
    mark = text.index(f"<!-- chart: {TABLE} ")
    assert text.index("\n## Current figures\n") < mark < text.index("\n## History\n")


@pytest.mark.parametrize("page", PAGES)
def test_a_page_states_each_path_s_figure_as_measured(page: str) -> None:
    paragraph = performance_paragraph(page)
    for words in (
        "compiled",
        "valid body",
        "`validate_create`",
        "`validate_create_json`",
        "`fast`",
    ):
        assert words in paragraph.replace("Compiled", "compiled"), (page, words)
    assert misstated(paragraph, measured()) == []


def test_a_figure_that_moved_or_went_missing_is_found() -> None:
    figures = {
        "dict path": [0.52, 0.54],
        "bytes path, fast": [0.9, 0.98],
        "bytes path, json": [1.3],
    }
    right = "about 0.5x ... about 0.9x to 1.0x ... about 1.3x"
    assert misstated(right, figures) == []
    assert misstated("about 0.5x ... about 0.9x ... about 1.3x", figures) == [
        "bytes path, fast: about 0.9x, measured [0.9, 0.98]"
    ]
    assert misstated("about 0.7x ... about 0.9x to 1.0x ... about 1.3x", figures) == [
        "dict path: about 0.7x, measured [0.52, 0.54]"
    ]
    assert len(misstated("about 0.5x ... about 0.9x to 1.0x", figures)) == 1
