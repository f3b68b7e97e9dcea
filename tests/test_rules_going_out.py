"""Turns and going out: RULES C2, C11, C12, C13, A16, A17, A21 (relancinho), A22
(vulnerability) for buraco, buraco_morto, bossa_nova and justificado (seed 001
"Bate direto e bate indireto", seed 003 "Batida Direta e Batida Indireta")."""

from __future__ import annotations

import pytest

from engine import Action, DealState, IllegalAction, Match, apply, make_rules, score_deal
from engine.cards import full_deck
from engine.state import deal_cards
from tests.rules_support import (
    act,
    build_deck,
    cards,
    hand_codes,
    meld_codes,
    refused,
    state_of,
)

WITH_MORTO = ("buraco_morto", "bossa_nova", "justificado")


# C11: the turn ---------------------------------------------------------------------------
def test_c11_draw_first_then_melds_then_one_discard() -> None:
    st = state_of("buraco", ["5h 6h 7h 9c", "4c 8d"], stock="Kd Qd", phase="draw")
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]},
        "must_draw",
        "primeiro compre do monte ou pegue o lixo",
    )
    refused(
        st,
        {"seat": 0, "do": "discard", "card": "9c"},
        "must_draw",
        "primeiro compre do monte ou pegue o lixo",
    )
    refused(st, {"seat": 1, "do": "draw"}, "not_your_turn", "não é a sua vez")
    refused(st, {"seat": 5, "do": "draw"}, "bad_seat", "não existe o assento 5")
    act(st, {"seat": 0, "do": "draw"})
    refused(st, {"seat": 0, "do": "draw"}, "already_drew", "você já comprou nesta vez")
    act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]})
    refused(st, {"seat": 0, "do": "discard", "card": "Qd"}, "not_in_hand", "você não tem: Q♦")
    assert act(st, {"seat": 0, "do": "discard", "card": "Kd"}) == ["discarded"]
    assert (st.turn, st.phase, hand_codes(st, 0)) == (1, "draw", ["9c"])
    refused(st, {"seat": 0, "do": "draw"}, "not_your_turn", "não é a sua vez")


def test_c11_bad_lay_downs_change_nothing() -> None:
    """Issue 2 "Bad input": a lay-down with one bad meld lays none of them; cards not in
    the hand (or used twice) are refused."""
    st = state_of("buraco", ["5h 6h 7h 9c 9d Kd", "4c 8d"], has_laid=[True, True])
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"], ["9c", "9d", "Kd"]]},
        "meld_mixed_suits",
        "uma sequência precisa ser toda do mesmo naipe",
    )
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"], ["7h", "8h", "9h"]]},
        "not_in_hand",
        "você não tem: 7♥ 8♥ 9♥",
    )
    refused(
        st,
        {"seat": 0, "do": "extend", "meld": 0, "cards": ["8h"]},
        "not_in_hand",
        "você não tem: 8♥",
    )
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(st, Action.lay_down(0, [], []))
    assert (err.value.code, err.value.message) == ("meld_no_cards", "escolha as cartas para baixar")
    assert st.to_json() == before


def test_c11_play_passes_to_the_next_seat_round_the_table() -> None:
    """RULES §1: play passes to the next seat; 4 players: 3 -> 0."""
    st = state_of(
        "buraco",
        ["4c 9c", "4d 9d", "4h 9h", "4s 9s"],
        stock="Kd Qd Jd Kc Qc",
        turn=3,
        phase="draw",
    )
    for seat in (3, 0, 1):
        act(st, {"seat": seat, "do": "draw"})
        act(st, {"seat": seat, "do": "discard", "card": st.hands[seat][0].code})
        assert (st.turn, st.phase) == ((seat + 1) % 4, "draw")


