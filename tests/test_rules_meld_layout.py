"""A laid meld never rearranges itself (issue 14 part 1; RULES C4, C5, C9, C10;
docs/rules-decisions.md D11, D20): cards on the table keep their places and roles, a
wild moves only as C4 says, an extension must touch the meld as laid."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Match, Meld, extend_meld, make_meld
from engine import make_rules as rules_of
from engine.melds import meld_from_table
from engine.record import replay
from tests.rules_support import act, cards, meld_codes, position, refused, state_of


def meld(text: str, preset: str = "buraco") -> Meld:
    return make_meld(cards(text), rules_of(preset))


def grow(m: Meld, text: str, preset: str = "buraco") -> Meld:
    return extend_meld(m, cards(text), rules_of(preset))


def shape(m: Meld) -> tuple[list[str], str | None, int]:
    """Table order, the wild's code and the slot it stands for (0: no wild)."""
    return [c.code for c in m.cards], m.wild.code if m.wild else None, m.wild_slot


def refusal(m: Meld, text: str, preset: str = "buraco") -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        grow(m, text, preset)
    return err.value.code, err.value.message


# C10: the wild does not slide into a gap -------------------------------------------
def test_c10_wild_standing_for_the_jack_does_not_slide_to_let_a_seven_in() -> None:
    """Issue 14: 9♠ 10♠ 2♦ (2♦ = J♠) refuses the 7♠; nobody played the J♠."""
    m = meld("9s 10s 2d")
    assert shape(m) == (["9s", "10s", "2d"], "2d", 11)
    assert refusal(m, "7s") == ("meld_not_contiguous", "falta o 8♠")


def test_c10_run_with_a_wild_grows_at_either_end_keeping_the_wild_slot() -> None:
    m = grow(meld("9s 10s 2d"), "8s")
    assert shape(m) == (["8s", "9s", "10s", "2d"], "2d", 11)
    m = grow(m, "Qs 7s")
    assert shape(m) == (["7s", "8s", "9s", "10s", "2d", "Qs"], "2d", 11)


def test_c5_c10_natural_two_in_its_own_slot_stays_natural() -> None:
    """Issue 14: 2♥ 3♥ 4♥ + 6♥ was laid as 3♥ 4♥ 2♥ 6♥ (dirty); now refused."""
    m = meld("2h 3h 4h")
    assert shape(m) == (["2h", "3h", "4h"], None, 0)
    assert refusal(m, "6h") == ("meld_not_contiguous", "falta o 5♥")
    m = grow(m, "5h")
    assert shape(m) == (["2h", "3h", "4h", "5h"], None, 0)


def test_c5_natural_two_stays_and_a_new_wild_bridges_the_gap() -> None:
    """RULES C5: the meld may still take one wild besides its natural 2."""
    m = grow(meld("2h 3h 4h"), "6h 2c")
    assert shape(m) == (["2h", "3h", "4h", "2c", "6h"], "2c", 5)
    assert refusal(m, "2d") == ("meld_two_wilds", "só pode haver um curinga por jogo")


def test_c10_extension_that_misses_two_cards_names_the_one_next_to_the_meld() -> None:
    assert refusal(meld("5h 6h 7h"), "10h") == ("meld_not_contiguous", "falta o 8♥")
    assert refusal(meld("9s 10s Js"), "6s") == ("meld_not_contiguous", "falta o 8♠")
    # 10 J Q + A: the high ace is the nearer end, the K is missing
    assert refusal(meld("10c Jc Qc"), "Ac") == ("meld_not_contiguous", "falta o K♣")
    assert refusal(meld("4d 5d 6d"), "Ad") == ("meld_not_contiguous", "falta o 3♦")


