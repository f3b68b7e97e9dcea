"""Deal scores, computed by hand (RULES C14, C7, C12; §2 "card points", "canastra",
"batida bonus", "morto not taken", "extras"; seed 001 "Contagem", seed 003 "Contagem").

C14: melded card points + canastra bonuses + batida bonus (the side that ended the deal)
+ relancinho - points of the cards in the hands of the side's players - 100 if the side
did not take its morto. Cards of an untaken morto never count.
"""

from __future__ import annotations

from typing import Any

from engine import score_deal
from tests.rules_support import act, state_of


def row(
    melded: int,
    canastras: list[list[Any]],
    batida: int,
    hand: int,
    morto: int = 0,
    relancinho: int = 0,
) -> dict[str, Any]:
    """The expected breakdown of one side; ``total`` is the C14 sum of the parts."""
    total = melded + sum(int(c[1]) for c in canastras) + batida + relancinho + hand + morto
    return {
        "melded": melded,
        "canastras": canastras,
        "batida": batida,
        "threes": 0,
        "relancinho": relancinho,
        "hand": hand,
        "morto": morto,
        "total": total,
    }


def test_c14_buraco_four_players_partner_hand_counts_against_the_side() -> None:
    """side 0 (seats 0, 2) ends the deal:
      4d..10d limpa = 5*4 + 10*3 = 50; Q set (6 Q + 2h) suja = 10*6 + 10 = 70;
      Ah Ad As = 15*3 = 45 => melded 165; limpa 200 + suja 100; batida 50;
      seat 2 holds Kd 3c Ac = -(10 + 5 + 15) = -30  => 165 + 300 + 50 - 30 = 485.
    side 1 (seats 1, 3): 5s 6s 7s = 15; J set of 7 limpa = 70 => 85; limpa 200;
      hands 4c 8h = -(5 + 10), 2c Kh = -(10 + 10) => -35  => 85 + 200 - 35 = 250."""
    st = state_of(
        "buraco",
        ["9c", "4c 8h", "Kd 3c Ac", "2c Kh"],
        melds=[
            ["4d 5d 6d 7d 8d 9d 10d", "Qc Qd Qh Qs Qc Qd 2h", "Ah Ad As"],
            ["5s 6s 7s", "Jc Jd Jh Js Jc Jd Jh"],
        ],
    )
    act(st, {"seat": 0, "do": "discard", "card": "9c"})
    score = score_deal(st)
    assert score.breakdown == [
        row(165, [["limpa", 200], ["suja", 100]], 50, -30),
        row(85, [["limpa", 200]], 0, -35),
    ]
    assert score.totals == [485, 250]
    assert score.went_out == 0


def test_c14_buraco_morto_untaken_morto_costs_100_and_a_score_may_be_negative() -> None:
    """side 0 took its morto and ends the deal: 9h..Kh + Ah = 10*5 + 15 = 65 (6 cards, no
    canastra); batida 50 => 115.
    side 1 never took its morto (its 2 cards never count): 5s 6s 7s = 15; hand Ac Kd Qd =
    -(15 + 10 + 10) = -35; morto -100 => 15 - 35 - 100 = -120."""
    st = state_of(
        "buraco_morto",
        ["Ah", "Ac Kd Qd"],
        melds=[["9h 10h Jh Qh Kh"], ["5s 6s 7s"]],
        mortos=["", "Kc Kc"],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Ah"]})
    score = score_deal(st)
    assert score.breakdown == [row(65, [], 50, 0), row(15, [], 0, -35, morto=-100)]
    assert score.totals == [115, -120]


def test_c14_bossa_nova_three_players_each_side_pays_its_own_morto() -> None:
    """3 players = 3 sides, one morto each (RULES §1, seed 001 "No jogo em três").
    side 0 ends with 3c..9c suja (3c 4c 5c 6c 7c 2s 9c = 5*5 + 10 + 10 = 45), suja 100,
    batida 50 => 195.  side 1 took its morto: hand 9d = -10 => -10.
    side 2 did not: melded 8s 8h 8d = 30; hand 4s = -5; morto -100 => -75."""
    st = state_of(
        "bossa_nova",
        ["9c", "9d", "4s"],
        melds=[["3c 4c 5c 6c 7c 2s"], [], ["8s 8h 8d"]],
        mortos=["", "", "Kc"],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["9c"]})
    score = score_deal(st)
    assert score.breakdown == [
        row(45, [["suja", 100]], 50, 0),
        row(0, [], 0, -10),
        row(30, [], 0, -5, morto=-100),
    ]
    assert score.totals == [195, -10, -75]


