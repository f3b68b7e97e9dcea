"""Tranca (seed 002_9f3ffc80edde3346.txt; RULES §2 column ``tranca``, A10, A26, A31-A35).

Every test names the seed clause or RULES row it checks; scores are computed by hand
in the comments (every card 10, RULES A8-like flat table of the tranca column).
"""

from __future__ import annotations

import pytest

from engine import (
    Action,
    Card,
    DealState,
    IllegalAction,
    Match,
    Rules,
    apply,
    legal_moves,
    make_meld,
    make_rules,
    new_deal,
    score_deal,
    view_for,
)
from engine.state import deal_cards
from tests.tranca_support import (
    TRANCA_ACTIONS,
    TRANCA_HANDS,
    TRANCA_MORTOS,
    TRANCA_STOCK,
    act,
    cards,
    load_example,
    make_deck,
    position,
    refused,
    replay_example,
    tranca_record,
)

T = make_rules("tranca")
C = Card.parse
SPADES_4_A = "4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"
HEARTS_4_A = "4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"
CLUBS_4_A = "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"


# §1 players, target (A35, A36) ------------------------------------------------------
def test_s1_tranca_two_players_default_four_in_pairs_as_option() -> None:
    assert T.default_players == 2
    assert T.players_allowed == (2, 4)
    assert T.teams(2) == [[0], [1]]
    assert T.teams(4) == [[0, 2], [1, 3]]
    with pytest.raises(IllegalAction) as info:
        T.teams(3)
    assert (info.value.code, info.value.message) == (
        "bad_players",
        "tranca aceita 2 ou 4 jogadores, não 3",
    )


def test_s2_tranca_deal_eleven_each_and_two_mortos_of_eleven() -> None:
    two = new_deal(T, 2)
    assert [len(h) for h in two.hands] == [11, 11]
    assert [len(m) for m in two.mortos] == [11, 11]
    assert len(two.stock) == 104 - 22 - 22  # 60
    four = new_deal(T, 4)
    assert [len(h) for h in four.hands] == [11] * 4
    assert [len(m) for m in four.mortos] == [11, 11]
    assert len(four.stock) == 104 - 44 - 22  # 38


def test_a35_one_deal_decides_by_default() -> None:
    assert T.target is None and T.one_deal
    match = _play_example_match(T)
    # the example deal: side 0 scores 820, side 1 -210 (see test_record_tranca_example)
    assert match.scores == [820, -210]
    assert match.over and match.winner == 0
    with pytest.raises(IllegalAction) as info:
        match.start_deal()
    assert (info.value.code, info.value.message) == ("match_over", "a partida já terminou")


def test_a35_target_option_plays_more_deals() -> None:
    rules = make_rules("tranca", {"target": "3000"})
    assert rules.target == 3000
    match = _play_example_match(rules)
    assert match.scores == [820, -210]
    assert not match.over and match.winner is None
    # C15: the next deal is dealt by the next seat: dealer 1 -> dealer 0, seat 1 plays first
    assert match.dealer == 0
    assert match.start_deal().first == 1


def _play_example_match(rules: Rules) -> Match:
    match = Match.new(rules, ["Ana", "Bruno"])
    match.dealer = 1
    match.start_deal(make_deck(2, TRANCA_HANDS, TRANCA_MORTOS, TRANCA_STOCK))
    for raw in TRANCA_ACTIONS:
        match.act(Action.from_json(raw))
    return match


