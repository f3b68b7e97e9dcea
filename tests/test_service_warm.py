"""The warm worker path (issue 13): a worker that saved a game last runs the next press
on its cached copy and saves in one round trip, onto that very stored text only."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_service_support import (
    ANA,
    BIA,
    CHAT,
    Backend,
    FakeClock,
    button,
    game_of,
    make_service,
    only,
    rollback,
)
from test_service_turns import hand_of, two_player_buraco

from bot import hands, play, views
from bot.effects import pack
from engine.cards import Card
from engine.melds import make_meld
from engine.rules import make_rules


class Counting:
    """Wraps a store and counts the calls of each method (one call, one round trip)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if not callable(method):
            return method

        def counted(*args: Any, **kw: Any) -> Any:
            self.calls.append(name)
            return method(*args, **kw)

        return counted


async def test_a_press_on_the_game_this_worker_saved_last_is_one_round_trip(
        backend: Backend, clock: FakeClock) -> None:
    store = Counting(backend.make())
    svc = make_service(store, clock)
    _gid, ana, _bia = await two_player_buraco(svc)
    started, _game = await game_of(store)
    store.calls.clear()
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte"), update="u:1"), ANA)
    assert store.calls == ["save_game"]
    store.calls.clear()
    picked = hand_of(await svc.press(ANA, button(ana, ana.buttons[0][0].label),
                                     update="u:2"), ANA)
    assert store.calls == ["save_game"] and picked.cards[0].selected
    version, game = await game_of(store)
    assert version == started + 2 and game.seats[0].sel == [0]


async def test_a_stale_cached_copy_is_refused_by_the_save_and_the_press_redone(
        backend: Backend, clock: FakeClock) -> None:
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    gid, ana, _bia = await two_player_buraco(w1)
    ana = hand_of(await w1.press(ANA, button(ana, "Comprar do monte")), ANA)  # w1 caches
    await w2.press(ANA, pack(gid, ana.version, "t", 0))  # w2 saves after it
    before, _game = await game_of(backend.make())
    picked = hand_of(await w1.press(ANA, pack(gid, ana.version, "t", 1), update="u:9"), ANA)
    assert [c.selected for c in picked.cards][:2] == [True, True]
    after, game = await game_of(backend.make())
    assert after == before + 1 and game.seats[0].sel == [0, 1]


async def test_a_refusal_on_the_cached_copy_is_checked_against_the_store(
        backend: Backend, clock: FakeClock) -> None:
    """Bia's press is out of turn on w1's cached copy, but w2 has since passed the turn
    to her: the refusal is not shown; the press is redone on the stored game."""
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    _gid, ana, bia = await two_player_buraco(w1)
    ana = hand_of(await w1.press(ANA, button(ana, "Comprar do monte")), ANA)  # w1 caches
    ana = hand_of(await w2.press(ANA, button(ana, ana.buttons[0][0].label)), ANA)
    bia = hand_of(await w2.press(ANA, button(ana, "Descartar")), BIA)  # Bia's turn now
    drawn = hand_of(await w1.press(BIA, button(bia, "Comprar do monte"), update="u:5"), BIA)
    assert len(drawn.cards) == len(bia.cards) + 1
    _v, game = await game_of(backend.make())
    assert game.seats[1].ver == drawn.version


async def test_a_redelivered_press_on_the_cached_copy_is_applied_once(
        backend: Backend, clock: FakeClock) -> None:
    svc = make_service(backend.make(), clock)
    gid, ana, _bia = await two_player_buraco(svc)
    data = pack(gid, ana.version, "t", 0)
    await svc.press(ANA, data, update="u:7")
    version, game = await game_of(backend.make())
    assert await svc.press(ANA, data, update="u:7") == []
    again, game2 = await game_of(backend.make())
    assert (again, game2.seats[0].sel) == (version, game.seats[0].sel) == (version, [0])


async def test_a_cached_copy_of_a_lost_save_is_refused_at_the_same_version(
        backend: Backend, clock: FakeClock) -> None:
    """Issue 12 defect 5d on the warm path: w1's save is lost in a failover, w2 saves
    another press under the same version number; w1's next press, made on its cached
    copy, must not be saved onto w2's state (it would drop w2's press)."""
    store = backend.make()
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    gid, ana, _bia = await two_player_buraco(w1)
    old_version, _game = await game_of(store)
    old = await store.load_game(gid)
    await w1.press(ANA, pack(gid, ana.version, "t", 0))  # w1 caches sel [0]
    await rollback(store, gid, *old)
    await w2.press(ANA, pack(gid, ana.version, "t", 2))  # same version number, sel [2]
    version, game = await game_of(store)
    assert version == old_version + 1 and game.seats[0].sel == [2]
    await w1.press(ANA, pack(gid, ana.version, "t", 3), update="u:3")
    version, game = await game_of(store)
    assert version == old_version + 2 and game.seats[0].sel == [2, 3]


