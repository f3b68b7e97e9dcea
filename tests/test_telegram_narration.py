# ruff: noqa: F811  (pytest fixtures imported from test_telegram_app)
"""Issue 14 part 2 through the Telegram adapter (python-telegram-bot's ``Application`` on
a fake Bot API, as in test_telegram_app.py): the group's table tells each turn whole,
the private hand names and marks the drawn card and confirms the person's own moves,
and ``/regras`` states the going-out rule of the variant."""

from __future__ import annotations

from test_telegram_app import ANA, BIA, GROUP, Tg, labels, start_two_humans, tg  # noqa: F401

from adapters.delivery.text import redden


def plain(text: str) -> str:
    """A Telegram text without the emoji selector that colours ♥ and ♦."""
    return text.replace("\ufe0f", "")


async def test_the_drawn_card_is_named_in_the_dm_only_and_the_turn_told_whole(tg: Tg) -> None:
    await start_two_humans(tg)
    await tg.press(ANA, tg.hand(ANA), "Comprar do monte")
    hand = tg.hand(ANA)
    marked = [plain(x) for x in labels(hand) if x.startswith("•")]
    assert len(marked) == 1, labels(hand)
    drawn = marked[0][1:]
    assert f"\nVocê comprou o {drawn}.\n" in plain(hand["text"])
    assert plain(tg.table()["text"]).endswith("\nVez de Ana.\nAna comprou do monte.")
    assert not any(drawn in plain(t) for t in tg.fake.texts_to(GROUP["id"]))
    await tg.press(ANA, hand, redden(f"•{drawn}"))
    await tg.press(ANA, tg.hand(ANA), "Descartar")
    said = f"Ana comprou do monte e descartou {drawn}."
    assert plain(tg.table()["text"]).endswith(f"\nVez de Bia.\n{said}")
    assert f"\nVocê comprou do monte e descartou {drawn}.\n" in plain(tg.hand(ANA)["text"])
    assert "•" not in "".join(labels(tg.hand(ANA)))  # no drawn card once the turn is over
    await tg.press(BIA, tg.hand(BIA), "Comprar do monte")
    assert plain(tg.table()["text"]).endswith(f"\n{said} Bia comprou do monte.")


async def test_regras_in_the_group_states_the_going_out_rule(tg: Tg) -> None:
    await tg.command(ANA, "/regras bossa_nova")
    text = tg.fake.texts_to(GROUP["id"])[-1]
    assert text.splitlines()[-2] == (  # the last line lists the table options
        "Para bater e pegar o morto: não precisa de canastra; para bater e encerrar a mão: "
        "precisa de uma canastra (limpa ou suja).")  # RULES A16
    await tg.command(ANA, "/regras buraco")
    assert tg.fake.texts_to(GROUP["id"])[-1].splitlines()[-2] == (
        "Para bater: não precisa de canastra.")  # RULES A17
