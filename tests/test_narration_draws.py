"""Findings of a fresh-user trial on the narration: a red 3's replacement draw and the
first player's second card are told (named only in the drawer's own hand and marked
there like the drawn card), lists read with commas and one final "e"."""

from __future__ import annotations

from typing import Any

import pytest
from test_narration import (
    ANA,
    CHAT,
    button,
    hand_of,
    press_cards,
    rig,
    service,
    shown_everywhere,
    stock_order,
    swap_in,
    table_of,
    telegram_text,
)

from bot.i18n import Translator
from bot.narration import and_join


async def two_dollars_in_hand() -> tuple[Any, Any]:
    """Altaneira, Ana and three robots: Ana to draw, holding 3♦ and 3♥ (Dólares, RULES
    A4), the stock to give 5♥ then 10♥ and 4♣; the service and the start's effects."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["3d", "3h"]),
                                stock_order(d, ["5h", "10h", "4c"]),
                                d.update(turn=0, phase="draw")))
    return svc, started


async def test_a_red_three_replacement_draw_is_told_and_named_only_in_the_hand() -> None:
    """RULES A4: each Dólar laid draws a replacement (stock 3 cards lower for the draw
    and two 3s); the table says "comprou outra", the hand names and marks the card."""
    svc, started = await two_dollars_in_hand()
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♦")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    ana = await press_cards(svc, hand_of(effects, ANA), ANA, "3♥")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    table, hand = table_of(effects), hand_of(effects, ANA)
    said = "Ana comprou do monte, baixou o 3♦ e comprou outra, baixou o 3♥ e comprou outra."
    assert table.lines[-1] == said
    shown_everywhere(table, said)
    assert "10♥" not in telegram_text(table) and "4♣" not in telegram_text(table)
    own = "Você comprou o 5♥, baixou o 3♦ e comprou o 10♥, baixou o 3♥ e comprou o 4♣."
    assert hand.lines[1] == own
    shown_everywhere(hand, own, hand=True)
    assert sorted(c.text for c in hand.cards if c.drawn) == ["10♥", "4♣", "5♥"]
    shown_everywhere(hand, "•10♥", hand=True)


async def test_the_first_players_second_card_is_named_in_the_hand() -> None:
    """RULES A9 (altaneira): the first drawn card opens the pile and another is drawn;
    the table does not name the new card, the drawer's hand does and marks it."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (stock_order(d, ["As", "9d"]), d.update(turn=0, phase="draw")))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    effects = await svc.press(ANA, button(ana, "Abrir o lixo e comprar outra"))
    table, hand = table_of(effects), hand_of(effects, ANA)
    assert table.lines[-1] == "Ana abriu o lixo com A♠ e comprou outra."
    assert "9♦" not in telegram_text(table)
    own = "Você abriu o lixo com A♠ e comprou o 9♦."
    assert hand.lines[1] == own
    shown_everywhere(hand, own, hand=True)
    assert [c.text for c in hand.cards if c.drawn] == ["9♦"]


def test_a_turns_lists_read_with_commas_and_one_final_e_in_every_language() -> None:
    """One rule for every list: items joined by ", " and a final " e " (cards of a
    meld list, melds extended, the phrases of a turn); new melds and extensions of one
    lay-down are two phrases, so no "e ... e ... e" chain of phrases."""
    from test_narration import narrated_game

    from bot import views
    from bot.i18n import Translator
    from bot.narration import describe
    from engine.state import Event
    move = Event("melded", 1, {"melds": [["2d", "3d", "4d"], ["3s", "4s", "5s"]],
                               "extend": [{"meld": 0, "cards": ["4h"]},
                                          {"meld": 1, "cards": ["7s"]}]})
    game = narrated_game([("comprou do monte", {"seat": 1, "t": 3, "at": 0}),
                          describe(move, 3, [], False) or ("", {}),
                          ("descartou {card}", {"seat": 1, "t": 3, "at": 0, "card": "10♠"})])
    said = {lang: views.last_text(game, Translator(lang)) for lang in ("pt", "en", "it")}
    assert said == {
        "pt": "Robô 2 comprou do monte, baixou 2♦ 3♦ 4♦ e 3♠ 4♠ 5♠, juntou 4♥ ao jogo 1 e "
              "7♠ ao jogo 2, e descartou 10♠.",
        "en": "AI 2 drew from the stock, melded 2♦ 3♦ 4♦ and 3♠ 4♠ 5♠, added 4♥ to meld 1 and "
              "7♠ to meld 2, and discarded 10♠.",
        "it": "Robot 2 ha pescato dal tallone, ha calato 2♦ 3♦ 4♦ e 3♠ 4♠ 5♠, ha aggiunto 4♥ "
              "al gioco 1 e 7♠ al gioco 2, e ha scartato 10♠."}


