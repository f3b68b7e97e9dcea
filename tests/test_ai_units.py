"""AI building blocks (issue 5): hand analysis, discard danger, statistics, self-play CLI."""

from __future__ import annotations

import random

import pytest

from engine import make_meld, make_rules, parse_cards
from engine.actions import Action
from engine.ai import normal
from engine.ai.danger import Table, danger, fits_meld, keep_value, special_reach
from engine.ai.determinize import sample_state, unseen
from engine.ai.hand import find_runs, find_sets, greedy_partition
from engine.ai.plan import plan_laydown
from engine.ai.selfplay import main as selfplay_main
from engine.ai.selfplay import play_deal
from engine.ai.stats import SideTally, wilson
from engine.ai.tracker import SeenTracker
from engine.ai.weights import NORMAL, TUNED, Weights, tuned
from engine.cards import Card, codes, full_deck
from engine.state import Event
from engine.view import SeatView, view_for

BURACO = make_rules("buraco")
TRANCA = make_rules("tranca")


def _runs(text: str, rules: object = BURACO, wild: bool = True) -> list[list[str]]:
    return [codes(c.cards) for c in find_runs(parse_cards(text), rules, wild)]  # type: ignore[arg-type]


def test_runs_ace_low_and_high_in_buraco() -> None:
    assert _runs("Ah 2h 3h Qs Ks As") == [["Ah", "2h", "3h"], ["Qs", "Ks", "As"]]


def test_runs_ace_only_high_in_tranca() -> None:
    # seed 002: "L'Asso è posto dopo il Re"; every 2 is wild, so no natural 2 (C5 off).
    assert _runs("Ah 2h 3h Qs Ks As", TRANCA, False) == [["Qs", "Ks", "As"]]
    assert _runs("2h 4h 5h", TRANCA) == [["4h", "5h", "2h"]]


def test_runs_natural_two_in_its_slot_leaves_room_for_one_wild() -> None:
    # 2h natural in A-2-3 (RULES C5); the 2 of clubs bridges 3..5.
    found = _runs("Ah 2h 3h 5h 2c")
    assert ["Ah", "2h", "3h", "2c", "5h"] in found


def test_runs_use_one_wild_at_most() -> None:
    found = _runs("5d 7d 9d 2c 2s")
    assert all(sum(c in ("2c", "2s") for c in run) <= 1 for run in found)
    assert ["5d", "2c", "7d"] in found and ["7d", "2c", "9d"] in found


def test_sets_need_two_naturals_and_none_in_runs_only_variants() -> None:
    hand = parse_cards("Kd Kc 2s 7h 7c 7s")
    assert [codes(c.cards) for c in find_sets(hand, BURACO)] == [["Kd", "Kc", "2s"],
                                                                 ["7h", "7c", "7s"]]
    assert find_sets(hand, make_rules("justificado")) == []


def test_no_meld_with_tranca_threes() -> None:
    assert _runs("3h 4h 5h", TRANCA) == [] and find_sets(parse_cards("3c 3s 3d"), TRANCA) == []


def test_greedy_partition_keeps_wilds_unless_allowed() -> None:
    hand = parse_cards("4h 5h 6h 7h 9c 10c 2d Kd Ks")
    melds, left = greedy_partition(hand, BURACO, 0)
    assert [codes(m.cards) for m in melds] == [["4h", "5h", "6h", "7h"]]
    assert codes(left) == ["9c", "10c", "2d", "Kd", "Ks"]
    melds, left = greedy_partition(hand, BURACO, 1)
    assert len(melds) == 2 and codes(left) == ["Kd", "Ks"]


def test_fits_meld_ends_wild_slot_and_sets() -> None:
    run = make_meld(parse_cards("5s 6s 2c 8s"), BURACO)  # wild stands for the 7
    assert [fits_meld(Card.parse(c), run, BURACO) for c in ("4s", "9s", "7s", "9h")] == [
        True, True, True, False]
    kings = make_meld(parse_cards("Kd Kc Ks"), BURACO)
    assert fits_meld(Card.parse("Kh"), kings, BURACO) and not fits_meld(
        Card.parse("Qh"), kings, BURACO)


def test_danger_ranks_a_canastra_completing_card_highest() -> None:
    six = make_meld(parse_cards("4s 5s 6s 7s 8s 9s"), BURACO)
    table = Table(opp_melds=(six,), opp_taken=tuple(parse_cards("Jh")), pile_size=4,
                  pile_open=True, next_hand=9)
    ten, jack, two, queen = (Card.parse(c) for c in ("10s", "Jd", "2c", "Qh"))
    assert danger(ten, table, BURACO) > danger(jack, table, BURACO) > danger(queen, table, BURACO)
    assert danger(two, table, BURACO) == 1000.0
    assert danger(queen, table, BURACO) == 2.0 + 8.0  # open pile 0.5 x 4, next to the Jh taken


