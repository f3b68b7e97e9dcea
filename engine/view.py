"""The one gate for hidden information (DESIGN example 5): what a seat may know.

Everything shown to a person and everything an AI sees is built from
:func:`view_for`. A seat sees its own hand, every meld, the discard pile (the whole
pile when it is open, only the top card when it is closed, RULES §2 "discard pile"),
the laid 3s, and counts of everything else. It never sees another hand, the stock,
a morto or a killed pile, until the deal is over: then :func:`hands_at_end` gives every
seat's leftover cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Final

from engine.cards import Card
from engine.melds import Meld
from engine.rules import RedThree, Rules
from engine.state import DRAW, PLAY, DealState


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` may know of a deal. Lists are per seat or per side as named.

    ``pile``: the whole pile bottom->top if open, else ``[top]`` (or ``[]``);
    ``hand``: sorted; ``pending_morto``: size of a morto this seat took by discard;
    ``seen_taken[seat]``: cards each seat is known to hold because it took them from an
    open pile this deal and has not laid or discarded them since (public knowledge);
    ``pile_dollars``: this seat's Dólares that came with the pile (no replacement, A4).
    """

    seat: int
    side: int
    rules: Rules
    n_players: int
    teams: list[list[int]]
    hand: list[Card]
    hand_counts: list[int]
    melds: list[list[Meld]]
    pile: list[Card]
    pile_size: int
    pile_blocked: bool
    pile_reused: bool
    killed_count: int
    stock_size: int
    mortos_left: list[bool]
    morto_taken: list[bool]
    pending_morto: int
    laid_threes: list[list[Card]]
    turn: int
    phase: str
    can_redraw: bool
    taken_top: Card | None
    drawn: Card | None
    scores: list[int]
    vuln_min: int
    has_laid: bool
    first: int
    turn_count: int
    seen_taken: list[list[Card]] = field(default_factory=list)
    drawn_more: list[Card] = field(default_factory=list)
    """Cards drawn this turn besides ``drawn`` (red-3 replacements, RULES A4, D1), in
    the order drawn; the turn's own player only."""
    pile_dollars: list[Card] = field(default_factory=list)

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.turn == self.seat and self.phase in (DRAW, PLAY)

    @property
    def pile_top(self) -> Card | None:
        """The discard pile's top card, or None."""
        return self.pile[-1] if self.pile else None


_FILL: Final = tuple((f.name, getattr(SeatView, f.name).__set__) for f in fields(SeatView))


def _seat_view(**values: Any) -> SeatView:
    """``SeatView(**values)`` (every field given) without the frozen dataclass's
    ``__init__``, which sets each of its 30 fields through ``object.__setattr__``: the
    slots' own setters take half the time (the AI builds a view for every decision of
    its rollouts)."""
    view = SeatView.__new__(SeatView)
    for name, put in _FILL:
        put(view, values[name])
    return view


_ORDER: Final = attrgetter("index")
"""A card's place in :func:`engine.cards.sort_hand`'s order (suit, then rank, ace low;
jokers last), as a C-level sort key."""


def view_for(state: DealState, seat: int, seen_taken: list[list[Card]] | None = None) -> SeatView:
    """The :class:`SeatView` of ``seat`` (0..n_players-1) in ``state``.

    ``seen_taken`` may be supplied by a caller that tracks public pick-ups itself; by
    default it is the deal's own record of them (``DealState.seen``).
    Raises ``IndexError`` for a seat outside the table.
    """
    if not 0 <= seat < state.n_players:
        raise IndexError(f"no seat {seat}")
    rules = state.rules
    own_turn = state.turn == seat
    pile = list(state.pile) if rules.pile_open else state.pile[-1:]
    taken = seen_taken if seen_taken is not None else list(map(list, state.seen))
    return _seat_view(
        seat=seat,
        side=state.side_of[seat],
        rules=rules,
        n_players=state.n_players,
        teams=state.teams,
        hand=sorted(state.hands[seat], key=_ORDER),  # sort_hand's order, without __lt__
        hand_counts=list(map(len, state.hands)),
        melds=list(map(list, state.melds)),
        pile=pile,
        pile_size=len(state.pile),
        pile_blocked=state.pile_blocked,
        pile_reused=state.pile_reused,
        killed_count=len(state.killed),
        stock_size=len(state.stock),
        mortos_left=list(map(bool, state.mortos)),
        morto_taken=list(state.morto_taken),
        pending_morto=len(state.pending_morto[seat]),
        laid_threes=list(map(list, state.laid_threes)),
        turn=state.turn,
        phase=state.phase,
        can_redraw=own_turn and state.redraw_ok and state.phase == PLAY,
        taken_top=state.taken_top if own_turn else None,
        drawn=state.drawn if own_turn else None,
        drawn_more=list(state.drawn_more) if own_turn else [],
        scores=list(state.scores),
        vuln_min=0 if state.has_laid[seat] else state.vuln_min[seat],
        has_laid=state.has_laid[seat],
        first=state.first,
        turn_count=state.turn_count,
        seen_taken=taken,
        pile_dollars=list(state.pile_dollars[seat]),
    )


