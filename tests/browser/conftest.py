"""Fixtures of the browser tests (each module sets the marker ``browser``): one
headless Chromium per test module, a fresh isolated context per person, and the
harnesses of the other end-to-end suites (``tests/e2e`` for the Telegram emulator,
``tests/discord`` for the fake Discord).

Outside CI a machine without Chromium or the ``playwright`` package skips these tests with
the reason; with ``CI`` set (``.ci/run``) they fail instead, since CI installs both.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for harness in (HERE.parent / "e2e", HERE.parent / "discord"):
    if str(harness) not in sys.path:
        sys.path.insert(0, str(harness))

import chromium  # noqa: E402


def _require_browser() -> None:
    why = chromium.missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Debian's), shared by the tests of one module."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = chromium.launch(playwright)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Open pages in fresh contexts: ``new_page(viewport=chromium.PHONE, locale="pt-BR")``
    returns ``(page, wire)``; every context is closed after the test. A request to any
    host but the loopback is refused and listed in ``wire.outside`` (the page must work
    with nothing from outside the bot's own server)."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None, locale: str = "pt-BR") -> Any:
        context = browser.new_context(viewport=viewport or chromium.PHONE, locale=locale)
        contexts.append(context)
        wire = chromium.Wire()
        context.route("**/*", wire.only_loopback)
        page = context.new_page()
        return page, wire.attach(page)

    yield make
    for context in contexts:
        context.close()
