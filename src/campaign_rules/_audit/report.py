"""The audit report: an audit summary as one self-contained HTML page (`audit --html`).

The page needs no network: its style is inline CSS, its charts inline SVG, and it has no
script; a Content-Security-Policy forbids any. Every text that comes from the data (rule ids,
keys, field paths, messages: a store is hostile input) is escaped. The summary is read through
`Summary`, the shape of `campaign_rules.audit.AuditSummary` (this layer cannot import it).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from campaign_rules._core.display import shown_text
from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.links import DOCS_URL, rule_url
from campaign_rules._export.ruleset import Ruleset

__all__ = ["DOCS_URL", "Summary", "Tally", "render_report", "rule_url"]

# The geometry of a bar chart, in pixels: rule ids are set in a monospace font whose glyphs are
# about 0.6 em wide, so the label column fits the longest label.
_ROW: Final = 28
_BAR: Final = 18
_FONT: Final = 13
_GLYPH: Final = 0.6 * _FONT
_BARS_WIDTH: Final = 440
_COUNT_WIDTH: Final = 110


class Tally(Protocol):
    """What the report reads of a rule's tally (`campaign_rules.audit.RuleTally`)."""

    @property
    def count(self) -> int:
        """The number of records that break the rule."""
        ...

    @property
    def first_records(self) -> tuple[int, ...]:
        """The numbers of the first of them."""
        ...

    @property
    def field(self) -> str | None:
        """The field path of the rule's first violation."""
        ...

    @property
    def message(self) -> str:
        """The message of the rule's first violation."""
        ...


class Summary(Protocol):
    """What the report reads of an audit summary (`campaign_rules.audit.AuditSummary`)."""

    @property
    def lines(self) -> int:
        """Every line read."""
        ...

    @property
    def valid(self) -> int:
        """The valid records."""
        ...

    @property
    def invalid(self) -> int:
        """The invalid records."""
        ...

    @property
    def unreadable(self) -> int:
        """The lines that are not JSON text."""
        ...

    @property
    def unreadable_records(self) -> tuple[int, ...]:
        """The numbers of the first unreadable lines."""
        ...

    @property
    def records(self) -> int:
        """The non-blank lines."""
        ...

    def ranked_rules(self) -> Sequence[tuple[str, Tally]]:
        """The rules, the one broken by most records first."""
        ...

    def ranked_keys(self) -> Sequence[tuple[str, int]]:
        """The error keys, the one of most records first."""
        ...


def render_report(summary: Summary, *, docs_url: str = DOCS_URL, ruleset: Ruleset) -> str:
    """The page: totals, a chart by rule and one by error key, the rules, the unreadable lines.

    Its footer names the rule set that judged, `ruleset` (D-ruleset).
    """
    rules = summary.ranked_rules()
    keys = summary.ranked_keys()
    infos = {info.id: info for info in catalogue()}
    title = (
        f"Audit of {summary.records:,} records: {summary.invalid:,} invalid, "
        f"{summary.unreadable:,} unreadable"
    )
    rule_bars = [(rule, tally.count, rule_url(rule, docs_url)) for rule, tally in rules]
    key_bars: list[tuple[str, int, str | None]] = [(key, count, None) for key, count in keys]
    nothing = "<p class='none'>No record breaks a rule.</p>"
    body = [
        "<header>",
        "<h1>Audit report</h1>",
        f"<p class='lede'>{_e(title)}, from {summary.lines:,} lines read "
        "(records are numbered by line, blank lines included).</p>",
        "</header>",
        _totals(summary),
        "<section id='by-rule'><h2>Records breaking each rule</h2>",
        _bar_chart(rule_bars, "rule", "records breaking each rule") if rules else nothing,
        "</section>",
        "<section id='by-key'><h2>Records by error key</h2>",
        _bar_chart(key_bars, "key", "records by error key") if keys else nothing,
        "</section>",
        "<section id='rules'><h2>Rules broken</h2>",
        _rule_table(rules, infos, summary.invalid, docs_url) if rules else nothing,
        "</section>",
        _unreadable(summary),
        f"<footer>Made by campaign-rules from an audit summary. Each rule links to its page "
        f"under <a href='{_e(docs_url)}'>{_e(docs_url)}</a>.<br>"
        f"<span id='ruleset' data-version='{_e(ruleset['version'])}' "
        f"data-fingerprint='{_e(ruleset['fingerprint'])}'>Judged by the rules of campaign-rules "
        f"{_e(ruleset['version'])}, rule set <code>{_e(ruleset['fingerprint'])}</code>"
        "</span></footer>",
    ]
    return _PAGE.format(title=_e(title), style=_STYLE, body="\n".join(body))


def _e(value: object) -> str:
    """The text of `value`, escaped for HTML text and attribute values alike.

    Shown first as a field path shows it (D-shown-text): no control character reaches the page
    (U+0000 is an HTML parse error, ESC a terminal's escape for whoever reads the file there).
    """
    return html.escape(shown_text(str(value)), quote=True)


