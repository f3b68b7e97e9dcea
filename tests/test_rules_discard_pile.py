"""The discard pile (lixo): RULES C3, A9, A10, A23, A38 and §2 "discard pile" for
buraco, buraco_morto, bossa_nova (open, whole pile) and justificado (closed, justified)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import DealState, make_rules, view_for
from engine.cards import full_deck
from engine.state import deal_cards
from tests.rules_support import act, hand_codes, meld_codes, refused, state_of

BURACO_FAMILY = ("buraco", "buraco_morto", "bossa_nova")
MORTOS = ["8c", "8c"]  # both mortos still there: leaving one card is legal


def open_pile(preset: str, hand: str, pile: str, **kw: Any) -> DealState:
    mortos = MORTOS if preset != "buraco" else None
    return state_of(
        preset,
        ["Kd Qs", hand],
        pile=pile,
        stock="Jc Jd",
        turn=1,
        phase="draw",
        mortos=mortos,
        **kw,
    )


# C3 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_c3_card_taken_from_pile_top_may_not_be_discarded_same_turn(preset: str) -> None:
    """RULES C3: the card taken from the top of the pile may not be discarded this turn;
    the other pile cards may."""
    st = open_pile(preset, "4c 9s", "9c 5h")
    act(st, {"seat": 1, "do": "take_pile"})
    refused(
        st,
        {"seat": 1, "do": "discard", "card": "5h"},
        "discard_taken_top",
        "a carta de cima do lixo não pode ser descartada na mesma vez",
    )
    act(st, {"seat": 1, "do": "discard", "card": "9c"})  # a pile card below the top: fine
    assert (st.pile[-1].code, st.turn) == ("9c", 0)


@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_c3_card_drawn_from_the_stock_may_be_discarded_at_once(preset: str) -> None:
    st = open_pile(preset, "4c 9s", "9c 5h")
    act(st, {"seat": 1, "do": "draw"})
    act(st, {"seat": 1, "do": "discard", "card": "Jc"})
    assert (st.pile[-1].code, st.turn, hand_codes(st, 1)) == ("Jc", 0, ["4c", "9s"])


def test_c3_identical_copy_of_the_taken_top_is_also_refused() -> None:
    """RULES is silent on a second, identical copy (two decks). Engine choice
    (docs/rules-decisions.md D3): the two 5♥ look the same, so no 5♥ may be discarded
    this turn while another card could be."""
    st = open_pile("buraco", "5h 9s", "9c 5h")
    act(st, {"seat": 1, "do": "take_pile"})
    refused(
        st,
        {"seat": 1, "do": "discard", "card": "5h"},
        "discard_taken_top",
        "a carta de cima do lixo não pode ser descartada na mesma vez",
    )


def test_c3_taken_top_may_not_be_the_last_discard_either() -> None:
    """RULES C3 has no exception for the last card: the top card taken this turn may not
    be discarded, not even to go out "indireta" (C2). Seat 1 takes 8♠ 5♥; melding 6♠ 7♠
    8♠ would leave the taken 5♥ alone, unable to be discarded, so that lay-down is
    refused (docs/rules-decisions.md D3); keeping another card is fine."""
    st = open_pile("buraco", "6s 7s 9d", "8s 5h")
    act(st, {"seat": 1, "do": "take_pile"})
    act(st, {"seat": 1, "do": "meld", "melds": [["6s", "7s", "8s"]]})
    refused(
        st,
        {"seat": 1, "do": "discard", "card": "5h"},
        "discard_taken_top",
        "a carta de cima do lixo não pode ser descartada na mesma vez",
    )
    st = open_pile("buraco", "6s 7s", "8s 5h")
    act(st, {"seat": 1, "do": "take_pile"})
    refused(
        st,
        {"seat": 1, "do": "meld", "melds": [["6s", "7s", "8s"]]},
        "discard_taken_top",
        "a carta tirada do lixo não pode ser descartada nesta vez: "
        "guarde outra carta para descartar",
    )


# Open pile (buraco family) ---------------------------------------------------------------
@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_open_pile_every_seat_sees_the_whole_pile(preset: str) -> None:
    """RULES §2 "discard pile": whole pile, open (all cards visible)."""
    st = open_pile(preset, "4c 9s", "9c 5h Ad")
    for seat in (0, 1):
        view = view_for(st, seat)
        assert ([c.code for c in view.pile], view.pile_size) == (["9c", "5h", "Ad"], 3)


@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_open_pile_cards_may_be_melded_after_taking_it(preset: str) -> None:
    """RULES §2 "discard pile": no justification; the pile goes to the hand (C11: draw,
    then melds)."""
    st = open_pile(preset, "4c 9s 9d", "9c 5h Ad")
    act(st, {"seat": 1, "do": "take_pile"})
    act(st, {"seat": 1, "do": "meld", "melds": [["9c", "9s", "9d"]]})
    assert meld_codes(st, 1) == [["9c", "9d", "9s"]]
    assert hand_codes(st, 1) == ["4c", "5h", "Ad"]


def test_take_pile_refused_when_empty_or_after_drawing() -> None:
    st = open_pile("buraco", "4c 9s", "")
    refused(st, {"seat": 1, "do": "take_pile"}, "pile_empty", "o lixo está vazio")
    st = open_pile("buraco", "4c 9s", "9c 5h")
    act(st, {"seat": 1, "do": "draw"})
    refused(st, {"seat": 1, "do": "take_pile"}, "already_drew", "você já comprou nesta vez")


def test_a9_redrawn_card_starts_the_pile_for_the_next_player() -> None:
    """RULES A9: the first card is laid face up as the first card of the pile; the next
    player may take that pile (2 cards after the first player's discard)."""
    st = deal_cards(make_rules("buraco"), 2, full_deck(), 0)
    act(st, {"seat": 0, "do": "draw"})  # 10d
    act(st, {"seat": 0, "do": "redraw"})  # 10d -> pile, draws Jd
    act(st, {"seat": 0, "do": "discard", "card": "Jd"})
    assert st.to_json()["pile"] == ["10d", "Jd"]
    act(st, {"seat": 1, "do": "take_pile"})
    assert {"10d", "Jd"} <= set(hand_codes(st, 1)) and len(st.hands[1]) == 13


# Justificado: closed pile, justified pick-up (A10, A38) ------------------------------------
def justified(hand: str, pile: str, melds: list[list[str]] | None = None) -> DealState:
    return state_of(
        "justificado",
        ["Kd Qs", hand],
        melds=melds,
        pile=pile,
        stock="Jc",
        turn=1,
        phase="draw",
        mortos=MORTOS,
    )


def test_a10_justificado_pickup_with_an_illegal_meld_is_refused() -> None:
    st = justified("8s 9s 4c", "Kc 7h")
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["8s", "9s"]},
        "meld_mixed_suits",
        "uma sequência precisa ser toda do mesmo naipe",
    )
    refused(
        st,
        {"seat": 1, "do": "take_pile", "meld": 0},
        "no_such_meld",
        "seu lado não tem o jogo 1",
    )


