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
from collections.abc import Iterator, Sequence

import pytest

from engine import apply, make_rules
from engine.actions import Action
from engine.cards import ALL_FACES, Card, full_deck
from engine.comparison import RM
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
    meldable,
)
from engine.rules import PRESETS, Rules
from engine.runs import Layout, extend_layout
from engine.simulate import play_random_deal
from engine.state import DealState


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


def _replayed(rules: Rules, players: int, deals: int,
              seed: int) -> Iterator[tuple[DealState, Action | None]]:
    """Each position of seeded random deals, with the action the random player took
    there (the caller's look at the position comes before :func:`apply`), and each
    deal's last position with None."""
    deck_rng, rng = random.Random(seed), random.Random(seed + 1)
    for _ in range(deals):
        deck = full_deck(rules.jokers)
        deck_rng.shuffle(deck)
        state = new_deal(rules, players, deck, reshuffle=list(range(len(deck))))
        replay = state.clone()
        for action in play_random_deal(state, rng)[0]:
            yield replay, action
            apply(replay, action)
        yield replay, None


def _melds(rules: Rules, players: int, deals: int, seed: int) -> set[Meld]:
    seen: set[Meld] = set()
    for replay, _action in _replayed(rules, players, deals, seed):
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


def _old_candidate_melds(hand: list[Card], rules: Rules) -> list[list[Card]]:
    """``simulate.candidate_melds`` as it was before (defaultdicts, a set of ranks per
    suit; issue 37 made them bit masks), all at once."""
    from collections import defaultdict

    from engine.simulate import _ROWS

    ups = [tuple(1 if r + k == 14 else r + k for k in (1, 2, 3)) for r in range(14)]
    out: list[list[Card]] = []
    wilds: list[Card] = []
    by_rank: dict[int, list[Card]] = defaultdict(list)
    by_suit: dict[int, set[int]] = defaultdict(set)
    for c in hand:
        if c.wild:
            wilds.append(c)
        else:
            by_rank[c.rank].append(c)
            by_suit[c.suit].add(c.rank)
    if rules.sets_allowed:
        for cards in by_rank.values():
            if len(cards) >= 3:
                out.append(cards[:3])
            if len(cards) >= 2 and wilds:
                out.append([cards[0], cards[1], wilds[0]])
    wild = wilds[0] if wilds else None
    for suit, ranks in by_suit.items():
        row = _ROWS[suit]
        for r in ranks:
            up1, up2, up3 = ups[r]
            has1, has2, has3 = up1 in ranks, up2 in ranks, up3 in ranks
            if not (has1 or has2):
                continue
            if has1 and has2:
                out.append([row[r], row[up1], row[up2]])
            if has1 and wild:
                out.append([row[r], row[up1], wild])
            if has1 and has3 and wild:
                out.append([row[r], row[up1], row[up3], wild])
            if has2 and has3 and wild:
                out.append([row[r], row[up2], row[up3], wild])
            if has2 and wild:
                out.append([row[r], row[up2], wild])
    return out


def _hands(rules: Rules, players: int, deals: int, seed: int) -> list[list[Card]]:
    """Every hand (with the pile's top card added, as the justified pick-up asks) seen
    along seeded random deals."""
    hands: list[list[Card]] = []
    for replay, action in _replayed(rules, players, deals, seed):
        if action is None:
            continue
        hand = replay.hands[replay.turn]
        hands += [list(hand), [*hand, replay.pile[-1]]] if replay.pile else [list(hand)]
    return hands


WITH_RM = [*RULES, ("rm", RM)]


@pytest.mark.parametrize(("name", "rules"), WITH_RM, ids=[n for n, _ in WITH_RM])
def test_random_player_candidates_and_their_filter(name: str, rules: Rules) -> None:
    """The random player's candidate melds come in the order they came with defaultdicts
    (its choices, and so the benchmark's deals, stay the same) less the sets of a rank
    ``rules.set_ranks`` forbids (``meld_set_rank``, only RM's rules have one: issue
    37), and the trios ``_meldable`` leaves out are exactly those ``make_meld`` refuses
    for a 3 (``meld_three``), so skipping them skips only refused moves."""
    from engine.melds import make_meld, meldable
    from engine.simulate import _meldable, candidate_melds

    for face in ALL_FACES:
        assert meldable(face, rules) == (_outcome(check_meldable, face, rules) is None)
    left_out = set_rank_left_out = 0
    for hand in _hands(rules, min(rules.players_allowed), 4, 47):
        trios = list(candidate_melds(hand, rules))
        old = _old_candidate_melds(hand, rules)
        wrong_rank = [t for t in old if _outcome(make_meld, t, rules) == "meld_set_rank"]
        assert trios == [t for t in old if t not in wrong_rank]
        set_rank_left_out += len(wrong_rank)
        kept = list(_meldable(iter(trios), hand, rules))
        assert kept == [t for t in trios if t in kept]  # same order
        for trio in trios:
            refused = _outcome(make_meld, trio, rules) == "meld_three"
            assert (trio not in kept) == refused, trio
            left_out += refused
    assert left_out > 0 or (rules.red_three_meldable and rules.black_three_meldable)
    assert (set_rank_left_out > 0) == bool(rules.set_ranks)


