"""Lobby: /novojogo, /entrar, /sair, /robo, shuffle, /iniciar, /cancelar (issue 4 "Lobby")."""

from __future__ import annotations

from typing import Any

import pytest
from test_service_support import (
    ANA,
    BIA,
    CAIO,
    CHAT,
    CHAT2,
    DANI,
    EVA,
    FakeClock,
    button,
    game_of,
    kinds,
    make_service,
    only,
    texts,
)

from bot.effects import Reply, TableView
from bot.model import encode
from bot.service import Service
from engine.errors import IllegalAction
from engine.rules import make_rules


async def test_new_game_opens_a_lobby_of_the_default_table_offering_the_others(
        svc: Service) -> None:
    """RULES A0: /novojogo without a variant opens Bossa Nova; the lobby describes it
    and offers every other variant, one line and one button each (issue 30)."""
    effects = await svc.new_game(CHAT, ANA, "")
    table = only(effects, "table")
    assert isinstance(table, TableView)
    assert table.view.title == "Buraco Bossa Nova · até 1500 pontos"
    assert table.view.lines == [
        "Mesa aberta por Ana.",
        "Buraco Bossa Nova: com morto; para encerrar a mão o lado precisa de uma canastra. "
        "A mais jogada.",
        "Lugar 1: Ana · lado 1",
        "Jogadores: 2, 3, 4 · tempo por jogada: 90 s",
        "Sortear duplas: não",
        "Outras variantes (um toque de quem abriu a mesa):",
        "• Buraco com Morto: quem bate primeiro pega o morto; encerra a mão sem precisar de "
        "canastra.",
        "• Buraco: sem morto; a mão acaba quando alguém bate, sem precisar de canastra.",
        "• Tranca: o lixo fechado só se pega justificando o topo; 3 vermelho vale 100, 3 preto "
        "tranca o lixo; bater exige canastra limpa.",
        "• Justificado: só sequências; o lixo se pega justificando o topo; bater exige "
        "canastra limpa; A a A limpa vale 1.000.",
        "• Biriba com Tranca de Altaneira: duplas, só sequências, até 5.000; Dólar (3 "
        "vermelho) e Tranca (3 preto, que mata o lixo).",
    ]
    labels = [[b.label for b in row] for row in table.view.buttons]
    assert labels == [["Entrar", "Sair"], ["Robô", "Sortear duplas"], ["Iniciar", "Cancelar"],
                      ["Buraco com Morto", "Buraco", "Tranca"], ["Justificado", "Altaneira"]]
    gid = table.game_id
    assert [b.data for b in table.view.buttons[3]] == [f"{gid}|0|v|1", f"{gid}|0|v|2",
                                                       f"{gid}|0|v|3"]
    assert all(len(b.data.encode()) <= 64 for row in table.view.buttons for b in row)


async def test_options_go_to_the_engine_rules(svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "tranca target=3000 timer=60"), "table")
    assert table.view.title == "Tranca · até 3000 pontos"
    assert "Jogadores: 2, 4 · tempo por jogada: 60 s" in table.view.lines
    _v, game = await game_of(store)
    assert (game.preset, game.options, game.timer_s) == ("tranca", {"target": "3000"}, 60)


async def test_alias_and_one_deal_title(svc: Service) -> None:
    table = only(await svc.new_game(CHAT, ANA, "stbl"), "table")
    assert table.view.title == "Justificado · uma mão"


async def test_unknown_preset_gets_the_engine_reason_and_nothing_opens(
        svc: Service, store: Any) -> None:
    effects = await svc.new_game(CHAT, ANA, "pife")
    assert effects == [Reply(player=ANA, text=(
        "Variante desconhecida: 'pife' (conheço: altaneira, biriba, biriba_tranca, bossa_nova,"
        " buraco, buraco_morto, justificado, stbl, tranca)."))]
    assert await store.chat_game(CHAT.key) is None


