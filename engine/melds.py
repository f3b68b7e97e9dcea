"""Melds (jogos): runs (sequências) and sets (trincas), wilds, canastras.

A new meld is laid out from its cards (:func:`make_meld`); once on the table its layout
is kept (RULES C10) and :func:`extend_meld` only adds to it (engine/runs.py):

* RULES C9: a run is one suit, consecutive, no repeated rank, the ace only at an end
  (low before 2, high after K, as the variant allows), no wrap, 3..14 cards; every
  meld has >= 2 natural cards and at most one wild.
* RULES C5: a 2 of the run's own suit in the 2-slot is natural (not the meld's wild).
* RULES C8: A..A is 14 cards of one suit with the ace at both ends.
* RULES C4: in a new run a wild fills the one gap it bridges; with no gap it sits at the
  high end, else the low end (docs/rules-decisions.md D11); with no open end the meld
  is illegal. On the table a wild moves only when the natural card it stands for is
  played into its slot: a same-suit 2 to its natural slot when that slot is contiguous
  (which may turn a canastra clean, C6), else to the high end, else the low end.
* RULES C10: laid cards keep their places and roles; an extension must be contiguous
  with the meld as laid (``meld_not_contiguous``, "falta o 5♥").
* Sets: one rank, 3..``set_max`` cards including the wild, >= 2 naturals; 2s are
  always wild in a set (RULES §2 "set size"); a wild in a set never moves (C4).
* RULES C7 / A12: a canastra (7+ cards) is ``limpa`` without a wild, ``suja`` with
  one, or the highest special kind of the variant it qualifies for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.cards import JOKER_SUIT, RANK_NAMES, Card
from engine.errors import IllegalAction
from engine.memo import RulesMemo, facts
from engine.relaid import relay_run, run_lays
from engine.rules import Rules
from engine.runs import Layout, bad_slot, extend_layout, lay_run, read_layout

RUN: Final = "run"
SET: Final = "set"
LIMPA: Final = "limpa"
SUJA: Final = "suja"


class Meld:
    """A legal meld on the table.

    ``cards``: table order (a run low to high, the wild in the slot it stands for; a set
    naturals first, wild last). ``kind``: ``"run"`` or ``"set"``. ``suit``: the run's
    suit (-1 for a set). ``low``: position of the run's first slot (1 = low ace .. 14 =
    high ace) or the set's rank. ``wild``: the card acting as wild, or None.
    ``canastra``: None, ``"suja"``, ``"limpa"`` or a special key (``"de_mil"``...).
    ``wild_at``: index in ``cards`` of the card acting as wild, -1 for none (a run may
    hold two equal 2s, one natural in slot 2 and one wild, RULES C5).

    Immutable (melds are shared between states and remembered by :func:`make_meld`): the
    fields are ``Final`` (mypy refuses any assignment; the compiled class refuses it at run
    time too). Compared and hashed by its fields in order, like the frozen dataclass it
    was: written out because a dataclass's generated ``__init__`` stays Python under
    mypyc, and a move that lays or extends a meld builds one (issue 13, branch `engrow`).
    """

    __slots__ = ("_hash", "canastra", "cards", "kind", "low", "suit", "wild", "wild_at")

    def __init__(self, kind: str, cards: tuple[Card, ...], suit: int, low: int,
                 wild: Card | None, canastra: str | None, wild_at: int = -1) -> None:
        self.kind: Final = kind
        self.cards: Final = cards
        self.suit: Final = suit
        self.low: Final = low
        self.wild: Final = wild
        self.canastra: Final = canastra
        self.wild_at: Final = wild_at
        self._hash = -1  # hash(self._fields()), on first use (never -1 in CPython)

    def _fields(self) -> tuple[object, ...]:
        return (self.kind, self.cards, self.suit, self.low, self.wild, self.canastra,
                self.wild_at)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Meld):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        """The hash of the fields in order (the AI's plan caches hash melds about a
        hundred times a rollout; the memos of ``extends`` once per meld and hand card),
        computed once: the fields never change and cards hash by identity."""
        h = self._hash
        if h == -1:
            h = self._hash = hash(self._fields())
        return h

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled (and copied) by its fields: the remembered hash is this process's."""
        return (Meld, self._fields())

    def __repr__(self) -> str:
        return (f"Meld(kind={self.kind!r}, cards={self.cards!r}, suit={self.suit!r}, "
                f"low={self.low!r}, wild={self.wild!r}, canastra={self.canastra!r}, "
                f"wild_at={self.wild_at!r})")

    @property
    def is_canastra(self) -> bool:
        """True for 7 or more cards."""
        return self.canastra is not None

    @property
    def is_clean_canastra(self) -> bool:
        """True for a canastra with no card acting as wild (RULES C6)."""
        return self.canastra is not None and self.canastra != SUJA

    @property
    def high(self) -> int:
        """Position of a run's last slot (for a set: its rank)."""
        return self.low + len(self.cards) - 1 if self.kind == RUN else self.low

    @property
    def wild_slot(self) -> int:
        """Slot (1..14) of a run's wild: the rank it stands for (14 = high ace); 0 for
        none or for a set."""
        return self.low + self.wild_at if self.kind == RUN and self.wild_at >= 0 else 0

    def __len__(self) -> int:
        return len(self.cards)


