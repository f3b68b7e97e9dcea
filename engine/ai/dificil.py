"""The ``dificil`` AI: determinized Monte Carlo over ``normal`` rollouts (issue 5).

It thinks with ``normal``'s heuristics under the weights tuned for the preset
(:func:`engine.ai.weights.tuned`; ``normal``'s own where none are tuned). At a decision
with real alternatives (draw or take the pile; lay down, go out, or hold and discard one
of the likeliest discards) it samples full deals consistent with the view
(:mod:`engine.ai.determinize`), plays each alternative in each sample, lets ``normal``
play every seat for a few rounds (its own side with the tuned weights, the others with
``normal``'s), and values the position reached by the expected final lead of its side
(:func:`engine.ai.evaluate.expected_lead`, fitted on ``normal`` self-play; exact when
the deal is over) squashed by ``tanh`` (a deal is won or lost). Every alternative meets
the same samples (common random numbers). The loop stops at the time budget; the
heuristic's choice is kept unless an alternative beats it on the paired samples by more
than one standard error. Decisions with one sensible option play as the heuristic does.
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import time
from dataclasses import dataclass, fields, replace
from typing import Final

from engine.actions import Action
from engine.ai import moves, normal
from engine.ai.danger import discard_scores
from engine.ai.determinize import sample_state, unseen
from engine.ai.evaluate import expected_lead
from engine.ai.normal import ALL_IN, choose_laydown, wild_policy
from engine.ai.seat import table_of
from engine.ai.weights import NORMAL, tuned
from engine.deal import apply
from engine.errors import IllegalAction
from engine.state import DealState
from engine.view import SeatView, rollout_view

DISCARDS: Final = 3
"""How many of ``normal``'s preferred discards compete."""
ROUNDS: Final = 2
"""Rollout depth in rounds of the table (every seat plays this many turns); 0 plays
each rollout to the end of the deal."""
MIN_SAMPLES: Final = 2
CONFIDENCE: Final = 1.0
"""Standard errors by which an alternative must beat ``normal``'s choice (paired)."""
PRUNE_AFTER: Final = 6
"""Samples before an alternative may be dropped as clearly worse."""
PRUNE_SE: Final = 2.0
"""Standard errors by which a dropped alternative trails ``normal``'s choice."""
MARGIN: Final = 0.0
"""Value by which an alternative must beat ``normal``'s choice on average."""
TIE: Final = 1.0 + 1e-9
"""Rounding guard on :data:`CONFIDENCE`: an alternative that won one sample and tied the
rest has a mean of exactly one standard error, which floats may place a hair above."""
WIN_SCALE: Final[dict[str, float]] = {
    "buraco": 170.0, "buraco_morto": 300.0, "bossa_nova": 380.0,
    "tranca": 840.0, "justificado": 710.0, "altaneira": 870.0,
}
"""Per preset, the value of a position is ``tanh(expected lead / scale)``, about the
chance of winning the deal minus that of losing it: ``tanh(x / 1.2 s)`` is close to
``2 Φ(x / s) - 1`` where ``s`` is the spread (standard deviation) of the final lead
around :func:`~engine.ai.evaluate.expected_lead`, measured on ``normal`` self-play
(buraco 139, buraco_morto 252, bossa_nova 317, tranca 700, justificado 590,
altaneira 722 points)."""
DEFAULT_SCALE: Final = 300.0



@dataclass(frozen=True)
class Tuning:
    """The knobs of ``dificil``'s search, defaults the module's constants: ``confidence``
    (:data:`CONFIDENCE`, standard errors), ``margin`` (:data:`MARGIN`, value units of
    ``tanh``), ``discards`` (:data:`DISCARDS`, count), ``rounds`` (:data:`ROUNDS`, table
    rounds; 0 plays to the end of the deal) and ``scale``, a factor on the preset's
    :data:`WIN_SCALE` (large values make the leaf value nearly linear in the lead).
    ``python -m engine selfplay --tune`` sets them (:func:`parse_tuning`) to measure
    variations without editing the module."""

    confidence: float = CONFIDENCE
    margin: float = MARGIN
    discards: int = DISCARDS
    rounds: int = ROUNDS
    scale: float = 1.0