async def test_bad_option_and_bad_timer_are_refused(svc: Service, store: Any) -> None:
    refused = await svc.new_game(CHAT, ANA, "buraco cor=azul")
    assert texts(refused)[0].startswith("Opção desconhecida ou fixa nesta variante: 'cor'")
    with pytest.raises(IllegalAction) as engine_refusal:
        make_rules("tranca", {"jokers": "true"})
    reason = engine_refusal.value.message
    assert texts(await svc.new_game(CHAT, ANA, "tranca jokers=true")) == [
        reason[0].upper() + reason[1:] + "."]  # the engine's pt-BR reason as a sentence
    assert texts(await svc.new_game(CHAT, ANA, "timer=5")) == [
        "Tempo de jogada inválido: use timer=15 a timer=3600 (segundos)."]
    # the name the person typed, not its other name (a trial: "tempo=5" said "timer=")
    assert texts(await svc.new_game(CHAT, ANA, "buraco TEMPO=5")) == [
        "Tempo de jogada inválido: use tempo=15 a tempo=3600 (segundos)."]
    assert texts(await svc.new_game(CHAT, ANA, "buraco sortear=talvez")) == [
        "Sortear duplas: use sortear=sim ou sortear=não."]
    assert texts(await svc.new_game(CHAT, ANA, "buraco tranca")) == [
        "Não entendi 'tranca': use opção=valor."]
    # a trial: "target=" (no value) opened a one-deal match without a word
    assert texts(await svc.new_game(CHAT, ANA, "buraco target=")) == [
        "Não entendi 'target=': use opção=valor."]
    assert texts(await svc.new_game(CHAT, ANA, "buraco =3000")) == [
        "Não entendi '=3000': use opção=valor."]
    assert await store.chat_game(CHAT.key) is None


async def test_second_new_game_points_to_the_existing_one(svc: Service) -> None:
    first = only(await svc.new_game(CHAT, ANA, "tranca"), "table")
    again = await svc.new_game(CHAT, BIA, "buraco")
    assert kinds(again) == ["reply", "table"]
    assert again[0] == Reply(player=BIA, text="Já há um jogo neste grupo: veja a mesa dele.")
    assert again[1].game_id == first.game_id
    assert again[1].view.title == "Tranca · uma mão"


async def test_join_leave_and_their_refusals(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "tranca")
    table = only(await svc.join(CHAT, BIA), "table")
    assert table.view.lines[2:4] == ["Lugar 1: Ana · lado 1", "Lugar 2: Bia · lado 2"]
    assert await svc.join(CHAT, BIA) == [Reply(player=BIA, text="Você já está na mesa.")]
    await svc.join(CHAT, CAIO)
    await svc.join(CHAT, DANI)
    assert await svc.join(CHAT, EVA) == [Reply(player=EVA, text="A mesa está cheia.")]
    assert await svc.leave(CHAT, EVA) == [Reply(player=EVA, text="Você não está na mesa.")]
    table = only(await svc.leave(CHAT, CAIO), "table")
    assert "Lugar 3: Dani · lado 1" in table.view.lines
    _v, game = await game_of(store)
    assert [p.name for _s, p in game.humans()] == ["Ana", "Bia", "Dani"]


async def test_four_seats_make_pairs_by_seat_order(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "")
    for p in (BIA, CAIO, DANI):
        table = only(await svc.join(CHAT, p), "table")
    assert table.view.lines[2:6] == [
        "Lugar 1: Ana · lado 1", "Lugar 2: Bia · lado 2",
        "Lugar 3: Caio · lado 1", "Lugar 4: Dani · lado 2"]


