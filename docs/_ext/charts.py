"""Benchmark charts drawn as SVG when the site is built, from the tables of `benchmarks/RESULTS.md`.

A table of RESULTS.md marked `<!-- chart: NAME ... -->` on the line before it is read as
ratios ("0.51x", "**0.37x**"): its header names the sets measured, each row an implementation.
The directive draws the rows its content lists (`RESULTS row => label`, one a line) as a
grouped horizontal bar chart, one group per set, with pydantic's 1.0x marked:

    ```{benchmark-chart} speed
    after step 20 => campaign-rules, compiled
    msgspec in the same run => msgspec
    ```

The figures are written once, in RESULTS.md, by whoever ran the benchmark; the chart follows
them. With `:table:` the chosen rows are shown as a table under the chart too (`:table-only:`: the
table alone). No plotting
library: the SVG is written here, inline in the page, its text in the page's own colour.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "RESULTS.md"
_MARK = re.compile(r"^<!-- chart: (\S+)")
_RATIO = re.compile(r"^\**([\d.]+)x\**$")
_COLOURS = ("#3d6fd9", "#e09b24", "#7a55c7", "#2f9e6b", "#d64545", "#5d6778")

# Geometry, in pixels.
_LABEL = 190
_PLOT = 470
_BAR = 14
_GAP = 10
_FONT = 13


def marked_table(name: str, text: str) -> tuple[list[str], dict[str, list[float | None]]]:
    """The sets (column names) and rows (ratios by set) of the table marked `name`."""
    lines = text.splitlines()
    marked = [n for n, line in enumerate(lines) if (m := _MARK.match(line)) and m.group(1) == name]
    if not marked:
        raise LookupError(f"no table marked 'chart: {name}' in {RESULTS}")
    table = []
    for line in lines[marked[0] + 1 :]:
        if not line.startswith("|"):
            break
        table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    header, rows = table[0], table[2:]
    return header[1:], {row[0]: [_ratio(cell) for cell in row[1:]] for row in rows}


def _ratio(cell: str) -> float | None:
    match = _RATIO.match(cell)
    return float(match.group(1)) if match else None


def svg(title: str, sets: list[str], series: list[tuple[str, list[float | None]]]) -> str:
    """A grouped horizontal bar chart of ratios, as an inline SVG element."""
    most = max([1.0, *(value for _, values in series for value in values if value is not None)])
    scale = _PLOT / (most * 1.08)
    group = len(series) * (_BAR + 3) + _GAP
    legend = 22 * ((len(series) + 2) // 3)
    top = 10 + legend
    height = top + group * len(sets) + 30
    width = _LABEL + _PLOT + 60
    out = [
        f'<svg class="benchmark-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(title)}" xmlns="http://www.w3.org/2000/svg" '
        f'font-size="{_FONT}">',
        f"<title>{html.escape(title)}</title>",
    ]
    for index, (label, _) in enumerate(series):
        x, y = 10 + (index % 3) * 240, 10 + 22 * (index // 3)
        out.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" rx="2" '
            f'fill="{_COLOURS[index % len(_COLOURS)]}"/>'
            f'<text x="{x + 18}" y="{y + 10}" fill="currentColor">{html.escape(label)}</text>'
        )
    for set_index, name in enumerate(sets):
        y0 = top + set_index * group
        out.append(
            f'<text x="{_LABEL - 10}" y="{y0 + (group - _GAP) / 2 + 4:.1f}" text-anchor="end" '
            f'fill="currentColor" font-weight="600">{html.escape(name)}</text>'
        )
        for index, (label, values) in enumerate(series):
            value = values[set_index] if set_index < len(values) else None
            if value is None:
                continue
            y = y0 + index * (_BAR + 3)
            length = value * scale
            out.append(
                f'<rect x="{_LABEL}" y="{y}" width="{length:.1f}" height="{_BAR}" rx="2" '
                f'fill="{_COLOURS[index % len(_COLOURS)]}"><title>{html.escape(label)}, '
                f"{html.escape(name)}: {value:.2f}x</title></rect>"
                f'<text x="{_LABEL + length + 5:.1f}" y="{y + _BAR - 3}" fill="currentColor" '
                f'font-size="11">{value:.2f}x</text>'
            )
    one = _LABEL + scale
    bottom = top + group * len(sets)
    out.append(
        f'<line x1="{one:.1f}" y1="{top - 4}" x2="{one:.1f}" y2="{bottom}" stroke="currentColor" '
        'stroke-dasharray="4 3" opacity="0.6"/>'
        f'<text x="{one:.1f}" y="{bottom + 16}" text-anchor="middle" fill="currentColor" '
        'font-size="11">1.0x = pydantic v2 strict (shorter is faster)</text>'
    )
    out.append("</svg>")
    return "".join(out)


class BenchmarkChart(SphinxDirective):
    """`{benchmark-chart} NAME`: the rows of RESULTS.md's table NAME, drawn."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "table": directives.flag,
        "table-only": directives.flag,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        """The chart (and, with `:table:`, the table of its figures)."""
        self.env.note_dependency(str(RESULTS))
        sets, rows = marked_table(self.arguments[0], RESULTS.read_text(encoding="utf-8"))
        series = []
        for line in self.content:
            source, _, label = line.partition("=>")
            if source.strip() not in rows:
                raise self.error(f"no row {source.strip()!r} in the table {self.arguments[0]}")
            series.append((label.strip() or source.strip(), rows[source.strip()]))
        caption = self.options.get("caption", "Time per body, as a ratio to pydantic's")
        figure = nodes.container(classes=["benchmark-figure"])
        if "table-only" not in self.options:
            figure += nodes.raw("", svg(caption, sets, series), format="html")
            figure += nodes.paragraph("", caption, classes=["benchmark-caption"])
        if "table" in self.options or "table-only" in self.options:
            figure += self._table(sets, series)
        return [figure]

    def _table(self, sets: list[str], series: list[tuple[str, list[float | None]]]) -> nodes.table:
        table = nodes.table(classes=["benchmark-table"])
        group = nodes.tgroup(cols=len(sets) + 1)
        table += group
        group += [nodes.colspec(colwidth=1) for _ in range(len(sets) + 1)]
        head = nodes.thead()
        body = nodes.tbody()
        group += [head, body]

        def row(cells: list[str]) -> nodes.row:
            line = nodes.row()
            for cell in cells:
                entry = nodes.entry()
                entry += nodes.paragraph("", cell)
                line += entry
            return line

        head += row(["ratio to pydantic", *sets])
        for label, values in series:
            body += row([label, *("" if v is None else f"{v:.2f}x" for v in values)])
        return table


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive with Sphinx."""
    app.add_directive("benchmark-chart", BenchmarkChart)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