DEFAULT_TUNING: Final = Tuning()
TUNING: list[Tuning] = [DEFAULT_TUNING]
"""The tuning ``dificil`` plays with (``TUNING[0]``; a one-item list so a caller can swap
it: ``selfplay --tune``, tests)."""


def parse_tuning(text: str) -> Tuning:
    """``"confidence=0.5,rounds=3"`` (``key=value`` items split by commas or spaces) as a
    :class:`Tuning` changing those fields of the default. Raises ``ValueError`` for an
    unknown key, a missing ``=`` or a value that is not a number of the field's kind
    (``discards``, ``rounds`` >= 0 integers; ``scale`` > 0)."""
    keys = [f.name for f in fields(Tuning)]
    values: dict[str, float | int] = {}
    for item in text.replace(",", " ").split():
        key, eq, raw = item.partition("=")
        if not eq or key not in keys:
            raise ValueError(f"unknown tuning item {item!r}; keys: {', '.join(keys)}")
        if key in ("discards", "rounds"):
            number: float | int = int(raw)
            if number < 0:
                raise ValueError(f"{key} must be >= 0, not {raw}")
        else:
            number = float(raw)
            if not math.isfinite(number):
                raise ValueError(f"{key} must be finite, not {raw}")
        values[key] = number
    out = replace(DEFAULT_TUNING, **values)  # type: ignore[arg-type]
    if out.scale <= 0:
        raise ValueError(f"scale must be > 0, not {out.scale}")
    return out


ROLLOUTS_PLAYED: Final[list[int]] = [0]
"""Rollouts this process has played (``ROLLOUTS_PLAYED[0]``, read by ``bench/compare.py``:
with the module compiled, wrapping :func:`rollout` from outside would not see the calls
:func:`choose` makes)."""


def candidates(view: SeatView, rng: random.Random) -> list[Action]:
    """The alternatives worth comparing now: first what ``normal`` with the preset's tuned
    weights would do, then the pile or the stock, the lay-down spending every wild, the
    lay-down that does not go out, and the :data:`DISCARDS` likeliest discards."""
    w = tuned(view.rules.preset, view.n_players)
    first = normal.choose(view, rng, w)
    if view.phase == "draw":
        take = moves.pile_take(view)
        return [first] if take is None else _unique([first, take, Action.draw(view.seat)])
    if first.do in ("lay_three", "redraw"):
        return [first]
    out = [first]
    allin = choose_laydown(view, ALL_IN, eager_out=True, w=w)
    if allin is not None:
        out.append(allin)
    held = choose_laydown(view, wild_policy(view, len(view.hand), w), eager_out=False, w=w)
    if held is not None:
        out.append(held)
    table = table_of(view)
    side = view.melds[view.side]
    options = moves.discard_options(view)
    scores = dict(zip(options, discard_scores(options, view.hand, side, table, view.rules, w),
                      strict=True))
    options.sort(key=scores.__getitem__)
    out.extend(Action.discard(view.seat, c) for c in options[:TUNING[0].discards])
    return _unique(out)


def _unique(actions: list[Action]) -> list[Action]:
    seen: list[Action] = []
    for a in actions:
        if a not in seen:
            seen.append(a)
    return seen


def evaluate(state: DealState, side: int) -> float:
    """The position for ``side``: its expected final lead
    (:func:`engine.ai.evaluate.expected_lead`) squashed by ``tanh``."""
    lead = expected_lead(state, side)
    scale = WIN_SCALE.get(state.rules.preset, DEFAULT_SCALE) * TUNING[0].scale
    return math.tanh(lead / scale)


def rollout(state: DealState, action: Action, side: int, rng: random.Random) -> float:
    """Apply ``action`` then let ``normal`` play every seat for :data:`ROUNDS` rounds
    (``side``'s seats with the tuned weights); the value of the position reached."""
    ROLLOUTS_PLAYED[0] += 1
    try:
        apply(state, action)
    except IllegalAction:
        return -1e9
    rounds = TUNING[0].rounds
    stop = state.turn_count + rounds * state.n_players if rounds else 10**9
    steps = 0
    mine, theirs = tuned(state.rules.preset, state.n_players), NORMAL
    while not state.over and state.turn_count < stop and steps < 2000:
        view = rollout_view(state, state.turn)
        try:
            apply(state, normal.choose(view, rng, mine if view.side == side else theirs))
        except IllegalAction:
            break
        steps += 1
    return evaluate(state, side)


