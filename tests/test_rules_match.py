"""A match: target, ties, dealer rotation (RULES §1 "target", §2 "match end, ties",
C15) and game records replayed by ``python -m engine replay`` (issue 2 "Game records")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Action, DealState, IllegalAction, Match, make_rules, parse_cards
from engine.record import MalformedRecord, replay
from engine.state import deal_cards
from tests.rules_support import ROOT, act, build_deck, refused, replay_many

# The player after the dealer holds an 11-card run and goes out in one turn (relancinho):
# 3h..7h = 5*5 = 25, 8h..Kh = 10*6 = 60 => 85; limpa 200; batida 50; relancinho 100 => 435.
RUN11 = "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
LOW11 = "4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9c"  # 5*8 + 10*3 = 70
SPADES11 = "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"  # 5*5 + 10*6 = 85
HIGH11 = "Ac Ad As 9d 10c 10d Jc Jd Qc Qd Kc"  # 15*3 + 10*8 = 125
GOES_OUT = 85 + 200 + 50 + 100


def quick_deck(preset: str, n: int, first: int, options: dict[str, Any] | None = None) -> list:
    """A full deck where seat ``first`` holds RUN11, the next seats LOW11, SPADES11,
    HIGH11, the mortos hold cards nobody needs, and the stock's top card is Kd."""
    rules = make_rules(preset, options)
    others = [LOW11, SPADES11, HIGH11]
    hands = [""] * n
    hands[first] = RUN11
    for k in range(1, n):
        hands[(first + k) % n] = others[k - 1]
    mortos = None
    if rules.morto:
        mortos = ["Ah Ah 2c 2c 2d 2d 2h 2h 2s 2s 3c", "3c 3d 3d 10s 10s Js Js Qs Qs Ks Ks"]
    return build_deck(rules, n, hands, mortos=mortos, stock_top="Kd", first=first)


def go_out(match: Match) -> None:
    """The first seat draws Kd, melds RUN11 and discards Kd (relancinho, batida)."""
    seat = match.deal_state.turn
    match.act(Action.draw(seat))
    match.act(Action.lay_down(seat, [parse_cards(RUN11)]))
    match.act(Action.discard(seat, parse_cards("Kd")[0]))


def test_match_first_side_to_reach_the_target_wins() -> None:
    """RULES §1 target 1,500 (buraco). Side 0 starts at 1,100 (set by hand) and adds 435:
    1,535 >= 1,500; side 1: 0 - 70 = -70."""
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    match.scores = [1100, 0]
    match.start_deal(quick_deck("buraco", 2, 0))
    go_out(match)
    assert match.scores == [1100 + GOES_OUT, -70]
    assert (match.over, match.winner) == (True, 0)
    with pytest.raises(IllegalAction) as err:
        match.start_deal()
    assert (err.value.code, err.value.message) == ("match_over", "a partida já terminou")


def test_match_below_the_target_goes_on_and_c15_dealer_rotates() -> None:
    """RULES C15: the next deal is dealt by the next seat, so the first player moves on
    one seat each deal (4 players: 0, 1, 2, 3; the first dealer is seat 3, D13). Each
    deal the first player goes out: their side + 435 - partner's SPADES11 85 = +350;
    the other side -(70 + 125) = -195.
    Totals: [350, -195] -> [155, 155] -> [505, -40] -> [310, 310]."""
    match = Match.new(make_rules("buraco"), ["Ana", "Bia", "Caio", "Duda"])
    assert match.dealer == 3
    expected = [[350, -195], [155, 155], [505, -40], [310, 310]]
    for k in range(4):
        state = match.start_deal(quick_deck("buraco", 4, k))
        assert (state.first, state.turn) == (k, k)
        go_out(match)
        assert match.scores == expected[k]
        assert (match.dealer, match.over) == (k, False)
    assert [r.totals for r in match.results] == [
        [350, -195],
        [-195, 350],
        [350, -195],
        [-195, 350],
    ]


@pytest.mark.parametrize(
    ("before", "after", "winner"),
    [
        ([1200, 1705], [1635, 1635], None),  # both past 1,500 and tied: one more deal
        ([1200, 1710], [1635, 1640], 1),  # both past: the higher total wins
        ([1200, 1600], [1635, 1530], 0),
        ([1000, 1600], [1435, 1530], 1),  # only side 1 is past the target
    ],
)
def test_match_end_both_reach_the_target_higher_total_then_one_more_deal(
    before: list[int], after: list[int], winner: int | None
) -> None:
    """RULES §2 "match end, ties": first side to reach the target; both => higher total;
    still tied => one more deal. Deal: side 0 +435, side 1 -70."""
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    match.scores = list(before)
    match.start_deal(quick_deck("buraco", 2, 0))
    go_out(match)
    assert match.scores == after
    assert (match.winner, match.over) == (winner, winner is not None)
    if winner is None:
        assert match.start_deal().first == 1  # the extra deal, dealt by the next seat


