"""AI-against-AI deals: ``python -m engine selfplay`` (issue 5).

``main(argv)`` parses ``--variant V --players N --games G --seats normal,facil[,...]``
(the seat list repeats round the table: ``normal,facil`` at four seats gives the pair
0+2 ``normal`` against 1+3 ``facil``), plays G deals, and prints win rates with 95%
Wilson intervals, average deal scores, deal lengths and decision times. ``--mirror``
plays every shuffled deck twice with the lineups swapped (less luck in the figures).
A text progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.actions import Action
from engine.ai import LEVELS, choose
from engine.ai.stats import Mean, SideTally, percent
from engine.ai.tracker import SeenTracker
from engine.cards import Card, shuffled_deck
from engine.deal import apply, new_deal
from engine.errors import IllegalAction
from engine.rules import Rules, make_rules
from engine.scoring import score_deal
from engine.state import DealState
from engine.view import SeatView, view_for

MAX_ACTIONS = 4000
Chooser = Callable[[SeatView, random.Random], Action]
"""A player: the next action for a seat's view."""


@dataclass
class DealOutcome:
    """One finished deal: ``totals`` per side, ``labels`` per side (the lineup),
    ``turns`` and ``actions`` played, decision ``times`` (seconds) per AI level, and
    ``fallbacks`` (AI actions the engine refused; each replaced by a ``facil`` move)."""

    totals: list[int]
    labels: list[str]
    turns: int
    actions: int
    times: dict[str, list[float]] = field(default_factory=dict)
    fallbacks: int = 0


def side_labels(rules: Rules, levels: Sequence[str]) -> list[str]:
    """Lineup label of each side: its seats' levels joined by ``+`` when they differ;
    sides with the same lineup are told apart by their number (``normal (side 1)``)."""
    out = ["+".join(sorted({levels[s] for s in team})) for team in rules.teams(len(levels))]
    if len(set(out)) < len(out):
        out = [f"{label} (side {i})" for i, label in enumerate(out)]
    return out


def play_deal(rules: Rules, levels: Sequence[str], first: int = 0,
              deck: Sequence[Card] | None = None, budget_s: float | None = None,
              rng: random.Random | None = None,
              before: Callable[[DealState], None] | None = None,
              players: Mapping[str, Chooser] | None = None) -> DealOutcome:
    """Play one deal to its end with the AI ``levels`` (one per seat); return the outcome.
    ``before`` sees the state ahead of every action (``bench/fit_eval.py`` samples it);
    ``players`` maps extra level names to their own ``(view, rng) -> Action`` players
    (``bench/tune_weights.py`` plays ``normal`` with other weights so).

    Raises ``RuntimeError`` if a deal runs past ``MAX_ACTIONS`` (an AI loop) or if the
    engine refuses both an AI action and the ``facil`` fallback.
    """
    rng = rng or secrets.SystemRandom()
    state = new_deal(rules, len(levels), deck=list(deck) if deck else None, first=first)
    times: dict[str, list[float]] = {lv: [] for lv in set(levels)}
    actions = fallbacks = 0
    seen = SeenTracker.for_players(len(levels))
    while not state.over:
        if before is not None:
            before(state)
        seat = state.turn
        view = view_for(state, seat, seen.lists())
        t0 = time.perf_counter()
        own = players.get(levels[seat]) if players else None
        action = own(view, rng) if own else choose(view, levels[seat], budget_s, rng)
        times[levels[seat]].append(time.perf_counter() - t0)
        try:
            events = apply(state, action)
        except IllegalAction as err:
            fallbacks += 1
            fallback = choose(view, "facil", None, rng)
            try:
                events = apply(state, fallback)
            except IllegalAction:
                raise RuntimeError(f"AI {levels[seat]} refused: {err} ({action})") from err
        seen.observe(events)
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"deal did not end after {MAX_ACTIONS} actions")
    totals = list(score_deal(state).totals)
    return DealOutcome(totals, side_labels(rules, levels), state.turn_count, actions,
                       times, fallbacks)


@dataclass
class Summary:
    """Tallies over many deals, per lineup label."""

    sides: dict[str, SideTally] = field(default_factory=dict)
    turns: Mean = field(default_factory=Mean)
    actions: Mean = field(default_factory=Mean)
    times: dict[str, list[float]] = field(default_factory=dict)
    fallbacks: int = 0

    def add(self, out: DealOutcome) -> None:
        """Count one deal: the side(s) with the best total win (a shared best is a tie)."""
        best = max(out.totals)
        winners = [i for i, t in enumerate(out.totals) if t == best]
        for i, label in enumerate(out.labels):
            tally = self.sides.setdefault(label, SideTally(label))
            tally.score.add(out.totals[i])
            if i not in winners:
                tally.losses += 1
            elif len(winners) > 1:
                tally.ties += 1
            else:
                tally.wins += 1
        self.turns.add(out.turns)
        self.actions.add(out.actions)
        for lv, ts in out.times.items():
            self.times.setdefault(lv, []).extend(ts)
        self.fallbacks += out.fallbacks


def lineups(rules: Rules, players: int, seats: Sequence[str], mirror: bool) -> list[list[str]]:
    """Seat levels for one deck: the pattern repeated round the table, and (``mirror``)
    the same shifted one seat so the sides swap lineups."""
    base = [seats[i % len(seats)] for i in range(players)]
    rules.teams(players)  # raises bad_players early
    if not mirror:
        return [base]
    return [base, base[1:] + base[:1]]