@pytest.mark.parametrize("preset", WITH_MORTO)
def test_c11_direct_going_out_takes_the_morto_and_the_turn_goes_on_without_draw(
    preset: str,
) -> None:
    """RULES C11 + seed 001 "Bate direto ... Pegará o morto e continuará a jogar, sem
    comprar carta": no discard, the morto is the new hand, still the same turn."""
    st = state_of(
        preset,
        ["5h 6h 7h", "4c 8d"],
        mortos=["Jd Qd Kd 9s", "As Ks"],
        stock="Kc",
        has_laid=[True, True],  # laid before: no relancinho here (A21)
    )
    events = act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]})
    assert events == ["melded", "took_morto"]
    assert (hand_codes(st, 0), st.turn, st.phase) == (["9s", "Jd", "Kd", "Qd"], 0, "play")
    assert (st.mortos[0], st.morto_taken) == ([], [True, False])
    refused(st, {"seat": 0, "do": "draw"}, "already_drew", "você já comprou nesta vez")
    act(st, {"seat": 0, "do": "discard", "card": "9s"})
    assert (st.turn, st.over, hand_codes(st, 0)) == (1, False, ["Jd", "Kd", "Qd"])


def test_c3_c11_a_morto_card_like_the_taken_top_may_be_discarded_after_a_direct_going_out() -> None:
    """RULES C3 + C11: the taken 7♥ is melded and the direct going-out brings the morto,
    which holds the other 7♥: that one never lay on the pile, so it may be discarded (an
    audit found it refused as the pile's top)."""
    st = state_of("buraco_morto", ["5h 6h", "Kd Kd"], pile="7h", stock="2s 4s", phase="draw",
                  mortos=["7h 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac", "Ah Ah"], has_laid=[True, True])
    assert act(st, {"seat": 0, "do": "take_pile"}) == ["took_pile"]
    events = act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]})
    assert events == ["melded", "took_morto"] and st.taken_top is None
    assert act(st, {"seat": 0, "do": "discard", "card": "7h"}) == ["discarded"]
    assert (st.turn, st.pile[-1].code, len(st.hands[0])) == (1, "7h", 10)


def test_c11_no_action_after_the_deal_ended() -> None:
    st = state_of("buraco", ["5h 6h 7h", "4c 8d"], has_laid=[True, True])
    assert act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]}) == [
        "melded",
        "went_out",
        "deal_over",
    ]
    refused(st, {"seat": 1, "do": "draw"}, "deal_over", "esta mão já terminou")


# C2: direct and indirect going out -------------------------------------------------------
def test_c2_direct_going_out_by_melding_the_last_cards_ends_the_buraco_deal() -> None:
    """RULES C2 "direta" / C11: the final going-out by melding needs no discard.
    side 0: melded 5h 6h 7h = 15, batida 50 => 65; side 1: -(5 + 10) = -15.
    (Seat 0 laid earlier in the deal, so this is no relancinho, A21.)"""
    st = state_of("buraco", ["5h 6h 7h", "4c 8d"], has_laid=[True, True])
    act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]})
    assert (st.over, st.went_out, st.pile) == (True, 0, [])
    assert score_deal(st).totals == [15 + 50, -15]


def test_c2_indirect_going_out_with_a_wild_as_the_last_discard() -> None:
    """RULES C2: "a wild may be the last discard".
    side 0: melded 5h..8h = 5*3 + 10 = 25, batida 50 => 75; side 1: -15."""
    st = state_of("buraco", ["5h 2c", "4c 8d"], melds=[["6h 7h 8h"], []])
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    assert act(st, {"seat": 0, "do": "discard", "card": "2c"}) == [
        "discarded",
        "went_out",
        "deal_over",
    ]
    assert st.to_json()["pile"] == ["2c"]
    assert score_deal(st).totals == [25 + 50, -15]


