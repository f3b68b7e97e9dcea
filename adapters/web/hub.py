"""The open web tables of one worker and their live updates (DESIGN "The web table").

Every save announces "game G is at version V" (:meth:`bot.ports.GameStore.announce`);
the hub follows the games it holds a page for (one :class:`bot.ports.VersionFeed`), and
on an announcement reads the game once and sends each of its pages that seat's view
(:func:`bot.webview.web_view`) when the page shows an older version. A page that
connects, or reconnects with the version it has, gets the current view at once. Nothing
about a game lives only here: a missed announcement (a dropped feed, a worker that died
between its save and the announcement) is made good by reading every followed game
again after a feed error and every :data:`RESYNC_S` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.model import CorruptGame, Game, decode
from bot.ports import GameStore, VersionFeed
from bot.webview import web_view

log = logging.getLogger(__name__)
RESYNC_S = 10.0
"""Every followed game is read again this often (a missed announcement shows late, not
never)."""
FEED_WAIT_S = 0.5
"""Longest wait for one announcement (and for the listener to stop)."""


@dataclass(eq=False)
class Page:
    """One open web table: ``send`` writes a text frame to it; ``key`` the person's
    platform key (``"tg:42"``), ``game`` the game it shows, ``version`` the version it
    was last sent (0: none yet)."""

    send: Callable[[str], Awaitable[None]]
    key: str
    game: str
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def seat_of(game: Game, key: str) -> int | None:
    """The seat of the person with platform key ``key`` in ``game``, or None."""
    for i, seat in enumerate(game.seats):
        if seat.player is not None and seat.player.key == key:
            return i
    return None


def view_frame(game: Game, version: int, key: str, now: float) -> str:
    """The ``view`` message of ``game`` at ``version`` for the person ``key``."""
    return json.dumps({"type": "view", "version": version, "now": now,
                       "view": web_view(game, seat_of(game, key))}, ensure_ascii=False)


GONE_FRAME = json.dumps({"type": "gone"})


class Hub:
    """The pages of one store's games on this worker, kept up to date."""

    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.pages: dict[str, set[Page]] = {}
        self.feed: VersionFeed = store.version_feed()
        self._busy: dict[str, bool] = {}  # game -> another refresh is asked for
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start following the announcements (in the running loop)."""
        self._task = asyncio.get_running_loop().create_task(self._listen())

    async def close(self) -> None:
        """Stop following (within :data:`FEED_WAIT_S`: the listener is not cancelled in
        the middle of a read, which some clients do not survive) and close the feed;
        the pages are the server's to close."""
        self._stopping = True
        if self._task is not None:
            await self._task
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.feed.close()

    async def add(self, page: Page) -> None:
        """Hold ``page`` and send it the current view at once."""
        pages = self.pages.setdefault(page.game, set())
        pages.add(page)
        if len(pages) == 1:
            await self.feed.follow(page.game)
        await self.refresh(page.game, only=page)

    async def remove(self, page: Page) -> None:
        """Forget ``page`` (its connection closed)."""
        pages = self.pages.get(page.game)
        if pages is None:
            return
        pages.discard(page)
        if not pages:
            del self.pages[page.game]
            with contextlib.suppress(Exception):
                await self.feed.drop(page.game)

    async def refresh(self, gid: str, only: Page | None = None) -> None:
        """Read game ``gid`` once and send each of its pages (or ``only``) the view it
        does not have yet. Announcements arriving meanwhile run it once more after."""
        if only is None and gid in self._busy:
            self._busy[gid] = True
            return
        if only is None:
            self._busy[gid] = False
        try:
            while True:
                await self._send_current(gid, only)
                if only is not None or not self._busy.get(gid):
                    return
                self._busy[gid] = False
        finally:
            if only is None:
                self._busy.pop(gid, None)

    async def _send_current(self, gid: str, only: Page | None) -> None:
        try:
            got = await self.store.load_game(gid)
            game = decode(got[1], gid) if got is not None else None
        except CorruptGame:
            got, game = None, None
        pages = [only] if only is not None else list(self.pages.get(gid, ()))
        frames: dict[str, str] = {}
        for page in pages:
            if got is None or game is None:
                await self._send(page, GONE_FRAME, 0, True)
                continue
            if only is None and page.version >= got[0]:
                continue
            frame = frames.get(page.key)
            if frame is None:
                frame = frames[page.key] = view_frame(game, got[0], page.key, self.clock())
            await self._send(page, frame, got[0], only is not None)

    async def _send(self, page: Page, frame: str, version: int, again: bool) -> None:
        """Send ``frame`` (of ``version``) unless the page got a newer one meanwhile (or
        this very one, unless ``again``: a hello gets its view even when current)."""
        try:
            async with page.lock:
                if version < page.version or (version == page.version and not again):
                    return
                page.version = max(page.version, version)
                await page.send(frame)
        except Exception as err:  # a page that went away: its handler removes it
            log.debug("web page of game %s: send failed (%s)", page.game,
                      type(err).__name__)

    async def _listen(self) -> None:
        """Follow the feed; refresh each announced game; read every game again after a
        feed error and every :data:`RESYNC_S` seconds."""
        loop = asyncio.get_running_loop()
        resync_at = loop.time() + RESYNC_S
        while not self._stopping:
            await asyncio.sleep(0)  # never hold the loop, whatever the feed does
            try:
                got = await self.feed.next(FEED_WAIT_S)
            except Exception as err:
                log.warning("web feed failed (%s): reading the open games again",
                            type(err).__name__)
                await asyncio.sleep(FEED_WAIT_S)
                got, resync_at = None, loop.time()
            if got is not None:
                self._spawn(self.refresh(got[0]))
            if loop.time() >= resync_at:
                resync_at = loop.time() + RESYNC_S
                for gid in list(self.pages):
                    self._spawn(self.refresh(gid))

    def _spawn(self, job: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