def _breakable(rule: str) -> str:
    """An escaped rule id that a narrow column may break after each dot (`cycles.<wbr>...`)."""
    return _e(rule).replace(".", ".<wbr>")


def _code_spans(text: str) -> str:
    """Escaped text with its `code` spans (the catalogue's Markdown) set as code."""
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an odd number of backticks: no spans
        return text
    return "".join(
        f"<code>{piece}</code>" if index % 2 else piece for index, piece in enumerate(pieces)
    )


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"


def _numbers(numbers: tuple[int, ...], total: int) -> str:
    """Record numbers as text, saying when they are only the first of more."""
    text = ", ".join(f"{number:,}" for number in numbers)
    return f"{text},\u00a0…" if total > len(numbers) else text


def _totals(summary: Summary) -> str:
    cards = [
        ("records", summary.records, "non-blank lines"),
        ("valid", summary.valid, _percent(summary.valid, summary.records)),
        ("invalid", summary.invalid, _percent(summary.invalid, summary.records)),
        ("unreadable", summary.unreadable, _percent(summary.unreadable, summary.records)),
    ]
    parts = ["<section id='totals'><h2 class='hidden'>Totals</h2><div class='cards'>"]
    for name, count, note in cards:
        parts.append(
            f"<div class='card {name}' data-total='{name}'><div class='label'>{name}</div>"
            f"<div class='count'>{count:,}</div><div class='note'>{note}</div></div>"
        )
    parts.append("</div>")
    parts.append(_share_bar(summary))
    parts.append("</section>")
    return "".join(parts)


def _share_bar(summary: Summary) -> str:
    """One bar split into the shares of valid, invalid and unreadable records."""
    width = 1000
    parts = [
        f"<svg class='share' viewBox='0 0 {width} 14' width='100%' height='14' "
        "preserveAspectRatio='none' role='img' aria-label='valid, invalid and unreadable "
        "records'>"
    ]
    x = 0.0
    for kind, count in (
        ("valid", summary.valid),
        ("invalid", summary.invalid),
        ("unreadable", summary.unreadable),
    ):
        if summary.records and count:
            part = width * count / summary.records
            parts.append(
                f"<rect class='{kind}' x='{x:.2f}' y='0' width='{part:.2f}' height='14'>"
                f"<title>{kind}: {count:,}</title></rect>"
            )
            x += part
    if not summary.records:
        parts.append(f"<rect class='empty' x='0' y='0' width='{width}' height='14'/>")
    parts.append("</svg>")
    return "".join(parts)


def _bar_chart(bars: Sequence[tuple[str, int, str | None]], kind: str, label: str) -> str:
    """A horizontal bar chart in SVG: a label, a bar as long as its count, the count."""
    most = max(count for _, count, _ in bars) or 1
    left = round(max(len(name) for name, _, _ in bars) * _GLYPH) + 16
    width = left + _BARS_WIDTH + _COUNT_WIDTH
    height = _ROW * len(bars) + 8
    parts = [
        f"<svg class='chart' data-chart='{kind}' viewBox='0 0 {width} {height}' "
        f"width='{width}' height='{height}' role='img' aria-label='{_e(label)}'>"
    ]
    for index, (name, count, href) in enumerate(bars):
        top = 4 + index * _ROW
        middle = top + _ROW / 2
        length = _BARS_WIDTH * count / most
        text = (
            f"<text class='name' x='{left - 12}' y='{middle:.1f}' text-anchor='end' "
            f"dominant-baseline='central'>{_e(name)}</text>"
        )
        if href is not None:
            text = f"<a href='{_e(href)}'>{text}</a>"
        parts.append(
            f"<g class='row'>{text}"
            f"<rect class='bar {kind}' x='{left}' y='{middle - _BAR / 2:.1f}' "
            f"width='{length:.3f}' height='{_BAR}' rx='3' data-name='{_e(name)}' "
            f"data-count='{count}'><title>{_e(name)}: {count:,}</title></rect>"
            f"<text class='count' x='{left + length + 8:.1f}' y='{middle:.1f}' "
            f"dominant-baseline='central'>{count:,}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _rule_table(
    rules: Sequence[tuple[str, Tally]],
    infos: Mapping[str, RuleInfo],
    invalid: int,
    docs_url: str,
) -> str:
    parts = [
        "<table><thead><tr><th>Rule</th><th>Error key</th><th class='num'>Records</th>"
        "<th>First records</th><th>Example</th></tr></thead><tbody>"
    ]
    for rule, tally in rules:
        info = infos.get(rule)
        key, what = (info.key.value, info.summary) if info else ("", "")
        # The field, unless the message names it already ("retries must be from 0 to 5").
        shown = tally.field is not None and tally.field not in tally.message
        field = f"<code class='field'>{_e(tally.field)}</code> " if shown else ""
        parts.append(
            f"<tr data-rule='{_e(rule)}'>"
            f"<td><a class='rule' href='{_e(rule_url(rule, docs_url))}'>{_breakable(rule)}</a>"
            f"<div class='summary'>{_code_spans(_e(what))}</div></td>"
            f"<td><span class='key'>{_e(key)}</span></td>"
            f"<td class='num'>{tally.count:,}<div class='summary'>"
            f"{_percent(tally.count, invalid)} of invalid</div></td>"
            f"<td class='records'>{_numbers(tally.first_records, tally.count)}</td>"
            f"<td class='example'>{field}<span class='message'>{_e(tally.message)}</span></td>"
            "</tr>"
        )
    parts.append("</tbody></table>")
    return "".join(parts)