# C12: morto by discard ---------------------------------------------------------------------
@pytest.mark.parametrize("preset", WITH_MORTO)
def test_c12_indirect_morto_is_played_from_the_next_turn_after_a_normal_draw(
    preset: str,
) -> None:
    """RULES C12 / seed 001 "Bate indireto": the morto goes to the player at once but is
    used only from the next turn, which starts with a normal draw."""
    st = state_of(
        preset,
        ["5h 9c", "4c 8d"],
        melds=[["6h 7h 8h"], []],
        mortos=["Jd Qd Kd", "As Ks"],
        stock="Kc Qc",
        has_laid=[True, True],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    assert act(st, {"seat": 0, "do": "discard", "card": "9c"}) == ["discarded", "took_morto"]
    assert (st.hands[0], st.to_json()["pending_morto"][0]) == ([], ["Jd", "Qd", "Kd"])
    assert (st.morto_taken[0], st.turn) == (True, 1)
    act(st, {"seat": 1, "do": "draw"})
    act(st, {"seat": 1, "do": "discard", "card": "Kc"})
    assert (hand_codes(st, 0), st.turn, st.phase) == (["Jd", "Kd", "Qd"], 0, "draw")
    act(st, {"seat": 0, "do": "draw"})
    assert hand_codes(st, 0) == ["Jd", "Kd", "Qc", "Qd"]


@pytest.mark.parametrize("preset", ["buraco_morto", "bossa_nova"])
def test_c12_deal_ends_before_the_morto_turn_side_pays_100(preset: str) -> None:
    """RULES C12 / seed 001 "o morto deverá ser pago, como se não o tivesse pegado".
    Seat 0 goes out by discard (morto pending); seat 1, whose morto was taken earlier,
    ends the deal before seat 0's next turn, with a suja canastra (bossa_nova needs one).
    side 0: melded 5h 6h 7h 8h = 5+5+5+10 = 25; the pending morto never counts; -100.
    side 1: 2d 8s 9s 10s Js Qs Ks As = 10 + 10*6 + 15 = 85; suja 100; batida 50."""
    st = state_of(
        preset,
        ["5h 9c", "8s"],
        melds=[["6h 7h 8h"], ["9s 10s Js Qs Ks 2d As"]],
        mortos=["Jd Qd Kd", ""],
        stock="Kc Qc",
        has_laid=[True, True],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    act(st, {"seat": 0, "do": "discard", "card": "9c"})
    act(st, {"seat": 1, "do": "draw"})  # Kc
    act(st, {"seat": 1, "do": "extend", "meld": 0, "cards": ["8s"]})  # 2d moves to 7 (C4)
    events = act(st, {"seat": 1, "do": "discard", "card": "Kc"})
    assert events == ["discarded", "went_out", "deal_over"]
    score = score_deal(st)
    assert (score.breakdown[0]["morto"], score.breakdown[0]["hand"]) == (-100, 0)
    assert score.totals[0] == 25 - 100
    assert score.totals[1] == 85 + 100 + 50


# C13 / A16 / A17: conditions for the going-out that ends the deal ---------------------------
def test_c13_bossa_nova_melding_out_without_canastra_is_refused_with_reason() -> None:
    """RULES C13 + A16: a move that would leave the player with no cards is refused."""
    st = state_of("bossa_nova", ["9c 10c Jc", "4c 8d"], melds=[["5h 6h 7h"], []], mortos=["", "As"])
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]},
        "need_canastra",
        "para bater é preciso ter pelo menos uma canastra",
    )


def test_c13_bossa_nova_leaving_one_card_that_cannot_go_out_is_refused() -> None:
    """RULES C13: a lay-down that leaves one card the player could not discard to go out
    is refused with the reason (the message asks to keep two cards)."""
    st = state_of(
        "bossa_nova", ["9c 10c Jc Kd", "4c 8d"], melds=[["5h 6h 7h"], []], mortos=["", "As"]
    )
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]},
        "need_canastra",
        "para bater é preciso ter pelo menos uma canastra; guarde pelo menos duas cartas na mão",
    )


def test_c13_a16_bossa_nova_canastra_completed_in_the_same_lay_down_may_go_out() -> None:
    """RULES A16: the canastra may be made by the very lay-down that empties the hand.
    side 0: 5h..Jh = 5*3 + 10*4 = 55; limpa 200; batida 50 => 305."""
    st = state_of(
        "bossa_nova", ["8h 9h 10h Jh", "4c 8d"], melds=[["5h 6h 7h"], []], mortos=["", "As"]
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["8h", "9h", "10h", "Jh"]})
    assert (st.over, st.went_out) == (True, 0)
    assert score_deal(st).totals[0] == 55 + 200 + 50