def test_a10_justificado_top_card_must_fit_the_meld_it_goes_onto() -> None:
    """RULES A10: the top card itself is added to the side's meld (9♥ does not fit 4♥-6♥:
    C10, the reason names the missing card)."""
    st = justified("4c Kh", "Kc 9h", melds=[[], ["4h 5h 6h"]])
    refused(
        st,
        {"seat": 1, "do": "take_pile", "meld": 0},
        "meld_not_contiguous",
        "falta o 7♥",
    )


def test_a10_justificado_top_two_may_justify_as_a_wild() -> None:
    """RULES §2 justificado: wilds are the 2s; A11 (same-suit 2 only) is altaneira's, so a
    2 on top joins 5♥ 6♥ as the wild (engine: high end, C4)."""
    st = justified("5h 6h 4c", "Kc 2c")
    act(st, {"seat": 1, "do": "take_pile", "with": ["5h", "6h"]})
    assert meld_codes(st, 1) == [["5h", "6h", "2c"]]
    assert hand_codes(st, 1) == ["4c", "Kc"]


def test_a10_justificado_rest_of_pile_may_be_discarded_at_once() -> None:
    """RULES C3 speaks of the top card only (here it is melded): the rest of the pile is
    in the hand and any of it may be discarded."""
    st = justified("8h 9h 4c", "Kc 7h")
    act(st, {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]})
    act(st, {"seat": 1, "do": "discard", "card": "Kc"})
    assert (st.pile[-1].code, st.turn, hand_codes(st, 1)) == ("Kc", 0, ["4c"])


def test_a10_justificado_pickup_that_empties_the_hand_takes_the_morto() -> None:
    """RULES A10 + C2/C11: melding the top card with the last two hand cards (a one-card
    pile) is a direct going-out: the morto comes to the hand and the turn goes on."""
    st = justified("8h 9h", "7h")
    events = act(st, {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]})
    assert events == ["took_pile", "took_morto"]
    assert (hand_codes(st, 1), st.phase, st.turn, st.morto_taken) == (
        ["8c"],
        "play",
        1,
        [False, True],
    )


def test_a38_justificado_hand_cards_only_not_other_pile_cards() -> None:
    """RULES A38: the new meld is the top card and ≥2 hand cards, no other pile card."""
    st = justified("8h 4c", "9h 7h")
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]},
        "not_in_hand",
        "você não tem: 9♥",
    )
