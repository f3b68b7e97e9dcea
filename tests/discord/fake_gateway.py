"""The gateway half of the fake Discord: one WebSocket route speaking gateway v10 in plain
JSON text frames (discord.py asks for ``compress=zlib-stream`` but reads text frames
uncompressed, as Discord may send them).

Handshake, as the Gateway reference describes it: the server says HELLO (op 10, the
heartbeat interval); the client sends IDENTIFY (op 2, its token) and gets READY then one
GUILD_CREATE per guild, or RESUME (op 6, session id and last sequence) and gets every event
it missed followed by RESUMED (events sent to a session while its socket is away are
kept for that); HEARTBEAT (op 1) is answered by HEARTBEAT_ACK (op 11);
REQUEST_GUILD_MEMBERS (op 8) by GUILD_MEMBERS_CHUNK. A wrong token closes with 4004; an
unknown session on RESUME gets INVALID_SESSION (op 9, not resumable). While
:attr:`Gateway.open` is clear (:meth:`Gateway.hold`), a new socket is accepted but its
HELLO waits: the client is kept away for as long as the test wants, with no backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

HEARTBEAT_MS = 41_250
ACK_DELAY_S = 0.05


@dataclass
class Session:
    """One gateway session: ``sent`` holds every dispatch (for RESUME replay); ``ws`` is the
    live socket, None while the client is away."""

    id: str
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    identified_at: float = 0.0
    resumes: int = 0
    intents: int = 0


class Gateway:
    """Sessions and the WebSocket handler. ``ready(session)`` builds the READY payload and
    ``guilds()`` the GUILD_CREATE payloads (they come from the fake's state)."""

    def __init__(self, token: str, ready: Callable[[Session], dict[str, Any]],
                 guilds: Callable[[], list[dict[str, Any]]],
                 members: Callable[[str], list[dict[str, Any]]]) -> None:
        self.token = token
        self._ready = ready
        self._guilds = guilds
        self._members = members
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.heartbeats = 0
        self.changed = asyncio.Condition()
        self.open = asyncio.Event()
        self.open.set()
        self._acks: set[asyncio.Future[None]] = set()

    async def hold(self, code: int = 4000) -> bool:
        """Keep the client away: close the active socket with ``code`` and hold every new
        socket's HELLO until :meth:`release`. Returns whether a socket was open."""
        self.open.clear()
        return await self.close_active(code)

    def release(self) -> None:
        """Let the held sockets have their HELLO (the client RESUMEs or IDENTIFYs)."""
        self.open.set()

    def newest(self) -> Session | None:
        """The newest session, its socket open or away (None before any IDENTIFY)."""
        return max(self.sessions.values(), key=lambda s: s.identified_at, default=None)

    def active(self) -> Session | None:
        """The newest session whose socket is open (where interactions go)."""
        live = [s for s in self.sessions.values() if s.ws is not None and not s.ws.closed]
        return max(live, key=lambda s: s.identified_at) if live else None

    async def dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) with the next sequence number; kept for RESUME."""
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.ws is not None and not session.ws.closed:
            # the client may die as we write (a SIGKILL): the frame stays in ``sent`` for a
            # RESUME, as Discord keeps what a dropped socket missed
            with contextlib.suppress(ConnectionResetError):
                await session.ws.send_str(json.dumps(frame))

    async def close_active(self, code: int) -> bool:
        """Close the active session's socket with ``code`` (4000: the client resumes)."""
        session = self.active()
        if session is None or session.ws is None:
            return False
        await session.ws.close(code=code, message=b"fake: closed by the test")
        return True

    async def _changed(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The WebSocket route: HELLO, then serve the client's opcodes until it leaves."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await self.open.wait()  # held by the test: no HELLO yet
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS},
                                      "s": None, "t": None}))
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                session = await self._op(ws, session, frame) or session
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
            await self._changed()
        return ws

    async def _op(self, ws: web.WebSocketResponse, session: Session | None,
                  frame: dict[str, Any]) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            self.heartbeats += 1
            ack = asyncio.ensure_future(self._ack(ws))
            self._acks.add(ack)  # kept until done (the loop holds tasks weakly)
            ack.add_done_callback(self._acks.discard)
        elif op == 2:
            return await self._identify(ws, data or {})
        elif op == 6:
            return await self._resume(ws, data or {})
        elif op == 8 and session is not None:
            for guild_id in _as_list(data.get("guild_id")):
                await self.dispatch(session, "GUILD_MEMBERS_CHUNK", {
                    "guild_id": guild_id, "members": self._members(guild_id),
                    "chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce")})
        return None

    async def _ack(self, ws: web.WebSocketResponse) -> None:
        """HEARTBEAT_ACK after a network-like 50 ms: discord.py notes a heartbeat's send
        time only after the send returns, so an instant ACK reads as a whole interval of
        latency ("Can't keep up, ... websocket is 41.3s behind")."""
        await asyncio.sleep(ACK_DELAY_S)
        if not ws.closed:
            await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identifies += 1
        session = Session(id=secrets.token_hex(16), ws=ws, identified_at=time.monotonic(),
                          intents=int(data.get("intents") or 0))
        self.sessions[session.id] = session
        await self.dispatch(session, "READY", self._ready(session))
        for guild in self._guilds():
            await self.dispatch(session, "GUILD_CREATE", guild)
        await self._changed()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.token:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        session.resumes += 1
        seq = int(data.get("seq") or 0)
        for frame in session.sent:
            if frame["s"] > seq:
                await ws.send_str(json.dumps(frame))
        await self.dispatch(session, "RESUMED", {})
        await self._changed()
        return session


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]