# §2 melds: ace high only, 2s wild, 3s never melded -----------------------------------
def test_s2_ace_high_only_a23_refused_qka_fine() -> None:
    # seed 002 "L'Asso è posto dopo il Re"
    assert make_meld(cards("Qh Kh Ah"), T).cards == tuple(cards("Qh Kh Ah"))
    # A-2-3 with a wild standing for the 3: the ace may not be low, and in tranca every
    # 2 is a wild (no natural 2, issue 3), so A 2♥ 2♣ is one natural with two wilds
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("Ah 2h 2c"), T)
    assert (info.value.code, info.value.message) == (
        "meld_two_wilds",
        "só pode haver um curinga por jogo",
    )
    # no wrap K-A-2 (C9): the 2 is a wild and goes to the open low end (Q), never after A
    assert make_meld(cards("Kh Ah 2h"), T).cards == tuple(cards("2h Kh Ah"))
    # Q-K-A with a wild: the high end is closed, so the wild stands for the J (C4)
    assert make_meld(cards("Qh Kh Ah 2c"), T).cards == tuple(cards("2c Qh Kh Ah"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ah 2h 3h", "o 3♥ é baixado sozinho, não entra em jogo"),
        ("3c 4c 5c", "o 3♣ (três preto) não pode entrar em jogo"),
        ("3s 3c 3s", "o 3♠ (três preto) não pode entrar em jogo"),
        ("3d 3h 2c", "o 3♦ é baixado sozinho, não entra em jogo"),
    ],
)
def test_a32_a33_threes_never_melded(text: str, message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        make_meld(cards(text), T)
    assert (info.value.code, info.value.message) == ("meld_three", message)


def test_a33_black_three_cannot_extend_a_meld() -> None:
    state = position(T, ["3c 9d 9d", "Kc Kd"], melds=[["4c 5c 6c"], []], stock="Qd")
    refused(
        state,
        Action.extend(0, 0, [C("3c")]),
        "meld_three",
        "o 3♣ (três preto) não pode entrar em jogo",
    )


def test_s2_every_two_is_wild_one_per_meld_sets_allowed() -> None:
    # seed 002 "Pinelle ... Sette-Sette-Due; Cinque, Cinque e Due"
    seven_set = make_meld(cards("7c 7d 2s"), T)
    assert (seven_set.kind, seven_set.wild) == ("set", C("2s"))
    run = make_meld(cards("7h 2c 9h"), T)
    assert run.cards == tuple(cards("7h 2c 9h")) and run.wild == C("2c")
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("7h 8h 2c 2d"), T)
    assert (info.value.code, info.value.message) == (
        "meld_two_wilds",
        "só pode haver um curinga por jogo",
    )
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("7h 2c 2d"), T)
    assert info.value.code == "meld_two_wilds"


# A32 red 3 -------------------------------------------------------------------------
def test_a32_red_three_from_the_deal_laid_in_the_first_turn() -> None:
    hands = ["3h 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc", "4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad"]
    state = deal_cards(T, 2, make_deck(2, hands, [HEARTS_4_A, SPADES_4_A], "9s 8s"), first=0)
    assert C("3h") in state.hands[0]
    apply(state, Action.draw(0))  # 9s
    refused(
        state,
        Action.discard(0, C("9s")),
        "lay_three_first",
        "baixe o 3 vermelho antes de descartar",
    )
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [("laid_three", {"card": "3h", "replaced": 0})]
    assert state.laid_threes == [[C("3h")], []]
    assert len(state.hands[0]) == 11  # 11 + 9s - 3h: no replacement draw (A32)
    assert state.stock[-1] == C("8s")  # the stock was not touched
    apply(state, Action.discard(0, C("9s")))
    assert state.turn == 1


def test_a32_red_three_never_discarded() -> None:
    state = position(T, ["3d Kc Qd", "5c 6c"], stock="9s")
    refused(
        state,
        Action.discard(0, C("3d")),
        "three_no_discard",
        "o 3 vermelho nunca é descartado: baixe-o",
    )


def test_a32_only_a_red_three_is_laid_and_only_after_drawing() -> None:
    state = position(T, ["3c 3h Kc Qd", "5c 6c"], stock="9s", phase="draw")
    refused(
        state,
        Action.lay_three(0, C("3h")),
        "must_draw",
        "primeiro compre do monte ou pegue o lixo",
    )
    apply(state, Action.draw(0))
    refused(state, Action.lay_three(0, C("3c")), "not_red_three", "3♣ não é um 3 vermelho")
    refused(state, Action.lay_three(0, C("3d")), "not_in_hand", "você não tem: 3♦")


def test_a32_red_three_from_the_morto_is_laid_before_discarding() -> None:
    # a direct going-out takes the morto (seed 002 "Chiusura Diretta"): it holds a 3d
    morto = "3d 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"
    state = position(T, ["9h 10h Jh", "5c 6c"], mortos=[morto, ""], morto_taken=[False, True])
    events = apply(state, Action.lay_down(0, [cards("9h 10h Jh")]))
    assert [e.kind for e in events] == ["melded", "took_morto"]
    assert state.phase == "play" and sorted(state.hands[0]) == sorted(cards(morto))
    refused(
        state,
        Action.discard(0, C("Ks")),
        "lay_three_first",
        "baixe o 3 vermelho antes de descartar",
    )
    apply(state, Action.lay_three(0, C("3d")))
    assert state.laid_threes[0] == [C("3d")]


def test_a32_laying_the_red_three_may_empty_the_hand_going_out() -> None:
    # the hand is only the 3h: laying it is a direct going-out that takes the morto
    state = position(
        T, ["3h", "5c 6c 7c"], mortos=[HEARTS_4_A.replace("h", "d"), ""], morto_taken=[False, True]
    )
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [e.kind for e in events] == ["laid_three", "took_morto"]
    assert events[1].public == {"side": 0, "direct": True}
    assert sorted(state.hands[0]) == sorted(cards("4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad"))
    assert state.phase == "play" and state.turn == 0  # plays on without drawing


