"""End to end: the bot process dies between a move's save and the hand edit it owed
(issue 36, "a hand edit lost on SIGKILL").

The real bot (``python -m bot telegram``, polling the Bot API emulator through a proxy
that can hold requests, on the real Redis at ``REDIS_URL``) plays Ana against a robot.
After Ana's discard the robot moves and the turn comes back to Ana: the game is saved
and the bot edits Ana's hand message to offer "Comprar do monte". The proxy holds that
edit (the request never reaches the emulator) and the bot is SIGKILLed: the saved game
says it is Ana's turn, her hand on screen does not. A new bot process sends her hand
again from the stored game (the hand's stale mark, adapters/delivery/stale.py), well
before her turn timer would have moved anything; before the marks, the old hand stayed
until the next move.

Needs ``node``, ``npm install`` and ``REDIS_URL`` (CI sets them); this run's keys are
deleted afterwards.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import secrets
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from test_e2e_telegram import ANA, hand, play_turn, press_and_wait, table
from tg_emulator import Emulator, Group, emulator_missing, run_bot, store_prefix, wait_for

from adapters.delivery.stale import HAND_GRACE_S

REDIS_URL = os.environ.get("REDIS_URL") or None
GROUP = Group(-secrets.randbelow(10**9) - 10**9, "Mesa da Mão")
DRAW = "Comprar do monte"

pytestmark = [
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
    pytest.mark.skipif(REDIS_URL is None, reason="the game must outlive the bot: REDIS_URL"),
]


class HoldingProxy:
    """The Bot API as the bot sees it: every request goes on to ``target`` unchanged,
    except, while :attr:`armed`, an ``editMessageText`` to the private chat of
    ``user_id``, which is held (never sent on) and answered 502 once :meth:`release`
    is called; :attr:`held` counts them."""

    def __init__(self, target: str, user_id: int) -> None:
        self.armed = False
        self.held = 0
        self._released = threading.Event()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if (proxy.armed and self.path.endswith("/editMessageText")
                        and str(user_id).encode() in body):
                    proxy.held += 1
                    proxy._released.wait(60)
                    self.send_response(502)
                    self.end_headers()
                    return
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() in ("content-type",)}
                try:
                    answer = httpx.post(target + self.path, content=body, headers=headers,
                                        timeout=60)
                except httpx.HTTPError:
                    self.send_response(502)
                    self.end_headers()
                    return
                with contextlib.suppress(OSError):  # a SIGKILLed bot's long poll
                    self.send_response(answer.status_code)
                    self.send_header("Content-Type", answer.headers.get("content-type", ""))
                    self.send_header("Content-Length", str(len(answer.content)))
                    self.end_headers()
                    self.wfile.write(answer.content)

            def log_message(self, *_args: Any) -> None:
                return

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def release(self) -> None:
        """Answer the held requests (502) and hold no more."""
        self.armed = False
        self._released.set()

    def close(self) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()


def anas_turn(client: redis.Redis, state: str) -> bool:
    """Whether the stored game says it is Ana's (seat 0) turn."""
    from bot import play
    from bot.model import decode

    text = client.hget(state, "s")
    return text is not None and play.deal_of(decode(str(text))).turn == 0


def test_a_hand_edit_lost_with_a_sigkilled_bot_is_sent_by_the_next_bot(
        emu: Emulator, tmp_path: Path) -> None:
    client = redis.Redis.from_url(REDIS_URL or "", decode_responses=True)
    proxy = HoldingProxy(emu.bot_api_url, ANA.user_id)
    first: list[subprocess.Popen[bytes]] = []
    try:
        with run_bot(emu, tmp_path, REDIS_URL, started=first, AI_PACE_S="2",
                     TELEGRAM_BASE_URL=proxy.url):
            emu.command_in_group(GROUP, ANA, "/novojogo buraco")
            lobby = table(emu, GROUP)
            emu.command_in_group(GROUP, ANA, "/robo")
            lobby = wait_for(lambda: (lambda t: t if "Robô 2" in t.text else None)(
                table(emu, GROUP)), what="the robot's seat")
            press_and_wait(emu, ANA, lobby, "Iniciar", lambda: table(emu, GROUP))
            gid = client.get(f"{store_prefix(emu)}:{{tg:{GROUP.chat_id}}}:chat")
            assert gid is not None
            state = f"{store_prefix(emu)}:{{{gid}}}:state"
            wait_for(lambda: play_turn(emu, ANA, GROUP) or None, timeout=60,
                     what="Ana's turn")
            proxy.armed = True  # the robot is paced 2 s: its moves come after this
            before = hand(emu, ANA)
            assert before is not None and before.button(DRAW) is None
            wait_for(lambda: (proxy.held and anas_turn(client, state)) or None, timeout=60,
                     what="the edit of Ana's hand when her turn comes back")
            version = client.hget(state, "v")
            first[0].send_signal(signal.SIGKILL)
            first[0].wait(timeout=15)
            proxy.release()
        lost = hand(emu, ANA)
        assert lost is not None and lost.button(DRAW) is None  # the old hand on screen
        assert client.hget(state, "v") == version
        began = time.monotonic()
        with run_bot(emu, tmp_path, REDIS_URL, AI_PACE_S="2", TELEGRAM_BASE_URL=proxy.url):
            again = wait_for(lambda: (lambda h: h if h is not None and h.button(DRAW)
                                      else None)(hand(emu, ANA)),
                             timeout=HAND_GRACE_S + 40, what="Ana's hand sent again")
            assert client.hget(state, "v") == version  # shown again, nothing played
            assert "Selecionadas" not in again.text
        print({"hand_again_s": round(time.monotonic() - began, 1)})
    finally:
        proxy.close()
        client.close()