def test_justificado_one_deal_decides_unless_a_target_is_set() -> None:
    """RULES §1 / A35: justificado is decided by one deal (option: target 3,000).
    The deal runs to stock exhaustion (A26: both mortos become stock, then it ends), every
    player discarding the card just drawn: side 0 keeps RUN11 = -85, morto -100 => -185;
    side 1 keeps LOW11 = -70, morto -100 => -170. One deal: side 1 wins at -170."""
    for options, over in ((None, True), ({"target": 3000}, False)):
        match = Match.new(make_rules("justificado", options), ["Ana", "Bia"])
        state = match.start_deal(quick_deck("justificado", 2, 0, options))
        turns = 0
        while not state.over:
            seat = state.turn
            match.act(Action.draw(seat))
            assert state.drawn is not None
            match.act(Action.discard(seat, state.drawn))
            turns += 1
        assert turns == 60 + 11 + 11  # the stock, then both mortos
        assert match.scores == [-185, -170]
        assert (match.over, match.winner) == (over, 1 if over else None)


def test_justificado_tied_one_deal_goes_to_one_more_deal() -> None:
    """RULES is silent on a tie in a one-deal game (A35); the engine follows the buraco
    row ("still tied => one more deal"), docs/rules-decisions.md D12. Both sides keep 11
    cards worth 85 and pay their morto: -85 - 100 = -185 each."""
    rules = make_rules("justificado")
    mortos = ["Ac Ac Ad Ad 2c 2c 2d 2d 4c 4c 4d", "5c 5c 5d 5d 6c 6c 6d 6d 7c 7c 7d"]
    deck = build_deck(rules, 2, [RUN11, SPADES11], mortos=mortos)
    match = Match.new(rules, ["Ana", "Bia"])
    state = match.start_deal(deck)
    while not state.over:
        match.act(Action.draw(state.turn))
        assert state.drawn is not None
        match.act(Action.discard(state.turn, state.drawn))
    assert match.scores == [-185, -185]
    assert (match.over, match.winner) == (False, None)
    assert match.start_deal().first == 1


# python -m engine replay ------------------------------------------------------------------------
def deck_record(preset: str = "buraco", actions: list[dict[str, Any]] | None = None) -> dict:
    """A one-deal record of ``preset`` where seat 0 goes out at once (GOES_OUT points)."""
    deck = quick_deck(preset, 2, 0)
    return {
        "format": "buraco-record/1",
        "variant": preset,
        "options": {},
        "players": ["Ana", "Bia"],
        "deck": [c.code for c in deck],
        "actions": actions
        if actions is not None
        else [
            {"seat": 0, "do": "draw"},
            {"seat": 0, "do": "meld", "melds": [RUN11.split()]},
            {"seat": 0, "do": "discard", "card": "Kd"},
        ],
    }


def position_record(preset: str) -> dict[str, Any]:
    """A mid-deal ``position``: seat 1 takes the pile (justificado: 7h with 8h 9h)."""
    take: dict[str, Any] = {"seat": 1, "do": "take_pile"}
    if preset == "justificado":
        take["with"] = ["8h", "9h"]
    return {
        "format": "buraco-record/1",
        "variant": preset,
        "players": ["Ana", "Bia"],
        "position": {
            "hands": [["Kd", "Qs"], ["8h", "9h", "4c"]],
            "melds": [[], []],
            "pile": ["Kc", "7h"],
            "stock": ["Jc"],
            "mortos": [["8c"], ["8c"]],
            "turn": 1,
            "phase": "draw",
            "laid_threes": [[], []],
            "scores": [300, 200],
        },
        "actions": [take, {"seat": 1, "do": "discard", "card": "4c"}],
    }


def two_deal_record() -> dict[str, Any]:
    """``Match.record()`` of two deals: [435, -70] + [-70, 435] = [365, 365] (C15: deal 2
    is dealt by seat 0, so seat 1 plays first)."""
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    for first in (0, 1):
        match.start_deal(quick_deck("buraco", 2, first))
        go_out(match)
    assert match.scores == [365, 365]
    return match.record()


