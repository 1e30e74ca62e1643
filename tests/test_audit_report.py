"""The HTML audit report (`html_report`, `campaign-rules audit --html`): content and browser."""

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules._core.display import CONTROL_CHARACTERS
from campaign_rules._core.limits import RETRIES
from campaign_rules.audit import AuditSummary, RuleTally, audit_lines, html_report, merge_summaries
from tests.audit_support import BROKEN, INVALID, VALID, store_lines
from tests.browser import BrowserPage, missing

ROOT = Path(__file__).resolve().parent.parent
RULES = "https://campaign-rules.readthedocs.io/en/latest/rules/"
# Field names of a hostile store: markup that would run or load something if it were not escaped.
SCRIPT = "<script>window.pwned = 1</script>"
IMAGE = '"\'><img src=x onerror="window.pwned = 2">'
HOSTILE = json.dumps({**json.loads(VALID), SCRIPT: 1, IMAGE: 2})


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs, self.children, self.parts = tag, attrs, [], []

    @property
    def text(self) -> str:
        return "".join(part if isinstance(part, str) else part.text for part in self.parts).strip()

    def all(self, tag: str, **attrs: str) -> list["Element"]:
        found = []
        for child in self.children:
            if child.tag == tag and all(
                value in (child.attrs.get(name.replace("_", "-")) or "").split()
                for name, value in attrs.items()
            ):
                found.append(child)
            found += child.all(tag, **attrs)
        return found

    def one(self, tag: str, **attrs: str) -> "Element":
        [found] = self.all(tag, **attrs)
        return found


class Tree(HTMLParser):
    """The page as a tree of elements, as the browser's parser would build it."""

    VOID = frozenset({"meta", "link", "br", "wbr", "img", "hr", "input"})

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.stack[-1].children.append(element)
        self.stack[-1].parts.append(element)
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, (self.stack[-1].tag, tag)
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(page: str) -> Element:
    return Tree(page).root


def test_the_totals_are_the_summarys_counts():
    page = parse(html_report(audit_lines([VALID, "", INVALID, BROKEN, "[]", VALID])))
    cards = {card.attrs["data-total"]: card for card in page.all("div", **{"class": "card"})}
    counts = {name: card.one("div", **{"class": "count"}).text for name, card in cards.items()}
    assert counts == {"records": "5", "valid": "2", "invalid": "2", "unreadable": "1"}
    assert cards["valid"].one("div", **{"class": "note"}).text == "40.0%"
    assert page.one("head").one("title").text == "Audit of 5 records: 2 invalid, 1 unreadable"


def test_each_rule_has_a_row_with_its_link_records_and_first_message_most_records_first():
    summary = audit_lines(["[]", INVALID, "[]", "null", INVALID] + ["[]"] * 5)
    page = parse(html_report(summary))
    rows = page.one("section", id="rules").all("tr")[1:]
    assert [row.attrs["data-rule"] for row in rows] == [rule for rule, _ in summary.ranked_rules()]
    first = rows[0]
    assert first.one("a").attrs["href"] == RULES + "payload.is_object.html"
    assert first.one("a").text == "payload.is_object"
    cells = first.all("td")
    assert cells[1].text == "INVALID_REQUEST"
    assert cells[2].text.startswith("8")  # eight records of ten, two of them INVALID
    assert cells[3].text == "1, 3, 4, 6, 7,\u00a0…"  # the first five of eight
    assert cells[4].text == "the request body must be a JSON object, not an array"
    retries = page.one("tr", data_rule="retries.within_bounds").all("td")
    assert retries[3].text == "2, 5"
    assert retries[4].text == RETRIES.must_be("retries")  # the message names the field
    # The catalogue's summary of the rule, its Markdown code spans as code.
    assert retries[0].one("code").text == "retries"


def test_a_field_the_message_does_not_name_is_shown_beside_it():
    line = json.dumps({**json.loads(VALID), "colour": "red"})
    row = parse(html_report(audit_lines([line]))).one("tr", data_rule="payload.known_members_only")
    example = row.one("td", **{"class": "example"})
    assert example.one("code", **{"class": "field"}).text == "colour"
    assert example.text == "colour this is not a known field of the request body"


