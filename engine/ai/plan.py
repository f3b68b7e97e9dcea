"""Lay-down planning: which new melds and extensions to put down from a hand.

:func:`plan_laydown` proposes a lay-down in three passes (extend the side's runs, lay
new natural melds, extend the side's sets), then spends wilds by a small policy.
Every meld it proposes has been built with the engine's ``make_meld`` / ``extend_meld``,
so the lay-down is legal as far as meld shapes go (RULES C4, C5, C9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, NamedTuple

from engine.ai.danger import fits_meld
from engine.ai.hand import Candidate, greedy_partition
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import Meld, extend_meld, make_meld
from engine.rules import Rules
from engine.scoring import card_points


@dataclass
class LayDown:
    """A planned lay-down: ``new`` melds (as built) and ``ext`` (meld index -> cards
    added and the meld after), ``left`` the hand afterwards."""

    new: list[Meld] = field(default_factory=list)
    ext: dict[int, tuple[list[Card], Meld]] = field(default_factory=dict)
    left: list[Card] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when nothing would be laid."""
        return not self.new and not self.ext

    def laid_cards(self) -> list[Card]:
        """Every card the lay-down moves from the hand to the table."""
        out = [c for m in self.new for c in m.cards]
        for cards, _ in self.ext.values():
            out.extend(cards)
        return out

    def points(self, rules: Rules) -> int:
        """Card points laid (what vulnerability counts, RULES A22)."""
        return sum(card_points(c, rules) for c in self.laid_cards())

    def melds_after(self, side_melds: Sequence[Meld]) -> list[Meld]:
        """The side's melds as they would stand after the lay-down."""
        out = [self.ext[i][1] if i in self.ext else m for i, m in enumerate(side_melds)]
        return out + self.new


class WildPolicy(NamedTuple):
    """When the planner may spend wilds: ``new_melds`` how many new melds may use one;
    ``canastra`` whether a wild may turn a 6-card meld into a canastra; ``extend``
    whether a wild may lengthen a meld otherwise. (A named tuple: it is part of every
    plan cache key, and a tuple hashes in C.)"""

    new_melds: int = 0
    canastra: bool = False
    extend: bool = False


def try_extend(meld: Meld, cards: Sequence[Card], rules: Rules) -> Meld | None:
    """``extend_meld`` or None when the engine refuses."""
    try:
        return extend_meld(meld, cards, rules)
    except IllegalAction:
        return None


def try_make(cards: Sequence[Card], rules: Rules) -> Meld | None:
    """``make_meld`` or None when the engine refuses."""
    try:
        return make_meld(cards, rules)
    except IllegalAction:
        return None


def _extend_pass(plan: LayDown, side_melds: Sequence[Meld], kind: str, rules: Rules) -> None:
    for i, base in enumerate(side_melds):
        if base.kind != kind:
            continue
        added, cur = plan.ext.get(i, ([], base))
        changed = True
        while changed:
            changed = False
            # same_line, inline (a copy of the list: cards are removed below)
            line = ([c for c in plan.left if c.suit == cur.suit] if kind == "run"
                    else [c for c in plan.left if c.rank == cur.low])
            for card in line:
                if card.wild and not (card.rank == 2 and card.suit == cur.suit):
                    continue
                if not fits_meld(card, cur, rules):
                    continue
                nxt = try_extend(cur, [card], rules)
                if nxt is not None and nxt.wild == cur.wild:
                    cur, changed = nxt, True
                    added = [*added, card]
                    plan.left.remove(card)
        if added:
            plan.ext[i] = (added, cur)


def _lay_new(plan: LayDown, cands: Sequence[Candidate], rules: Rules) -> None:
    for cand in cands:
        meld = try_make(cand.cards, rules)
        if meld is None:
            continue
        plan.new.append(meld)
        for c in cand.cards:
            plan.left.remove(c)


def _spend_wilds(plan: LayDown, side_melds: Sequence[Meld], policy: WildPolicy,
                 rules: Rules) -> None:
    wilds = [c for c in plan.left if c.wild]
    if not wilds:
        return
    if policy.new_melds:
        cands, _ = greedy_partition([c for c in plan.left], rules, policy.new_melds)
        _lay_new(plan, [c for c in cands if c.wild is not None], rules)
    if not (policy.canastra or policy.extend):
        return
    targets = sorted(
        ((i, plan.ext[i][1] if i in plan.ext else m) for i, m in enumerate(side_melds)),
        key=lambda im: -len(im[1]),
    )
    for i, meld in targets:
        wild = next((c for c in plan.left if c.wild), None)
        if wild is None:
            return
        if meld.wild is not None or meld.is_canastra:
            continue
        if len(meld) != 6 and not policy.extend:
            continue
        nxt = try_extend(meld, [wild], rules)
        if nxt is None:
            continue
        added = plan.ext[i][0] if i in plan.ext else []
        plan.ext[i] = ([*added, wild], nxt)
        plan.left.remove(wild)