def _cases() -> dict[str, Any]:
    cases: dict[str, Any] = {"ok": deck_record(), "match": two_deal_record()}
    cases["doc_example"] = (ROOT / "docs" / "examples" / "buraco.json").read_text("utf-8")
    for preset in ("buraco_morto", "bossa_nova", "justificado"):
        cases[f"position_{preset}"] = position_record(preset)
    cases["illegal"] = deck_record(actions=[{"seat": 0, "do": "draw"}, {"seat": 1, "do": "draw"}])
    cases["not_json"] = "{not json"
    cases["format"] = {**deck_record(), "format": "buraco-record/0"}
    cases["variant"] = {**deck_record(), "variant": "pif"}
    cases["players"] = {**deck_record("buraco_morto"), "players": ["a", "b", "c", "d", "e", "f"]}
    bad_card = deck_record()
    bad_card["deck"][5] = "Zz"
    cases["unknown_card"] = bad_card
    too_many = deck_record()
    too_many["deck"][0] = too_many["deck"][1] = too_many["deck"][2] = "7h"
    cases["too_many_deck"] = too_many
    cases["too_many_position"] = {
        "format": "buraco-record/1",
        "variant": "bossa_nova",
        "players": ["Ana", "Bia"],
        "position": {"hands": [["7h", "7h"], ["7h"]], "melds": [[], []], "turn": 0},
        "actions": [],
    }
    cases["unknown_action"] = deck_record(actions=[{"seat": 0, "do": "fly"}])
    cases["unknown_card_action"] = deck_record(
        actions=[{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "Zz"}]
    )
    cases["action_extra_field"] = deck_record(actions=[{"seat": 0, "do": "draw", "cards": ["Kd"]}])
    misspelt = deck_record()
    misspelt["acitons"] = misspelt.pop("actions")
    cases["record_extra_field"] = misspelt
    cases["scores_length"] = {**deck_record(), "scores": [0]}
    deals = deck_record()
    deals["deals"] = [{"first": "x", "deck": deals.pop("deck"), "actions": deals.pop("actions")}]
    cases["deal_first"] = deals
    return cases


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, Any, str]]:
    """Every replay case of this module, run once, in parallel."""
    return replay_many(tmp_path_factory.mktemp("records"), _cases())


def test_replay_ok_record_prints_scores_and_exits_0(cli: dict[str, Any]) -> None:
    """Issue 2: exit 0 when every action was legal; the printed JSON has ok, error,
    deal_over, deal_scores, match_scores, breakdown, position. Scores as GOES_OUT."""
    code, out, err = cli["ok"]
    assert (code, err) == (0, "")
    assert (out["ok"], out["error"], out["deal_over"]) == (True, None, True)
    assert out["deal_scores"] == out["match_scores"] == [GOES_OUT, -70]
    assert out["breakdown"] == [
        {
            "melded": 85,
            "canastras": [["limpa", 200]],
            "batida": 50,
            "threes": 0,
            "relancinho": 100,
            "hand": 0,
            "morto": 0,
            "total": GOES_OUT,
        },
        {
            "melded": 0,
            "canastras": [],
            "batida": 0,
            "threes": 0,
            "relancinho": 0,
            "hand": -70,
            "morto": 0,
            "total": -70,
        },
    ]
    assert out["position"]["melds"] == [[RUN11.split()], []]
    assert (out["position"]["pile"], out["position"]["phase"]) == (["Kd"], "over")


@pytest.mark.parametrize("preset", ["buraco_morto", "bossa_nova", "justificado"])
def test_replay_mid_deal_position_record(cli: dict[str, Any], preset: str) -> None:
    """A ``position`` record; the deal is not over: deal_scores and breakdown null,
    match_scores are the position's scores."""
    code, out, _ = cli[f"position_{preset}"]
    assert (code, out["ok"], out["deal_over"], out["deal_scores"]) == (0, True, False, None)
    assert (out["match_scores"], out["breakdown"]) == ([300, 200], None)
    assert (out["position"]["turn"], out["position"]["pile"]) == (0, ["4c"])
    # justificado: 7h 8h 9h melded, Kc to the hand; buraco family: the whole pile
    hand = ["Kc"] if preset == "justificado" else ["7h", "8h", "9h", "Kc"]
    assert sorted(out["position"]["hands"][1]) == hand


