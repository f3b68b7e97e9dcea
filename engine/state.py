"""The whole (hidden) state of one deal, its JSON form (read back by
:mod:`engine.state_json`), and dealing a new deal.

Internally the stock keeps its top card at the END of the list (``stock.pop()`` draws);
every JSON form lists it top first, as the record format says.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from typing import Any, Final

from engine.cards import Card, codes, full_deck, shuffled_deck
from engine.errors import IllegalAction
from engine.melds import Meld
from engine.rules import Rules

DRAW: Final = "draw"
PLAY: Final = "play"
OVER: Final = "over"


class Event:
    """Something that happened, in public terms only (never a hidden card).

    ``kind``: see docs/engine-api.md; ``seat``: who caused it (-1 for the table);
    ``public``: JSON-ready facts everyone may see (cards laid, counts). Compared by
    value, unhashable, like the dataclass it was: written out because a dataclass's
    generated ``__init__`` stays Python under mypyc, and every move builds an event
    (issue 13: 220 ns a build compiled, 75 ns written out).
    """

    __slots__ = ("kind", "public", "seat")

    def __init__(self, kind: str, seat: int, public: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.public: dict[str, Any] = {} if public is None else public

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.seat, self.public) == (other.kind, other.seat, other.public)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, seat={self.seat!r}, public={self.public!r})"


@dataclass(slots=True)
class DealState:
    """One deal. ``hands[seat]``, ``melds[side]``, ``pile`` bottom->top, ``stock`` top LAST,
    ``mortos[side]`` ([] once taken or used), ``laid_threes[side]``, ``killed`` (dead
    cards of killed piles, A6), ``pending_morto[seat]`` (a morto taken by discard,
    playable from that seat's next turn, C12). Per-turn fields reset at every turn.
    """

    rules: Rules
    n_players: int
    teams: list[list[int]]
    side_of: list[int]
    hands: list[list[Card]]
    melds: list[list[Meld]]
    pile: list[Card]
    stock: list[Card]
    mortos: list[list[Card]]
    first: int = 0
    turn: int = 0
    phase: str = DRAW
    scores: list[int] = field(default_factory=list)
    laid_threes: list[list[Card]] = field(default_factory=list)
    morto_taken: list[bool] = field(default_factory=list)
    pending_morto: list[list[Card]] = field(default_factory=list)
    killed: list[Card] = field(default_factory=list)
    pile_reused: bool = False
    pile_blocked: bool = False
    reshuffle: list[int] = field(default_factory=list)
    turn_count: int = 0
    has_laid: list[bool] = field(default_factory=list)
    vuln_min: list[int] = field(default_factory=list)
    relancinhos: list[int] = field(default_factory=list)
    went_out: int = -1
    # per turn
    taken_top: Card | None = None
    drawn: Card | None = None
    drawn_more: list[Card] = field(default_factory=list)
    redraw_ok: bool = False
    laid_this_turn: bool = False
    from_pile: list[Card] = field(default_factory=list)
    pile_dollars: list[list[Card]] = field(default_factory=list)
    seen: list[list[Card]] = field(default_factory=list)
    laid_before_turn: bool = False

    def __post_init__(self) -> None:
        """Fill per-seat and per-side lists a caller left empty (their natural start)."""
        n, sides = self.n_players, len(self.teams)
        self.scores = self.scores or [0] * sides
        self.laid_threes = self.laid_threes or [[] for _ in range(sides)]
        self.morto_taken = self.morto_taken or [False] * sides
        self.relancinhos = self.relancinhos or [0] * sides
        self.pending_morto = self.pending_morto or [[] for _ in range(n)]
        self.pile_dollars = self.pile_dollars or [[] for _ in range(n)]
        self.seen = self.seen or [[] for _ in range(n)]
        self.has_laid = self.has_laid or [False] * n
        self.vuln_min = self.vuln_min or [0] * n

    # Derived --------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the deal has ended (batida or stock exhaustion)."""
        return self.phase == OVER

    @property
    def n_sides(self) -> int:
        """Number of sides (teams or lone players)."""
        return len(self.teams)

    def side(self, seat: int) -> int:
        """The side index of ``seat``."""
        return self.side_of[seat]

    def has_canastra(self, side: int, clean: bool = False) -> bool:
        """Whether ``side`` has a canastra (a clean one when ``clean``)."""
        if clean:
            return any(m.is_clean_canastra for m in self.melds[side])
        return any(m.is_canastra for m in self.melds[side])

    def morto_available(self, side: int) -> bool:
        """The side's morto is still on the table to be taken by a going-out."""
        return bool(self.mortos[side])

    def all_cards(self) -> Counter[Card]:
        """Multiset of every card of the deal, wherever it is (for conservation checks)."""
        groups: list[Iterable[Card]] = [*self.hands, *self.mortos, *self.pending_morto,
                                        *self.laid_threes, self.pile, self.stock, self.killed]
        groups += [m.cards for side in self.melds for m in side]
        return Counter(chain.from_iterable(groups))  # one count, not one per group

    def clone(self) -> DealState:
        """A copy that shares no mutable list with ``self`` (cards and melds are immutable).

        Built field by field without ``__init__``: every field is already filled, so
        ``__post_init__`` has nothing to do. ``teams``, ``side_of`` and ``reshuffle`` are
        shared: nothing changes them after the deal is dealt."""
        new = _new_state()
        new.rules, new.n_players, new.teams, new.side_of = (
            self.rules, self.n_players, self.teams, self.side_of)
        new.hands = [h[:] for h in self.hands]
        new.melds = [s[:] for s in self.melds]
        new.pile, new.stock, new.killed = self.pile[:], self.stock[:], self.killed[:]
        new.mortos = [m[:] for m in self.mortos]
        new.first, new.turn, new.phase = self.first, self.turn, self.phase
        new.scores, new.morto_taken = self.scores[:], self.morto_taken[:]
        new.laid_threes = [t[:] for t in self.laid_threes]
        new.pending_morto = [p[:] for p in self.pending_morto]
        new.pile_reused, new.pile_blocked = self.pile_reused, self.pile_blocked
        new.reshuffle, new.turn_count = self.reshuffle, self.turn_count
        new.has_laid, new.vuln_min = self.has_laid[:], self.vuln_min[:]
        new.relancinhos, new.went_out = self.relancinhos[:], self.went_out
        new.taken_top, new.drawn, new.redraw_ok = self.taken_top, self.drawn, self.redraw_ok
        new.laid_this_turn, new.from_pile = self.laid_this_turn, self.from_pile[:]
        new.drawn_more = self.drawn_more[:]
        new.pile_dollars = [p[:] for p in self.pile_dollars]
        new.seen = [p[:] for p in self.seen]
        new.laid_before_turn = self.laid_before_turn
        return new

    # JSON -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Complete JSON form (a ``position`` with every extra field needed to resume)."""
        return {
            "hands": [codes(h) for h in self.hands],
            "melds": [[codes(m.cards) for m in side] for side in self.melds],
            "pile": codes(self.pile),
            "stock": codes(reversed(self.stock)),
            "mortos": [codes(m) for m in self.mortos],
            "turn": self.turn,
            "phase": self.phase,
            "laid_threes": [codes(t) for t in self.laid_threes],
            "scores": list(self.scores),
            "first": self.first,
            "morto_taken": list(self.morto_taken),
            "pending_morto": [codes(p) for p in self.pending_morto],
            "killed": codes(self.killed),
            "pile_reused": self.pile_reused,
            "pile_blocked": self.pile_blocked,
            "reshuffle": list(self.reshuffle),
            "turn_count": self.turn_count,
            "has_laid": list(self.has_laid),
            "vuln_min": list(self.vuln_min),
            "relancinhos": list(self.relancinhos),
            "went_out": self.went_out,
            "taken_top": self.taken_top.code if self.taken_top else None,
            "drawn": self.drawn.code if self.drawn else None,
            "redraw_ok": self.redraw_ok,
            "laid_this_turn": self.laid_this_turn,
            "from_pile": codes(self.from_pile),
            "pile_dollars": [codes(p) for p in self.pile_dollars],
            "seen": [codes(p) for p in self.seen],
            "laid_before_turn": self.laid_before_turn,
            **({"drawn_more": codes(self.drawn_more)} if self.drawn_more else {}),
        }

    @classmethod
    def from_json(cls, rules: Rules, data: Any) -> DealState:
        """Rebuild a deal from :meth:`to_json` or a record ``position``.

        Raises ``IllegalAction("bad_position")`` with the reason for anything malformed:
        a missing field, wrong shapes, a number or flag of the wrong JSON type (never
        coerced: ``"7"``, ``7.5`` or ``true`` is no seat), unknown cards, illegal melds,
        more copies of a card than the decks hold.
        """
        from engine.state_json import read_deal  # it builds DealState: imported late

        return read_deal(cls, rules, data)


@cache
def _deck_counts(jokers: bool) -> Counter[Card]:
    """Copies of each card in the full deck (read only: it is shared)."""
    return Counter(full_deck(jokers))


def _new_state() -> DealState:
    """An empty DealState for :meth:`DealState.clone` to fill (skips ``__init__``)."""
    return DealState.__new__(DealState)


def sides_of(teams: list[list[int]], n_players: int) -> list[int]:
    """Seat -> side index for ``teams`` (RULES §1)."""
    side_of = [0] * n_players
    for i, team in enumerate(teams):
        for seat in team:
            side_of[seat] = i
    return side_of


def vuln_default(rules: Rules, state: DealState) -> list[int]:
    """Each seat's minimum first lay-down at the start of a deal: ``rules.vulnerable_min``
    for a seat whose side's score has reached ``rules.vulnerable_at``, else 0 (RULES A22)."""
    if rules.vulnerable_at is None:
        return [0] * state.n_players
    return [
        rules.vulnerable_min if state.scores[state.side_of[s]] >= rules.vulnerable_at else 0
        for s in range(state.n_players)
    ]


def deal_cards(
    rules: Rules,
    n_players: int,
    deck: Iterable[Card] | None = None,
    first: int = 0,
    scores: list[int] | None = None,
    reshuffle: list[int] | None = None,
) -> DealState:
    """Deal a new deal from ``deck`` (top card first; None shuffles with SystemRandom).

    Procedure (docs/record-format.md): one card at a time to each seat, starting with
    ``first`` (the player after the dealer) and going round in seat order, until every
    hand has ``rules.hand_size`` cards; then, with mortos, ``hand_size`` cards to each
    side's morto in side order; the rest is the stock (its top is the next card).
    Raises ``IllegalAction("bad_deck")`` for a deck that is not the full deck of the rules.
    """
    teams = rules.teams(n_players)
    cards = list(deck) if deck is not None else shuffled_deck(rules.jokers)
    if Counter(cards) != _deck_counts(rules.jokers):
        raise IllegalAction(
            "bad_deck", "o baralho precisa ter exatamente as cartas dos dois baralhos"
        )
    side_of = sides_of(teams, n_players)
    hs = rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(n_players)]
    pos = 0
    for _ in range(hs):
        for k in range(n_players):
            hands[(first + k) % n_players].append(cards[pos])
            pos += 1
    mortos: list[list[Card]] = []
    for _ in teams:
        if rules.morto:
            mortos.append(cards[pos : pos + hs])
            pos += hs
        else:
            mortos.append([])
    stock = list(reversed(cards[pos:]))
    pile = [stock.pop()] if rules.pile_starts_with_card else []  # docs/RULES.md "comparison"
    sides = len(teams)
    scores = list(scores) if scores is not None else [0] * sides
    if rules.reuse_pile_once and reshuffle is None:
        reshuffle = list(range(len(cards)))
        secrets.SystemRandom().shuffle(reshuffle)
    state = DealState(
        rules=rules,
        n_players=n_players,
        teams=teams,
        side_of=side_of,
        hands=hands,
        melds=[[] for _ in teams],
        pile=pile,
        stock=stock,
        mortos=mortos,
        first=first,
        turn=first,
        phase=DRAW,
        scores=scores,
        laid_threes=[[] for _ in teams],
        morto_taken=[False] * sides,
        pending_morto=[[] for _ in range(n_players)],
        reshuffle=list(reshuffle or []),
        has_laid=[False] * n_players,
        relancinhos=[0] * sides,
        redraw_ok=False,
        pile_dollars=[[] for _ in range(n_players)],
    )
    state.vuln_min = vuln_default(rules, state)
    return state
