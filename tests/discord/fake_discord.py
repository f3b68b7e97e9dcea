"""A small local fake of Discord for end-to-end tests of a discord.py bot.

There is no maintained Discord API emulator to install, so this module is one: an aiohttp
server on a free 127.0.0.1 port, run in a background thread, serving

- the gateway (``/gateway``, :mod:`fake_gateway`): HELLO, IDENTIFY, READY, GUILD_CREATE,
  heartbeats, RESUME, and the INTERACTION_CREATE events the tests cause;
- the REST API v10 (``/api/v10/...``, :mod:`fake_rest`) with the real rules about
  interactions (3 s to answer, one answer, 15-minute tokens, ephemeral messages).

Point discord.py at it with ``discord.http.Route.BASE = fake.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)``.

The test side is synchronous and thread-safe, like ``tests/e2e/tg_emulator.py``: simulated
people run slash commands and press components (:meth:`FakeDiscord.slash`,
:meth:`FakeDiscord.press`); the tests read messages as they stand now (copies), every REST
call (:meth:`FakeDiscord.calls`) and every interaction with its answer time.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import fake_rest
from aiohttp import web
from fake_gateway import Gateway, Session
from fake_model import (
    EPHEMERAL,
    ApiError,
    Call,
    Interaction,
    Message,
    Person,
    iso_now,
    snowflake,
)
from fake_oauth import FakeOAuth
from fake_people import PERMISSIONS, People

T = TypeVar("T")
OPEN_ROUTES = ("/interactions/", "/webhooks/")


class FakeDiscord(People):
    """One fake Discord with one guild, one text channel and the given people.

    ``token`` is the only bot token accepted (REST ``Authorization: Bot <token>`` and the
    gateway IDENTIFY). State lives on the server thread; the public methods lock it.
    """

    def __init__(self, token: str, people: list[Person], guild_name: str = "Clube",
                 channel_name: str = "mesa") -> None:
        self.token = token
        self.people = {p.user_id: p for p in people}
        self.app_id = snowflake()
        self.bot_user = {"id": str(self.app_id), "username": "buraco", "global_name": "Buraco",
                         "discriminator": "0", "avatar": None, "bot": True, "verified": True,
                         "mfa_enabled": False, "flags": 0, "public_flags": 0}
        self.guild_id, self.channel_id = snowflake(), snowflake()
        self.guild_name, self.channel_name = guild_name, channel_name
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[str | None, list[dict[str, Any]]] = {}
        self.dms: dict[int, int] = {}
        self.dm_refused: set[int] = set()
        self.late: list[Interaction] = []
        self._calls: list[Call] = []
        self._unknown: list[str] = []
        self._faults: list[dict[str, Any]] = []
        self._lock = threading.RLock()
        self._loop = asyncio.new_event_loop()
        self.oauth = FakeOAuth(self.app_id, self.guild_id, self.channel_id)
        self.gateway = Gateway(token, self._ready, lambda: [self.guild_payload()],
                               lambda _g: [p.as_member() for p in self.people.values()])
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    # ---- lifecycle -------------------------------------------------------------------
    def start(self) -> None:
        """Serve on a free loopback port (``self.port``) until :meth:`stop`."""
        self._thread.start()
        self._run(self._serve())

    def stop(self) -> None:
        """Close every socket and the server, then the thread."""
        if self._runner is not None:
            self._run(self._runner.cleanup())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    async def _serve(self) -> None:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    def _run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` should be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` should be (also READY's resume URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ---- REST router -----------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        if path == "/oauth2/token" and request.method == "POST":  # an Activity's launch
            return await self.oauth.token(request)
        if path == "/users/@me" and request.headers.get("Authorization", "").startswith(
                "Bearer "):
            return self.oauth.me(request)
        body = await _read_body(request)
        found = fake_rest.match(request.method, path)
        call = Call(time.monotonic(), request.method, found[0] if found else "?", path, body)
        with self._lock:
            self._calls.append(call)
            try:
                status, answer = await self._handle(request, path, found, body, call)
            except ApiError as error:
                call.status = error.status
                return _json(error.body(), error.status, error.headers)
            call.status = status
        if answer is None:
            return web.Response(status=status)
        return _json(answer, status)


    async def _handle(self, request: web.Request, path: str,
                      found: tuple[str, dict[str, str], fake_rest.Handler] | None,
                      body: Any, call: Call) -> tuple[int, Any]:
        if not path.startswith(OPEN_ROUTES) and (
                request.headers.get("Authorization") != f"Bot {self.token}"):
            raise ApiError(401, 0, "401: Unauthorized")
        if found is None:
            self._unknown.append(f"{request.method} {path}")
            raise ApiError(404, 0, "404: Not Found")
        template, params, handler = found
        call.ids = params
        for fault in self._faults:
            if fault["route"] == template and fault["times"] > 0:
                fault["times"] -= 1
                raise ApiError(fault["status"], fault["code"], fault["message"],
                               headers=fault["headers"], extra=fault["extra"])
        return await handler(self, params, body, dict(request.query))

    # ---- state used by the routes ----------------------------------------------------
    def person(self, user_id: int) -> Person | None:
        """The simulated person with this id, if any."""
        return self.people.get(user_id)

    def dm_channel(self, person: Person) -> int:
        """Id of the bot's DM channel with ``person`` (opened on first use)."""
        return self.dms.setdefault(person.user_id, snowflake())

    def dm_owner(self, channel_id: int) -> int | None:
        """The person whose DM channel this is, or None."""
        return next((u for u, c in self.dms.items() if c == channel_id), None)

    def channel_payload(self, channel_id: int) -> dict[str, Any] | None:
        """The API ``Channel`` object of the guild channel or a DM channel."""
        if channel_id == self.channel_id:
            return {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id),
                    "name": self.channel_name, "position": 0, "permission_overwrites": [],
                    "nsfw": False, "parent_id": None, "topic": None, "last_message_id": None,
                    "rate_limit_per_user": 0}
        owner = self.dm_owner(channel_id)
        if owner is None:
            return None
        return {"id": str(channel_id), "type": 1, "last_message_id": None,
                "recipients": [self.people[owner].as_user()]}

    def guild_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: the guild, its channel, roles and members."""
        everyone = {"id": str(self.guild_id), "name": "@everyone", "permissions": PERMISSIONS,
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False, "flags": 0}
        bot_member = {"user": self.bot_user, "roles": [], "joined_at": iso_now(), "deaf": False,
                      "mute": False, "flags": 0, "nick": None}
        owner = next(iter(self.people), self.app_id)
        return {"id": str(self.guild_id), "name": self.guild_name, "icon": None,
                "owner_id": str(owner), "features": [], "roles": [everyone], "emojis": [],
                "stickers": [], "channels": [self.channel_payload(self.channel_id)],
                "members": [bot_member] + [p.as_member() for p in self.people.values()],
                "member_count": len(self.people) + 1, "large": False, "unavailable": False,
                "joined_at": iso_now(), "threads": [], "voice_states": [], "presences": [],
                "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
                "preferred_locale": "pt-BR", "verification_level": 0, "mfa_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0,
                "nsfw_level": 0, "premium_tier": 0, "afk_timeout": 300,
                "system_channel_id": None, "afk_channel_id": None, "max_members": 1000}

    def _ready(self, session: Session) -> dict[str, Any]:
        return {"v": 10, "user": self.bot_user, "session_id": session.id,
                "resume_gateway_url": self.gateway_url, "shard": [0, 1],
                "guilds": [{"id": str(self.guild_id), "unavailable": True}],
                "application": {"id": str(self.app_id), "flags": 0},
                "private_channels": [], "relationships": [], "user_settings": {}, "_trace": []}

    def new_message(self, channel_id: int, body: dict[str, Any], *, token: str | None = None,
                    ephemeral_for: int | None = None, loading: bool = False,
                    interaction_user: int | None = None) -> Message:
        """Store a new bot message made from a create ``body``."""
        message = Message(id=snowflake(), channel_id=channel_id, author=self.bot_user,
                          flags=EPHEMERAL if ephemeral_for else 0, ephemeral_for=ephemeral_for,
                          loading=loading, interaction_user=interaction_user)
        message.apply(body)
        if token:
            message.tokens.add(token)
        self.messages[message.id] = message
        return message

    def edit(self, message: Message, body: dict[str, Any]) -> None:
        """Apply an edit ``body`` to ``message`` and note when."""
        message.apply(body)
        message.loading = False
        message.edits.append(time.monotonic())

    # ---- faults the tests inject -----------------------------------------------------
    def fail(self, route: str, status: int, code: int, message: str, times: int = 1,
             retry_after: float | None = None) -> None:
        """Answer the next ``times`` calls of ``route`` (a template such as ``"PATCH
        /channels/{c}/messages/{m}"``) with this error; ``retry_after`` makes it a 429
        rate limit with the headers Discord sends."""
        headers: dict[str, str] = {}
        extra: dict[str, Any] = {}
        if retry_after is not None:
            # discord.py retries a 429 only when it came through Discord's proxy (Via)
            headers = {"Retry-After": str(retry_after), "X-RateLimit-Scope": "user",
                       "X-RateLimit-Global": "false", "Via": "1.1 google"}
            extra = {"retry_after": retry_after, "global": False}
        with self._lock:
            self._faults.append({"route": route, "status": status, "code": code,
                                 "message": message, "times": times, "headers": headers,
                                 "extra": extra})

    def refuse_dms(self, person: Person) -> None:
        """``person`` has DMs from server members closed: sends to them get 50007."""
        with self._lock:
            self.dm_refused.add(person.user_id)

    def expire_tokens(self) -> int:
        """Make every interaction so far 15 minutes old: its token is dead (50027) and
        its callback refused (10062). Returns how many were live."""
        with self._lock:
            live = [i for i in self.interactions.values() if not i.expired]
            for inter in live:
                inter.expired = True
            return len(live)

    def drop_gateway(self, code: int = 4000) -> bool:
        """Close the bot's gateway socket with ``code`` (4000 Unknown error: it may
        RESUME). Returns False when no socket was open."""
        return self._run(self.gateway.close_active(code))

    def hold_gateway(self, code: int = 4000) -> bool:
        """Drop the bot's gateway socket (``code``) and keep it away until
        :meth:`release_gateway` (its new socket waits for HELLO); interactions sent
        meanwhile wait in its session for a RESUME, as on Discord."""
        return self._run(self.gateway.hold(code))

    def release_gateway(self) -> None:
        """Let the held bot connect again (it RESUMEs, or IDENTIFYs if it restarted)."""
        self._run(self._release())

    async def _release(self) -> None:
        self.gateway.release()

    # ---- what the tests read ---------------------------------------------------------
    def command_names(self) -> list[str]:
        """Names of every registered application command (global and guild)."""
        with self._lock:
            return sorted(c["name"] for cmds in self.commands.values() for c in cmds)

    def calls(self) -> list[Call]:
        """Every REST call so far, in order (copies)."""
        with self._lock:
            return copy.deepcopy(self._calls)

    def unknown_routes(self) -> list[str]:
        """``"METHOD /path"`` of every call to a route the fake does not serve."""
        with self._lock:
            return list(self._unknown)

    def message(self, message_id: int) -> Message:
        """One message as it stands now (a copy)."""
        with self._lock:
            return copy.deepcopy(self.messages[message_id])

    def channel_messages(self, channel_id: int | None = None) -> list[Message]:
        """Public (not ephemeral) messages of the guild channel (or ``channel_id``) that
        still exist, oldest first (copies)."""
        cid = channel_id or self.channel_id
        return self._select(lambda m: m.channel_id == cid and not m.ephemeral)

    def ephemerals(self, person: Person) -> list[Message]:
        """Ephemeral messages only ``person`` sees, oldest first (copies)."""
        return self._select(lambda m: m.ephemeral_for == person.user_id)

    def dm_messages(self, person: Person) -> list[Message]:
        """Messages in the bot's DM channel with ``person``, oldest first (copies)."""
        with self._lock:
            cid = self.dms.get(person.user_id)
        return [] if cid is None else self.channel_messages(cid)

    def _select(self, keep: Callable[[Message], bool]) -> list[Message]:
        with self._lock:
            found = [m for m in self.messages.values() if not m.deleted and keep(m)]
            return copy.deepcopy(sorted(found, key=lambda m: m.id))

    def interaction(self, inter: Interaction) -> Interaction:
        """``inter`` as it stands now (answered or not)."""
        with self._lock:
            return copy.deepcopy(self.interactions[inter.id])

    def all_interactions(self) -> list[Interaction]:
        """Every interaction dispatched so far, oldest first (copies)."""
        with self._lock:
            return copy.deepcopy(sorted(self.interactions.values(), key=lambda i: i.id))


def _json(data: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with ``Content-Type: application/json`` exactly, as Discord sends it
    (discord.py compares the header verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json", headers=headers)


async def _read_body(request: web.Request) -> Any:
    """JSON body, or a multipart body's ``payload_json`` part, or None."""
    if not request.can_read_body:
        return None
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        body = json.loads(str(raw)) if raw is not None else None
        files = [{"filename": f.filename, "data": f.file.read()} for f in form.values()
                 if isinstance(f, web.FileField)]
        if files and isinstance(body, dict):  # the uploads, with what the body says of them
            told = body.get("attachments") or []
            body["_files"] = [{**(told[i] if i < len(told) else {}), **f}
                              for i, f in enumerate(files)]
        return body
    text = await request.text()
    return json.loads(text) if text else None


@contextlib.contextmanager
def start_fake(token: str, people: list[Person], **kw: Any) -> Iterator[FakeDiscord]:
    """A running :class:`FakeDiscord` for the ``with`` block."""
    fake = FakeDiscord(token, people, **kw)
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()
