"""Differential tests for the engine's fast paths (issue 13).

``extend_meld`` puts one natural card next to a run's end without re-laying the run, and
``extends`` answers "does this card extend this meld" without building the meld when a
cheap look settles it. Over the melds of seeded random deals of every preset (and of
legacy re-layout rules, issue 14), every face must get the same meld, or the same
refusal code, as the general path (the code before issue 13's fast paths, below), and
``extends`` must say True exactly when the general path succeeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine import apply, make_rules
from engine.cards import ALL_FACES, Card, full_deck
from engine.deal import new_deal
from engine.errors import IllegalAction
from engine.melds import (
    RUN,
    SET,
    Meld,
    _make_run,
    _make_set,
    _run_meld,
    check_meldable,
    extend_meld,
    extends,
)
from engine.rules import PRESETS, Rules
from engine.runs import Layout, extend_layout
from engine.simulate import play_random_deal


def _general(meld: Meld, cards: Sequence[Card], rules: Rules) -> Meld:
    """``extend_meld`` as it was before the fast path (every extension re-laid)."""
    for c in cards:
        check_meldable(c, rules)
        if c.wild and not (meld.kind == RUN and c.suit == meld.suit):
            continue
        if meld.kind == SET and c.rank != meld.low:
            raise IllegalAction("meld_wrong_kind", "x")
        if meld.kind == RUN and c.suit != meld.suit:
            raise IllegalAction("meld_wrong_kind", "x")
    union = [*meld.cards, *cards]
    naturals = [c for c in union if not c.wild]
    if meld.kind == SET:
        return _make_set(union, naturals, rules)
    if rules.legacy_relayout:
        return _make_run(union, naturals, rules)
    laid = Layout(meld.low, meld.cards, meld.wild_at)
    return _run_meld(extend_layout(laid, meld.suit, cards, rules), meld.suit, rules)


def _outcome(fn: object, *args: object) -> Meld | str:
    try:
        return fn(*args)  # type: ignore[operator, no-any-return]
    except IllegalAction as err:
        return err.code


def _melds(rules: Rules, players: int, deals: int, seed: int) -> set[Meld]:
    seen: set[Meld] = set()
    deck_rng, rng = random.Random(seed), random.Random(seed + 1)
    for _ in range(deals):
        deck = full_deck(rules.jokers)
        deck_rng.shuffle(deck)
        state = new_deal(rules, players, deck, reshuffle=list(range(len(deck))))
        replay = state.clone()
        for action in play_random_deal(state, rng)[0]:
            apply(replay, action)
            seen.update(m for side in replay.melds for m in side)
    return seen


RULES = [(p, make_rules(p)) for p in PRESETS] + [
    ("buraco legacy", make_rules("buraco").model_copy(update={"legacy_relayout": True}))
]


@pytest.mark.parametrize(("name", "rules"), RULES, ids=[n for n, _ in RULES])
def test_one_card_extension_matches_general_path(name: str, rules: Rules) -> None:
    players = min(rules.players_allowed)
    melds = _melds(rules, players, 6, 31)
    assert len(melds) > 20
    for meld in melds:
        for card in ALL_FACES:
            want = _outcome(_general, meld, [card], rules)
            assert _outcome(extend_meld, meld, [card], rules) == want, (meld, card)
            assert extends(meld, card, rules) == isinstance(want, Meld), (meld, card)


def test_meld_compares_hashes_and_prints_by_its_fields() -> None:
    """``Meld`` was a frozen dataclass; written out (issue 13, branch `engrow`) it keeps
    the dataclass's equality, hash and repr, and the compiled class refuses assignment."""
    rules = make_rules("buraco")
    melds = sorted(_melds(rules, 2, 2, 5), key=repr)
    assert len(melds) > 5
    for m in melds:
        fields = (m.kind, m.cards, m.suit, m.low, m.wild, m.canastra, m.wild_at)
        twin = Meld(*fields)
        assert twin == m and twin is not m and hash(twin) == hash(m) == hash(fields)
        assert repr(m) == (
            f"Meld(kind={m.kind!r}, cards={m.cards!r}, suit={m.suit!r}, low={m.low!r}, "
            f"wild={m.wild!r}, canastra={m.canastra!r}, wild_at={m.wild_at!r})"
        )
        assert m != Meld(m.kind, m.cards, m.suit, m.low, m.wild, m.canastra, m.wild_at + 1)
        assert m != fields
    assert Meld(RUN, (), 0, 1, None, None).wild_at == -1
    import engine

    if engine.NATIVE:
        with pytest.raises(AttributeError):
            melds[0].low = 3  # type: ignore[misc]
