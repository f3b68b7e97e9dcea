"""A worker that dies or fails between the steps of one press or timer step leaves no
game frozen, half done, doubled or lost (issue 12, defects 1, 5a-5d).

A worker "dies" here by raising :class:`Killed`, a ``BaseException`` nothing in the
service catches, at the step the test names: exactly what SIGKILL leaves behind
(everything before that step stored, nothing after it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis.exceptions
from test_service_match import play_deal
from test_service_support import (
    ANA,
    BIA,
    CAIO,
    CHAT,
    DANI,
    Backend,
    FakeClock,
    button,
    game_of,
    kinds,
    make_service,
    only,
    rollback,
)
from test_service_turns import hand_of

from bot import play
from bot.memstore import MemoryStore
from bot.model import decode
from bot.upkeep import SWEEP_S

LEASE_S = 10.0  # bot.ports.LEASE_S


class Killed(BaseException):
    """The worker process is gone at this point (SIGKILL, or SIGTERM mid-step)."""


def dying_chooser(view: Any, level: str) -> Any:
    raise Killed("killed while the robot thinks")


class Faulty:
    """Wraps a store: ``fail(name, exc, when)`` makes method ``name`` raise ``exc`` once
    when ``when(*args)`` holds; ``after=True`` raises after the call took effect."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.faults: dict[str, tuple[BaseException, Any, bool]] = {}

    def fail(self, name: str, exc: BaseException, when: Any = None, after: bool = False) -> None:
        self.faults[name] = (exc, when or (lambda *a: True), after)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name not in self.faults:
            return method

        async def wrapped(*args: Any, **kw: Any) -> Any:
            exc, when, after = self.faults[name]
            if not when(*args):
                return await method(*args, **kw)
            del self.faults[name]
            if not after:
                raise exc
            await method(*args, **kw)
            raise exc

        return wrapped


def says(effects: list[Any]) -> list[str]:
    return [e.text for e in effects if e.kind == "say"]


async def deadline(store: Any, gid: str) -> float | None:
    store = getattr(store, "inner", store)
    if isinstance(store, MemoryStore):
        return store.deadlines.get(gid)
    score = await store.client.zscore(store.keys.timers(), gid)
    return None if score is None else float(score)