NO_WILDS: Final = WildPolicy()
"""The policy that spends no wild."""

PLAN_CACHE: Final = 1024
"""Lay-downs :func:`plan_laydown` remembers. Most repeats come within one ``dificil``
decision; a much bigger cache holds so many objects that Python's full garbage
collections pause for tens of milliseconds (4,096: 40 ms; 16,384: 90 ms, past
``dificil``'s budget), while 1,024 keeps them near 13 ms, as with no cache."""


def plan_laydown(hand: Sequence[Card], side_melds: Sequence[Meld], rules: Rules,
                 policy: WildPolicy = NO_WILDS) -> LayDown:
    """The lay-down the AI would make from ``hand`` onto its side's ``side_melds``.

    Cards that cannot leave the hand by melding (tranca 3s, Trancas) stay in ``left``.
    The caller still checks the going-out rules (C13) and vulnerability (A22). The
    result is the caller's own copy; the planning itself is memoized (``dificil``'s
    rollouts meet the same hand and table again and again).
    """
    done = _planned(tuple(hand), tuple(side_melds), _token(rules), policy)
    return LayDown(new=list(done.new), ext=dict(done.ext), left=list(done.left))


def shared_plan(hand: Sequence[Card], side_melds: Sequence[Meld], rules: Rules,
                policy: WildPolicy = NO_WILDS) -> LayDown:
    """:func:`plan_laydown`'s plan without the copy: the memo's own object, shared with
    every later caller, so it must only be read (``normal`` reads its plans, and
    :func:`trim` builds new ones; a copy of three lists per plan was ~2% of a
    rollout)."""
    return _planned(tuple(hand), tuple(side_melds), _token(rules), policy)


class _Rules:
    """A cache key standing for one ``Rules`` object: it hashes by identity, where a
    ``Rules`` (a pydantic model) hashes all its fields in Python on every lookup."""

    __slots__ = ("rules",)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules


_TOKENS: Final[dict[int, _Rules]] = {}


def _token(rules: Rules) -> _Rules:
    """The :class:`_Rules` of ``rules`` (kept while the table is small; it holds
    ``rules`` alive, so an id is never reused while its entry stands)."""
    token = _TOKENS.get(id(rules))
    if token is None or token.rules is not rules:
        if len(_TOKENS) >= 64:
            _TOKENS.clear()
        token = _TOKENS[id(rules)] = _Rules(rules)
    return token


@lru_cache(maxsize=PLAN_CACHE)
def _planned(hand: tuple[Card, ...], side_melds: tuple[Meld, ...], key: _Rules,
             policy: WildPolicy) -> LayDown:
    rules = key.rules
    base = _natural(hand, side_melds, key)
    if not policy.new_melds and not (policy.canastra or policy.extend):
        return base  # no wild to spend: every such policy plans alike
    plan = LayDown(new=list(base.new), ext=dict(base.ext), left=list(base.left))
    _spend_wilds(plan, side_melds, policy, rules)
    return plan


@lru_cache(maxsize=PLAN_CACHE)
def _natural(hand: tuple[Card, ...], side_melds: tuple[Meld, ...], key: _Rules) -> LayDown:
    """The lay-down before any wild is spent (the part every policy shares: ``normal``
    plans the same hand with two policies in one decision)."""
    rules = key.rules
    plan = LayDown(left=list(hand))
    _extend_pass(plan, side_melds, "run", rules)
    cands, _ = greedy_partition(plan.left, rules, 0)
    _lay_new(plan, cands, rules)
    _extend_pass(plan, side_melds, "set", rules)
    return plan


def trim(plan: LayDown, side_melds: Sequence[Meld], keep: int) -> LayDown:
    """A smaller lay-down leaving at least ``keep`` cards in hand: drop the smallest new
    melds first, then whole extensions (shortest first). May return an empty plan."""
    new = sorted(plan.new, key=len)
    ext = dict(plan.ext)
    left = list(plan.left)
    while len(left) < keep and (new or ext):
        if new:
            gone = new.pop(0)
            left.extend(gone.cards)
        else:
            i = min(ext, key=lambda k: len(ext[k][0]))
            left.extend(ext.pop(i)[0])
    return LayDown(new=new, ext=ext, left=left)
