"""AI-against-AI deals: ``python -m engine selfplay`` (issue 5).

``main(argv)`` parses ``--variant V --players N --games G --seats normal,facil[,...]``
(the seat list repeats round the table: ``normal,facil`` at four seats gives the pair
0+2 ``normal`` against 1+3 ``facil``), plays G deals, and prints win rates with 95%
Wilson intervals, average deal scores, deal lengths and decision times. ``--mirror``
plays every shuffled deck twice with the lineups swapped (less luck in the figures).
``--sprt P0,P1`` stops early once a sequential test over the decks (mirrored pairs)
decides whether the first seat's lineup scores nearer ``P0`` or ``P1``
(:func:`engine.ai.stats.sprt_verdict`, alpha = beta = 0.05; ``--games`` is then the
most deals played). ``--tune`` plays ``dificil`` with other search knobs
(:func:`engine.ai.dificil.parse_tuning`), to measure a variation.
A text progress line goes to stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.actions import Action
from engine.ai import LEVELS, choose, dificil
from engine.ai.stats import SPRT_BOUND, Mean, SideTally, sprt_llr, sprt_verdict
from engine.ai.tracker import SeenTracker
from engine.cards import Card, shuffled_deck
from engine.cli_i18n import Words, argparse_language, env_lang
from engine.deal import apply, new_deal
from engine.errors import IllegalAction
from engine.rules import Rules, make_rules
from engine.scoring import score_deal
from engine.simulate import random_action
from engine.state import DealState
from engine.view import SeatView, view_for

MAX_ACTIONS = 4000
Chooser = Callable[[SeatView, random.Random], Action]
"""A player: the next action for a seat's view."""


@dataclass
class DealOutcome:
    """One finished deal: ``totals`` per side, ``labels`` per side (the lineup),
    ``turns`` and ``actions`` played, decision ``times`` (seconds) per AI level, and
    ``fallbacks`` (AI actions the engine refused; each replaced by a ``facil`` move, or
    a random legal one when that is refused too)."""

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

    An AI action the engine refuses is replaced by ``facil``'s, and when that is refused
    too (``facil`` plans lay-downs with the same planner) by a random legal action
    (:func:`engine.simulate.random_action`); both count in ``fallbacks``. Raises
    ``RuntimeError`` if a deal runs past ``MAX_ACTIONS`` (an AI loop) or if the engine
    refuses all three.
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
            except IllegalAction:  # facil shares the lay-down planner: a random legal move
                try:
                    events = apply(state, random_action(state, rng))
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
    decks: dict[str, list[float]] = field(default_factory=dict)
    sprt: tuple[str, float, float] | None = None
    """The lineup label and ``(p0, p1)`` of a ``--sprt`` run."""
    """Per lineup label, one score per deck: the share of that deck's deals it won (a
    tie counts half); with ``--mirror`` a deck is a mirrored pair."""

    def add_deck(self, outs: Sequence[DealOutcome]) -> None:
        """Count the deals played on one deck (:meth:`add`) and each lineup's score on it."""
        points: dict[str, float] = {}
        for out in outs:
            self.add(out)
            best = max(out.totals)
            winners = [i for i, t in enumerate(out.totals) if t == best]
            for i, label in enumerate(out.labels):
                won = 0.0 if i not in winners else 1.0 / len(winners)
                points[label] = points.get(label, 0.0) + won
        for label, won in points.items():
            self.decks.setdefault(label, []).append(won / len(outs))

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


def _job(args: tuple[Rules, list[list[str]], int, float | None, dificil.Tuning]
         ) -> list[DealOutcome]:
    rules, lineup_list, first, budget, tuning = args
    dificil.TUNING[0] = tuning  # a worker process starts with the default
    deck = shuffled_deck(rules.jokers)
    return [play_deal(rules, lv, first, deck, budget) for lv in lineup_list]


