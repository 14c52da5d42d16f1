"""A real Chromium for the Mini App's tests: Debian's `chromium` package (`apt-get install chromium`; `.ci/run`
installs it) driven by Playwright, which never downloads a browser of its own here (`playwright install` is not
run). A test asks for `page_at(width)` and saves what it shows with `screenshot(page)`: the PNGs are the tests'
artifacts, in test-artifacts/browser/ at the repository's root (git-ignored), named `<test>-<width>.png`. Without
the browser every test here skips, saying how to get it."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Protocol

import pytest
from playwright.async_api import Browser, Page, async_playwright

LIGHT_THEME = {  # Telegram's theme params as a light client sends them
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f1f1f1",
}
DARK_THEME = {  # and a dark one
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# Debian's launcher script (it reads /etc/chromium.d); CHROMIUM names another binary of Chromium or Chrome.
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
# The widths the Mini App is drawn at: a phone's (a Telegram WebView on Android, 360 CSS pixels) and a desktop's.
PHONE, DESKTOP = 360, 1280
HEIGHTS = {PHONE: 740, DESKTOP: 800}
# What a file name keeps of a test's name (its parameters in brackets among it).
UNSAFE = re.compile(r"[^\w.\[\]-]+")
ARGS = [
    "--disable-gpu",  # CI has none
    # Docker's /dev/shm is 64 MB, which a renderer outgrows; Debian's launcher means to add this flag itself when
    # /dev/shm is small, but its test of the free space is not reliable.
    "--disable-dev-shm-usage",
]


class PageAt(Protocol):
    def __call__(self, width: int) -> Awaitable[Page]: ...


class Screenshot(Protocol):
    def __call__(self, page: Page, step: str = "") -> Awaitable[Path]: ...


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Headless Chromium from the Debian binary; skips the test when there is none."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: `apt-get install chromium` (Debian; .ci/run does it as root), "
            "or set CHROMIUM to a Chromium binary"
        )
    async with async_playwright() as playwright:
        # No sandbox: CI runs as root, where Chromium refuses to start with one.
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, chromium_sandbox=False, args=ARGS
        )
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture
async def page_at(browser: Browser) -> AsyncIterator[PageAt]:
    """Opens a blank page at a viewport `width` CSS pixels wide, one device pixel each (a screenshot is as wide);
    narrower than 600 it is a phone's: mobile layout (the page's viewport meta tag counts) and touch."""
    contexts = []

    async def open_page(width: int) -> Page:
        phone = width < 600
        context = await browser.new_context(
            viewport={"width": width, "height": HEIGHTS.get(width, 800)},
            device_scale_factor=1,
            is_mobile=phone,
            has_touch=phone,
        )
        contexts.append(context)
        return await context.new_page()

    yield open_page
    for context in contexts:
        await context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Screenshot:
    """Saves the whole page to test-artifacts/browser/<test>-<width>[-<step>].png and returns the path; a file of
    an earlier run by that name is removed first, so a path returned is this run's."""

    async def save(page: Page, step: str = "") -> Path:
        viewport = page.viewport_size
        assert viewport is not None, "a page from page_at has a viewport"
        name = "-".join(part for part in (request.node.name, str(viewport["width"]), step) if part)
        path = ARTIFACTS / (UNSAFE.sub("_", name) + ".png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        await page.screenshot(path=path, full_page=True)
        return path

    return save