def test_a_pile_pick_up_says_how_many_cards_with_plural_forms() -> None:
    from test_narration import narrated_game

    from bot import views
    from bot.i18n import Translator
    game = narrated_game([("pegou o lixo ({count})", {"seat": 1, "t": 3, "at": 0, "n": 1}),
                          ("descartou {card}", {"seat": 0, "t": 4, "at": 0, "card": "9♥"}),
                          ("pegou o lixo ({count}) baixando {cards}",
                           {"seat": 1, "t": 5, "at": 0, "n": 4, "cards": "7♦ 8♦ 9♦"})])
    said = {lang: views.last_text(game, Translator(lang)) for lang in ("pt", "en", "it")}
    assert said == {
        "pt": "Robô 2 pegou o lixo (1 carta). Ana descartou 9♥. "
              "Robô 2 pegou o lixo (4 cartas) baixando 7♦ 8♦ 9♦.",
        "en": "AI 2 took the discard pile (1 card). Ana discarded 9♥. "
              "AI 2 took the discard pile (4 cards) laying 7♦ 8♦ 9♦.",
        "it": "Robot 2 ha preso gli scarti (1 carta). Ana ha scartato 9♥. "
              "Robot 2 ha preso gli scarti (4 carte) calando 7♦ 8♦ 9♦."}
    old = narrated_game([("pegou o lixo (cartas: {n})", {"seat": 1, "t": 3, "at": 0, "n": 2})])
    assert views.last_text(old, Translator("pt")) == "Robô 2 pegou o lixo (2 cartas)."


def test_the_narrations_limit_drops_a_whole_turn_never_its_tail() -> None:
    """MAX_ENTRIES cut the oldest turn in two: the table said "Robô 2 descartou 10♠."."""
    from bot import narration
    old = [("comprou do monte", {"seat": 1, "t": 1, "at": 0}),
           ("descartou {card}", {"seat": 1, "t": 1, "at": 0, "card": "10♠"})]
    new = [("descartou {card}", {"seat": 0, "t": 2, "at": 0, "card": "9♥"})] * (
        narration.MAX_ENTRIES - 1)
    assert narration.recent(old + new, 2, 0) == new


def test_the_time_window_keeps_a_turn_whole_never_its_tail() -> None:
    """A turn whose last move is recent (RECENT_S) but whose draw is not stays whole: the
    table said "Bia descartou 3♣." after Bia drew, waited 11 s and discarded (second
    trial), and the terminal printed that tail again as a new turn."""
    from bot import narration
    bia = [("comprou do monte", {"seat": 1, "t": 5, "at": 100}),
           ("descartou {card}", {"seat": 1, "t": 5, "at": 111, "card": "3♣"})]
    later = [("comprou do monte", {"seat": 2, "t": 6, "at": 112}),
             ("comprou do monte", {"seat": 3, "t": 7, "at": 113})]
    assert narration.recent(bia + later, 7, 115) == bia + later
    assert narration.recent(bia + later, 7, 122) == later  # all of Bia's turn is old now


def test_an_extension_is_told_in_the_order_its_cards_lie_in_the_meld() -> None:
    """A run grown at its low end (RULES C10: the cards keep their places) was told in
    the order played, "juntou 7♣ 6♣ 5♣ 4♣ ao jogo 3" (second trial)."""
    from test_narration import narrated_game

    from bot import views
    from bot.i18n import Translator
    from bot.narration import describe
    from engine.cards import Card
    from engine.melds import make_meld
    from engine.rules import make_rules
    from engine.state import Event

    rules = make_rules("buraco", {})
    laid = [make_meld([Card.parse(c) for c in codes], rules) for codes in (
        ["Ah", "Ad", "As"], ["5h", "6h", "7h"],
        ["4c", "5c", "6c", "7c", "8c", "9c", "10c"])]
    move = Event("melded", 1, {"extend": [{"meld": 2, "cards": ["7c", "6c", "5c", "4c"]}]})
    entry = describe(move, 3, laid, False)
    assert entry is not None
    assert views.last_text(narrated_game([entry]), Translator("pt")) == (
        "Robô 2 juntou 4♣ 5♣ 6♣ 7♣ ao jogo 3.")