def choose(view: SeatView, budget_s: float, rng: random.Random,
           max_samples: int | None = None) -> Action:
    """The ``dificil`` player's next action, thinking about ``budget_s`` seconds (a
    sample cut by the deadline is dropped; at least :data:`MIN_SAMPLES` are played).
    ``max_samples`` caps the samples (tests use it to make a decision reproducible).

    Python's cyclic garbage collector is paused while the samples are played (and
    restored after): rollouts allocate thousands of short-lived objects, which trigger
    collections that free little (the states and views die by reference counting) but
    scan the young objects every 700 new containers, and now and then every object of the
    process (milliseconds of a 0.1 s budget). What is cyclic is collected after."""
    deadline = time.perf_counter() + budget_s
    cands = candidates(view, rng)
    if len(cands) == 1:
        return cands[0]
    diffs: list[list[float]] = [[] for _ in cands]
    collecting = gc.isenabled()
    gc.disable()  # see the docstring: no cyclic-garbage pass inside the budget
    try:
        _sample(view, cands, diffs, deadline, rng, max_samples)
    finally:
        if collecting:
            gc.enable()
    return cands[pick(diffs)]


def _sample(view: SeatView, cands: list[Action], diffs: list[list[float]], deadline: float,
            rng: random.Random, max_samples: int | None) -> None:
    """:func:`choose`'s loop: sample worlds and roll every alternative still in contention
    out in each, appending to ``diffs[i]`` alternative i's value minus ``cands[0]``'s."""
    active = list(range(1, len(cands)))
    samples = 0
    pool = unseen(view)
    while active and (samples < MIN_SAMPLES or time.perf_counter() < deadline):
        if max_samples is not None and samples >= max_samples:
            break
        world = sample_state(view, rng, pool)
        base = rollout(world.clone(), cands[0], view.side, rng)
        row = []
        for i in active:
            if samples >= MIN_SAMPLES and time.perf_counter() >= deadline:
                break  # out of time mid-sample: drop the partial sample
            row.append(rollout(world.clone(), cands[i], view.side, rng) - base)
        else:
            for i, d in zip(active, row, strict=True):
                diffs[i].append(d)
            samples += 1
            active = [i for i in active if not clearly_worse(diffs[i])]
            continue
        break


def clearly_worse(d: list[float]) -> bool:
    """True when an alternative with paired differences ``d`` (against ``normal``'s
    choice) is behind by more than :data:`PRUNE_SE` standard errors after at least
    :data:`PRUNE_AFTER` samples: it gets no more rollouts (racing), so the budget goes
    to the alternatives still in contention."""
    if len(d) < PRUNE_AFTER:
        return False
    mean, se = mean_se(d)
    return mean + PRUNE_SE * se < 0


def pick(diffs: list[list[float]]) -> int:
    """Index of the alternative to play: 0 (``normal``'s choice) unless another one beats
    it on the same samples by more than :data:`CONFIDENCE` standard errors."""
    tuning = TUNING[0]
    best, best_mean = 0, 0.0
    for i, d in enumerate(diffs[1:], start=1):
        if len(d) < 2:
            continue
        mean, se = mean_se(d)
        if mean > best_mean and mean > tuning.confidence * se * TIE + tuning.margin:
            best, best_mean = i, mean
    return best


def mean_se(d: list[float]) -> tuple[float, float]:
    """Mean of the paired differences ``d`` (2 or more) and its standard error (in plain
    floats: ``statistics.stdev`` works in exact fractions, 100 µs a call)."""
    n = len(d)
    mean = statistics.fmean(d)
    var = sum((x - mean) * (x - mean) for x in d) / (n - 1)
    return mean, math.sqrt(var / n)
