"""Cancelling a tournament (issue 29) through the service: the call waiting for its
people loses "Estou aqui"; a match being played goes on as a normal game, and the group
is told so."""

from __future__ import annotations

from season_support import Redis, redis, worker  # noqa: F401  (fixture)
from test_service_support import ANA, BIA, CHAT, FakeClock, game_of
from tournament_support import press, record

from bot.effects import Say, TableView


async def test_a_cancel_during_a_call_edits_the_call_without_its_button(
        redis: Redis) -> None:  # noqa: F811
    svc, _store, _season = worker(redis, FakeClock())
    await svc.tournament(CHAT, ANA, "mata individual tranca")
    await press(svc, CHAT, BIA, "ti")
    await press(svc, CHAT, ANA, "tc")
    t = await record(svc, CHAT)
    out = await svc.tournament(CHAT, ANA, "cancelar")
    views = {e.game_id: e.view for e in out if isinstance(e, TableView)}
    assert views[t.id].buttons == [] and views[f"{t.id}p0"].buttons == []
    assert [e.text for e in out if isinstance(e, Say)] == ["🏆 Torneio cancelado por Ana."]


async def test_a_cancel_during_a_match_says_the_table_goes_on_as_a_normal_game(
        redis: Redis) -> None:  # noqa: F811
    svc, store, _season = worker(redis, FakeClock())
    await svc.tournament(CHAT, ANA, "mata individual tranca")
    await press(svc, CHAT, BIA, "ti")
    await press(svc, CHAT, ANA, "tc")
    await press(svc, CHAT, ANA, "ta", 0)
    await press(svc, CHAT, BIA, "ta", 0)
    out = await svc.tournament(CHAT, ANA, "cancelar")
    assert [e.text for e in out if isinstance(e, Say)] == [
        "🏆 Torneio cancelado por Ana.\nA partida que estava em jogo continua como um jogo "
        "normal, fora do torneio."]
    gid = (await record(svc, CHAT)).matches[0].game
    _v, game = await game_of(store, gid=gid)
    assert game.status == "playing" and await store.chat_game(CHAT.key) == gid