def test_a16_bossa_nova_morto_needs_no_canastra_option_makes_it_need_one() -> None:
    """RULES A16: no canastra needed to take the morto (option: also for the morto)."""
    pos = dict(melds=[["5h 6h 7h"], []], mortos=["Jd Qd", "As"], stock="Kc")
    st = state_of("bossa_nova", ["9c 10c Jc", "4c 8d"], **pos)
    assert act(st, {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]}) == [
        "melded",
        "took_morto",
    ]
    strict = state_of(
        "bossa_nova", ["9c 10c Jc", "4c 8d"], options={"morto_requires": "any_canastra"}, **pos
    )
    refused(
        strict,
        {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]},
        "need_canastra",
        "para bater é preciso ter pelo menos uma canastra",
    )


def test_c13_justificado_suja_is_not_enough_to_end_the_deal() -> None:
    """RULES §2 justificado "ending the deal: ≥1 clean canastra" (seed 003)."""
    st = state_of(
        "justificado",
        ["Qh Kh", "4c 8d"],
        melds=[["5h 6h 7h 8h 9h 10h 2c"], []],
        mortos=["", "As"],
    )
    refused(
        st,
        {"seat": 0, "do": "extend", "meld": 0, "cards": ["Qh", "Kh"]},
        "need_clean_canastra",
        "para bater é preciso ter uma canastra limpa",
    )


def test_c13_justificado_de_mil_counts_as_clean() -> None:
    st = state_of(
        "justificado",
        ["Kh Ah", "4c 8d"],
        melds=[["Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh"], []],
        mortos=["", "As"],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Kh", "Ah"]})
    assert (st.over, st.melds[0][0].canastra) == (True, "de_mil")


@pytest.mark.parametrize("preset", ["buraco", "buraco_morto"])
def test_a17_no_canastra_needed_to_go_out(preset: str) -> None:
    """RULES A17: buraco and buraco_morto need no canastra for any going-out."""
    mortos = ["", "As"] if preset == "buraco_morto" else None
    st = state_of(preset, ["9c 10c Jc", "4c 8d"], mortos=mortos)
    act(st, {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]})
    assert (st.over, st.went_out) == (True, 0)


# A21: relancinho ----------------------------------------------------------------------
RUN11 = "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
OTHER11 = "4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9c"  # 5*8 + 10*3 = 70 points


def test_a21_relancinho_whole_hand_in_one_turn_buraco_full_deal() -> None:
    """RULES A21 / seed 001 "Relancinho": 11 cards melded in one turn (one discard).
    side 0: melded 3h..7h = 5*5 = 25, 8h..Kh = 10*6 = 60 => 85; limpa +200; batida +50;
    relancinho +100 => 435.  side 1: hand -70 => -70."""
    rules = make_rules("buraco")
    st = deal_cards(rules, 2, build_deck(rules, 2, [RUN11, OTHER11], stock_top="Ks"), 0)
    act(st, {"seat": 0, "do": "draw"})
    act(st, {"seat": 0, "do": "meld", "melds": [RUN11.split()]})
    events = act(st, {"seat": 0, "do": "discard", "card": "Ks"})
    assert events == ["discarded", "relancinho", "went_out", "deal_over"]
    score = score_deal(st)
    assert score.breakdown[0]["relancinho"] == 100
    assert score.breakdown[0]["canastras"] == [["limpa", 200]]
    assert score.totals == [85 + 200 + 50 + 100, -70]


@pytest.mark.parametrize("preset", ["buraco_morto", "bossa_nova"])
def test_a21_relancinho_also_takes_the_morto(preset: str) -> None:
    """RULES A21: in buraco_morto and bossa_nova the relancinho takes the morto as a
    going-out (here direct: the drawn 2h is the natural 2 of 2h..Kh, C5)."""
    rules = make_rules(preset)
    morto0 = "Ac Ad As Qc Qd Qs Jc Jd Js 10c 10d"
    morto1 = "9d 9s 10s Kc Kd Ks 3c 3d 3s 2c 2d"
    deck = build_deck(rules, 2, [RUN11, OTHER11], mortos=[morto0, morto1], stock_top="2h")
    st = deal_cards(rules, 2, deck, 0)
    act(st, {"seat": 0, "do": "draw"})
    events = act(st, {"seat": 0, "do": "meld", "melds": [["2h", *RUN11.split()]]})
    assert events == ["melded", "relancinho", "took_morto"]
    assert (sorted(hand_codes(st, 0)), st.phase, st.relancinhos) == (
        sorted(morto0.split()),
        "play",
        [1, 0],
    )
    # playing on from the morto in the same turn is no second relancinho
    act(st, {"seat": 0, "do": "meld", "melds": [["Ac", "Ad", "As"], ["Qc", "Qd", "Qs"]]})
    act(st, {"seat": 0, "do": "meld", "melds": [["Jc", "Jd", "Js"]]})
    assert st.relancinhos == [1, 0]