def test_c10_new_wild_in_an_extension_bridges_the_one_open_slot() -> None:
    """D20: a wild added with naturals takes the slot they leave open, else the high end,
    else the low end; laid cards stay."""
    assert shape(grow(meld("5h 6h 7h"), "2c 9h")) == (["5h", "6h", "7h", "2c", "9h"], "2c", 8)
    assert shape(grow(meld("5h 6h 7h"), "3h 2c")) == (["3h", "2c", "5h", "6h", "7h"], "2c", 4)
    assert shape(grow(meld("5h 6h 7h"), "2c")) == (["5h", "6h", "7h", "2c"], "2c", 8)
    assert shape(grow(meld("Jh Qh Kh Ah"), "2c")) == (["2c", "Jh", "Qh", "Kh", "Ah"], "2c", 10)
    assert refusal(meld("5h 6h 7h"), "2c 10h") == ("meld_not_contiguous", "falta o 8♥")


def test_c9_c10_extension_may_not_repeat_a_laid_rank() -> None:
    assert refusal(meld("5h 6h 7h"), "6h") == (
        "meld_repeated_rank",
        "uma sequência não pode repetir carta",
    )
    two_wilds = ("meld_two_wilds", "só pode haver um curinga por jogo")
    assert refusal(meld("5h 6h 2c"), "2d") == two_wilds


# C4: how the wild moves ----------------------------------------------------------------
def test_c4_replaced_wild_goes_to_the_high_end_then_the_next_card_closes_up() -> None:
    """4♥ 2♣(5) 6♥ + 5♥ 8♥: the 5♥ takes the wild's slot, the 2♣ goes to the high end
    (7), and the 8♥ is then next to it."""
    assert shape(grow(meld("4h 2c 6h"), "5h 8h")) == (
        ["4h", "5h", "6h", "2c", "8h"],
        "2c",
        7,
    )
    assert shape(grow(meld("4h 2c 6h"), "5h 7h")) == (
        ["4h", "5h", "6h", "7h", "2c"],
        "2c",
        8,
    )


def test_c4_replaced_wild_at_the_ace_goes_to_the_low_end() -> None:
    """J Q K 2♣(A) + A♥: high end closed, the 2♣ stands for the 10."""
    m = grow(meld("Jh Qh Kh 2c"), "Ah")
    assert shape(m) == (["2c", "Jh", "Qh", "Kh", "Ah"], "2c", 10)


def test_c4_replaced_same_suit_two_goes_to_its_slot_when_contiguous() -> None:
    """3♥ 4♥ 2♥(5) + 5♥: the 2♥ goes to the 2-slot, next to the 3♥: clean (C6)."""
    m = meld("3h 4h 2h")
    assert shape(m) == (["2h", "3h", "4h"], None, 0)  # a new meld: natural first (C5)
    m = grow(meld("4h 5h 6h 2h"), "7h")
    assert shape(m) == (["4h", "5h", "6h", "7h", "2h"], "2h", 8)
    m = grow(meld("4h 5h 2h"), "3h 6h")  # the 3h first, then the 6h replaces: 2-slot open
    assert shape(m) == (["2h", "3h", "4h", "5h", "6h"], None, 0)


def test_c4_replaced_same_suit_two_goes_high_when_its_slot_is_not_contiguous() -> None:
    m = grow(meld("5h 6h 2h"), "7h")
    assert shape(m) == (["5h", "6h", "7h", "2h"], "2h", 8)


def test_c4_same_suit_two_wild_stays_while_the_two_slot_becomes_contiguous() -> None:
    """RULES C10: nobody replaced it, so it keeps standing for the 7."""
    m = grow(meld("4h 5h 6h 2h"), "3h")
    assert shape(m) == (["3h", "4h", "5h", "6h", "2h"], "2h", 7)


def test_c4_two_equal_twos_one_natural_one_wild() -> None:
    """RULES C5: A♥ 2♥ 3♥ with a second 2♥ as the wild (two decks)."""
    m = grow(meld("Ah 2h 3h"), "2h")
    assert shape(m) == (["Ah", "2h", "3h", "2h"], "2h", 4)
    m = grow(m, "4h")
    assert shape(m) == (["Ah", "2h", "3h", "4h", "2h"], "2h", 5)


