"""Python side of the Telegram Bot API emulator harness (``telegram-test-api`` from npm).

:func:`start_emulator` launches ``tests/e2e/emulator.js`` on a free 127.0.0.1 port and
returns an :class:`Emulator`, a small client for *simulated people*: send a command or a
text in a group or a private chat, press an inline button by its text (a deep-link URL
button becomes ``/start <payload>`` in the person's private chat), read the bot's messages
as they stand now (edits applied), and read the log of every Bot API call the bot made.

The emulator's own client API is plain HTTP (``POST /sendCommand``, ``/sendMessage``,
``/sendCallback``, ``/getUpdatesHistory``); ``GET /_calls`` is added by ``emulator.js``.
"""

from __future__ import annotations

import contextlib
import http.server
import itertools
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlparse

import httpx
import redis

REPO = Path(__file__).resolve().parents[2]
EMULATOR_JS = REPO / "tests" / "e2e" / "emulator.js"
EMULATOR_PKG = REPO / "node_modules" / "telegram-test-api"

T = TypeVar("T")


def free_port() -> int:
    """A TCP port that was free on 127.0.0.1 a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Person:
    """A simulated Telegram user; their private chat id equals their user id."""

    user_id: int
    first_name: str

    def as_user(self) -> dict[str, Any]:
        """The Bot API ``User`` object of this person."""
        return {"id": self.user_id, "is_bot": False, "first_name": self.first_name,
                "language_code": "pt-br"}

    def private_chat(self) -> dict[str, Any]:
        """The Bot API ``Chat`` of this person's private chat with the bot."""
        return {"id": self.user_id, "type": "private", "first_name": self.first_name}


