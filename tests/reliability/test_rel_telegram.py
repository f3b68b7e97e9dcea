"""The Telegram side of the reliability suite (issue 12): the whole application on the
fake Bot API of tests/test_telegram_fakeapi.py, driven through its public entry points
(updates in, Bot API calls out), so it survives the adapter's refactoring.

* A Bot API that answers 429 with ``retry_after`` on 10% of calls and 5xx on 2%: every
  group notice and every table, hand and turn message still arrives, in order, and the
  game state is exactly what the presses made it (no press doubled by a retry).
* A DM refused in the middle of a game: the group is told, and the game goes on.
* With every logger at DEBUG (python-telegram-bot's and httpx's included), no log line
  carries the bot token or a card that is in someone's hand.
"""

from __future__ import annotations

import json
import logging
import random
import re
from typing import Any

import pytest
from test_telegram_app import ANA, BIA, GROUP, Tg, labels, start_two_humans, tg
from test_telegram_fakeapi import FORBIDDEN_DM, TOKEN

from bot import play
from bot.model import decode

__all__ = ["tg"]
CARD = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♥♦♠♣])|🃏")
SENDS = ("sendMessage", "editMessageText", "sendDocument")


def flaky(tg: Tg, seed: int, rate_429: float = 0.10, rate_5xx: float = 0.02,
          notice_5xx: bool = False) -> dict[str, int]:
    """Make the fake Bot API answer 429 (``retry_after`` 1 s) and 5xx at those rates;
    ``notice_5xx`` also answers 502 to the first group notice sent (so the run is sure
    to hit one, whatever the random draws)."""
    rng, inner, count = random.Random(seed), tg.fake.do_request, {"429": 0, "5xx": 0}
    forced = [notice_5xx]

    async def do_request(url: str, method: str, request_data: Any = None,
                         **kw: Any) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        roll = rng.random()
        params = dict(request_data.parameters) if request_data else {}
        if forced[0] and name == "sendMessage" and str(params.get("chat_id")) == str(
                GROUP["id"]) and not str(params.get("text", "")).startswith("<b>"):
            forced[0] = False
            roll = rate_429  # the 5xx branch
        if name != "getMe" and roll < rate_429:
            count["429"] += 1
            tg.fake.calls.append((f"429:{name}", {}))
            return 429, json.dumps({"ok": False, "error_code": 429, "parameters": {
                "retry_after": 1}, "description": "Too Many Requests: retry after 1"}).encode()
        if name != "getMe" and roll < rate_429 + rate_5xx:
            count["5xx"] += 1
            tg.fake.calls.append((f"5xx:{name}", {}))
            return 502, b'{"ok": false, "error_code": 502, "description": "Bad Gateway"}'
        return await inner(url, method, request_data, **kw)

    tg.fake.do_request = do_request  # type: ignore[method-assign]
    return count


async def stored(tg: Tg) -> tuple[int, Any]:
    gid = await tg.service.store.chat_game("tg:-100")
    got = await tg.service.store.load_game(gid)
    return got[0], decode(got[1])


async def play_moves(tg: Tg, moves: int, timeouts: bool = False) -> list[str]:
    """Ana and Bia draw and discard their first card when it is their turn (with
    ``timeouts``, every third time they let the 90 s timer run out instead: a group
    notice), the robots play on the timers; returns every group notice the service
    asked for, in order."""
    says: list[str] = []
    tick, press = tg.service.tick, tg.service.press

    async def ticking(*a: Any, **kw: Any) -> list[Any]:  # the service's own output
        effects = await tick(*a, **kw)
        says.extend(e.text for e in effects if e.kind == "say")
        return effects

    async def pressing(*a: Any, **kw: Any) -> list[Any]:
        effects = await press(*a, **kw)
        says.extend(e.text for e in effects if e.kind == "say")
        return effects

    tg.service.tick, tg.service.press = ticking, pressing  # type: ignore[method-assign]
    for n in range(moves):
        _v, game = await stored(tg)
        turn = play.deal_of(game).turn
        if turn >= 2 or game.seats[turn].away:
            await tg.tick()
            continue
        if timeouts and n % 3 == 0:
            tg.clock.t += 91
            await tg.tick()
            continue
        person = (ANA, BIA)[turn]
        before, _game = await stored(tg)
        await tg.press(person, tg.hand(person), "Comprar do monte")
        await tg.press(person, tg.hand(person), labels(tg.hand(person))[0])
        await tg.press(person, tg.hand(person), "Descartar")
        after, game = await stored(tg)
        assert after == before + 3  # draw, pick, discard: each saved once, none twice
    return says