def test_d1_red_three_draws_when_the_turn_could_not_end_otherwise() -> None:
    # engine gap decision D1 (engine/deal.py _lay_three): the morto is gone and there is
    # no clean canastra, so after laying the 3h the lone Kc could not be discarded (that
    # would be a going-out): one card is drawn from the stock so the turn can end.
    state = position(
        T,
        ["3h Kc", "5d 6d 7d"],
        mortos=["", SPADES_4_A],
        stock="9c 9d Jh",
        morto_taken=[True, False],
    )
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 1}
    assert sorted(state.hands[0]) == cards("9c Kc")
    assert len(state.stock) == 2


def test_d1_red_three_as_the_last_card_draws_two_when_going_out_is_barred() -> None:
    # the hand would be empty (refused: no clean canastra) and one card could not be
    # discarded either, so two cards are drawn (D1)
    state = position(
        T, ["3h", "5d 6d 7d"], mortos=["", SPADES_4_A], stock="9c 9d Jh", morto_taken=[True, False]
    )
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 2}
    assert sorted(state.hands[0]) == cards("9c 9d")
    assert state.phase == "play"


def test_d1_no_draw_when_the_side_may_still_go_out() -> None:
    # the morto is still there (taking it needs nothing), so the lone Kc may be discarded
    state = position(T, ["3h Kc", "5d 6d 7d"], mortos=[HEARTS_4_A, SPADES_4_A], stock="9c")
    events = apply(state, Action.lay_three(0, C("3h")))
    assert events[0].public == {"card": "3h", "replaced": 0}
    assert state.hands[0] == [C("Kc")]
    events = apply(state, Action.discard(0, C("Kc")))
    assert [e.kind for e in events][:2] == ["discarded", "took_morto"]
    assert state.pending_morto[0] == cards(HEARTS_4_A)


# A33 black 3 -------------------------------------------------------------------------
def test_a33_blocked_pile_refused_to_the_next_player_then_open_once_covered() -> None:
    state = position(T, ["3c 9c 9d Kc", "Qh Kh 5d 6d"], pile="Jc Ah", stock="9s 8s")
    events = apply(state, Action.discard(0, C("3c")))
    assert [e.kind for e in events] == ["discarded", "pile_blocked"]
    assert state.pile_blocked and state.pile == cards("Jc Ah 3c")
    view = view_for(state, 1)
    assert view.pile_blocked and view.pile == [C("3c")]
    assert not legal_moves(view).can_take_pile and legal_moves(view).can_draw
    refused(
        state,
        Action.take_pile(1, with_=cards("Qh Kh")),
        "pile_blocked",
        "o lixo está trancado por um 3 preto: compre do monte",
    )
    apply(state, Action.draw(1))  # 9s
    apply(state, Action.discard(1, C("9s")))  # covers the 3c: open again
    assert not state.pile_blocked
    assert legal_moves(view_for(state, 0)).can_take_pile
    events = apply(state, Action.take_pile(0, with_=cards("9c 9d")))
    assert events[0].public == {"top": "9s", "count": 4, "meld": 0}
    assert state.melds[0][0].cards == tuple(cards("9c 9d 9s"))
    assert sorted(state.hands[0]) == sorted(cards("Kc Jc Ah 3c"))


def test_a33_black_three_may_be_the_last_card() -> None:
    # the morto is there: discarding the 3s as the last card is an indirect going-out
    state = position(
        T, ["3s", "5d 6d 7d"], mortos=[HEARTS_4_A, SPADES_4_A.replace("s", "c")], stock="9c 9d"
    )
    events = apply(state, Action.discard(0, C("3s")))
    assert [e.kind for e in events][:3] == ["discarded", "pile_blocked", "took_morto"]
    assert state.pile == [C("3s")] and state.pile_blocked
    assert state.pending_morto[0] == cards(HEARTS_4_A)
    assert state.turn == 1


# §2 discard pile: closed, justified pick-up (A10) ------------------------------------
def test_s2_closed_pile_view_shows_only_the_top() -> None:
    state = position(T, ["Qh Kh 5c", "5d 6d 7d"], pile="5c 9d Kh", stock="9s", phase="draw")
    for seat in (0, 1):
        view = view_for(state, seat)
        assert view.pile == [C("Kh")] and view.pile_top == C("Kh")
        assert view.pile_size == 3
    assert legal_moves(view_for(state, 0)).pile_needs_justification
    # the buraco pile, by contrast, is open: every card is shown
    buraco = position(
        make_rules("buraco"), ["Qh Kh 5c", "5d 6d 7d"], pile="5c 9d Kh", stock="9s", phase="draw"
    )
    assert view_for(buraco, 1).pile == cards("5c 9d Kh")