def test_action_compares_hashes_and_prints_by_its_fields() -> None:
    """``Action`` was a frozen dataclass; written out (issue 13, branch `engrow`) it keeps
    its keyword defaults, equality, hash and repr (``bench/same_play.py`` hashes the
    repr), and the compiled class refuses assignment."""
    from engine import Action, parse_cards

    c = parse_cards("5h 6h 7h")
    actions = [Action(0, "draw"), Action.discard(1, c[0]), Action.extend(0, 2, c[:1]),
               Action.take_pile(1, with_=c[1:]), Action.lay_down(0, [c], [(1, c[:1])])]
    for a in actions:
        fields = (a.seat, a.do, a.card, a.cards, a.meld, a.with_, a.melds, a.extensions)
        twin = Action(*fields)
        assert twin == a and hash(twin) == hash(a) == hash(fields) and twin != fields
        assert repr(a) == (
            f"Action(seat={a.seat!r}, do={a.do!r}, card={a.card!r}, cards={a.cards!r}, "
            f"meld={a.meld!r}, with_={a.with_!r}, melds={a.melds!r}, "
            f"extensions={a.extensions!r})"
        )
    assert repr(actions[1]) == (
        "Action(seat=1, do='discard', card=Card(5h), cards=(), meld=None, with_=None, "
        "melds=(), extensions=())"
    )
    assert Action(0, "take_pile", meld=3) == Action.take_pile(0, meld=3) != Action(0, "draw")
    import engine

    if engine.NATIVE:
        with pytest.raises(AttributeError):
            actions[0].seat = 1  # type: ignore[misc]


@pytest.mark.parametrize(("name", "rules"), RULES, ids=[n for n, _ in RULES])
def test_red_three_scan_matches_the_card_by_card_one(name: str, rules: Rules) -> None:
    """``is_red_three`` and ``holds_red_three`` (identity) say what reading each card's
    rank and colour says, for every face and on every hand of seeded deals."""
    from engine.turns import holds_red_three, is_red_three

    for face in ALL_FACES:
        assert is_red_three(face) == (face.rank == 3 and face.is_red)
    threes = [c for c in ALL_FACES if c.rank == 3]
    hands = _hands(rules, min(rules.players_allowed), 2, 53)
    hands += [[*h[:3], t] for h in hands[:40] for t in threes] + [[], threes]
    for hand in hands:
        want = any(c.rank == 3 and c.is_red for c in hand)
        assert holds_red_three(hand) == want, hand


