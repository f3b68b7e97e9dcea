"""Issue 30: where a wild could stand in two places (RULES C4, C5, docs D11/D20: a wild
that bridges no gap sits at either open end), the person chooses, in the chat (a hand
button per place, ``w`` / ``ew``) and in the terminal (a question after ``b``/``e``);
the table shows what the wild stands for (``2♦(A)``)."""

from __future__ import annotations

from test_console_numbers import ROBOT, play, stacked

from adapters.console.app import ConsoleGame

# Seat 0, sorted: 1:2♦ 2:2♦ 3:3♦ 4:5♥ 5:6♥ 6:7♥ 7:K♥ 8:9♠ 9:10♠ 10:J♠ 11:Q♠ (12:•2♣)
WILDS = "2d 2d 3d 5h 6h 7h Kh 9s 10s Js Qs"


async def test_the_hand_offers_a_button_per_place_and_the_choice_is_laid() -> None:
    """The chat's hand (the same buttons the terminal reads): 2♦ 2♦ 3♦ picked offers
    "Baixar 2♦ 3♦ 2♦(4)" (the default, D11) and "Baixar 2♦(A) 2♦ 3♦"; pressing the second
    lays A-2-3 (C5: the other 2♦ natural)."""
    game, _out = stacked([], [WILDS, ROBOT], "2c")
    assert await game.setup("buraco", 2)
    await game.press("c")
    for i in (0, 1, 2):
        await game.press("t", game.view_index(i))
    assert game.hand is not None
    places = [(b.label, b.data.split("|")[2:]) for row in game.hand.buttons for b in row
              if b.data.split("|")[2] == "w"]
    assert places == [("Baixar 2♦ 3♦ 2♦(4)", ["w", "4"]), ("Baixar 2♦(A) 2♦ 3♦", ["w", "1"])]
    assert await game.press("w", 1)
    assert game.table is not None and "  1) 2♦(A) 2♦ 3♦" in game.table.lines