def test_a10_pickup_justified_with_a_new_meld() -> None:
    state = position(T, ["Qh Kh 5c 6d", "5d 6d 7d"], pile="4s 9c Jh", stock="9s", phase="draw")
    events = apply(state, Action.take_pile(0, with_=cards("Qh Kh")))
    assert [(e.kind, e.public) for e in events] == [
        ("took_pile", {"top": "Jh", "count": 3, "meld": 0})
    ]
    assert state.melds[0][0].cards == tuple(cards("Jh Qh Kh"))
    assert sorted(state.hands[0]) == sorted(cards("5c 6d 4s 9c"))  # the rest of the pile
    assert state.pile == [] and state.phase == "play"


def test_a10_pickup_justified_onto_a_side_meld() -> None:
    state = position(
        T, ["5c 6d", "5d 6d 7d"], melds=[["8d 9d 10d"], []], pile="Kc Jd", stock="9s", phase="draw"
    )
    events = apply(state, Action.take_pile(0, meld=0))
    assert events[0].public == {"top": "Jd", "count": 2, "meld": 0}
    assert state.melds[0][0].cards == tuple(cards("8d 9d 10d Jd"))
    assert sorted(state.hands[0]) == sorted(cards("5c 6d Kc"))


def test_c1_a10_four_players_partner_justifies_onto_the_side_meld() -> None:
    def at_turn(seat: int) -> DealState:
        """Side 0 has 8d 9d 10d, the Jd on the pile; ``seat`` to draw."""
        return position(
            make_rules("tranca"),
            ["Kc Kd", "5d 6d", "5c 6c", "7c 8c"],
            melds=[["8d 9d 10d"], []],
            pile="Jd",
            stock="9s",
            turn=seat,
            phase="draw",
        )

    state = at_turn(2)
    apply(state, Action.take_pile(2, meld=0))  # seat 2 is seat 0's partner (side 0)
    assert state.melds[0][0].cards == tuple(cards("8d 9d 10d Jd"))
    # side 1 may not use side 0's melds: meld 0 of side 1 does not exist (C1)
    refused(at_turn(1), Action.take_pile(1, meld=0), "no_such_meld", "seu lado não tem o jogo 1")


@pytest.mark.parametrize(
    ("action", "code", "message"),
    [
        (
            Action.take_pile(0),
            "justify_needed",
            "para pegar o lixo, baixe a carta de cima num jogo",
        ),
        (
            Action.take_pile(0, with_=cards("Qh")),
            "justify_two_cards",
            "para pegar o lixo, junte a carta de cima com 2 ou mais da mão",
        ),
        (
            Action.take_pile(0, with_=cards("5c 6d")),
            "meld_mixed_suits",
            "uma sequência precisa ser toda do mesmo naipe",
        ),
        (
            Action.take_pile(0, meld=0),
            "meld_wrong_kind",
            "as cartas não servem nesta sequência (outro naipe)",
        ),
        (Action.take_pile(0, meld=1), "no_such_meld", "seu lado não tem o jogo 2"),
        (Action.take_pile(0, with_=cards("Qh Qh")), "not_in_hand", "você não tem: Q♥"),
    ],
)
def test_a10_pickup_without_a_justification_is_refused(
    action: Action, code: str, message: str
) -> None:
    state = position(
        T,
        ["Qh Kh 5c 6d", "5d 6d 7d"],
        melds=[["8d 9d 10d"], []],
        pile="4s 9c Jh",
        stock="9s",
        phase="draw",
    )
    refused(state, action, code, message)


def test_a10_empty_pile_cannot_be_taken() -> None:
    state = position(T, ["Qh Kh 5c 6d", "5d 6d 7d"], stock="9s", phase="draw")
    refused(state, Action.take_pile(0, with_=cards("Qh Kh")), "pile_empty", "o lixo está vazio")


# §2 going out: morto needs nothing, ending needs a clean canastra -------------------
def test_s2_taking_the_morto_needs_no_canastra_and_play_goes_on() -> None:
    # seed 002 "Chiusura Diretta ... Prende il pozzetto e continua a giocare, senza pescare"
    state = position(
        T, ["9h 10h Jh", "5d 6d 7d"], mortos=[SPADES_4_A, HEARTS_4_A.replace("h", "d")], stock="9c"
    )
    events = apply(state, Action.lay_down(0, [cards("9h 10h Jh")]))
    assert [e.kind for e in events] == ["melded", "took_morto"]
    assert events[1].public == {"side": 0, "direct": True}
    assert state.hands[0] == cards(SPADES_4_A) and state.mortos[0] == []
    assert (state.turn, state.phase, state.morto_taken) == (0, "play", [True, False])


