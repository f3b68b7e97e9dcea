"""Biriba com Tranca de Altaneira (seed 000_876df9ffcf2f220d.txt; RULES §2 column
``altaneira``, A1, A4-A12, A26, C15).

Every test names the seed clause (``s8_3`` = seed 000 §8.3) or RULES row it checks;
scores are computed by hand in the comments (every card 10, A8).
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    Action,
    Card,
    DealState,
    IllegalAction,
    Match,
    apply,
    card_points,
    extend_meld,
    legal_moves,
    make_meld,
    make_rules,
    new_deal,
    score_deal,
    view_for,
)
from engine.ai.moves import pile_take
from engine.state import deal_cards
from tests.tranca_support import (
    ALTANEIRA_ACTIONS,
    ALTANEIRA_HANDS,
    ALTANEIRA_MORTOS,
    ALTANEIRA_STOCK,
    act,
    altaneira_record,
    cards,
    load_example,
    make_deck,
    position,
    refused,
    replay_example,
)

A = make_rules("altaneira")
C = Card.parse
MORTO = "4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad"
HEARTS_A_A = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"
CLEAN_7 = "4c 5c 6c 7c 8c 9c 10c"
DIRTY_7 = "4s 5s 6s 2h 8s 9s 10s"


def four(*hands: str) -> list[str]:
    """Four hands (seats 0..3), empty strings for the unnamed ones."""
    return [*hands, *[""] * (4 - len(hands))]


# §1 pairs only, deal, target ------------------------------------------------------
def test_s1_1_pairs_only() -> None:
    assert make_rules("biriba_tranca") == A
    assert A.players_allowed == (4,) and A.teams(4) == [[0, 2], [1, 3]]
    for n in (2, 3, 6):
        with pytest.raises(IllegalAction) as info:
            Match.new(A, ["p"] * n)
        assert (info.value.code, info.value.message) == (
            "bad_players",
            f"altaneira aceita 4 jogadores, não {n}",
        )


def test_s1_5_eleven_each_and_two_mortos_of_eleven() -> None:
    state = new_deal(A, 4)
    assert [len(h) for h in state.hands] == [11] * 4
    assert [len(m) for m in state.mortos] == [11, 11]
    assert len(state.stock) == 104 - 44 - 22  # 38


def test_s1_2_target_5000_option_3000() -> None:
    assert A.target == 5000
    assert make_rules("altaneira", {"target": 3000}).target == 3000


# §5, §6 melds: runs of one suit, one Melé, black 3s never ---------------------------
def test_s6_1_runs_of_one_suit_only() -> None:
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("7h 7d 7c"), A)
    assert (info.value.code, info.value.message) == (
        "meld_set_forbidden",
        "nesta variante só valem sequências do mesmo naipe",
    )
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("7h 8d 9h"), A)
    assert (info.value.code, info.value.message) == (
        "meld_mixed_suits",
        "uma sequência precisa ser toda do mesmo naipe",
    )
    # ace low or high (RULES §2 "ace"): slots 1 (low ace) .. 14 (high ace)
    assert (make_meld(cards("Ah 2h 3h"), A).low, make_meld(cards("Ah 2h 3h"), A).wild) == (1, None)
    assert make_meld(cards("Qh Kh Ah"), A).high == 14


def test_s5_2_one_mele_per_meld_a_natural_two_is_not_the_mele() -> None:
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("7h 2c 9h 2d"), A)
    assert (info.value.code, info.value.message) == (
        "meld_two_wilds",
        "só pode haver um curinga por jogo",
    )
    # C5: the 2h in its own slot is natural, so the 2c may still be the meld's Melé
    meld = make_meld(cards("Ah 2h 3h 2c"), A)
    assert meld.cards == tuple(cards("Ah 2h 3h 2c")) and meld.wild == C("2c")


@pytest.mark.parametrize("text", ["3s 4s 5s", "As 2s 3s", "3c 4c 2h"])
def test_a6_tranca_never_melded(text: str) -> None:
    black = next(c for c in cards(text) if c.rank == 3)
    with pytest.raises(IllegalAction) as info:
        make_meld(cards(text), A)
    assert (info.value.code, info.value.message) == (
        "meld_three",
        f"o {black} (três preto) não pode entrar em jogo",
    )


def test_a6_tranca_cannot_be_laid_or_extended() -> None:
    state = position(A, four("3s 4s 9d Kc", "5c", "6c", "7c"), melds=[["5s 6s 7s"], []])
    refused(state, Action.lay_three(0, C("3s")), "not_red_three", "3♠ não é um 3 vermelho")
    refused(
        state,
        Action.extend(0, 0, [C("3s"), C("4s")]),
        "meld_three",
        "o 3♠ (três preto) não pode entrar em jogo",
    )


# A12 canastras --------------------------------------------------------------------
def test_a12_real_canastra_scores_1000_not_1500() -> None:
    state = position(
        A,
        four("Jc Qc Kc", "9d 10d", "4s 5s", "Jd"),
        melds=[[HEARTS_A_A], []],
        stock="9s",
        mortos=["", ""],
    )
    assert state.melds[0][0].canastra == "real"
    apply(state, Action.lay_down(0, [cards("Jc Qc Kc")]))
    assert state.over and state.went_out == 0
    score = score_deal(state)
    # side 0: 14 + 3 melded cards = 170; Real 1000 only (not Real 1000 + Altaneira 500,
    # nor + limpa 200); batida 100; partner's 4s 5s -20: 170 + 1000 + 100 - 20 = 1250
    assert score.breakdown[0]["canastras"] == [["Real, A–A limpa em ♥/♦", 1000]]
    assert score.totals[0] == 1250
    # side 1: nothing melded, hands 9d 10d + Jd = -30 (both mortos taken)
    assert score.totals[1] == -30


def test_a12_altaneira_canastra_scores_500_and_becomes_real_with_the_top_ace() -> None:
    diamonds = make_meld(cards("Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd"), A)
    assert (diamonds.canastra, len(diamonds)) == ("altaneira", 13)
    assert card_points(C("Ad"), A) == 10
    state = position(A, four("Ad 5c", "5h", "6h", "7h"), melds=[[_codes(diamonds)], []])
    assert score_deal(state).breakdown[0]["canastras"] == [["Altaneira, A–K limpa", 500]]
    real = extend_meld(diamonds, [C("Ad")], A)
    assert (real.canastra, real.cards[0], real.cards[-1]) == ("real", C("Ad"), C("Ad"))


def test_a12_black_suit_a_to_k_refused_as_altaneira() -> None:
    # the black 3 can never be melded, so a clean A..K of spades or clubs cannot exist
    for suit in "sc":
        text = " ".join(f"{r}{suit}" for r in ("A", *range(2, 11), "J", "Q", "K"))
        with pytest.raises(IllegalAction) as info:
            make_meld(cards(text), A)
        assert (info.value.code, info.value.message) == (
            "meld_three",
            f"o {C('3' + suit)} (três preto) não pode entrar em jogo",
        )
    # with a Melé in the 3-slot it is a 13-card suja worth 100, not an Altaneira (500)
    spades = make_meld(cards("As 2s 2h 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"), A)
    assert (spades.canastra, spades.wild, spades.cards[2]) == ("suja", C("2h"), C("2h"))
    state = position(A, four("5c 6c", "5h", "6h", "7h"), melds=[[_codes(spades)], []])
    assert score_deal(state).breakdown[0]["canastras"] == [["suja", 100]]


def test_a12_c8_red_a_to_a_with_a_mele_is_only_suja() -> None:
    meld = make_meld(cards("Ah 2h 3h 4h 5h 6h 2c 8h 9h 10h Jh Qh Kh Ah"), A)
    assert meld.canastra == "suja"
    clean = make_meld(cards("4h 5h 6h 7h 8h 9h 10h"), A)
    assert clean.canastra == "limpa"


def _codes(meld: object) -> str:
    return " ".join(c.code for c in meld.cards)  # type: ignore[attr-defined]


# A4, A5 the Dólar ---------------------------------------------------------------------
def test_a4_dollar_laid_with_a_replacement_draw() -> None:
    state = position(A, four("3h Kc Qd", "5c", "6c", "7c"), stock="9s 8s")
    assert legal_moves(view_for(state, 0)).threes_to_lay == [C("3h")]
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [("laid_three", {"card": "3h", "replaced": 1})]
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd 9s"))
    assert state.laid_threes == [[C("3h")], []]
    assert state.stock == [C("8s")]


def test_a4_dollar_taken_with_the_pile_earns_no_replacement() -> None:
    state = position(
        A, four("6h 7h Kc Qd", "5c", "6c", "7c"), pile="Jc 3d 5h", stock="9s 8s", phase="draw"
    )
    apply(state, Action.take_pile(0, with_=cards("6h 7h")))
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd 3d Jc"))
    events = apply(state, Action.lay_three(0, C("3d")))
    assert events[0].public == {"card": "3d", "replaced": 0}
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd Jc"))
    assert state.stock == [C("8s"), C("9s")] and state.laid_threes == [[C("3d")], []]


def test_a4_held_dollar_and_pile_dollar_earn_one_replacement() -> None:
    state = position(
        A, four("6h 7h Kc Qd 3d", "5c", "6c", "7c"), pile="Jc 3d 5h", stock="9s 8s", phase="draw"
    )
    apply(state, Action.take_pile(0, with_=cards("6h 7h")))
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd 3d Jc 3d"))
    # one 3d was held before the turn (a replacement), the other came with the pile
    # (none): laying both draws exactly one card, whichever is laid first
    first = apply(state, Action.lay_three(0, C("3d")))[0].public["replaced"]
    second = apply(state, Action.lay_three(0, C("3d")))[0].public["replaced"]
    assert first + second == 1
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd Jc 9s"))
    assert state.stock == [C("8s")]
    assert state.laid_threes == [cards("3d 3d"), []]


def test_a4_dollar_taken_with_the_pile_earns_no_replacement_in_a_later_turn() -> None:
    # RULES A4: "One taken with the pile earns no replacement" - also when it is laid
    # in a later turn (only Dólares from the stock, the deal or the morto are replaced)
    state = position(
        A,
        four("6h 7h Kc Qd", "5c 6c", "6d 7d", "8c 9c"),
        pile="Jc 3d 5h",
        stock="9s 8s 7s 6s 5s 4s",
        phase="draw",
    )
    apply(state, Action.take_pile(0, with_=cards("6h 7h")))  # the 3d comes to the hand
    apply(state, Action.discard(0, C("Jc")))  # the 3d is kept for the next turn
    for seat, card in ((1, "9s"), (2, "8s"), (3, "7s")):
        act(state, {"seat": seat, "do": "draw"}, {"seat": seat, "do": "discard", "card": card})
    apply(state, Action.draw(0))  # 6s
    events = apply(state, Action.lay_three(0, C("3d")))
    assert events[0].public == {"card": "3d", "replaced": 0}
    assert state.stock == [C("4s"), C("5s")]


def test_a4_dollar_from_the_deal_laid_in_the_first_turn() -> None:
    state = _plain_deal("9s 8s", first_card="3d")
    apply(state, Action.draw(0))  # 9s
    events = apply(state, Action.lay_three(0, C("3d")))
    assert events[0].public == {"card": "3d", "replaced": 1}
    assert C("8s") in state.hands[0] and len(state.hands[0]) == 12


def test_a5_dollar_kept_as_the_natural_three_of_its_suit() -> None:
    meld = make_meld(cards("3h 4h 5h"), A)
    assert meld.cards == tuple(cards("3h 4h 5h")) and meld.wild is None
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("3d 4h 5h"), A)
    assert (info.value.code, info.value.message) == (  # only the 3 of its own suit
        "meld_mixed_suits",
        "uma sequência precisa ser toda do mesmo naipe",
    )


def test_a5_dollar_melded_earns_nothing_and_counts_10_in_hand() -> None:
    state = position(
        A,
        four("Jc Qc Kc", "9d", "3d 5s", "Jd"),
        melds=[["3h 4h 5h", CLEAN_7], []],
        stock="9s",
        mortos=["", ""],
    )
    apply(state, Action.lay_down(0, [cards("Jc Qc Kc")]))
    score = score_deal(state)
    # side 0: melded 3 + 7 + 3 = 13 cards = 130 (the melded 3h is an ordinary card);
    # limpa 200; batida 100; no laid Dólar: threes 0; partner holds 3d 5s: -20 -> 410
    assert score.breakdown[0]["threes"] == 0
    assert score.breakdown[0]["hand"] == -20
    assert score.totals[0] == 130 + 200 + 100 - 20


# A6 the Tranca: a killed pile never returns -------------------------------------------
def test_a6_discarding_a_tranca_kills_the_whole_pile() -> None:
    state = position(A, four("3s Kc Qd", "5c 6c 7c", "6h", "7h"), pile="Jc 5h 9d", stock="9s 8s")
    events = apply(state, Action.discard(0, C("3s")))
    assert [(e.kind, e.public) for e in events] == [
        ("discarded", {"card": "3s"}),
        ("pile_killed", {"count": 4}),
    ]
    assert state.pile == [] and state.killed == cards("Jc 5h 9d 3s")
    view = view_for(state, 1)
    assert (view.pile, view.pile_size, view.killed_count) == ([], 0, 4)
    assert not legal_moves(view).can_take_pile
    refused(state, Action.take_pile(1, with_=cards("5c 6c")), "pile_empty", "o lixo está vazio")
    act(state, {"seat": 1, "do": "draw"}, {"seat": 1, "do": "discard", "card": "7c"})
    assert state.pile == [C("7c")]  # the next discard starts a new pile
    assert state.killed == cards("Jc 5h 9d 3s")


def test_a6_killed_pile_never_returns_after_stock_exhaustion() -> None:
    # seed 000 §3, §4.2, §8.4; RULES A26: the morto becomes stock, then the pile is
    # reused once; killed cards stay out, also those killed after the reuse
    state = position(
        A,
        four("Kc Qd 3c", "6s 7s", "8h 9h", "10d Jd"),
        pile="Kd Qc",
        stock="9c",
        mortos=["", "4d 5d"],
        morto_taken=[True, False],
        killed=["Jc", "5h", "3s"],
        phase="draw",
    )
    start = state.all_cards()
    killed_before = Counter(cards("Jc 5h 3s"))
    steps = [(0, "9c"), (1, "6s"), (2, "8h"), (3, "10d"), (0, "3c"), (1, "7s"), (2, "9h")]
    kinds: list[str] = []
    for seat, card in steps:
        kinds += [e.kind for e in apply(state, Action.draw(seat))]
        kinds += [e.kind for e in apply(state, Action.discard(seat, C(card)))]
        live = Counter(state.stock) + Counter(state.pile)
        for hand in state.hands:
            live.update(hand)
        assert not (live & killed_before), f"a killed card came back after {card}"
    assert kinds.count("stock_from_morto") == 1 and kinds.count("stock_from_pile") == 1
    assert state.pile_reused
    # the Tranca discarded after the reuse killed the 10d pile too
    assert state.killed == cards("Jc 5h 3s 10d 3c")
    act(state, {"seat": 3, "do": "draw"}, {"seat": 3, "do": "discard", "card": "Jd"})
    assert state.over and state.went_out == -1  # no stock, no morto, pile used (§8.4)
    assert state.all_cards() == start  # card conservation, killed cards included
    score = score_deal(state)
    # side 0 (seats 0, 2): hands Kc Qd 6s + 5d Qc = -50; its morto was taken: -50
    # side 1 (seats 1, 3): hands 4d 9c + 8h Kd = -40; morto became stock: -100 -> -140
    assert score.totals == [-50, -140]
    assert score.breakdown[1]["morto"] == -100


def test_s3_2_pile_reused_in_the_recorded_shuffle_order() -> None:
    # the record's "reshuffle" permutation says how the pile (Kd Qc 9h, bottom first)
    # becomes the new stock, listed bottom first: [2, 0, 1] -> 9h, Kd, Qc (top)
    state = position(
        A,
        four("Kc Qd", "6s 7s", "8h", "10d"),
        pile="Kd Qc",
        stock="9h",
        mortos=["", ""],
        phase="draw",
        reshuffle=[2, 0, 1],
    )
    act(state, {"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "9h"})
    assert state.pile == [] and state.pile_reused
    assert list(reversed(state.stock)) == cards("Qc Kd 9h")  # top first


def test_a26_stock_out_right_after_a_kill_ends_the_deal() -> None:
    # engine choice (RULES silent): with no stock, no morto and an empty pile (it was
    # just killed) there is nothing to reuse, so the deal ends at once
    state = position(A, four("Kc 3s", "6s", "8h", "10d"), pile="Kd Qc", stock="", mortos=["", ""])
    events = apply(state, Action.discard(0, C("3s")))
    assert [e.kind for e in events] == ["discarded", "pile_killed", "deal_over"]
    assert state.over and not state.pile_reused


# A10, A11 the pick-up ----------------------------------------------------------------
def test_a10_pickup_with_a_new_meld_or_onto_a_meld() -> None:
    state = position(A, four("8h 9h Kc", "5c", "6c", "7c"), pile="4s 7h", stock="9s", phase="draw")
    apply(state, Action.take_pile(0, with_=cards("8h 9h")))
    assert state.melds[0][0].cards == tuple(cards("7h 8h 9h"))
    assert sorted(state.hands[0]) == sorted(cards("Kc 4s"))
    state = position(
        A,
        four("Kc Qd", "5c", "6c", "7c"),
        melds=[["8h 9h 10h"], []],
        pile="4s Jh",
        stock="9s",
        phase="draw",
    )
    apply(state, Action.take_pile(0, meld=0))
    assert state.melds[0][0].cards == tuple(cards("8h 9h 10h Jh"))
    assert view_for(state, 1).pile == []


def test_a10_closed_pile_only_the_top_is_shown() -> None:
    state = position(A, four("Kc Qd", "5c", "6c", "7c"), pile="4s 9c Jh", stock="9s")
    for seat in range(4):
        assert view_for(state, seat).pile == [C("Jh")]
        assert view_for(state, seat).pile_size == 3


def test_a11_a_two_justifies_only_if_of_the_top_cards_suit() -> None:
    state = position(
        A, four("8h 2s 2h Kc", "5c", "6c", "7c"), pile="9c 7h", stock="9s", phase="draw"
    )
    refused(
        state,
        Action.take_pile(0, with_=cards("8h 2s")),
        "justify_wild_suit",
        "só um 2 do mesmo naipe da carta de cima justifica",
    )
    apply(state, Action.take_pile(0, with_=cards("8h 2h")))
    assert state.melds[0][0].cards == tuple(cards("7h 8h 2h"))  # the 2h is the Melé (9)


@pytest.mark.parametrize(
    ("melds", "action", "ok"),
    [
        ([], Action.take_pile(0, with_=cards("Ah 3h")), True),
        (["3h 4h 5h"], Action.take_pile(0, meld=0), True),
        ([], Action.take_pile(0, with_=cards("8h 9h")), False),
        (["6h 7h 8h"], Action.take_pile(0, meld=0), False),
    ],
)
def test_a11_a_two_on_top_only_as_the_natural_two(
    melds: list[str], action: Action, ok: bool
) -> None:
    state = position(
        A,
        four("Ah 3h 8h 9h", "5c", "6c", "7c"),
        melds=[melds, []],
        pile="9c 2h",
        stock="9s",
        phase="draw",
    )
    if not ok:
        refused(
            state,
            action,
            "justify_wild_top",
            "um 2 no topo do lixo só sai como o 2 natural do seu naipe",
        )
        return
    apply(state, action)
    meld = state.melds[0][0]
    assert meld.wild is None and C("2h") in meld.cards


def test_a11_a_top_two_is_refused_onto_a_run_whose_natural_two_is_laid() -> None:
    """RULES A11: A♥ 2♥ 3♥ 4♥ holds its natural 2♥ already, so the other 2♥ on top of
    the pile could only join it as the wild (a trial took the whole pile so): refused,
    nothing changes; the same pick-up onto a run without its 2 stays legal."""
    laid = position(A, four("5c 6c 7c 8c 9c", "5s", "6s", "7s"), melds=[["Ah 2h 3h 4h"], []],
                    pile="10d 2h", stock="9s", phase="draw")
    refused(laid, Action.take_pile(0, meld=0), "justify_wild_top",
            "um 2 no topo do lixo só sai como o 2 natural do seu naipe")
    assert laid.melds[0][0].cards == tuple(cards("Ah 2h 3h 4h"))
    assert laid.pile == cards("10d 2h") and laid.hands[0] == cards("5c 6c 7c 8c 9c")
    open_slot = position(A, four("5c 6c 7c 8c 9c", "5s", "6s", "7s"), melds=[["3h 4h 5h"], []],
                         pile="10d 2h", stock="9s", phase="draw")
    apply(open_slot, Action.take_pile(0, meld=0))
    assert open_slot.melds[0][0].cards == tuple(cards("2h 3h 4h 5h"))
    assert open_slot.melds[0][0].wild is None and open_slot.hands[0] == cards("5c 6c 7c 8c 9c 10d")


def test_a11_the_robot_does_not_take_a_top_two_onto_a_run_whose_natural_two_is_laid() -> None:
    """RULES A11, for the AI's pick-up (engine.ai.moves.pile_take): the same refused
    pick-up is never its choice; onto a run without its 2 it takes the pile."""
    laid = position(A, four("5c 6c 7c 8c 9c", "5s", "6s", "7s"), melds=[["Ah 2h 3h 4h"], []],
                    pile="10d 2h", stock="9s", phase="draw")
    assert pile_take(view_for(laid, 0)) is None
    open_slot = position(A, four("5c 6c 7c 8c 9c", "5s", "6s", "7s"), melds=[["3h 4h 5h"], []],
                         pile="10d 2h", stock="9s", phase="draw")
    assert pile_take(view_for(open_slot, 0)) == Action.take_pile(0, meld=0)


def test_a4_a26_a_dollars_replacement_from_an_empty_stock_comes_from_an_untaken_morto() -> None:
    """RULES A4 + A26: the Dólar 3♥ was the stock's last card; its replacement is drawn
    after side 0's untaken morto became stock (side order, D18; the side still pays for
    it), not skipped (an audit found no replacement with two mortos there)."""
    clubs = "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"
    state = position(A, ["9h 8s 7s", "Ks Ks Kh", "Qh Qh", "Jh Jh"], pile="8h", stock="3h",
                     mortos=[clubs, MORTO], phase="draw", has_laid=[True] * 4)
    apply(state, Action.draw(0))
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [
        ("laid_three", {"card": "3h", "replaced": 1}), ("stock_from_morto", {"side": 0})]
    assert state.hands[0] == cards("9h 8s 7s 4c") and state.drawn_more == cards("4c")
    assert (len(state.stock), state.mortos[0], state.morto_taken) == (10, [], [False, False])


def test_a4_of_two_equal_dollars_the_one_melded_counts_as_the_piles() -> None:
    """RULES A4: seat 0 holds a 3♥ and takes the other 3♥ with the pile; it melds
    A♥ 2♥ 3♥, and the 3♥ kept, laid, earns its replacement: the two look the same, so
    the one that left is the pile's (an audit found the kept one treated as the pile's)."""
    state = position(A, ["3h Ah 2h 9d 10d Ks Qs", "5c", "6c", "7c"], pile="3h 8d",
                     stock="4s 5s", mortos=[MORTO, "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"],
                     phase="draw", has_laid=[True] * 4)
    apply(state, Action.take_pile(0, with_=cards("9d 10d")))
    assert state.pile_dollars[0] == cards("3h")
    apply(state, Action.lay_down(0, [cards("Ah 2h 3h")]))
    assert state.pile_dollars[0] == []
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 1}
    assert state.hands[0] == cards("Ks Qs 4s")


def test_a6_a12_d23_a_wild_may_stand_for_a_black_three_but_the_three_never_melds() -> None:
    """RULES A6, A12, decision D23: 2♥ fills the 3♣ slot of A♣ 2♣ _ 4♣ (a suja run);
    the 3♣ itself is refused."""
    run = make_meld(cards("Ac 2c 2h 4c"), A)
    assert (run.wild, run.wild_slot, run.low, run.is_canastra) == (C("2h"), 3, 1, False)
    with pytest.raises(IllegalAction) as err:
        make_meld(cards("Ac 2c 3c"), A)
    assert (err.value.code, err.value.message) == (
        "meld_three", "o 3♣ (três preto) não pode entrar em jogo")


def test_a4_a_pile_dollar_melded_in_a_pick_up_leaves_the_pile_dollars() -> None:
    """RULES A4: a 3♥ taken with the pile, then melded with the next pile's top (3♥ 4♥
    5♥, a justified pick-up, A10), is no longer the pile's: the other 3♥, drawn from
    the stock later, earns its replacement (a trial found it refused one)."""
    state = position(A, ["3h 5h Kc Qs", "9d", "10d", "Jd"], pile="9c 4h", stock="8s 7s 6s 3h 9s",
                     mortos=[MORTO, "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"], phase="draw",
                     has_laid=[True] * 4, pile_dollars=[["3h"], [], [], []])
    apply(state, Action.take_pile(0, with_=cards("3h 5h")))
    assert state.melds[0][0].cards == tuple(cards("3h 4h 5h")) and state.pile_dollars[0] == []
    apply(state, Action.discard(0, C("Qs")))
    for seat in (1, 2, 3):
        apply(state, Action.draw(seat))
        apply(state, Action.discard(seat, state.hands[seat][-1]))
    apply(state, Action.draw(0))
    assert state.drawn == C("3h")
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 1}


# §2 the mortos (A1) and §8.3 going out -----------------------------------------------
def test_s2_1_first_side_takes_its_morto_with_or_without_a_discard() -> None:
    direct = position(A, four("9h 10h Jh", "5c", "6c", "7c"), mortos=[MORTO, MORTO])
    events = apply(direct, Action.lay_down(0, [cards("9h 10h Jh")]))
    assert events[-1].public == {"side": 0, "direct": True}
    # §2.1: from the morto taken without a discard the player lays cards before discarding
    assert direct.hands[0] == cards(MORTO) and (direct.turn, direct.phase) == (0, "play")
    indirect = position(A, four("Kc", "5c", "6c", "7c"), mortos=[MORTO, MORTO], stock="9s")
    events = apply(indirect, Action.discard(0, C("Kc")))
    assert [e.kind for e in events] == ["discarded", "took_morto"]
    assert indirect.pending_morto[0] == cards(MORTO) and indirect.turn == 1


def test_a1_second_morto_refused_to_an_indirect_going_out() -> None:
    message = "o outro lado já pegou o morto: o seu só sai batendo sem descarte"
    state = position(
        A,
        four("", "Kc", "", ""),
        mortos=["", MORTO],
        morto_taken=[True, False],
        stock="9s",
        turn=1,
    )
    refused(state, Action.discard(1, C("Kc")), "second_morto_direct", message)
    state = position(
        A,
        four("", "Kc 9h 10h Jh", "", ""),
        mortos=["", MORTO],
        morto_taken=[True, False],
        stock="9s",
        turn=1,
    )
    refused(
        state,
        Action.lay_down(1, [cards("9h 10h Jh")]),
        "second_morto_direct",
        message + "; guarde pelo menos duas cartas na mão",
    )
    # the same side going out without a discard takes its morto
    state = position(
        A,
        four("", "9h 10h Jh", "", ""),
        mortos=["", MORTO],
        morto_taken=[True, False],
        stock="9s",
        turn=1,
    )
    events = apply(state, Action.lay_down(1, [cards("9h 10h Jh")]))
    assert [(e.kind, e.public) for e in events][1] == ("took_morto", {"side": 1, "direct": True})
    assert state.morto_taken == [True, True]


def test_a1_option_off_lets_the_second_side_take_its_morto_by_discard() -> None:
    rules = make_rules("altaneira", {"second_morto_direct_only": False})
    state = position(
        rules,
        four("", "Kc", "", ""),
        mortos=["", MORTO],
        morto_taken=[True, False],
        stock="9s",
        turn=1,
    )
    events = apply(state, Action.discard(1, C("Kc")))
    assert [e.kind for e in events] == ["discarded", "took_morto"]
    assert state.pending_morto[1] == cards(MORTO)


def test_s8_3_ending_the_deal_needs_a_canastra_of_any_kind() -> None:
    message = "para bater é preciso ter pelo menos uma canastra"
    state = position(
        A, four("Kc", "5c", "6c", "7c"), melds=[["9h 10h Jh"], []], mortos=["", ""], stock="9s"
    )
    refused(state, Action.discard(0, C("Kc")), "need_canastra", message)
    state = position(
        A, four("Jd Qd Kd", "5c", "6c", "7c"), melds=[["9h 10h Jh"], []], mortos=["", ""]
    )
    refused(state, Action.lay_down(0, [cards("Jd Qd Kd")]), "need_canastra", message)
    # a suja is enough (seed 000 §8.3: "no mínimo uma Canastra"), by discard too
    state = position(
        A, four("Kc", "5c", "6c", "7c"), melds=[[DIRTY_7], []], mortos=["", ""], stock="9s"
    )
    events = apply(state, Action.discard(0, C("Kc")))
    assert [e.kind for e in events] == ["discarded", "went_out", "deal_over"]
    assert state.went_out == 0


# §9 scoring ---------------------------------------------------------------------------
def test_s9_5_without_a_canastra_melded_cards_and_dollars_count_negative() -> None:
    # the deal ends by stock exhaustion (pile already reused): no batida
    state = position(
        A,
        four("Kc Qd", "5h", "6h 7h", "9s"),
        melds=[[CLEAN_7, "Jh Qh Kh"], ["4d 5d 6d", "8s 9s 10s"]],
        laid_threes=[["3h"], ["3d", "3h"]],
        mortos=["", ""],
        morto_taken=[True, False],
        pile_reused=True,
        pile="Jc",
    )
    act(state, {"seat": 0, "do": "discard", "card": "Kc"})
    assert state.over and state.went_out == -1
    score = score_deal(state)
    # side 0: melded 7 + 3 = 10 cards = 100; limpa 200; one Dólar with a canastra +100;
    # hands Qd + 6h 7h = -30; no batida: 100 + 200 + 100 - 30 = 370
    assert score.breakdown[0] == {
        "melded": 100,
        "canastras": [["limpa", 200]],
        "batida": 0,
        "threes": 100,
        "relancinho": 0,
        "hand": -30,
        "morto": 0,
        "total": 370,
    }
    # side 1: no canastra, so its 6 melded cards count -60 (seed 000 §9.5); two Dólares
    # -200 (A4); hands 5h + 9s = -20; its morto became stock: -100 -> -380
    assert score.breakdown[1] == {
        "melded": -60,
        "canastras": [],
        "batida": 0,
        "threes": -200,
        "relancinho": 0,
        "hand": -20,
        "morto": -100,
        "total": -380,
    }


def test_s9_batida_100_suja_100_limpa_200_every_card_10_morto_minus_100() -> None:
    state = position(
        A,
        four("Jc Qc Kc", "9d Ad", "As", "Jd"),
        melds=[[CLEAN_7, DIRTY_7], ["Qh Kh Ah"]],
        mortos=["", "4h 5h 6h 7h 8h 9h 10h Jh 2d 2c 2s"],
        morto_taken=[True, False],
        stock="9s",
    )
    apply(state, Action.lay_down(0, [cards("Jc Qc Kc")]))
    score = score_deal(state)
    # side 0: melded 7 + 7 + 3 = 17 cards = 170; limpa 200 + suja 100; batida 100;
    # partner holds As (10, A8: an ace counts 10 too): 170 + 300 + 100 - 10 = 560
    assert score.totals[0] == 560
    # side 1: Q-K-A without a canastra: -30 (§9.5); hands 9d Ad + Jd = -30; morto -100
    assert score.totals[1] == -30 - 30 - 100


# A9 the first player's second card ---------------------------------------------------
def test_a9_first_player_may_take_a_second_card() -> None:
    state = _plain_deal("9s 8s 7s 6s")
    no_redraw = "só o primeiro jogador, logo após a primeira compra, troca a carta"
    refused(state, Action.redraw(0), "must_draw", "primeiro compre do monte ou pegue o lixo")
    apply(state, Action.draw(0))  # 9s
    assert view_for(state, 0).can_redraw and legal_moves(view_for(state, 0)).can_redraw
    events = apply(state, Action.redraw(0))
    assert [(e.kind, e.public) for e in events] == [("redrew", {"card": "9s", "stock": 36})]
    assert state.pile == [C("9s")] and C("8s") in state.hands[0]
    assert C("9s") not in state.hands[0]
    refused(state, Action.redraw(0), "no_redraw", no_redraw)  # only once
    apply(state, Action.discard(0, C("8s")))
    apply(state, Action.draw(1))  # 7s
    refused(state, Action.redraw(1), "no_redraw", no_redraw)  # only the first player


def test_a9_no_second_card_after_laying_down() -> None:
    state = _plain_deal("9s 8s")
    apply(state, Action.draw(0))
    apply(state, Action.lay_down(0, [cards("4c 5c 6c")]))
    refused(
        state,
        Action.redraw(0),
        "no_redraw",
        "só o primeiro jogador, logo após a primeira compra, troca a carta",
    )


def _plain_deal(stock: str, first_card: str = "Ac") -> DealState:
    """A fresh deal (seat 0 first): seat 0 holds clubs 4..K and ``first_card``, seats 1-3
    diamonds, hearts, spades 4..A; the stock starts with ``stock``."""
    hands = [
        f"{first_card} 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc",
        "4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad",
        "4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah",
        "4s 5s 6s 7s 8s 9s 10s Js Qs Ks As",
    ]
    mortos = ["4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac", "4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad"]
    return deal_cards(A, 4, make_deck(4, hands, mortos, stock), first=0, reshuffle=[])


# §8.5, §10.8-10.11, A7, C15: the match ---------------------------------------------------
def _exhaustion_deal(hands: list[str], melds: list[list[str]] | None = None) -> DealState:
    """A deal one discard (seat 0 discards Kc) from ending by stock exhaustion."""
    return position(
        A,
        hands,
        melds=melds,
        mortos=["", ""],
        pile_reused=True,
        pile="9d",
    )


def _finish(match: Match, state: DealState) -> None:
    match.start_deal()
    match.deal = state
    match.act(Action.discard(0, C("Kc")))


# the standard final deal: side 0 +250, side 1 -20
# side 0: 7 clean melded = 70 + limpa 200 - Qd (seat 0) - 5c (seat 2) = 250
# side 1: hands 6c + 7c = -20
FINAL_HANDS = four("Kc Qd", "6c", "5c", "7c")
FINAL_MELDS = [[CLEAN_7.replace("c", "h")], []]


def test_s10_9_both_over_the_target_the_higher_total_wins() -> None:
    match = Match.new(A, ["a", "b", "c", "d"])
    match.scores = [4900, 5100]
    _finish(match, _exhaustion_deal(FINAL_HANDS, FINAL_MELDS))
    assert match.results[-1].totals == [250, -20]
    assert match.scores == [5150, 5080]
    assert match.over and match.winner == 0


def test_s1_2_below_the_target_the_match_goes_on_and_3000_option() -> None:
    match = Match.new(A, ["a", "b", "c", "d"])
    match.scores = [2800, 0]
    _finish(match, _exhaustion_deal(FINAL_HANDS, FINAL_MELDS))
    assert match.scores == [3050, -20] and not match.over and match.winner is None
    short = Match.new(make_rules("altaneira", {"target": 3000}), ["a", "b", "c", "d"])
    short.scores = [2800, 0]
    _finish(short, _exhaustion_deal(FINAL_HANDS, FINAL_MELDS))
    assert short.over and short.winner == 0


@pytest.mark.parametrize(
    ("batidas", "best", "winner"),
    [
        ([2, 1], [300, 900], 0),  # §10.10: more batidas
        ([1, 1], [300, 400], 1),  # §10.11 / A7: best single deal ended
        ([1, 1], [0, -50], 0),  # a best deal of 0 beats a negative one
        ([1, 1], [300, 300], None),  # still tied: one more deal
        ([0, 0], [None, None], None),
    ],
)
def test_a7_tie_breaks_batidas_then_best_deal_then_one_more_deal(
    batidas: list[int], best: list[int | None], winner: int | None
) -> None:
    match = Match.new(A, ["a", "b", "c", "d"])
    # 4800 + 250 == 5070 - 20 == 5050: tied above the target
    match.scores = [4800, 5070]
    match.batidas = list(batidas)
    match.best_batida = list(best)
    _finish(match, _exhaustion_deal(FINAL_HANDS, FINAL_MELDS))
    assert match.scores == [5050, 5050]
    assert match.winner == winner
    assert match.over == (winner is not None)
    if winner is None:
        assert match.start_deal().n_players == 4  # one more deal


def test_a7_batidas_and_best_deal_are_counted_from_played_deals() -> None:
    match = _example_match()
    assert match.batidas == [1, 0] and match.best_batida == [630, None]


def test_c15_s8_5_next_dealer_is_who_went_out() -> None:
    match = _example_match()
    assert match.dealer == 0  # seat 0 went out
    assert match.start_deal().first == 1


def test_c15_s8_5_next_dealer_holds_fewest_cards_ties_clockwise_from_last_dealer() -> None:
    match = Match.new(A, ["a", "b", "c", "d"])
    match.dealer = 3
    match.start_deal()
    # the deal was dealt by seat 3; seat 0 (after discarding Kc: 1 card), seat 1 (1 card)
    # and seat 3 (1 card) tie: the first clockwise from seat 3 is seat 0
    match.deal = _exhaustion_deal(four("Kc Qd", "6c", "5c 5d", "7c"), FINAL_MELDS)
    match.act(Action.discard(0, C("Kc")))
    assert match.dealer == 0
    match = Match.new(A, ["a", "b", "c", "d"])
    match.dealer = 0
    match.start_deal()
    match.deal = _exhaustion_deal(four("Kc Qd", "6c", "5c 5d", "7c"), FINAL_MELDS)
    match.act(Action.discard(0, C("Kc")))
    # dealt by seat 0: clockwise 1, 2, 3, 0 -> seat 1 is the first with one card
    assert match.dealer == 1
    assert match.start_deal().first == 2


def _example_match() -> Match:
    match = Match.new(A, ["Ana", "Bruno", "Carla", "Davi"])
    match.start_deal(make_deck(4, ALTANEIRA_HANDS, ALTANEIRA_MORTOS, ALTANEIRA_STOCK), [])
    for raw in ALTANEIRA_ACTIONS:
        match.act(Action.from_json(raw))
    return match


# Records ---------------------------------------------------------------------------------
def test_record_altaneira_example_is_the_scripted_deal() -> None:
    assert load_example("altaneira") == altaneira_record()


def test_record_altaneira_example_replays_with_the_cli() -> None:
    out = replay_example("altaneira")
    assert (out["ok"], out["error"], out["deal_over"]) == (True, None, True)
    # side 0: hearts 7..K with the 2h as K (7) + Jd Qd Kd + 5c 6c 7c + the morto 4d..Ad
    # (11) = 24 cards = 240; suja 100 + limpa 200; batida 100; Dólar 3h +100; seat 2
    # holds 11 cards -110: 240 + 300 + 100 + 100 - 110 = 630
    # side 1: hands 11 + 11 = -220; no melds; morto not taken -100: -320
    assert out["deal_scores"] == [630, -320]
    assert out["breakdown"][0]["canastras"] == [["suja", 100], ["limpa", 200]]
    assert out["position"]["killed"] == ["9s", "Kh", "3s"]


# C4, C6 with the Dólar as a natural 3 ----------------------------------------------------
def test_c6_a_dirty_run_turns_clean_when_its_own_two_is_replaced() -> None:
    """RULES C4, C6, C10: the Dólar as a natural 3 (A5) leaves the 2h standing for the
    10; the 10h then replaces it and it settles in the 2-slot, now contiguous: limpa."""
    dirty = make_meld(cards("4h 5h 6h 7h 8h 9h 2h"), A)
    assert (dirty.cards[-1], dirty.canastra) == (C("2h"), "suja")  # the 2h stands for 10
    still = extend_meld(dirty, cards("3h"), A)
    assert still.cards == tuple(cards("3h 4h 5h 6h 7h 8h 9h 2h"))
    assert (still.wild, still.canastra) == (C("2h"), "suja")
    clean = extend_meld(still, cards("10h"), A)
    assert clean.cards == tuple(cards("2h 3h 4h 5h 6h 7h 8h 9h 10h"))
    assert (clean.wild, clean.canastra) == (None, "limpa")


def test_c4_c8_natural_three_into_a_dirty_a_to_k_moves_the_mele_to_the_top() -> None:
    dirty = make_meld(cards("Ah 2h 2c 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"), A)
    assert (dirty.cards[2], dirty.canastra) == (C("2c"), "suja")
    moved = extend_meld(dirty, cards("3h"), A)
    # the 2c moves to the open high end (the top ace): A..A with a Melé is only suja (C8)
    assert moved.cards == tuple(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh 2c"))
    assert moved.canastra == "suja"


def test_a4_a_dollar_drawn_as_replacement_is_replaced_too() -> None:
    state = position(A, four("3h Kc Qd", "5c", "6c", "7c"), stock="3d 9s 8s")
    apply(state, Action.lay_three(0, C("3h")))  # draws the 3d
    events = apply(state, Action.lay_three(0, C("3d")))  # draws the 9s
    assert events[0].public == {"card": "3d", "replaced": 1}
    assert sorted(state.hands[0]) == sorted(cards("Kc Qd 9s"))
    assert state.laid_threes[0] == cards("3h 3d") and state.stock == [C("8s")]


def test_a4_a_dollar_from_the_morto_earns_a_replacement() -> None:
    # a direct going-out takes the morto (which holds a 3h): laying it draws a card
    morto = "3h 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"
    state = position(A, four("9h 10h Jh", "5c", "6c", "7c"), mortos=[morto, MORTO], stock="9c")
    apply(state, Action.lay_down(0, [cards("9h 10h Jh")]))
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 1}
    assert C("9c") in state.hands[0] and C("3h") not in state.hands[0]


def test_a6_a_tranca_as_the_last_card_kills_the_pile_and_goes_out() -> None:
    state = position(
        A, four("3s", "5c", "6c", "7c"), melds=[[CLEAN_7], []], pile="Kd Qc", mortos=["", ""]
    )
    events = apply(state, Action.discard(0, C("3s")))
    assert [e.kind for e in events] == ["discarded", "pile_killed", "went_out", "deal_over"]
    assert state.killed == cards("Kd Qc 3s") and state.went_out == 0
    # side 0: 70 + limpa 200 + batida 100 - partner's 6c 10 = 360 (the killed cards
    # count for nobody); side 1: 5c + 7c = -20
    assert score_deal(state).totals == [360, -20]


def test_a26_d1_s8_4_a_dollar_laid_with_nothing_left_to_draw_ends_the_deal() -> None:
    """Seed 000 §8.4, RULES A26 and D1: the Dólar 3♥ is owed a replacement, but there is
    no stock, no morto and the pile was already reused once: the deal ends as it is laid,
    without a batida. Seat 0 may not meld 8♣ 9♣ 10♣ and go out after it (issue 38 found
    the turn going on and a batida scored: 490 instead of 330)."""
    state = position(A, four("3h 8c 9c 10c", "5d", "6d", "7d"),
                     melds=[["4h 5h 6h 7h 8h 9h 10h"], []], pile="Kd", stock="",
                     mortos=["", ""], morto_taken=[True, True], pile_reused=True,
                     has_laid=[True] * 4)
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [
        ("laid_three", {"card": "3h", "replaced": 0}), ("deal_over", {"reason": "stock"})]
    assert state.over and state.went_out == -1
    assert state.hands[0] == cards("8c 9c 10c") and state.laid_threes == [[C("3h")], []]
    refused(state, Action.lay_down(0, [cards("8c 9c 10c")]), "deal_over", "esta mão já terminou")
    score = score_deal(state)
    # side 0 (seats 0, 2): 7 x 10 = 70 + limpa 200 + Dólar 100 (a canastra) - hands
    # 8c 9c 10c and 6d 40 = 330, no batida; side 1 (seats 1, 3): hands 5d 7d = -20
    assert score.totals == [330, -20]
    assert score.breakdown[0]["batida"] == 0


def test_a4_a_pile_dollar_with_nothing_left_to_draw_does_not_end_the_deal() -> None:
    """RULES A4: a Dólar taken with the pile is owed no replacement, so an empty stock
    changes nothing: it is laid and the turn goes on (only an owed draw ends the deal)."""
    state = position(A, four("3h 8c 9c 10c Kc", "5d", "6d", "7d"),
                     melds=[["4h 5h 6h 7h 8h 9h 10h"], []], pile="Kd", stock="",
                     mortos=["", ""], morto_taken=[True, True], pile_reused=True,
                     has_laid=[True] * 4, pile_dollars=[["3h"], [], [], []])
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [("laid_three", {"card": "3h", "replaced": 0})]
    assert state.phase == "play" and state.pile_dollars[0] == []