def test_a21_no_relancinho_after_an_earlier_lay_down() -> None:
    """RULES A21: "a player with no melds of their own laid earlier in the deal"."""
    st = state_of(
        "buraco", ["9c 10c Jc 4d", "4c 8d"], melds=[["5h 6h 7h"], []], has_laid=[True, False]
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]})
    assert act(st, {"seat": 0, "do": "discard", "card": "4d"}) == [
        "discarded",
        "went_out",
        "deal_over",
    ]
    assert score_deal(st).breakdown[0]["relancinho"] == 0


def test_a21_partners_melds_do_not_spoil_a_relancinho() -> None:
    """RULES A21: melds "of their own": seat 2 never laid; seat 0 (partner) did.
    side 0: 5h 6h 7h = 15 + 9c 10c Jc = 30 + 4s 5s 6s = 15 => 60; batida 50;
    relancinho 100 => 210.  side 1: -(4c 8d 4d 9d) = -(5+10+5+10) = -30."""
    st = state_of(
        "buraco",
        ["Kd", "4c 8d", "9c 10c Jc 4s 5s 6s Qd", "4d 9d"],
        melds=[["5h 6h 7h"], []],
        turn=2,
        has_laid=[True, False, False, False],
    )
    act(st, {"seat": 2, "do": "meld", "melds": [["9c", "10c", "Jc"]]})
    act(st, {"seat": 2, "do": "meld", "melds": [["4s", "5s", "6s"]]})  # same turn
    events = act(st, {"seat": 2, "do": "discard", "card": "Qd"})
    assert events == ["discarded", "relancinho", "went_out", "deal_over"]
    # seat 0 still holds Kd: side 0 hand -10
    assert score_deal(st).totals == [60 + 50 + 100 - 10, -30]


def test_a21_justificado_has_no_relancinho() -> None:
    """RULES §2 "extras" (justificado): "—"."""
    st = state_of("justificado", ["9c 10c Jc 4d", "4c 8d"], mortos=["Ks", "As"], stock="Qc")
    act(st, {"seat": 0, "do": "meld", "melds": [["9c", "10c", "Jc"]]})
    assert act(st, {"seat": 0, "do": "discard", "card": "4d"}) == ["discarded", "took_morto"]
    assert st.relancinhos == [0, 0]


# A22: vulnerability ------------------------------------------------------------------------
VULN_HAND = "Ah Ad Ac Ks Kd Kc 5s 6s 7s Kh Qh Jh 10h 4c 9d"


def vulnerable(preset: str = "buraco", score: int = 750) -> DealState:
    mortos = ["8c", "8c"] if preset != "buraco" else None
    return state_of(preset, [VULN_HAND, "4d 8d"], scores=[score, 0], mortos=mortos, stock="Qc")


@pytest.mark.parametrize("preset", ["buraco", "buraco_morto", "bossa_nova"])
def test_a22_vulnerable_first_lay_down_of_exactly_75_is_accepted(preset: str) -> None:
    """RULES A22: at 750 (half the target) the first lay-down needs 75 card points:
    A A A = 15*3 = 45, K K K = 10*3 = 30 => 75."""
    st = vulnerable(preset)
    assert act(
        st, {"seat": 0, "do": "meld", "melds": [["Ah", "Ad", "Ac"], ["Ks", "Kd", "Kc"]]}
    ) == ["melded"]
    # later lay-downs of the deal have no minimum: 5s 6s 7s = 15
    assert act(st, {"seat": 0, "do": "meld", "melds": [["5s", "6s", "7s"]]}) == ["melded"]