@dataclass(frozen=True)
class Group:
    """A simulated group chat (negative id)."""

    chat_id: int
    title: str

    def as_chat(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object of this group."""
        return {"id": self.chat_id, "type": "group", "title": self.title}


@dataclass
class BotMessage:
    """One message the bot sent, as it stands now (the emulator applies edits in place)."""

    chat_id: int
    message_id: int
    text: str
    keyboard: list[list[dict[str, Any]]] = field(default_factory=list)

    def buttons(self) -> list[dict[str, Any]]:
        """All inline buttons, row by row."""
        return [button for row in self.keyboard for button in row]

    def button(self, text: str | re.Pattern[str]) -> dict[str, Any] | None:
        """The first button whose text equals ``text`` (or matches the pattern)."""
        for button in self.buttons():
            label = str(button.get("text", ""))
            if (label == text) if isinstance(text, str) else text.search(label):
                return button
        return None


class Emulator:
    """HTTP client for one running emulator (see module docstring)."""

    def __init__(self, base: str, token: str, bot_id: int = 666) -> None:
        self.base = base
        self.token = token
        self.bot_id = bot_id
        self.http = httpx.Client(base_url=base, timeout=10)
        self._message_ids = itertools.count(1_000_000)

    @property
    def bot_api_url(self) -> str:
        """What the bot's ``TELEGRAM_BASE_URL`` should be (server root)."""
        return self.base

    # ---- people act -------------------------------------------------------------------
    def _post(self, route: str, payload: dict[str, Any]) -> None:
        response = self.http.post(route, json={"botToken": self.token, **payload})
        response.raise_for_status()

    def send_text(self, chat: dict[str, Any], person: Person, text: str) -> None:
        """``person`` writes ``text`` in ``chat``; a leading ``/word`` is a bot command."""
        payload = {"from": person.as_user(), "chat": chat, "date": int(time.time()),
                   "text": text}
        if text.startswith("/"):
            length = len(text.split(" ", 1)[0])
            payload["entities"] = [{"offset": 0, "length": length, "type": "bot_command"}]
            self._post("/sendCommand", payload)
        else:
            self._post("/sendMessage", payload)

    def command_in_group(self, group: Group, person: Person, text: str) -> None:
        """``person`` sends a command in the group."""
        self.send_text(group.as_chat(), person, text)

    def command_in_private(self, person: Person, text: str) -> None:
        """``person`` sends a command in their private chat with the bot."""
        self.send_text(person.private_chat(), person, text)

    def press(self, person: Person, message: BotMessage, text: str | re.Pattern[str]) -> str:
        """``person`` taps the button labelled ``text`` under ``message``.

        A callback button sends a callback query; a ``t.me/<bot>?start=<payload>`` URL button
        does what Telegram does: opens the private chat and sends ``/start <payload>``.
        Returns the callback data or the start payload. Raises AssertionError when there is
        no such button.
        """
        button = message.button(text)
        if button is None:
            labels = [b.get("text") for b in message.buttons()]
            raise AssertionError(f"no button {text!r} under message {message.message_id}: "
                                 f"{labels}")
        if "callback_data" in button:
            chat = (Group(message.chat_id, "Mesa").as_chat() if message.chat_id < 0
                    else Person(message.chat_id, person.first_name).private_chat())
            self._post("/sendCallback", {
                "from": person.as_user(),
                "message": {"message_id": message.message_id, "date": int(time.time()),
                            "chat": chat, "text": message.text},
                "data": button["callback_data"],
            })
            return str(button["callback_data"])
        url = urlparse(str(button.get("url", "")))
        payload = parse_qs(url.query).get("start", [""])[0]
        if url.netloc != "t.me" or not payload:
            raise AssertionError(f"button {text!r} is neither a callback nor a start link: "
                                 f"{button}")
        self.command_in_private(person, f"/start {payload}")
        return payload

    # ---- what the bot did -------------------------------------------------------------
    def history(self) -> list[dict[str, Any]]:
        """The emulator's raw history: bot messages (current state) and people's updates."""
        response = self.http.post("/getUpdatesHistory", json={"token": self.token})
        response.raise_for_status()
        return list(response.json()["result"])

    def messages(self, chat_id: int) -> list[BotMessage]:
        """The bot's messages in ``chat_id`` that still exist, oldest first."""
        found: list[BotMessage] = []
        for item in self.history():
            message = item.get("message")
            if item.get("callbackQuery") or not message or "chat_id" not in message:
                continue
            if str(message["chat_id"]) != str(chat_id):
                continue
            markup = message.get("reply_markup")
            if isinstance(markup, str):
                markup = json.loads(markup)
            keyboard = (markup or {}).get("inline_keyboard", [])
            found.append(BotMessage(int(message["chat_id"]), int(item["messageId"]),
                                    str(message.get("text", "")), keyboard))
        return found

    def calls(self) -> list[dict[str, Any]]:
        """Every Bot API request the bot made: ``{"time", "method", "body"}``, in order."""
        response = self.http.get("/_calls")
        response.raise_for_status()
        return list(response.json()["result"])

    def deliveries(self) -> list[dict[str, Any]]:
        """Every webhook delivery: ``{"update_id", "statuses" (one per attempt: an HTTP
        status or a connection error's code), "delivered"}`` (``emulator.js``)."""
        response = self.http.get("/_deliveries")
        response.raise_for_status()
        return list(response.json()["result"])

    def callback_ids_sent(self) -> set[str]:
        """Ids of every callback query the simulated people sent."""
        return {str(item["callbackId"]) for item in self.history() if item.get("callbackQuery")}

    def unanswered_callbacks(self) -> set[str]:
        """Callback query ids that never got an ``answerCallbackQuery``."""
        answered = {str(c["body"].get("callback_query_id")) for c in self.calls()
                    if c["method"] == "answerCallbackQuery"}
        return self.callback_ids_sent() - answered

    def group_texts_ever(self, chat_id: int) -> list[str]:
        """Every text the bot sent or edited into ``chat_id`` (from the call log)."""
        return [str(c["body"].get("text", "")) for c in self.calls()
                if c["method"] in {"sendMessage", "editMessageText"}
                and str(c["body"].get("chat_id")) == str(chat_id)]

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


def wait_for(probe: Callable[[], T | None], timeout: float = 20.0, what: str = "") -> T:
    """Call ``probe`` every 20 ms until it returns something truthy; AssertionError after
    ``timeout`` seconds, naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or probe}")
        time.sleep(0.02)


def stop(process: subprocess.Popen[Any], grace_s: float) -> None:
    """SIGTERM ``process``; SIGKILL it if it has not exited after ``grace_s`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def emulator_missing() -> str | None:
    """Why the emulator cannot run here, or None when node and the npm package exist."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not EMULATOR_PKG.exists():
        return "telegram-test-api is not installed: run `npm install` in the repo root"
    return None


def store_prefix(emulator: Emulator) -> str:
    """The Redis key prefix of the bots run on ``emulator`` (``REDIS_PREFIX``): one per
    emulator, so the workers of one test share it and other runs on the same Redis (other
    work trees, CI jobs) never claim this run's timers."""
    prefix: str = emulator.__dict__.setdefault("store_prefix", f"e2e-{uuid.uuid4().hex[:12]}")
    return prefix


def forget(url: str, emulator: Emulator) -> None:
    """Delete, in the Redis at ``url``, every key of the bots run on ``emulator`` (all
    under its :func:`store_prefix`); no other key is touched."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        keys = list(client.scan_iter(match=f"{store_prefix(emulator)}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def run_bot(emulator: Emulator, workdir: Path, redis_url: str | None = None,
            started: list[subprocess.Popen[bytes]] | None = None,
            argv: list[str] | None = None, ready_s: float = 30.0,
            **env_extra: str) -> Iterator[Path]:
    """Run the real bot, ``python -m bot telegram``, against ``emulator`` for the ``with``
    block, on the store at ``redis_url`` (None: the embedded one); ``env_extra`` adds
    settings (``WEBHOOK_URL``... for webhook mode). Yields its log file once it is ready
    (polling, or its webhook set); ``started`` receives the process (to signal it).
    ``argv`` replaces the command after the interpreter (default ``-m bot telegram``);
    ``ready_s``: how long it may take to be ready (AssertionError past it)."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(TELEGRAM_TOKEN=emulator.token, TELEGRAM_BASE_URL=emulator.bot_api_url,
               TELEGRAM_POLL_INTERVAL="0.02", AI_PACE_S="0", LOG_LEVEL="INFO",
               PYTHONPATH=str(REPO))
    env.update(env_extra)
    if redis_url:
        # one key prefix per emulator (the workers of one test share it): runs of other
        # work trees on the same Redis never claim this run's timers
        env["REDIS_URL"] = redis_url
        env["REDIS_PREFIX"] = store_prefix(emulator)
    log = workdir / "bot.log"
    ready = "setWebhook" if "WEBHOOK_URL" in env_extra else "getUpdates"
    before = sum(1 for c in emulator.calls() if c["method"] == ready)
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, *(argv or ["-m", "bot", "telegram"])],
                                   cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT)
    if started is not None:
        started.append(process)
    try:
        # the emulator records only the first getUpdates: a second bot on it is ready
        # when python-telegram-bot says it started polling
        wait_for(lambda: sum(1 for c in emulator.calls() if c["method"] == ready) > before
                 or (ready == "getUpdates" and before > 0
                     and "Application started" in log.read_text()),
                 timeout=ready_s, what=f"the bot to be ready ({ready})")
        yield log
    finally:
        stop(process, 10)


@contextlib.contextmanager
def start_emulator(token: str, bot_id: int | None = None) -> Iterator[Emulator]:
    """Run the emulator on a free loopback port for the duration of the ``with`` block;
    the bot's user id is ``bot_id`` (default: a random one, so update idempotency keys of
    one run never meet another run's in a shared Redis)."""
    missing = emulator_missing()
    if missing:
        raise RuntimeError(missing)
    port = free_port()
    bot_id = bot_id or secrets.randbelow(10**9) + 10**9
    process = subprocess.Popen(["node", str(EMULATOR_JS), str(port), str(bot_id)], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("READY"):
            error = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"emulator did not start: {line}{error}")
        emulator = Emulator(f"http://127.0.0.1:{port}", token, bot_id)
        try:
            yield emulator
        finally:
            emulator.close()
    finally:
        stop(process, 5)


class RoundRobinProxy:
    """A load balancer for webhook workers: every POST to ``url`` goes to the next backend
    in turn, with its body and the secret-token header; ``counts`` per backend, and
    ``failed``: the requests a backend did not answer (down, or died mid-request), for
    which the sender gets 502, as from a load balancer without health checks."""

    def __init__(self, backends: list[str]) -> None:
        self.backends = backends
        self.counts = [0] * len(backends)
        self.failed = [0] * len(backends)
        self._turn = itertools.count()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                index = next(proxy._turn) % len(proxy.backends)
                proxy.counts[index] += 1
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
                try:
                    answer = httpx.post(proxy.backends[index] + self.path, content=body,
                                        headers=headers, timeout=30)
                except httpx.HTTPError:  # the worker is down or died mid-request
                    proxy.failed[index] += 1
                    self.send_response(502)
                    self.end_headers()
                    return
                self.send_response(answer.status_code)
                self.end_headers()
                self.wfile.write(answer.content)

            def log_message(self, *_args: Any) -> None:
                return

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()