def test_c12_indirect_going_out_morto_playable_from_the_next_turn() -> None:
    # seed 002 "Chiusura Indiretta ... può utilizzarlo solo nel prossimo turno"
    state = position(
        T, ["Kc", "5d 6d 7d"], mortos=[SPADES_4_A, ""], stock="9c 8c", morto_taken=[False, True]
    )
    events = apply(state, Action.discard(0, C("Kc")))
    assert [e.kind for e in events] == ["discarded", "took_morto"]
    assert events[1].public == {"side": 0, "direct": False}
    assert state.hands[0] == [] and state.pending_morto[0] == cards(SPADES_4_A)
    assert view_for(state, 0).pending_morto == 11
    act(state, {"seat": 1, "do": "draw"}, {"seat": 1, "do": "discard", "card": "9c"})
    assert sorted(state.hands[0]) == sorted(cards(SPADES_4_A))
    assert state.phase == "draw"  # the turn starts with a normal draw (C12)


def test_c12_morto_taken_by_discard_is_paid_if_the_deal_ends_first() -> None:
    # seed 002 "Attenzione": seat 0 takes its morto by discard, seat 1 ends the deal at once
    state = position(
        T,
        ["Kc", "Jd Qd Kd"],
        melds=[[], [HEARTS_4_A]],
        mortos=[SPADES_4_A, ""],
        stock="9c",
        morto_taken=[False, True],
    )
    apply(state, Action.discard(0, C("Kc")))
    act(state, {"seat": 1, "do": "draw"})  # 9c
    act(state, {"seat": 1, "do": "meld", "melds": [["Jd", "Qd", "Kd"]]})
    apply(state, Action.discard(1, C("9c")))
    assert state.over and state.went_out == 1
    score = score_deal(state)
    # side 0: nothing melded, hand empty, morto pending = not taken: -100
    assert score.breakdown[0]["morto"] == -100 and score.totals[0] == -100
    # side 1: 11 + 3 cards melded = 140, limpa 200, batida 100 -> 440
    assert score.totals[1] == 140 + 200 + 100


def test_s2_ending_the_deal_needs_a_clean_canastra() -> None:
    suja = "4h 5h 6h 2c 8h 9h 10h"
    state = position(
        T, ["Kc Jd Qd Kd", "5d 6d 7d"], melds=[[suja], []], mortos=["", ""], stock="9c"
    )
    message = "para bater é preciso ter uma canastra limpa"
    refused(
        state,
        Action.lay_down(0, [cards("Jd Qd Kd")]),
        "need_clean_canastra",
        message + "; guarde pelo menos duas cartas na mão",
    )
    refused(
        state,
        Action.lay_down(0, [cards("Jd Qd Kd")], [(0, cards("Jh"))]),
        "not_in_hand",
        "você não tem: J♥",
    )
    state = position(T, ["Kc", "5d 6d 7d"], melds=[[suja], []], mortos=["", ""], stock="9c")
    refused(state, Action.discard(0, C("Kc")), "need_clean_canastra", message)
    state = position(T, ["Jd Qd Kd", "5d 6d 7d"], melds=[[suja], []], mortos=["", ""], stock="9c")
    refused(state, Action.lay_down(0, [cards("Jd Qd Kd")]), "need_clean_canastra", message)
    # with a clean canastra the same going-out ends the deal (C11: no discard needed)
    state = position(
        T, ["Jd Qd Kd", "5d 6d 7d"], melds=[[suja, SPADES_4_A], []], mortos=["", ""], stock="9c"
    )
    events = apply(state, Action.lay_down(0, [cards("Jd Qd Kd")]))
    assert [e.kind for e in events] == ["melded", "went_out", "deal_over"]
    assert state.over and state.went_out == 0


def test_s2_four_players_only_the_first_of_the_pair_takes_the_morto() -> None:
    # seed 002 "Se il gioco è a coppie, solo il primo giocatore della coppia a chiudere
    # riceve il Pozzetto": seat 0 took it; seat 2 going out now ends the deal
    four = make_rules("tranca")
    state = position(
        four,
        ["5c 6c", "5d 6d", "Jd Qd Kd", "7c 8c"],
        melds=[[HEARTS_4_A], []],
        mortos=["", SPADES_4_A],
        stock="9s",
        turn=2,
        morto_taken=[True, False],
    )
    events = apply(state, Action.lay_down(2, [cards("Jd Qd Kd")]))
    assert [e.kind for e in events] == ["melded", "went_out", "deal_over"]
    score = score_deal(state)
    # side 0: 11 + 3 melded = 140, limpa 200, batida 100, seat 0 holds 2 cards -20 -> 420
    assert score.totals[0] == 140 + 200 + 100 - 20
    # side 1: hands 2 + 2 = -40, morto not taken -100 -> -140
    assert score.totals[1] == -40 - 100