@pytest.mark.parametrize("preset", ["buraco", "buraco_morto", "bossa_nova"])
def test_a22_short_attempt_is_refused_and_then_90_is_needed(preset: str) -> None:
    """RULES A22: a short attempt is refused and that player needs 90 for the rest of the
    deal. Engine (docs/rules-decisions.md D4): the refusal is the effect of a legal
    action, event ``lay_down_short``; nothing is laid, the minimum becomes 90.
    70 = Kh Qh Jh 10h (40) + Ks Kd Kc (30); 85 = A A A (45) + Kh Qh Jh 10h (40);
    90 = A A A (45) + K K K (30) + 5s 6s 7s (15)."""
    st = vulnerable(preset)
    hand_before, melds_before = hand_codes(st, 0), meld_codes(st, 0)
    events = apply(st, Action.lay_down(0, [cards("Kh Qh Jh 10h"), cards("Ks Kd Kc")]))
    assert [(e.kind, e.public) for e in events] == [
        ("lay_down_short", {"points": 70, "needed": 75, "now_needed": 90})
    ]
    assert (hand_codes(st, 0), meld_codes(st, 0), st.vuln_min[0]) == (
        hand_before,
        melds_before,
        90,
    )
    events = apply(st, Action.lay_down(0, [cards("Ah Ad Ac"), cards("Kh Qh Jh 10h")]))
    assert [(e.kind, e.public) for e in events] == [
        ("lay_down_short", {"points": 85, "needed": 90, "now_needed": 90})
    ]
    assert meld_codes(st, 0) == []
    act(
        st,
        {
            "seat": 0,
            "do": "meld",
            "melds": [["Ah", "Ad", "Ac"], ["Ks", "Kd", "Kc"], ["5s", "6s", "7s"]],
        },
    )
    assert len(st.melds[0]) == 3


def test_a22_below_750_there_is_no_minimum_and_justificado_has_none() -> None:
    """RULES A22: "once a side's match score reaches 750"; justificado extras "—"."""
    st = vulnerable("buraco", 749)
    assert act(st, {"seat": 0, "do": "meld", "melds": [["5s", "6s", "7s"]]}) == ["melded"]
    just = state_of(
        "justificado", [VULN_HAND, "4d 8d"], scores=[800, 0], mortos=["8c", "8c"], stock="Qc"
    )
    assert act(just, {"seat": 0, "do": "meld", "melds": [["5s", "6s", "7s"]]}) == ["melded"]


def test_a22_extensions_count_and_each_partner_has_a_first_lay_down() -> None:
    """RULES A22: new melds and extensions together; "each of its players' first
    lay-down". Seat 2 (partner of seat 0, who laid 9h 10h Jh) extends with Qh Kh = 20 and
    lays 5c 6c 7c = 15: 35 < 75, refused. Then Qh Kh (20) + As Ad Ac (45) + 5c 6c 7c (15)
    = 80 is accepted."""
    st = state_of(
        "buraco",
        ["Kd", "4c 8d", "Qh Kh As Ad Ac 5c 6c 7c 9s", "4d 9d"],
        melds=[["9h 10h Jh"], []],
        turn=2,
        scores=[800, 0],
        has_laid=[True, False, False, False],
    )
    record = {
        "seat": 2,
        "do": "meld",
        "melds": [["5c", "6c", "7c"]],
        "extend": [{"meld": 0, "cards": ["Qh", "Kh"]}],
    }
    assert act(st, record) == ["lay_down_short"]
    assert st.vuln_min[2] == 90
    record["melds"] = [["5c", "6c", "7c"], ["As", "Ad", "Ac"]]
    assert act(st, record) == ["lay_down_short"]  # 80 < 90 after the failed attempt
    assert meld_codes(st, 0) == [["9h", "10h", "Jh"]]


def test_a22_vulnerable_from_the_match_score_in_a_dealt_deal() -> None:
    """RULES A22 on a fresh deal: side 0 at 750 => every side-0 seat needs 75; side 1
    at 749 needs nothing."""
    st = deal_cards(make_rules("buraco"), 4, full_deck(), 0, scores=[750, 749])
    assert st.vuln_min == [75, 0, 75, 0]