@pytest.mark.parametrize(("name", "rules"), RULES, ids=[n for n, _ in RULES])
def test_rule_facts_are_the_rules_fields(name: str, rules: Rules,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``memo.facts`` copies the fields it names from the rules, one object per rules
    (while its memo is under its bound of 64: it starts empty here, as the bound may
    otherwise fall between two calls of this test, as it did in CI; and with no last
    rules, else a first call answered from ``last`` leaves ``by_id`` without them)."""
    from engine import memo
    from engine.memo import facts
    from engine.rules import BlackThree, RedThree

    monkeypatch.setattr(memo._KNOWN, "by_id", {})
    monkeypatch.setattr(memo._KNOWN, "last", None)
    known = facts(rules)
    assert known.rules is rules and facts(rules) is known
    for field in ("sets_allowed", "set_max", "set_ranks", "run_lowest", "legacy_relayout",
                  "first_player_second_card", "ace_low", "ace_high", "natural_two",
                  "pickup_justified"):
        assert getattr(known, field) == getattr(rules, field), field
    assert known.red_lay_alone == (rules.red_three == RedThree.LAY_ALONE)
    assert known.red_ordinary == (rules.red_three == "ordinary")
    assert known.black_blocks == (rules.black_three == BlackThree.BLOCKS_PILE)
    assert known.black_kills == (rules.black_three == BlackThree.KILLS_PILE)
    assert known.threes_meldable == (rules.red_three_meldable and rules.black_three_meldable)
    assert [r for r in range(15) if known.set_rank_bits >> r & 1] == sorted(rules.set_ranks)
    other = rules.model_copy(update={"set_max": 3 if rules.set_max != 3 else 4})
    assert facts(other).set_max == other.set_max and facts(rules) is known


def _mangled_runs(rng: random.Random, rules: Rules,
                  tries: int = 6000) -> Iterator[tuple[list[Card], list[Card]]]:
    """Up to ``tries`` card lists near a run of one suit (3..14 cards with a few cards
    of ``rules``' deck inserted or removed: repeats, gaps, aces at both ends, 2s, jokers),
    each with its natural (non-wild) cards; lists with no natural or with a card
    ``rules`` does not meld are skipped."""
    pool = [c for c in ALL_FACES if rules.jokers or c.suit != 4]
    for _ in range(tries):
        suit = rng.randrange(4)
        start = rng.randrange(1, 13)
        cards = [Card.of(1 if r == 14 else r, suit)
                 for r in range(start, min(start + rng.randrange(2, 13), 15))]
        for _ in range(rng.randrange(4)):
            if rng.random() < 0.6:
                cards.insert(rng.randrange(len(cards) + 1), rng.choice(pool))
            elif len(cards) > 1:
                cards.pop(rng.randrange(len(cards)))
        naturals = [c for c in cards if not c.wild]
        if naturals and all(meldable(c, rules) for c in cards):
            yield cards, naturals


@pytest.mark.parametrize(("name", "rules"), WITH_RM, ids=[n for n, _ in WITH_RM])
def test_run_lays_counts_what_make_run_lays(name: str, rules: Rules) -> None:
    """``engine.relaid.run_lays`` (issue 37: the re-laid extension check without a raise)
    says True exactly when ``_make_run`` lays the cards: runs of one suit with a few
    cards added, removed or swapped (repeats, gaps, aces at both ends, own-suit and other
    2s, jokers), 3..14 cards, and every re-laid one-card extension of RM's melds."""
    from engine.relaid import run_lays

    rng = random.Random(37)
    tried = laid = 0
    for cards, naturals in _mangled_runs(rng, rules):
        want = _outcome(_make_run, cards, naturals, rules)
        assert run_lays(cards, rules) == isinstance(want, Meld), (cards, want)
        assert run_lays(cards[:-1], rules, cards[-1]) == isinstance(want, Meld), cards
        tried += 1
        laid += isinstance(want, Meld)
    assert tried > 3000 and 0.2 * tried < laid < 0.8 * tried, (tried, laid)


def test_rm_one_card_extension_matches_general_path() -> None:
    """On RM's rules (re-laid runs, sets of A and K only) ``extend_meld`` and ``extends``
    give what the general path gives, for every face on the melds of seeded deals."""
    melds = _melds(RM, 2, 6, 37) | _melds(RM, 4, 4, 38)
    assert len(melds) > 40
    for meld in melds:
        for card in ALL_FACES:
            want = _outcome(_general, meld, [card], RM)
            assert _outcome(extend_meld, meld, [card], RM) == want, (meld, card)
            assert extends(meld, card, RM) == isinstance(want, Meld), (meld, card)


def test_set_order_is_the_order_a_set_of_ranks_iterates() -> None:
    """``simulate._set_order`` (issue 37) gives ``list(set)`` of the ranks added in the
    order seen (packed four bits a rank, the first lowest): every order of up to 4
    distinct ranks 1..13, and larger seeded ones, with another suit's ranks interleaved
    (ignored)."""
    from itertools import permutations

    from engine.simulate import _set_order

    rng = random.Random(3)
    orders: list[tuple[int, ...]] = [p for k in (1, 2, 3, 4) for p in permutations(range(1, 14), k)]
    orders += [tuple(rng.sample(range(1, 14), rng.randrange(5, 14))) for _ in range(2000)]
    for order in orders:
        seen = [key for r in order for key in (2 * 16 + r, 1 * 16 + (14 - r))]
        mask = sum(1 << r for r in order)
        made: set[int] = set()
        for r in order:
            made.add(r)
        packed = _set_order(seen, 2, mask)
        assert [packed >> 4 * i & 15 for i in range(len(order))] == list(made), order
        assert packed >> 4 * len(order) == 0


@pytest.mark.parametrize(("name", "rules"), WITH_RM, ids=[n for n, _ in WITH_RM])
def test_relay_run_lays_out_what_lay_run_lays_out(name: str, rules: Rules) -> None:
    """``_make_run`` lays a run out by ``engine.relaid.relay_run`` (issue 37) and falls
    back to ``_laid_run`` (``engine.runs.lay_run``) for its refusals: the same meld, or
    the same refusal code, as ``_laid_run`` alone, on runs of one suit with cards added,
    removed or swapped (repeats, gaps, aces at both ends, own-suit and other 2s, two
    wilds, jokers), and relay_run's layout is None exactly where ``_laid_run`` refuses."""
    from engine.melds import _laid_run
    from engine.relaid import relay_run

    rng = random.Random(38)
    laid = refused = 0
    for cards, naturals in _mangled_runs(rng, rules):
        want = _outcome(_laid_run, cards, naturals, rules)
        assert _outcome(_make_run, cards, naturals, rules) == want, (cards, want)
        layout = relay_run(cards, rules)
        assert (layout is None) == isinstance(want, str), (cards, want)
        if isinstance(want, Meld):
            assert layout is not None and want.cards == layout.cards, cards
            assert all(a is b for a, b in zip(want.cards, layout.cards, strict=True))
            laid += 1
        else:
            refused += 1
    assert laid > 1000 and refused > 1000, (laid, refused)