def test_black_three_is_a_safe_discard_in_tranca() -> None:
    table = Table(opp_melds=(), opp_taken=(), pile_size=9, pile_open=False, next_hand=3)
    assert danger(Card.parse("3s"), table, TRANCA) == 0.0


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="outside"):
        wilson(11, 10)


def test_side_tally_counts() -> None:
    t = SideTally("normal", wins=8, ties=1, losses=1)
    assert t.deals == 10 and t.win_rate() == 0.8


def test_tracker_follows_public_pickups() -> None:
    seen = SeenTracker.for_players(2)
    seen.observe([Event("took_pile", 1, {"cards": ["7h", "8h", "Kc"]})])
    seen.observe([Event("melded", 1, {"melds": [["6h", "7h", "8h"]], "extend": []})])
    seen.observe([Event("discarded", 1, {"card": "Qd"})])
    assert seen.lists() == [[], parse_cards("Kc")]


def test_determinized_sample_keeps_the_view() -> None:
    from engine import new_deal

    state = new_deal(make_rules("buraco_morto"), 2)
    view = view_for(state, 0)
    assert len(unseen(view)) == 104 - 11
    sample = sample_state(view, random.Random(1))
    assert view_for(sample, 0) == view
    hidden = sample.hands[1] + sample.stock + sample.mortos[0] + sample.mortos[1]
    assert sorted(hidden) == unseen(view)


@pytest.mark.parametrize(("preset", "players"), [("tranca", 2), ("altaneira", 4),
                                                  ("buraco", 3)])
def test_determinized_samples_match_the_view_along_a_deal(preset: str, players: int) -> None:
    from collections import Counter

    from engine import apply, new_deal
    from engine.ai import choose
    from engine.cards import full_deck

    rules = make_rules(preset)
    rng = random.Random(8)
    deck = full_deck(rules.jokers)
    random.Random(players).shuffle(deck)  # a fixed deal: a random one may end too soon
    state = new_deal(rules, players, deck=deck)
    checked = 0
    while not state.over:
        if state.turn_count % 3 == 0:
            view = view_for(state, state.turn)
            sample = sample_state(view, rng)
            assert view_for(sample, state.turn) == view  # closed pile, killed cards, mortos
            if not any(state.pending_morto):
                assert sample.all_cards() == Counter(full_deck())
            checked += 1
        apply(state, choose(view_for(state, state.turn), "normal", rng=rng))
    assert checked > 5


