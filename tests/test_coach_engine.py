"""The coach's thinking (issue 37, engine/ai/coach.py): the hint reads the seat's view
and nothing else, a weak robot that follows it wins more, and a review names a seat's
costliest decisions of a finished deal."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from engine.actions import Action
from engine.ai import coach, dificil
from engine.ai.selfplay import play_deal
from engine.cards import Card, full_deck
from engine.deal import apply
from engine.match import Match
from engine.rules import make_rules
from engine.state import DealState, deal_cards
from engine.view import view_for


def _deck(seed: int, jokers: bool) -> list[Card]:
    deck = full_deck(jokers)
    random.Random(seed).shuffle(deck)
    return deck


def _played(preset: str, seed: int, actions: int) -> DealState:
    """A deal of two ``normal`` robots, ``actions`` moves in, from a seeded deck."""
    rules = make_rules(preset)
    state = deal_cards(rules, 2, _deck(seed, rules.jokers))
    rng = random.Random(seed)
    from engine.ai import choose

    for _ in range(actions):
        apply(state, choose(view_for(state, state.turn), "normal", None, rng))
    return state


def _swap_hidden(state: DealState, seat: int) -> DealState:
    """The same deal with two cards ``seat`` cannot see traded: one of the other hand's
    for a different one of the stock."""
    other = 1 - seat
    twin = state.clone()
    hand, stock = twin.hands[other], twin.stock
    i = next(i for i, c in enumerate(hand) if any(s != c for s in stock))
    j = next(j for j, s in enumerate(stock) if s != hand[i])
    hand[i], stock[j] = stock[j], hand[i]
    return twin


@pytest.mark.parametrize("preset,actions", [("buraco", 6), ("bossa_nova", 9), ("tranca", 11)])
def test_two_deals_that_differ_only_in_hidden_cards_give_the_same_hint(
        preset: str, actions: int) -> None:
    state = _played(preset, 5, actions)
    seat = state.turn
    twin = _swap_hidden(state, seat)
    assert sorted(c.index for c in twin.hands[1 - seat]) != sorted(
        c.index for c in state.hands[1 - seat])  # the deals do differ
    first = coach.hint(view_for(state, seat), samples=6)
    second = coach.hint(view_for(twin, seat), samples=6)
    assert (first.action, first.why, first.params) == (second.action, second.why,
                                                       second.params)
    assert first.why in coach.REASONS


def test_a_hint_is_the_same_search_however_busy_the_machine(monkeypatch: Any) -> None:
    """A fixed amount of search, never cut by the clock: with every reading of the clock
    10 s after the last (a machine so busy that any time budget would stop at
    ``dificil``'s first two samples), the hint plays the same rollouts and is the same."""
    state = _played("bossa_nova", 5, 9)
    view = view_for(state, state.turn)
    played = dificil.ROLLOUTS_PLAYED
    before = played[0]
    quiet = coach.hint(view)
    quiet_rollouts = played[0] - before
    now = [time.perf_counter()]

    def busy() -> float:
        now[0] += 10.0
        return now[0]

    monkeypatch.setattr(time, "perf_counter", busy)
    before = played[0]
    assert coach.hint(view) == quiet
    assert played[0] - before == quiet_rollouts
    assert quiet_rollouts > 4 * dificil.MIN_SAMPLES  # more than two samples' worth


def test_the_hint_takes_a_view_never_the_deal() -> None:
    state = _played("buraco", 3, 2)
    with pytest.raises(TypeError):
        coach.hint(state)  # type: ignore[arg-type]


def test_out_of_turn_there_is_no_hint() -> None:
    state = _played("buraco", 3, 2)
    with pytest.raises(Exception, match="vez"):
        coach.hint(view_for(state, 1 - state.turn))


def test_the_reasons_name_the_move_s_features() -> None:
    state = _played("buraco", 11, 4)
    view = view_for(state, state.turn)
    if view.phase == "draw":
        assert coach.explain(view, Action.draw(view.seat))[0] in ("draw", "draw_only")
    card = view.hand[0]
    why, params = coach.explain(view, Action.discard(view.seat, card))
    assert why in ("safe", "least_risk") and params == {"card": card.code}


def test_a_meld_that_empties_the_hand_is_going_out() -> None:
    state = _played("buraco", 11, 4)
    view = view_for(state, state.turn)
    every = Action.lay_down(view.seat, [view.hand])
    assert coach.explain(view, every) == ("out", {"n": len(view.hand)})


def _fisher_one_sided(a: int, b: int, n: int) -> float:
    """P(X >= a) for the wins of the first of two groups of ``n`` deals each, ``a + b``
    wins in all (Fisher's exact test, hypergeometric)."""
    total = a + b
    return sum(math.comb(n, k) * math.comb(n, total - k) for k in range(a, min(n, total) + 1)
               ) / math.comb(2 * n, total)


def test_a_weak_robot_following_the_hints_wins_more_mirrored_deals() -> None:
    """``facil`` against ``normal`` on buraco, 12 decks each played twice with the seats
    swapped (24 deals), once playing its own moves and once the hint's (a small search:
    two sampled deals per hint). Seeded: the same deals every run (about 15 s)."""
    rules = make_rules("buraco")
    players = {"coached": lambda view, rng: coach.hint(view, samples=2).action}
    wins = {"coached": 0, "facil": 0}
    for d in range(12):
        deck = _deck(d, rules.jokers)
        for me in wins:
            for lineup in ([me, "normal"], ["normal", me]):
                out = play_deal(rules, lineup, 0, deck, None, random.Random(d), players=players)
                side = lineup.index(me)
                wins[me] += out.totals[side] > out.totals[1 - side]
    assert wins["coached"] > wins["facil"]
    assert _fisher_one_sided(wins["coached"], wins["facil"], 24) < 0.05, wins


def _finished_deal(seed: int) -> tuple[Match, dict[str, object]]:
    rules = make_rules("buraco")
    match = Match.new(rules, ["Ana", "Robô"])
    match.start_deal(_deck(seed, rules.jokers))
    rng = random.Random(seed)
    from engine.ai import choose

    while not match.deal_state.over:
        st = match.deal_state
        match.act(choose(view_for(st, st.turn), "facil" if st.turn == 0 else "normal",
                         None, rng))
    return match, match.logs[-1].to_json()


def test_a_review_names_at_most_three_decisions_costliest_first() -> None:
    match, deal = _finished_deal(4)
    costs = coach.review(match.rules, 2, deal, 0, budget_s=600, samples=(2, 2))
    assert 1 <= len(costs) <= 3
    points = [c.points for c in costs]
    assert points == sorted(points, reverse=True) and min(points) >= coach.MIN_COST
    actions = deal["actions"]
    assert isinstance(actions, list)
    for c in costs:
        assert actions[c.index] == c.played.to_json()  # the person's own move, as recorded
        assert c.played.seat == 0 and c.better != c.played and c.why in coach.REASONS
    again = coach.review(match.rules, 2, deal, 0, budget_s=600, samples=(2, 2))
    assert [(c.index, c.points) for c in again] == [(c.index, c.points) for c in costs]


def test_a_seventh_card_closes_a_canastra_and_a_discard_that_feeds_a_meld_is_no_safe_one(
) -> None:
    from engine.melds import make_meld

    state = _played("buraco", 11, 4)
    seat = state.turn
    side, other = state.side_of[seat], 1 - state.side_of[seat]
    run = [Card.parse(c) for c in ("4h", "5h", "6h", "7h", "8h", "9h")]
    state.melds[side] = [make_meld(run, state.rules)]
    state.melds[other] = [make_meld([Card.parse(c) for c in ("5s", "6s", "7s")], state.rules)]
    view = view_for(state, seat)
    assert coach.explain(view, Action.extend(seat, 0, [Card.parse("10h")])) == (
        "canastra", {"n": 1})
    assert coach.explain(view, Action.discard(seat, Card.parse("8s"))) == (
        "least_risk", {"card": "8s"})  # it extends the other side's 5♠ 6♠ 7♠
    assert coach.explain(view, Action.discard(seat, Card.parse("Kd"))) == (
        "safe", {"card": "Kd"})
