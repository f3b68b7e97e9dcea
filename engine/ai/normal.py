"""The ``normal`` AI: a heuristic player (issue 5).

Draw phase: take the pile when it improves the lay-down enough (open pile), or when
the top card can be justified (closed pile, RULES A10, A11, A38). Play phase: lay
3s (A4, A32), lay down every natural meld and extension, spend wilds on canastras
late or when rich in wilds, go out when the rules allow and it pays (always to take
the morto), otherwise discard the card that is least useful to keep and least
useful to the opponents.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.actions import Action
from engine.ai import moves
from engine.ai.danger import discard_scores
from engine.ai.plan import LayDown, WildPolicy, shared_plan, trim
from engine.ai.seat import ending_pays, morto_open, out_allowed, table_of
from engine.ai.weights import NORMAL, Weights
from engine.cards import Card
from engine.melds import Meld
from engine.rules import Requirement
from engine.view import SeatView

ALL_IN: Final = WildPolicy(new_melds=3, canastra=True, extend=True)


def choose(view: SeatView, rng: random.Random, w: Weights = NORMAL) -> Action:
    """The ``normal`` player's next action for ``view`` (it must be this seat's turn),
    judging with the weights ``w`` (:mod:`engine.ai.weights`)."""
    if view.phase == "draw":
        return choose_draw(view, w)
    return choose_play(view, rng, w)


def choose_draw(view: SeatView, w: Weights = NORMAL) -> Action:
    """Draw from the stock or take the pile (whichever the heuristic values more)."""
    take = moves.pile_take(view)
    if take is not None and pile_worth(view, take, w):
        return take
    return Action.draw(view.seat)


def pile_worth(view: SeatView, take: Action, w: Weights = NORMAL) -> bool:
    """Whether taking the pile beats a stock card: compares the lay-down the hand
    makes with and without the pile's cards, and charges for cards left in hand late."""
    rules = view.rules
    side = view.melds[view.side]
    pile = list(view.pile) if rules.pile_open else []
    if not rules.pile_open:
        return view.pile_size >= 2 or take.meld is not None
    policy = wild_policy(view, len(view.hand) + len(pile), w)
    base = playable(view, shared_plan(view.hand, side, rules, policy))
    more = playable(view, shared_plan([*view.hand, *pile], side, rules, policy))
    gain = float(more.points(rules) - base.points(rules))
    gain += w.pile_canastra * (_canastras(more, side) - _canastras(base, side))
    gain += w.pile_wild * sum(1 for c in pile if c.wild)
    is_late = late(view, w)
    risk = w.pile_risk_late if is_late else w.pile_risk_early
    gain -= risk * w.pile_left * max(0, len(more.left) - len(base.left))
    gain += w.pile_size_early * len(pile) if not is_late else 0
    return gain >= w.pile_threshold


def playable(view: SeatView, plan: LayDown) -> LayDown:
    """``plan`` cut to what may be laid this turn: a plan that empties the hand (or
    leaves one card) while the side may not go out keeps two cards (C13). Without this
    cut two players short of a canastra (bossa_nova, A16) could pass a one-card pile
    back and forth for ever, each counting a lay-down it may not make."""
    if len(plan.left) >= 2 or _going_out_ok(view, plan):
        return plan
    return trim(plan, view.melds[view.side], 2)


def _canastras(plan: LayDown, side: Sequence[Meld]) -> int:
    return sum(1 for m in plan.melds_after(side) if m.is_canastra)


def late(view: SeatView, w: Weights = NORMAL) -> bool:
    """The deal is near its end: little stock or an opponent about to go out."""
    if view.stock_size < w.late_stock:
        return True
    mine = view.teams[view.side]
    counts = view.hand_counts
    return min([counts[s] for s in range(len(counts)) if s not in mine]) <= w.late_opp