async def test_creator_leaving_passes_the_table_and_last_leaving_closes(
        svc: Service, store: Any) -> None:
    opened = only(await svc.new_game(CHAT, ANA, ""), "table")
    await svc.join(CHAT, BIA)
    table = only(await svc.leave(CHAT, ANA), "table")
    assert table.view.lines[0] == "Mesa aberta por Bia."
    effects = await svc.leave(CHAT, BIA)
    assert kinds(effects) == ["say", "closed"]
    assert effects[0].text == "Mesa fechada: todos saíram."
    assert await store.chat_game(CHAT.key) is None
    assert await store.load_game(opened.game_id) is None


async def test_add_ai_only_by_the_creator_with_a_known_level(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.join(CHAT, BIA)
    assert texts(await svc.add_ai(CHAT, BIA, "")) == [
        "Só quem abriu a mesa pode adicionar robôs."]
    assert texts(await svc.add_ai(CHAT, ANA, "genial")) == [
        "Nível desconhecido: use facil, normal ou dificil."]
    table = only(await svc.add_ai(CHAT, ANA, "fácil"), "table")
    assert "Lugar 3: Robô 3 (fácil) · lado 1" in table.view.lines
    table = only(await svc.add_ai(CHAT, ANA, "hard"), "table")
    assert "Lugar 4: Robô 4 (difícil) · lado 2" in table.view.lines
    assert texts(await svc.add_ai(CHAT, ANA, "")) == ["A mesa está cheia."]


async def test_lobby_buttons_do_the_same_as_commands(svc: Service) -> None:
    lobby = only(await svc.new_game(CHAT, ANA, "tranca"), "table").view
    table = only(await svc.press(BIA, button(lobby, "Entrar")), "table")
    assert "Lugar 2: Bia · lado 2" in table.view.lines
    table = only(await svc.press(ANA, button(lobby, "Sortear duplas")), "table")
    assert "Sortear duplas: sim" in table.view.lines
    assert texts(await svc.press(BIA, button(lobby, "Sortear duplas"))) == [
        "Só quem abriu a mesa pode mudar isso."]
    table = only(await svc.press(BIA, button(lobby, "Sair")), "table")
    assert len([ln for ln in table.view.lines if ln.startswith("Lugar")]) == 1


async def test_tirar_robo_takes_the_last_robot_off_once_by_the_creator_or_an_admin(
        svc: Service, store: Any) -> None:
    """Issue 30: a robot added by mistake comes off with "Tirar Robô N" (the last one
    added); a double tap or an old lobby's button applies once; someone who may not
    manage the table gets one line; a chat admin may; no robot, no button."""
    lobby = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    assert not [b for row in lobby.buttons for b in row if b.label.startswith("Tirar")]
    await svc.join(CHAT, BIA)
    await svc.add_ai(CHAT, ANA, "facil")
    lobby = only(await svc.add_ai(CHAT, ANA, ""), "table").view
    assert [b.label for b in lobby.buttons[1]] == ["Robô", "Tirar Robô 4", "Sortear duplas"]
    version, _game = await game_of(store)
    assert texts(await svc.press(BIA, button(lobby, "Tirar Robô 4"))) == [
        "Só quem abriu a mesa ou um admin do grupo pode tirar robôs."]
    assert (await game_of(store))[0] == version
    after = only(await svc.press(ANA, button(lobby, "Tirar Robô 4")), "table").view
    assert [ln for ln in after.lines if ln.startswith("Lugar")] == [
        "Lugar 1: Ana · lado 1", "Lugar 2: Bia · lado 2", "Lugar 3: Robô 3 (fácil) · lado 3"]
    assert [b.label for b in after.buttons[1]] == ["Robô", "Tirar Robô 3", "Sortear duplas"]
    version, _game = await game_of(store)
    # the same button again (a double tap, an old lobby): that robot is gone already
    assert texts(await svc.press(ANA, button(lobby, "Tirar Robô 4"))) == [
        "Esse robô já saiu da mesa."]
    assert (await game_of(store))[0] == version
    # a chat admin manages the table too
    after = only(await svc.press(BIA, button(after, "Tirar Robô 3"), is_admin=True, chat=CHAT),
                 "table").view
    assert [ln for ln in after.lines if ln.startswith("Lugar")] == [
        "Lugar 1: Ana · lado 1", "Lugar 2: Bia · lado 2"]
    assert [b.label for b in after.buttons[1]] == ["Robô", "Sortear duplas"]
    # once the game has started the lobby's button is refused
    lobby = only(await svc.add_ai(CHAT, ANA, ""), "table").view
    await svc.start(CHAT, ANA)
    version, _game = await game_of(store)
    assert texts(await svc.press(ANA, button(lobby, "Tirar Robô 3"))) == [
        "A partida já começou."]
    assert (await game_of(store))[0] == version


async def test_start_needs_a_valid_seat_count_and_the_creator(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "tranca")
    assert texts(await svc.start(CHAT, ANA)) == [
        "Esta variante joga com 2 ou 4 jogadores; a mesa tem 1."]
    await svc.join(CHAT, BIA)
    await svc.join(CHAT, CAIO)
    assert texts(await svc.start(CHAT, ANA)) == [
        "Esta variante joga com 2 ou 4 jogadores; a mesa tem 3."]
    await svc.leave(CHAT, CAIO)
    assert texts(await svc.start(CHAT, BIA)) == ["Só quem abriu a mesa pode iniciar."]
    effects = await svc.start(CHAT, ANA)
    assert kinds(effects) == ["table", "hand", "hand", "turn"]
    assert effects[0].view.lines[-2:] == ["Vez de Ana.", "A partida começou."]
    assert [e.player.name for e in effects[1:3]] == ["Ana", "Bia"]
    assert effects[3].text == "Sua vez em Grupo do Buraco."
    assert texts(await svc.join(CHAT, CAIO)) == ["A partida já começou."]


async def test_shuffle_reorders_seats_at_the_start(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco shuffle=sim")
    for p in (BIA, CAIO, DANI):
        await svc.join(CHAT, p)
    orders = set()
    for _ in range(12):
        _v, game = await game_of(store)
        orders.add(tuple(p.name for _s, p in game.humans()))
        if len(orders) > 1:
            break
        # a fresh lobby each round: shuffling happens at /iniciar
        await svc.cancel(CHAT, ANA)
        await svc.new_game(CHAT, ANA, "buraco shuffle=sim")
        for p in (BIA, CAIO, DANI):
            await svc.join(CHAT, p)
        await svc.start(CHAT, ANA)
    assert len(orders) > 1


async def test_a_robot_keeps_its_name_and_level_when_the_seats_are_shuffled(
        svc: Service, store: Any) -> None:
    seen = set()
    for _ in range(30):
        await svc.new_game(CHAT, ANA, "buraco shuffle=sim")
        await svc.join(CHAT, BIA)
        await svc.add_ai(CHAT, ANA, "fácil")
        await svc.add_ai(CHAT, ANA, "difícil")
        await svc.start(CHAT, ANA)
        _v, game = await game_of(store)
        robots = {game.name_of(i): s.ai for i, s in enumerate(game.seats) if s.is_ai}
        assert robots == {"Robô 3": "facil", "Robô 4": "dificil"}
        assert sorted(game.match["players"]) == ["Ana", "Bia", "Robô 3", "Robô 4"]
        seen.add(tuple(s.ai or "" for s in game.seats))
        await svc.cancel(CHAT, ANA)
        if len(seen) > 2:
            break
    assert len(seen) > 2  # the robots did move


async def test_a_robot_stored_without_its_number_keeps_its_name_when_shuffled(
        svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco shuffle=sim")
    await svc.add_ai(CHAT, ANA, "fácil")
    await svc.add_ai(CHAT, ANA, "difícil")
    version, game = await game_of(store)
    for seat in game.seats:
        seat.robot = 0  # as stored before robots kept a number
    assert await store.save_game(game.id, version, encode(game), 86_400)
    svc._cache.clear()
    for _ in range(12):
        await svc.start(CHAT, ANA)
        _v, game = await game_of(store)
        robots = {game.name_of(i): s.ai for i, s in enumerate(game.seats) if s.is_ai}
        assert robots == {"Robô 2": "facil", "Robô 3": "dificil"}
        if game.seats[0].player is None:
            break
        version, game = await game_of(store)
        game.status, game.match = "lobby", None  # back to the lobby: shuffle again
        assert await store.save_game(game.id, version, encode(game), 86_400)
        svc._cache.clear()


async def test_a_robot_keeps_its_name_when_someone_before_it_leaves(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    await svc.add_ai(CHAT, ANA, "fácil")
    table = only(await svc.leave(CHAT, BIA), "table")
    assert "Lugar 2: Robô 3 (fácil) · lado 2" in table.view.lines
    table = only(await svc.add_ai(CHAT, ANA, "difícil"), "table")
    assert "Lugar 3: Robô 4 (difícil) · lado 3" in table.view.lines


async def test_cancel_by_creator_or_admin_only(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    assert texts(await svc.cancel(CHAT, BIA)) == [
        "Só quem abriu a mesa ou um admin do grupo pode cancelar."]
    effects = await svc.cancel(CHAT, BIA, is_admin=True)
    assert kinds(effects) == ["say", "closed"]
    assert effects[0].text == "Jogo cancelado por Bia."
    assert await store.chat_game(CHAT.key) is None
    assert kinds(await svc.new_game(CHAT, BIA, "")) == ["table"]


async def test_cancel_leaves_the_table_saying_so_without_buttons(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    closed = only(await svc.cancel(CHAT, ANA), "closed")
    assert closed.final.lines == [
        "Mesa aberta por Ana.",
        "Buraco: sem morto; a mão acaba quando alguém bate, sem precisar de canastra.",
        "Lugar 1: Ana · lado 1", "Jogadores: 2, 3, 4, 6 · tempo por jogada: 90 s",
        "Sortear duplas: não", "Jogo cancelado por Ana."]  # no variants offered any more
    assert closed.final.buttons == []


async def test_cancel_of_a_started_game_ends_its_table_with_the_cancellation(
        svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    closed = only(await svc.cancel(CHAT, ANA), "closed")
    assert closed.final.title == "Buraco Bossa Nova · até 1500 pontos"
    assert closed.final.lines[-1] == "Jogo cancelado por Ana."
    assert closed.final.buttons == []


async def test_no_game_in_chat(svc: Service) -> None:
    for call in (svc.join, svc.leave, svc.start, svc.cancel, svc.come_back, svc.show_hand):
        assert await call(CHAT, ANA) == [Reply(
            player=ANA, text="Não há jogo aberto neste grupo. Use /novojogo.")]


async def test_one_person_plays_in_two_chats(svc: Service) -> None:
    a = only(await svc.new_game(CHAT, ANA, "tranca"), "table")
    b = only(await svc.new_game(CHAT2, BIA, "tranca"), "table")
    assert a.game_id != b.game_id
    await svc.join(CHAT2, ANA)
    await svc.add_ai(CHAT, ANA, "")
    assert kinds(await svc.start(CHAT, ANA)) == ["table", "hand", "turn"]
    assert kinds(await svc.start(CHAT2, BIA)) == ["table", "hand", "hand", "turn"]


async def test_lobby_idle_for_a_day_is_closed_and_players_told(
        store: Any, clock: FakeClock) -> None:
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    clock.advance(86_399)
    assert await svc.tick() == []
    clock.advance(1)
    effects = await svc.tick()
    assert kinds(effects) == ["say", "tell", "tell", "closed"]
    assert texts(effects) == ["Mesa fechada por inatividade (24 h)."] * 3
    assert [e.player.name for e in effects[1:3]] == ["Ana", "Bia"]
    assert await store.chat_game(CHAT.key) is None
