"""The documentation site, tested like code (D-docs-site).

- It builds with the README's command, as written (`sphinx-build -W --keep-going -n`): every
  warning, a broken reference included, fails the build. Built in a copy that git tracks as a
  clone would, it leaves `git status` empty: what it generates is listed in `docs/.gitignore`
  and never committed.
- Every rule of the table has its generated page, with its key, citation, decisions, code and
  cases, and the three indexes lead to it.
- It renders in a headless Chromium (`tests/browser.py`): the index, a rule page and the API
  reference, with no console error and no request that leaves the machine; its search finds a
  rule by its id.
- Sybil runs the examples of its pages and of the README (`tests/doc_examples.py`); the shell
  sessions' runner is tested here too.

The build needs the `docs` extra, the browser Debian's `chromium` package; without them these
tests are skipped, and say which.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from campaign_rules._export.clauses import anchor_of, cited_clauses, clauses
from campaign_rules.schema import catalogue
from tests.browser import BrowserPage
from tests.doc_examples import (
    ROOT,
    SHELL_LANGUAGES,
    console_commands,
    fenced_blocks,
    output_pattern,
    readme_commands_module,
    run_console,
    scratch_repository,
)

DOCS = ROOT / "docs"
EXAMPLE_RULE = "retries.within_bounds"


def needs_the_docs_extra() -> None:
    for module in ("sphinx", "myst_parser", "furo", "sybil"):
        pytest.importorskip(module, reason=f"the docs extra is not installed (no {module})")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strictly by the README's command as written; its HTML directory.

    The command runs in a scratch copy of the repository, whose `.venv` is this environment
    (tests/test_shell_blocks.py lists the block as run here).
    """
    needs_the_docs_extra()
    [command] = [
        block.text.strip()
        for block in fenced_blocks(ROOT / "README.md")
        if block.language == "sh" and block.text.startswith(".venv/bin/sphinx-build ")
    ]
    copy = scratch_repository(tmp_path_factory.mktemp("site"))
    committed_as_a_clone_holds_it(copy)
    built = subprocess.run(
        ["bash", "-e", "-c", command],
        cwd=copy,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    assert built.stderr == "", built.stderr
    assert {"-W", "-n"} <= set(command.split())  # strict: a warning or a broken reference fails
    return copy / command.split()[-1]


def git(folder: Path, *arguments: str, data: bytes = b"") -> bytes:
    """What `git ARGUMENTS` prints in `folder`; it must succeed."""
    return subprocess.run(
        ["git", "-C", str(folder), *arguments], input=data, capture_output=True, check=True
    ).stdout


def committed_as_a_clone_holds_it(copy: Path) -> None:
    """Make the scratch copy a git repository that holds what a clone of this tree holds.

    Every file this tree tracks is tracked there, those that a `.gitignore` lists too (`git add
    -f`: a clone has them), with the files not yet added that no `.gitignore` lists; all of it
    committed, so that `git status` names what the build then changes. Nothing happens when this
    tree is no git repository (an unpacked sdist) or git is missing.
    """
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return
    tracked = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    present = b"\0".join(
        name for name in tracked.split(b"\0") if name and (copy / name.decode()).exists()
    )
    git(copy, "init", "-q")
    # The copy's `.venv` is a link to the environment running the tests, which a clone lacks.
    (copy / ".git" / "info" / "exclude").write_text("/.venv\n", encoding="utf-8")
    added = ("--literal-pathspecs", "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul")
    git(copy, *added, data=present)
    identity = ("-c", "user.name=tests", "-c", "user.email=tests@example.invalid")
    git(copy, *identity, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "the tree")


def test_building_the_site_leaves_a_clone_s_tree_clean(site: Path) -> None:
    # The build writes its pages (the rule pages, the traceability page) beside the sources, in
    # files that `docs/.gitignore` lists and the repository does not track.
    copy = site.parents[2]
    if not (copy / ".git").is_dir():
        pytest.skip("this tree is no git repository, or git is missing")
    assert (copy / "docs" / "traceability.md").is_file()
    assert git(copy, "status", "--porcelain", "--untracked-files=all").decode() == ""
    assert git(copy, "ls-files", "docs/traceability.md", "docs/rules") == b""


def text_of(page: Path) -> str:
    """A built page's text, without its tags, entities decoded, quotes straight again."""
    text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
    return text.translate(str.maketrans("‘’“”", "''\"\""))


def shows(text: str, markdown: str) -> bool:
    """Whether a page's text shows the first ten words of some Markdown, as rendered."""
    return re.search(r"\W+".join(re.findall(r"\w+", markdown)[:10]), text) is not None


# The build and the generated pages


def test_every_rule_has_a_page_with_its_decisions_code_and_cases(site: Path) -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from rule_pages import cited_decisions, decisions, table_rules
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    known = decisions()
    rules = table_rules()
    infos = catalogue()
    assert len(infos) == len(rules) > 60
    for info in infos:
        text = text_of(site / "rules" / f"{info.id}.html")
        assert info.key.value in text, info.id
        assert info.source in text, info.id
        rule = rules[info.id]
        if rule.constraint is None:
            assert f"def {rule.check.__name__}(" in text, info.id
        else:  # a row: its pointers and its keyword checks' classes
            assert all(pointer in text for pointer in rule.pointers), info.id
            assert "class Keyword" in text, info.id
        assert "Its gates" in text, info.id
        assert f"tests/cases/{info.id}.json" in text, info.id
        assert "Accepted (" in text, info.id
        assert "Refused (" in text, info.id
        for name in cited_decisions(info.source):
            heading, decision = known[name]
            assert shows(text, heading), (info.id, name)
            assert shows(text, decision), (info.id, name)


def test_the_indexes_lead_to_every_rule(site: Path) -> None:
    for index in ("index", "by-decision", "by-key"):
        page = (site / "rules" / f"{index}.html").read_text(encoding="utf-8")
        linked = set(re.findall(r'href="([\w.]+)\.html', page))
        missing = {info.id for info in catalogue()} - linked
        assert not missing, (index, missing)


def test_a_rule_page_shows_a_refused_case_with_its_violation(site: Path) -> None:
    text = text_of(site / "rules" / f"{EXAMPLE_RULE}.html")
    # The case file's own titles: a bound changed in `limits` and the oracle changes none here.
    cases = json.loads((ROOT / "tests" / "cases" / f"{EXAMPLE_RULE}.json").read_text("utf-8"))
    titles: dict[bool, str] = {}
    for case in cases["cases"]:
        titles.setdefault(bool(case["violations"]), case["title"])
    refused = text[text.index("Refused (") :]
    assert titles[True] in refused
    assert f"{EXAMPLE_RULE}INVALID_REQUESTretries" in re.sub(r"\s+", "", refused)
    accepted = text[text.index("Accepted (") : text.index("Refused (")]
    assert titles[False] in accepted
    assert "No violation: accepted." in accepted


def test_the_extension_reads_the_citations_with_the_library() -> None:
    needs_the_docs_extra()  # the extension imports Sphinx
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from rule_pages import cited_decisions
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    cited = "spec 2.2-2.6, 4.1 rule 3, 5; D-tolerant-reading, D-integral-floats"
    assert cited_decisions(cited) == ["D-tolerant-reading", "D-integral-floats"]


# The spec, its clauses' anchors and the citations that link to them (issue 31)


def anchors_linked(page: Path) -> set[str]:
    """The anchors of spec.html that a built page links to."""
    return set(re.findall(r'href="(?:\.\./)?spec\.html#(spec-[\w-]+)"', page.read_text("utf-8")))


def test_the_spec_page_shows_the_spec_with_an_anchor_per_clause(site: Path) -> None:
    page = (site / "spec.html").read_text(encoding="utf-8")
    for clause in clauses():
        assert f'id="{clause.anchor}"' in page, clause.id
    text = text_of(site / "spec.html")
    for clause in clauses():
        shown = re.sub(r"^\d+\. ", "", clause.text, flags=re.M)  # a list's numbers are not text
        assert shows(text, shown or clause.title), clause.id


def test_every_rule_page_links_to_a_clause(site: Path) -> None:
    anchors = {clause.anchor for clause in clauses()}
    for info in catalogue():
        linked = anchors_linked(site / "rules" / f"{info.id}.html")
        assert linked, info.id
        assert linked <= anchors, info.id
        for clause_id in cited_clauses(info.source):
            assert anchor_of(clause_id) in linked, (info.id, clause_id)


def test_the_citations_of_the_decisions_link_to_their_clauses(site: Path) -> None:
    linked = anchors_linked(site / "decisions.html")
    assert {"spec-2-4-rule-3", "spec-4-1-rule-1", "spec-5-rule-3", "spec-7-2"} <= linked


def test_the_traceability_page_lists_every_clause_with_what_answers_it(site: Path) -> None:
    page = site / "traceability.html"
    assert anchors_linked(page) == {clause.anchor for clause in clauses()}
    text = text_of(page)
    for item in trace_of_the_repository():
        assert shows(text, f"{item.clause.id}: {item.clause.headline}"), item.clause.id
        if item.reason:
            assert shows(text, item.reason), item.clause.id
    assert "unanswered" not in text
    rule_3 = text[text.index("2.4 rule 3: When cycles.mode is cooldown") :]
    assert "cycles.cooldown_mode_has_no_schedule" in rule_3[:600]


def trace_of_the_repository() -> Any:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from traceability import traces
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    return traces()


# The front door (issue 31)


def test_the_front_page_example_prints_what_the_page_says(site: Path) -> None:
    blocks = fenced_blocks(DOCS / "index.md")
    [install] = [block for block in blocks if block.language == "sh"]
    assert "pip install" in install.text
    [example] = [block for block in blocks if block.language == "python"]
    [printed] = [block for block in blocks if block.language == "text"]
    assert len([line for line in example.text.splitlines() if line.strip()]) <= 10
    done = subprocess.run(
        [sys.executable, "-c", example.text], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout == printed.text


def test_the_command_line_page_has_a_table_of_every_option(site: Path) -> None:
    from campaign_rules._cli.commands import _parser

    text = text_of(site / "cli.html")
    _, commands = _parser()
    for name, command in commands.choices.items():
        assert f"campaign-rules {name}" in text
        for action in command._actions:
            for option in action.option_strings:
                assert option in text, (name, option)


def test_the_benchmark_charts_are_drawn_from_the_results(site: Path) -> None:
    page = (site / "why.html").read_text(encoding="utf-8")
    assert page.count('<svg class="benchmark-chart"') == 1
    assert "campaign-rules, compiled, realistic valid: 0.51x" in html.unescape(page)
    benchmarks = (site / "benchmarks" / "index.html").read_text(encoding="utf-8")
    assert benchmarks.count('<svg class="benchmark-chart"') == 1


def test_an_offline_report_links_to_the_built_site(site: Path) -> None:
    from urllib.parse import unquote, urlparse

    from campaign_rules.audit import audit_lines, html_report

    summary = audit_lines(["[]", '{"name": 7}', "{}"])
    page = html_report(summary, docs_url=site.as_uri() + "/")
    links = set(re.findall(r"href='(file://[^']+)'", page))
    assert len(links) > 3
    for link in links:
        path = Path(unquote(urlparse(html.unescape(link)).path))
        assert path.is_file() or (path / "index.html").is_file(), link


def test_every_page_links_to_its_source(site: Path) -> None:
    for page in ("index", "spec", "traceability", "why", f"rules/{EXAMPLE_RULE}"):
        built = (site / f"{page}.html").read_text(encoding="utf-8")
        [link] = re.findall(r'<div class="view-this-page">\s*<a[^>]*href="([^"]+)"', built)
        assert link.endswith(f"_sources/{page}.md.txt"), (page, link)
        assert (site / "_sources" / f"{page}.md.txt").is_file()


# The runner of the shell sessions


def test_a_console_block_is_split_into_commands_and_their_output() -> None:
    block = "$ echo one\none\n$ echo $?\n0\n"
    assert console_commands(block) == [("echo one", ["one"]), ("echo $?", ["0"])]
    with pytest.raises(ValueError, match="output before the first command"):
        console_commands("stray\n$ true\n")


def test_an_ellipsis_stands_for_lines_or_text() -> None:
    pattern = output_pattern(["first", "...", "last (...)"])
    assert pattern.fullmatch("first\nlast (pure Python)\n")
    assert pattern.fullmatch("first\n2\n3\nlast (x)\n")
    assert not pattern.fullmatch("first\nlast\n")


def test_a_console_block_fails_when_its_output_differs() -> None:
    assert run_console("$ printf 'a\\nb\\n'\na\nb\n") is None
    assert run_console("$ false\n$ echo $?\n1\n") is None
    failure = run_console("$ echo 2\n3\n")
    assert failure is not None
    assert "expected:\n3\ngot:\n2\n" in failure


def test_sybil_collects_the_examples_of_the_readme_and_the_site() -> None:
    needs_the_docs_extra()
    collected = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"),
            *("README.md", "docs/getting-started.md", "docs/guides/server-checks.md"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    items = collected.stdout.splitlines()
    for page in ("README.md", "docs/getting-started.md", "docs/guides/server-checks.md"):
        assert any(item.startswith(f"{page}::line:") for item in items), (page, items)


# In a headless Chromium


def visit(browser_page: BrowserPage, page: Path) -> Any:
    browser_page.page.goto(page.as_uri())
    browser_page.page.wait_for_load_state("load")
    return browser_page.page


def assert_clean(browser_page: BrowserPage) -> None:
    assert browser_page.errors == []
    assert browser_page.external_requests == []


def test_the_index_renders(site: Path, browser_page: BrowserPage) -> None:
    page = visit(browser_page, site / "index.html")
    assert page.locator("h1").first.inner_text().startswith("campaign-rules")
    assert page.locator("a", has_text="Getting started").first.is_visible()
    assert page.locator("a", has_text="The rules").first.is_visible()
    assert_clean(browser_page)


def test_a_rule_page_renders(site: Path, browser_page: BrowserPage) -> None:
    page = visit(browser_page, site / "rules" / f"{EXAMPLE_RULE}.html")
    assert page.locator("h1").first.inner_text().startswith(EXAMPLE_RULE)
    code = page.locator("div.highlight-python pre").first
    assert code.is_visible()
    assert "class IntegerRange(" in code.inner_text()
    assert page.locator("h3", has_text="Refused").first.is_visible()
    assert_clean(browser_page)


def test_the_api_reference_renders(site: Path, browser_page: BrowserPage) -> None:
    page = visit(browser_page, site / "api.html")
    entry = page.locator('[id="campaign_rules.validate_create"]')
    assert entry.is_visible()
    assert "validate_create" in entry.inner_text()
    assert page.locator('[id="campaign_rules.rate.RateLimiter"]').is_visible()
    assert_clean(browser_page)


def test_the_search_finds_a_rule_by_its_id(site: Path, browser_page: BrowserPage) -> None:
    page = browser_page.page
    page.goto(f"{(site / 'search.html').as_uri()}?q={EXAMPLE_RULE}")
    results = page.locator("ul.search li a")
    results.first.wait_for(timeout=15_000)
    links = [results.nth(n).get_attribute("href") or "" for n in range(results.count())]
    assert links[0].startswith(f"rules/{EXAMPLE_RULE}.html"), links
    assert_clean(browser_page)


def test_the_spec_page_renders_and_shows_a_clause(site: Path, browser_page: BrowserPage) -> None:
    page = visit(browser_page, site / "spec.html")
    assert page.locator("h1").first.inner_text().startswith("The interface document")
    rule = page.locator("li#spec-2-4-rule-3")
    assert rule.is_visible()
    assert "`cooldown`" not in rule.inner_text()
    assert rule.inner_text().startswith("When cycles.mode is cooldown")
    assert_clean(browser_page)


def test_a_rule_pages_clause_link_opens_its_clause(site: Path, browser_page: BrowserPage) -> None:
    rule = "cycles.cooldown_mode_has_no_schedule"
    page = visit(browser_page, site / "rules" / f"{rule}.html")
    page.locator("#the-clause-it-enforces a", has_text="spec 2.4 rule 3").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("spec.html#spec-2-4-rule-3")
    target = page.locator("li#spec-2-4-rule-3")
    assert target.is_visible()
    assert target.evaluate("element => element.matches(':target')")
    # Furo scrolls smoothly: the clause comes into the window when the scroll ends.
    page.wait_for_function(
        "() => { const top = document.getElementById('spec-2-4-rule-3')"
        ".getBoundingClientRect().top; return top >= 0 && top < window.innerHeight / 2; }",
        timeout=10_000,
    )
    assert_clean(browser_page)


def test_the_traceability_page_renders(site: Path, browser_page: BrowserPage) -> None:
    page = visit(browser_page, site / "traceability.html")
    assert page.locator("h1").first.inner_text().startswith("Traceability")
    rows = page.locator("table tbody tr")
    assert rows.count() == len(clauses())
    page.locator("table a", has_text="spec 4.1 rule 2").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("spec.html#spec-4-1-rule-2")
    assert_clean(browser_page)


# How many runs of text of an element (its text nodes) a browser broke over two lines or more.
MID_WORD_BREAKS = """element => {
  let broken = 0;
  for (const node of element.childNodes) {
    if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (tops.size > 1) broken += 1;
  }
  return broken;
}"""


def test_long_rule_ids_and_code_fit(site: Path, browser_page: BrowserPage) -> None:
    rule = "cycles.filter_items_are_non_empty_strings"
    page = visit(browser_page, site / "rules" / f"{rule}.html")
    # The title and the sidebar break a rule id after a dot or an underscore only: each run of
    # text between two <wbr> is on one line.
    for selector in ("article h1", ".sidebar-tree a.current"):
        element = page.locator(selector).first
        assert element.inner_text().startswith(rule)
        assert element.evaluate(MID_WORD_BREAKS) == 0, selector
    assert page.locator("article h1").first.evaluate("e => e.getClientRects().length") >= 1
    # A code block wider than the page scrolls sideways instead of being cut off, and a rule's
    # source of 100 columns fits the page whole.
    for block in page.locator("div.highlight pre").all():
        overflow = block.evaluate("element => getComputedStyle(element).overflowX")
        assert overflow in ("auto", "scroll")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from rule_pages import check_code, table_rules
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    widest = {
        rule_id: max(len(line) for line in check_code.code_of(rule)[0][0].source.splitlines())
        for rule_id, rule in table_rules().items()
    }
    # The rules whose source is widest but within the 100 columns: the others fit if they do.
    for rule_id in sorted(widest, key=lambda rule_id: -widest[rule_id] * (widest[rule_id] <= 100))[
        :4
    ]:
        visit(browser_page, site / "rules" / f"{rule_id}.html")
        # A line of more than the source's 100 columns (a pragma's comment) may scroll.
        fits = page.locator(".rule-source pre").first.evaluate(
            "element => Math.max(...element.innerText.split('\\n').map((line) => line.length))"
            " > 100 || element.scrollWidth <= element.clientWidth"
        )
        assert fits, rule_id
    assert_clean(browser_page)


# The README's set-up commands, as CI reads them (scripts/readme_commands.py, .ci/run)


def test_ci_reads_the_two_set_up_commands_of_the_readme() -> None:
    printed = subprocess.run(
        [sys.executable, "scripts/readme_commands.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(printed) == 2
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in printed:
        assert f"```sh\n{command}\n```" in readme
    assert printed[0].endswith(".venv/bin/campaign-rules check examples/phone_call.json")
    assert printed[1].endswith(".venv/bin/python -m pytest -n auto --dist loadfile")
    assert "docs" in printed[1]  # the whole suite: the site's build and examples too


def test_a_readme_without_its_set_up_commands_is_refused() -> None:
    module = readme_commands_module()
    with pytest.raises(ValueError, match="no section"):
        module.set_up_commands("# Title\n\n## Install\n\n```sh\npip install x\n```\n")
    with pytest.raises(ValueError, match="one-line sh blocks"):
        module.set_up_commands("## Set-up\n\n```sh\npip install x\n```\n\n## Next\n")
    later = "## Set-up\n\n```sh\na\n```\n\n```sh\nb\n```\n\n## Later\n\n```sh\nc\n```\n"
    assert module.set_up_commands(later) == ["a", "b"]


# Commands as written: with the set-up's environment


def shell_lines() -> list[tuple[str, str]]:
    """Each command line of the shell blocks (`sh`, `console`...) of the README and the pages."""
    from docs.conftest import NOT_HERE, PAGES

    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md"]
    pages += [
        page
        for pattern in PAGES
        for page in sorted(ROOT.glob(pattern))
        if not any(page.relative_to(ROOT).match(skipped) for skipped in NOT_HERE)
    ]
    found = []
    for page in pages:
        for block in fenced_blocks(page):
            if block.language not in SHELL_LANGUAGES:
                continue
            for line in block.text.splitlines():
                if block.language == "console" and not line.startswith("$ "):
                    continue
                found.append((block.page, line.removeprefix("$ ")))
    return found


def test_every_command_runs_in_the_set_up_environment() -> None:
    # A bare `python`, `pip` or `campaign-rules` is not on the PATH of a fresh clone: the
    # set-up installs into .venv, so a command names .venv/bin/ (or makes its own venv).
    lines = shell_lines()
    assert len(lines) > 20
    bare = re.compile(r"(?:^|&&|\||;|\$\()\s*(?:python|pip|campaign-rules)\b")
    wrong = [(page, line) for page, line in lines if bare.search(line)]
    assert wrong == []
    assert bare.search("python benchmarks/audit.py")
    assert bare.search("cat x | campaign-rules check -")
    assert not bare.search(".venv/bin/python benchmarks/audit.py")
    assert not bare.search("python3 -m venv .venv && .venv/bin/pip install -e .")