def test_c4_wild_in_a_set_stays_last() -> None:
    assert shape(grow(meld("9c 9d 2s"), "9h")) == (["9c", "9d", "9h", "2s"], "2s", 0)


def test_c4_tranca_every_two_is_wild_and_moves_high() -> None:
    """Tranca (natural_two off, D16): the 2♥ never settles; ace only high."""
    m = meld("5h 6h 2h", "tranca")
    assert shape(m) == (["5h", "6h", "2h"], "2h", 7)
    m = grow(m, "7h", "tranca")
    assert shape(m) == (["5h", "6h", "7h", "2h"], "2h", 8)
    assert refusal(m, "Qh", "tranca") == ("meld_not_contiguous", "falta o 9♥")


# the table keeps the layout: positions, players' moves, justified pick-up ---------------
def test_c10_position_keeps_the_layout_of_a_laid_meld() -> None:
    """docs/record-format.md: a run written slot by slot is read back as laid, so
    3♥..6♥ 2♥(7) stays dirty (as a new meld it would be 2♥..6♥ clean)."""
    rules = rules_of("buraco")
    m = grow(meld("4h 5h 6h 2h"), "3h")
    back = meld_from_table(list(m.cards), rules)
    assert back == m and back.wild_slot == 7
    # an older or hand-written order is laid out as a new meld
    assert shape(meld_from_table(cards("9s 7s 8s"), rules)) == (["7s", "8s", "9s"], None, 0)
    assert shape(meld_from_table(cards("2d 8h 7h"), rules)) == (["7h", "8h", "2d"], "2d", 9)
    with pytest.raises(IllegalAction) as err:
        meld_from_table(cards("5h 7h 9h"), rules)
    assert err.value.code == "meld_gap"


def test_c10_state_round_trip_keeps_the_wild_slot() -> None:
    st = state_of(
        "buraco",
        ["3h 9c 9d", "4d 5d 8s"],
        melds=[["4h 5h 6h 2h"], []],
        turn=0,
        has_laid=[True, False],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["3h"]})
    assert meld_codes(st, 0) == [["3h", "4h", "5h", "6h", "2h"]]
    again = type(st).from_json(st.rules, st.to_json())
    assert again.melds == st.melds and again.melds[0][0].wild_slot == 7


def test_c10_player_extension_refused_names_the_missing_card_and_changes_nothing() -> None:
    st = state_of(
        "buraco",
        ["7s 9c 9d", "4d 5d 8s"],
        melds=[["9s 10s 2d"], []],
        turn=0,
        has_laid=[True, False],
    )
    refused(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["7s"]},
            "meld_not_contiguous", "falta o 8♠")
    refused(st, {"seat": 0, "do": "meld", "melds": [], "extend": [{"meld": 0, "cards": ["7s"]}]},
            "meld_not_contiguous", "falta o 8♠")


def test_c10_justified_pick_up_respects_the_laid_layout() -> None:
    """RULES A10 + C10: the top 7♠ cannot go onto 9♠ 10♠ 2♦ (tranca pick-up)."""
    st = state_of(
        "tranca",
        ["Kc Kd 5h", "4d 5d 8s"],
        melds=[["9s 10s 2d"], []],
        pile="4c 7s",
        stock="8c 8d",
        mortos=["", ""],
        turn=0,
        phase="draw",
    )
    refused(st, {"seat": 0, "do": "take_pile", "meld": 0}, "meld_not_contiguous", "falta o 8♠")


