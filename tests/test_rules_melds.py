"""Melds: runs, sets, wilds, canastras (RULES C1, C4–C10; §2 "melds", "set size",
"ace", "wild cards", "canastra"; seed 001 "Combinações", seed 003 "Definições")."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Meld, canastra_bonus, canastra_label, extend_meld, make_meld
from engine import make_rules as rules_of
from tests.rules_support import act, cards, meld_codes, refused, state_of

BURACO = rules_of("buraco")
JUSTIFICADO = rules_of("justificado")
FOUR = ("buraco", "buraco_morto", "bossa_nova", "justificado")
A_TO_A = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"


def meld(text: str, preset: str = "buraco") -> Meld:
    return make_meld(cards(text), rules_of(preset))


def grow(m: Meld, text: str, preset: str = "buraco") -> Meld:
    return extend_meld(m, cards(text), rules_of(preset))


def layout(m: Meld) -> list[str]:
    return [c.code for c in m.cards]


def refusal(text: str, preset: str = "buraco", base: Meld | None = None) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        if base is None:
            meld(text, preset)
        else:
            grow(base, text, preset)
    return err.value.code, err.value.message


# C9: runs -------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_c9_run_is_one_suit_consecutive_three_or_more(preset: str) -> None:
    m = meld("9s 7s 8s", preset)
    assert (m.kind, layout(m), m.wild, m.canastra) == ("run", ["7s", "8s", "9s"], None, None)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("5h 6h", "meld_too_short", "um jogo precisa de pelo menos 3 cartas"),
        ("5h 6h 7c", "meld_mixed_suits", "uma sequência precisa ser toda do mesmo naipe"),
        ("5h 7h 9h", "meld_gap", "as cartas não formam sequência"),
        ("5h 5h 6h", "meld_repeated_rank", "uma sequência não pode repetir carta"),
        ("5h 2c 7h 2d", "meld_two_wilds", "só pode haver um curinga por jogo"),
        ("5h 2c 2d", "meld_two_wilds", "só pode haver um curinga por jogo"),
        ("2h 2c 2s", "meld_all_wild", "um jogo precisa de pelo menos 2 cartas naturais"),
        # K-A-2 wraps: no run goes round the corner (C9)
        ("Kh Ah 2h 3h", "meld_gap", "as cartas não formam sequência"),
        ("Qh Kh Ah Ah", "meld_gap", "as cartas não formam sequência"),
    ],
)
def test_c9_illegal_runs_are_refused_with_code_and_reason(
    text: str, code: str, message: str
) -> None:
    """RULES C9: one suit, consecutive, no duplicate rank, no wrap, ≥2 naturals, one wild."""
    for preset in FOUR:
        assert refusal(text, preset) == (code, message)


def test_c9_ace_low_or_high_only_at_an_end() -> None:
    """RULES §2 "ace": low (A-2-3) or high (Q-K-A), both ends only in the A..A."""
    assert layout(meld("2s 3s As")) == ["As", "2s", "3s"]
    assert layout(meld("As Ks Qs")) == ["Qs", "Ks", "As"]
    # A, wild, 3: the wild bridges the 2 and the ace is low
    assert layout(meld("Ah 3h 2c")) == ["Ah", "2c", "3h"]
    # K-2c-A: the wild stands for the Q (the high end is the ace: C4 "else the low end")
    assert layout(meld("Kh Ah 2h")) == ["2h", "Kh", "Ah"]


# C4 / C5 / C6: wilds ----------------------------------------------------------------
def test_c4_wild_in_a_gap_stands_for_the_missing_card() -> None:
    m = meld("4h 2c 6h")
    assert (layout(m), m.wild) == (["4h", "2c", "6h"], cards("2c")[0])


def test_c4_new_run_with_no_gap_puts_the_wild_at_the_high_end() -> None:
    """RULES is silent on where a wild starts when it bridges no gap; the engine uses the
    C4 order (high end, else low end): docs/rules-decisions.md D11."""
    assert layout(meld("5h 6h 2c")) == ["5h", "6h", "2c"]
    assert layout(meld("Qh Kh 2c")) == ["Qh", "Kh", "2c"]  # 2c = A high
    assert layout(meld("Kh Ah 2c")) == ["2c", "Kh", "Ah"]  # high end closed: low end


def test_c4_natural_card_into_the_wilds_slot_moves_the_wild_to_the_high_end() -> None:
    """RULES C4: the natural card takes its slot; the wild moves to the high end."""
    m = grow(meld("4h 2c 6h"), "5h")
    assert (layout(m), m.wild) == (["4h", "5h", "6h", "2c"], cards("2c")[0])


def test_c4_wild_moves_to_the_low_end_when_the_high_end_is_the_ace() -> None:
    """RULES C4: "otherwise the wild moves to the high end, else the low end"."""
    m = grow(meld("Qh 2c Ah"), "Kh")
    assert layout(m) == ["2c", "Qh", "Kh", "Ah"]


def test_c4_no_open_end_makes_the_replacement_illegal() -> None:
    """RULES C4/C8: the 2c of a 14-card A..A (standing for the 2) has nowhere to go."""
    base = meld("Ah 2c 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah")
    assert base.canastra == "suja"
    code_msg = refusal("2h", base=base)
    assert code_msg == ("meld_no_room", "não há lugar para o curinga nesta sequência")


def test_c4_same_suit_two_moves_to_its_natural_slot_when_replaced_and_contiguous() -> None:
    """RULES C4 + C10: a same-suit 2 acting as wild stays in its slot while 4h, 3h are
    added (laid cards keep their places); when the 8h is played into its slot it moves to
    the 2-slot, now contiguous, and the run is clean."""
    m = meld("5h 6h 7h 2h")
    assert (layout(m), m.wild) == (["5h", "6h", "7h", "2h"], cards("2h")[0])
    m = grow(m, "4h")
    assert (layout(m), m.wild) == (["4h", "5h", "6h", "7h", "2h"], cards("2h")[0])
    m = grow(m, "3h")
    assert (layout(m), m.wild, m.wild_slot) == (
        ["3h", "4h", "5h", "6h", "7h", "2h"],
        cards("2h")[0],
        8,
    )
    m = grow(m, "8h")
    assert (layout(m), m.wild) == (["2h", "3h", "4h", "5h", "6h", "7h", "8h"], None)
    assert m.canastra == "limpa"


def test_c4_wild_in_a_set_never_moves() -> None:
    m = meld("9c 9d 2s")
    assert layout(m) == ["9c", "9d", "2s"]
    m = grow(m, "9h 9s")
    assert (layout(m), m.wild) == (["9c", "9d", "9h", "9s", "2s"], cards("2s")[0])


def test_c5_same_suit_two_in_two_slot_is_natural() -> None:
    """RULES C5: A-2-3 / 2-3-4 with the run's own 2 is natural (no wild)."""
    for text, expected in (("Ah 2h 3h", ["Ah", "2h", "3h"]), ("4h 3h 2h", ["2h", "3h", "4h"])):
        m = meld(text)
        assert (layout(m), m.wild) == (expected, None)