async def test_one_red_three_after_the_draw_reads_with_one_final_e() -> None:
    """RULES A4: the draw, then one Dólar laid and its replacement: the phrase that holds
    its own "e" ends the list, so no "e" runs on (a trial read "Você comprou o 5♥ e
    baixou o 3♦ e comprou o 10♥.")."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["3d"]), stock_order(d, ["5h", "10h"]),
                                d.update(turn=0, phase="draw")))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♦")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    said = "Ana comprou do monte, baixou o 3♦ e comprou outra."
    assert table_of(effects).lines[-1] == said
    assert hand_of(effects, ANA).lines[1] == "Você comprou o 5♥, baixou o 3♦ e comprou o 10♥."


@pytest.mark.parametrize(("lang", "items", "said"), [
    ("pt-BR", ["comprou o 5♥", "baixou o 3♦ e comprou o 10♥"],
     "comprou o 5♥, baixou o 3♦ e comprou o 10♥"),
    ("en", ["drew 5♥", "laid the 3♦ and drew 10♥"], "drew 5♥, laid the 3♦ and drew 10♥"),
    ("it", ["hai pescato 5♥", "hai calato il 3♦ e hai pescato 10♥", "hai scartato 7♦"],
     "hai pescato 5♥, hai calato il 3♦ e hai pescato 10♥, e hai scartato 7♦"),
    ("en", ["drew 5♥", "laid 4♦ 5♦ 6♦", "discarded 7♣"], "drew 5♥, laid 4♦ 5♦ 6♦ and discarded 7♣"),
])
def test_lists_never_run_two_ands_on(lang: str, items: list[str], said: str) -> None:
    """bot.narration.and_join: one final "e" ("and", "e"), set off by a comma after an
    item that holds its own, and none added after a last item that holds its own."""
    assert and_join(items, Translator(lang)) == said


def _stock_of_one(deal: dict[str, Any], code: str) -> None:
    """The stock is ``code`` alone: the rest of it goes to the killed pile (RULES A6)."""
    stock_order(deal, [code])
    deal["killed"] = [*deal.get("killed", []), *deal["stock"][1:]]
    deal["stock"] = deal["stock"][:1]


async def test_a26_a_morto_turned_stock_inside_a_turn_is_told_after_that_turn() -> None:
    """RULES A26 + A4: the 5♥ was the stock's last card; the Dólar's replacement comes
    from side 0's morto, turned stock: the table tells Ana's turn in one sentence, then
    the refill (a trial read "... comprou outra. O monte acabou: ... Ana descartou
    6♣.", as if the stock ran out after the replacement)."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["3d", "6c"]), _stock_of_one(d, "5h"),
                                d.update(turn=0, phase="draw")))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♦")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    assert table_of(effects).lines[-1] == ("Ana comprou do monte, baixou o 3♦ e comprou outra. "
                                           "O monte acabou: um morto virou monte.")
    ana = await press_cards(svc, hand_of(effects, ANA), ANA, "6♣")
    table = table_of(await svc.press(ANA, button(ana, "Descartar")))
    assert table.lines[-1] == ("Ana comprou do monte, baixou o 3♦ e comprou outra, e descartou "
                               "6♣. O monte acabou: um morto virou monte.")
    assert "Lixo: 6♣ (1 carta) · Monte: 10 · Mortos na mesa: 1" in table.lines


async def test_a4_baixar_o_3_with_nothing_picked_lays_the_red_three_in_hand() -> None:
    """RULES A4/A32: "Baixar o 3" lays the red 3 (the Dólar) the hand holds without
    picking it first, one a press, lowest first (a trial needed an extra tap); before the
    draw it says the turn's order, as "Descartar" does (RULES §2)."""
    svc, started = await two_dollars_in_hand()
    first = hand_of(started, ANA)
    draw = button(first, "Comprar do monte")
    for code in ("d", "m", "3"):  # "Descartar", "Baixar", "Baixar o 3" with this version
        early = await svc.press(ANA, draw.replace("|c|", f"|{code}|"))
        assert [e.text for e in early] == ["Primeiro compre do monte ou pegue o lixo."]
    ana = hand_of(await svc.press(ANA, button(first, "Comprar do monte")), ANA)
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    assert table_of(effects).lines[-1] == "Ana comprou do monte, baixou o 3♦ e comprou outra."
    effects = await svc.press(ANA, button(hand_of(effects, ANA), "Baixar o 3"))
    said = "Ana comprou do monte, baixou o 3♦ e comprou outra, baixou o 3♥ e comprou outra."
    assert table_of(effects).lines[-1] == said
    assert [c.text for c in hand_of(effects, ANA).cards if c.text.startswith("3")
            and c.red] == []
