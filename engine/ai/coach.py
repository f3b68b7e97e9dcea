"""The coach (issue 37): ``/dica``, the move the strong robot would make now and why,
and ``/revisao``, a person's costliest decisions of a finished deal.

Both read a seat's :class:`~engine.view.SeatView` and nothing else: the hint is
``dificil``'s choice (:func:`engine.ai.dificil.choose`, which samples the hidden cards
consistently with what the view shows, :mod:`engine.ai.determinize`) drawn with a
random generator seeded from the view itself (:func:`view_seed`) and a fixed number of
samples (:data:`HINT_SAMPLES`, never cut by the clock), so two deals that differ only
in cards the seat cannot see give the same hint, and pressing twice gives the same
answer, however busy the machine. The reason is a code with parameters
(:func:`explain`); the bot words it in the person's language (``bot/coach.py``).

A decision's cost (:func:`decision_cost`) is the robot's estimate, in deal points, of
how much worse the person's move left their side than the move the robot prefers
among its alternatives (``dificil``'s candidates plus the person's own), on the same
sampled deals and the same rollouts (``normal`` plays every seat for
:data:`engine.ai.dificil.ROUNDS` rounds, then :func:`engine.ai.evaluate.expected_lead`).
:func:`review` replays a finished deal's record and costs each move of one seat, made
from the view that seat had then, within a CPU budget (``bench/coach.py`` measures it),
and names its costliest *lessons*: repeats of one kind of decision are one
(:func:`lessons`).

A cost is a mean of paired differences of one deal's points (never summed over samples
or counted over the match), and can be thousands: a pile left to grow to 70-80 cards
is worth a going-out with several canastras to whoever takes it (about +1500 to the
taker, -1300 when the other side takes it next, on the real cards of such a deal:
tests/test_coach_words.py), although a deal where neither side took it ends near zero.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Final

from engine.actions import Action
from engine.ai import dificil, normal
from engine.ai.determinize import sample_state, unseen
from engine.ai.evaluate import expected_lead
from engine.ai.weights import NORMAL, tuned
from engine.cards import Card
from engine.deal import apply
from engine.errors import IllegalAction
from engine.melds import extends, make_meld
from engine.rules import Rules
from engine.state import DealState, deal_cards
from engine.view import SeatView, can_take_pile, rollout_view, view_for

HINT_SAMPLES: Final = 48
"""Sampled deals a hint plays: a fixed amount of search, never cut by the clock, so a
view gives the same hint on a quiet machine and a busy one (fewer only when
``dificil``'s racing has dropped every alternative, which depends on the samples
alone). About 0.05-0.25 s of CPU on average, 0.45 s at most, pure Python
(bench/coach.py, bench/README.md "The coach")."""
REVIEW_BUDGET_S: Final = 2.5
"""CPU seconds :func:`review` spends on one deal (issue 37: at most 3 s per deal)."""
REVIEW_MIN_SAMPLES: Final = 2
REVIEW_MAX_SAMPLES: Final = 12
COSTLIEST: Final = 3
CANASTRA: Final = 7
"""Cards of a canastra (RULES §2 "canastra"; ``Meld.is_canastra``)."""
MIN_COST: Final = 1.0
"""Points below which a decision is not named as a mistake (noise of the estimate)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The hint for a seat: ``action`` to play, and ``why`` a reason code (one of
    :data:`REASONS`) with ``params`` (card codes such as ``"10h"``, counts)."""

    action: Action
    why: str
    params: dict[str, Any] = field(default_factory=dict)


REASONS: Final = ("out", "canastra", "shed", "take_pile", "take_pile_hand", "take_pile_size",
                  "draw", "draw_only", "safe", "least_risk", "three", "redraw", "discard")
"""Reason codes of :func:`explain`: going out; closing a canastra; laying cards down;
taking the pile whose top extends a meld of the seat's side, or makes a new meld with
two hand cards, or neither (the pile's size alone); drawing rather than taking;
drawing (the only draw); a discard that no meld of another side on the table takes (and
no card it is known to hold matches); the least risky discard; laying a red 3 or a
Dólar; redrawing; a discard while no other side has a meld on the table (the seat sees
nothing to check it against: it is the card among those its hand needs least,
``dificil``'s candidates by :func:`engine.ai.danger.discard_scores`, that did best in
the rollouts)."""


def view_seed(view: SeatView) -> int:
    """A 64-bit seed made from what ``view`` shows and nothing else (its seat, hand,
    the table, the counts, the public pick-ups and the turn), so the same view always
    gives the same hint and a hidden card cannot change it."""
    def cards(cs: Sequence[Card]) -> str:
        return ",".join(c.code for c in cs)

    parts = [
        view.rules.preset, str(view.seat), str(view.turn), view.phase, str(view.turn_count),
        cards(view.hand), cards(view.pile), str(view.pile_size), str(view.stock_size),
        repr(view.hand_counts), repr(view.mortos_left), repr(view.morto_taken),
        repr(view.scores), str(view.killed_count), str(view.pending_morto),
        "|".join(";".join(cards(m.cards) for m in side) for side in view.melds),
        "|".join(cards(t) for t in view.laid_threes),
        "|".join(cards(t) for t in view.seen_taken),
        view.drawn.code if view.drawn else "", view.taken_top.code if view.taken_top else "",
        cards(view.drawn_more), str(view.can_redraw), str(view.pile_blocked),
        str(view.pile_reused), str(view.vuln_min), str(view.has_laid),
    ]
    digest = hashlib.sha256("\n".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hint(view: SeatView, samples: int = HINT_SAMPLES) -> Hint:
    """``dificil``'s move for ``view.seat`` now and the reason for it, from ``samples``
    sampled deals (:func:`engine.ai.dificil.choose` with no time limit).

    Reads only ``view`` (the seat's :func:`~engine.view.view_for`); deterministic for
    one view (the random generator is seeded from it and the search is a fixed amount
    of work, however long it takes). Raises ``TypeError`` for anything but a
    ``SeatView`` and ``IllegalAction("not_your_turn")`` when it is not this seat's
    turn."""
    if not isinstance(view, SeatView):
        raise TypeError(f"the coach takes a SeatView (view_for), not {type(view).__name__}")
    if not view.my_turn:
        raise IllegalAction("not_your_turn", "não é a vez deste assento")
    rng = random.Random(view_seed(view))
    action = dificil.choose(view, math.inf, rng, max_samples=samples)
    why, params = explain(view, action)
    return Hint(action, why, params)


def explain(view: SeatView, action: Action) -> tuple[str, dict[str, Any]]:
    """The reason code (:data:`REASONS`) and parameters for playing ``action`` in
    ``view``, from a few features: whether it empties the hand, closes a canastra, how
    many cards it lays; the pile's size; whether a discard fits another side's meld or
    a card it is known to hold."""
    if action.do == "draw":
        if can_take_pile(view):
            return "draw", {"n": view.pile_size}
        return "draw_only", {}
    if action.do == "take_pile":
        return _take_reason(view, action)
    if action.do == "redraw":
        return "redraw", {}
    if action.do == "lay_three":
        return "three", {"card": action.card.code if action.card else ""}
    if action.do in ("meld", "extend"):
        return _lay_reason(view, action)
    card = action.card
    if card is None:
        return "least_risk", {"card": ""}
    if _useful_to_others(view, card):
        return "least_risk", {"card": card.code}
    if not any(melds for side, melds in enumerate(view.melds) if side != view.side):
        return "discard", {"card": card.code}  # nothing on the table to check it against
    return "safe", {"card": card.code}


def _take_reason(view: SeatView, action: Action) -> tuple[str, dict[str, Any]]:
    """Why take the pile: ``take_pile`` when its top extends a meld of the seat's side
    on the table (or the move puts it on one), ``take_pile_hand`` when it makes a new
    meld with two hand cards (or the move names them), else ``take_pile_size`` (only the
    pile's ``n`` cards to say). Params ``n`` (the pile's cards) and ``card`` (the top's
    code, ``""`` for an empty pile)."""
    if not view.pile:
        return "take_pile_size", {"n": view.pile_size, "card": ""}
    top = view.pile[-1]
    params: dict[str, Any] = {"n": view.pile_size, "card": top.code}
    if action.meld is not None or any(extends(m, top, view.rules)
                                      for m in view.melds[view.side]):
        return "take_pile", params
    if action.with_ or _makes_meld(top, view.hand, view.rules):
        return "take_pile_hand", params
    return "take_pile_size", params


def _makes_meld(top: Card, hand: Sequence[Card], rules: Rules) -> bool:
    """Whether ``top`` and two cards of ``hand`` make a meld (:func:`make_meld`, RULES
    §2 "jogo"). Pairs of equal faces are tried once; at most 20*19/2 tries."""
    faces = sorted(set(hand), key=lambda c: c.index)
    pairs = [(a, b) for a, b in combinations(faces, 2)]
    pairs += [(a, a) for a in faces if hand.count(a) >= 2]
    for a, b in pairs:
        try:
            make_meld([top, a, b], rules)
        except IllegalAction:
            continue
        return True
    return False


def _lay_reason(view: SeatView, action: Action) -> tuple[str, dict[str, Any]]:
    laid = [c for m in action.melds for c in m] + [c for _, cs in action.extensions for c in cs]
    laid += list(action.cards)
    left = len(view.hand) - len(laid)
    if left <= 0:
        return "out", {"n": len(laid)}
    own = view.melds[view.side]
    grown = list(action.extensions)
    if action.do == "extend" and action.meld is not None:
        grown.append((action.meld, action.cards))
    closes = any(len(m) >= CANASTRA for m in action.melds) or any(
        0 <= i < len(own) and not own[i].is_canastra and len(own[i]) + len(cs) >= CANASTRA
        for i, cs in grown)
    if closes:
        return "canastra", {"n": len(laid)}
    return "shed", {"n": len(laid), "left": left}


def _useful_to_others(view: SeatView, card: Card) -> bool:
    """Whether ``card`` fits a meld of another side or a card another seat took from
    the pile (a public fact): discarding it may feed them."""
    rules: Rules = view.rules
    for side, melds in enumerate(view.melds):
        if side == view.side:
            continue
        if any(extends(m, card, rules) for m in melds):
            return True
    return any(c.rank == card.rank for s, taken in enumerate(view.seen_taken)
               if s not in view.teams[view.side] for c in taken)


# Costs --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """One decision of a seat: ``index`` of the action in the deal's record,
    ``played`` the person's move, ``better`` the robot's preferred one and ``points``
    what the robot estimates the person's move cost (>= 0), ``turn`` the deal's turn;
    ``turns``: the turns of every costly decision of the same kind in the deal (this
    one's included, in order; see :func:`review`), empty when it is the only one."""

    index: int
    turn: int
    played: Action
    better: Action
    points: float
    why: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    turns: tuple[int, ...] = ()

    @property
    def kind(self) -> tuple[str, str, str]:
        """The lesson this decision teaches: the person's kind of move, the robot's
        and the reason (``("draw", "take_pile", "take_pile")``: drew where the robot
        takes the pile)."""
        return self.played.do, self.better.do, self.why


def lessons(costs: Sequence[Cost], top: int = COSTLIEST) -> list[Cost]:
    """The ``top`` costliest *different* lessons among ``costs``, costliest first: the
    decisions of one :attr:`Cost.kind` (say, drawing on rounds 38, 39 and 40 where the
    robot takes the pile) are one lesson, named by its costliest decision with its
    points (never their sum: a chance missed again is the same chance, not three) and
    the turns of them all in :attr:`Cost.turns`. A player asks "what should I have
    done differently", and three lines that repeat one mistake answer it once."""
    groups: dict[tuple[str, str, str], list[Cost]] = {}
    for cost in costs:
        groups.setdefault(cost.kind, []).append(cost)
    out: list[Cost] = []
    for same in groups.values():
        worst = max(same, key=lambda c: c.points)
        turns = tuple(sorted(c.turn for c in same)) if len(same) > 1 else ()
        out.append(replace(worst, turns=turns))
    out.sort(key=lambda c: -c.points)
    return out[:top]


def _playout(state: DealState, action: Action, side: int, seed: int) -> float:
    """``action``, then ``normal`` for every seat for :data:`dificil.ROUNDS` rounds (the
    seat's side with the preset's tuned weights); ``side``'s expected final lead in
    points (-1e9 when the engine refuses ``action``)."""
    rng = random.Random(seed)
    try:
        apply(state, action)
    except IllegalAction:
        return -1e9
    stop = state.turn_count + dificil.ROUNDS * state.n_players
    mine = tuned(state.rules.preset, state.n_players)
    steps = 0
    while not state.over and state.turn_count < stop and steps < 2000:
        seat_view = rollout_view(state, state.turn)
        try:
            apply(state, normal.choose(seat_view, rng, mine if seat_view.side == side
                                       else NORMAL))
        except IllegalAction:
            break
        steps += 1
    return expected_lead(state, side)


def decision_cost(view: SeatView, played: Action, rng: random.Random,
                  deadline: float | None = None,
                  samples: tuple[int, int] = (REVIEW_MIN_SAMPLES, REVIEW_MAX_SAMPLES),
                  ) -> tuple[Action, float]:
    """The robot's preferred move in ``view`` and what ``played`` cost against it, in
    points (>= 0): both are played on the same sampled deals with the same rollouts
    (common random numbers); the preferred move is the best on average among
    ``dificil``'s candidates and ``played``, and costs count only when it beats
    ``played`` by more than :data:`engine.ai.dificil.CONFIDENCE` standard errors of the
    paired differences (else ``played`` and 0: the best of several noisy means is
    flattered by the noise). ``deadline`` (``time.process_time()``
    seconds) stops sampling after ``samples[0]`` samples; ``samples[1]`` at most.
    Reads only ``view``."""
    cands = dificil.candidates(view, rng)
    if played not in cands:
        cands.append(played)
    if len(cands) == 1:
        return played, 0.0
    mine = cands.index(played)
    pool = unseen(view)
    diffs: list[list[float]] = [[] for _ in cands]
    low, high = samples
    n = 0
    while n < high and (n < low or deadline is None or time.process_time() < deadline):
        world = sample_state(view, rng, pool)
        seed = rng.getrandbits(64)
        values = [_playout(world.clone(), a, view.side, seed) for a in cands]
        for i, v in enumerate(values):
            diffs[i].append(v - values[mine])
        n += 1
    means = [statistics.fmean(d) for d in diffs]
    best = max(range(len(cands)), key=means.__getitem__)
    if best == mine or n < 2:
        return played, 0.0
    mean, se = dificil.mean_se(diffs[best])
    if mean <= dificil.CONFIDENCE * se:  # not clearly better on these samples: no cost
        return played, 0.0
    return cands[best], mean


def review(rules: Rules, players: int, deal: dict[str, Any], seat: int,
           budget_s: float = REVIEW_BUDGET_S, top: int = COSTLIEST,
           samples: tuple[int, int] = (REVIEW_MIN_SAMPLES, REVIEW_MAX_SAMPLES)) -> list[Cost]:
    """The ``top`` costliest lessons of ``seat`` in a finished deal, costliest first:
    decisions of the same kind are one lesson (:func:`lessons`).

    ``deal``: the deal's record (``first``, ``scores``, ``deck``, ``actions``,
    ``reshuffle``; docs/record-format.md). Each action of ``seat`` is judged from the
    view the seat had just before it (:func:`engine.view.view_for`), a move equal to
    the robot's first choice (``normal`` with the tuned weights) counting as free, the
    others by :func:`decision_cost`, and a move equal to :func:`hint`'s in that view
    never costing (the coach does not charge what it recommends; the hint is searched
    only for a decision that would be named, and its time counts in the budget: the
    last decision may overrun it by one hint, 0.45 s at most); the CPU time
    (``time.process_time``) is shared
    evenly among those, about ``budget_s`` in all, and the decisions still waiting when
    it is spent are left out (``samples``: at least and at most
    per decision, as :func:`decision_cost`; with a budget that lasts, the review is
    the same every time). Decisions costing less than
    :data:`MIN_COST` points are left out. Raises ``IllegalAction`` when the record does
    not replay, ``ValueError`` when a field is missing or malformed."""
    start = time.process_time()
    deck = [Card.parse(c) for c in deal["deck"]]
    state = deal_cards(rules, players, deck, int(deal.get("first", 0)), deal.get("scores"),
                       deal.get("reshuffle") or None)
    seed = int.from_bytes(hashlib.sha256(repr((deal["deck"], seat)).encode()).digest()[:8],
                          "big")
    rng = random.Random(seed)
    todo: list[tuple[int, int, SeatView, Action]] = []
    for index, raw in enumerate(deal["actions"]):
        action = Action.from_json(raw)
        if action.seat == seat and state.turn == seat:
            view = view_for(state, seat)
            first = normal.choose(view, random.Random(seed + index),
                                  tuned(rules.preset, view.n_players))
            if first != action:
                todo.append((index, state.turn_count, view, action))
        apply(state, action)
    costs: list[Cost] = []
    for k, (index, turn, view, action) in enumerate(todo):
        spent = time.process_time() - start
        if spent >= budget_s:
            break  # out of time: the decisions left are not costed (the budget holds)
        share = (budget_s - spent) / (len(todo) - k)
        better, points = decision_cost(view, action, rng, time.process_time() + share,
                                       samples)
        if points >= MIN_COST and better != action and not _is_hint(view, action):
            why, params = explain(view, better)
            costs.append(Cost(index, turn, action, better, points, why, params))
    return lessons(costs, top)


def _is_hint(view: SeatView, action: Action) -> bool:
    """Whether ``action`` is what :func:`hint` says in ``view``: a move the coach itself
    recommends is never named a mistake (issue 37, a tester's ``/dica`` then
    ``/revisao``). :func:`hint` plays one of ``dificil``'s candidates drawn with the
    view's own seed, so a move not among them is no hint, and the full search
    (:data:`HINT_SAMPLES`, about 0.05-0.45 s) runs only for a move that is."""
    cands = dificil.candidates(view, random.Random(view_seed(view)))
    if action not in cands:
        return False
    return len(cands) == 1 or hint(view).action == action

