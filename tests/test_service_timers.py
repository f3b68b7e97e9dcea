"""Timers: turn timeout with the safe move, AFK takeover and /voltar, AI pacing,
deadline claims across workers, idle closing (issue 4 "Timers")."""

from __future__ import annotations

import asyncio
from typing import Any

from test_service_support import (
    ANA,
    BIA,
    CHAT,
    Backend,
    FakeClock,
    button,
    game_of,
    kinds,
    make_service,
    only,
    texts,
)
from test_service_turns import hand_of, two_player_buraco

from bot import play
from bot.effects import Reply
from bot.service import Service

MISS_1 = "Ana não jogou a tempo: jogada automática (comprar e descartar)."
MISS_2 = "Ana não jogou a tempo de novo: o robô joga por Ana até /voltar."
PAUSED = ("Ninguém está jogando agora: a partida espera até alguém mandar /voltar "
          "(sem ninguém, fecha em 24 h).")
MISS_2_ALONE = "Ana não jogou a tempo de novo. " + PAUSED


async def test_timeout_plays_the_safe_move(svc: Service, store: Any, clock: FakeClock) -> None:
    await two_player_buraco(svc)
    clock.advance(89)
    assert await svc.tick() == []
    clock.advance(1)
    effects = await svc.tick()
    assert kinds(effects) == ["say", "table", "hand", "hand", "turn"]
    assert effects[0].text == MISS_1
    # drew J♥, then discarded the safe card: A♥ (most points, no wild, fits nothing)
    assert effects[1].view.lines[-3:] == ["Lixo: A♥ · Monte: 81", "Vez de Bia.",
                                          "Ana comprou do monte e descartou A♥."]
    ana = hand_of(effects, ANA)
    assert len(ana.cards) == 11 and "J♥" in [c.text for c in ana.cards]
    _v, game = await game_of(store)
    assert (game.seats[0].misses, game.seats[0].away) == (1, False)


async def _bia_plays(svc: Service, effects: list[Any]) -> list[Any]:
    bia = hand_of(effects, BIA)
    bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
    bia = hand_of(await svc.press(BIA, button(bia, bia.buttons[0][0].label)), BIA)
    return await svc.press(BIA, button(bia, "Descartar"))


async def test_two_timeouts_hand_the_seat_to_the_ai_until_voltar(
        svc: Service, store: Any, clock: FakeClock) -> None:
    await two_player_buraco(svc)
    clock.advance(90)
    effects = await _bia_plays(svc, await svc.tick())
    clock.advance(90)
    effects = await svc.tick()
    assert texts(effects)[0] == MISS_2
    # Bia pressed her hand 90 s ago: it is open, her turn is not pinged (issue 30)
    assert kinds(effects) == ["say", "table", "hand", "hand", "unping"]
    _v, game = await game_of(store)
    assert (game.seats[0].misses, game.seats[0].away) == (2, True)
    assert hand_of(effects, ANA).lines[-1] == (
        "O robô está jogando por você. Mande /voltar para retomar.")
    # Bia plays; the AI now plays Ana's turn at once (no 90 s wait), no ping for Ana, and
    # Bia's own "Sua vez" is deleted: the turn is the robot's now (PingsOver)
    effects = await _bia_plays(svc, effects)
    assert kinds(effects) == ["table", "hand", "hand", "unping"]
    drew = await svc.tick()
    assert drew[0].view.lines[-1] == (
        "Ana comprou do monte e descartou 10♦. "  # less than 10 s ago (narration.RECENT_S)
        "Bia comprou do monte e descartou A♣. Ana comprou do monte.")
    discarded = await svc.tick()
    assert discarded[0].view.lines[-2] == "Vez de Bia."
    # /voltar gives the seat back
    back = await svc.come_back(CHAT, ANA)
    assert kinds(back) == ["say", "table", "hand"]
    assert back[0].text == "Ana voltou ao jogo."
    _v, game = await game_of(store)
    assert (game.seats[0].misses, game.seats[0].away) == (0, False)
    assert await svc.come_back(CHAT, ANA) == [Reply(player=ANA, text="Você já está jogando.")]