def test_selfplay_cli_prints_the_table(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert selfplay_main(["--variant", "biriba", "--players", "2", "--games", "2",
                          "--seats", "normal,facil"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0] == "buraco_morto, 2 jogadores, 2 mãos, lugares normal,facil"
    assert lines[1].split() == ["formação", "mãos", "vitórias", "empates", "%", "vitórias",
                                "IC", "95%", "(Wilson)", "média"]
    assert lines[2].split()[:2] == ["normal", "2"] and lines[3].split()[:2] == ["facil", "2"]
    assert out.err == ""  # no progress frames when stderr is not a terminal
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert selfplay_main(["--variant", "biriba", "--players", "2", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "buraco_morto, 2 players, 2 deals, seats normal,facil"
    assert lines[1].split() == ["lineup", "deals", "wins", "ties", "win", "rate", "95%", "CI",
                                "(Wilson)", "avg", "score"]


def test_selfplay_progress_frames_go_only_to_a_terminal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.ai import selfplay

    monkeypatch.delenv("LANG", raising=False)
    selfplay._progress(1, 2)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    selfplay._progress(2, 2)
    assert capsys.readouterr().err == "\r[##############################] 2/2 mãos\n"


def test_selfplay_variant_takes_options_as_novojogo_does() -> None:
    from engine.ai.selfplay import variant_rules

    rules = variant_rules("biriba target=3000 jokers=true")
    assert (rules.preset, rules.target, rules.jokers) == ("buraco_morto", 3000, True)


def test_selfplay_same_level_sides_are_told_apart() -> None:
    from engine.ai.selfplay import side_labels

    assert side_labels(BURACO, ["normal", "normal"]) == ["normal (side 0)", "normal (side 1)"]
    assert side_labels(BURACO, ["normal", "facil", "dificil", "facil"]) == [
        "dificil+normal", "facil"]


def test_selfplay_cli_refuses_bad_input(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert selfplay_main(["--seats", "normal,genius"]) == 2
    assert "nível de robô desconhecido: 'genius'" in capsys.readouterr().err
    assert selfplay_main(["--variant", "poker"]) == 2
    assert "variante desconhecida" in capsys.readouterr().err
    assert selfplay_main(["--variant", "altaneira", "--players", "2"]) == 2
    assert "altaneira aceita 4 jogadores" in capsys.readouterr().err
    for budget in ("-1", "0", "61"):
        assert selfplay_main(["--seats", "dificil,normal", "--budget", budget]) == 2
        assert capsys.readouterr().err == (
            "--budget são segundos por jogada do dificil: mais de 0 e no máximo 60\n")
    assert selfplay_main(["--jobs", "0"]) == 2
    assert capsys.readouterr().err == "--jobs precisa ser pelo menos 1\n"
    assert selfplay_main(["--variant", "buraco target"]) == 2
    assert capsys.readouterr().err == "opção sem valor: 'target' (use chave=valor)\n"
    assert selfplay_main(["--variant", "buraco colour=red"]) == 2
    assert "opção desconhecida ou fixa nesta variante: 'colour'" in capsys.readouterr().err
    assert selfplay_main(["--players", "0"]) == 2
    assert "buraco aceita 2, 3, 4 ou 6 jogadores, não 0" in capsys.readouterr().err
    assert selfplay_main(["--players", "3", "--mirror"]) == 2
    assert capsys.readouterr().err == (
        "--mirror troca as formações de dois lados; esta mesa tem 3\n")


def test_dificil_keeps_normals_move_unless_an_alternative_clearly_wins() -> None:
    from engine.ai.dificil import pick

    assert pick([[], [0.2, 0.2, 0.2], [0.5, -0.5, 0.5, -0.5]]) == 1  # paired gain, no noise
    assert pick([[], [0.9, -0.8, 0.7, -0.9]]) == 0  # noise around zero
    assert pick([[], [-0.1, -0.2]]) == 0
    assert pick([[], [0.3, 0.1], [0.6, 0.4]]) == 2  # the bigger clear gain


def test_keep_value_pulls_toward_a_special_canastra_rules_a12() -> None:
    # Altaneira (RULES A12): a clean 5..K of hearts may still become an Altaneira (A..K,
    # 500) or a Real (A..A, 1,000), so its 4 is worth more than the 4 that extends a
    # plain three-card spade run (40 for fitting + 8 per card beyond five, -0.3 x 10 pts).
    alta = make_rules("altaneira")
    hearts = make_meld(parse_cards("5h 6h 7h 8h 9h 10h Jh Qh Kh"), alta)
    spades = make_meld(parse_cards("5s 6s 7s"), alta)
    hand = parse_cards("4h 4s")
    assert special_reach(hearts, alta) == 4 and special_reach(spades, alta) == 0
    assert keep_value(hand[0], hand, [hearts, spades], alta, 0) == 40 + 8 * 4 - 3
    assert keep_value(hand[1], hand, [hearts, spades], alta, 0) == 40 - 3


def test_special_reach_only_where_the_preset_has_one() -> None:
    # Black altaneira suits can form neither special canastra (A12: their 3 never melds);
    # buraco has none (C7); a dirty run never becomes clean by growing (C6).
    alta = make_rules("altaneira")
    clubs = make_meld(parse_cards("5c 6c 7c 8c 9c 10c Jc Qc Kc"), alta)
    assert special_reach(clubs, alta) == 0
    run = parse_cards("5h 6h 7h 8h 9h 10h Jh Qh Kh")
    assert special_reach(make_meld(run, BURACO), BURACO) == 0
    assert special_reach(make_meld(run, make_rules("justificado")), make_rules("justificado")) == 4
    dirty = make_meld(parse_cards("5h 6h 7h 8h 2c 10h Jh Qh Kh"), alta)
    assert special_reach(dirty, alta) == 0


def test_expected_lead_is_the_exact_lead_of_a_finished_deal_rules_c14() -> None:
    from engine import DealState, score_deal
    from engine.ai.evaluate import expected_lead

    state = DealState.from_json(make_rules("buraco_morto"), {
        "phase": "over", "turn": 0, "went_out": 0, "pile": [], "stock": ["Ad"],
        "hands": [[], ["5c", "Kd"]],
        "melds": [[["5h", "6h", "7h", "8h", "9h", "10h", "Jh"]], [["4c", "5c", "6c"]]],
        "mortos": [[], []], "morto_taken": [True, True],
    })
    # side 0: 55 melded + limpa 200 + batida 50 = 305; side 1: 15 melded - 15 in hand = 0
    assert score_deal(state).totals == [305, 0]
    assert expected_lead(state, 0) == 305 and expected_lead(state, 1) == -305


def test_evaluation_features_mirror_between_the_two_sides() -> None:
    from engine import DealState
    from engine.ai.evaluate import FEATURES, features

    state = DealState.from_json(make_rules("buraco_morto"), {
        "phase": "draw", "turn": 0, "pile": ["Kc", "Qc"], "stock": ["Ad"] * 2,
        "hands": [["5c", "2d", "9s"], ["Kd"]],
        "melds": [[["5h", "6h", "7h", "8h", "9h"]], [["4c", "5c", "6c"]]],
    })
    mine, theirs = features(state, 0), features(state, 1)
    assert len(mine) == len(FEATURES)
    named = dict(zip(FEATURES, mine, strict=True))
    # both mortos taken (the position omits them); melded 35 vs 15, hands 25 vs 10 points
    assert named["score"] == (35 - 25) - (15 - 10)
    assert named["hand_n"] == 2 and named["near"] == 1 and named["wilds"] == 1
    assert named["hand_pts_u"] == (25 - 10) * 2 / 60  # stage: 2 cards left to draw of 60
    assert named["pile"] == 2 and named["bias"] == 1
    assert all(a == -b for n, a, b in zip(FEATURES, mine, theirs, strict=True)
               if n not in ("bias", "pile"))


def test_dificil_stops_sampling_an_alternative_that_clearly_trails() -> None:
    from engine.ai.dificil import clearly_worse

    assert not clearly_worse([-0.5] * 5)  # too few samples to judge
    assert clearly_worse([-0.5, -0.4, -0.6, -0.5, -0.45, -0.55])  # far behind, little noise
    assert not clearly_worse([-0.5, 0.4, -0.6, 0.5, -0.45, 0.55])  # noise around zero
    assert not clearly_worse([0.1] * 8)


def test_weights_change_what_normal_judges() -> None:
    # engine.ai.weights: the same keep value as above with other weights (fit 10, 2 per
    # card beyond five of a clean hearts run on its way to an Altaneira, no point term),
    # and the danger of the queen next to the taken Jh without the open-pile term.
    alta = make_rules("altaneira")
    hearts = make_meld(parse_cards("5h 6h 7h 8h 9h 10h Jh Qh Kh"), alta)
    hand = parse_cards("4h 4s")
    w = Weights(keep_fit=10.0, special_pull=2.0, keep_points=0.0, danger_open_pile=0.0)
    assert keep_value(hand[0], hand, [hearts], alta, 0, w) == 10 + 2 * 4
    table = Table(opp_melds=(), opp_taken=tuple(parse_cards("Jh")), pile_size=4, pile_open=True,
                  next_hand=9)
    assert danger(Card.parse("Qh"), table, BURACO, w) == 8.0
    assert tuned("buraco") is NORMAL == Weights()
    assert tuned("buraco_morto") is TUNED["buraco_morto"] != NORMAL


def test_plan_laydown_hands_out_a_fresh_copy_of_a_memoized_plan() -> None:
    # The planning is memoized; a caller changing its plan must not change the next one.
    hand = parse_cards("4s 5s 6s 9h")
    first = plan_laydown(hand, [], BURACO)
    assert [codes(m.cards) for m in first.new] == [["4s", "5s", "6s"]]
    assert codes(first.left) == ["9h"]
    first.left.clear()
    first.new.clear()
    again = plan_laydown(hand, [], BURACO)
    assert [codes(m.cards) for m in again.new] == [["4s", "5s", "6s"]]
    assert codes(again.left) == ["9h"]


def test_play_deal_seats_a_player_of_the_callers_own() -> None:
    # selfplay.play_deal(players=...): bench/tune_weights.py seats normal with other weights.
    seen_seats: list[int] = []

    def mine(view: SeatView, rng: random.Random) -> Action:
        seen_seats.append(view.seat)
        return normal.choose(view, rng)

    deck = full_deck()
    random.Random(3).shuffle(deck)
    out = play_deal(BURACO, ["mine", "normal"], 0, deck, rng=random.Random(3),
                    players={"mine": mine})
    assert out.labels == ["mine", "normal"]
    assert seen_seats and set(seen_seats) == {0}
    same = play_deal(BURACO, ["normal", "normal"], 0, deck, rng=random.Random(3))
    assert out.totals == same.totals  # the same player under another name plays the same