def run(rules: Rules, players: int, seats: Sequence[str], games: int,
        budget_s: float | None = None, mirror: bool = False, jobs: int = 1,
        progress: Callable[[int, int], None] | None = None,
        sprt: tuple[float, float] | None = None,
        tuning: dificil.Tuning | None = None) -> Summary:
    """Play ``games`` deals (``mirror``: ``games`` rounded up to pairs on one deck) and
    tally them. ``jobs`` > 1 spreads decks over processes. ``sprt`` ``(p0, p1)``: stop
    as soon as :func:`engine.ai.stats.sprt_verdict` over the first lineup's deck scores
    decides (``games`` is then a cap). ``tuning``: ``dificil``'s knobs for these deals
    (the default tuning when None; restored after)."""
    table = lineups(rules, players, seats, mirror)
    per_deck = len(table)
    decks = -(-games // per_deck)
    tuning = tuning or dificil.DEFAULT_TUNING
    tasks = [(rules, table, d % players, budget_s, tuning) for d in range(decks)]
    hero = side_labels(rules, table[0])[0]
    summary = Summary()
    done = 0
    results: Iterator[list[DealOutcome]]
    if jobs <= 1:
        results = map(_job, tasks)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(_job, tasks)
    before = dificil.TUNING[0]
    try:
        for outs in results:
            summary.add_deck(outs)
            done += len(outs)
            if progress:
                progress(done, decks * per_deck)
            if sprt and sprt_verdict(summary.decks.get(hero, []), *sprt) is not None:
                break
    finally:
        dificil.TUNING[0] = before
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    summary.sprt = (hero, sprt[0], sprt[1]) if sprt else None
    return summary


def p99(values: Sequence[float]) -> float:
    """The 99th percentile (nearest rank) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def report(summary: Summary, _: Words | None = None) -> str:
    """The summary as a plain-text table, in the language of ``_`` (pt-BR by default)."""
    _ = _ or Words()
    heads = [_("formação"), _("mãos"), _("vitórias"), _("empates"), _("% vitórias"),
             _("IC 95% (Wilson)"), _("média")]
    widths = [max(w, len(h) + 2) for w, h in zip((16, 6, 6, 6, 10, 20, 11), heads, strict=True)]
    lines = [heads[0].ljust(widths[0]) + "".join(h.rjust(w) for h, w in
                                                zip(heads[1:], widths[1:], strict=True))]
    for tally in summary.sides.values():
        lo, hi = tally.interval()
        cells = [str(tally.deals), str(tally.wins), str(tally.ties), _.pct(tally.win_rate()),
                 _.pct(lo) + "–" + _.pct(hi), _.num(tally.score.mean, sign=True)]
        lines.append(tally.label.ljust(widths[0]) + "".join(
            c.rjust(w) for c, w in zip(cells, widths[1:], strict=True)))
    lines.append(_("duração da mão: {turns} vezes, {actions} ações em média",
                   turns=_.num(summary.turns.mean), actions=_.num(summary.actions.mean)))
    for lv, ts in sorted(summary.times.items()):
        if ts:
            lines.append(_("tempo de decisão {level}: média {mean} ms, p99 {p99} ms, "
                           "máx. {max} ms ({n} decisões)", level=lv,
                           mean=_.num(1000 * sum(ts) / len(ts), 2), p99=_.num(1000 * p99(ts), 2),
                           max=_.num(1000 * max(ts), 2), n=_.num(len(ts), 0)))
    if summary.fallbacks:
        lines.append(_("ações recusadas do robô trocadas por facil: {n}", n=summary.fallbacks))
    if summary.sprt is not None:
        label, p0, p1 = summary.sprt
        scores = summary.decks.get(label, [])
        llr = sprt_llr(scores, p0, p1)
        verdict = {None: _("sem decisão"), "H0": _("aceita H0 (taxa perto de P0)"),
                   "H1": _("aceita H1 (taxa perto de P1)")}[sprt_verdict(scores, p0, p1)]
        lines.append(_("SPRT {label} P0={p0} P1={p1}: LLR {llr} (limites ±{bound}) após "
                       "{n} baralhos: {verdict}", label=label, p0=_.num(p0, 2),
                       p1=_.num(p1, 2), llr=_.num(llr, 2), bound=_.num(SPRT_BOUND, 2),
                       n=len(scores), verdict=verdict))
    return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    """A ``[###...] 3/10 mãos`` frame on stderr, only when stderr is a terminal (a
    redirected run does not fill its log with carriage-return frames)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     + Words(env_lang(os.environ))("mãos"))
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


