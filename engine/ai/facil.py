"""The ``facil`` AI: legal and simple (issue 5).

Always draws from the stock, lays the 3s the rules ask for, lays down the obvious
natural melds and extensions (never spends a wild), goes out whenever the rules
allow, and discards at random among the cards that do not feed an opposing meld.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai import moves
from engine.ai.danger import fits_meld
from engine.ai.plan import LayDown, plan_laydown, trim
from engine.ai.seat import opp_sides, out_allowed
from engine.cards import Card
from engine.view import SeatView


def choose(view: SeatView, rng: random.Random) -> Action:
    """The ``facil`` player's next action for ``view`` (it must be this seat's turn)."""
    if view.phase == "draw":
        return Action.draw(view.seat)
    three = moves.three_to_lay(view)
    if three is not None:
        return Action.lay_three(view.seat, three)
    side = view.melds[view.side]
    plan = plan_laydown(view.hand, side, view.rules)
    if not plan.empty:
        if not _out_ok(view, plan):
            plan = trim(plan, side, 2)
            while not plan.empty and not any(moves.discardable(view, c, plan.left)
                                             for c in plan.left):
                plan = trim(plan, side, len(plan.left) + 1)
        if not plan.empty and moves.vulnerability_ok(view, plan):
            return Action.lay_down(
                view.seat,
                melds=[list(m.cards) for m in plan.new],
                extend=[(i, cards) for i, (cards, _) in sorted(plan.ext.items())],
            )
    return Action.discard(view.seat, _discard(view, rng))


def _out_ok(view: SeatView, plan: LayDown) -> bool:
    after = plan.melds_after(view.melds[view.side])
    if not plan.left:
        return out_allowed(view, after, direct=True)
    if len(plan.left) == 1:
        return out_allowed(view, after, direct=False) and moves.can_throw(
            view, plan.left[0], plan.left)
    return True


def _discard(view: SeatView, rng: random.Random) -> Card:
    options = [c for c in view.hand if moves.discardable(view, c)] or list(view.hand)
    theirs = [m for s in opp_sides(view) for m in view.melds[s]]
    safe = [c for c in options
            if not c.wild and not any(fits_meld(c, m, view.rules) for m in theirs)]
    pool = safe or [c for c in options if not c.wild] or options
    return rng.choice(pool)
