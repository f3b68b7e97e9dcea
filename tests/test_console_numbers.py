"""Terminal play, issue 30: the hand numbers a person reads hold for the whole turn.

After a meld, an extension or a pick-up each number still names the card it named; a
card that left leaves its number unused until the next turn, new cards get new numbers
at the end. The turn's order is RULES C11 (draw, melds and extensions, one discard).
"""

from __future__ import annotations

import io

from console_support import typed_game
from rules_support import build_deck

from adapters.console import typed
from adapters.console.app import ConsoleGame
from engine.cards import Card
from engine.rules import Rules, make_rules

# Seat 0 (the person) in buraco, sorted as the hand shows it (suit, then rank):
#   1:4♣  2:6♣  3:9♣  4:5♦  5:7♦  6:9♦  7:9♥  8:K♥  9:3♠  10:8♠  11:J♠
PERSON = "4c 6c 9c 5d 7d 9d 9h Kh 3s 8s Js"
ROBOT = "Ac Ad Ah As 3c 3d 3h 4d 4h 4s 5c"


class Stacked:
    """Deals ``hands`` (and the stock's top cards) in the first deal, seeded-like filler
    after; later deals the same way (the tests end within the first deal)."""

    def __init__(self, hands: list[str], stock_top: str = "",
                 mortos: list[str] | None = None) -> None:
        self.hands, self.stock_top, self.mortos = hands, stock_top, mortos

    def __call__(self, rules: Rules) -> list[Card]:
        return build_deck(rules, len(self.hands), self.hands, self.mortos, self.stock_top)


def stacked(lines: list[str], hands: list[str], stock_top: str = "",
            variant: str = "buraco", mortos: list[str] | None = None,
            ) -> tuple[ConsoleGame, io.StringIO]:
    """A terminal game dealt from :class:`Stacked` that reads ``lines`` (then end of
    input), echoing each prompt and the line typed."""
    game, out = typed_game(lines, Stacked(hands, stock_top, mortos))
    game.rules = make_rules(variant)
    return game, out


async def play(lines: list[str], hands: list[str] | None = None, stock_top: str = "Qs",
               variant: str = "buraco", mortos: list[str] | None = None) -> str:
    game, out = stacked(lines, hands or [PERSON, ROBOT], stock_top, variant, mortos)
    assert await game.setup(variant, 2)
    await game.play()
    return out.getvalue()


async def test_after_a_meld_each_number_still_names_the_card_it_named() -> None:
    """Issue 30: ``b 6 7 3`` then ``d 5`` threw away K♥ (the numbers had closed up);
    5 was 7♦ on the screen the person read, so 7♦ is discarded (RULES C11)."""
    text = await play(["c", "b 6 7 3", "d 5", "q", "s"])
    assert "│ 1:4♣  2:6♣  3:9♣  4:5♦  5:7♦  6:9♦  7:9♥  8:K♥  9:3♠  10:8♠  11:J♠  12:•Q♠ " in text
    # the melded 9s leave 3, 6 and 7 unused; the others keep their numbers
    assert "│ 1:4♣  2:6♣  4:5♦  5:7♦  8:K♥  9:3♠  10:8♠  11:J♠  12:•Q♠ " in text
    assert "Você comprou do monte, baixou 9♣ 9♦ 9♥ e descartou 7♦." in text
    # the next turn numbers the hand afresh, sorted
    assert "│ 1:4♣  2:6♣  3:5♦  4:K♥  5:3♠  6:8♠  7:J♠  8:Q♠ " in text


async def test_a_number_whose_card_left_is_refused_and_names_that_it_left() -> None:
    """A number left unused this turn names no card: refused, nothing pressed."""
    text = await play(["c", "b 3 6 7", "d 6", "b 3 4 5", "d 8", "q", "s"])
    assert [line for line in text.splitlines() if "já saiu" in line] == [
        "A carta 6 já saiu da sua mão nesta vez.", "A carta 3 já saiu da sua mão nesta vez."]
    assert "Você comprou do monte, baixou 9♣ 9♦ 9♥ e descartou K♥." in text


async def test_after_an_extension_the_numbers_hold_and_the_meld_number_too() -> None:
    """RULES C1/C11: a meld, then an extension of it by number (``e 1 12``: the 9♠
    drawn), then a discard by a number read before both."""
    text = await play(["c", "b 3 6 7", "e 1 12", "d 11", "q", "s"], stock_top="9s")
    assert "│ 1:4♣  2:6♣  4:5♦  5:7♦  8:K♥  9:3♠  10:8♠  11:J♠ " in text
    assert "Você comprou do monte, baixou 9♣ 9♦ 9♥, juntou 9♠ ao jogo 1 e descartou J♠." \
        in text


async def test_the_piles_cards_get_new_numbers_after_the_hand_and_keep_them() -> None:
    """A pick-up (RULES §2 "discard pile", buraco: the whole pile, open) keeps the
    hand's numbers and gives the pile's cards the next ones, marked ``*``; after a meld
    they still name the same cards: ``d 13`` discards 4♣ (the pile's, not its top A♣,
    RULES C3), where the numbers closed up before and 13 named nothing."""
    text = await play(["c", "d 1", "l", "b 2 5 6", "d 13", "q", "s"])
    assert ("│ 1:6♣  2:9♣  3:5♦  4:7♦  5:9♦  6:9♥  7:K♥  8:3♠  9:8♠  10:J♠  11:Q♠  12:A♣*  "
            "13:4♣* ") in text
    assert "│ 1:6♣  3:5♦  4:7♦  7:K♥  8:3♠  9:8♠  10:J♠  11:Q♠  12:A♣*  13:4♣* " in text
    assert "Você pegou o lixo (2 cartas), baixou 9♣ 9♦ 9♥ e descartou 4♣." in text


def test_keep_order_leaves_the_numbers_of_cards_that_left_unused() -> None:
    """:func:`typed.keep_order` on record codes: 2 left, a new card took number 4."""
    order, new = typed.keep_order(["5c", "7s", "Kd"], ["5c", "Kd", "9h"])
    assert (order, new) == ([0, None, 1, 2], 1)
    # a card already new this turn (marked) and left stays counted in the new numbers
    order, new = typed.keep_order(["5c", "7s", "9h"], ["5c", "7s"], marked=1)
    assert (order, new) == ([0, 1, None], 1)


def test_of_two_copies_the_one_played_leaves_its_number() -> None:
    """Two decks (RULES §2 "decks"): Q♦ shown as 2 and 3, the person played 3: number 2
    stays; with no hint, the later copy's number is the one left unused as well."""
    assert typed.keep_order(["5c", "Qd", "Qd"], ["5c", "Qd"], leaving={1})[0] == [0, None, 1]
    assert typed.keep_order(["5c", "Qd", "Qd"], ["5c", "Qd"], leaving={2})[0] == [0, 1, None]


def test_a_name_skips_the_numbers_left_unused() -> None:
    """``d qd`` takes the first Q♦ still held, never a number whose card left."""
    assert typed.positions(["qd"], [None, "Qd", "Qd"], set()) == [1]
