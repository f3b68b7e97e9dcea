"""The web table's HTTP and WebSocket server (aiohttp; docs/web.md).

``GET /`` the page (static files, no build step), ``POST /api/session`` exchanges
signed proof of who opens it (Telegram ``initData`` or a one-use link token) for a
session, ``GET /ws`` is the page's live connection: views out (:mod:`.hub`), presses in.
A press goes through ``service.press`` exactly as a chat button's does (same payloads,
seat versions and idempotency); its answer to the person goes back to the page, every
other effect (the group's table, the person's private hand) to the chat platform's
delivery, so the chats stay in step.

One server may serve the games of several platforms of one process (``python -m bot
serve``): each platform attaches a :class:`Site` (its store, service and delivery).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from adapters import deadline
from adapters.delivery.order import KeyedOrder, game_key
from adapters.ops.metrics import answered
from adapters.web import auth
from adapters.web.activity import DiscordActivity
from adapters.web.hub import Hub, Page, seat_of
from bot import invites
from bot.effects import ChatRef, Effect, PlayerRef, Reply
from bot.i18n import DEFAULT_LANG, Translator, norm_lang
from bot.model import CorruptGame, decode
from bot.ports import GameStore
from bot.webview import REFUSALS

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
HELLO_WAIT_S = 10.0
MAX_FRAME = 4096
"""Largest message a page may send (bytes): a press is well under 200."""
CSP = ("default-src 'self'; script-src 'self' https://telegram.org; "
       "connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; "
       "frame-ancestors *")
Deliver = Callable[[list[Effect]], Awaitable[None]]
PROXY = "/.proxy"
"""The prefix Discord's Activity proxy put before every path (docs/web.md)."""


@dataclass
class Site:
    """What one platform (``"tg"``, ``"dc"``) lends the web server: its store, its
    service (``press``) and its chat delivery (None: the effects are dropped); ``order``
    the lines of calls per game its chat presses and ticks run in (None: a line of the
    site's own), so a web press keeps its order with them (issue 36)."""

    platform: str
    store: GameStore
    service: Any
    deliver: Deliver | None = None
    hub: Hub | None = field(default=None, repr=False)
    order: KeyedOrder = field(default_factory=KeyedOrder, repr=False)


