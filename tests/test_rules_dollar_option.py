"""RULES A4 option ``dollar_per_canastra`` (seed 000 §5.3 "vale 100 para cada canastra
formada", read literally; docs/rules-decisions.md D22): off by default; when on, each
laid Dólar scores +100 per canastra of the side, −100 with none. Every card 10 (A8)."""

from __future__ import annotations

import pytest

from bot.i18n import Translator
from bot.info import rules_summary
from engine import IllegalAction, make_rules, score_deal
from engine.rules import options_of
from engine.state import DealState
from tests.tranca_support import act, position

CLEAN_7 = "4c 5c 6c 7c 8c 9c 10c"
DIRTY_7 = "4s 5s 6s 2h 8s 9s 10s"


def ended(rules_options: dict[str, object]) -> DealState:
    """A deal ended by stock exhaustion (no batida): side 0 has a limpa and a suja and
    two Dólares; side 1 no canastra and one Dólar."""
    state = position(
        make_rules("altaneira", rules_options),
        ["Kc Qd", "5h", "6h 7h", "9s"],
        melds=[[CLEAN_7, DIRTY_7], ["4d 5d 6d"]],
        laid_threes=[["3h", "3d"], ["3h"]],
        mortos=["", ""],
        morto_taken=[True, False],
        pile_reused=True,
        pile="Jc",
    )
    act(state, {"seat": 0, "do": "discard", "card": "Kc"})
    assert state.over and state.went_out == -1
    return state


def test_a4_option_is_off_by_default_flat_100_each() -> None:
    assert make_rules("altaneira").dollar_per_canastra is False
    score = score_deal(ended({}))
    # side 0: 14 melded = 140; limpa 200 + suja 100; 2 Dólares +200; hands Qd 6h 7h -30
    assert score.breakdown[0]["threes"] == 200
    assert score.totals[0] == 140 + 300 + 200 - 30
    # side 1: no canastra: melded -30 (seed 000 §9.5), Dólar -100, hands 5h 9s -20,
    # morto -100
    assert (score.breakdown[1]["threes"], score.totals[1]) == (-100, -30 - 100 - 20 - 100)


def test_a4_option_dollar_per_canastra_scores_100_per_canastra_each() -> None:
    score = score_deal(ended({"dollar_per_canastra": True}))
    # side 0: 2 Dólares x 2 canastras x 100 = 400: 140 + 300 + 400 - 30 = 810
    assert score.breakdown[0]["threes"] == 400
    assert score.totals[0] == 810
    # side 1 has no canastra: still -100 per Dólar: -250
    assert (score.breakdown[1]["threes"], score.totals[1]) == (-100, -250)


def test_a4_option_is_a_table_option_kept_in_records() -> None:
    rules = make_rules("altaneira", {"dollar_per_canastra": "true"})
    assert rules.dollar_per_canastra is True
    assert options_of(rules) == {"dollar_per_canastra": True}


@pytest.mark.parametrize("preset", ["buraco", "tranca", "justificado"])
def test_a4_option_is_refused_where_there_are_no_dollars(preset: str) -> None:
    with pytest.raises(IllegalAction) as err:
        make_rules(preset, {"dollar_per_canastra": True})
    assert (err.value.code, err.value.message) == (
        "bad_option",
        "opção inválida (dollar_per_canastra): só vale em variantes com Dólares",
    )


def test_a4_regras_shows_the_dollar_reading_of_altaneira() -> None:
    lines = rules_summary("altaneira", Translator("pt")).splitlines()
    assert lines[-2] == (  # the last line lists the table options
        "Dólar: +100 cada com canastra, −100 sem "
        "(opção dollar_per_canastra=true: +100 por canastra)"
    )
    english = rules_summary("altaneira", Translator("en")).splitlines()[-2]
    assert english == (
        "Dollar (red 3): +100 each with a canasta, −100 without "
        "(option dollar_per_canastra=true: +100 per canasta)"
    )
    tranca = rules_summary("tranca", Translator("pt")).splitlines()
    assert not any("Dólar" in line for line in tranca[:-1])  # the last: the options
