"""The rules options for comparison with BotRafa (docs/RULES.md "Options for comparison
with BotRafa", issue 37): each option with its RM source, and the ``rm`` rule set of
``engine.comparison`` that plays BotRafa's game. No Node needed."""

from __future__ import annotations

from rules_support import cards, position

from engine import Action, DealState, IllegalAction, apply
from engine.cards import full_deck
from engine.comparison import RM
from engine.deal import new_deal
from engine.melds import canastra_bonus, extend_meld, make_meld
from engine.rules import PRESETS, Rules
from engine.scoring import melded_points, score_deal

NEW_OPTIONS = {"set_ranks": (), "melded_two_points": None, "pile_starts_with_card": False,
               "pickup_extend_with_hand": False}


def test_comparison_options_are_off_in_every_preset() -> None:
    """docs/RULES.md "Options for comparison": default off, no preset changes."""
    for rules in PRESETS.values():
        assert {k: getattr(rules, k) for k in NEW_OPTIONS} == NEW_OPTIONS
        assert all(s.lows == (1,) for s in rules.special_canastras)


def test_set_ranks_only_aces_and_kings_in_rm() -> None:
    """RM ``runners: [1, 13]`` (Buraco.js:730 isRunnerAllowed): sets of A and K only."""
    assert make_meld(cards("As Ah Ac"), RM).kind == "set"
    assert make_meld(cards("Ks Kh 2c"), RM).kind == "set"
    try:
        make_meld(cards("5s 5h 5c"), RM)
    except IllegalAction as err:
        assert (err.code, err.message) == ("meld_set_rank", "nesta variante não vale trinca de 5")
    else:
        raise AssertionError("a set of 5s was laid")
    assert make_meld(cards("5s 5h 5c"), PRESETS["buraco_morto"]).kind == "set"


def test_rm_set_takes_eight_naturals_and_a_wild() -> None:
    """RM ``cardsToRunnerSlots`` (Buraco.js:692) has no size limit: two decks give 8
    naturals, plus one wild (our ``set_max`` 9)."""
    meld = make_meld(cards("As As Ah Ah Ac Ac Ad Ad 2s"), RM)
    assert len(meld.cards) == 9 and meld.canastra == "suja"


def test_melded_two_counts_twenty() -> None:
    """RM ``SEQ_POINTS_NEW`` / ``calculateMeldPoints`` (Buraco.js:37, 759): a 2 on the
    table counts 20 (in hand it stays 10, ``cardPointValues``)."""
    melds = [make_meld(cards("3h 4h 2s"), RM), make_meld(cards("Ah 2h 3h"), RM)]
    assert melded_points(melds, RM) == 5 + 5 + 20 + 15 + 20 + 5
    assert melded_points(melds, PRESETS["buraco_morto"]) == 5 + 5 + 10 + 15 + 10 + 5


