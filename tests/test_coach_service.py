"""The coach at the table (issue 37, bot/coach_calls.py): the hand's "Dica" button,
``/dica`` and ``/revisao`` through the service, ``/config dicas``, and no coach at a
matchmade table. The hint goes to its person alone and nothing is saved."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, BIA, CHAT, button, game_of, kinds, make_service
from test_service_turns import hand_of, two_player_buraco

from bot import play
from bot.effects import Reply, Tell, pack
from bot.model import encode
from bot.service import Service
from engine.ai import choose
from engine.deal import apply
from engine.view import view_for

OLD = "Esse botão é antigo: use a mão mais recente (/mao)."


def robot_chooser(view: Any, level: str) -> Any:
    import random

    return choose(view, level, rng=random.Random(1000 * view.turn_count + view.seat))


async def test_the_dica_button_answers_its_presser_alone_and_saves_nothing(
        svc: Service, store: Any) -> None:
    _gid, ana, bia = await two_player_buraco(svc)
    assert [b.label for b in ana.buttons[2]] == ["💡 Dica"]  # above the moves, on her turn
    assert "💡 Dica" not in [b.label for r in bia.buttons for b in r]  # not Bia's turn
    before = await game_of(store)
    effects = await svc.press(ANA, button(ana, "💡 Dica"))
    (reply,) = effects
    assert isinstance(reply, Reply) and reply.player == ANA and reply.alert
    assert reply.text == "Dica: Compre do monte (é a única compra possível)."
    assert (await game_of(store))[0] == before[0]  # nothing saved
    assert await svc.press(ANA, button(ana, "💡 Dica")) == effects  # again: the same hint


async def test_dica_out_of_turn_or_from_an_old_hand_is_refused(svc: Service) -> None:
    gid, ana, bia = await two_player_buraco(svc)
    dica = button(ana, "💡 Dica")
    assert await svc.press(BIA, pack(gid, bia.version, "dc")) == [
        Reply(player=BIA, text="A dica é para a sua vez: espere a sua jogada.")]
    await svc.press(ANA, button(ana, "Comprar do monte"))
    refused = await svc.press(ANA, dica)  # the hand changed since
    assert [e for e in refused if isinstance(e, Reply)] == [Reply(player=ANA, text=OLD)]


async def test_the_dica_command_goes_to_the_private_chat_never_the_group(svc: Service) -> None:
    await two_player_buraco(svc)
    effects = await svc.hint(CHAT, ANA)
    assert kinds(effects) == ["tell", "reply"]
    tell, reply = effects
    assert isinstance(tell, Tell) and tell.player == ANA
    assert tell.text == "Dica: Compre do monte (é a única compra possível)."
    assert reply == Reply(player=ANA, text="Mandei no seu privado.")
    assert await svc.hint(CHAT, BIA) == [
        Reply(player=BIA, text="A dica é para a sua vez: espere a sua jogada.")]


async def test_a_group_turns_the_coach_off_for_its_new_tables(svc: Service) -> None:
    await svc.config(CHAT, ANA, "dicas off", is_admin=True)
    gid, ana, _bia = await two_player_buraco(svc)
    assert "💡 Dica" not in [b.label for r in ana.buttons for b in r]
    off = [Reply(player=ANA, text="As dicas estão desligadas nesta mesa.")]
    assert await svc.hint(CHAT, ANA) == off
    assert await svc.press(ANA, pack(gid, ana.version, "dc")) == off
    assert await svc.config(CHAT, ANA, "dicas talvez", is_admin=True) == [
        Reply(player=ANA, text="Dicas: use on ou off.")]


async def test_a_matchmade_table_has_no_coach(svc: Service, store: Any) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    version, game = await game_of(store)
    game.matched = True
    await store.save_game(gid, version, encode(game), 3600)
    refused = [Reply(player=ANA, text="Nas mesas da fila (/procurar) não há dicas nem "
                     "revisão: a partida vale para o ranking.")]
    assert await svc.press(ANA, pack(gid, ana.version, "dc")) == refused
    assert await svc.review(CHAT, ANA) == refused


async def test_revisao_names_the_costliest_decisions_of_the_last_deal_privately(
        store: Any, clock: Any) -> None:
    svc = make_service(store, clock, chooser=robot_chooser)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "normal")
    effects = await svc.start(CHAT, ANA)
    assert await svc.review(CHAT, ANA) == [Reply(
        player=ANA, text="Ainda não há mão terminada nesta partida para revisar.")]
    gid = effects[0].game_id
    version, game = await game_of(store)
    match = play.match_of(game)  # the deal played to its end by robots, Ana's seat facil
    while not match.deal_state.over:
        st = match.deal_state
        match.act(robot_chooser(view_for(st, st.turn), "facil" if st.turn == 0 else "normal"))
    play.store_match(game, match)
    game.status = "between"
    game.deals.append(list(match.results[-1].totals))
    await store.save_game(gid, version, encode(game), 3600)
    effects = await svc.review(CHAT, ANA)
    assert kinds(effects) == ["tell", "reply"]
    tell = effects[0]
    assert tell.player == ANA and tell.text.splitlines()[0] == "Revisão da mão 1:"
    assert effects[1] == Reply(player=ANA, text="Mandei no seu privado.")
    assert await svc.review(CHAT, BIA) == [Reply(player=BIA,
                                                 text="Você não jogou esta partida.")]
    hand = hand_of(await svc.show_hand(CHAT, ANA), ANA)  # between deals: its own review
    pressed = await svc.press(ANA, button(hand, "📋 Revisão da mão 1"))
    assert kinds(pressed) == ["tell", "reply"]  # the same deal's review, privately
    assert pressed[0].player == ANA and pressed[0].text.startswith("Revisão da mão 1:\n")
    assert await svc.press(ANA, pack(gid, hand.version, "rv", 2)) == [
        Reply(player=ANA, text="Botão desconhecido.")]  # a deal not played
    await svc.press(ANA, pack(gid, 0, "n", 2))  # the next deal: deal 1 goes to the record
    assert (await game_of(store))[1].status == "playing"
    again = await svc.review(CHAT, ANA)  # deal 1 read back from the record
    assert kinds(again) == ["tell", "reply"]
    assert again[0].text.startswith("Revisão da mão 1:\n")


async def up_to_the_robots_deal_ending_move(svc: Service, store: Any, clock: Any) -> str:
    """A buraco table of Ana (seat 0, played as ``facil``) and a ``normal`` robot, played
    up to the robot's move that ends the first deal, that move due now; the game id."""
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "normal")
    effects = await svc.start(CHAT, ANA)
    gid = effects[0].game_id
    version, game = await game_of(store)
    match = play.match_of(game)  # played up to the robot's move that ends the deal
    while True:
        st = match.deal_state
        action = robot_chooser(view_for(st, st.turn), "facil" if st.turn == 0 else "normal")
        if st.turn == 1:
            trial = st.clone()
            apply(trial, action)
            if trial.over:
                break
        match.act(action)
        assert not match.deal_state.over, "the deal ended on Ana's move: another deck"
    play.store_match(game, match)
    game.step_at = clock.now()
    await store.save_game(gid, version, encode(game), 3600, deadline=clock.now())
    clock.advance(5)
    return gid