def _unreadable(summary: Summary) -> str:
    parts = ["<section id='unreadable'><h2>Unreadable lines</h2>"]
    if summary.unreadable:
        lines = "line is" if summary.unreadable == 1 else "lines are"
        first = "" if summary.unreadable <= len(summary.unreadable_records) else "the first: "
        parts.append(
            f"<p>{summary.unreadable:,} {lines} not JSON text ({first}"
            f"<span class='records'>"
            f"{_numbers(summary.unreadable_records, summary.unreadable)}</span>). "
            "<code>campaign-rules audit --violations FILE</code> lists each with its reason.</p>"
        )
    else:
        parts.append("<p class='none'>None: every non-blank line is JSON text.</p>")
    parts.append("</section>")
    return "".join(parts)


_PAGE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""

_STYLE: Final = """
:root {
  --ink: #1d2330; --muted: #5d6778; --line: #e3e7ee; --paper: #ffffff; --wash: #f5f7fa;
  --valid: #2f9e6b; --invalid: #d64545; --unreadable: #e09b24; --rule: #3d6fd9; --key: #7a55c7;
  --link: #2557c4;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--wash); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", "DejaVu Sans", sans-serif;
}
main { max-width: 1180px; margin: 0 auto; padding: 32px 32px 48px; }
h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 18px; margin: 0 0 14px; }
.hidden { position: absolute; left: -10000px; }
.lede { color: var(--muted); margin: 0 0 24px; }
section {
  background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
  padding: 20px 24px; margin: 0 0 20px; overflow-x: auto;
}
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 14px; margin-bottom: 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px;
  border-top: 4px solid var(--muted); }
.card.valid { border-top-color: var(--valid); }
.card.invalid { border-top-color: var(--invalid); }
.card.unreadable { border-top-color: var(--unreadable); }
.card .label { color: var(--muted); font-size: 13px; text-transform: uppercase;
  letter-spacing: 0.06em; }
.card .count { font-size: 30px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .note { color: var(--muted); font-size: 13px; }
svg.share { display: block; border-radius: 7px; background: var(--line); }
svg .valid { fill: var(--valid); } svg .invalid { fill: var(--invalid); }
svg .unreadable { fill: var(--unreadable); } svg .empty { fill: var(--line); }
svg.chart { display: block; max-width: 100%; height: auto; }
svg.chart text { font-size: 13px; fill: var(--ink); }
svg.chart text.name { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "DejaVu Sans Mono", monospace; }
svg.chart a text.name { fill: var(--link); }
svg.chart a:hover text.name { text-decoration: underline; }
svg.chart text.count { fill: var(--muted); font-variant-numeric: tabular-nums; }
svg.chart .bar.rule { fill: var(--rule); } svg.chart .bar.key { fill: var(--key); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px;
  text-transform: uppercase; letter-spacing: 0.05em; border-bottom: 2px solid var(--line);
  padding: 6px 10px; white-space: nowrap; }
td { border-bottom: 1px solid var(--line); padding: 9px 10px; vertical-align: top; }
tr:last-child td { border-bottom: 0; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
a.rule, code, .key { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "DejaVu Sans Mono", monospace; font-size: 13px; }
a.rule { font-weight: 600; }
.key { background: #efeafb; color: #4b2f99; border-radius: 4px; padding: 1px 6px;
  white-space: nowrap; }
code.field { background: var(--wash); border: 1px solid var(--line); border-radius: 4px;
  padding: 0 4px; word-break: break-all; }
.summary { color: var(--muted); font-size: 13px; margin-top: 2px; }
.summary code { font-size: 12px; }
.records { font-variant-numeric: tabular-nums; }
td.records { min-width: 110px; }
td.example { min-width: 200px; }
.none { color: var(--muted); margin: 0; }
footer { color: var(--muted); font-size: 13px; text-align: center; }
footer code { word-break: break-all; }
@media (max-width: 760px) { .cards { grid-template-columns: repeat(2, 1fr); } }
"""