def _fail(code: str, template: str, **params: str | int) -> IllegalAction:
    return IllegalAction(code, template, **params)


def check_meldable(card: Card, rules: Rules) -> None:
    """Raise ``IllegalAction("meld_three")`` for a 3 the variant keeps out of melds
    (tranca: all 3s, RULES A32/A33; altaneira: black 3s, A6)."""
    if card.rank != 3 or card.suit == JOKER_SUIT:
        return
    if card.is_red and not rules.red_three_meldable:
        raise _fail("meld_three", "o {card} é baixado sozinho, não entra em jogo", card=str(card))
    if not card.is_red and not rules.black_three_meldable:
        raise _fail("meld_three", "o {card} (três preto) não pode entrar em jogo", card=str(card))


def meldable(card: Card, rules: Rules) -> bool:
    """True when :func:`check_meldable` accepts ``card`` (a question without the cost
    of a raise, for the random player)."""
    if card.rank != 3 or card.suit == JOKER_SUIT:
        return True
    return rules.red_three_meldable if card.is_red else rules.black_three_meldable


_LAID: Final[RulesMemo[object, Meld | IllegalAction]] = RulesMemo(4096)
"""Answers of :func:`make_meld` (key: the cards) and of :func:`extend_meld` past its fast
path (key: the meld and the cards): a meld, or the refusal to raise again."""


def _remembered(rules: Rules, key: object, lay: Callable[[], Meld]) -> Meld:
    memo = _LAID.of(rules)
    got = memo.get(key)
    if got is None:
        try:
            got = lay()
        except IllegalAction as err:
            got = err
        _LAID.put(memo, key, got)
    if isinstance(got, IllegalAction):
        raise IllegalAction(got.code, got.template, **got.params)
    return got


def make_meld(cards: Sequence[Card], rules: Rules, wild_slot: int = 0) -> Meld:
    """Build a new meld from ``cards`` (any order) under ``rules``, a run's wild in slot
    ``wild_slot`` (1..14: a choice of ``engine.wilds.wild_choices``; 0: by C4, D11).

    Raises ``IllegalAction`` with codes ``meld_too_short``, ``meld_three``,
    ``meld_all_wild``, ``meld_two_wilds``, ``meld_set_forbidden``, ``meld_set_too_big``,
    ``meld_mixed_suits``, ``meld_repeated_rank``, ``meld_gap``, ``meld_no_room``,
    ``meld_ace`` (RULES C4, C5, C8, C9, §2 "melds", "set size", "ace"), ``meld_wild_slot``
    (no such place). Answers are remembered per rules (cards in order, and the slot).
    """
    laid = tuple(cards)
    if wild_slot:
        return _remembered(rules, (laid, wild_slot), lambda: _make_meld(laid, rules, wild_slot))
    return _remembered(rules, laid, lambda: _make_meld(laid, rules))