def hands_at_end(state: DealState) -> list[list[Card]]:
    """Every seat's cards left in hand, per seat and sorted as a hand is, once the deal
    is over: they count against their side (RULES C14), so nothing is hidden any more
    and the deal's result shows them (issue 30). The one place that lays hands open;
    a morto taken by discard and never played is not in a hand (C12: it does not count).
    Raises ``ValueError`` while the deal is in play (a programming error: no hand is
    ever shown then)."""
    if not state.over:
        raise ValueError("the deal is in play: its hands are hidden")
    return [sorted(hand, key=_ORDER) for hand in state.hands]


_PUTS = tuple(put for _, put in _FILL)
"""The slots' setters in field order (:func:`rollout_view` fills them positionally)."""


def rollout_view(state: DealState, seat: int) -> SeatView:
    """The :class:`SeatView` :func:`view_for` gives ``seat`` (field for field equal),
    built for a caller that reads it only until ``state`` next changes and never changes
    it: the state's own lists are shared, not copied (the melds, the pile when open,
    the laid 3s, the scores, the record of pile pick-ups, the seat's Dólares), and the
    fields are filled in order without a keyword dictionary. ``dificil``'s rollouts build
    one for every decision of ``normal`` (``view_for``'s copies were a tenth of a
    rollout). Only the hand is a new list (sorted, as in ``view_for``)."""
    rules = state.rules
    own_turn = state.turn == seat
    has_laid = state.has_laid[seat]
    values = (
        seat, state.side_of[seat], rules, state.n_players, state.teams,
        sorted(state.hands[seat], key=_ORDER),
        list(map(len, state.hands)),
        state.melds,
        state.pile if rules.pile_open else state.pile[-1:],
        len(state.pile), state.pile_blocked, state.pile_reused, len(state.killed),
        len(state.stock),
        list(map(bool, state.mortos)),
        state.morto_taken,
        len(state.pending_morto[seat]),
        state.laid_threes,
        state.turn, state.phase,
        own_turn and state.redraw_ok and state.phase == PLAY,
        state.taken_top if own_turn else None,
        state.drawn if own_turn else None,
        state.scores,
        0 if has_laid else state.vuln_min[seat],
        has_laid, state.first, state.turn_count,
        state.seen,
        state.drawn_more if own_turn else [],
        state.pile_dollars[seat],
    )
    view = SeatView.__new__(SeatView)
    for put, value in zip(_PUTS, values, strict=True):
        put(view, value)
    return view


@dataclass(frozen=True, slots=True)
class MoveOptions:
    """The kinds of move ``seat`` may start now (the buttons to show). Whether a
    particular meld or discard is legal is decided when it is tried."""

    can_draw: bool
    can_take_pile: bool
    pile_needs_justification: bool
    can_meld: bool
    can_discard: bool
    can_redraw: bool
    threes_to_lay: list[Card]


def legal_moves(view: SeatView) -> MoveOptions:
    """Which buttons to offer ``view.seat`` now (RULES C11 turn order, A9, A23, A33)."""
    rules = view.rules
    mine = view.my_turn
    drawing = mine and view.phase == DRAW
    playing = mine and view.phase == PLAY
    return MoveOptions(
        can_draw=drawing and view.stock_size > 0,
        can_take_pile=can_take_pile(view),
        pile_needs_justification=rules.pickup_justified,
        can_meld=playing and len(view.hand) >= 1,
        can_discard=playing and len(view.hand) >= 1,
        can_redraw=view.can_redraw,
        threes_to_lay=threes_to_lay(view),
    )


def can_take_pile(view: SeatView) -> bool:
    """``legal_moves(view).can_take_pile`` alone (the AI asks it at every draw): this
    seat's draw phase, a pile neither empty nor blocked (A33), and not the single-card
    rule's case (A9: one card in hand, one in the pile)."""
    if not (view.turn == view.seat and view.phase == DRAW):
        return False
    single = view.rules.single_card_pile_rule and len(view.hand) == 1 and view.pile_size == 1
    return view.pile_size > 0 and not view.pile_blocked and not single


def threes_to_lay(view: SeatView) -> list[Card]:
    """``legal_moves(view).threes_to_lay`` alone (the AI asks it at every play): in this
    seat's play phase, the red 3 faces in hand where they are laid alone (A4, A32)."""
    if not (view.turn == view.seat and view.phase == PLAY):
        return []
    if view.rules.red_three not in (RedThree.LAY_ALONE, RedThree.DOLLAR):
        return []
    return sorted({c for c in view.hand if c.rank == 3 and c.is_red})