# Scoring (seed 002 "Punteggio", A31, A32, C14) ---------------------------------------
def test_s2_score_every_card_10_limpa_200_suja_100_batida_100_red_threes_morto() -> None:
    state = position(
        T,
        ["Qs Ks As", "5d 6d 7d 8d"],
        melds=[["4h 5h 6h 7h 8h 9h 10h", "4c 5c 6c 2d 8c 9c 10c", "Jd Qd Kd"], ["9s 10s Js"]],
        mortos=["", "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"],
        stock="Js",
        laid_threes=[["3h", "3d"], ["3h"]],
        morto_taken=[True, False],
    )
    apply(state, Action.lay_down(0, [cards("Qs Ks As")]))
    assert state.over and state.went_out == 0
    score = score_deal(state)
    # side 0: melded 7 + 7 + 3 + 3 = 20 cards x 10 = 200; limpa 200 + suja 100 = 300;
    # batida 100; two red 3s with a canastra +200 (their card points do not count):
    # 200 + 300 + 100 + 200 = 800
    assert score.breakdown[0] == {
        "melded": 200,
        "canastras": [["limpa", 200], ["suja", 100]],
        "batida": 100,
        "threes": 200,
        "relancinho": 0,
        "hand": 0,
        "morto": 0,
        "total": 800,
    }
    # side 1: melded 3 x 10 = 30; one red 3 without a canastra -100; hand 4 x 10 = -40;
    # morto not taken -100: 30 - 100 - 40 - 100 = -210
    assert score.breakdown[1] == {
        "melded": 30,
        "canastras": [],
        "batida": 0,
        "threes": -100,
        "relancinho": 0,
        "hand": -40,
        "morto": -100,
        "total": -210,
    }
    assert score.totals == [800, -210]


# A26 stock exhaustion ------------------------------------------------------------------
def test_a26_untaken_mortos_become_stock_and_still_pay() -> None:
    state = position(
        T,
        ["Kc Kd", "5d 6d 7d"],
        mortos=["", SPADES_4_A],
        stock="9c",
        phase="draw",
        morto_taken=[True, False],
    )
    apply(state, Action.draw(0))
    events = apply(state, Action.discard(0, C("9c")))
    assert [(e.kind, e.public) for e in events][1:] == [("stock_from_morto", {"side": 1})]
    assert state.mortos == [[], []] and state.morto_taken == [True, False]
    assert state.stock[-1] == C("4s") and len(state.stock) == 11  # the morto, top first
    assert view_for(state, 1).stock_size == 11 and view_for(state, 1).mortos_left == [False, False]


def test_a26_d1_a_red_threes_draw_from_an_empty_stock_turns_the_untaken_morto_into_stock() -> None:
    """RULES A26 + gap decision D1: the 3♥ was the stock's last card; laid, it leaves the
    lone 9♠, which may not be discarded (no clean canastra, morto taken), so a card is
    drawn: side 1's untaken morto becomes stock first, as at a turn's draw (an audit
    found the deal ended with that morto still there)."""
    state = position(T, ["9s", "Kd Kd"], melds=[["4h 5h 6h"], []], pile="8h", stock="3h",
                     mortos=["", CLUBS_4_A], morto_taken=[True, False], phase="draw",
                     has_laid=[True, True])
    apply(state, Action.draw(0))
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [
        ("laid_three", {"card": "3h", "replaced": 1}), ("stock_from_morto", {"side": 1})]
    assert (state.phase, state.hands[0], len(state.stock)) == ("play", cards("9s 4c"), 10)
    assert state.mortos == [[], []] and state.morto_taken == [True, False]  # side 1 pays


def test_a26_no_stock_no_morto_the_deal_ends_without_batida_pile_not_reused() -> None:
    state = position(
        T,
        ["Kc Kd", "5d 6d 7d"],
        melds=[["4h 5h 6h 7h 8h 9h 10h"], []],
        mortos=["", ""],
        pile="Jc",
        stock="9c",
        phase="draw",
        morto_taken=[True, False],
    )
    apply(state, Action.draw(0))
    events = apply(state, Action.discard(0, C("9c")))
    assert [(e.kind, e.public) for e in events][-1] == ("deal_over", {"reason": "stock"})
    assert state.over and state.went_out == -1 and state.pile == cards("Jc 9c")
    score = score_deal(state)
    # side 0: 7 x 10 = 70 + limpa 200 - hand Kc Kd 20 = 250 (no batida)
    # side 1: hand -30, its morto became stock: not taken -100 -> -130
    assert score.totals == [250, -130]
    assert score.breakdown[0]["batida"] == 0


