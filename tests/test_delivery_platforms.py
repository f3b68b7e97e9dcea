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


async def test_the_tick_loops_of_one_process_step_each_other_s_games(
        store_clients: Any, store_prefix: str) -> None:
    """Issue 35: in one process serving both platforms (``python -m bot serve``) each
    tick loop steps the games of both (the other's views relayed), so no loop hands a
    game back to the loop beside it, a second later (which slowed every one-platform
    table's robots when both ran); a loop alone steps its own platform's only."""
    import asyncio

    from test_delivery import Recorder

    from adapters.delivery.coalesce import EditCoalescer
    from adapters.delivery.outbox import Delivery
    from adapters.delivery.refs import GameRefs
    from adapters.delivery.stale import StaleTables
    from adapters.delivery.ticks import served, tick_loop

    seen: dict[str, frozenset[str] | None] = {}
    both = asyncio.Event()

    class Service:
        def __init__(self, name: str) -> None:
            self.name, self.calls = name, 0

        async def due(self, limit: int) -> list[str]:
            self.calls += 1
            return [f"g-{self.name}"] if both.is_set() and self.name not in seen else []

        async def tick_game(self, gid: str,
                            platforms: frozenset[str] | None = None) -> list[Any]:
            seen[self.name] = platforms
            return []

        async def table_of(self, game_id: str) -> list[Any]:
            return []

    def delivery(name: str) -> Delivery:
        platform = Recorder()
        platform.name = name
        client = store_clients()
        return Delivery(platform, GameRefs(client, store_prefix, platform=name),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        StaleTables(client, store_prefix, name))

    assert served("tg") == frozenset({"tg"})  # no loop running: its own only
    halt = asyncio.Event()
    loops = [asyncio.create_task(tick_loop(Service(n), delivery(n), every_s=0.02,
                                           stop=halt)) for n in ("tg", "dc")]
    await asyncio.sleep(0.05)
    both.set()
    for _ in range(200):
        if len(seen) == 2:
            break
        await asyncio.sleep(0.02)
    halt.set()
    await asyncio.gather(*loops)
    assert seen == {"tg": frozenset({"tg", "dc"}), "dc": frozenset({"tg", "dc"})}
    assert served("dc") == frozenset({"dc"})  # the loops ended