def test_the_bars_are_as_long_as_their_counts_and_the_labels_link_to_the_rules():
    summary = audit_lines(store_lines(400, seed=11))
    page = parse(html_report(summary))
    chart = page.one("svg", data_chart="rule")
    bars = chart.all("rect")
    assert [(bar.attrs["data-name"], int(bar.attrs["data-count"])) for bar in bars] == [
        (rule, tally.count) for rule, tally in summary.ranked_rules()
    ]
    widths = [float(bar.attrs["width"]) for bar in bars]
    most = summary.ranked_rules()[0][1].count
    assert widths[0] == 440
    for bar, width in zip(bars, widths, strict=True):
        assert width == pytest.approx(440 * int(bar.attrs["data-count"]) / most, abs=0.001)
    assert [link.attrs["href"] for link in chart.all("a")] == [
        f"{RULES}{rule}.html" for rule, _ in summary.ranked_rules()
    ]
    keys = page.one("svg", data_chart="key").all("rect")
    assert [(bar.attrs["data-name"], int(bar.attrs["data-count"])) for bar in keys] == list(
        summary.ranked_keys()
    )


def test_the_docs_url_is_a_keyword_and_may_lack_its_slash():
    page = html_report(audit_lines(["[]"]), docs_url="https://example.org/cr")
    assert "https://example.org/cr/rules/payload.is_object.html" in page
    assert "readthedocs" not in page


def test_the_unreadable_lines_are_listed_and_cut_after_the_first():
    page = parse(html_report(audit_lines([VALID, BROKEN, VALID] + [BROKEN] * 6)))
    section = page.one("section", id="unreadable")
    assert section.one("span", **{"class": "records"}).text == "2, 4, 5, 6, 7,\u00a0…"
    assert section.text.startswith("Unreadable lines7 lines are not JSON text (the first: 2, 4")
    one = parse(html_report(audit_lines([BROKEN])))
    assert (
        one.one("section", id="unreadable").one("p").text.startswith("1 line is not JSON text (1)")
    )


def test_an_empty_summary_gives_a_page_of_zeros_without_charts():
    page = parse(html_report(AuditSummary()))
    assert page.all("svg", **{"class": "chart"}) == []
    assert [p.text for p in page.all("p", **{"class": "none"})] == [
        "No record breaks a rule.",
        "No record breaks a rule.",
        "No record breaks a rule.",
        "None: every non-blank line is JSON text.",
    ]
    assert {
        card.one("div", **{"class": "count"}).text
        for card in page.all("div")
        if "card" in (card.attrs.get("class") or "").split()
    } == {"0"}


def test_text_from_the_data_is_escaped_everywhere():
    hostile = AuditSummary(
        lines=2,
        invalid=1,
        unreadable=1,
        unreadable_records=(2,),
        rules={f"x'>{SCRIPT}": RuleTally(1, (1,), IMAGE, f"</style>{SCRIPT}")},
        keys={SCRIPT: 1},
    )
    for summary in (hostile, audit_lines([HOSTILE])):
        page = html_report(summary, docs_url=f"https://e.org/'>{SCRIPT}")
        assert "<script" not in page.lower()
        assert "<img" not in page.lower()
        assert page.count("<style>") == page.count("</style>") == 1
        tree = parse(page)  # well nested: the data opened and closed no element
        assert tree.one("meta", http_equiv="Content-Security-Policy")
    row = parse(html_report(audit_lines([HOSTILE]))).one(
        "tr", data_rule="payload.known_members_only"
    )
    assert row.one("code", **{"class": "field"}).text == SCRIPT  # shown, as text
    rules = parse(html_report(hostile)).one("section", id="rules")
    assert [row.attrs.get("data-rule") for row in rules.all("tr")] == [None, f"x'>{SCRIPT}"]
    link = rules.one("a")
    assert (
        link.attrs["href"]
        == RULES + "x%27%3E%3Cscript%3Ewindow.pwned%20%3D%201%3C%2Fscript%3E.html"
    )


