"""A tournament's standings and their tie-break chain (issue 29, docs/season.md
"Torneios"). Pure.

Tournament points: a win :data:`WIN` (2), a loss played :data:`LOSS` (1), a loss by
walkover :data:`WO_LOSS` (0), the scale of Brazilian club tournament regulations that
score a played loss above not showing (the 2-1-0 of volleyball's). Ties are broken by,
in order: points, wins, point balance (*saldo*: match points for minus against, a
walkover counting 0 x 0), head-to-head (the points the tied sides took from their
matches against each other), then sign-up order.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby, pairwise

from bot.season.tournament.model import Match

WIN, LOSS, WO_LOSS = 2, 1, 0


@dataclass(frozen=True, slots=True)
class Row:
    """One side's line: ``side`` its index, ``played`` matches (walkovers too),
    ``wins``, ``losses`` (walkovers too), ``wo`` losses by walkover, ``points``
    (tournament points), ``points_for``/``points_against`` match points, ``saldo``."""

    side: int
    played: int = 0
    wins: int = 0
    losses: int = 0
    wo: int = 0
    points: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def saldo(self) -> int:
        """Match points for minus against."""
        return self.points_for - self.points_against


def earned(match: Match, side: int) -> int:
    """The tournament points ``side`` took from finished ``match`` (a bye: none)."""
    if match.b is None or match.winner is None:
        return 0
    if match.winner == side:
        return WIN
    return WO_LOSS if side in match.absent else LOSS


def rows(n: int, matches: list[Match]) -> list[Row]:
    """Each of ``n`` sides' totals over the finished ``matches`` (byes left out), in
    side order."""
    acc = [dict(played=0, wins=0, losses=0, wo=0, points=0, points_for=0,
                points_against=0) for _ in range(n)]
    for m in matches:
        if m.b is None or m.winner is None:
            continue
        for side, other, mine, theirs in ((m.a, m.b, *m.score), (m.b, m.a, *m.score[::-1])):
            del other
            row = acc[side]
            row["played"] += 1
            row["wins"] += int(m.winner == side)
            row["losses"] += int(m.winner != side)
            row["wo"] += int(side in m.absent)
            row["points"] += earned(m, side)
            row["points_for"] += mine
            row["points_against"] += theirs
    return [Row(side=i, **acc[i]) for i in range(n)]


def head_to_head(tied: list[int], matches: list[Match]) -> dict[int, int]:
    """The points each of the ``tied`` sides took from finished matches among them."""
    among = set(tied)
    got = dict.fromkeys(tied, 0)
    for m in matches:
        if m.b is not None and m.a in among and m.b in among:
            got[m.a] += earned(m, m.a)
            got[m.b] += earned(m, m.b)
    return got


def standings(n: int, matches: list[Match]) -> list[Row]:
    """The table of ``n`` sides after ``matches``: best first by points, wins, saldo,
    head-to-head among the sides still tied, then sign-up order (side index)."""
    table = sorted(rows(n, matches), key=lambda r: (-r.points, -r.wins, -r.saldo, r.side))
    out: list[Row] = []
    for _key, group in groupby(table, key=lambda r: (r.points, r.wins, r.saldo)):
        tied = list(group)
        if len(tied) > 1:
            h2h = head_to_head([r.side for r in tied], matches)
            tied.sort(key=lambda r: (-h2h[r.side], r.side))
        out += tied
    return out


def decided_by(table: list[Row], matches: list[Match]) -> list[str]:
    """For each place after the first, what put the side above the next one:
    ``"points"``, ``"wins"``, ``"saldo"``, ``"h2h"`` or ``"order"`` (the texts say which
    tie-break decided)."""
    out: list[str] = []
    for upper, lower in pairwise(table):
        if upper.points != lower.points:
            out.append("points")
        elif upper.wins != lower.wins:
            out.append("wins")
        elif upper.saldo != lower.saldo:
            out.append("saldo")
        else:
            group = [r.side for r in table
                     if (r.points, r.wins, r.saldo) == (upper.points, upper.wins, upper.saldo)]
            h2h = head_to_head(group, matches)
            out.append("h2h" if h2h[upper.side] != h2h[lower.side] else "order")
    return out