def test_long_clean_runs_score_700_and_1200() -> None:
    """RM ``largeCanasta`` (Buraco.js:789-790): a clean run of 13 cards scores 200 + 500,
    of 14 (A..A) 200 + 1,000; dirty or shorter ones are ordinary canastras."""
    a_to_k = make_meld(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"), RM)
    a_to_a = make_meld(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"), RM)
    dirty = make_meld(cards("Ah 2s 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"), RM)
    assert (a_to_k.canastra, canastra_bonus(a_to_k, RM)) == ("rm_13", 700)
    assert (a_to_a.canastra, canastra_bonus(a_to_a, RM)) == ("rm_14", 1200)
    assert (dirty.canastra, canastra_bonus(dirty, RM)) == ("suja", 100)


def test_thirteen_from_two_to_high_ace_counts_with_lows() -> None:
    """``SpecialCanastra.lows`` (1, 2): a clean 2..A (13 cards, ace high) qualifies too;
    with the books' ``lows`` (1,) only the ace-low form does."""
    rules = Rules(ace_low=False, run_lowest=2, special_canastras=RM.special_canastras)
    two_to_a = make_meld(cards("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"), rules)
    assert (two_to_a.low, two_to_a.canastra) == (2, "rm_13")
    books = Rules(ace_low=False, run_lowest=2, special_canastras=PRESETS["altaneira"]
                  .special_canastras)
    assert make_meld(cards("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"), books).canastra == "limpa"


def test_pile_starts_with_the_stock_top_card() -> None:
    """RM setup (Buraco.js:1217 ``firstDiscard``): after the deal the stock's top card
    is turned up as the pile; the books' presets start with an empty pile."""
    deck = full_deck()
    rm = new_deal(RM, 4, deck=list(deck))
    # 44 dealt, 22 in the mortos: the next card is the stock's top
    assert rm.pile == [deck[66]] and len(rm.stock) == 104 - 66 - 1
    assert new_deal(PRESETS["buraco_morto"], 4, deck=list(deck)).pile == []


def _pickup_position(rules: Rules) -> DealState:
    return DealState.from_json(rules, position(
        ["8d 3c 4c Ks", "5s", "6s", "7s"], melds=[["4d 5d 6d 7d"], []], pile="Jc 9d",
        stock="Qc Qs", mortos=["", ""], turn=0, phase="draw"))


def test_pickup_onto_a_meld_with_hand_cards() -> None:
    """RM ``movePickUpDiscard`` melds the top card with ``moveMeld`` (Buraco.js:888),
    onto a side's meld together with hand cards (``pickup_extend_with_hand``)."""
    state = _pickup_position(RM)
    apply(state, Action.take_pile(0, with_=cards("8d"), meld=0))
    assert [c.code for c in state.melds[0][0].cards] == ["4d", "5d", "6d", "7d", "8d", "9d"]
    assert sorted(c.code for c in state.hands[0]) == sorted(["3c", "4c", "Ks", "Jc"])


def test_pickup_with_hand_cards_is_a_new_meld_without_the_option() -> None:
    """Off (every preset): ``with_`` always makes a new meld (RULES A10), here refused."""
    off = RM.model_copy(update={"pickup_extend_with_hand": False})
    state = _pickup_position(off)
    try:
        apply(state, Action.take_pile(0, with_=cards("8d"), meld=0))
    except IllegalAction as err:
        assert err.code == "justify_two_cards"
    else:
        raise AssertionError("taken")


def test_rm_run_wild_moves_to_the_gap() -> None:
    """RM ``cardsToSeqSlots`` re-lays a run with each extension (Buraco.js:606): a wild
    at the end moves into the gap a new card leaves (our ``legacy_relayout``)."""
    meld = make_meld(cards("9s 10s Js Qs 2c"), RM)
    grown = extend_meld(meld, cards("7s"), RM)
    assert [c.code for c in grown.cards] == ["7s", "2c", "9s", "10s", "Js", "Qs"]


def _going_out(run: str) -> DealState:
    return DealState.from_json(RM, position(
        ["Kd Kh 2c", "5s", "6s", "7s"], melds=[[run], []], pile="", stock="Qc Qs",
        mortos=["", ""], turn=0, phase="play", morto_taken=[True, True]))


def test_rm_going_out_needs_a_clean_canastra_and_scores_rm_bonuses() -> None:
    """RM ``cleanCanastaToWin`` (Buraco.js:984) and ``endGameBonus`` 100: the deal ends
    only with a clean canastra; the score counts batida 100 and melded 2s at 20."""
    dirty = _going_out("4d 5d 6d 2s 8d 9d 10d")
    try:
        apply(dirty, Action.lay_down(0, [cards("Kd Kh 2c")]))
    except IllegalAction as err:
        assert err.code == "need_clean_canastra"
    else:
        raise AssertionError("went out without a clean canastra")
    clean = _going_out("4d 5d 6d 7d 8d 9d 10d")
    apply(clean, Action.lay_down(0, [cards("Kd Kh 2c")]))
    assert clean.over
    row = score_deal(clean).breakdown[0]
    assert (row["batida"], row["canastras"], row["morto"]) == (100, [["limpa", 200]], 0)
    assert row["melded"] == 5 * 4 + 10 * 3 + 10 + 10 + 20
