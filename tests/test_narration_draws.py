"""Findings of a fresh-user trial on the narration: a red 3's replacement draw and the
first player's second card are told (named only in the drawer's own hand and marked
there like the drawn card), lists read with commas and one final "e"."""

from __future__ import annotations

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


async def test_a_red_three_replacement_draw_is_told_and_named_only_in_the_hand() -> None:
    """RULES A4: each Dólar laid draws a replacement (stock 3 cards lower for the draw
    and two 3s); the table says "comprou outra", the hand names and marks the card."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["3d", "3h"]),
                                stock_order(d, ["5h", "10h", "4c"]),
                                d.update(turn=0, phase="draw")))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♦")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    ana = await press_cards(svc, hand_of(effects, ANA), ANA, "3♥")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    table, hand = table_of(effects), hand_of(effects, ANA)
    said = "Ana comprou do monte, baixou o 3♦ e comprou outra e baixou o 3♥ e comprou outra."
    assert table.lines[-1] == said
    shown_everywhere(table, said)
    assert "10♥" not in telegram_text(table) and "4♣" not in telegram_text(table)
    own = "Você comprou o 5♥, baixou o 3♦ e comprou o 10♥ e baixou o 3♥ e comprou o 4♣."
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
    assert table.lines[-1] == "Ana comprou do monte e abriu o lixo com A♠ e comprou outra."
    assert "9♦" not in telegram_text(table)
    own = "Você comprou o A♠ e abriu o lixo com A♠ e comprou o 9♦."
    assert hand.lines[1] == own
    shown_everywhere(hand, own, hand=True)
    assert [c.text for c in hand.cards if c.drawn] == ["9♦"]
