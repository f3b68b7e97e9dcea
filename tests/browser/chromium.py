"""Headless Chromium for the browser tests: Debian's ``chromium`` package driven by
Playwright from PyPI (``pip install -e '.[browser]'``; ``.ci/run`` installs both).

Playwright's own browser downloads are never used (``playwright install`` cannot reach its
download host here): :func:`launch` points Playwright at ``/usr/bin/chromium`` (or
``CHROMIUM_PATH``). Playwright gives every launch a fresh, empty profile directory
(``--user-data-dir`` in a new temporary directory, removed on close) and every
``browser.new_context()`` is isolated from the others like a private window, so two
people's pages in one test share no cookie or storage.

:class:`Wire` records everything the server sends to one page: each WebSocket frame it
receives and each HTTP response body, for the secrecy checks.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
"""Chromium's command line: no sandbox (root in CI), nothing fetched from the network but
the pages the test opens; /dev/shm may be small in a container."""

ARTEFACTS = Path(os.environ.get("BROWSER_ARTEFACTS",
                                Path(__file__).resolve().parents[2] / "artefacts" / "browser"))
"""Where screenshots go (gitignored ``artefacts/browser/``; ``BROWSER_ARTEFACTS`` moves it)."""

PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def missing() -> str | None:
    """Why the browser tests cannot run here, or None: the ``playwright`` Python package
    or the Chromium executable is missing."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[browser]')"
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def launch(playwright: Any) -> Any:
    """A headless Chromium ``Browser`` on a fresh profile (see module docstring)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS,
                                      timeout=60_000)


@dataclass
class Wire:
    """What the server sent one page: ``frames`` (WebSocket text frames received, in
    order, with the socket's URL), ``bodies`` (HTTP response bodies as text, with their
    URL) and ``sent`` (WebSocket frames the page sent)."""

    frames: list[tuple[str, str]] = field(default_factory=list)
    bodies: list[tuple[str, str]] = field(default_factory=list)
    sent: list[tuple[str, str]] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    sockets: int = 0

    def only_loopback(self, route: Any) -> None:
        """A Playwright route handler: requests to 127.0.0.1 go on, any other is aborted
        and its URL kept in ``outside``."""
        url = route.request.url
        if urlparse(url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def attach(self, page: Any) -> Wire:
        """Start recording ``page`` (call before its first navigation)."""
        page.on("websocket", self._socket)
        page.on("response", self._response)
        return self

    def _socket(self, ws: Any) -> None:
        self.sockets += 1
        url = ws.url
        ws.on("framereceived", lambda payload: self.frames.append((url, _text(payload))))
        ws.on("framesent", lambda payload: self.sent.append((url, _text(payload))))

    def _response(self, response: Any) -> None:
        try:
            body = response.body()
        except Exception as err:  # a redirect or a response the page dropped: no body
            body = f"<no body: {type(err).__name__}>".encode()
        self.bodies.append((response.url, body.decode("utf-8", "replace")))

    def texts(self) -> list[str]:
        """Every frame and body received, as text."""
        return [t for _, t in self.frames] + [t for _, t in self.bodies]


def _text(payload: Any) -> str:
    return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)


def screenshot(page: Any, name: str, full_page: bool = False) -> Path:
    """Save a PNG of ``page`` as ``ARTEFACTS/<name>.png`` (the viewport, or the whole
    page), print and return its path."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    print(f"browser artefact: {path}")
    return path