def test_no_control_character_of_the_data_reaches_the_page(tmp_path):
    """D-shown-text: U+0000 and ESC of a member name, or of any text of a summary, are escaped."""
    hostile = "x\x00\x1b[2J\u202e\ud800"
    made = AuditSummary(
        lines=1,
        invalid=1,
        rules={hostile: RuleTally(1, (1,), hostile, hostile)},
        keys={hostile: 1},
    )
    store = tmp_path / "store.jsonl"
    # The stored name holds no lone surrogate: a line with one is refused by
    # `body.strings_are_unicode`, as the server refuses it (D-audit-bytes), and names no member.
    stored = hostile.replace("\ud800", "")
    store.write_text(json.dumps({**json.loads(VALID), stored: 1}) + "\n", encoding="utf-8")
    report = tmp_path / "report.html"
    assert audit_command(str(store), "--html", str(report)).returncode == 1
    audited = report.read_text(encoding="utf-8")
    for page in (html_report(made, docs_url=hostile), audited):
        page.encode("utf-8")  # no lone surrogate either
        assert CONTROL_CHARACTERS.findall(page.replace("\n", "")) == []
    row = parse(audited).one("tr", data_rule="payload.known_members_only")
    assert row.one("code", **{"class": "field"}).text == "x\\u0000\\u001b[2J\\u202e"
    assert "x\\u0000\\u001b[2J\\u202e\ufffd" in html_report(made)


markup = st.text(st.sampled_from("<>&\"'/= ascriptimgonerror\u2028\x00`"), max_size=30)


@given(
    members=st.dictionaries(markup, st.integers(), max_size=4),
    line=markup,
    docs_url=markup,
)
def test_no_text_of_the_data_ever_makes_an_element(members, line, docs_url):
    lines = [json.dumps({**json.loads(VALID), **members}), line, json.dumps(members)]
    page = parse(html_report(audit_lines(lines), docs_url=docs_url))  # well nested, or it fails
    assert tags(page) <= TAME_TAGS


def tags(element: Element) -> set[str]:
    return {element.tag}.union(*(tags(child) for child in element.children))


# The elements of a page of tame data, in all its parts: the data must add none.
TAME_TAGS = tags(parse(html_report(audit_lines([VALID, INVALID, BROKEN, "[]", "colour"]))))


def test_the_page_of_merged_parts_is_the_page_of_the_whole():
    lines = store_lines(300, seed=12)
    parts = [audit_lines(lines[:50]), audit_lines(lines[50:51]), audit_lines(lines[51:])]
    assert html_report(merge_summaries(parts)) == html_report(audit_lines(lines))


