# ruff: noqa: F811  (pytest fixtures imported from test_service_support)
"""What a fresh player's trial of whole matches on the Telegram emulator found (issue 30,
"The first hour", items O7, O8, T3/T4), through the service as a chat button press."""

from __future__ import annotations

from typing import Any

from test_service_support import (  # noqa: F401  (fixtures)
    ANA,
    BIA,
    CAIO,
    CHAT,
    Backend,
    FakeClock,
    backend,
    button,
    clock,
    game_of,
    kinds,
    store,
    svc,
    texts,
)
from test_service_turns import hand_of, idx, select, two_player_buraco

from bot.service import Service


def labels(view: Any) -> list[str]:
    return [b.label for row in view.buttons for b in row]


async def test_open_pile_is_taken_with_a_card_picked_while_waiting(
        svc: Service, store: Any) -> None:
    """RULES §2 "discard pile" (buraco: the whole pile, open, no justification): a card
    Bia tapped while waiting does not make "Pegar o lixo" a justified pick-up refused
    with "Neste jogo o lixo é aberto" (issue 30 O7); the pile is taken and J♣ stays
    picked, now beside the pile's cards. "Limpar" is offered whenever a card is picked,
    in any phase."""
    gid, ana, bia = await two_player_buraco(svc)
    bia = await select(svc, BIA, gid, bia, "J♣")
    assert "Aguarde a sua vez." in bia.lines and "Limpar" in labels(bia)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, "J♥")
    bia = hand_of(await svc.press(ANA, button(ana, "Descartar")), BIA)
    assert "Selecionadas: J♣" in bia.lines
    assert labels(bia)[-3:] == ["Comprar do monte", "Pegar o lixo", "Limpar"]
    effects = await svc.press(BIA, button(bia, "Pegar o lixo"))
    assert "reply" not in kinds(effects)
    bia = hand_of(effects, BIA)
    assert len(bia.cards) == 12 and "J♥" in [c.text for c in bia.cards]
    assert [c.text for c in bia.cards if c.selected] == ["J♣"]
    _v, game = await game_of(store)
    assert game.seats[1].sel == idx(bia, "J♣")
    assert "Bia pegou o lixo (1 carta)." in effects[0].view.lines[-1]


async def test_limpar_while_waiting_clears_the_pick(svc: Service, store: Any) -> None:
    """The "Limpar" offered out of turn works: the pick goes, the hand has no "Limpar"
    any more (issue 30 O7: only tapping the card again cleared it)."""
    gid, _ana, bia = await two_player_buraco(svc)
    bia = await select(svc, BIA, gid, bia, "J♣", "7♣")
    bia = hand_of(await svc.press(BIA, button(bia, "Limpar")), BIA)
    assert not any(c.selected for c in bia.cards) and "Limpar" not in labels(bia)
    _v, game = await game_of(store)
    assert game.seats[1].sel == []


async def test_timeout_after_the_draw_says_only_the_discard_was_automatic(
        svc: Service, clock: FakeClock) -> None:
    """RULES C11 (draw, melds, one discard): Bia drew and melded, then her timer ran out;
    only the discard was made for her. The group is told that much (issue 30 O8: it
    read "jogada automática (comprar e descartar)"), and her own hand says her time ran
    out and what the robot did (it read "Você ... descartou" as if she had)."""
    gid, ana, bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, "J♥")
    bia = hand_of(await svc.press(ANA, button(ana, "Descartar")), BIA)
    bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
    bia = await select(svc, BIA, gid, bia, "7♣", "7♦", "7♥")
    bia = hand_of(await svc.press(BIA, button(bia, "Baixar")), BIA)
    assert bia.lines[1] == "Você comprou o J♠ e baixou 7♣ 7♦ 7♥."
    clock.advance(90)
    effects = await svc.tick()
    assert texts(effects)[0] == (
        "Bia não jogou a tempo: jogada automática (só o descarte: já tinha comprado).")
    assert effects[1].view.lines[-1] == "Bia comprou do monte, baixou 7♣ 7♦ 7♥ e descartou A♣."
    assert hand_of(effects, BIA).lines == [
        "Mesa: Grupo do Buraco",
        "Você comprou do monte e baixou 7♣ 7♦ 7♥. Seu tempo acabou: o robô descartou A♣ "
        "por você.", "Aguarde a sua vez."]


