"""The tests' headless browser: Playwright for Python driving the system's Chromium.

Chromium is Debian's `chromium` package (`apt-get install -y chromium`, at `/usr/bin/chromium`;
`CAMPAIGN_RULES_CHROMIUM` names another binary), launched through Playwright's
`executable_path`: no browser is ever downloaded (`playwright install` is never run). Where
Chromium or the `playwright` package (the `test` extra) is missing, the fixtures skip and say
which.

Use the `browser_page` fixture (imported by `tests/conftest.py`, so every test may ask for it):

    def test_page(browser_page: BrowserPage) -> None:
        browser_page.page.goto(path.as_uri())
        assert browser_page.errors == []

It is a fresh page that records the console errors, the uncaught page errors and every request
the page makes; a request for anything but a local file (`file:`, `data:`, `blob:`, `about:`)
is aborted and listed in `external_requests`, so a test never reaches the network and can
assert that a page needs none. `screenshot` writes a page to a PNG file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, Route

__all__ = [
    "CHROMIUM",
    "LOCAL_SCHEMES",
    "BrowserPage",
    "browser_page",
    "chromium",
    "launch",
    "missing",
    "screenshot",
]

CHROMIUM = Path(os.environ.get("CAMPAIGN_RULES_CHROMIUM", "/usr/bin/chromium"))
# Chromium's sandbox needs user namespaces, which a root process in a container does not get.
ARGUMENTS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
# What a page may load without the network.
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


def missing() -> str | None:
    """Why the browser cannot run here (what to install), or None when it can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return f"Debian package chromium is not installed (no {CHROMIUM}): apt-get install chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed: pip install -e '.[test]'"
    return None


def launch(playwright: Any) -> Browser:
    """Start the system's headless Chromium with a Playwright instance (`sync_playwright()`)."""
    browser: Browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=ARGUMENTS
    )
    return browser


@dataclass
class BrowserPage:
    """A page, with what it reported while a test drove it."""

    page: Page
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """The console errors and the uncaught page errors, together."""
        return self.console_errors + self.page_errors


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One headless Chromium per test module; skips, naming what is missing, where it cannot.

    Not one for the session: while `sync_playwright()` runs, its event loop is the thread's
    running loop, so `asyncio.run` in any later module of the session would fail.
    """
    reason = missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(chromium: Browser) -> Iterator[BrowserPage]:
    """A fresh page in its own context that records errors and requests, and never goes out."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    seen = BrowserPage(page)

    def on_console(message: Any) -> None:
        if message.type == "error":
            seen.console_errors.append(message.text)

    def on_route(route: Route, request: Request) -> None:
        if request.url.startswith(LOCAL_SCHEMES):
            route.continue_()
        else:
            seen.external_requests.append(request.url)
            route.abort()

    page.on("console", on_console)
    page.on("pageerror", lambda error: seen.page_errors.append(str(error)))
    page.on("request", lambda request: seen.requests.append(request.url))
    context.route("**/*", on_route)
    try:
        yield seen
    finally:
        context.close()


def screenshot(page: Page, path: Path, *, full_page: bool = True) -> Path:
    """Write what `page` shows to the PNG file `path` (the whole page, unless told not to)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, type="png")
    return path
