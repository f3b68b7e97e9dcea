"""The coach never holds up a game (issue 37, follow-ups; issue 36: one game's trouble
never stalls another): the automatic review of a deal is thought and sent after the call
that ended the deal has answered (bot/later.py), and a worker thinks at most
``THINKING_AT_ONCE`` hints or reviews at a time (bot/coach_calls.py)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from test_coach_service import robot_chooser, up_to_the_robots_deal_ending_move
from test_service_support import ANA, CHAT, game_of, make_service
from test_service_turns import two_player_buraco

from bot.coach_calls import THINKING_AT_ONCE
from bot.effects import Effect, Reply, TableView, Tell
from engine.ai import coach as engine_coach

WAIT_S = 20.0
"""Seconds a test waits for a condition that a working service meets at once."""


async def test_the_deal_s_end_answers_before_its_automatic_review_is_thought(
        store: Any, clock: Any, monkeypatch: Any) -> None:
    """The step that ends the deal returns its table with no review and without waiting
    for one (the review is held mid-thought here); the review reaches the worker's
    delivery after, privately, once per deal and person."""
    svc = make_service(store, clock, chooser=robot_chooser, threaded=True)
    sent: list[Effect] = []

    async def deliver(effects: list[Effect]) -> None:
        sent.extend(effects)

    svc.follow_ups.deliver = deliver
    thinking, release = threading.Event(), threading.Event()
    real = engine_coach.review

    def held_review(*args: Any) -> Any:
        thinking.set()
        release.wait(WAIT_S)  # without the fix the step itself waits here, in vain
        return real(*args)

    monkeypatch.setattr(engine_coach, "review", held_review)
    await svc.review(CHAT, ANA, "auto")
    await up_to_the_robots_deal_ending_move(svc, store, clock)
    ticked = await svc.tick()
    assert not release.is_set()
    assert (await game_of(store))[1].status == "between"
    assert any(isinstance(e, TableView) for e in ticked)  # the step's own table
    assert not [e for e in ticked if isinstance(e, Tell)]  # no review in the answer
    assert await asyncio.to_thread(thinking.wait, WAIT_S)  # thought after the answer
    assert sent == []
    release.set()
    await svc.follow_ups.done(WAIT_S)
    assert svc.follow_ups.pending == 0
    assert [(type(e), e.player) for e in sent] == [(Tell, ANA)]  # privately, to Ana
    assert isinstance(sent[0], Tell) and sent[0].text.startswith("Revisão da mão 1:\n")
    _v, game = await game_of(store)
    await svc._after_deal(game)  # the same deal's end seen again (another save)
    await svc.follow_ups.done(WAIT_S)
    assert len(sent) == 1  # once per deal and person


async def test_a_worker_thinks_at_most_two_hints_at_a_time(
        store: Any, clock: Any, monkeypatch: Any) -> None:
    """Five people asking at once: the hints are thought at most THINKING_AT_ONCE at a
    time, the others wait their turn (each still gets its hint)."""
    assert THINKING_AT_ONCE == 2
    svc = make_service(store, clock, threaded=True)
    await two_player_buraco(svc)
    lock = threading.Lock()
    running = [0, 0]  # now, most at once
    full = threading.Event()  # THINKING_AT_ONCE hints were in at once
    real = engine_coach.hint

    def counted_hint(view: Any) -> Any:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
            if running[0] >= THINKING_AT_ONCE:
                full.set()
        try:
            assert full.wait(WAIT_S)
            # then a while for any unbounded thread to pile in (without the bound, all
            # five would be in here)
            threading.Event().wait(0.3)
            return real(view)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(engine_coach, "hint", counted_hint)
    answers = await asyncio.wait_for(
        asyncio.gather(*(svc.hint(CHAT, ANA) for _ in range(5))), WAIT_S * 3)
    assert running == [0, THINKING_AT_ONCE]
    for effects in answers:
        assert [type(e) for e in effects] == [Tell, Reply]
        assert effects[0].text == "Dica: Compre do monte (é a única compra possível)."


async def test_a_failed_follow_up_is_logged_sends_nothing_and_a_stop_cuts_a_long_one(
        caplog: Any) -> None:
    """:class:`bot.later.FollowUps`: work that raises is logged with what it was and
    delivers nothing; at a stop, work still running after the wait is cancelled."""
    from bot.later import FollowUps

    sent: list[Effect] = []

    async def deliver(effects: list[Effect]) -> None:
        sent.extend(effects)

    follow = FollowUps()
    follow.deliver = deliver

    async def broken() -> list[Effect]:
        raise ValueError("no record")

    never = asyncio.Event()

    async def endless() -> list[Effect]:
        await never.wait()
        return [Reply(player=ANA, text="late")]

    assert await follow.run(broken, "game g1: reviews of deal 1") == []
    assert await follow.run(endless, "game g2: reviews of deal 1") == []
    assert follow.pending == 2
    await follow.done(0.2)
    assert follow.pending == 0 and sent == []
    assert "game g1: reviews of deal 1: follow-up failed" in caplog.text