def test_html_report_raises_type_error_only_for_the_wrong_types():
    with pytest.raises(TypeError, match="summary must be an AuditSummary, not dict"):
        html_report({"records": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="docs_url must be a str, not bytes"):
        html_report(AuditSummary(), docs_url=b"https://e.org/")  # type: ignore[arg-type]


def audit_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "campaign_rules", "audit", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def test_the_command_writes_the_report_of_its_summary(tmp_path):
    lines = [HOSTILE, *store_lines(300, seed=13)]
    store = tmp_path / "store.jsonl"
    store.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    report = tmp_path / "report.html"
    done = audit_command(str(store), "--jobs", "2", "--html", str(report), "--json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout) == audit_lines(lines).to_json()
    assert report.read_text(encoding="utf-8") == html_report(audit_lines(lines))
    other = tmp_path / "other.html"
    audit_command(str(store), "--html", str(other), "--docs-url", "https://example.org/cr/")
    assert "https://example.org/cr/rules/payload.is_object.html" in other.read_text("utf-8")


def test_the_command_says_when_it_cannot_write_the_report(tmp_path):
    store = tmp_path / "store.jsonl"
    store.write_text(VALID + "\n", encoding="utf-8")
    done = audit_command(str(store), "--html", str(tmp_path / "no" / "such" / "report.html"))
    assert done.returncode == 2
    assert re.search(r"campaign-rules: cannot write .*report\.html: ", done.stderr)


def test_no_report_is_left_for_an_audit_that_could_not_read_its_store(tmp_path):
    report = tmp_path / "report.html"
    done = audit_command(str(tmp_path / "no-such-store.jsonl"), "--html", str(report))
    assert done.returncode == 2
    assert "no-such-store.jsonl" in done.stderr
    assert not report.exists()


def test_an_output_that_cannot_be_opened_leaves_no_other_output_behind(tmp_path):
    store, rows = tmp_path / "store.jsonl", tmp_path / "rows.jsonl"
    store.write_text(VALID + "\n", encoding="utf-8")
    report = tmp_path / "no" / "such" / "report.html"
    done = audit_command(str(store), "--violations", str(rows), "--html", str(report))
    assert done.returncode == 2
    assert not rows.exists()


# --- In the headless browser (tests/browser.py) --------------------------------------------


def written_report(tmp_path: Path) -> tuple[Path, AuditSummary]:
    """A report written by a real `campaign-rules audit --html` run, and its summary."""
    lines = [HOSTILE, *store_lines(500, seed=14)]
    store = tmp_path / "store.jsonl"
    store.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    report = tmp_path / "report.html"
    done = audit_command(str(store), "--html", str(report))
    assert done.returncode == 1, done.stderr
    return report, audit_lines(lines)


def test_in_a_browser_the_bars_render_as_long_as_their_counts(browser_page, tmp_path):
    report, summary = written_report(tmp_path)
    page = browser_page.page
    page.goto(report.as_uri())
    for chart, expected in (
        ("rule", [(rule, tally.count) for rule, tally in summary.ranked_rules()]),
        ("key", summary.ranked_keys()),
    ):
        bars = page.eval_on_selector_all(
            f"svg[data-chart={chart}] rect.bar",
            "bars => bars.map(bar => [bar.dataset.name, Number(bar.dataset.count),"
            " bar.getBoundingClientRect().width, bar.getBoundingClientRect().height])",
        )
        assert [(name, count) for name, count, _, _ in bars] == expected
        scale = bars[0][2] / bars[0][1]
        assert bars[0][2] > 300  # the longest bar is drawn, and long
        for _, count, width, height in bars:
            assert width == pytest.approx(count * scale, abs=0.5)
            assert height > 10
    assert_quiet(browser_page)


def test_in_a_browser_the_rules_link_to_their_pages(browser_page, tmp_path):
    report, summary = written_report(tmp_path)
    browser_page.page.goto(report.as_uri())
    links = browser_page.page.eval_on_selector_all("a.rule", "links => links.map(a => a.href)")
    assert links == [f"{RULES}{rule}.html" for rule, _ in summary.ranked_rules()]
    labels = browser_page.page.eval_on_selector_all(
        "svg[data-chart=rule] a", "links => links.map(a => a.href.baseVal)"
    )
    assert labels == links


def test_in_a_browser_the_markup_of_a_hostile_store_is_text_and_runs_nothing(
    browser_page, tmp_path
):
    report, _ = written_report(tmp_path)
    page = browser_page.page
    page.goto(report.as_uri())
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.pwned") is None
    assert page.eval_on_selector_all("main script, main img", "found => found.length") == 0
    row = "tr[data-rule='payload.known_members_only'] code.field"
    assert page.text_content(row) == SCRIPT
    assert_quiet(browser_page)


def assert_quiet(seen: BrowserPage) -> None:
    """No console or page error, and the page loaded nothing but itself."""
    assert seen.errors == []
    assert seen.external_requests == []
    assert all(url.startswith("file:") for url in seen.requests), seen.requests


def test_the_screenshot_script_draws_the_report(tmp_path):
    reason = missing()
    if reason:
        pytest.skip(reason)
    target = tmp_path / "shot.png"
    command = [sys.executable, str(ROOT / "scripts" / "report_screenshot.py"), str(target)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    png = target.read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(png[16:20], "big") == 1240  # the width in the IHDR chunk
