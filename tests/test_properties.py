"""Property tests over random legal games (issue 2 "Done when", DESIGN example 9).

For every preset and player count, hypothesis chooses the deck order and the random
player's choices; after every action we check that no card appears or vanishes,
every meld on the table is legal and keeps the places of its laid cards (RULES C9, C10:
only a wild moves, C4), and the phases follow the turn order (RULES C11);
at the end the game's record replays to the same final state.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, DealState, Match, Meld, make_meld, make_rules
from engine.cards import full_deck
from engine.melds import meld_from_table
from engine.record import replay
from engine.rules import PRESETS
from engine.simulate import random_action
from engine.state import DRAW, OVER, PLAY

COMBOS = [(p, n) for p, r in PRESETS.items() for n in r.players_allowed]
GAMES_PER_COMBO = int(os.environ.get("PROPERTY_GAMES", "130"))  # 15 combos -> 1,950 games


def _check_melds(state: DealState, before: list[list[Meld]]) -> None:
    for side, melds in enumerate(state.melds):
        for i, meld in enumerate(melds):
            make_meld(list(meld.cards), state.rules)  # its cards form a legal meld (C9)
            # the table order is the layout and reads back as laid (C10)
            assert meld_from_table(list(meld.cards), state.rules) == meld
            if i < len(before[side]) and meld.kind == "run":
                _check_kept(before[side][i], meld)


def _check_kept(old: Meld, new: Meld) -> None:
    """RULES C10: every laid card but the wild keeps its slot (and a natural 2 stays)."""
    for k, card in enumerate(old.cards):
        if k != old.wild_at:
            slot = old.low + k
            assert new.cards[slot - new.low] is card and new.wild_slot != slot


def _check_phase(before: tuple[int, str], action: Action, state: DealState) -> None:
    seat, phase = before
    if state.phase == OVER:
        return
    if action.do in ("draw", "take_pile"):
        assert phase == DRAW and state.turn == seat and state.phase == PLAY
    elif action.do == "discard":
        assert phase == PLAY
        assert state.turn == (seat + 1) % state.n_players and state.phase == DRAW
    else:
        assert phase == PLAY and state.turn == seat and state.phase == PLAY


@pytest.mark.parametrize(("preset", "players"), COMBOS)
@settings(max_examples=GAMES_PER_COMBO, deadline=None,
          suppress_health_check=[HealthCheck.too_slow], derandomize=False)
@given(data=st.data())
def test_random_games_conserve_cards_keep_melds_legal_follow_turns_and_replay(
    preset: str, players: int, data: st.DataObject
) -> None:
    rules = make_rules(preset)
    deck = data.draw(st.permutations(full_deck(rules.jokers)), label="deck")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    match = Match.new(rules, [f"p{i}" for i in range(players)])
    state = match.start_deal(deck=list(deck))
    everything = Counter(full_deck(rules.jokers))
    assert state.all_cards() == everything
    for _ in range(3000):
        if state.over:
            break
        action = random_action(state, rng)
        before = (state.turn, state.phase)
        melds_before = [list(side) for side in state.melds]
        match.act(action)
        assert state.all_cards() == everything  # no card appears or vanishes
        _check_melds(state, melds_before)
        _check_phase(before, action, state)
    assert state.over
    result = replay(match.record())
    assert result.ok and result.error is None
    assert result.state.to_json() == state.to_json()
    assert result.match_scores == match.scores