def _make_meld(cards: Sequence[Card], rules: Rules, wild_slot: int = 0) -> Meld:
    if len(cards) < 3:
        raise _fail("meld_too_short", "um jogo precisa de pelo menos 3 cartas")
    for c in cards:
        check_meldable(c, rules)
    naturals = [c for c in cards if not c.wild]
    if not naturals:
        raise _fail("meld_all_wild", "um jogo precisa de pelo menos 2 cartas naturais")
    rank = naturals[0].rank
    if all(c.rank == rank for c in naturals) and len(naturals) >= 2:
        if wild_slot:
            raise bad_slot()
        return _make_set(cards, naturals, rules)
    return _make_run(cards, naturals, rules, wild_slot)


def extend_meld(meld: Meld, cards: Sequence[Card], rules: Rules, wild_slot: int = 0) -> Meld:
    """The meld with ``cards`` added; the cards already laid keep their places (RULES C10).

    A run grows by :func:`engine.runs.extend_layout`: new cards must close up with the
    run as laid, a natural 2 in its own slot stays natural (C5), and the wild moves only
    when the natural card it stands for is played into its slot (C4). A set takes cards
    of its rank, its wild stays (C4). The result keeps the meld's kind and suit (C10).
    Raises ``IllegalAction`` with codes ``meld_no_cards``, ``meld_three``,
    ``meld_wrong_kind`` (the cards do not belong to this meld), ``meld_set_too_big``,
    ``meld_two_wilds``, ``meld_repeated_rank``, ``meld_no_room`` or
    ``meld_not_contiguous`` ("falta o 5♥", naming the card next to the meld).
    With ``rules.legacy_relayout`` (records written before issue 14) the meld is rebuilt
    from all its cards instead, as the engine then did. ``wild_slot``: a new wild's slot
    in a run that had none (``engine.wilds.extension_wild_choices``; else ``meld_wild_slot``).
    """
    if not cards:
        raise _fail("meld_no_cards", "escolha as cartas para acrescentar ao jogo")
    for c in cards:
        check_meldable(c, rules)
        if c.wild and not (meld.kind == RUN and c.suit == meld.suit):
            continue
        if meld.kind == SET and c.rank != meld.low:
            raise _fail("meld_wrong_kind", "as cartas não servem nesta trinca")
        if meld.kind == RUN and c.suit != meld.suit:
            raise _fail("meld_wrong_kind", "as cartas não servem nesta sequência (outro naipe)")
    if wild_slot and (meld.kind == SET or rules.legacy_relayout):
        raise bad_slot()
    if len(cards) == 1 and not wild_slot:
        one = cards[0]
        grown = _at_an_end(meld, one, rules) if meld.kind == RUN else _set_plus(meld, one, rules)
        if grown is not None:
            return grown
    added = tuple(cards)
    key = (meld, added, wild_slot) if wild_slot else (meld, added)
    return _remembered(rules, key, lambda: _extended(meld, added, rules, wild_slot))


def _extended(meld: Meld, cards: Sequence[Card], rules: Rules, wild_slot: int = 0) -> Meld:
    union = [*meld.cards, *cards]
    naturals = [c for c in union if not c.wild]
    if meld.kind == SET:
        return _make_set(union, naturals, rules)
    if rules.legacy_relayout:
        return _make_run(union, naturals, rules)
    laid = Layout(meld.low, meld.cards, meld.wild_at)
    return _run_meld(extend_layout(laid, meld.suit, cards, rules, wild_slot), meld.suit, rules)