class WebServer:
    """The aiohttp application of the web table. ``secret`` signs links and sessions;
    ``telegram_token`` checks Telegram launch data (None: refused); ``clock`` gives Unix
    seconds."""

    def __init__(self, secret: bytes, telegram_token: str | None = None,
                 clock: Callable[[], float] = time.time,
                 activity: DiscordActivity | None = None) -> None:
        self.secret = secret
        self.telegram_token = telegram_token
        self.clock = clock
        self.activity = activity
        self.sites: dict[str, Site] = {}
        self.app = web.Application(client_max_size=MAX_FRAME * 4)
        # every path with and without Discord's "/.proxy/" prefix (an Activity's URL
        # mapping: dropped by Discord in 2025, still sent by older clients)
        for prefix in ("", PROXY):
            self.app.router.add_get(prefix + "/", self.index)
            self.app.router.add_get(prefix + "/activity", self.index)
            self.app.router.add_get(prefix + "/favicon.ico", self.favicon)
            self.app.router.add_static(prefix + "/static/", STATIC, follow_symlinks=False)
            self.app.router.add_post(prefix + "/api/session", self.session)
            self.app.router.add_get(prefix + "/api/activity", self.activity_config)
            self.app.router.add_get(prefix + "/ws", self.socket)
        self.app.on_response_prepare.append(_headers)
        self.app.on_shutdown.append(self._shutdown)
        self._sockets: set[web.WebSocketResponse] = set()

    async def attach(self, site: Site) -> None:
        """Serve the games of ``site.platform`` (starts its hub in the running loop)."""
        site.hub = Hub(site.store, self.clock)
        site.hub.start()
        self.sites[site.platform] = site

    async def detach(self, platform: str) -> None:
        """Stop serving ``platform``'s games."""
        site = self.sites.pop(platform, None)
        if site is not None and site.hub is not None:
            await site.hub.close()

    async def _shutdown(self, _app: web.Application) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"server shutdown")

    # -- HTTP -------------------------------------------------------------------------
    async def index(self, _request: web.Request) -> web.FileResponse:
        """The page."""
        return web.FileResponse(STATIC / "index.html")

    async def favicon(self, _request: web.Request) -> web.FileResponse:
        """The page's icon (``static/favicon.svg``) where a browser asks for it without
        reading the page's ``<link rel=icon>``: no 404 in the console."""
        return web.FileResponse(STATIC / "favicon.svg",
                                headers={"Content-Type": "image/svg+xml"})

    async def session(self, request: web.Request) -> web.Response:
        """Exchange launch data or a link token for a session (docs/web.md step 3)."""
        lang = _accept_lang(request)
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError
        except web.HTTPRequestEntityTooLarge:
            return _refused("too_large", lang)
        except (ValueError, json.JSONDecodeError):
            return _refused("bad_request", lang)
        try:
            person = await self._person(body)
        except auth.Refused as err:
            # the person's Telegram language_code first (a hint, read even unsigned)
            said = auth.launch_lang(body.get("initData")) or str(body.get("lang", ""))
            if err.code == "bad_request" and _invitation(body.get("initData")):
                return web.json_response({"error": "refused", "message": Translator(
                    norm_lang(said) or lang)(invites.GONE)}, status=403)
            return _refused(err.code, norm_lang(said) or lang)
        site = self.sites.get(person.platform)
        game = await _game(site.store, person.game) if site is not None else None
        lang = norm_lang(person.lang) or lang
        if game is None:
            return _refused("no_game", lang)
        seat = seat_of(game, f"{person.platform}:{person.user_id}")
        if seat is None and person.invite and site is not None:
            refused = await self._seat(site, person, game)
            if refused is not None:
                return web.json_response({"error": "refused", "message": refused},
                                         status=403)
            game = await _game(site.store, person.game) or game
            seat = seat_of(game, f"{person.platform}:{person.user_id}")
        player = game.seats[seat].player if seat is not None else None
        name = player.name if player is not None else person.name
        person = auth.Person(person.platform, person.user_id, name, person.game)
        token = auth.session_token(self.secret, person, game.lang, self.clock())
        return web.json_response({"session": token, "game": person.game,
                                  "lang": game.lang, "seated": seat is not None})

    async def activity_config(self, _request: web.Request) -> web.Response:
        """What the Activity's page needs to start the SDK: the application's client id
        (public); 404 when no Activity is served."""
        if self.activity is None or "dc" not in self.sites:
            return web.json_response({"error": "bad_request"}, status=404)
        return web.json_response({"client_id": self.activity.client_id})

    async def _discord(self, given: Any) -> auth.Person:
        """The person of an Activity's launch ``{"code", "instance"}`` and the game of
        its channel (:mod:`adapters.web.activity`); :class:`auth.Refused`."""
        site = self.sites.get("dc")
        if self.activity is None or site is None or not isinstance(given, dict):
            raise auth.Refused("bad_request")
        got = await self.activity.launch(str(given.get("code", "")),
                                         str(given.get("instance", "")))
        game = await site.store.chat_game(f"dc:{got.channel_id}")
        return auth.Person("dc", got.user_id, got.name, str(game or ""), got.lang)

    async def _person(self, body: dict[str, Any]) -> auth.Person:
        """The person of ``body``'s ``initData``, ``token`` or Discord Activity launch
        (``discord``); :class:`auth.Refused`."""
        now = self.clock()
        if "discord" in body:
            return await self._discord(body["discord"])
        if isinstance(body.get("initData"), str):
            if not self.telegram_token or "tg" not in self.sites:
                raise auth.Refused("bad_request")
            return auth.telegram_launch(body["initData"], self.telegram_token, now,
                                        game=str(body.get("game", "")),
                                        session=self._session_of(body.get("session")),
                                        aliases=await self._invited(body["initData"]))
        if isinstance(body.get("token"), str):
            person, tid, expires = auth.read_link(self.secret, body["token"], now)
            site = self.sites.get(person.platform)
            if site is None:
                raise auth.Refused("bad_request")
            ttl = max(1, int(expires - now) + 1)
            if not await site.store.first_seen(f"web:link:{tid}", ttl):
                raise auth.Refused("used")
            return person
        raise auth.Refused("bad_request")

    async def _invited(self, init_data: str) -> dict[str, str]:
        """``{start_param: game}`` when the launch data's (unchecked) ``start_param`` is
        an invitation's ``c<código>`` whose code finds a game (issue 35: the Mini App
        link ``/convidar`` gives); else ``{}``. Only a look-up: the signature is
        checked after it, and the seat is taken by :meth:`_seat` with the signed
        person."""
        param = auth.start_param(init_data)
        code = _invitation(init_data)
        site = self.sites.get("tg")
        if code is None or site is None:
            return {}
        gid = await site.store.invite_game(code)
        return {param: gid} if gid else {}

    async def _seat(self, site: Site, person: auth.Person, game: Any) -> str | None:
        """Seat ``person`` at ``game`` with the invitation of their launch link, as
        ``/entrar <código>`` from their private chat with the bot does (that chat
        becomes a place of the table; ``service.join_code``, applied once per person
        and code). Returns None when they are seated, else the service's refusal
        (a used or expired code, a full table, another game in progress)."""
        user = PlayerRef(platform=person.platform, user_id=person.user_id,
                         name=person.name or person.user_id)
        chat = ChatRef(platform=person.platform, chat_id=person.user_id, title="")
        async with site.order.ticket(game_key(person.game)):
            effects = await site.service.join_code(
                chat, user, person.invite[1:],
                update=f"web:invite:{person.platform}:{person.user_id}:{person.invite}")
        told = [e.text for e in effects if isinstance(e, Reply) and e.player.key == user.key]
        rest = [e for e in effects if not (isinstance(e, Reply) and e.player.key == user.key)]
        if rest and site.deliver is not None:
            try:
                await site.deliver(rest)
            except Exception as err:
                log.error("web invite of game %s: chat delivery failed (%s)", person.game,
                          type(err).__name__)
        got = await _game(site.store, person.game)
        if got is not None and seat_of(got, user.key) is not None:
            return None
        return told[0] if told else str(Translator(game.lang)(invites.GONE))

    def _session_of(self, token: Any) -> auth.Person | None:
        """The person of a page's saved session sent with launch data (None: none, or
        not a valid one): with it, old launch data of that very person still opens the
        page (docs/web.md "Sessions")."""
        if not isinstance(token, str) or not token:
            return None
        try:
            return auth.read_session(self.secret, token, self.clock())[0]
        except auth.Refused:
            return None

    # -- WebSocket --------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        """The page's live connection (docs/web.md "WebSocket messages")."""
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await self._serve_socket(ws, _accept_lang(request))
        finally:
            self._sockets.discard(ws)
        return ws

    async def _serve_socket(self, ws: web.WebSocketResponse, lang: str) -> None:
        try:
            first = await ws.receive(timeout=HELLO_WAIT_S)
        except TimeoutError:
            await ws.close()
            return
        hello = _message(first)
        try:
            if hello is None or hello.get("type") != "hello":
                raise auth.Refused("bad_request")
            person, _plang = auth.read_session(self.secret, str(hello.get("session", "")),
                                               self.clock())
            site = self.sites.get(person.platform)
            if site is None or site.hub is None:
                raise auth.Refused("bad_request")
        except auth.Refused as err:
            await ws.send_str(_error_frame(err.code, lang))
            await ws.close()
            return
        page = Page(ws.send_str, f"{person.platform}:{person.user_id}", person.game,
                    version=0)
        user = PlayerRef(platform=person.platform, user_id=person.user_id,
                         name=person.name or person.user_id)
        nonce = secrets.token_hex(6)  # this connection's presses: their own update keys
        await site.hub.add(page)
        try:
            async for msg in ws:
                got = _message(msg)
                if got is not None and got.get("type") == "press":
                    await self._press(site, page, user, got, nonce)
        finally:
            await site.hub.remove(page)

    async def _press(self, site: Site, page: Page, user: PlayerRef, got: dict[str, Any],
                     nonce: str) -> None:
        """One press from the page: ``service.press`` with the press's own update key, in
        its game's line of ``site.order`` (arrival marked first, :mod:`adapters.deadline`);
        the person's answer to the page, the rest to the chat delivery (staged in the
        same turn)."""
        deadline.arrive()
        data, ident = got.get("data"), got.get("id")
        if not isinstance(data, str) or not isinstance(ident, int) or len(data) > 64:
            return
        if not data.startswith(page.game + "|"):
            return  # a page presses its own game's buttons only
        async with site.order.ticket(game_key(page.game)):
            await self._pressed(site, page, user, data, ident, nonce)

    async def _pressed(self, site: Site, page: Page, user: PlayerRef, data: str,
                       ident: int, nonce: str) -> None:
        """The service call of :meth:`_press` and its answers."""
        effects = await site.service.press(user, data, update=f"web:{nonce}:{ident}")
        mine = [e for e in effects if isinstance(e, Reply) and e.player.key == page.key]
        rest = [e for e in effects if not (isinstance(e, Reply) and e.player.key == page.key)]
        for reply in mine:
            frame = json.dumps({"type": "reply", "id": ident, "text": reply.text},
                               ensure_ascii=False)
            async with page.lock:
                await page.send(frame)
        if not mine:
            async with page.lock:
                await page.send(json.dumps({"type": "done", "id": ident}))
        answered()  # the wait this press showed, from its arrival
        if rest and site.deliver is not None:
            try:
                await site.deliver(rest)
            except Exception as err:
                log.error("web press of game %s: chat delivery failed (%s)", page.game,
                          type(err).__name__)