async def test_revisao_auto_sends_each_deal_s_review_when_it_ends(store: Any, clock: Any) -> None:
    """``/revisao auto``: the person's own setting; the deal's end (here the robot's last
    move, played by the service's timer) sends that deal's review privately, once; a
    service with no delivery for its follow-ups (here) returns it with the step's
    effects (tests/test_coach_later.py: a worker's sends it after)."""
    svc = make_service(store, clock, chooser=robot_chooser)
    assert await svc.review(CHAT, ANA, "talvez") == [Reply(player=ANA, text=(
        "Use /revisao (a última mão), /revisao auto (a cada mão) ou /revisao off."))]
    said = await svc.review(CHAT, ANA, "auto")
    assert said[0].text.startswith("Revisão automática ligada para você:")
    await up_to_the_robots_deal_ending_move(svc, store, clock)
    ticked = await svc.tick()
    _v, game = await game_of(store)
    assert game.status == "between"
    tells = [e for e in ticked if isinstance(e, Tell)]
    assert len(tells) == 1 and tells[0].player == ANA
    assert tells[0].text.startswith("Revisão da mão 1:\n")
    hand = hand_of(await svc.show_hand(CHAT, ANA), ANA)
    await svc.press(ANA, button(hand, "📋 Revisão da mão 1"))  # a save-less look
    assert not [e for e in await svc.leave(CHAT, ANA) if isinstance(e, Tell)]  # sent once
    off = await svc.review(CHAT, ANA, "off")
    assert off == [Reply(player=ANA, text="Revisão automática desligada. /revisao mostra a "
                         "da última mão.")]
