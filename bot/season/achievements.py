"""Achievements as data (issue 29): each one a name and a check of a finished match's
facts for one person. Earned once per person and group (the profile's ``a:<id>``
field, set only if unset, in the same script that counts the match), announced in the
group by the follow-up that earned it, listed in ``/perfil``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import N_
from bot.season.facts import MatchFacts, Person

COMEBACK = 1000
"""Points behind the leader a side must have been after some deal to earn a comeback."""


@dataclass(frozen=True, slots=True)
class Achievement:
    """``id`` (stored), ``title`` (a msgid), ``check(facts, person)``."""

    id: str
    title: str
    check: Callable[[MatchFacts, Person], bool]


def _won(f: MatchFacts, p: Person) -> bool:
    return f.winner == p.side


def _went_out(f: MatchFacts, p: Person) -> bool:
    return any(d.went_out == p.seat for d in f.deals)


def _clean_aces(f: MatchFacts, p: Person) -> bool:
    return any(p.side < len(d.clean_aces) and d.clean_aces[p.side] > 0 for d in f.deals)


def _relancinho(f: MatchFacts, p: Person) -> bool:
    return any(d.went_out == p.seat and p.side < len(d.relancinho) and d.relancinho[p.side] > 0
               for d in f.deals)


def side_seats(f: MatchFacts, side: int) -> list[int]:
    """The seats of ``side``: partners sit across, so seat ``i`` plays for side ``i mod
    sides`` (RULES §1, :meth:`engine.rules.Rules.teams`: 4 -> [[0, 2], [1, 3]], 2 or 3
    players alone)."""
    return [seat for seat in range(len(f.took_pile)) if seat % len(f.sides) == side]


def _no_pile(f: MatchFacts, p: Person) -> bool:
    """The person's side won and nobody of that side ever took the discard pile: a
    partner's pickup counts for the side (docs/season.md "Profile and achievements")."""
    seats = side_seats(f, p.side)
    return _won(f, p) and bool(seats) and all(f.took_pile[s] == 0 for s in seats)


def _comeback(f: MatchFacts, p: Person) -> bool:
    """Won after trailing the best other side by :data:`COMEBACK` points or more at the
    end of some deal."""
    if not _won(f, p):
        return False
    totals = [0] * len(f.sides)
    for deal in f.deals:
        totals = [t + d for t, d in zip(totals, deal.totals, strict=True)]
        best_other = max(t for s, t in enumerate(totals) if s != p.side)
        if best_other - totals[p.side] >= COMEBACK:
            return True
    return False


def _clean(f: MatchFacts, p: Person) -> bool:
    return any(p.side < len(d.canastras) and "limpa" in d.canastras[p.side] for d in f.deals)


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", N_("Primeira vitória"), _won),
    Achievement("batida", N_("Primeira batida"), _went_out),
    Achievement("limpa", N_("Primeira canastra limpa"), _clean),
    Achievement("ases", N_("Canastra limpa de ases"), _clean_aces),
    Achievement("relancinho", N_("Relancinho"), _relancinho),
    Achievement("sem_lixo", N_("Vitória sem pegar o lixo"), _no_pile),
    Achievement("virada", N_("Virada de 1.000 pontos"), _comeback),
)
BY_ID = {a.id: a for a in ACHIEVEMENTS}


def earned(facts: MatchFacts, person: Person) -> list[str]:
    """The ids of the achievements ``person`` earned in this match (maybe again)."""
    return [a.id for a in ACHIEVEMENTS if a.check(facts, person)]