def _invitation(init_data: Any) -> str | None:
    """The invitation code of launch data whose (unchecked) ``start_param`` is
    ``c<código>`` (issue 35), else None."""
    param = auth.start_param(init_data)
    return invites.norm_code(param[1:]) if param.startswith("c") else None


async def _game(store: GameStore, gid: str) -> Any:
    """The stored game ``gid`` (None: none, or unreadable)."""
    try:
        got = await store.load_game(gid)
        return decode(got[1], gid) if got is not None else None
    except CorruptGame:
        return None


def _message(msg: Any) -> dict[str, Any] | None:
    """A page's text frame as a JSON object, else None."""
    if msg.type != WSMsgType.TEXT:
        return None
    try:
        got = json.loads(msg.data)
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


def _accept_lang(request: web.Request) -> str:
    """The first language of the request's ``Accept-Language`` we speak, else pt-BR."""
    for part in request.headers.get("Accept-Language", "").split(","):
        lang = norm_lang(part.split(";")[0])
        if lang:
            return lang
    return DEFAULT_LANG


def _error_frame(code: str, lang: str) -> str:
    return json.dumps({"type": "error", "code": code,
                       "message": Translator(lang)(REFUSALS[code])}, ensure_ascii=False)


def _refused(code: str, lang: str) -> web.Response:
    """A refusal (docs/web.md): the code and its sentence, no game data."""
    status = {"no_game": 404, "bad_request": 400, "too_large": 413}.get(code, 403)
    return web.json_response({"error": code, "message": Translator(lang)(REFUSALS[code])},
                             status=status)


async def _headers(_request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"