def test_c5_natural_two_lets_the_run_hold_one_more_wild() -> None:
    """RULES C5: the natural 2 is not the meld's wild, so one more wild fits."""
    m = meld("Ah 2h 3h 2c")
    assert (layout(m), m.wild) == (["Ah", "2h", "3h", "2c"], cards("2c")[0])
    m = meld("2h 2c 4h")  # 2h natural, 2c bridges the 3
    assert (layout(m), m.wild) == (["2h", "2c", "4h"], cards("2c")[0])
    assert refusal("2d", base=m) == ("meld_two_wilds", "só pode haver um curinga por jogo")


def test_c5_other_suit_two_in_two_slot_is_the_wild() -> None:
    m = meld("Ah 2c 3h")
    assert m.wild == cards("2c")[0]


def test_c6_canastra_with_a_natural_two_is_clean() -> None:
    """RULES C5+C6: A-2-3..7 of one suit is a limpa (200)."""
    m = meld("Ah 2h 3h 4h 5h 6h 7h")
    assert (m.canastra, canastra_bonus(m, BURACO), canastra_label(m, BURACO)) == (
        "limpa",
        200,
        "limpa",
    )


def test_c6_dirty_canastra_becomes_clean_when_same_suit_two_settles() -> None:
    """RULES C6 + C4: 4h..9h + 2h (as 10) is suja; the 3h leaves the 2h where it is
    (C10), the 10h replaces it and the 2h settles in the now contiguous 2-slot: limpa."""
    m = meld("4h 5h 6h 7h 8h 9h 2h")
    assert (layout(m)[-1], m.canastra, canastra_bonus(m, BURACO)) == ("2h", "suja", 100)
    m = grow(m, "3h")
    assert (layout(m), m.canastra) == (["3h", "4h", "5h", "6h", "7h", "8h", "9h", "2h"], "suja")
    m = grow(m, "10h")
    assert (layout(m), m.wild, m.canastra, canastra_bonus(m, BURACO)) == (
        ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "10h"],
        None,
        "limpa",
        200,
    )


def test_c6_dirty_canastra_stays_dirty_with_other_suit_wild() -> None:
    m = grow(meld("4h 5h 6h 7h 8h 9h 2c"), "3h")
    assert (m.canastra, m.wild) == ("suja", cards("2c")[0])