# Bad input: a clear refusal and nothing changed ---------------------------------------
@pytest.mark.parametrize(
    ("phase", "action", "code", "message"),
    [
        ("draw", Action.draw(1), "not_your_turn", "não é a sua vez"),
        ("draw", Action.draw(5), "bad_seat", "não existe o assento 5"),
        (
            "draw",
            Action.discard(0, C("Kc")),
            "must_draw",
            "primeiro compre do monte ou pegue o lixo",
        ),
        ("play", Action.draw(0), "already_drew", "você já comprou nesta vez"),
        ("play", Action.discard(0, C("Ac")), "not_in_hand", "você não tem: A♣"),
        ("play", Action.extend(0, 3, cards("Kc")), "no_such_meld", "seu lado não tem o jogo 4"),
        (
            "play",
            Action.lay_down(0, [cards("Kc Kd")]),
            "meld_too_short",
            "um jogo precisa de pelo menos 3 cartas",
        ),
        (
            "play",
            Action.redraw(0),
            "no_redraw",
            "nesta variante não se troca a primeira carta comprada",
        ),
    ],
)
def test_bad_input_refused_with_code_and_message(
    phase: str, action: Action, code: str, message: str
) -> None:
    state = position(T, ["Kc Kd Qd", "5d 6d 7d"], pile="Jc", stock="9c 8c", phase=phase)
    refused(state, action, code, message)


