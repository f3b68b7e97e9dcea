"""A rolling deploy on webhooks (issue 36): two real bot processes (``python -m bot
telegram`` with ``WEBHOOK_URL``) behind one URL (a round-robin proxy that answers 502 for
a worker that is down, as a load balancer without health checks), sharing the real Redis
at ``REDIS_URL``; the emulator sends every update to that URL with the secret header and,
as Telegram does, sends it again until it is answered 2xx (``emulator.js``).

Three games are played at once by six people while one worker is stopped with SIGTERM
and started again, then the other is SIGKILLed and started again. Every press must be
applied exactly once: each reaches its game's applied set (none lost), no press is ever
answered with a refusal or an error (a second application of a draw or a discard would
be refused), every delivery ends answered 2xx, and some deliveries did meet a worker
that was down (so the restarts happened under load). A request with a wrong secret
header is answered 403 and changes nothing.

Needs ``node``, ``npm ci`` and ``REDIS_URL``; marked ``reliability`` (about a minute).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from test_e2e_telegram import open_with_two_robots, play_turn, table
from tg_emulator import (
    Emulator,
    Group,
    Person,
    RoundRobinProxy,
    emulator_missing,
    free_port,
    run_bot,
    store_prefix,
    wait_for,
)

REDIS_URL = os.environ.get("REDIS_URL") or None
SECRET = "e2e-rolling-secret"
GAMES = 3
PLAY_BETWEEN_S = 4.0  # play before, between and after the restarts

pytestmark = [
    pytest.mark.reliability,
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
    pytest.mark.skipif(REDIS_URL is None,
                       reason="two workers share their state through the Redis at REDIS_URL"),
]


def tables_of_this_run() -> list[tuple[Group, list[Person]]]:
    """``GAMES`` groups of this run, each with its own two people (their private chats
    hold their hands, so nobody plays in two games)."""
    base = secrets.randbelow(10**8) * 10
    return [(Group(-(10**12) - base - n, f"Mesa {n}"),
             [Person(10**9 + base + 2 * n, f"Ana{n}"), Person(10**9 + base + 2 * n + 1,
                                                               f"Bia{n}")])
            for n in range(GAMES)]


def open_and_play(emu: Emulator, group: Group, people: list[Person],
                  stop: threading.Event, errors: list[BaseException],
                  refreshed: list[float]) -> None:
    """Open a Buraco table with two robots, start it and play turns (draw, discard)
    until ``stop`` is set; every press waits for its effect. A hand that does not show
    a press's effect within 20 s is asked for again with the table's "Minha mão" (its
    time goes to ``refreshed``): a hand edit waiting in the coalescer of a SIGKILLed
    worker dies with it (the press itself was applied: the applied sets say so)."""
    try:
        open_with_two_robots(emu, group, *people)
        while not stop.is_set():
            try:
                if not any(play_turn(emu, p, group) for p in people):
                    time.sleep(0.05)
            except AssertionError as error:
                if "timed out" not in str(error):
                    raise
                refreshed.append(time.monotonic())
                for person in people:
                    emu.press(person, table(emu, group), "Minha mão")
                time.sleep(2.0)
    except BaseException as error:  # reported by the main thread, with what was pressed
        last = [(i.get("callbackId"), i["callbackQuery"]["data"]) for i in emu.history()
                if i.get("callbackQuery") and i["callbackQuery"]["from"]["id"] in
                {p.user_id for p in people}][-3:]
        errors.append(AssertionError(f"{group.title}: {error}; last presses {last}"))


def game_of(data: str) -> str:
    """The game id a callback payload names (``<game>|<version>|<code>...``)."""
    return data.split("|", 1)[0]


def presses_by_game(emu: Emulator) -> dict[str, set[str]]:
    """Each game's callback query ids the people sent that change the game (not "Minha
    mão", code ``h``, which only shows the hand and records nothing)."""
    found: dict[str, set[str]] = {}
    for item in emu.history():
        query = item.get("callbackQuery")
        if query and str(query["data"]).split("|")[2] != "h":
            found.setdefault(game_of(str(query["data"])), set()).add(str(item["callbackId"]))
    return found


def applied(client: redis.Redis, emu: Emulator, game: str) -> set[str]:
    """The update keys the game's applied set holds (``adapters/storage/keys.py``)."""
    members = client.zrange(f"{store_prefix(emu)}:{{{game}}}:applied", 0, -1)
    return {str(m) for m in members}


