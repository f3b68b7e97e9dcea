"""Self-play's sequential test (``--sprt``) and ``dificil``'s search knobs (``--tune``)
(issue 37: claims of ``dificil``'s strength by SPRT or >= 400 mirrored deals)."""

from __future__ import annotations

import math

import pytest

from engine import make_rules
from engine.ai import dificil
from engine.ai.selfplay import DealOutcome, Summary, run
from engine.ai.selfplay import main as selfplay_main
from engine.ai.stats import SPRT_BOUND, sprt_llr, sprt_verdict


def test_sprt_llr_is_the_normal_approximation_over_pair_scores() -> None:
    scores = [1.0, 0.5, 1.0, 0.5]  # mean 0.75, variance 0.0625
    # n (p1 - p0) (2 m - p0 - p1) / (2 v) = 4 * 0.1 * (1.5 - 1.4) / 0.125
    assert sprt_llr(scores, 0.65, 0.75) == pytest.approx(0.32)
    assert sprt_llr(scores, 0.75, 0.85) == pytest.approx(-0.32)
    assert sprt_llr([1.0], 0.65, 0.75) == 0.0
    assert pytest.approx(math.log(19)) == SPRT_BOUND


def test_sprt_verdict_waits_for_thirty_scores_then_decides_each_way() -> None:
    strong = [1.0, 0.5] * 15  # mean 0.75, variance 0.0625: llr 30 * 0.05 * 0.15 / 0.125
    assert sprt_llr(strong, 0.65, 0.7) == pytest.approx(1.8)
    assert sprt_verdict(strong, 0.65, 0.7) is None  # under 2.944
    assert sprt_verdict(strong, 0.6, 0.8) == "H1"  # 30 * 0.2 * 0.1 / 0.125 = 4.8
    assert sprt_verdict(strong, 0.8, 0.95) == "H0"
    assert sprt_verdict([1.0, 0.5] * 14 + [1.0], 0.5, 0.6) is None  # 29: too few


def test_a_deck_scores_the_share_of_its_deals_each_lineup_won() -> None:
    s = Summary()
    s.add_deck([DealOutcome([100, 50], ["dificil", "normal"], 10, 20),
                DealOutcome([30, 30], ["normal", "dificil"], 10, 20)])
    s.add_deck([DealOutcome([10, 50], ["dificil", "normal"], 10, 20),
                DealOutcome([0, 50], ["normal", "dificil"], 10, 20)])
    assert s.decks == {"dificil": [0.75, 0.5], "normal": [0.25, 0.5]}
    assert (s.sides["dificil"].wins, s.sides["dificil"].ties) == (2, 1)


def test_selfplay_with_sprt_stops_once_the_test_decides() -> None:
    # normal beats facil in nearly every deal: H1 (rate near 0.4 rather than 0.3) is
    # accepted long before the 400 deals the run may play.
    summary = run(make_rules("buraco"), 2, ["normal", "facil"], 400, mirror=True,
                  sprt=(0.3, 0.4))
    scores = summary.decks["normal"]
    assert summary.sprt == ("normal", 0.3, 0.4)
    assert sprt_verdict(scores, 0.3, 0.4) == "H1"
    assert sprt_verdict(scores[:-1], 0.3, 0.4) is None  # it stopped at the first verdict
    assert summary.sides["normal"].deals == 2 * len(scores) < 400


def test_parse_tuning_changes_only_the_named_knobs() -> None:
    t = dificil.parse_tuning("confidence=0.5, rounds=3 scale=2")
    assert t == dificil.Tuning(confidence=0.5, margin=dificil.MARGIN,
                               discards=dificil.DISCARDS, rounds=3, scale=2.0)
    assert dificil.parse_tuning("") == dificil.DEFAULT_TUNING
    for bad in ("depth=3", "rounds", "rounds=1.5", "discards=-1", "scale=0", "margin=nan"):
        with pytest.raises(ValueError):
            dificil.parse_tuning(bad)


def test_pick_follows_the_tuned_confidence() -> None:
    noisy = [[], [0.9, -0.8, 0.7, -0.7]]  # mean 0.025, one standard error 0.43
    assert dificil.pick(noisy) == 0
    dificil.TUNING[0] = dificil.parse_tuning("confidence=0")
    try:
        assert dificil.pick(noisy) == 1  # any gain on average
        dificil.TUNING[0] = dificil.parse_tuning("confidence=0,margin=0.05")
        assert dificil.pick(noisy) == 0  # but not by the margin
    finally:
        dificil.TUNING[0] = dificil.DEFAULT_TUNING


