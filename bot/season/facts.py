"""What a finished match counts for in the season, derived from the stored game and its
record alone (issue 29): the people and robots of each side, the ranks, each deal's
totals, batidas and canastras, who took the pile, the clean canastras of aces.

:class:`MatchFacts` is also kept beside the game's record (``{game}:season``), so the
ratings can be rebuilt from the stored matches (``python -m bot ratings-rebuild``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot import play
from bot.model import Game
from engine.record import MalformedRecord, replay

CANASTRA_KEYS = {"limpa": "limpa", "suja": "suja", "de mil, A–A limpa": "mil",
                 "Altaneira, A–K limpa": "altaneira", "Real, A–A limpa em ♥/♦": "real"}
"""The engine's canastra labels (``engine.melds.canastra_label``) -> profile counter."""


class Person(BaseModel):
    """A person at the table: platform ``key``, shown ``name``, ``seat``, ``side``;
    ``away`` when the robot was playing for them at the match's end."""

    key: str
    name: str
    seat: int
    side: int
    away: bool = False


class SideFacts(BaseModel):
    """One side: its match ``total``, its ``rank`` (0 the winner) and its robots'
    levels."""

    total: int
    rank: int
    robots: list[str] = Field(default_factory=list)


class DealFacts(BaseModel):
    """One deal: ``totals`` per side, the seat that went out (-1 none), per side the
    canastra counters (:data:`CANASTRA_KEYS` values), relancinho points, and the
    number of clean canastras of aces (a set of aces, or a run of the 14 cards A..A)."""

    totals: list[int]
    went_out: int = -1
    canastras: list[list[str]] = Field(default_factory=list)
    relancinho: list[int] = Field(default_factory=list)
    clean_aces: list[int] = Field(default_factory=list)


class MatchFacts(BaseModel):
    """A finished match as the season counts it (module docstring)."""

    game_id: str
    chat: str
    ended_at: float
    variant: str
    winner: int
    people: list[Person]
    sides: list[SideFacts]
    deals: list[DealFacts] = Field(default_factory=list)
    took_pile: list[int] = Field(default_factory=list)
    """Per seat, how many times it took the discard pile (from the record's actions)."""
    matched: bool = False
    """Formed by the queue to find players (issue 35): a person who left it before its
    end (away at the end) has it counted as a loss (bot/season/followup.py)."""


def facts_of(game: Game, record: dict[str, Any] | None) -> MatchFacts | None:
    """The facts of ``game`` once it is over with a winner and at least one person at
    the table; None otherwise (a cancelled or idle-closed match counts for nothing).
    ``record``: the game's record (docs/record-format.md) for what only the moves tell
    (the pile, the melds); None leaves those at zero."""
    if game.status != "over" or game.winner is None or game.match is None:
        return None
    people = game.humans()
    if not people:
        return None
    match = play.match_of(game)
    state = match.deal_state
    totals = list(match.scores)
    sides = [SideFacts(total=totals[s], rank=_rank(s, game.winner, totals),
                       robots=[game.seats[i].ai or "normal" for i in team
                               if game.seats[i].is_ai])
             for s, team in enumerate(state.teams)]
    persons = [Person(key=p.key, name=p.name, seat=i, side=state.side_of[i],
                      away=game.seats[i].away) for i, p in people]
    deals = [_deal(r.totals, r.went_out, r.breakdown) for r in match.results]
    took = [0] * len(game.seats)
    if record is not None:
        _read_record(record, deals, took)
    return MatchFacts(game_id=game.id, chat=game.chat.key, ended_at=game.deal_end_at,
                      variant=game.preset, winner=game.winner, people=persons,
                      sides=sides, deals=deals, took_pile=took, matched=game.matched)


def _rank(side: int, winner: int, totals: list[int]) -> int:
    """0 for the winner; else 1 + the losing sides with a higher total."""
    if side == winner:
        return 0
    return 1 + sum(1 for s, t in enumerate(totals) if s != winner and t > totals[side])


def _deal(totals: list[int], went_out: int, breakdown: list[dict[str, Any]]) -> DealFacts:
    return DealFacts(
        totals=list(totals), went_out=went_out,
        canastras=[[CANASTRA_KEYS.get(str(label), "limpa") for label, _b in row["canastras"]]
                   for row in breakdown],
        relancinho=[int(row.get("relancinho", 0)) for row in breakdown],
        clean_aces=[0] * len(breakdown))


def _read_record(record: dict[str, Any], deals: list[DealFacts], took: list[int]) -> None:
    """Count each seat's pile takings and each side's clean canastras of aces from the
    record, one deal at a time (a deal that does not replay counts none)."""
    head: dict[str, Any] = {k: record[k] for k in ("format", "variant", "options", "players")
                            if k in record}
    raw = record.get("deals") or [record]
    for index, deal in enumerate(raw):
        if not isinstance(deal, dict):
            continue
        for action in deal.get("actions", []):
            if isinstance(action, dict) and action.get("do") == "take_pile":
                seat = action.get("seat")
                if isinstance(seat, int) and 0 <= seat < len(took):
                    took[seat] += 1
        if index < len(deals):
            deals[index].clean_aces = _clean_aces(head, deal)


def _clean_aces(head: dict[str, Any], deal: dict[str, Any]) -> list[int]:
    one: dict[str, Any] = dict(head)
    one.update({k: deal[k] for k in ("first", "scores", "deck", "reshuffle", "actions")
                if k in deal})
    try:
        state = replay(one).state
    except MalformedRecord:
        return []
    return [sum(1 for m in melds if m.is_clean_canastra
                and ((m.kind == "set" and m.low in (1, 14)) or len(m.cards) >= 14))
            for melds in state.melds]