async def test_timeout_of_a_whole_turn_is_told_in_the_hand(
        svc: Service, clock: FakeClock) -> None:
    """The whole turn made for Ana (draw and the safe discard, issue 4 "Timers"): the
    group reads "comprar e descartar" and her hand says her time ran out (O8)."""
    await two_player_buraco(svc)
    clock.advance(90)
    effects = await svc.tick()
    assert texts(effects)[0] == (
        "Ana não jogou a tempo: jogada automática (comprar e descartar).")
    assert hand_of(effects, ANA).lines[1] == (
        "Seu tempo acabou: o robô comprou do monte e descartou A♥ por você.")
    assert effects[1].view.lines[-1] == "Ana comprou do monte e descartou A♥."


CLUBS = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"
HEARTS = "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
SPADES = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"
DIAMONDS = "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"


async def _meld_all(svc: Service, player: Any, gid: str, view: Any) -> list[Any]:
    """``player`` picks every card of the hand ``view`` and presses "Baixar"."""
    view = await select(svc, player, gid, view, *[c.text for c in view.cards])
    return await svc.press(player, button(view, "Baixar"))


async def test_deal_result_says_why_a_side_pays_for_a_morto_it_took(
        backend: Backend, clock: FakeClock) -> None:
    """RULES C12: Ana goes out by discarding and takes her morto, playable only from her
    next turn; Bia ends the deal before it and before Caio's turn (two direct
    going-outs, C11, A17; both relancinhos, A21), so Ana's side pays -100 "as if it had
    not taken it". The result says why (issue 30 T3: a bare "morto -100" after the morto
    was taken read as a bug), and the cards left in a hand are named so ("cartas na
    mão", not "mão" beside "Fim da mão 1"). Caio never took his morto: "morto não pego"
    (C14)."""
    from test_console_numbers import Stacked
    from test_service_support import make_service

    svc = make_service(backend.make(), clock, deck_fn=Stacked(
        [CLUBS, HEARTS, CLUBS], "5d Ah", [SPADES, DIAMONDS, SPADES]))
    await svc.new_game(CHAT, ANA, "buraco_morto")
    await svc.join(CHAT, BIA)
    await svc.join(CHAT, CAIO)
    effects = await svc.start(CHAT, ANA)
    gid, ana = effects[0].game_id, hand_of(effects, ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, *CLUBS_TEXT)
    ana = hand_of(await svc.press(ANA, button(ana, "Baixar")), ANA)
    ana = await select(svc, ANA, gid, ana, "5♦")
    effects = await svc.press(ANA, button(ana, "Descartar"))
    assert "O morto (11 cartas) entra na sua mão na sua próxima vez." in hand_of(
        effects, ANA).lines
    bia = hand_of(effects, BIA)
    bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
    bia = hand_of(await _meld_all(svc, BIA, gid, bia), BIA)  # 3♥..A♥: the morto, direct
    assert [c.text for c in bia.cards] == DIAMONDS_TEXT
    effects = await _meld_all(svc, BIA, gid, bia)  # the morto's 11 diamonds: the deal ends
    result = next(t for t in texts(effects) if t.startswith("Fim da mão 1."))
    assert result == (
        "Fim da mão 1.\n"
        "Ana: jogos 85, canastra limpa 200, relancinho 100, morto pego com descarte, não "
        "jogado -100 = 285\n"
        "Bia: jogos 185, canastra limpa 200, canastra limpa 200, batida 50, relancinho 100 "
        "= 735\n"
        "Caio: jogos 0, cartas na mão -85, morto não pego -100 = -185\n"
        "  Na mão de Caio: 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣\n"
        "Placar: 285 × 735 × -185")


CLUBS_TEXT = ["3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "J♣", "Q♣", "K♣"]
DIAMONDS_TEXT = ["3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦", "J♦", "Q♦", "K♦"]
