"""A tournament through the service (issue 29 "Tournaments"): sign-up by button, a round
robin of 4 sides played to its champion with a walkover and a tie-break, exact standings
rows; bad input refused with one line and nothing changed."""

from __future__ import annotations

from season_support import Redis, play_to_end, redis, worker  # noqa: F401  (fixture)
from test_service_support import ANA, BIA, CAIO, CHAT, DANI, EVA, FakeClock, game_of
from tournament_support import press, record, show_up_and_play

from bot import play
from bot.effects import Picture, Reply, Say, TableView, pack
from bot.i18n import Translator
from bot.season.tournament import texts


def replies(out: list[object]) -> list[str]:
    return [e.text for e in out if isinstance(e, Reply)]


async def test_round_robin_of_four_to_its_champion_with_a_walkover_and_a_tie_break(
        redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    svc, store, _season = worker(redis, clock)
    out = await svc.tournament(CHAT, ANA, "todos individual tranca wo=2")
    assert isinstance(out[0], TableView)
    assert out[0].view.title == "🏆 Torneio de Tranca — todos contra todos, individual"
    for person in (BIA, CAIO, DANI):
        await press(svc, CHAT, person, "ti")
    out = await press(svc, CHAT, ANA, "tc")
    call = next(e for e in out if isinstance(e, TableView) and e.game_id.endswith("p0"))
    assert call.view.title == "🏆 Rodada 1 — Ana x Dani"
    for _match in range(5):  # rounds 1, 2 and the first match of round 3 are played
        await show_up_and_play(svc, store, CHAT)
    t = await record(svc, CHAT)
    assert t.current == 5
    assert texts.side_name(t, t.matches[5].a) == "Caio"
    await svc.press(DANI, pack(t.id, 0, "ta", 5), chat=CHAT)  # Caio never shows
    assert await svc.tick(now=clock.t + 119) == []  # the 2 minutes are not over yet
    clock.t += 121
    out = await svc.tick()
    said = [e.text for e in out if isinstance(e, Say)]
    assert said[0] == "🏆 W.O.: Caio x Dani (Caio ausente) → Dani"
    t = await record(svc, CHAT)
    assert t.status == "over"
    assert [texts.side_name(t, s) for s in [t.champion]] == ["Ana"]
    lines = texts.standings_lines(t, Translator("pt"))
    assert lines == ["1. Ana — 5 pts, 2 V, 1 D, saldo +360",
                     "2. Dani — 5 pts, 2 V, 1 D, saldo +0",
                     "3. Bia — 4 pts, 1 V, 2 D, saldo -180",
                     "4. Caio — 3 pts, 1 V, 2 D, saldo -180",
                     "Ana fica à frente de Dani por saldo."]
    assert said[-1] == "🏆 Campeão do torneio: Ana!"
    pictures = [e for e in out if isinstance(e, Picture)]
    assert len(pictures) == 1 and pictures[0].content.startswith(b"\x89PNG")
    assert pictures[0].caption == "🏆 Terminou: Rodada 3.\n" + texts.board_text(
        t, Translator("pt"))
    assert "Campeão: Ana" in pictures[0].caption.splitlines()
    assert [type(e).__name__ for e in out if isinstance(e, Say | Picture)] == [
        "Say", "Picture", "Say"]  # the W.O., the round's standings, the champion


async def test_a_match_result_is_counted_once_when_the_follow_up_is_redone(
        redis: Redis) -> None:  # noqa: F811
    from bot import upkeep

    clock = FakeClock()
    svc, store, season = worker(redis, clock)
    await svc.tournament(CHAT, ANA, "mata individual tranca")
    await press(svc, CHAT, BIA, "ti")
    await press(svc, CHAT, ANA, "tc")
    await show_up_and_play(svc, store, CHAT)
    t = await record(svc, CHAT)
    assert t.status == "over" and len(t.counted) == 1
    _v, game = await game_of(store, gid=t.counted[0])
    assert await upkeep.close_out(store, game, season) == []  # a redone follow-up
    assert (await record(svc, CHAT)).model_dump() == t.model_dump()


async def test_bad_tournament_input_gets_one_line_and_changes_nothing(
        redis: Redis) -> None:  # noqa: F811
    svc, _store, _season = worker(redis, FakeClock())
    assert replies(await svc.tournament(CHAT, ANA, "tabela")) == [
        "Não há torneio em andamento neste grupo."]
    assert replies(await svc.tournament(CHAT, ANA, "todos duplas truco")) != []
    await svc.tournament(CHAT, ANA, "todos individual")
    before = (await record(svc, CHAT)).model_dump()
    assert replies(await svc.tournament(CHAT, BIA, "mata")) == [
        "Já há um torneio neste grupo: veja /torneio tabela."]
    assert replies(await press(svc, CHAT, ANA, "ti")) == ["Você já está inscrito."]
    assert replies(await press(svc, CHAT, BIA, "to")) == ["Você não está inscrito."]
    await press(svc, CHAT, BIA, "ti")
    assert replies(await press(svc, CHAT, BIA, "tc")) == [
        "Só quem abriu o torneio pode começar."]
    assert replies(await press(svc, CHAT, ANA, "tc")) == [
        "São precisos ao menos 3 lados para começar."]
    assert replies(await svc.press(EVA, "zzzzzzzz|0|ti|", chat=CHAT)) == [
        "Esse botão é antigo: use a mensagem mais recente do torneio."]
    assert replies(await press(svc, CHAT, EVA, "ti", "7")) == ["Botão desconhecido."]
    assert replies(await press(svc, CHAT, EVA, "ta", "x")) == ["Botão desconhecido."]
    assert replies(await press(svc, CHAT, BIA, "tx")) == [
        "Só quem abriu o torneio ou um admin do grupo pode cancelar."]
    after = (await record(svc, CHAT)).model_dump()
    assert after == {**before, "people": [*before["people"], BIA.model_dump()]}
    out = await svc.tournament(CHAT, BIA, "cancelar", is_admin=True)
    assert [e.text for e in out if isinstance(e, Say)] == ["🏆 Torneio cancelado por Bia."]
    assert (await record(svc, CHAT)).status == "cancelled"


async def test_the_walkover_deadline_survives_a_restart(redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    first, _store, _season = worker(redis, clock)
    await first.tournament(CHAT, ANA, "mata individual wo=1")
    await press(first, CHAT, BIA, "ti")
    await press(first, CHAT, ANA, "tc")
    await press(first, CHAT, BIA, "ta", 0)  # Ana never shows
    clock.t += 61
    second, _store2, _season2 = worker(redis, clock)  # the first worker is gone
    out = await second.tick()
    assert [e.text if isinstance(e, Say) else e.caption
            for e in out if isinstance(e, Say | Picture)] == [
        "🏆 W.O.: Ana x Bia (Ana ausente) → Bia", "🏆 Terminou: Final.\n"
        + texts.board_text(await record(second, CHAT), Translator("pt")),
        "🏆 Campeão do torneio: Bia!"]
    assert await second.tick(now=clock.t + 3600) == []  # nothing due any more


async def test_a_lost_write_of_the_record_is_refused(redis: Redis) -> None:  # noqa: F811
    _svc, _store, season = worker(redis, FakeClock())
    assert await season.save_tournament("tg:-9", 0, '{"a": 1}') is True
    assert await season.save_tournament("tg:-9", 0, '{"a": 2}') is False  # read at 0
    assert await season.load_tournament("tg:-9") == (1, '{"a": 1}')
    assert await season.save_tournament("tg:-9", 1, '{"a": 3}') is True
    assert await season.load_tournament("tg:-9") == (2, '{"a": 3}')


async def test_a_match_waits_for_another_table_in_the_group(redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    svc, store, _season = worker(redis, clock)
    await svc.tournament(CHAT, ANA, "mata individual")
    await press(svc, CHAT, BIA, "ti")
    await press(svc, CHAT, ANA, "tc")
    await svc.new_game(CHAT, CAIO, "tranca")  # someone opens a table meanwhile
    await press(svc, CHAT, ANA, "ta", 0)
    out = await press(svc, CHAT, BIA, "ta", 0)
    assert [e.text for e in out if isinstance(e, Say)] == [
        "Há outro jogo aberto neste grupo: a partida do torneio começa quando ele acabar "
        "(ou for cancelado com /cancelar)."]
    gid = (await record(svc, CHAT)).matches[0].game
    assert gid is not None and await store.load_game(gid) is None
    await svc.cancel(CHAT, CAIO)
    clock.t += 61
    await svc.tick()
    assert await store.chat_game(CHAT.key) == gid
    _v, game = await game_of(store, gid=gid)
    assert ([s.player.name for s in game.seats if s.player], game.status) == (
        ["Ana", "Bia"], "playing")


async def test_pairs_sit_across_and_the_winning_pair_goes_through(
        redis: Redis) -> None:  # noqa: F811
    svc, store, _season = worker(redis, FakeClock())
    await svc.tournament(CHAT, ANA, "mata duplas tranca")
    for person in (BIA, CAIO, DANI):
        await press(svc, CHAT, person, "ti")
    await press(svc, CHAT, ANA, "tc")
    t = await record(svc, CHAT)
    assert [texts.side_name(t, s) for s in (0, 1)] == ["Ana + Bia", "Caio + Dani"]
    await show_up_and_play(svc, store, CHAT)
    t = await record(svc, CHAT)
    _v, game = await game_of(store, gid=t.counted[0])
    assert [s.player.name for s in game.seats if s.player] == ["Ana", "Caio", "Bia", "Dani"]
    state = play.deal_of(game)
    scores = play.match_scores(game)
    ana_team = state.side_of[0]
    assert state.side_of[2] == ana_team  # partners across
    m = t.matches[0]
    assert m.score == (scores[ana_team], scores[1 - ana_team])
    assert m.winner == (0 if game.winner == ana_team else 1) == t.champion


async def test_a_worker_dying_before_the_count_leaves_it_to_the_next_one(
        redis: Redis) -> None:  # noqa: F811
    clock = FakeClock()
    first, store, season = worker(redis, clock)
    await first.tournament(CHAT, ANA, "mata individual tranca")
    await press(first, CHAT, BIA, "ti")
    await press(first, CHAT, ANA, "tc")
    await press(first, CHAT, ANA, "ta", 0)
    await press(first, CHAT, BIA, "ta", 0)
    gid = (await record(first, CHAT)).matches[0].game
    assert gid is not None

    async def dies(*_args: object) -> bool:
        raise ConnectionError("worker killed")

    season.save_tournament = dies  # type: ignore[method-assign]
    try:
        await play_to_end(first, store, gid, ANA)
        raise AssertionError("the match ended without its follow-up failing")
    except ConnectionError:
        pass
    _v, game = await game_of(store, gid=gid)
    assert game.status == "over" and (await record(first, CHAT)).counted == []
    second, _store, _season = worker(redis, clock)
    clock.t += 3600
    await second.tick()
    t = await record(second, CHAT)
    assert (t.counted, t.status) == ([gid], "over")
    side_a = play.deal_of(game).side_of[0]
    assert t.matches[0].winner == (0 if game.winner == side_a else 1) == t.champion
    await second.tick(now=clock.t + 7200)
    assert (await record(second, CHAT)).counted == [gid]
