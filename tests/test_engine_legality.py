"""Differential legality test for the fast checks (issue 13; DESIGN example 2).

``verify`` once applied every action to a clone; it now checks a draw or a discard in
place. Over seeded random deals of every preset and player count, at every position
reached, each candidate action (legal or not: every card as a discard and as a red-3
lay, the draw, every pick-up, every extension, melds from the hand, other seats' moves)
must get the same answer (legal, or the same refusal code) from ``verify`` and from
``apply`` on a clone, the old definition; ``verify`` must leave the state as it was,
and a refused ``apply`` must leave its copy as it was (it checks everything first).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine import Action, DealState, apply, can, make_rules, verify
from engine.cards import full_deck
from engine.deal import new_deal
from engine.errors import IllegalAction
from engine.rules import PRESETS
from engine.simulate import random_action

COMBOS = [(p, n) for p, r in PRESETS.items() for n in sorted(r.players_allowed)]


def _candidates(state: DealState) -> list[Action]:
    seat = state.turn
    hand = state.hands[seat]
    melds = state.melds[state.side_of[seat]]
    out = [Action.draw(seat), Action.redraw(seat), Action.take_pile(seat),
           Action.draw((seat + 1) % state.n_players)]
    out += [Action.take_pile(seat, meld=i) for i in range(len(melds) + 1)]
    for card in dict.fromkeys(hand):
        out += [Action.discard(seat, card), Action.lay_three(seat, card)]
        out += [Action.extend(seat, i, [card]) for i in range(len(melds))]
    out += [Action.discard(seat, c) for c in full_deck(True)[:52:5]]  # many not in hand
    distinct = sorted(dict.fromkeys(hand))
    for trio in list(combinations(distinct, 3))[:15]:
        out.append(Action.lay_down(seat, [list(trio)]))
    if state.pile:
        out += [Action.take_pile(seat, with_=list(p)) for p in list(combinations(distinct, 2))[:10]]
    return out


def _old_answer(state: DealState, action: Action) -> str | None:
    copy = state.clone()
    before = copy.to_json()
    try:
        apply(copy, action)
    except IllegalAction as err:
        assert copy.to_json() == before, f"refused {action} changed the state"
        return err.code
    return None


def _new_answer(state: DealState, action: Action) -> str | None:
    try:
        verify(state, action)
    except IllegalAction as err:
        return err.code
    return None


@pytest.mark.parametrize(("preset", "players"), COMBOS)
def test_verify_answers_as_apply_on_a_clone_design_example_2(preset: str, players: int) -> None:
    """Every candidate at every position of a seeded deal: same answer, no change."""
    rules = make_rules(preset)
    rng = random.Random(f"{preset}-{players}")
    checked = legal = 0
    for _ in range(1):
        deck = full_deck(rules.jokers)
        rng.shuffle(deck)
        state = new_deal(rules, players, deck, reshuffle=list(range(len(deck))))
        while not state.over:
            snapshot = state.to_json()
            for action in _candidates(state):
                answer = _new_answer(state, action)
                assert answer == _old_answer(state, action), action
                assert can(state, action) == (answer is None)
                checked += 1
                legal += answer is None
            assert state.to_json() == snapshot
            apply(state, random_action(state, rng))
    assert checked > 500
    assert 0 < legal < checked


def test_refused_pile_dollar_lay_changes_nothing_rules_a4() -> None:
    """RULES A4 (altaneira): a Dólar that came with the pile is laid without a
    replacement; laying it would leave one card and the side may not go out (no
    canastra), so it is refused, and the record of pile Dólares keeps it."""
    rules = make_rules("altaneira")
    position = {
        "hands": [["3h", "Kc"], ["As", "Ad", "Ac"], ["9s", "9d", "9c"], ["8s", "8d", "8c"]],
        "melds": [[], []], "pile": ["9h"], "stock": ["7c", "6c", "5c"],
        "mortos": [[], ["Jd"]], "morto_taken": [True, False], "turn": 0, "phase": "play",
        "scores": [0, 0], "pile_dollars": [["3h"], [], [], []],
    }
    state = DealState.from_json(rules, position)
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        apply(state, Action.lay_three(0, state.hands[0][0]))
    assert refused.value.code == "need_canastra"
    assert state.to_json() == before
    assert [c.code for c in state.pile_dollars[0]] == ["3h"]