def test_c6_wild_run_of_seven_is_suja_and_clean_seven_is_limpa() -> None:
    """RULES §2 "canastra (7+ cards)": limpa 200, suja 100; six cards are no canastra."""
    assert meld("3s 4s 5s 6s 7s 8s").canastra is None
    assert meld("3s 4s 5s 6s 7s 8s 9s").canastra == "limpa"
    dirty = meld("3s 4s 5s 2d 7s 8s 9s")
    assert (dirty.canastra, canastra_bonus(dirty, BURACO)) == ("suja", 100)


# C7 / C8: A..A and special canastras ------------------------------------------------
def test_c7_de_mil_scores_1000_not_1200_in_justificado() -> None:
    """RULES C7 + §2 "canastra" (justificado): clean A..A = de mil 1,000, one bonus only."""
    m = meld(A_TO_A, "justificado")
    assert (m.canastra, canastra_bonus(m, JUSTIFICADO)) == ("de_mil", 1000)
    assert canastra_label(m, JUSTIFICADO) == "de mil, A–A limpa"


@pytest.mark.parametrize("preset", ["buraco", "buraco_morto", "bossa_nova"])
def test_c7_buraco_family_has_no_special_canastra_a_to_a_is_limpa(preset: str) -> None:
    """RULES C7: special canastras only from the variant's list (buraco family: none)."""
    m = meld(A_TO_A, preset)
    assert (m.canastra, canastra_bonus(m, rules_of(preset))) == ("limpa", 200)


def test_c8_a_to_a_is_exactly_14_and_nothing_can_be_added() -> None:
    m = meld(A_TO_A, "justificado")
    assert len(m) == 14 and layout(m) == A_TO_A.split()
    assert refusal("2c", "justificado", m) == (
        "meld_no_room",
        "não há lugar para o curinga nesta sequência",
    )
    assert refusal("5h", "justificado", m) == (
        "meld_repeated_rank",
        "uma sequência não pode repetir carta",
    )


def test_c8_a_to_a_with_a_wild_is_only_suja() -> None:
    """RULES C8: with a wild it is only suja (100 in justificado, not de mil)."""
    m = meld("Ah 2h 3h 4h 5h 6h 2c 8h 9h 10h Jh Qh Kh Ah", "justificado")
    assert (m.canastra, canastra_bonus(m, JUSTIFICADO)) == ("suja", 100)


def test_c8_thirteen_card_ace_low_run_grows_into_a_to_a() -> None:
    m = meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", "justificado")
    assert m.canastra == "limpa"
    m = grow(m, "Ah", "justificado")
    assert (layout(m), m.canastra) == (A_TO_A.split(), "de_mil")


# Sets --------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["buraco", "buraco_morto", "bossa_nova"])
def test_set_size_three_to_eight_including_the_wild(preset: str) -> None:
    """RULES §2 "set size": 3–8 incl. the wild, ≥2 naturals."""
    assert layout(meld("7h 7c 2d", preset)) == ["7c", "7h", "2d"]
    eight = meld("7c 7d 7h 7s 7c 7d 7h 2s", preset)
    assert (len(eight), eight.canastra) == (8, "suja")
    clean = meld("7c 7c 7d 7d 7h 7h 7s 7s", preset)
    assert (len(clean), clean.canastra) == (8, "limpa")
    assert refusal("7c 7c 7d 7d 7h 7h 7s 7s 2c", preset) == (
        "meld_set_too_big",
        "uma trinca tem no máximo 8 cartas",
    )
    assert refusal("2c", preset, clean) == ("meld_set_too_big", "uma trinca tem no máximo 8 cartas")


def test_set_needs_two_naturals_and_one_wild_at_most() -> None:
    assert refusal("7h 2c 2d") == ("meld_two_wilds", "só pode haver um curinga por jogo")
    assert refusal("7h 7c 2d 2s") == ("meld_two_wilds", "só pode haver um curinga por jogo")
    assert refusal("2d", base=meld("7h 7c 2s")) == (
        "meld_two_wilds",
        "só pode haver um curinga por jogo",
    )
    assert refusal("8h", base=meld("7h 7c 7s")) == (
        "meld_wrong_kind",
        "as cartas não servem nesta trinca",
    )


def test_set_of_threes_is_ordinary_in_the_buraco_family() -> None:
    """RULES §2 "3s": ordinary (buraco, buraco_morto, bossa_nova)."""
    assert layout(meld("3h 3c 3s")) == ["3c", "3h", "3s"]
    assert layout(meld("3s 4s 5s", "justificado")) == ["3s", "4s", "5s"]