async def test_the_terminal_asks_where_the_wild_stands_enter_is_the_default() -> None:
    text = await play(["c", "b 1 2 3", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "Onde fica o curinga? 1) Baixar 2♦ 3♦ 2♦(4)  2) Baixar 2♦(A) 2♦ 3♦ (Enter = 1)" \
        in text
    assert "│   1) 2♦(A) 2♦ 3♦ " in text
    text = await play(["c", "b 1 2 3", "", "q", "s"], [WILDS, ROBOT], "2c")
    assert "│   1) 2♦ 3♦ 2♦(4) " in text


async def test_an_extension_with_a_new_wild_asks_which_end() -> None:
    """D20: 5♥ 6♥ 7♥ laid, then the drawn 2♣ added (``e 1 12``): 4 or 8; a wrong answer
    asks again."""
    text = await play(["c", "b 4 5 6", "e 1 12", "x", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "Onde fica o curinga? 1) +1: 2♣(8)  2) +1: 2♣(4) (Enter = 1)" in text
    assert "Escolha um número de 1 a 2." in text
    assert "│   1) 2♣(4) 5♥ 6♥ 7♥ " in text


async def test_several_melds_keep_their_order_and_the_one_in_question_is_asked() -> None:
    """``b 1 2 3 / 4 5 6``: both melds are set aside in the order typed, the question is
    about the 2♦ meld, and they are laid as typed (issue 30: no reordering)."""
    text = await play(["c", "b 1 2 3 / 4 5 6", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "Onde fica o curinga? 1) 2♦ 3♦ 2♦(4)  2) 2♦(A) 2♦ 3♦ (Enter = 1)" in text
    assert "│   1) 2♦(A) 2♦ 3♦ " in text and "│   2) 5♥ 6♥ 7♥ " in text


async def test_a_closed_piles_justifying_meld_asks_where_the_wild_stands() -> None:
    """Tranca (RULES A10: the top card melded with two hand cards; ace high only, §2):
    Q♦ on the pile, ``l 5 1`` with K♦ and 2♣ makes Q♦ K♦ 2♣(A) or 2♣(J) Q♦ K♦."""
    mortos = ["Ah Ah Ac Ac As As 10c 10c 10d 10d 10h", "Jc Jc Jd Jd Jh Jh 9c 9c 9d 9d 9h"]
    text = await play(["c", "d 12", "l 5 1", "2", "q", "s"],
                      ["2c Kc 2d Kd 7h 9s 10s Js Qs Ks 4d",
                       "4s 4s 5s 5s 6s 6s Kh Kh Qd Qd 8h"], "Qc Qh", "tranca", mortos)
    assert "Robô 2 comprou do monte e descartou Q♦." in text
    assert ("Onde fica o curinga? 1) Pegar o lixo: Q♦ K♦ 2♣(A)  2) Pegar o lixo: 2♣(J) Q♦ "
            "K♦ (Enter = 1)") in text
    assert "│   1) 2♣(J) Q♦ K♦ " in text


async def with_2d_2d_3d_set_aside() -> ConsoleGame:
    """A buraco duel dealt :data:`WILDS`: the person has drawn (the 2♣), picked
    2♦ 2♦ 3♦ and set them aside ("Separar", ``g``)."""
    game, _out = stacked([], [WILDS, ROBOT], "2c")
    assert await game.setup("buraco", 2)
    await game.press("c")
    for i in (0, 1, 2):
        await game.press("t", game.view_index(i))
    assert await game.press("g")
    return game


async def test_every_meld_set_aside_offers_its_wild_s_places_in_the_chat_hand() -> None:
    """Issue 30: with 2♦ 2♦ 3♦ set aside ("Separar") and 5♥ 6♥ 7♥ 2♣ selected, both
    wilds could stand in two places; before, only the selection's meld had buttons. Now
    the meld set aside has its own row (``gw``, the place taken now in brackets), its
    choice is kept, and "Baixar" with the selection's place lays both as chosen."""
    game = await with_2d_2d_3d_set_aside()
    for i in (3, 4, 5, 11):
        await game.press("t", game.view_index(i))

    def rows() -> list[list[tuple[str, str]]]:
        assert game.hand is not None
        return [[(b.label, "|".join(b.data.split("|")[2:])) for b in row]
                for row in game.hand.buttons
                if row and row[0].data.split("|")[2] in ("w", "gw")]

    first = 100 * game.view_index(0)  # the group is named by its first card
    assert rows() == [
        [("Baixar 5♥ 6♥ 7♥ 2♣(8)", "w|8"), ("Baixar 2♣(4) 5♥ 6♥ 7♥", "w|4")],
        [("[Separado 1: 2♦ 3♦ 2♦(4)]", f"gw|{first + 4}"),
         ("Separado 1: 2♦(A) 2♦ 3♦", f"gw|{first + 1}")]]
    assert await game.press("gw", first + 1)
    assert await game.press("gw", first + 1)  # a double tap: the same place, no error
    assert rows()[1] == [("Separado 1: 2♦ 3♦ 2♦(4)", f"gw|{first + 4}"),
                         ("[Separado 1: 2♦(A) 2♦ 3♦]", f"gw|{first + 1}")]
    assert await game.press("w", 4)
    assert game.table is not None
    assert "  1) 2♦(A) 2♦ 3♦" in game.table.lines and "  2) 2♣(4) 5♥ 6♥ 7♥" in game.table.lines


async def test_a_place_button_of_a_meld_no_longer_set_aside_changes_nothing() -> None:
    game = await with_2d_2d_3d_set_aside()
    first = 100 * game.view_index(0)
    await game.press("u", game.view_index(1))  # the group comes back to the selection
    assert not await game.press("gw", first + 1)
    assert game.hand is not None and "Separado" not in " ".join(game.hand.lines)


async def test_the_terminal_asks_about_every_meld_whose_wild_is_in_question() -> None:
    """``b 1 2 3 / 4 5 6 12``: 2♦ 2♦ 3♦ (A or 4) and 5♥ 6♥ 7♥ 2♣ (4 or 8) in one lay-down;
    the terminal asks about each, in the order typed (before, it refused: "baixe um de
    cada vez")."""
    text = await play(["c", "b 1 2 3 / 4 5 6 12", "2", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "Onde fica o curinga? 1) 2♦ 3♦ 2♦(4)  2) 2♦(A) 2♦ 3♦ (Enter = 1)" in text
    assert "Onde fica o curinga? 1) 5♥ 6♥ 7♥ 2♣(8)  2) 2♣(4) 5♥ 6♥ 7♥ (Enter = 1)" in text
    assert "│   1) 2♦(A) 2♦ 3♦ " in text and "│   2) 2♣(4) 5♥ 6♥ 7♥ " in text


async def test_the_narration_marks_a_wild_as_the_table_does() -> None:
    """Issue 30: the table showed ``2♦(A) 2♦ 3♦`` while the move's narration said "baixou
    2♦ 2♦ 3♦"; now the narration (the table's last line and the hand's own line) bears
    the same mark, for new melds and for a wild added to a run."""
    text = await play(["c", "b 1 2 3 / 4 5 6 12", "2", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "│ Você comprou do monte, baixou 2♦(A) 2♦ 3♦ e 2♣(4) 5♥ 6♥ 7♥. │" in text
    assert "│ Você comprou o 2♣, baixou 2♦(A) 2♦ 3♦ e 2♣(4) 5♥ 6♥ 7♥." in text
    text = await play(["c", "b 4 5 6", "e 1 12", "2", "q", "s"], [WILDS, ROBOT], "2c")
    assert "│ Você comprou do monte, baixou 5♥ 6♥ 7♥ e juntou 2♣(4) ao jogo 1. │" in text
    assert "│   1) 2♣(4) 5♥ 6♥ 7♥ " in text
