"""Where a wild may stand (issue 30): the places a person chooses between.

A run's one wild that bridges no gap sits at the high end, else the low end (RULES C4,
docs/rules-decisions.md D11, D20); where both ends are open the person may choose the
other one: 2♦ 2♦ 3♦ is A-2-3 or 2-3-4 (the other 2♦ natural in its slot, C5), 5♥ 6♥ 7♥
+ 2♣ is 2♣(4) 5♥ 6♥ 7♥ or 5♥ 6♥ 7♥ 2♣(8). These functions list the places, the default
first; :func:`engine.melds.make_meld` and :func:`engine.melds.extend_meld` take the
chosen one as ``wild_slot``, and the ``meld`` / ``extend`` actions carry it
(docs/record-format.md). A wild in a set stands for the set's rank (no choice); a wild
already laid moves only as C4 says (no choice either). Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import Meld, extend_meld, make_meld
from engine.rules import Rules
from engine.runs import MAX_SLOT


def wild_choices(cards: Sequence[Card], rules: Rules) -> list[int]:
    """The slots (1..14; 14 = high ace) the wild of the new meld ``cards`` may stand in,
    the default first (where :func:`make_meld` puts it without a choice): two or more
    mean the person chooses (issue 30: 2♦ 2♦ 3♦ is A-2-3 or 2-3-4, RULES C4, C5, docs
    D11: a wild that bridges no gap may sit at either open end). ``[]`` when ``cards``
    form no meld, or one with no wild in a run (a set's wild stands for its rank)."""
    try:
        meld = make_meld(cards, rules)
    except IllegalAction:
        return []
    if not meld.wild_slot:
        return []
    return [meld.wild_slot] + [slot for slot in range(1, MAX_SLOT + 1)
                               if slot != meld.wild_slot and _lays(cards, rules, slot)]


def _lays(cards: Sequence[Card], rules: Rules, slot: int) -> bool:
    try:
        return make_meld(cards, rules, slot).wild_slot == slot
    except IllegalAction:
        return False


def extension_wild_choices(meld: Meld, cards: Sequence[Card], rules: Rules) -> list[int]:
    """As :func:`wild_choices`, for ``cards`` (with a new wild) added to the run ``meld``
    on the table: its slots the new wild may take, the default first (RULES C4, C10,
    docs D20); ``[]`` when the cards do not extend it or bring no wild into a run."""
    try:
        grown = extend_meld(meld, cards, rules)
    except IllegalAction:
        return []
    if not grown.wild_slot or meld.wild_at >= 0:
        return []
    return [grown.wild_slot] + [
        slot for slot in range(1, MAX_SLOT + 1)
        if slot != grown.wild_slot and _extends_at(meld, cards, rules, slot)]


def _extends_at(meld: Meld, cards: Sequence[Card], rules: Rules, slot: int) -> bool:
    try:
        return extend_meld(meld, cards, rules, slot).wild_slot == slot
    except IllegalAction:
        return False
