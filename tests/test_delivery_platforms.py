"""One Redis for both platforms: a process ticks only the games of the platforms it
delivers to (``Service.tick(platforms=...)``); a game of another platform it claims is
handed back, due again a second later, unplayed, for that platform's workers. (Found by the
Discord end-to-end test: a Discord process played a Telegram game's turn it could not
show.)"""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, CHAT, FakeClock, game_of, texts

from bot.service import HANDOFF_S, Service

MISS_1 = "Ana não jogou a tempo: jogada automática (comprar e descartar)."


async def test_a_game_of_another_platform_is_handed_back_unplayed(
        svc: Service, store: Any, clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco")  # a Telegram ("tg") table
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    version, _game = await game_of(store)
    clock.advance(90)  # Ana's turn timer is due
    assert await svc.tick(platforms=frozenset({"dc"})) == []
    assert (await game_of(store))[0] == version  # nothing played
    assert await svc.tick(platforms=frozenset({"dc"})) == []  # not due again yet
    clock.advance(HANDOFF_S)
    assert texts(await svc.tick(platforms=frozenset({"tg"})))[0] == MISS_1
    assert (await game_of(store))[0] > version


async def test_a_table_with_a_place_on_the_other_platform_is_stepped_by_either(
        svc: Service, store: Any, clock: FakeClock) -> None:
    """issue 35: a Telegram table a Discord person joined by code has a place on both; a
    Discord process that claims its due turn plays it (the Telegram place's effects are
    relayed), instead of handing it back a second at a time, so its robots are as quick
    as a one-platform table's. A table with no Discord place or person still goes back."""
    from bot.effects import ChatRef, PlayerRef

    ze = PlayerRef(platform="dc", user_id="77", name="Zé")
    await svc.new_game(CHAT, ANA, "buraco")
    reply = (await svc.invite(CHAT, ANA))[0]
    code = reply.text.split(": ", 1)[1].split("\n", 1)[0]
    await svc.join_code(ChatRef(platform="dc", chat_id="900", title="Canal"), ze, code)
    await svc.start(CHAT, ANA)
    version, _game = await game_of(store)
    clock.advance(90)  # Ana's turn timer is due
    effects = await svc.tick(platforms=frozenset({"dc"}))
    assert texts(effects)[0] == MISS_1
    assert {e.chat.key for e in effects if e.kind == "table"} == {"tg:-100", "dc:900"}
    assert (await game_of(store))[0] > version