def test_c12_four_players_pending_morto_waits_for_its_owners_turn() -> None:
    """RULES C12 with partners: seat 0's morto taken by discard is not the partner's; it
    joins seat 0's hand at seat 0's next turn (after seats 1, 2, 3 played)."""
    st = state_of(
        "buraco_morto",
        ["5h 9c", "4c 8d", "4d 8s", "4s 9d"],
        melds=[["6h 7h 8h"], []],
        mortos=["Jd Qd Kd", "As Ks"],
        stock="Kc Qc Jc Qs",
        has_laid=[True, True, True, True],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    assert act(st, {"seat": 0, "do": "discard", "card": "9c"}) == ["discarded", "took_morto"]
    for seat, drawn in ((1, "Kc"), (2, "Qc"), (3, "Jc")):
        act(st, {"seat": seat, "do": "draw"})
        assert st.hands[0] == []
        act(st, {"seat": seat, "do": "discard", "card": drawn})
    assert (st.turn, hand_codes(st, 0), hand_codes(st, 2)) == (
        0,
        ["Jd", "Kd", "Qd"],
        ["4d", "8s"],
    )


def test_a26_three_players_untaken_mortos_become_stock_one_after_another() -> None:
    """RULES A26: the untaken mortos become stock in seat order (3 players: sides = seats;
    side 0 took its morto, so side 1's morto comes first, then side 2's; D18)."""
    st = state_of(
        "buraco_morto",
        ["9c Qh", "4d 8d", "5c 5s"],
        stock="Kd",
        mortos=["", "Jh", "Js"],
        turn=2,
        phase="draw",
        has_laid=[True, True, True],
    )
    act(st, {"seat": 2, "do": "draw"})
    assert act(st, {"seat": 2, "do": "discard", "card": "Kd"}) == [
        "discarded",
        "stock_from_morto",
    ]
    assert (st.to_json()["stock"], [bool(m) for m in st.mortos]) == (["Jh"], [False, False, True])
    act(st, {"seat": 0, "do": "draw"})
    assert act(st, {"seat": 0, "do": "discard", "card": "Jh"}) == [
        "discarded",
        "stock_from_morto",
    ]
    assert st.to_json()["stock"] == ["Js"]
    act(st, {"seat": 1, "do": "draw"})
    assert act(st, {"seat": 1, "do": "discard", "card": "Js"}) == ["discarded", "deal_over"]
    # every side but side 0 pays its morto (A26 "their sides still pay -100")
    assert [row["morto"] for row in score_deal(st).breakdown] == [0, -100, -100]


def test_a22_match_scores_carry_vulnerability_into_the_next_deal() -> None:
    """RULES A22: vulnerability comes from the match score at the start of the deal."""
    match = Match.new(make_rules("buraco_morto"), ["Ana", "Bia", "Caio", "Duda"])
    match.scores = [760, 100]
    assert match.start_deal(full_deck()).vuln_min == [75, 0, 75, 0]


def test_a9_first_player_of_a_later_deal_may_take_a_second_card() -> None:
    """RULES A9 + C15: in the second deal seat 1 plays first and may redraw."""
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    match.dealer = 0  # as after a first deal (C15: the next deal is dealt by seat 0)
    state = match.start_deal(full_deck())
    assert state.turn == 1
    match.act(Action.draw(1))
    assert [e.kind for e in match.act(Action.redraw(1))] == ["redrew"]
    assert len(state.pile) == 1


def test_c13_justificado_pickup_that_would_end_the_deal_needs_a_clean_canastra() -> None:
    """RULES C13 + A10: after the morto, a justified pick-up that empties the hand (top 7h
    with the last 8h 9h) would end the deal; with no clean canastra it is refused."""
    st = state_of(
        "justificado",
        ["Kd Qs", "8h 9h"],
        melds=[[], ["3s 4s 5s 2c 7s 8s 9s"]],
        pile="7h",
        stock="Jc",
        turn=1,
        phase="draw",
        mortos=["8c", ""],
    )
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]},
        "need_clean_canastra",
        "para bater é preciso ter uma canastra limpa",
    )