def test_replay_documented_buraco_example(cli: dict[str, Any]) -> None:
    """docs/record-format.md example: Ana lays 7h 8h 9h 2d and goes out by discard.
    Ana: K K K = 30, 7h 8h 9h 2d = 5 + 10 + 10 + 10 = 35 => 65; batida 50 => 115.
    Bia: 4d 5d 6d = 15; hand Ac 10s 4s = -(15 + 10 + 5) = -30 => -15.
    Match: 300 + 115 = 415, 120 - 15 = 105."""
    code, out, _ = cli["doc_example"]
    assert (code, out["ok"], out["deal_over"]) == (0, True, True)
    assert (out["deal_scores"], out["match_scores"]) == ([115, -15], [415, 105])


def test_replay_illegal_action_exits_1_with_index_code_message(cli: dict[str, Any]) -> None:
    code, out, err = cli["illegal"]
    assert code == 1 and "Traceback" not in err
    assert out["ok"] is False
    assert out["error"] == {"action": 1, "code": "not_your_turn", "message": "não é a sua vez"}
    assert (out["deal_over"], out["position"]["turn"], out["position"]["phase"]) == (
        False,
        0,
        "play",
    )


def test_replay_match_record_of_two_deals(cli: dict[str, Any]) -> None:
    code, out, _ = cli["match"]
    assert (code, out["ok"], out["match_scores"], out["deal_scores"]) == (
        0,
        True,
        [365, 365],
        [-70, GOES_OUT],
    )


def malformed(cli: dict[str, Any], name: str) -> str:
    """Exit 2, a malformed_record error with no action index, never a traceback."""
    code, out, err = cli[name]
    assert "Traceback" not in err
    assert code == 2, out
    assert out["ok"] is False
    assert (out["error"]["action"], out["error"]["code"]) == (None, "malformed_record")
    message: str = out["error"]["message"]
    return message


def test_replay_not_json_exits_2(cli: dict[str, Any]) -> None:
    assert " não é JSON válido (linha 1, coluna " in malformed(cli, "not_json")


def test_replay_wrong_format_exits_2(cli: dict[str, Any]) -> None:
    assert malformed(cli, "format") == (
        "formato desconhecido: 'buraco-record/0' (esperado 'buraco-record/3')"
    )


def test_replay_unknown_variant_and_bad_player_count_exit_2(cli: dict[str, Any]) -> None:
    assert malformed(cli, "variant").startswith("variante desconhecida: 'pif'")
    assert malformed(cli, "players") == "buraco_morto aceita 2, 3 ou 4 jogadores, não 6"


def test_replay_unknown_card_in_deck_exits_2(cli: dict[str, Any]) -> None:
    assert malformed(cli, "unknown_card") == "baralho inválido: 'Zz' não é uma carta"


def test_replay_card_more_times_than_decks_hold_exits_2(cli: dict[str, Any]) -> None:
    assert malformed(cli, "too_many_deck") == (
        "o baralho precisa ter exatamente as cartas dos dois baralhos"
    )
    assert malformed(cli, "too_many_position") == (
        "posição inválida: a carta 7♥ aparece 3 vezes; os baralhos têm 2"
    )


def test_replay_unknown_action_is_a_malformed_record(cli: dict[str, Any]) -> None:
    """Issue 2: exit 2 for a malformed record; an action the format does not know is not
    an illegal move of the game but an unreadable record."""
    assert "fly" in malformed(cli, "unknown_action")


def test_replay_unknown_card_in_an_action_is_a_malformed_record(cli: dict[str, Any]) -> None:
    """Issue 2 / brief: an unknown card is a malformed record (exit 2), in the deck or in
    an action alike."""
    assert "Zz" in malformed(cli, "unknown_card_action")


def test_replay_action_with_extra_fields_is_a_malformed_record(cli: dict[str, Any]) -> None:
    assert "cards" in malformed(cli, "action_extra_field")


def test_replay_record_with_unknown_top_level_field_is_malformed(cli: dict[str, Any]) -> None:
    """A misspelt key (``"acitons"``) must not replay as an empty, successful game."""
    assert "acitons" in malformed(cli, "record_extra_field")


def test_replay_scores_of_the_wrong_length_is_malformed(cli: dict[str, Any]) -> None:
    assert malformed(cli, "scores_length")


def test_replay_deal_list_with_a_bad_first_seat_is_malformed(cli: dict[str, Any]) -> None:
    assert malformed(cli, "deal_first")


