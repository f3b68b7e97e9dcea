"""The coach's defects a fresh tester found (issue 37): the review charged a move the
hint itself recommended; the take-the-pile reason said the top "entra no seu jogo"
whether or not it did; a ``discard`` hint had no why; a reason nested brackets."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import coach as words
from bot.i18n import Translator
from engine.actions import Action
from engine.ai import choose, coach
from engine.cards import Card, full_deck
from engine.deal import apply
from engine.melds import make_meld
from engine.rules import make_rules
from engine.state import DealState, deal_cards
from engine.view import view_for

SEED, ACTIONS = 1, 14
"""A seeded buraco deal whose first 14 moves include two discards where seat 0's hint
is not ``normal``'s first choice (moves 6 and 11), so the review costs them."""


def _hinted_record(deviate_at: int | None = None) -> tuple[dict[str, Any], list[Action]]:
    """The first :data:`ACTIONS` moves of deal :data:`SEED`: seat 0 plays each hint,
    seat 1 ``normal``; with ``deviate_at``, seat 0's discard at that move is another
    card than the hint's and the record ends there. Returns the record and the hints."""
    rules = make_rules("buraco")
    deck = full_deck(rules.jokers)
    random.Random(SEED).shuffle(deck)
    state = deal_cards(rules, 2, deck)
    rng = random.Random(SEED)
    actions: list[Action] = []
    hints: list[Action] = []
    for index in range(ACTIONS):
        view = view_for(state, state.turn)
        if state.turn == 0:
            action = coach.hint(view).action
            hints.append(action)
            if index == deviate_at:
                assert action.do == "discard"
                action = Action.discard(0, next(c for c in view.hand if c != action.card))
        else:
            action = choose(view, "normal", None, rng)
        apply(state, action)
        actions.append(action)
        if index == deviate_at:
            break
    record = {"deck": [c.code for c in deck], "first": 0,
              "actions": [a.to_json() for a in actions]}
    return record, hints


def _always_costly(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make every costed decision cost 140 points against a redraw (as the tester's
    review said of the hinted 4♥); returns the list the costed decisions' turns go to."""
    costed: list[int] = []

    def cost(view: Any, played: Action, rng: random.Random, deadline: float | None = None,
             samples: tuple[int, int] = (2, 2)) -> tuple[Action, float]:
        costed.append(view.turn_count)
        return Action.redraw(view.seat), 140.0

    monkeypatch.setattr(coach, "decision_cost", cost)
    return costed


def test_a_review_never_charges_the_moves_the_hint_recommended(
        monkeypatch: pytest.MonkeyPatch) -> None:
    record, hints = _hinted_record()
    costed = _always_costly(monkeypatch)
    costs = coach.review(make_rules("buraco"), 2, record, 0, budget_s=600)
    assert len(costed) >= 2  # the two discards that are not normal's first choice
    assert costs == []
    assert [Action.from_json(a) for a in record["actions"] if a["seat"] == 0] == hints


def test_a_review_still_charges_a_move_that_is_not_the_hint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    record, _ = _hinted_record(deviate_at=11)
    _always_costly(monkeypatch)
    costs = coach.review(make_rules("buraco"), 2, record, 0, budget_s=600)
    assert [(c.index, c.points, c.better.do) for c in costs] == [(11, 140.0, "redraw")]


def _table(hand: list[str], own: list[str] | None, top: str) -> DealState:
    """A two-seat buraco deal at seat 0's draw with ``hand``, ``own`` (a meld of seat
    0's side, or none) and ``top`` on a pile of 5 cards."""
    rules = make_rules("buraco")
    deck = full_deck(rules.jokers)
    random.Random(3).shuffle(deck)
    state = deal_cards(rules, 2, deck)
    state.hands[0] = [Card.parse(c) for c in hand]
    state.melds[0] = [make_meld([Card.parse(c) for c in own], rules)] if own else []
    state.melds[1] = []
    state.pile = [Card.parse(c) for c in ("Kc", "Jd", "4s", "9c", top)]
    return state


PLAIN = ["Kd", "4c", "9s", "Qs", "5d", "6c", "Jh"]


@pytest.mark.parametrize("hand,own,why", [
    (PLAIN, ["4h", "5h", "6h"], "take_pile"),  # 7♥ extends the side's 4♥ 5♥ 6♥
    ([*PLAIN, "8h", "9h"], None, "take_pile_hand"),  # 7♥ 8♥ 9♥ with the hand's cards
    (PLAIN, None, "take_pile_size"),  # 7♥ fits nothing: only the pile's size to say
    (PLAIN, ["4s", "5s", "6s"], "take_pile_size"),  # a meld of the side, not the 7♥'s
])
def test_the_pile_s_top_is_said_to_fit_only_where_it_does(
        hand: list[str], own: list[str] | None, why: str) -> None:
    state = _table(hand, own, "7h")
    view = view_for(state, 0)
    assert coach.explain(view, Action.take_pile(0)) == (why, {"n": 5, "card": "7h"})


def test_the_take_the_pile_reasons_in_words() -> None:
    hand = {"n": 5, "card": "7h"}
    assert [words.reason_text(w, hand, Translator(lang))
            for w in ("take_pile", "take_pile_hand", "take_pile_size")
            for lang in ("pt", "en", "it")] == [
        "são 5 cartas e o 7♥ entra no seu jogo",
        "5 cards, and the 7♥ fits your melds",
        "sono 5 carte e il 7♥ entra nei tuoi giochi",
        "são 5 cartas e o 7♥ forma um jogo com cartas da sua mão",
        "5 cards, and the 7♥ makes a meld with cards in your hand",
        "sono 5 carte e il 7♥ forma un gioco con carte della tua mano",
        "o lixo tem 5 cartas",
        "the discard pile has 5 cards",
        "gli scarti hanno 5 carte",
    ]


def test_a_discard_hint_says_why_in_every_language() -> None:
    hint = coach.Hint(Action.discard(0, Card.parse("6c")), "discard", {"card": "6c"})
    assert [words.hint_line(hint, Translator(lang)) for lang in ("pt", "en", "it")] == [
        "Dica: Descarte o 6♣ (das cartas que menos falta fazem à sua mão, foi a que "
        "melhor se saiu nas simulações do robô).",
        "Hint: Discard the 6♣ (of the cards your hand needs least, it did best in the "
        "robot's trials).",
        "Suggerimento: Scarta il 6♣ (tra le carte che servono meno alla tua mano, è quella "
        "andata meglio nelle simulazioni del robot).",
    ]


def test_the_draw_reason_nests_no_brackets() -> None:
    hint = coach.Hint(Action.draw(0), "draw", {"n": 4})
    lines = [words.hint_line(hint, Translator(lang)) for lang in ("pt", "en", "it")]
    assert lines == [
        "Dica: Compre do monte (o lixo, com 4 cartas, não compensa agora).",
        "Hint: Draw from the stock (the discard pile, with 4 cards, is not worth it now).",
        "Suggerimento: Pesca dal tallone (gli scarti, con 4 carte, ora non convengono).",
    ]
    assert all(line.count("(") == 1 for line in lines)
