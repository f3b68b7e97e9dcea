"""Moves the service makes for a seat: AI seats, people who are away, turn timeouts.

AI seats use ``engine.ai.choose(view, level)`` when the engine provides it. A
timeout plays the *safe move* of issue 4: draw from the stock, then discard the card
least useful to the other sides. :func:`fallback_move` (draw, then the safe discard) is
used when the engine AI is missing or proposes a move the engine refuses, so a game
never stalls.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.cards import Card
from engine.deal import can
from engine.errors import IllegalAction
from engine.melds import Meld, extend_meld
from engine.scoring import card_points
from engine.state import DealState
from engine.view import view_for

Chooser = Callable[..., Action]


def engine_chooser() -> Chooser | None:
    """``engine.ai.choose`` if the engine has it, else None (then the fallback plays)."""
    try:
        from engine.ai import choose
    except ImportError:
        return None
    return choose


def _fits(card: Card, melds: list[Meld], state: DealState) -> bool:
    for meld in melds:
        try:
            extend_meld(meld, [card], state.rules)
        except IllegalAction:
            continue
        return True
    return False


def safe_discard(state: DealState, seat: int) -> Action | None:
    """The legal discard least useful to the other sides: not a wild, not fitting an
    opponent's meld, then the highest card points (fewer points left in hand)."""
    side = state.side_of[seat]
    opp = [m for s, melds in enumerate(state.melds) if s != side for m in melds]

    def key(card: Card) -> tuple[bool, bool, int, int]:
        return (card.wild, _fits(card, opp, state), -card_points(card, state.rules), card.index)

    for card in sorted(set(state.hands[seat]), key=key):
        action = Action.discard(seat, card)
        if can(state, action):
            return action
    return None


def fallback_move(state: DealState, seat: int) -> Action:
    """Draw in the draw phase; else the safe discard; else a red 3 to lay (A32).

    Raises ``IllegalAction("stuck")`` when no such move is legal."""
    if state.phase == "draw":
        return Action.draw(seat)
    discard = safe_discard(state, seat)
    if discard is not None:
        return discard
    for card in sorted(set(state.hands[seat])):
        action = Action.lay_three(seat, card)
        if card.rank == 3 and card.is_red and can(state, action):
            return action
    raise IllegalAction("stuck", "nenhuma jogada segura")


def timeout_move(state: DealState, seat: int, chooser: Chooser | None) -> Action:
    """The safe move for an absent person; the AI's move if no safe move is legal."""
    try:
        return fallback_move(state, seat)
    except IllegalAction:
        if chooser is None:
            raise
        return ai_move(state, seat, "normal", chooser)


def ai_move(state: DealState, seat: int, level: str, chooser: Chooser | None) -> Action:
    """The AI's move for ``seat`` (sees only ``view_for``), or the fallback when the AI is
    missing or its move is refused."""
    if chooser is not None:
        try:
            action = chooser(view_for(state, seat), level)
        except (IllegalAction, ValueError, IndexError):
            action = None
        if action is not None and can(state, action):
            return action
    return fallback_move(state, seat)