def test_a26_d5_side_whose_morto_became_stock_ends_the_deal_by_going_out() -> None:
    """RULES A26 + docs/rules-decisions.md D5 (RULES silent): once side 0's untaken morto
    became stock, side 0's first going-out ends the deal, needs what ending needs
    (bossa_nova: a canastra, A16), and side 0 still pays -100.
    side 0: 9c 10c Jc Qc Kc Ac + 2d = 10*5 + 15 + 10 = 75; suja 100; batida 50; -100
    => 125.  side 1: hand 4d 8d = -(5 + 10) = -15."""
    st = state_of(
        "bossa_nova",
        ["Kc Ac", "4d 8d 9s"],
        melds=[["9c 10c Jc Qc"], []],
        stock="",
        mortos=["2d 6s", ""],
        morto_taken=[False, True],
        turn=1,
        phase="play",
        has_laid=[True, True],
    )
    assert act(st, {"seat": 1, "do": "discard", "card": "9s"}) == [
        "discarded",
        "stock_from_morto",
    ]
    act(st, {"seat": 0, "do": "draw"})  # 2d, from what was side 0's morto
    refused(
        st,
        {"seat": 0, "do": "extend", "meld": 0, "cards": ["Kc", "Ac"]},
        "need_canastra",
        "para bater é preciso ter pelo menos uma canastra; guarde pelo menos duas cartas na mão",
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Kc", "Ac", "2d"]})
    assert (st.over, st.went_out, st.morto_taken) == (True, 0, [False, True])
    assert score_deal(st).totals == [75 + 100 + 50 - 100, -15]


def test_c12_d15_pending_morto_when_the_stock_runs_out_is_paid() -> None:
    """RULES C12 + A26, docs/rules-decisions.md D15: seat 0 goes out by discard as the
    stock is empty and no morto is left to become stock: the deal ends before seat 0's
    next turn, so side 0 pays -100 and the pending morto never counts.
    side 0: 5h 6h 7h 8h = 25, -100 => -75.  side 1: 4c 8d = -15 (no batida for anyone)."""
    st = state_of(
        "buraco_morto",
        ["5h 9c", "4c 8d"],
        melds=[["6h 7h 8h"], []],
        mortos=["Jd Qd Kd", ""],
        morto_taken=[False, True],
        stock="",
        has_laid=[True, True],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    events = act(st, {"seat": 0, "do": "discard", "card": "9c"})
    assert events == ["discarded", "took_morto", "deal_over"]
    assert st.to_json()["pending_morto"][0] == ["Jd", "Qd", "Kd"]
    assert score_deal(st).totals == [25 - 100, -15]


def test_a21_indirect_relancinho_counts_even_if_the_morto_is_then_paid() -> None:
    """RULES A21 ("+100 to the side at once") with C12: seat 0 melds its whole hand and
    discards the last card (relancinho, morto taken by discard); seat 1 ends the deal
    before seat 0's next turn, so side 0 pays its morto but keeps the relancinho.
    side 0: Ac Ad As = 45; relancinho 100; morto -100 => 45.
    side 1: 5s 6s 7s = 5*3 = 15, 8s 9s 10s Js Qs = 10*5 = 50 => 65; 8-card limpa 200;
    batida 50 => 315."""
    st = state_of(
        "buraco_morto",
        ["Ac Ad As Kd", "Qs"],
        melds=[[], ["5s 6s 7s 8s 9s 10s Js"]],
        mortos=["Jd Qd", ""],
        stock="4c",
        has_laid=[False, True],
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["Ac", "Ad", "As"]]})
    assert act(st, {"seat": 0, "do": "discard", "card": "Kd"}) == [
        "discarded",
        "relancinho",
        "took_morto",
    ]
    act(st, {"seat": 1, "do": "draw"})  # 4c
    act(st, {"seat": 1, "do": "extend", "meld": 0, "cards": ["Qs"]})
    assert act(st, {"seat": 1, "do": "discard", "card": "4c"}) == [
        "discarded",
        "went_out",
        "deal_over",
    ]
    score = score_deal(st)
    assert (score.breakdown[0]["relancinho"], score.breakdown[0]["morto"]) == (100, -100)
    assert score.totals == [45 + 100 - 100, 65 + 200 + 50]