def _at_an_end(meld: Meld, card: Card, rules: Rules) -> Meld | None:
    """The run ``meld`` with the natural ``card`` (rank 3..K, the run's suit, already
    checked meldable) next to one of its ends, or None when ``card`` does not go there.

    The common extension, without re-laying the run (issue 13): :func:`extend_layout`
    gives the same layout, as no laid card moves (RULES C10)."""
    rank, known = card.rank, facts(rules)
    if card.wild or rank == 1 or rank < known.run_lowest or known.legacy_relayout:
        return None
    low, laid = meld.low, meld.cards
    if rank == low + len(laid):
        return _run_meld(Layout(low, (*laid, card), meld.wild_at), meld.suit, rules)
    if rank == low - 1:
        wild_at = meld.wild_at + 1 if meld.wild_at >= 0 else -1
        return _run_meld(Layout(rank, (card, *laid), wild_at), meld.suit, rules)
    return None


def _set_plus(meld: Meld, card: Card, rules: Rules) -> Meld | None:
    """The set ``meld`` with ``card`` (of its rank or a wild, already checked), laid out as
    :func:`_make_set` lays the union (naturals in order, the wild last), or None when the
    general path must decide (every refusal)."""
    known = facts(rules)
    if not known.sets_allowed or len(meld.cards) >= known.set_max:
        return None
    wild = meld.wild
    if card.wild:
        if wild is not None:
            return None
        ordered = (*meld.cards, card)
        wild = card
    else:
        naturals = sorted([*(c for c in meld.cards if not c.wild), card])
        ordered = (*naturals, wild) if wild is not None else tuple(naturals)
    kind = _canastra_kind(ordered, wild, None, 0, rules)
    return Meld(SET, ordered, -1, meld.low, wild, kind, len(ordered) - 1 if wild else -1)


def extends(meld: Meld, card: Card, rules: Rules) -> bool:
    """True when ``extend_meld(meld, [card], rules)`` succeeds (not computed when a cheaper
    look settles it: a natural card next to a run's end or of a set's rank, or one that
    can only repeat a slot or leave a gap; a re-laid run, ``legacy_relayout``: counted by
    :func:`engine.relaid.run_lays`, no meld built and no refusal raised, issue 37)."""
    rank, known = card.rank, facts(rules)
    if known.legacy_relayout and meld.kind == RUN:
        if not meldable(card, rules) or (not card.wild and card.suit != meld.suit):
            return False  # meld_three, meld_wrong_kind
        return run_lays(meld.cards, rules, card)
    simple = not card.wild and rank not in (1, 3) and not known.legacy_relayout
    if simple and meld.kind == SET:
        if rank != meld.low:
            return False
        return known.sets_allowed and len(meld.cards) < known.set_max
    if simple and card.suit == meld.suit and rank >= known.run_lowest:
        low, high = meld.low, meld.low + len(meld.cards) - 1
        if rank in (low - 1, high + 1):
            return True
        if meld.wild_at < 0 or rank != low + meld.wild_at:
            return False  # a slot laid with a natural card, or a gap (RULES C10)
    try:
        extend_meld(meld, [card], rules)
    except IllegalAction:
        return False
    return True


def meld_from_table(cards: Sequence[Card], rules: Rules) -> Meld:
    """The meld whose cards lie on the table in this order (a stored position, RULES C10).

    A run written slot by slot (docs/record-format.md) keeps exactly that layout, so a
    wild stays in the slot it holds; any other order (older or hand-written positions)
    is laid out as a new meld (:func:`make_meld`). Raises ``IllegalAction`` as
    :func:`make_meld` for cards that form no meld.
    """
    layout = read_layout(cards, rules) if len(cards) <= 14 else None
    if layout is None:
        return make_meld(cards, rules)
    for c in cards:
        check_meldable(c, rules)
    return _run_meld(layout, next(c.suit for c in cards if not c.wild), rules)


def _run_meld(layout: Layout, suit: int, rules: Rules) -> Meld:
    wild = layout.cards[layout.wild_at] if layout.wild_at >= 0 else None
    kind = _canastra_kind(layout.cards, wild, suit, layout.low, rules)
    return Meld(RUN, layout.cards, suit, layout.low, wild, kind, layout.wild_at)