def test_a_rolling_deploy_of_two_webhook_workers_loses_and_doubles_no_press(
        emu: Emulator, tmp_path: Path) -> None:
    ports = [free_port(), free_port()]
    proxy = RoundRobinProxy([f"http://127.0.0.1:{port}" for port in ports])
    settings = {"WEBHOOK_URL": f"{proxy.url}/hook", "WEBHOOK_LISTEN": "127.0.0.1",
                "WEBHOOK_SECRET": SECRET}
    started: list[Any] = []
    runs = iter(range(100))

    def worker(stack: contextlib.ExitStack, index: int) -> Path:
        path = tmp_path / f"w{index}-{next(runs)}"
        path.mkdir()
        return stack.enter_context(run_bot(emu, path, REDIS_URL, started, ready_s=90,
                                           WEBHOOK_PORT=str(ports[index]), **settings))

    stop, errors, refreshed = threading.Event(), [], []
    tables = tables_of_this_run()
    players = [threading.Thread(target=open_and_play,
                                args=(emu, g, p, stop, errors, refreshed))
               for g, p in tables]
    client = redis.Redis.from_url(REDIS_URL or "", decode_responses=True)
    try:
        with contextlib.ExitStack() as stack:
            logs = [worker(stack, 0), worker(stack, 1)]
            for thread in players:
                thread.start()
            time.sleep(PLAY_BETWEEN_S * 2)
            first = started[0]
            first.terminate()  # a deploy: SIGTERM, then the new version on the same port
            asked = time.monotonic()
            assert first.wait(timeout=30) == 0  # systemd's TimeoutStopSec (docs/operator.md)
            stopped_s = time.monotonic() - asked
            logs.append(worker(stack, 0))
            time.sleep(PLAY_BETWEEN_S)
            second = started[1]
            killed_at = time.monotonic()
            second.kill()  # a crash under load: the updates in hand get no answer
            second.wait()
            logs.append(worker(stack, 1))
            time.sleep(PLAY_BETWEEN_S)
            stop.set()
            for thread in players:
                thread.join(timeout=60)
            if errors:
                print("\nDIAG", errors, [d for d in emu.deliveries() if len(d["statuses"]) > 1],
                      [(c["method"], c["body"].get("callback_query_id"), c["body"].get("text"))
                       for c in emu.calls() if c["method"] == "answerCallbackQuery"][-30:])
            assert not errors, errors
            deliveries = wait_for(
                lambda: (lambda d: d if all(x["delivered"] for x in d) else None)(
                    emu.deliveries()), timeout=30, what="every update answered 2xx")
            wait_for(lambda: not emu.unanswered_callbacks() or None, timeout=10,
                     what="every callback query answered")
            refused_secret(emu, proxy, ports, tables[0])
            for log in logs:
                assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
        # a hand asked for again only after the kill, at most once per game
        assert all(t > killed_at for t in refreshed) and len(refreshed) <= GAMES, refreshed
        again = [d for d in deliveries if len(d["statuses"]) > 1]
        assert again, "no update met the restarts: the test did not test them"
        assert sum(proxy.failed) >= 1, proxy.failed
        sent = presses_by_game(emu)
        assert len(sent) == GAMES
        for game, queries in sent.items():
            keys = {f"tg:{emu.bot_id}:q:{query}" for query in queries}
            assert keys <= applied(client, emu, game), (game, keys - applied(client, emu, game))
        answers = [str(c["body"].get("text") or "") for c in emu.calls()
                   if c["method"] == "answerCallbackQuery"]
        assert all(text in ANSWERS_OF_PLAY for text in answers), set(answers) - ANSWERS_OF_PLAY
        failures = Counter(str(s) for d in deliveries for s in d["statuses"] if s != 200)
        print(f"\nrolling deploy: {len(deliveries)} updates, {len(again)} sent more than "
              f"once, failed attempts {dict(failures)}, proxy: backend down {proxy.failed}, "
              f"presses {sum(map(len, sent.values()))}, SIGTERM to exit {stopped_s:.1f} s, "
              f"hands asked for again after the kill {len(refreshed)}")
    finally:
        stop.set()
        client.close()
        proxy.close()


ANSWERS_OF_PLAY = {""}
"""What the people's presses are answered with in this play: nothing (the effect shows
in the table and the hand). A refusal (a draw or discard applied twice is refused: not
your turn, already drawn) or "Algo deu errado" would be a press applied twice or lost."""


def refused_secret(emu: Emulator, proxy: RoundRobinProxy, ports: list[int],
                   game: tuple[Group, list[Person]]) -> None:
    """A ``/cancelar`` from the table's creator with a wrong (or no) secret header, to
    each worker directly and through the proxy, is answered 403 and cancels nothing."""
    group, people = game
    before = table(emu, group).text
    update = {"update_id": 10**9 + secrets.randbelow(10**6), "message": {
        "message_id": 1, "date": int(time.time()), "chat": group.as_chat(),
        "from": people[0].as_user(), "text": "/cancelar",
        "entities": [{"offset": 0, "length": 9, "type": "bot_command"}]}}
    targets = [f"http://127.0.0.1:{port}/hook" for port in ports] + [f"{proxy.url}/hook"]
    for url in targets:
        for headers in ({"X-Telegram-Bot-Api-Secret-Token": "wrong"}, {}):
            assert httpx.post(url, json=update, headers=headers, timeout=10).status_code == 403
    time.sleep(1.0)
    assert not any("Jogo cancelado" in m.text for m in emu.messages(group.chat_id))
    assert "Jogo cancelado" not in table(emu, group).text
    assert table(emu, group).text.split("\n")[0] == before.split("\n")[0]