async def test_acting_again_ends_the_takeover(svc: Service, store: Any, clock: FakeClock) -> None:
    _gid, _a, _b = await two_player_buraco(svc)
    clock.advance(90)
    effects = await _bia_plays(svc, await svc.tick())
    clock.advance(90)
    effects = await svc.tick()
    effects = await _bia_plays(svc, effects)  # now it is Ana's turn, the AI's to play
    ana = hand_of(effects, ANA)
    clock.advance(60)  # the AI has not played for her yet
    toggled = await svc.press(ANA, button(ana, ana.buttons[0][0].label))
    assert kinds(toggled) == ["say", "table", "hand"]
    assert toggled[0].text == "Ana voltou ao jogo."  # the group hears it, as with /voltar
    _v, game = await game_of(store)
    assert (game.seats[0].misses, game.seats[0].away) == (0, False)
    # she is back mid-turn: no AI move, and a whole new timer
    assert await svc.tick() == []
    clock.advance(89)
    assert await svc.tick() == []
    clock.advance(1)
    assert texts(await svc.tick())[0] == MISS_1


async def test_nobody_present_the_game_waits_then_closes_idle(
        svc: Service, store: Any, clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    said: list[str] = []
    tables: list[Any] = []
    for _ in range(2):  # two misses; the AI answers in between
        clock.advance(90)
        effects = await svc.tick()
        said += texts(effects)
        assert texts(effects)[0] in (MISS_1, MISS_2_ALONE)
        tables += [e.view for e in effects if e.kind == "table"]
        while effects := await svc.tick():
            tables += [e.view for e in effects if e.kind == "table"]
    # the group is told why the robots stop: the last person is away; not that a robot
    # plays for her (issue 30: it does not, the game waits)
    assert said.count(MISS_2_ALONE) == 1 and MISS_2 not in said
    assert all(PAUSED not in text for text in said if text != MISS_2_ALONE)
    # and the table says so where it names the turn (a trial: it looked merely stuck)
    turn_line = next(line for line in reversed(tables[-1].lines) if line.startswith("Vez de"))
    assert turn_line == "Vez de Robô 2. Em pausa: mande /voltar para retomar."
    version, game = await game_of(store)
    assert game.seats[0].away and play.deal_of(game).turn == 1  # the AI's turn...
    clock.advance(3600)
    assert await svc.tick() == []  # ...but nobody is at the table: no AI marathon
    assert (await game_of(store))[0] == version
    clock.advance(86_400)
    effects = await svc.tick()
    assert kinds(effects) == ["say", "tell", "closed"]
    assert texts(effects) == ["Mesa fechada por inatividade (24 h)."] * 2
    assert await store.chat_game(CHAT.key) is None


async def test_ai_moves_are_paced(store: Any, clock: FakeClock) -> None:
    svc = make_service(store, clock, ai_pace_s=1.5)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA)
    ana = hand_of(effects, ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = hand_of(await svc.press(ANA, button(ana, ana.buttons[0][0].label)), ANA)
    await svc.press(ANA, button(ana, "Descartar"))
    clock.advance(1.4)
    assert await svc.tick() == []
    clock.advance(0.1)
    assert only(await svc.tick(), "table").view.lines[-1] == (
        "Ana comprou do monte e descartou 5♣. Robô 2 comprou do monte.")
    assert await svc.tick() == []
    clock.advance(1.5)
    assert only(await svc.tick(), "table").view.lines[-2] == "Vez de Ana."


async def test_a_due_deadline_is_claimed_by_one_worker(
        backend: Backend, clock: FakeClock) -> None:
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    await two_player_buraco(w1)
    clock.advance(90)
    a, b = await asyncio.gather(w1.tick(), w2.tick())
    assert sorted([len(a) > 0, len(b) > 0]) == [False, True]
    assert texts(a + b).count(MISS_1) == 1


async def test_per_game_timer_option(svc: Service, clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco timer=30")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    clock.advance(29.9)
    assert await svc.tick() == []
    clock.advance(0.1)
    assert texts(await svc.tick())[0] == MISS_1


async def test_a_waiting_table_resumed_by_voltar_gives_the_robot_a_deadline_from_then(
        svc: Service, store: Any, clock: FakeClock) -> None:
    """Nobody present, the robot's turn waits an hour; /voltar resumes the table: the
    robot's deadline is the return (plus its pace), not the hour-old time the table
    paused, which read as a deadline an hour overdue (issue 36: the overdue gauge, and
    the reliability burst's check, took a table resumed just before the workers stopped
    for a frozen one). The robot then moves at once (its pace here is 0)."""
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    for _ in range(2):  # two misses: Ana is away, nobody is present
        clock.advance(90)
        while await svc.tick():
            pass
    version, game = await game_of(store)
    assert game.paused() and play.deal_of(game).turn == 1
    clock.advance(3600)
    await svc.come_back(CHAT, ANA)
    assert await store.claim_due(clock.now() - 1.0, 10) == []  # not due an hour ago
    moved = await svc.tick()
    assert (await game_of(store))[0] > version + 1  # /voltar, then the robot's move
    assert "table" in kinds(moved)
