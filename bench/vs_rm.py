"""Head-to-head bench against BotRafa, the neural Buraco bot of rafaelmuylaert/buraco (issue 37).

Usage::

    git clone https://github.com/rafaelmuylaert/buraco /tmp/rm && git -C /tmp/rm checkout 1e89683
    python bench/vs_rm.py --rm /tmp/rm --deals 400 --seat dificil [--budget 0.1]
                          [--players 4] [--seed N] [--json-out FILE]

Our engine referees a deal of BotRafa's rules (``engine.comparison.RM``, docs/RULES.md
"Options for comparison with BotRafa"). BotRafa's own move selection (RM's
``BotEngines/wasm_loader.js`` ``runTurn`` with ``BotRafa.json``) runs in a Node
subprocess (``bench/rm_bot.mjs``) that receives, as JSON lines, only what its seat may
see (``bench/rm_view.py``: its hand, the melds, the pile, the counts) and answers one
move at a time; every move is checked and applied by our engine, and the new view goes
back. Our robot (``--seat``) plays the other side. With 4 players (BotRafa's training
table) each side is a pair: RM at seats 1 and 3, ours at 0 and 2, then the same deck
again with the sides swapped (mirrored deals), seat 0 always leading.

Robustness (the fallback): a move of RM's that our engine refuses is answered "no" and
RM's turn loop goes on to its next candidate, as its own engine's refusals make it do;
every such refusal is counted by its reason (``rm_refused``). A turn RM leaves
unfinished (no accepted discard), a crashed or silent subprocess (restarted) or a
malformed answer is counted (``rm_failures``, ``fallback_turns``) and that seat's turn
is finished by our ``facil`` robot. Nothing stops the run.

Prints a progress line every 10 deals on stderr and, as its last line on stdout, one
JSON object: ``win_rate`` (the deals our side scored more in; a tie is no win, as in
``bench/ai.py``), ``ci_low``/``ci_high``
(95 % Wilson), ``deals``, ``margin`` (our points minus RM's, mean per deal),
``ms_per_move`` (``ours``: our robot's time per action; ``rm``: BotRafa's compute per
move it made, its Node time minus the time it waited for the referee), and the counts.
``--json-out FILE`` writes the same object to FILE, also every 10 deals on the way.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
# bench/engine.py would shadow the package: the repository root first, bench/ last
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE))

from _args import positive_int  # noqa: E402
from rm_link import RmBot, RmFailure, rm_commit  # noqa: E402
from rm_view import BadMove, our_actions, rm_view  # noqa: E402

import engine  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.ai.stats import wilson  # noqa: E402
from engine.ai.tracker import SeenTracker  # noqa: E402
from engine.cards import full_deck  # noqa: E402
from engine.comparison import RM  # noqa: E402
from engine.deal import apply, new_deal  # noqa: E402
from engine.errors import IllegalAction  # noqa: E402
from engine.scoring import score_deal  # noqa: E402
from engine.state import DealState  # noqa: E402
from engine.view import view_for  # noqa: E402

MAX_ACTIONS = 3000
"""A deal past this many applied actions is abandoned (counted, not scored)."""


@dataclass
class Tally:
    """Counts over the run (the JSON's fields)."""

    wins: int = 0
    losses: int = 0
    ties: int = 0
    deals: int = 0
    margin: float = 0.0
    abandoned: int = 0
    our_s: float = 0.0
    our_moves: int = 0
    rm_ms: float = 0.0
    rm_moves: int = 0
    rm_self_refused: int = 0
    rm_failures: int = 0
    fallback_turns: int = 0
    partial_pickups: int = 0
    our_fallbacks: int = 0
    rm_refused: Counter[str] = field(default_factory=Counter)

    def add(self, ours: int, theirs: int) -> None:
        """One finished deal's totals (our side's, RM's)."""
        self.deals += 1
        self.margin += ours - theirs
        if ours > theirs:
            self.wins += 1
        elif ours < theirs:
            self.losses += 1
        else:
            self.ties += 1


class Referee:
    """One deal: our engine's state, the seen-cards tracker, and both players."""

    def __init__(self, state: DealState, rm_side: int, level: str, budget: float | None,
                 bot: RmBot, tally: Tally, rng: random.Random) -> None:
        self.state, self.rm_side, self.level, self.budget = state, rm_side, level, budget
        self.bot, self.tally, self.rng = bot, tally, rng
        self.seen = SeenTracker.for_players(state.n_players)
        self.actions = 0

    def _apply(self, action: Any) -> None:
        self.seen.observe(apply(self.state, action))
        self.actions += 1

    def play(self) -> None:
        """Play the deal to its end (or abandon it past :data:`MAX_ACTIONS`)."""
        state = self.state
        while not state.over and self.actions < MAX_ACTIONS:
            seat = state.turn
            if state.side_of[seat] == self.rm_side:
                self.rm_turn(seat)
            else:
                self.our_action(seat)

    def our_action(self, seat: int) -> None:
        """One action of our robot (``facil``'s when the engine refuses it)."""
        view = view_for(self.state, seat, self.seen.lists())
        t0 = time.perf_counter()
        action = choose(view, self.level, self.budget, self.rng)
        self.tally.our_s += time.perf_counter() - t0
        self.tally.our_moves += 1
        try:
            self._apply(action)
        except IllegalAction:
            self.tally.our_fallbacks += 1
            self._apply(choose(view, "facil", None, self.rng))

    def rm_turn(self, seat: int) -> None:
        """BotRafa's turn over the pipe, finished by ``facil`` if RM leaves it open."""
        state = self.state
        try:
            g, tables = rm_view(state, seat)
            self.bot.send({"op": "turn", "seat": str(seat), "state": g})
            while True:
                msg = self.bot.recv()
                if msg.get("op") == "done":
                    self.tally.rm_ms += float(msg.get("ms", 0.0))
                    self.tally.rm_self_refused += int(msg.get("self_refused", 0))
                    if msg.get("error"):
                        self.tally.rm_failures += 1
                        print(f"vs_rm: RM error: {msg['error'][:300]}", file=sys.stderr)
                    break
                ok = self.rm_move(seat, msg, tables[state.side_of[seat]])
                g, tables = rm_view(state, seat)
                self.bot.send({"ok": ok, "state": g})
        except RmFailure as err:
            self.tally.rm_failures += 1
            print(f"vs_rm: {err}; restarting the RM subprocess", file=sys.stderr)
            try:
                self.bot.restart()
            except RmFailure as again:  # the next RM turn tries again
                print(f"vs_rm: restart failed: {again}", file=sys.stderr)
        if not state.over and state.turn == seat:
            self.tally.fallback_turns += 1
            while not state.over and state.turn == seat and self.actions < MAX_ACTIONS:
                view = view_for(state, seat, self.seen.lists())
                self._apply(choose(view, "facil", None, self.rng))

    def rm_move(self, seat: int, msg: dict[str, Any], where: Any) -> bool:
        """Apply one RM move; False (and counted by reason) when ours refuses it."""
        state = self.state
        if state.over or state.turn != seat:
            self.tally.rm_refused["after_turn"] += 1
            return False
        try:
            actions = our_actions(state, seat, msg, where)
        except (BadMove, IllegalAction, ValueError) as err:
            self.tally.rm_refused[f"bad_move: {err}"[:60]] += 1
            return False
        for k, action in enumerate(actions):
            try:
                self._apply(action)
            except IllegalAction as err:
                if k == 0:
                    self.tally.rm_refused[f"{msg.get('kind')}: {err.code}"] += 1
                    if os.environ.get("VS_RM_DEBUG"):
                        print(f"vs_rm: refused {msg} as {action}: {err}; melds "
                              f"{state.melds[state.side_of[seat]]} hand {state.hands[seat]}",
                              file=sys.stderr)
                    return False
                self.tally.partial_pickups += 1  # the top card taken, the rest refused
                break
        self.tally.rm_moves += 1
        return True


def summary(t: Tally, args: argparse.Namespace, commit: str, elapsed: float) -> dict[str, Any]:
    """The final JSON object (module docstring)."""
    low, high = wilson(t.wins, t.deals) if t.deals else (0.0, 1.0)
    return {
        "seat": args.seat, "budget": args.budget, "players": args.players, "deals": t.deals,
        "win_rate": round(t.wins / t.deals, 4) if t.deals else None,
        "ci_low": round(low, 4), "ci_high": round(high, 4),
        "wins": t.wins, "ties": t.ties, "losses": t.losses,
        "margin": round(t.margin / t.deals, 1) if t.deals else None,
        "ms_per_move": {
            "ours": round(1000 * t.our_s / max(t.our_moves, 1), 2),
            "rm": round(t.rm_ms / max(t.rm_moves, 1), 3),
        },
        "moves": {"ours": t.our_moves, "rm": t.rm_moves},
        "rm_refused": dict(t.rm_refused.most_common()),
        "rm_refused_total": sum(t.rm_refused.values()),
        "rm_self_refused": t.rm_self_refused, "rm_failures": t.rm_failures,
        "fallback_turns": t.fallback_turns, "partial_pickups": t.partial_pickups,
        "our_fallbacks": t.our_fallbacks, "abandoned": t.abandoned,
        "rm_commit": commit, "rules": "engine.comparison.RM", "native": engine.NATIVE,
        "elapsed_s": round(elapsed, 1),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rm", required=True, type=Path, help="checkout of rafaelmuylaert/buraco")
    p.add_argument("--deals", type=positive_int, default=100,
                   help="deals to play (rounded up to even: each deck twice)")
    p.add_argument("--seat", choices=("dificil", "normal", "facil"), default="dificil")
    p.add_argument("--budget", type=float, default=0.1, help="dificil's seconds per move")
    p.add_argument("--players", type=int, choices=(2, 4), default=4)
    p.add_argument("--seed", type=int, default=None, help="decks from this seed (else secrets)")
    p.add_argument("--json-out", type=Path, default=None,
                   help="also write the JSON here (updated every 10 deals)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the bench; the JSON summary is the last line of stdout."""
    args = parse_args(argv)
    if not (args.rm / "BotEngines" / "wasm_loader.js").is_file():
        sys.exit(f"vs_rm.py: {args.rm} is no checkout of rafaelmuylaert/buraco "
                 "(git clone https://github.com/rafaelmuylaert/buraco; git checkout 1e89683)")
    commit = rm_commit(args.rm)
    deck_rng = random.Random(args.seed) if args.seed is not None else secrets.SystemRandom()
    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    tally = Tally()
    t0 = time.perf_counter()
    with RmBot(args.rm) as bot:
        for _ in range((args.deals + 1) // 2):
            deck = full_deck(RM.jokers)
            deck_rng.shuffle(deck)
            for rm_side in (1, 0):
                state = new_deal(RM, args.players, deck=list(deck), first=0)
                ref = Referee(state, rm_side, args.seat, args.budget, bot, tally, rng)
                ref.play()
                if not state.over:
                    tally.abandoned += 1
                    continue
                totals = score_deal(state).totals
                tally.add(totals[1 - rm_side], totals[rm_side])
                if tally.deals % 10 == 0:
                    s = summary(tally, args, commit, time.perf_counter() - t0)
                    _save(args.json_out, s)
                    print(f"vs_rm: {s['deals']} deals, win rate {s['win_rate']} "
                          f"[{s['ci_low']}, {s['ci_high']}], margin {s['margin']}, "
                          f"ms/move {s['ms_per_move']}, refused {s['rm_refused_total']}, "
                          f"fallback turns {s['fallback_turns']}", file=sys.stderr, flush=True)
    result = summary(tally, args, commit, time.perf_counter() - t0)
    _save(args.json_out, result)
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _save(path: Path | None, result: dict[str, Any]) -> None:
    """Write the summary so far to ``path`` (every 10 deals: a stopped run keeps its
    figures), replacing the file at once."""
    if path is None:
        return
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(result, ensure_ascii=False) + "\n", encoding="utf-8")
    part.replace(path)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, subprocess.SubprocessError, RmFailure) as err:  # node missing, RM broken
        sys.exit(f"vs_rm.py: RM did not start: {err}")