def wild_policy(view: SeatView, hand_size: int, w: Weights = NORMAL) -> WildPolicy:
    """When ``normal`` spends wilds: rich in wilds, late in the deal, or needing any
    canastra to go out; runs toward special canastras stay clean otherwise (C7)."""
    wilds = len([c for c in view.hand if c.wild])
    side = view.melds[view.side]
    has_canastra = False
    for m in side:
        if m.canastra is not None:  # Meld.is_canastra, without the property call
            has_canastra = True
            break
    need_any = view.rules.end_requires == Requirement.ANY_CANASTRA and not has_canastra
    is_late = late(view, w)
    special = bool(view.rules.special_canastras)
    rich, short = wilds >= w.wild_rich, hand_size <= w.wild_short
    return WildPolicy(
        new_melds=1 if (rich or is_late or short) else 0,
        canastra=is_late or need_any or (rich and not special),
        extend=is_late and short,
    )


def choose_play(view: SeatView, rng: random.Random, w: Weights = NORMAL) -> Action:
    """Play phase: lay 3s, redraw when the first card is useless, lay down, discard."""
    three = moves.three_to_lay(view)
    if three is not None:
        return Action.lay_three(view.seat, three)
    lay = choose_laydown(view, None, eager_out=True, w=w)
    if lay is not None:
        return lay
    return Action.discard(view.seat, choose_discard(view, rng, w))


def choose_laydown(view: SeatView, policy: WildPolicy | None, eager_out: bool,
                   w: Weights = NORMAL) -> Action | None:
    """The lay-down to make now, or None. Goes out (empties the hand, or leaves one
    card to discard) only when allowed and, for the final going-out, when it pays
    (judged with the weights ``w``). ``policy`` None: :func:`wild_policy` for the hand,
    worked out only when the all-in plan lays something."""
    side = view.melds[view.side]
    rules = view.rules
    if eager_out:
        full = shared_plan(view.hand, side, rules, ALL_IN)
        if full.empty:
            return None  # ALL_IN tries every wild any policy may spend: none lays a card
        if _going_out_ok(view, full) and _pays(view, full, w):
            return _as_action(view, full)
    if policy is None:
        policy = wild_policy(view, len(view.hand), w)
    plan = shared_plan(view.hand, side, rules, policy)
    if plan.empty:
        return None
    if not (_going_out_ok(view, plan) and _pays(view, plan, w)) or len(plan.left) >= 2:
        plan = trim(plan, side, 2)
        while not plan.empty and not _has_discard(view, plan.left):
            plan = trim(plan, side, len(plan.left) + 1)
    if plan.empty or not moves.vulnerability_ok(view, plan):
        return None
    return _as_action(view, plan)


def _going_out_ok(view: SeatView, plan: LayDown) -> bool:
    if len(plan.left) > 1:
        return False
    after = plan.melds_after(view.melds[view.side])
    if not plan.left:
        return out_allowed(view, after, direct=True)
    return out_allowed(view, after, direct=False) and moves.can_throw(
        view, plan.left[0], plan.left)


def _pays(view: SeatView, plan: LayDown, w: Weights) -> bool:
    return morto_open(view) or ending_pays(view, plan.melds_after(view.melds[view.side]), w)


def _has_discard(view: SeatView, left: Sequence[Card]) -> bool:
    return any(moves.discardable(view, c, left) for c in left)


def _as_action(view: SeatView, plan: LayDown) -> Action | None:
    if not moves.vulnerability_ok(view, plan):
        return None
    return Action.lay_down(
        view.seat,
        melds=[list(m.cards) for m in plan.new],
        extend=[(i, cards) for i, (cards, _) in sorted(plan.ext.items())],
    )


def choose_discard(view: SeatView, rng: random.Random, w: Weights = NORMAL) -> Card:
    """The discard with the lowest keep-value plus danger (ties broken at random)."""
    table = table_of(view)
    side = view.melds[view.side]
    options = moves.discard_options(view) or list(view.hand)
    scores = discard_scores(options, view.hand, side, table, view.rules, w)
    scored = [(score, rng.random(), c) for score, c in zip(scores, options, strict=True)]
    return min(scored)[2]