def group_texts(tg: Tg, chat_id: int) -> list[str]:
    """Texts that reached ``chat_id`` as new messages, in order."""
    return [str(p.get("text", "")) for name, p in tg.fake.calls
            if name == "sendMessage" and str(p.get("chat_id")) == str(chat_id)]


async def flaky_game(tg: Tg, rate_5xx: float) -> None:
    """Eight moves on a Bot API with 429 on 10% of calls (and 5xx at ``rate_5xx``, one
    of them on a group notice): every notice arrives in order, the table and the hands
    show the stored state."""
    tg.service.chooser = None  # the fallback robot: no thinking time
    await start_two_humans(tg)
    count = flaky(tg, seed=7, rate_5xx=rate_5xx, notice_5xx=rate_5xx > 0)
    says = await play_moves(tg, 12, timeouts=True)
    assert count["429"] > 0 and (count["5xx"] > 0) == (rate_5xx > 0)
    sent = group_texts(tg, GROUP["id"])
    notices = [t for t in sent if not t.startswith("<b>")]
    assert says and [t for t in notices if t in says] == says  # every notice, in order
    _v, game = await stored(tg)
    deal = play.deal_of(game)
    table = tg.table()["text"]
    assert f"Monte: {len(deal.stock)}" in table  # the table shows the stored state
    for i, person in enumerate((ANA, BIA)):
        hand = tg.hand(person)
        assert hand["text"].startswith(f"<b>Sua mão ({len(deal.hands[i])} cartas)</b>")


async def test_429_with_retry_after_on_a_tenth_of_calls_loses_no_message(tg: Tg) -> None:
    await flaky_game(tg, rate_5xx=0.0)


async def test_5xx_on_a_fiftieth_of_calls_loses_no_message(tg: Tg) -> None:
    await flaky_game(tg, rate_5xx=0.02)


async def test_a_dm_refused_mid_game_tells_the_group_and_the_game_goes_on(tg: Tg) -> None:
    tg.service.chooser = None
    await start_two_humans(tg)
    await play_moves(tg, 4)
    tg.fake.fail("sendMessage", FORBIDDEN_DM, code=403, chat_id=BIA["id"], times=1000)
    tg.fake.fail("editMessageText", FORBIDDEN_DM, code=403, chat_id=BIA["id"], times=1000)
    before, _game = await stored(tg)
    for _ in range(8):  # (a refused DM costs the outbox a few seconds: kept short)
        _v, game = await stored(tg)
        if play.deal_of(game).turn == 1:
            await tg.command(BIA, "/voltar")  # Bia cannot see her hand: the robot may stand in
        await tg.tick() if play.deal_of(game).turn != 0 else await play_moves(tg, 1)
        tg.clock.t += 100
    after, _game = await stored(tg)
    notice = ("Bia, não consigo te mandar mensagem no privado. Toque no botão abaixo e "
              "depois em Iniciar para receber a sua mão.")
    assert notice in [m["text"] for m in tg.fake.current(GROUP["id"])]
    assert after > before + 3


async def debug_game(tg: Tg, caplog: pytest.LogCaptureFixture) -> tuple[list[str], set[str]]:
    """Six moves with every logger at DEBUG, the log filter installed as ``python -m bot``
    installs it (adapters/logsafe.py): the log lines, and the hands' cards."""
    from adapters import logsafe

    tg.service.chooser = None
    caplog.set_level(logging.DEBUG)  # the root logger: telegram.*, httpx, redis, asyncio
    logsafe.install(logsafe.secrets_of(TOKEN))
    try:
        await start_two_humans(tg)
        await play_moves(tg, 6)
    finally:
        logsafe.uninstall()
    _v, game = await stored(tg)
    hands = play.deal_of(game).hands
    hidden = {str(c) for hand in hands for c in hand} | {c.code for h in hands for c in h}
    assert any(r.name.startswith("telegram") for r in caplog.records)
    return [r.getMessage() for r in caplog.records], hidden


async def test_debug_logs_never_carry_the_bot_token(
        tg: Tg, caplog: pytest.LogCaptureFixture) -> None:
    lines, _hidden = await debug_game(tg, caplog)
    assert lines and [line for line in lines if TOKEN in line] == []


async def test_debug_logs_never_carry_a_card_of_a_hand(
        tg: Tg, caplog: pytest.LogCaptureFixture) -> None:
    lines, hidden = await debug_game(tg, caplog)
    leaking = [line[:160] for line in lines if CARD.search(line) or any(
        f"'{c}'" in line or f'"{c}"' in line for c in hidden)]
    assert leaking == []