async def test_a_worker_whose_cached_copies_go_stale_reads_first(
        backend: Backend, clock: FakeClock) -> None:
    """Presses spread over two workers in turn (a load balancer without affinity): each
    worker's cached copy is always one press old, so after a few refused saves both read
    the game first (two calls a press) instead of three."""
    stores = [Counting(backend.make()), Counting(backend.make())]
    workers = [make_service(s, clock) for s in stores]
    gid, ana, _bia = await two_player_buraco(workers[0])
    for k in range(40):  # select cards 0-9, unselect them, ...: alternating workers
        code = "t" if k // 10 % 2 == 0 else "u"
        await workers[k % 2].press(ANA, pack(gid, ana.version, code, k % 10), update=f"u:{k}")
    for store in stores:
        store.calls.clear()
    await workers[0].press(ANA, pack(gid, ana.version, "t", 5), update="u:40")
    assert stores[0].calls == ["load_for_update", "save_game"]
    _version, game = await game_of(backend.make())
    assert game.seats[0].sel == [5]


class InFlight(Counting):
    """A store whose save notes when it is sent and when its reply came (the reply
    comes a turn of the event loop later, as a network round trip's does)."""

    def __init__(self, inner: Any, events: list[str]) -> None:
        super().__init__(inner)
        self.events = events

    async def save_game(self, *args: Any, **kw: Any) -> bool:
        self.events.append("save sent")
        await asyncio.sleep(0)
        saved = bool(await self.inner.save_game(*args, **kw))
        self.events.append("save answered")
        return saved