def _make_set(cards: Sequence[Card], naturals: list[Card], rules: Rules) -> Meld:
    if not rules.sets_allowed:
        raise _fail("meld_set_forbidden", "nesta variante só valem sequências do mesmo naipe")
    if rules.set_ranks and naturals[0].rank not in rules.set_ranks:
        raise _fail("meld_set_rank", "nesta variante não vale trinca de {rank}",
                    rank=RANK_NAMES.get(naturals[0].rank, str(naturals[0].rank)))
    if len(cards) > rules.set_max:
        raise _fail(
            "meld_set_too_big", "uma trinca tem no máximo {size} cartas", size=rules.set_max
        )
    wilds = [c for c in cards if c.wild]
    if len(wilds) > 1:
        raise _fail("meld_two_wilds", "só pode haver um curinga por jogo")
    ordered = (*sorted(naturals), *wilds)
    wild = wilds[0] if wilds else None
    kind = _canastra_kind(ordered, wild, None, 0, rules)
    return Meld(SET, ordered, -1, naturals[0].rank, wild, kind, len(ordered) - 1 if wild else -1)


def _make_run(cards: Sequence[Card], naturals: list[Card], rules: Rules,
              wild_slot: int = 0) -> Meld:
    if not wild_slot:  # counted (engine.relaid.relay_run, issue 37); refusals below
        layout = relay_run(cards, rules)
        if layout is not None:
            return _run_meld(layout, naturals[0].suit, rules)
    return _laid_run(cards, naturals, rules, wild_slot)


def _laid_run(cards: Sequence[Card], naturals: list[Card], rules: Rules,
              wild_slot: int = 0) -> Meld:
    suit = naturals[0].suit
    if any(c.suit != suit for c in naturals):
        raise _fail("meld_mixed_suits", "uma sequência precisa ser toda do mesmo naipe")
    twos = [c for c in cards if c.rank == 2 and c.suit != JOKER_SUIT]
    jokers = [c for c in cards if c.suit == JOKER_SUIT]
    own_two = next((c for c in twos if c.suit == suit), None) if rules.natural_two else None
    error: IllegalAction | None = None
    # RULES C5: try the same-suit 2 as natural first, then as the wild.
    for natural_two in (own_two, None) if own_two is not None else (None,):
        wilds = [*jokers, *twos]
        if natural_two is not None:
            wilds.remove(natural_two)
        if len(wilds) > 1:
            error = error or _fail("meld_two_wilds", "só pode haver um curinga por jogo")
            continue
        try:
            layout = lay_run(naturals, natural_two, wilds[0] if wilds else None, rules,
                             wild_slot)
            return _run_meld(layout, suit, rules)
        except IllegalAction as err:
            error = err if error is None or error.code in ("meld_two_wilds",
                                                           "meld_wild_slot") else error
    assert error is not None
    raise error


def _canastra_kind(
    cards: tuple[Card, ...], wild: Card | None, suit: int | None, low: int, rules: Rules
) -> str | None:
    if len(cards) < 7:
        return None
    if wild is not None:
        return SUJA
    best: tuple[int, str] | None = None
    if suit is not None:
        for special in rules.special_canastras:
            fits = len(cards) == special.length and suit in special.suits and low in special.lows
            if fits and (best is None or special.bonus > best[0]):
                best = (special.bonus, special.key)
    return best[1] if best else LIMPA


def canastra_bonus(meld: Meld, rules: Rules) -> int:
    """Bonus points of ``meld`` (0 if not a canastra): RULES C7 (one bonus, the highest)."""
    if meld.canastra is None:
        return 0
    if meld.canastra == SUJA:
        return rules.dirty_bonus
    if meld.canastra == LIMPA:
        return rules.clean_bonus
    return next(s.bonus for s in rules.special_canastras if s.key == meld.canastra)


def canastra_label(meld: Meld, rules: Rules) -> str:
    """pt-BR label of the meld's canastra kind (``"limpa"``, ``"Real, A–A limpa em ♥/♦"``),
    or ``""`` for a meld that is not a canastra (RULES C7: unambiguous labels)."""
    if meld.canastra in (None, LIMPA, SUJA):
        return meld.canastra or ""
    return next(s.label for s in rules.special_canastras if s.key == meld.canastra)