def test_justificado_melds_are_runs_only() -> None:
    """RULES §2 "melds" (justificado): runs only; seed 003 "Jogo": ordered, same suit."""
    for text in ("7h 7c 7s", "7h 7c 2d", "Ah Ah 2h"):
        assert refusal(text, "justificado") == (
            "meld_set_forbidden",
            "nesta variante só valem sequências do mesmo naipe",
        )


# Jokers ---------------------------------------------------------------------------
def test_joker_is_a_wild_and_counts_as_the_melds_one_wild() -> None:
    """RULES "Jokers": each joker is a wild worth 10 and counts as the meld's one wild."""
    jr = rules_of("buraco", {"jokers": True})
    m = make_meld(cards("JK 5h 6h"), jr)
    assert (layout(m), m.wild) == (["5h", "6h", "JK"], cards("JK")[0])
    m = make_meld(cards("JK 2h 3h 4h"), jr)  # 2h natural (C5), JK the wild
    assert (layout(m), m.wild) == (["2h", "3h", "4h", "JK"], cards("JK")[0])
    with pytest.raises(IllegalAction) as err:
        make_meld(cards("JK 2c 5h 6h"), jr)
    assert err.value.code == "meld_two_wilds"


# C1 / C10: melds belong to the side; permanent; two runs of one suit -----------------
def test_c1_partner_extends_the_sides_meld_on_own_turn() -> None:
    """RULES C1: seat 2 extends the meld seat 0 laid (side 0 = seats 0, 2)."""
    st = state_of(
        "buraco",
        ["9c 9d Kc", "4d 5d 8s", "8h Kd Qs", "6c 7c 8c"],
        melds=[["5h 6h 7h"], ["Jc Qc Kc"]],
        turn=2,
        has_laid=[True, True, False, True],
    )
    act(st, {"seat": 2, "do": "extend", "meld": 0, "cards": ["8h"]})
    assert meld_codes(st, 0) == [["5h", "6h", "7h", "8h"]]
    assert meld_codes(st, 1) == [["Jc", "Qc", "Kc"]]
    assert sorted(c.code for c in st.hands[2]) == ["Kd", "Qs"]


def test_c1_meld_index_addresses_only_the_own_sides_melds() -> None:
    """RULES C1: nobody touches the other side's melds: seat 1's meld 0 is side 1's."""
    st = state_of(
        "buraco",
        ["9c 9d Kc", "8h 5d 8s", "9s Kd Qs", "6c 7c 8c"],
        melds=[["5h 6h 7h"], []],
        turn=1,
    )
    refused(
        st,
        {"seat": 1, "do": "extend", "meld": 0, "cards": ["8h"]},
        "no_such_meld",
        "seu lado não tem o jogo 1",
    )
    st = state_of(
        "buraco",
        ["9c 9d Kc", "8h 5d 8s", "9s Kd Qs", "6c 7c 8c"],
        melds=[["5h 6h 7h"], ["Jc Qc Kc"]],
        turn=1,
    )
    refused(
        st,
        {"seat": 1, "do": "extend", "meld": 0, "cards": ["8h"]},
        "meld_wrong_kind",
        "as cartas não servem nesta sequência (outro naipe)",
    )  # (refused() also checks that side 0's 5h 6h 7h is untouched)


def test_c10_two_runs_of_one_suit_coexist_and_are_never_joined() -> None:
    """RULES C10: melds are permanent, not joined; two decks allow two equal runs."""
    st = state_of(
        "buraco",
        ["3h 4h 5h 6h 7h 8h 5h 6h 7h Kc Kd", "9c 9d"],
        turn=0,
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["3h", "4h", "5h"], ["6h", "7h", "8h"]]})
    act(st, {"seat": 0, "do": "meld", "melds": [["5h", "6h", "7h"]]})
    assert meld_codes(st, 0) == [["3h", "4h", "5h"], ["6h", "7h", "8h"], ["5h", "6h", "7h"]]


def test_meld_hash_is_its_fields_and_survives_pickling() -> None:
    """The remembered hash (issue 37) is the hash of the fields in order; a pickled or
    copied meld is rebuilt from its fields (the remembered hash is this process's)."""
    import copy
    import pickle

    m = meld("7h 8h 9h Jh 2c")
    fields = (m.kind, m.cards, m.suit, m.low, m.wild, m.canastra, m.wild_at)
    assert fields[0] == "run" and fields[6] == 3
    assert hash(m) == hash(fields) and hash(m) == hash(fields)  # computed, then remembered
    twin = Meld(*fields)
    assert twin == m and twin is not m and hash(twin) == hash(m)
    assert m.__reduce__() == (Meld, fields)
    back = pickle.loads(pickle.dumps(m))
    assert back == m and hash(back) == hash(m) and {m: "x"}[back] == "x"
    assert copy.deepcopy(m) == m and m != meld("7h 8h 9h 10h")