def test_c14_c7_justificado_de_mil_batida_100_morto_100() -> None:
    """justificado (seed 003 "Contagem"; RULES §2): de mil 1,000 (not 1,200, C7),
    batida 100, morto not taken -100.
    side 0: A..A♥ = A 15*2 + 2 10 + 3..7 5*5 + 8..K 10*6 = 30 + 10 + 25 + 60 = 125;
      de mil 1000; 4s 5s 6s 7s 8s 9s 10s limpa = 5*4 + 10*3 = 50, +200; batida 100
      => 125 + 50 + 1000 + 200 + 100 = 1475.
    side 1: Jc Qc Kc = 30; hand 9d 2d = -20; morto -100 => -90."""
    st = state_of(
        "justificado",
        ["Kh Ah", "9d 2d"],
        melds=[["Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh", "4s 5s 6s 7s 8s 9s 10s"], ["Jc Qc Kc"]],
        mortos=["", "Kc"],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Kh", "Ah"]})
    score = score_deal(st)
    assert score.breakdown == [
        row(175, [["de mil, A–A limpa", 1000], ["limpa", 200]], 100, 0),
        row(30, [], 0, -20, morto=-100),
    ]
    assert score.totals == [1475, -90]


def test_c14_jokers_count_10_melded_and_in_hand() -> None:
    """RULES "Jokers": a joker is worth 10. side 0: 9h JK Jh + Qh = 10*4 = 40; batida 50
    => 90.  side 1: hand JK 5c = -(10 + 5) = -15."""
    st = state_of("buraco", ["Qh", "JK 5c"], melds=[["9h JK Jh"], []], options={"jokers": True})
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Qh"]})
    assert score_deal(st).totals == [90, -15]


def test_c14_relancinho_is_added_besides_the_batida() -> None:
    """RULES A21/C14: side 0 melds its whole hand in one turn and ends the deal:
    Ac Ad As = 45, batida 50, relancinho 100 => 195; side 1: hand 4c = -5."""
    st = state_of("buraco", ["Ac Ad As", "4c"])
    act(st, {"seat": 0, "do": "meld", "melds": [["Ac", "Ad", "As"]]})
    score = score_deal(st)
    assert score.breakdown[0] == row(45, [], 50, 0, relancinho=100)
    assert score.totals == [195, -5]


def test_c14_a26_stock_exhausted_no_batida_both_mortos_untaken() -> None:
    """RULES A26 + C14: the deal ends with no batida bonus; neither side took its morto.
    side 0: 5h 6h 7h = 15; hand Kd = -10; morto -100 => -95.
    side 1: hand 4c 8d = -15; morto -100 => -115."""
    st = state_of(
        "buraco_morto",
        ["Kd", "4c 8d 9s"],
        melds=[["5h 6h 7h"], []],
        turn=1,
        phase="play",
        mortos=["", ""],
        morto_taken=[False, False],
    )
    assert act(st, {"seat": 1, "do": "discard", "card": "9s"}) == ["discarded", "deal_over"]
    score = score_deal(st)
    assert score.breakdown == [row(15, [], 0, -10, morto=-100), row(0, [], 0, -15, morto=-100)]
    assert score.totals == [-95, -115]


def test_c14_buraco_six_players_teams_of_three_share_one_score() -> None:
    """RULES §1: 6 players = seats {0,2,4} and {1,3,5}; C14 sums the hands of a side's
    players. side 0: 9c 10c Jc + Qc = 40; batida 50; seats 2, 4 hold 5d (-5) and Ad
    (-15) => 40 + 50 - 20 = 70.  side 1: 7s 7h 7d = 15; hands 4c, 8d, Kh = -(5 + 10 +
    10) = -25 => -10."""
    st = state_of(
        "buraco",
        ["Qc", "4c", "5d", "8d", "Ad", "Kh"],
        melds=[["9c 10c Jc"], ["7s 7h 7d"]],
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Qc"]})
    assert (st.over, st.went_out) == (True, 0)
    assert score_deal(st).totals == [70, -10]
