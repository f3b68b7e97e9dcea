"""The web server in this test process: :class:`adapters.web.server.WebServer` over the
real service on an embedded fakeredis store, dealing the known deck, served on a
loopback port from an event loop in a thread; a chat person plays with the buttons of the
hand views the service gives them (as an adapter renders them).

Quicker than the bot process (no emulator, no Redis server), for the page's own
behaviour; the Telegram and Discord modules run the same deal through the real process.
"""

from __future__ import annotations

import time
from typing import Any

import chromium
import deal_script as script
import fakeredis
import web_page
from aiohttp import web
from threaded_app import ThreadedApp

from adapters.storage import RedisStore
from adapters.web.server import Site, WebServer
from bot import SystemClock
from bot.effects import ChatRef, Effect, PlayerRef, View, unpack
from bot.service import Service

BOT_TOKEN = "5151:IN-PROCESS-TOKEN"
SECRET = b"in-process-web-secret-0123456789"


class InProcess(ThreadedApp):
    """The server in a thread; ``url`` its address, ``hands[seat]`` each seat's last hand
    view as the chat would show it."""

    def __init__(self) -> None:
        self.hands: dict[int, View] = {}
        self.replies: list[str] = []
        super().__init__("the in-process web server", 30)

    async def make_app(self) -> web.Application:
        self.store = RedisStore(fakeredis.FakeAsyncRedis(decode_responses=True), "inproc")
        decks = iter([script.deck()] * 64)  # every deal of a test module
        self.service = Service(self.store, SystemClock(), ai_pace_s=0.0,
                               deck_fn=lambda _rules: next(decks))
        self.server = WebServer(SECRET, BOT_TOKEN)
        await self.server.attach(Site("tg", self.store, self.service, self.deliver))
        return self.server.app

    async def deliver(self, effects: list[Effect]) -> None:
        """The chat delivery of the web presses' effects: keep the hands."""
        self.absorb(effects)

    def absorb(self, effects: list[Effect]) -> None:
        """Keep each seat's newest hand view and every reply's text."""
        for eff in effects:
            if eff.kind == "hand" and eff.view is not None:
                self.hands[eff.seat] = eff.view
            elif eff.kind == "reply":
                self.replies.append(eff.text)

    def start_game(self, chat: ChatRef, people: list[PlayerRef],
                   args: str = script.PRESET, start: bool = True) -> str:
        """``/novojogo buraco_morto`` (or ``args``) in ``chat`` by the first person, the
        others join, the first starts (unless not ``start``); the game id."""
        async def go() -> str:
            await self.service.new_game(chat, people[0], args)
            for person in people[1:]:
                await self.service.join(chat, person)
            if start:
                self.absorb(await self.service.start(chat, people[0]))
            gid = await self.store.chat_game(chat.key)
            assert gid is not None
            return str(gid)
        return self.call(go())

    async def stop(self) -> None:
        await self.server.detach("tg")
        await super().stop()


class ServicePlayer:
    """A person pressing the buttons of their hand view, as a chat adapter would pass
    them to ``service.press`` (:class:`deal_flow.ChatSide`)."""

    def __init__(self, table: InProcess, person: PlayerRef, seat: int) -> None:
        self.table, self.person, self.seat = table, person, seat
        self.updates = 0

    def _data(self, label: str) -> str:
        view = self.table.hands[self.seat]
        for row in view.buttons:
            for button in row:
                if button.label == label:
                    return button.data
        raise AssertionError(f"no {label!r} in {[b.label for r in view.buttons for b in r]}")

    def _press(self, data: str) -> None:
        self.updates += 1
        key = f"inproc:{self.person.user_id}:{self.updates}:{time.monotonic_ns()}"
        self.table.absorb(self.table.call(self.table.service.press(self.person, data,
                                                                   update=key)))

    def press(self, label: str, wait: bool = True) -> float:
        """Press ``label`` (the service answers before this returns); the time before."""
        data = self._data(label)
        pressed = time.monotonic()
        self._press(data)
        return pressed

    def settle(self) -> None:
        """Nothing to wait for: the service answered before :meth:`press` returned."""

    def pick(self, codes: list[str]) -> None:
        """Toggle each card of ``codes``."""
        for code in codes:
            face = next(f for f in self.table.hands[self.seat].cards if f.code == code)
            data = next(b.data for row in self.table.hands[self.seat].buttons for b in row
                        if (u := unpack(b.data)) is not None and u[2] in ("t", "u")
                        and u[3] == str(face.index))
            self._press(data)


def tg_user(person: PlayerRef) -> dict[str, Any]:
    """The Telegram ``User`` of ``person`` in the launch data."""
    return {"id": int(person.user_id), "first_name": person.name, "language_code": "pt-br"}


def chat(chat_id: str) -> ChatRef:
    """A Telegram group of the tests."""
    return ChatRef(platform="tg", chat_id=chat_id, title="Mesa")


def open_page(server: InProcess, new_page: Any, person: PlayerRef, game: str,
              viewport: dict[str, int] | None = None) -> tuple[Any, Any]:
    """``person``'s web table of ``game`` on ``server``, opened as Telegram opens the Mini
    App (``new_page``: the browser fixture's)."""
    page, wire = new_page(viewport=viewport or chromium.PHONE)
    page.goto(web_page.telegram_url(server.url, BOT_TOKEN, tg_user(person), game))
    web_page.wait_live(page)
    return page, wire