def test_a11_c5_top_two_goes_onto_a_run_only_as_its_natural_two() -> None:
    """Altaneira A11: a 2♥ on the pile joins 3♥ 4♥ 2♣(5) as the natural 2 (contiguous),
    but not 5♥ 6♥ 7♥, where it could only be a wild."""
    hands = ["Kc Kd 5s", "4d 5d 8s", "6c 7c 8c", "9d 10d Jd"]
    st = state_of("altaneira", hands, melds=[["3h 4h 2c", "5h 6h 7h"], []],
                  pile="4c 2h", stock="8d 9c", mortos=["", ""], turn=0, phase="draw")
    refused(st, {"seat": 0, "do": "take_pile", "meld": 1}, "justify_wild_top",
            "um 2 no topo do lixo só sai como o 2 natural do seu naipe")
    act(st, {"seat": 0, "do": "take_pile", "meld": 0})
    assert meld_codes(st, 0)[0] == ["2h", "3h", "4h", "2c"]
    assert st.melds[0][0].wild_slot == 5


# records (docs/record-format.md, docs/rules-decisions.md D21) ---------------------------
def _record(fmt: str) -> dict[str, object]:
    pos = position(["7s 9c 9d", "4d 5d 8s"], melds=[["9s 10s 2d"], []], has_laid=[True, False])
    return {"format": fmt, "variant": "buraco", "players": ["Ana", "Bia"], "position": pos,
            "actions": [{"seat": 0, "do": "extend", "meld": 0, "cards": ["7s"]}]}


def test_c10_new_records_refuse_the_slide_old_records_replay_as_they_were_played() -> None:
    new = replay(_record("buraco-record/2"))
    assert (new.ok, new.error) == (
        False,
        {"action": 0, "code": "meld_not_contiguous", "message": "falta o 8♠"},
    )
    old = replay(_record("buraco-record/1"))  # the engine then re-laid the run
    assert (old.ok, old.error) == (True, None)
    assert meld_codes(old.state, 0) == [["7s", "2d", "9s", "10s"]]


def test_c10_match_stored_before_issue_14_finishes_with_the_old_re_laying() -> None:
    match = Match.new(rules_of("buraco"), ["Ana", "Bia"])
    data = match.to_json()
    assert data["format"] == "buraco-record/2"
    assert Match.from_json(data).rules.legacy_relayout is False
    del data["format"]  # what a match stored before issue 14 looks like
    old = Match.from_json(data)
    assert (old.rules.legacy_relayout, old.record_format) == (True, "buraco-record/1")
    assert old.to_json()["format"] == "buraco-record/1"
    assert old.record()["format"] == "buraco-record/1"


def test_c7_a12_two_to_king_plus_ace_takes_the_low_end_altaneira_500() -> None:
    """D20: one ace onto 2♥..K♥ (both ends open) goes low: A–K clean is the Altaneira."""
    rules = rules_of("altaneira")
    m = grow(meld("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", "altaneira"), "Ah", "altaneira")
    assert (m.low, len(m), m.canastra) == (1, 13, "altaneira")
    full = extend_meld(m, cards("Ah"), rules)  # the second ace: A..A, the Real (C8, A12)
    assert (full.low, full.cards[-1].code, len(full), full.canastra) == (1, "Ah", 14, "real")


def test_jokers_a_laid_joker_moves_only_when_replaced() -> None:
    """RULES "Jokers" + C4: the joker is the meld's wild and follows the same rule."""
    jr = rules_of("buraco", {"jokers": True})
    m = make_meld(cards("5h 6h JK"), jr)
    assert shape(m) == (["5h", "6h", "JK"], "JK", 7)
    m = extend_meld(m, cards("4h"), jr)
    assert shape(m) == (["4h", "5h", "6h", "JK"], "JK", 7)
    m = extend_meld(m, cards("7h"), jr)
    assert shape(m) == (["4h", "5h", "6h", "7h", "JK"], "JK", 8)
    with pytest.raises(IllegalAction) as err:
        extend_meld(m, cards("Jh"), jr)
    assert (err.value.code, err.value.message) == ("meld_not_contiguous", "falta o 9♥")