def test_selfplay_tune_and_sprt_refuse_what_they_cannot_read(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay_main(["--tune", "depth=3"]) == 2
    assert capsys.readouterr().err == (
        "--tune não entendido: 'depth=3' (use confidence, margin, discards, rounds ou scale "
        "= número)\n")
    for bad in ("0.7", "0.75,0.65", "0,0.5", "a,b"):
        assert selfplay_main(["--sprt", bad]) == 2
        assert capsys.readouterr().err == (
            "--sprt são duas taxas P0,P1 com 0 < P0 < P1 < 1, ex.: 0.65,0.75\n")


def test_selfplay_prints_the_sprt_line_and_restores_the_tuning(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert selfplay_main(["--seats", "normal,facil", "--mirror", "--games", "400",
                          "--sprt", "0.3,0.4", "--tune", "rounds=1"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("SPRT normal P0=0.30 P1=0.40: LLR ")
    assert last.endswith("(bounds ±2.94) after " + last.split("after ")[1].split()[0]
                         + " decks: accepts H1 (rate near P1)")
    assert dificil.TUNING[0] is dificil.DEFAULT_TUNING


def test_a_move_refused_from_the_ai_and_facil_is_replaced_by_a_random_legal_one() -> None:
    # bossa_nova, four players, deck seed 88: normal with buraco_morto's tuned weights
    # plans an extension that needs the run's wild to move (6c 7c 8c 2c + 3c 4c 5c 9c
    # 10c Qc: "falta o J♣"), and facil plans the same; the deal used to end in
    # RuntimeError. Now a random legal action replaces it and the deal ends.
    import random as _random

    from engine.ai import normal
    from engine.ai.selfplay import play_deal
    from engine.ai.weights import TUNED
    from engine.cards import full_deck

    rules = make_rules("bossa_nova")
    deck = full_deck(rules.jokers)
    _random.Random(88).shuffle(deck)
    w = TUNED["buraco_morto"]
    out = play_deal(rules, ["normal", "tuned"] * 2, 0, deck, rng=_random.Random(88),
                    players={"tuned": lambda view, rng: normal.choose(view, rng, w)})
    assert out.fallbacks == 2  # the same plan came back on a later turn
    assert out.actions > 50 and len(out.totals) == 2


def test_tuned_weights_depend_on_the_preset_and_the_table_size() -> None:
    from engine.ai.weights import NORMAL, TUNED, TUNED_AT, tuned

    assert tuned("justificado") is TUNED["tranca"] is tuned("tranca", 2)
    assert tuned("bossa_nova", 4) is TUNED["buraco_morto"] is TUNED_AT[("bossa_nova", 4)]
    assert tuned("bossa_nova", 2) is NORMAL is tuned("bossa_nova")
    assert tuned("buraco_morto", 4) is TUNED["buraco_morto"]  # no size-specific entry
    assert tuned("buraco", 4) is NORMAL


def test_the_leaf_evaluation_uses_the_fit_for_the_table_size() -> None:
    from engine import DealState
    from engine.ai.evaluate import WEIGHTS, WEIGHTS_AT, expected_lead, features

    rules = make_rules("bossa_nova")
    position = {"phase": "draw", "turn": 0, "pile": ["Kc", "Qc"], "stock": ["Ad"] * 2,
                "melds": [[["5h", "6h", "7h", "8h", "9h"]], [["4c", "5c", "6c"]]]}
    four = DealState.from_json(rules, {**position, "hands": [["5c", "2d"], ["Kd"], ["9s"],
                                                             ["Qd"]]})
    two = DealState.from_json(rules, {**position, "hands": [["5c", "2d", "9s"], ["Kd", "Qd"]]})
    for state, weights in ((four, WEIGHTS_AT[("bossa_nova", 4)]), (two, WEIGHTS["bossa_nova"])):
        x = features(state, 0)
        assert expected_lead(state, 0) == pytest.approx(sum(
            w * v for w, v in zip(weights, x, strict=True)))
    assert WEIGHTS_AT[("bossa_nova", 4)] != WEIGHTS["bossa_nova"]
