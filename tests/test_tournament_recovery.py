"""A tournament survives a worker dying between its writes (issue 29, the rule "no game
is lost, half-applied, doubled or left frozen"): a lost walkover timer is set again
from the record by the repair sweep or the next ``/torneio`` call, and a call whose
worker died before showing it is shown by the next tick, its W.O. time starting then."""

from __future__ import annotations

import pytest
from season_support import Redis, play_to_end, redis, worker  # noqa: F401  (fixture)
from test_service_support import ANA, BIA, CAIO, CHAT, FakeClock
from tournament_support import press, record

from bot.effects import Effect, Picture, PlayerRef, Say, TableView, pack
from bot.i18n import Translator
from bot.season.tournament import followup, texts
from bot.season.tournament.followup import timer_id
from bot.season.tournament.model import Tournament
from bot.service import Service

PEOPLE = {p.key: p for p in (ANA, BIA, CAIO)}


def said(out: list[Effect]) -> list[str]:
    return [e.text for e in out if isinstance(e, Say)]


def calls(out: list[Effect]) -> list[str]:
    """The titles of the tournament calls shown."""
    return [e.view.title for e in out if isinstance(e, TableView)
            and e.view.title.startswith("🏆 Rodada")]


def side_people(t: Tournament, side: int | None) -> list[PlayerRef]:
    assert side is not None
    return [PEOPLE[p.key] for p in t.sides[side].people]


async def started(svc: Service) -> Tournament:
    """A round robin of Ana, Bia and Caio with 2 minutes to show, started."""
    await svc.tournament(CHAT, ANA, "todos individual tranca wo=2")
    for person in (BIA, CAIO):
        await press(svc, CHAT, person, "ti")
    await press(svc, CHAT, ANA, "tc")
    return await record(svc, CHAT)


async def first_match_open(svc: Service) -> str:
    """:func:`started`, then both sides of the first match press "Estou aqui": its table
    opens; returns that game's id."""
    t = await started(svc)
    m = t.matches[0]
    for person in side_people(t, m.a) + side_people(t, m.b):
        await svc.press(person, pack(t.id, 0, "ta", 0), chat=CHAT)
    gid = (await record(svc, CHAT)).matches[0].game
    assert gid is not None
    return gid


async def test_a_lost_walkover_timer_is_set_again_by_the_sweep_and_falls_once_on_time(
        redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    first, store, _season = worker(redis, clock)
    t = await started(first)
    assert (t.current, t.posted, t.due) == (0, True, clock.t + 120)
    m = t.matches[0]
    await first.press(side_people(t, m.b)[0], pack(t.id, 0, "ta", 0), chat=CHAT)
    await store.clear_deadline(timer_id(CHAT.key))  # died between the record and timer
    second, _store, _season2 = worker(redis, clock)  # the first worker is gone
    assert await second.tick(now=clock.t + 119) == []  # its sweep re-arms, not yet due
    assert await store.has_deadline([timer_id(CHAT.key)]) == [True]
    out = await second.tick(now=clock.t + 121)
    t = await record(second, CHAT)
    assert said(out) == [texts.wo_text(t, t.matches[0], Translator("pt"))]  # ends round 1
    assert [e.caption for e in out if isinstance(e, Picture)] == [
        "🏆 Terminou: Rodada 1.\n" + texts.board_text(t, Translator("pt"))]
    assert t.current == 1 and t.matches[0].winner == m.b
    later = await second.tick(now=clock.t + 200)  # match 1's own W.O. is not due yet
    assert said(later) == [] and (await record(second, CHAT)).current == 1


async def test_the_board_sets_a_lost_walkover_timer_again(redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    svc, store, _season = worker(redis, clock)
    t = await started(svc)
    await store.clear_deadline(timer_id(CHAT.key))
    await svc.tournament(CHAT, CAIO, "tabela")
    assert await store.has_deadline([timer_id(CHAT.key)]) == [True]
    assert (await store.claim_due(clock.t + 119, 10)) == []  # due at the record's time
    assert (await store.claim_due(clock.t + 121, 10)) == [timer_id(CHAT.key)]
    assert (await record(svc, CHAT)).due == t.due


async def test_a_call_never_shown_after_a_crash_is_shown_by_the_next_tick_with_full_time(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    clock = FakeClock()
    first, store, _season = worker(redis, clock)
    gid = await first_match_open(first)

    async def dies(*_args: object, **_kw: object) -> list[Effect]:
        raise ConnectionError("worker killed")

    monkeypatch.setattr(followup, "post_call", dies)  # killed between count and post
    with pytest.raises(ConnectionError):
        await play_to_end(first, store, gid, ANA)
    monkeypatch.undo()
    counted_at = clock.t
    t = await record(first, CHAT)
    assert (t.counted, t.current, t.posted, t.due) == ([gid], 1, False, counted_at + 120)

    clock.t = counted_at + 11  # the next worker's tick, past the grace of the post
    second, _store, _season2 = worker(redis, clock)
    out = await second.tick()
    t = await record(second, CHAT)
    title = texts.call_view(t, 1, 0, Translator("pt")).view.title
    assert calls(out) == [title]
    assert (t.posted, t.due) == (True, clock.t + 120)  # the W.O. time starts now
    m = t.matches[1]
    await second.press(side_people(t, m.a)[0], pack(t.id, 0, "ta", 1), chat=CHAT)
    again = await second.tick(now=counted_at + 125)  # the old due is past: no W.O.
    assert calls(again) == [] and said(again) == []
    assert (await record(second, CHAT)).matches[1].winner is None
    out = await second.tick(now=clock.t + 121)
    t = await record(second, CHAT)
    assert said(out)[0] == texts.wo_text(t, t.matches[1], Translator("pt"))
    assert t.matches[1].winner == m.a


async def test_a_result_counted_by_a_redone_follow_up_has_its_call_shown_by_the_next_tick(
        redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    clock = FakeClock()
    first, store, season = worker(redis, clock)
    gid = await first_match_open(first)

    async def dies(*_args: object) -> bool:
        raise ConnectionError("worker killed")

    monkeypatch.setattr(season, "save_tournament", dies)  # killed before the count
    with pytest.raises(ConnectionError):
        await play_to_end(first, store, gid, ANA)
    monkeypatch.undo()
    assert (await record(first, CHAT)).counted == []
    clock.t += 3600
    second, _store, _season2 = worker(redis, clock)
    await second.tick()  # counts it; a redone follow-up's announcements are dropped
    t = await record(second, CHAT)
    assert (t.counted, t.current, t.posted) == ([gid], 1, False)
    clock.t += 11
    out = await second.tick()
    t = await record(second, CHAT)
    assert calls(out) == [texts.call_view(t, 1, 0, Translator("pt")).view.title]
    assert (t.posted, t.due) == (True, clock.t + 120)
    assert calls(await second.tick(now=clock.t + 60)) == []  # shown once


async def test_a_call_shown_normally_is_marked_and_not_shown_again_by_a_tick(
        redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    svc, _store, _season = worker(redis, clock)
    t = await started(svc)
    assert t.posted is True
    clock.t += 30
    assert calls(await svc.tick()) == []
    assert (await record(svc, CHAT)).due == t.due
