"""Which moves the rules allow this seat now, as the AI needs them: the ways to take
the pile (RULES A10, A11, A23, A33, A38), the 3s to lay (A4, A32), the legal
discards (C2, C3, C13, A32) and the vulnerability minimum (A22).

Reads only the seat's view; mirrors the engine's checks so the AI never offers a move
the engine refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.actions import Action
from engine.ai.hand import positions
from engine.ai.plan import LayDown, try_extend, try_make
from engine.ai.seat import out_allowed
from engine.cards import Card
from engine.melds import SET
from engine.pile import top_two_allowed
from engine.rules import RedThree
from engine.view import SeatView, can_take_pile, threes_to_lay


def lay_alone(card: Card, view: SeatView) -> bool:
    """A tranca red 3: laid alone, never discarded (RULES A32)."""
    return card.rank == 3 and card.is_red and view.rules.red_three == RedThree.LAY_ALONE


def discardable(view: SeatView, card: Card, hand: Sequence[Card] | None = None) -> bool:
    """May ``card`` be discarded from ``hand`` (default: the view's hand) now? C3 (not
    the card taken from the pile), A32 (never a tranca red 3), C13 (the last card)."""
    if hand is None and view.taken_top is None and len(view.hand) >= 2:
        return not lay_alone(card, view)  # what the general case below finds, no copies
    rest = list(view.hand if hand is None else hand)
    if not can_throw(view, card, rest):
        return False
    rest.remove(card)
    if not rest:
        return out_allowed(view, view.melds[view.side], direct=False)
    return True


def discard_options(view: SeatView) -> list[Card]:
    """``[c for c in view.hand if discardable(view, c)]``: the hand's legal discards in
    hand order; one pass without a call per card when no pile card was taken this turn
    and at least two cards are held (every card then but a tranca red 3)."""
    hand = view.hand
    if view.taken_top is None and len(hand) >= 2:
        if view.rules.red_three != RedThree.LAY_ALONE:
            return list(hand)
        return [c for c in hand if not (c.rank == 3 and c.is_red)]
    return [c for c in hand if discardable(view, c)]


def can_throw(view: SeatView, card: Card, hand: Sequence[Card]) -> bool:
    """C3 and A32 only: ``card`` is not a tranca red 3, nor the card just taken from
    the pile while ``hand`` holds another card (going-out rules are the caller's)."""
    if lay_alone(card, view):
        return False
    rest = list(hand)
    rest.remove(card)
    return not (card == view.taken_top and (card not in rest or any(c != card for c in rest)))


def vulnerability_ok(view: SeatView, plan: LayDown) -> bool:
    """True unless the seat is vulnerable and the lay-down is short of the minimum (A22)."""
    return not view.vuln_min or plan.points(view.rules) >= view.vuln_min


def three_to_lay(view: SeatView) -> Card | None:
    """A red 3 / Dólar to lay now, if the engine would accept it (A4, A32, C13). A
    tranca red 3 may always be laid (engine D1); a Dólar drawn or dealt is replaced from
    the stock; one that came with the pile (``view.pile_dollars``) or met an empty stock
    is not, so it is laid only when the cards left still end the turn (C13)."""
    if view.rules.red_three not in (RedThree.LAY_ALONE, RedThree.DOLLAR):
        return None  # no 3 is laid alone (legal_moves offers none)
    threes = threes_to_lay(view)
    if not threes:
        return None
    if view.rules.red_three == RedThree.LAY_ALONE:
        return threes[0]
    for card in threes:
        if view.stock_size > 0 and view.hand.count(card) > view.pile_dollars.count(card):
            return card
    card = threes[0]
    rest = list(view.hand)
    rest.remove(card)
    side = view.melds[view.side]
    if len(rest) >= 2:
        return card
    if not rest:
        return card if out_allowed(view, side, direct=True) else None
    ok = out_allowed(view, side, direct=False) and rest[0] != view.taken_top
    return card if ok else None


def pile_take(view: SeatView) -> Action | None:
    """A legal way to take the pile now, or None: the bare take for an open pile; for a
    closed pile the top card onto a side meld, else with two natural hand cards, else
    with a wild (A10, A11, A38)."""
    if not can_take_pile(view) or view.pile_top is None:
        return None
    if not view.rules.pickup_justified:
        return Action.take_pile(view.seat)
    top = view.pile_top
    keep = len(view.hand) + view.pile_size - 1
    for i, meld in enumerate(view.melds[view.side]):
        if not top.wild and (top.rank != meld.low if meld.kind == SET else top.suit != meld.suit):
            continue  # a natural joins only a set of its rank, a run of its suit (C4, C9)
        made = try_extend(meld, [top], view.rules)
        if made is not None and top_two_allowed(meld, made, top, view.rules) and keep >= 2:
            return Action.take_pile(view.seat, meld=i)
    if keep - 2 < 2:
        return None
    pairs = _justifying_pairs(view, top)
    return Action.take_pile(view.seat, with_=pairs[0]) if pairs else None


def _near(card: Card, top: Card, view: SeatView) -> bool:
    if card.wild:
        return not view.rules.justify_wild_same_suit or card.suit == top.suit
    if card.rank == top.rank:
        return view.rules.sets_allowed
    if card.suit != top.suit:
        return False
    return any(abs(p - q) <= 2 for p in positions(card, view.rules)
               for q in ((2,) if top.rank == 2 else positions(top, view.rules)))


def _justifying_pairs(view: SeatView, top: Card) -> list[tuple[Card, Card]]:
    """Pairs of hand cards that make a meld with ``top``; natural pairs first."""
    near = sorted({c for c in view.hand if _near(c, top, view)})
    found: list[tuple[int, tuple[Card, Card]]] = []
    for a, b in combinations(near, 2):
        meld = try_make([top, a, b], view.rules)
        if meld is None or not top_two_allowed(None, meld, top, view.rules):
            continue
        wilds = sum(1 for c in (a, b) if c.wild and meld.wild == c)
        found.append((wilds, (a, b)))
    for a in near:  # two copies of the same face
        if view.hand.count(a) >= 2:
            meld = try_make([top, a, a], view.rules)
            if meld is not None and top_two_allowed(None, meld, top, view.rules):
                found.append((0, (a, a)))
    found.sort(key=lambda f: f[0])
    return [pair for _, pair in found]