def test_bad_input_after_the_deal_is_over() -> None:
    state = position(T, ["Kc Kd", "5d 6d 7d"], mortos=["", ""], stock="9c", phase="draw")
    act(state, {"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "9c"})
    assert state.over
    refused(state, Action.draw(1), "deal_over", "esta mão já terminou")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"seat": 0, "do": "fly"}, "ação desconhecida: 'fly'"),
        ({"seat": 0, "do": "lay_three"}, "lay_three precisa de 'card'"),
        ({"seat": 0, "do": "lay_three", "card": "3x"}, "carta inválida: '3x' não é uma carta"),
        (
            {"seat": 0, "do": "take_pile", "with": ["Qh"], "meld": 0},
            "take_pile aceita 'with' ou 'meld', não os dois",
        ),
    ],
)
def test_bad_input_malformed_record_actions(raw: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Action.from_json(raw)
    assert (info.value.code, info.value.message) == ("malformed", message)


def test_bad_position_with_three_copies_of_a_card() -> None:
    with pytest.raises(IllegalAction) as info:
        position(T, ["3h 3h", "3h 5c"])
    assert (info.value.code, info.value.message) == (
        "bad_position",
        "posição inválida: a carta 3♥ aparece 3 vezes; os baralhos têm 2",
    )


# Records (python -m engine replay) ---------------------------------------------------
def test_record_lay_three_action_round_trip() -> None:
    raw = {"seat": 1, "do": "lay_three", "card": "3d"}
    action = Action.from_json(raw)
    assert action == Action.lay_three(1, C("3d"))
    assert action.to_json() == raw


def test_record_tranca_example_is_the_scripted_deal() -> None:
    assert load_example("tranca") == tranca_record()


def test_record_tranca_example_replays_with_the_cli() -> None:
    out = replay_example("tranca")
    assert (out["ok"], out["error"], out["deal_over"]) == (True, None, True)
    # side 0: hearts 4..A and spades 4..A = 22 cards x 10 = 220; two limpas 400;
    # batida 100; the 3d laid with a canastra +100 -> 820
    # side 1: 11 cards in hand -110; morto not taken -100 -> -210
    assert out["deal_scores"] == [820, -210]
    assert out["match_scores"] == [820, -210]
    assert out["breakdown"][0]["threes"] == 100


def test_s2_set_size_has_no_maximum_in_tranca() -> None:
    # RULES §2 "set size", tranca column: ">=3, >=2 naturals, no sets of 3s" (seed 002:
    # "Il numero minimo di carte è tre"), unlike the buraco column's "3-8 incl. the
    # wild": eight natural 7s and a wild make a legal 9-card set.
    meld = make_meld(cards("7c 7c 7d 7d 7h 7h 7s 7s 2c"), T)
    assert (meld.kind, len(meld), meld.wild) == ("set", 9, C("2c"))


def test_s2_seven_card_set_counts_as_a_canastra() -> None:
    # RULES §2 "canastra (7+ cards)" does not restrict canastras to runs, and the engine
    # counts a 7-card set (seed 002 "Canasta - ... dello stesso seme in sequenza" speaks
    # of runs only: ambiguity reported to the lead); the engine's choice is tested here.
    assert make_meld(cards("7c 7c 7d 7d 7h 7h 7s"), T).canastra == "limpa"
    assert make_meld(cards("7c 7c 7d 7d 7h 7h 2s"), T).canastra == "suja"


def test_a32_red_three_scores_plus_100_with_a_suja_only() -> None:
    # seed 002 "vale 100 punti se ... hanno fatto almeno una Canasta": any canastra
    state = position(
        T,
        ["Kc Qd", "5d"],
        melds=[["4h 5h 6h 2c 8h 9h 10h"], []],
        laid_threes=[["3h"], []],
        mortos=["", ""],
    )
    apply(state, Action.discard(0, C("Kc")))  # no stock, no morto: the deal ends (A26)
    score = score_deal(state)
    # side 0: 7 x 10 = 70 + suja 100 + red 3 +100 - Qd 10 = 260; side 1: -10
    assert score.breakdown[0]["threes"] == 100
    assert score.totals == [260, -10]


def test_a35_one_deal_tied_plays_one_more_deal() -> None:
    # RULES §2 "match end, ties" (still tied => one more deal), applied by the engine to
    # one-deal games too (the tranca cell of that row is empty)
    match = Match.new(T, ["Ana", "Bruno"])
    match.start_deal()
    match.deal = position(T, ["Kc Qd", "6c"], mortos=["", ""])
    match.act(Action.discard(0, C("Kc")))
    # side 0: Qd -10; side 1: 6c -10 (both mortos taken, no melds)
    assert match.scores == [-10, -10]
    assert not match.over and match.winner is None
    assert match.start_deal().first == 1


def test_a10_any_two_may_justify_in_tranca_a11_is_altaneira_only() -> None:
    # top 9h with 10h and a 2 of another suit: 9h 10h 2c (the 2c stands for the J)
    state = position(T, ["10h 2c Kc Qd", "5d 6d 7d"], pile="4s 9h", stock="9s", phase="draw")
    apply(state, Action.take_pile(0, with_=cards("10h 2c")))
    assert state.melds[0][0].cards == tuple(cards("9h 10h 2c"))
    # a 2 on top may be taken as a wild too
    state = position(T, ["9h 10h Kc Qd", "5d 6d 7d"], pile="4s 2s", stock="9s", phase="draw")
    apply(state, Action.take_pile(0, with_=cards("9h 10h")))
    assert state.melds[0][0].cards == tuple(cards("9h 10h 2s"))


def test_s2_closed_pile_the_rest_taken_is_never_shown_to_others() -> None:
    state = position(T, ["Qh Kh 5c 6d", "5d 6d 7d"], pile="4s 9c Jh", stock="9s", phase="draw")
    events = apply(state, Action.take_pile(0, with_=cards("Qh Kh")))
    # only the top card (now in a meld) and the count are public
    assert events[0].public == {"top": "Jh", "count": 3, "meld": 0}
    other = view_for(state, 1)
    assert other.seen_taken == [[], []]
    assert other.hand_counts == [4, 3]  # 5c 6d + 4s 9c and other.hand == sorted(cards("5d 6d 7d"))


def test_issue3_every_two_is_wild_so_runs_start_at_four() -> None:
    """Issue 3 / seed 002: every 2 is a wild (no natural 2 as in RULES C5) and 3s never
    meld, so the lowest tranca run slot is the 4: a wild cannot stand for a 3."""
    with pytest.raises(IllegalAction) as info:
        make_meld(cards("2h 2c 4h 5h"), T)
    assert info.value.code == "meld_two_wilds"
    # 4♥ 5♥ + wild: the low end (3) is closed, so the wild stands for the 6
    assert make_meld(cards("2c 4h 5h"), T).cards == tuple(cards("4h 5h 2c"))
    assert make_meld(cards("2h 4h 5h"), T).wild == cards("2h")[0]


def test_a26_d1_a_red_threes_draw_with_nothing_left_to_draw_ends_the_deal() -> None:
    """RULES A26 and gap decision D1: laid, the 3♥ leaves the lone K♣, which may not be
    discarded (morto taken, no clean canastra), so a card is owed; with no stock and no
    morto left the deal ends as the 3 is laid, without a batida (the same class as the
    altaneira Dólar, issue 38)."""
    state = position(T, ["3h Kc", "5d 6d 7d"], mortos=["", ""], stock="", pile="Jc",
                     morto_taken=[True, True], has_laid=[True, True])
    events = apply(state, Action.lay_three(0, C("3h")))
    assert [(e.kind, e.public) for e in events] == [
        ("laid_three", {"card": "3h", "replaced": 0}), ("deal_over", {"reason": "stock"})]
    assert state.over and state.went_out == -1 and state.hands[0] == cards("Kc")
    # side 0: red 3 -100 (no canastra, A32) - Kc 10 = -110 (no batida); side 1: -30
    assert score_deal(state).totals == [-110, -30]