def test_stored_deal_resumes_with_its_rule_state() -> None:
    """A deal stored between actions (``to_json``/``from_json``) keeps what the rules
    depend on: the first-turn redraw (A9), a vulnerable player's raised minimum (A22), the
    taken top card (C3). Side 0 starts at 800 (vulnerable)."""
    rules = make_rules("buraco_morto")
    mortos = ["Ac Ac Ad Ad As As Qs Qs Ks Ks Js", "10s 10s 9s 9s 8s 8s 7s 7s 6s 6s 5s"]
    deck = build_deck(rules, 2, [RUN11, LOW11], mortos=mortos, stock_top="Kd Jd 2h 4s")
    state = deal_cards(rules, 2, deck, 0, scores=[800, 0])

    def resumed() -> DealState:
        data = state.to_json()
        back = DealState.from_json(rules, data)
        assert back.to_json() == data
        return back

    act(state, {"seat": 0, "do": "draw"})
    assert resumed().redraw_ok is True
    act(resumed(), {"seat": 0, "do": "redraw"})  # the restored copy may redraw too
    act(state, {"seat": 0, "do": "redraw"})
    # 3h 4h 5h = 15 < 75: refused, 90 from now on (A22)
    assert act(state, {"seat": 0, "do": "meld", "melds": [["3h", "4h", "5h"]]}) == [
        "lay_down_short"
    ]
    assert resumed().vuln_min == [90, 0]
    act(state, {"seat": 0, "do": "discard", "card": "Jd"})
    act(state, {"seat": 1, "do": "take_pile"})  # Kd Jd, top Jd
    refused(
        resumed(),
        {"seat": 1, "do": "discard", "card": "Jd"},
        "discard_taken_top",
        "a carta de cima do lixo não pode ser descartada na mesma vez",
    )


# RULES C15 on replay: a match record's deal order is checked (issue 38) ------------------
def test_c15_replay_refuses_a_match_record_whose_deal_2_starts_at_the_same_seat() -> None:
    """RULES C15: deal 2 is dealt by the next seat, so seat 1 plays first; a record whose
    deal 2 starts at seat 0 again is corrupt (it used to replay from the record's seat)."""
    record = two_deal_record()
    record["deals"][1]["first"] = 0
    with pytest.raises(MalformedRecord) as info:
        replay(record)
    assert str(info.value) == "mão 2: começa no assento 0, mas pelas regras começa no assento 1"


def test_c15_replay_of_a_match_record_deal_without_first_starts_at_the_next_seat() -> None:
    """RULES C15: a deal of a match record without ``first`` starts where the rules say
    (seat 1 for deal 2 here), not at seat 0: the record replays to the same scores."""
    record = two_deal_record()
    del record["deals"][1]["first"]
    result = replay(record)
    assert (result.ok, result.match_scores, result.state.first) == (True, [365, 365], 1)


def test_c15_replay_refuses_a_first_deal_not_started_by_seat_0() -> None:
    """Gap decision D13: the last seat deals the first deal, so seat 0 plays first."""
    record = two_deal_record()
    record["deals"][0]["first"] = 1
    with pytest.raises(MalformedRecord) as info:
        replay(record)
    assert str(info.value) == "mão 1: começa no assento 1, mas pelas regras começa no assento 0"


def test_replay_refuses_a_match_record_whose_scores_before_a_deal_disagree() -> None:
    """C14/§2: a deal's ``scores`` are the match's totals before it; deal 1 gave
    [435, -70], so a deal 2 claiming [0, 0] is corrupt, not replayed as if it were right."""
    record = two_deal_record()
    assert record["deals"][1]["scores"] == [435, -70]
    record["deals"][1]["scores"] = [0, 0]
    with pytest.raises(MalformedRecord) as info:
        replay(record)
    assert str(info.value) == (
        "mão 2: o placar antes dela é 0 x 0, mas as mãos anteriores dão 435 x -70")


def test_c15_the_kept_seven_deal_record_still_replays() -> None:
    """``tests/data/replay-buraco.json`` (four players, deals first at seats 0, 1, 2, 3, 0,
    1, 2, RULES C15) replays unchanged under the deal-order check."""
    record = json.loads((ROOT / "tests" / "data" / "replay-buraco.json").read_text("utf-8"))
    assert [d["first"] for d in record["deals"]] == [0, 1, 2, 3, 0, 1, 2]
    result = replay(record)
    assert (result.ok, result.match_scores) == (True, [870, 1050])
