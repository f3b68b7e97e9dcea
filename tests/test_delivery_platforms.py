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