async def robot_to_play(svc: Any) -> str:
    """Ana against Robô 2; Ana's turn played, so the robot is to move. The game id."""
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA)
    ana = hand_of(effects, ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = hand_of(await svc.press(ANA, button(ana, ana.buttons[0][0].label)), ANA)
    await svc.press(ANA, button(ana, "Descartar"))
    return str(effects[0].game_id)


async def test_a_worker_killed_during_a_robot_move_leaves_its_lease_to_another_worker(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 1: the claim is a lease, so the robot moves once the lease runs out."""
    dying = make_service(backend.make(), clock, chooser=dying_chooser)
    gid = await robot_to_play(dying)
    store = backend.make()
    with pytest.raises(Killed):
        await dying.tick()
    assert await deadline(store, gid) == clock.now() + LEASE_S
    heir = make_service(store, clock)
    clock.advance(LEASE_S - 0.1)
    assert await heir.tick() == []
    clock.advance(0.1)
    table = only(await heir.tick(), "table").view
    assert table.lines[-1] == "Ana comprou do monte e descartou 5♣. Robô 2 comprou do monte."
    _v, game = await game_of(store)
    assert play.deal_of(game).turn == 1 and play.deal_of(game).phase == "play"


async def test_the_sweep_restores_a_deadline_that_was_lost(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 1: a live game without a deadline (a Redis restart lost the write) gets
    the one its state calls for at the next worker's first tick."""
    first = make_service(backend.make(), clock)
    gid = await robot_to_play(first)
    store = backend.make()
    await store.clear_deadline(gid)
    fresh = make_service(store, clock)
    table = only(await fresh.tick(), "table").view
    assert table.lines[-1] == "Ana comprou do monte e descartou 5♣. Robô 2 comprou do monte."
    assert await deadline(store, gid) == clock.now()  # the robot's next step, unpaced
    # a later tick of the same worker does not sweep again until SWEEP_S has passed
    await store.clear_deadline(gid)
    assert await fresh.tick() == []
    clock.advance(SWEEP_S)
    assert kinds(await fresh.tick()) != []


async def test_one_bad_game_in_a_batch_keeps_every_deadline(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 5c: a state that cannot be decoded and a connection dropped mid-batch
    leave the other games served and every deadline in place."""
    store = Faulty(backend.make())
    svc = make_service(store, clock)
    chats = [CHAT.model_copy(update={"chat_id": str(-100 - i)}) for i in range(3)]
    gids = []
    for chat in chats:
        await svc.new_game(chat, ANA, "buraco")
        gids.append(await store.chat_game(chat.key))
    await store.create_game("broken", "z1:not base64 zlib", 10 * 86_400)
    await store.set_deadline("broken", clock.now() + 1)
    store.fail("load_game", redis.exceptions.ConnectionError("dropped"),
               when=lambda gid, *a: gid == gids[1])
    clock.advance(86_400)
    effects = await svc.tick()
    assert says(effects) == ["Mesa fechada por inatividade (24 h)."] * 2
    assert await store.chat_game(chats[0].key) is None
    assert await store.chat_game(chats[2].key) is None
    assert await store.chat_game(chats[1].key) == gids[1]
    assert await deadline(store, gids[1]) == clock.now() + 60
    assert await deadline(store, "broken") == clock.now() + 3_600  # unreadable: hourly
    clock.advance(60)
    assert says(await svc.tick()) == ["Mesa fechada por inatividade (24 h)."]
    assert await store.chat_game(chats[1].key) is None


async def test_a_press_whose_save_failed_is_applied_when_redelivered(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 5a: the update is marked applied by the save itself."""
    store = Faulty(backend.make())
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    draw = button(hand_of(effects, ANA), "Comprar do monte")
    store.fail("save_game", redis.exceptions.ConnectionError("dropped"))
    with pytest.raises(redis.exceptions.ConnectionError):
        await svc.press(ANA, draw, update="tg:9:u:501")
    _v, game = await game_of(store)
    assert play.deal_of(game).phase == "draw"
    again = await svc.press(ANA, draw, update="tg:9:u:501")
    assert only(again, "table").view.lines[-1] == "Ana comprou do monte."
    assert await svc.press(ANA, draw, update="tg:9:u:501") == []
    _v, game = await game_of(store)
    assert play.deal_of(game).phase == "play" and len(play.deal_of(game).hands[0]) == 12


async def test_a_command_redelivered_after_it_was_applied_changes_nothing(
        backend: Backend, clock: FakeClock) -> None:
    svc = make_service(backend.make(), clock)
    await svc.new_game(CHAT, ANA, "buraco", update="tg:9:u:1")
    assert await svc.new_game(CHAT, ANA, "buraco", update="tg:9:u:1") == []
    await svc.add_ai(CHAT, ANA, "", update="tg:9:u:2")
    assert await svc.add_ai(CHAT, ANA, "", update="tg:9:u:2") == []
    _v, game = await game_of(backend.make())
    assert len(game.seats) == 2


async def test_a_crash_after_the_match_ending_save_is_finished_by_whoever_comes_next(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 5b: the follow-ups are derived from the stored state and redone: the chat
    is freed, the record and the ranking are written, the ranking only once."""
    store = Faulty(backend.make())
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    gid = await store.chat_game(CHAT.key)
    store.fail("save_game", Killed("after the save"), after=True,
               when=lambda _g, _v, text, *a: decode(text).status == "over")
    with pytest.raises(Killed):
        await play_deal(svc, store)
    assert await store.chat_game(CHAT.key) == gid
    assert await store.load_record(gid) is None
    heir = make_service(backend.make(), clock)
    opened = await heir.new_game(CHAT, BIA, "buraco")
    assert kinds(opened) == ["table"]
    record = json.loads(await store.load_record(gid))
    assert record["players"] == ["Ana", "Robô 2"]
    board = only(await heir.scoreboard(CHAT, ANA), "reply").text
    assert board.endswith("Ranking do grupo:\n1. Ana: partidas 1, vitórias 0, pontos -480")
    clock.advance(86_400 * 3)  # the over game's deadline comes due: redone, not doubled
    await heir.tick()
    board = only(await heir.scoreboard(CHAT, ANA), "reply").text
    assert board.endswith("Ranking do grupo:\n1. Ana: partidas 1, vitórias 0, pontos -480")
    assert await deadline(store, gid) is None


async def test_a_worker_cache_is_not_trusted_after_the_store_went_back(
        backend: Backend, clock: FakeClock) -> None:
    """Defect 5d: the cache is checked against the stored text, not the version alone."""
    w1 = make_service(backend.make(), clock)
    store = backend.make()
    await w1.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    before = await store.load_game(gid)
    await w1.join(CHAT, BIA)  # w1 caches version 2 with Bia seated
    await rollback(store, gid, *before)  # that write is lost
    w2 = make_service(backend.make(), clock)
    await w2.join(CHAT, CAIO)  # version 2 again, with Caio
    await w1.join(CHAT, DANI)
    _v, game = await game_of(store)
    assert [s.player.name for s in game.seats if s.player] == ["Ana", "Caio", "Dani"]


class AlwaysLoses:
    """Wraps a store: every save loses its race, after sending its deadline as usual."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_game(self, game_id: str, _expected: int, *args: Any, **kw: Any) -> bool:
        return bool(await self.inner.save_game(game_id, -1, *args, **kw))


async def test_a_save_that_loses_puts_back_the_deadline_it_sent(
        backend: Backend, clock: FakeClock) -> None:
    """A save sends its new deadline in the same round trip; when it loses (here: every
    time), the deadline the stored game calls for is put back."""
    svc = make_service(backend.make(), clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    gid = str(effects[0].game_id)
    started = clock.now()
    ana = hand_of(effects, ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = hand_of(await svc.press(ANA, button(ana, ana.buttons[0][0].label)), ANA)
    clock.advance(30)
    loser = make_service(AlwaysLoses(backend.make()), clock)
    refused = await loser.press(ANA, button(ana, "Descartar"))
    assert [e.text for e in refused] == ["Muita gente jogando ao mesmo tempo: tente de novo."]
    assert await deadline(backend.make(), gid) == started + 90
    _v, game = await game_of(backend.make())
    assert play.deal_of(game).turn == 0