async def test_a_press_builds_its_views_while_its_save_is_in_flight(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13: the hand and table views cost about as much as the save's round trip
    waits, so the runner sends the save first and builds them meanwhile."""
    events: list[str] = []
    svc = make_service(InFlight(backend.make(), events), clock)
    _gid, ana, _bia = await two_player_buraco(svc)
    built = hands.hand_view

    def noted(*args: Any) -> Any:
        events.append("hand built")
        return built(*args)

    monkeypatch.setattr(hands, "hand_view", noted)
    events.clear()
    drawn = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    assert events == ["save sent", "hand built", "save answered"]
    assert len(drawn.cards) == 12 and drawn.version == ana.version + 1


async def test_a_view_that_fails_is_logged_and_left_out_and_the_move_stands(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A fault while the views are built (after the save was sent) is logged by kind and
    place only, and the press returns without them: the draw is stored once, its
    redelivery changes nothing, and ``/mao`` shows the hand with the drawn card."""
    store = backend.make()
    svc = make_service(store, clock)
    gid, ana, _bia = await two_player_buraco(svc)
    before, _game = await game_of(store)

    def broken(*_args: Any) -> Any:
        raise RuntimeError("view fault 7♥")

    monkeypatch.setattr(hands, "hand_view", broken)
    assert await svc.press(ANA, button(ana, "Comprar do monte"), update="u:draw") == []
    monkeypatch.undo()
    after, game = await game_of(store)
    assert after == before + 1 and len(game_hand(game, 0)) == 12
    [logged] = [r.getMessage() for r in caplog.records if "views failed" in r.getMessage()]
    assert logged.startswith(f"game {gid}: views failed (RuntimeError at test_service_warm.py:")
    assert logged.endswith(" in broken)") and "7♥" not in logged
    assert await svc.press(ANA, button(ana, "Comprar do monte"), update="u:draw") == []
    again = hand_of(await svc.show_hand_of(gid, ANA), ANA)
    assert len(again.cards) == 12 and again.version == ana.version + 1


async def test_a_robot_move_whose_table_fails_keeps_the_robots_pace(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trial: a robot's move saved while its table view failed set the tick's 60 s
    retry over the deadline the save had just written, so the robot's next move waited
    a minute. The move stands, and the next tick plays on at the robot's pace."""
    store = backend.make()
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    ana = hand_of(await svc.start(CHAT, ANA), ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = hand_of(await svc.press(ANA, button(ana, ana.buttons[0][0].label)), ANA)
    await svc.press(ANA, button(ana, "Descartar"))
    before, _game = await game_of(store)

    def broken(*_args: Any) -> Any:
        raise RuntimeError("table fault")

    monkeypatch.setattr(views, "table_view", broken)
    assert await svc.tick() == []
    monkeypatch.undo()
    drew, game = await game_of(store)
    assert drew == before + 1 and len(game_hand(game, 1)) == 12
    table = only(await svc.tick(), "table").view  # no clock moved: pace 0, not 60 s
    assert table.lines[-1].startswith("Ana comprou do monte e descartou ")
    assert table.lines[-2] == "Vez de Ana." and (await game_of(store))[0] == drew + 1


def game_hand(game: Any, seat: int) -> list[Any]:
    """The cards of ``seat`` in the stored game's current deal."""
    return list(play.deal_of(game).hands[seat])


def test_meld_texts_are_remembered_as_show_writes_them_up_to_their_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``play.show_meld`` (the table's meld lines, issue 13) gives ``play.show``'s text
    and forgets everything once it holds ``SHOWN_KEPT`` texts."""
    monkeypatch.setattr(play, "SHOWN_KEPT", 2)
    monkeypatch.setattr(play, "_SHOWN", {})
    rules = make_rules("buraco")
    run = make_meld([Card.parse("7h"), Card.parse("8h"), Card.parse("9h")], rules)
    trio = make_meld([Card.parse("Qs"), Card.parse("Qd"), Card.parse("Qc")], rules)
    dirty = make_meld([Card.parse("4s"), Card.parse("2c"), Card.parse("6s")], rules)
    assert play.show_meld(run) == play.show(run.cards) == "7♥ 8♥ 9♥"
    assert play.show_meld(trio) == "Q♣ Q♦ Q♠" and len(play._SHOWN) == 2  # sorted
    # issue 30: a run's wild shows the rank it stands for
    assert play.show_meld(dirty) == "4♠ 2♣(5) 6♠" and list(play._SHOWN) == [
        (dirty.cards, 1)]


class FailingSave(Counting):
    """A store whose saves fail on the way (a Redis outage), after a turn of the loop."""

    async def save_game(self, *_args: Any, **_kw: Any) -> bool:
        await asyncio.sleep(0)
        raise ConnectionError("store down")


async def test_when_the_save_and_a_view_both_fail_the_saves_error_is_the_one_raised(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trial: the view's error hid the store's. The store's outage is what the caller
    (and the operator's log) must see; nothing is saved."""
    store = backend.make()
    svc = make_service(store, clock)
    _gid, ana, _bia = await two_player_buraco(svc)
    before, _game = await game_of(store)
    failing = make_service(FailingSave(store), clock)

    def broken(*_args: Any) -> Any:
        raise RuntimeError("view fault")

    monkeypatch.setattr(hands, "hand_view", broken)
    with pytest.raises(ConnectionError, match="store down"):
        await failing.press(ANA, button(ana, "Comprar do monte"), update="u:d")
    assert (await game_of(store))[0] == before


async def test_a_press_cancelled_while_its_save_flies_leaves_the_move_saved_once(
        backend: Backend, clock: FakeClock) -> None:
    """The press is cancelled (a worker shutting down) after its save was sent, while
    its views are being built: the save still finishes and nothing is left running; the
    draw stands once, its redelivery changes nothing, and ``/mao`` shows it."""
    events: list[str] = []
    store = backend.make()
    svc = make_service(InFlight(store, events), clock)
    gid, ana, _bia = await two_player_buraco(svc)
    before, _game = await game_of(store)
    events.clear()
    press = asyncio.ensure_future(
        svc.press(ANA, button(ana, "Comprar do monte"), update="u:cut"))
    while "save sent" not in events:
        await asyncio.sleep(0)
    press.cancel()
    with pytest.raises(asyncio.CancelledError):
        await press
    assert events == ["save sent", "save answered"]
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
    after, game = await game_of(store)
    assert after == before + 1 and len(game_hand(game, 0)) == 12
    assert await svc.press(ANA, button(ana, "Comprar do monte"), update="u:cut") == []
    again = hand_of(await svc.show_hand_of(gid, ANA), ANA)
    assert len(again.cards) == 12 and again.version == ana.version + 1
