"""Cards, decks and card points (issue 2 "Cards"; RULES §2 "decks", "wild cards",
"card points"; RULES "Jokers")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalAction, make_rules
from engine.cards import JOKER, Card, CardParseError, codes, full_deck, show, shuffled_deck
from engine.scoring import card_points
from engine.state import deal_cards
from tests.rules_support import cards, position, state_of

FOUR = ("buraco", "buraco_morto", "bossa_nova", "justificado")


@pytest.mark.parametrize(
    ("text", "code", "display"),
    [
        ("10h", "10h", "10♥"),
        ("Th", "10h", "10♥"),
        ("tH", "10h", "10♥"),
        ("10♥", "10h", "10♥"),
        ("ac", "Ac", "A♣"),
        ("A♣", "Ac", "A♣"),
        ("2d", "2d", "2♦"),
        ("qS", "Qs", "Q♠"),
        ("K♠", "Ks", "K♠"),
        ("jd", "Jd", "J♦"),
        ("JK", "JK", "🃏"),
        ("jk", "JK", "🃏"),
    ],
)
def test_card_text_forms_parse_case_insensitive_with_t_and_symbols(
    text: str, code: str, display: str
) -> None:
    """Issue 2 "Cards": rank + suit letter or symbol, case-insensitive, T for ten."""
    card = Card.parse(text)
    assert (card.code, str(card)) == (code, display)
    assert card is Card.parse(code)  # interned: equal faces are the same object


@pytest.mark.parametrize("text", ["1h", "11h", "10x", "h", "", "Ahh", "0c"])
def test_card_parse_refuses_text_that_is_not_a_card(text: str) -> None:
    with pytest.raises(CardParseError) as err:
        Card.parse(text)
    assert str(err.value) == f"{text!r} não é uma carta"


def test_codes_and_show_keep_order() -> None:
    hand = cards("10h Ac JK")
    assert codes(hand) == ["10h", "Ac", "JK"]
    assert show(hand) == "10♥ A♣ 🃏"


def test_decks_are_two_times_52_without_jokers_by_default() -> None:
    """RULES §2 "decks": 2×52; jokers option off."""
    for preset in FOUR:
        assert make_rules(preset).jokers is False
    deck = full_deck()
    assert len(deck) == 104
    counts = Counter(deck)
    assert len(counts) == 52 and set(counts.values()) == {2}
    assert JOKER not in counts
    assert Counter(shuffled_deck()) == counts


def test_jokers_option_adds_two_jokers() -> None:
    """RULES §2 "decks" (buraco family): jokers option on = 2 jokers."""
    rules = make_rules("buraco", {"jokers": True})
    deck = full_deck(rules.jokers)
    assert len(deck) == 106
    assert Counter(deck)[JOKER] == 2
    assert Counter(shuffled_deck(True))[JOKER] == 2


@pytest.mark.parametrize("preset", FOUR)
@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("2c", 10),
        ("3h", 5),
        ("4s", 5),
        ("5d", 5),
        ("6c", 5),
        ("7h", 5),
        ("8s", 10),
        ("9d", 10),
        ("10c", 10),
        ("Jh", 10),
        ("Qs", 10),
        ("Kd", 10),
        ("Ac", 15),
        ("JK", 10),
    ],
)
def test_card_points_classic_table(preset: str, code: str, points: int) -> None:
    """RULES §2 "card points" (buraco, buraco_morto, bossa_nova; justificado "as buraco"):
    joker 10, 2 = 10, 3–7 = 5, 8–K = 10, A = 15."""
    assert card_points(Card.parse(code), make_rules(preset)) == points


def test_position_refuses_a_card_more_times_than_the_decks_hold() -> None:
    """Issue 2 "position": no card may appear more often than the decks hold."""
    with pytest.raises(IllegalAction) as err:
        state_of("buraco", ["7h 7h", "7h 9c"])
    assert err.value.code == "bad_position"
    assert err.value.message == "posição inválida: a carta 7♥ aparece 3 vezes; os baralhos têm 2"


def test_position_refuses_a_joker_when_jokers_are_off() -> None:
    """RULES §2 "decks": jokers only with the option on."""
    with pytest.raises(IllegalAction) as err:
        state_of("buraco", ["JK 5h", "9c 9d"])
    assert err.value.code == "bad_position"
    assert err.value.message == "posição inválida: a carta 🃏 aparece 1 vezes; os baralhos têm 0"
    ok = state_of("buraco", ["JK 5h", "9c JK"], options={"jokers": True})
    assert ok.hands[0][0] is JOKER


def test_position_refuses_an_unknown_card() -> None:
    from engine import DealState

    with pytest.raises(IllegalAction) as err:
        DealState.from_json(make_rules("buraco"), position(["7h 1x", "9c"]))
    assert (err.value.code, err.value.message) == (
        "bad_position",
        "posição inválida: '1x' não é uma carta",
    )


def test_deal_refuses_a_deck_that_is_not_the_full_deck() -> None:
    """A dealt deck must be exactly the decks of the rules (104, or 106 with jokers)."""
    rules = make_rules("buraco")
    short = full_deck()[:-1]
    with pytest.raises(IllegalAction) as err:
        deal_cards(rules, 2, short)
    assert (err.value.code, err.value.message) == (
        "bad_deck",
        "o baralho precisa ter exatamente as cartas dos dois baralhos",
    )
    with pytest.raises(IllegalAction):
        deal_cards(rules, 2, full_deck(True))  # jokers in a deck without the option
    state = deal_cards(make_rules("buraco", {"jokers": True}), 2, full_deck(True))
    assert sum(state.all_cards().values()) == 106