def parse_args(argv: Sequence[str], _: Words | None = None) -> argparse.Namespace:
    """Command-line options of ``python -m engine selfplay`` (help in ``_``'s language)."""
    _ = _ or Words()
    with argparse_language(_.lang):
        p = argparse.ArgumentParser(
            prog="python -m engine selfplay",
            description=_("Robôs contra robôs: taxas de vitória com intervalos de Wilson de 95%"))
        p.add_argument("--variant", default="buraco", metavar=_("VARIANTE"),
                       help=_("preset ou apelido (buraco, tranca, ...) e opções, ex.: "
                              "'buraco jokers=true'"))
        p.add_argument("--players", type=int, default=None, metavar="N",
                       help=_("lugares na mesa"))
        p.add_argument("--games", type=int, default=100, metavar="N", help=_("mãos a jogar"))
        p.add_argument("--seats", default="normal,facil", metavar=_("NIVEIS"),
                       help=_("nível do robô por lugar, repetido em volta da mesa (facil, "
                              "normal, dificil)"))
        p.add_argument("--budget", type=float, default=None, metavar="S",
                       help=_("segundos por jogada do dificil (padrão 1,0: mãos do dificil "
                              "levam minutos)"))
        p.add_argument("--mirror", action="store_true",
                       help=_("joga cada baralho duas vezes, formações trocadas (só dois lados)"))
        p.add_argument("--jobs", type=int, default=1, metavar="N", help=_("processos"))
        p.add_argument("--sprt", default=None, metavar="P0,P1",
                       help=_("teste sequencial (SPRT, alfa = beta = 0,05) sobre os baralhos: "
                              "para quando a taxa do primeiro lugar está mais perto de P0 ou "
                              "de P1 (ex.: 0.65,0.75); --games vira o máximo"))
        p.add_argument("--tune", default=None, metavar=_("AJUSTES"),
                       help=_("botões da busca do dificil, ex.: 'confidence=0.5,rounds=3' "
                              "(confidence, margin, discards, rounds, scale)"))
        return p.parse_args(list(argv))


def _refusal(args: argparse.Namespace, rules: Rules, seats: list[str], players: int,
             _: Words) -> str | None:
    """What is wrong with the options, or None."""
    bad = [s for s in seats if s not in LEVELS]
    if bad or not seats:
        return _("nível de robô desconhecido: {level}; use {levels}",
                 level=repr(bad[0]) if bad else _("(nenhum)"), levels=", ".join(LEVELS))
    if args.games < 1:
        return _("--games precisa ser pelo menos 1")
    if args.budget is not None and not 0 < args.budget <= 60:
        return _("--budget são segundos por jogada do dificil: mais de 0 e no máximo 60")
    if args.jobs < 1:
        return _("--jobs precisa ser pelo menos 1")
    if args.sprt is not None and _sprt(args.sprt) is None:
        return _("--sprt são duas taxas P0,P1 com 0 < P0 < P1 < 1, ex.: 0.65,0.75")
    if args.tune is not None:
        try:
            dificil.parse_tuning(args.tune)
        except ValueError:
            return _("--tune não entendido: {text} (use confidence, margin, discards, rounds "
                     "ou scale = número)", text=repr(args.tune))
    if args.mirror and len(rules.teams(players)) != 2:
        return _("--mirror troca as formações de dois lados; esta mesa tem {n}",
                 n=len(rules.teams(players)))
    return None


def _sprt(text: str) -> tuple[float, float] | None:
    """``"0.65,0.75"`` as ``(0.65, 0.75)``; None unless two numbers 0 < P0 < P1 < 1."""
    try:
        p0, p1 = (float(x) for x in text.split(","))
    except ValueError:
        return None
    return (p0, p1) if 0 < p0 < p1 < 1 else None


def main(argv: Sequence[str]) -> int:
    """Entry point for ``python -m engine selfplay ...``; returns the exit status. Speaks
    the locale's language (``LANG``: pt-BR, en or it)."""
    _ = Words(env_lang(os.environ))
    args = parse_args(argv, _)
    try:
        rules = variant_rules(args.variant)
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
        players = rules.default_players if args.players is None else args.players
        refused = _refusal(args, rules, seats, players, _)
        if refused is not None:
            print(refused, file=sys.stderr)
            return 2
        summary = run(rules, players, seats, args.games, args.budget, args.mirror,
                      args.jobs, _progress, _sprt(args.sprt) if args.sprt else None,
                      dificil.parse_tuning(args.tune) if args.tune else None)
    except IllegalAction as err:
        print(_.reason(err), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\n" + _("interrompido"), file=sys.stderr)
        return 130
    print(_.n("{preset}, {players} jogadores, {n} mão{mirror}, lugares {seats}",
              "{preset}, {players} jogadores, {n} mãos{mirror}, lugares {seats}",
              summary.turns.n, preset=rules.preset, players=players,
              mirror=_(" (baralhos espelhados)") if args.mirror else "", seats=",".join(seats)))
    print(report(summary, _))
    return 0