def _job(args: tuple[Rules, list[list[str]], int, float | None]) -> list[DealOutcome]:
    rules, lineup_list, first, budget = args
    deck = shuffled_deck(rules.jokers)
    return [play_deal(rules, lv, first, deck, budget) for lv in lineup_list]


def run(rules: Rules, players: int, seats: Sequence[str], games: int,
        budget_s: float | None = None, mirror: bool = False, jobs: int = 1,
        progress: Callable[[int, int], None] | None = None) -> Summary:
    """Play ``games`` deals (``mirror``: ``games`` rounded up to pairs on one deck) and
    tally them. ``jobs`` > 1 spreads decks over processes."""
    table = lineups(rules, players, seats, mirror)
    per_deck = len(table)
    decks = -(-games // per_deck)
    tasks = [(rules, table, d % players, budget_s) for d in range(decks)]
    summary = Summary()
    done = 0
    results: Iterator[list[DealOutcome]]
    if jobs <= 1:
        results = map(_job, tasks)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(_job, tasks)
    try:
        for outs in results:
            for out in outs:
                summary.add(out)
            done += len(outs)
            if progress:
                progress(done, decks * per_deck)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return summary


def p99(values: Sequence[float]) -> float:
    """The 99th percentile (nearest rank) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def report(summary: Summary) -> str:
    """The summary as a plain-text table."""
    lines = [f"{'lineup':<16}{'deals':>6}{'wins':>6}{'ties':>6}{'win rate':>10}"
             f"{'95% CI (Wilson)':>20}{'avg score':>11}"]
    for tally in summary.sides.values():
        lo, hi = tally.interval()
        lines.append(f"{tally.label:<16}{tally.deals:>6}{tally.wins:>6}{tally.ties:>6}"
                     f"{percent(tally.win_rate()):>10}{percent(lo) + '–' + percent(hi):>20}"
                     f"{tally.score.mean:>+11.1f}")
    lines.append(f"deal length: {summary.turns.mean:.1f} turns, "
                 f"{summary.actions.mean:.1f} actions on average")
    for lv, ts in sorted(summary.times.items()):
        if ts:
            lines.append(f"decision time {lv}: mean {1000 * sum(ts) / len(ts):.2f} ms, "
                         f"p99 {1000 * p99(ts):.2f} ms, max {1000 * max(ts):.2f} ms "
                         f"({len(ts)} decisions)")
    if summary.fallbacks:
        lines.append(f"refused AI actions replaced by facil: {summary.fallbacks}")
    return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def variant_rules(text: str) -> Rules:
    """Rules for ``--variant``: a preset or alias, then ``key=value`` options as in
    ``/novojogo`` (``"buraco target=3000 jokers=true"``). Raises ``IllegalAction`` (the
    pt-BR reason) for an unknown preset or option, or a word that is not ``key=value``."""
    name, *words = text.split() or [""]
    options: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise IllegalAction("bad_option", "opção sem valor: {word} (use chave=valor)",
                                word=repr(word))
        options[key] = value
    return make_rules(name, options)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Command-line options of ``python -m engine selfplay``."""
    p = argparse.ArgumentParser(prog="python -m engine selfplay",
                                description="AI against AI: win rates with 95% Wilson intervals")
    p.add_argument("--variant", default="buraco",
                   help="preset or alias (buraco, tranca, ...) and options, e.g. "
                        "'buraco jokers=true'")
    p.add_argument("--players", type=int, default=None, help="seats at the table")
    p.add_argument("--games", type=int, default=100, help="deals to play")
    p.add_argument("--seats", default="normal,facil",
                   help="AI level per seat, repeated round the table (facil, normal, dificil)")
    p.add_argument("--budget", type=float, default=None,
                   help="dificil seconds per move (default 1.0, so dificil deals take minutes)")
    p.add_argument("--mirror", action="store_true",
                   help="play each deck twice, lineups swapped (two sides only)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    return p.parse_args(list(argv))


def main(argv: Sequence[str]) -> int:
    """Entry point for ``python -m engine selfplay ...``; returns the exit status."""
    args = parse_args(argv)
    try:
        rules = variant_rules(args.variant)
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
        bad = [s for s in seats if s not in LEVELS]
        if bad or not seats:
            print(f"unknown AI level {bad[0] if bad else '(none)'!r}; use "
                  f"{', '.join(LEVELS)}", file=sys.stderr)
            return 2
        players = rules.default_players if args.players is None else args.players
        if args.games < 1:
            print("--games must be at least 1", file=sys.stderr)
            return 2
        if args.budget is not None and not 0 < args.budget <= 60:
            print("--budget is seconds per dificil move, more than 0 and at most 60",
                  file=sys.stderr)
            return 2
        if args.jobs < 1:
            print("--jobs must be at least 1", file=sys.stderr)
            return 2
        if args.mirror and len(rules.teams(players)) != 2:
            print("--mirror swaps the lineups of two sides; this table has "
                  f"{len(rules.teams(players))}", file=sys.stderr)
            return 2
        summary = run(rules, players, seats, args.games, args.budget, args.mirror,
                      args.jobs, _progress)
    except IllegalAction as err:
        print(err.message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    print(f"{rules.preset}, {players} players, {summary.turns.n} deals"
          f"{' (mirrored decks)' if args.mirror else ''}, seats {','.join(seats)}")
    print(report(summary))
    return 0
