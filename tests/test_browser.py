"""The headless-browser helper itself: it sees errors, keeps pages off the network, draws PNGs."""

from pathlib import Path

from tests.browser import BrowserPage, screenshot

NOISY = """<!doctype html><html><head><meta charset="utf-8"><title>t</title></head>
<body><p id="p">hello</p>
<script>
console.error("logged on purpose");
fetch("https://example.com/beacon").catch(() => {});
</script>
<script>undefinedFunction();</script>
</body></html>
"""


def open_page(browser_page: BrowserPage, path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    browser_page.page.goto(path.as_uri())
    browser_page.page.wait_for_load_state("networkidle")


def test_the_page_records_console_and_page_errors(
    browser_page: BrowserPage, tmp_path: Path
) -> None:
    open_page(browser_page, tmp_path / "page.html", NOISY)
    assert browser_page.page.text_content("#p") == "hello"
    assert browser_page.console_errors[0] == "logged on purpose"
    assert any("undefinedFunction" in error for error in browser_page.page_errors)
    assert browser_page.errors[0] == "logged on purpose"


def test_a_request_that_leaves_the_machine_is_aborted_and_listed(
    browser_page: BrowserPage, tmp_path: Path
) -> None:
    open_page(browser_page, tmp_path / "page.html", NOISY)
    assert browser_page.external_requests == ["https://example.com/beacon"]
    assert (tmp_path / "page.html").as_uri() in browser_page.requests


def test_a_quiet_local_page_reports_nothing(browser_page: BrowserPage, tmp_path: Path) -> None:
    open_page(browser_page, tmp_path / "quiet.html", "<!doctype html><title>q</title><p>quiet</p>")
    assert browser_page.errors == []
    assert browser_page.external_requests == []


def test_screenshot_writes_a_png(browser_page: BrowserPage, tmp_path: Path) -> None:
    browser_page.page.set_content("<p style='font-size:40px'>picture</p>")
    written = screenshot(browser_page.page, tmp_path / "deep" / "shot.png")
    assert written.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
