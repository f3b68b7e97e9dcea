"""Playing cards: ranks, suits, the deck, and their text forms.

A card is a small immutable value. There are 53 distinct faces (13 ranks x 4 suits
plus the joker); two decks hold two copies of each face, so a hand is a multiset and
two equal cards are interchangeable. Every face is interned: ``Card.parse("10h") is
Card.parse("T♥")``.

Text forms (issue 2, "Cards"):
  * input: rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` for ten) followed by a suit
    ``c d h s`` (paus, ouros, copas, espadas) or ``♣ ♦ ♥ ♠``, case-insensitive; the
    joker is ``JK``.
  * code (``card.code``), used in records and button data: ``10h``, ``Ac``, ``JK``.
  * display (``str(card)``): ``10♥``, ``A♣``, ``🃏``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
JOKER_SUIT: Final = 4
SUIT_LETTERS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RED_SUITS: Final = frozenset({DIAMONDS, HEARTS})
RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
JOKER_RANK: Final = 0


class CardParseError(ValueError):
    """Raised by :meth:`Card.parse` for text that is not a card; ``str(err)`` says why."""


class Card(float):
    """One face of the deck: ``rank`` 1..13 (A=1, J=11, Q=12, K=13; 0 for the joker)
    and ``suit`` 0..3 (clubs, diamonds, hearts, spades; 4 for the joker).

    Cards are interned, hashable and totally ordered by (suit, rank), the order a hand
    is shown in (DESIGN "What the people see"). Build them with :meth:`of` or
    :meth:`parse`, never with the constructor.

    A card is a ``float`` (its ``index`` + 1: never 0, never false) only so that ``==``,
    ``<``, ``in``, ``list.remove``, ``count`` and sorting run in C (issue 13): a class
    that orders its instances with Python methods pays a Python call per comparison
    (``int`` would do too, but cannot keep attributes in slots). The number is an
    implementation detail: use ``index``, ``rank``, ``suit``, ``code``.
    """

    __slots__ = ("code", "index", "is_joker", "is_red", "rank", "suit", "wild")
    _interned: ClassVar[dict[tuple[int, int], Card]] = {}
    rank: int
    suit: int
    index: int
    """0..52: clubs A..K, diamonds, hearts, spades, then the joker."""
    code: str
    is_joker: bool
    """True for the joker (only in decks with the ``jokers`` option)."""
    wild: bool
    """True for a card that can act as a wild: any 2 or a joker (RULES §2 "wild cards")."""
    is_red: bool
    """True for hearts and diamonds."""

    __hash__ = object.__hash__  # by identity, in C: equal cards are the same object

    def __new__(cls, rank: int, suit: int) -> Card:
        index = 52 if suit == JOKER_SUIT else suit * 13 + rank - 1
        self = super().__new__(cls, index + 1)
        self.rank = rank
        self.suit = suit
        self.index = index
        self.code = "JK" if suit == JOKER_SUIT else _rank_text(rank) + SUIT_LETTERS[suit]
        self.is_joker = suit == JOKER_SUIT
        self.wild = rank == 2 or self.is_joker
        self.is_red = suit in RED_SUITS
        return self

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The interned card of ``rank`` (1..13) and ``suit`` (0..3); ``of(0, 4)`` is the joker.

        Raises ``CardParseError`` for any other pair.
        """
        card = cls._interned.get((rank, suit))
        if card is None:
            raise CardParseError(f"não existe carta de valor {rank} e naipe {suit}")
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10h"``, ``"Th"``, ``"10♥"``, ``"ac"``, ``"JK"`` (case-insensitive).

        Raises ``CardParseError`` with a plain reason for anything else.
        """
        if not isinstance(text, str):
            raise CardParseError(f"uma carta precisa ser texto, não {type(text).__name__}")
        card = BY_CODE.get(text)  # fast path: the engine's own codes ("10h", "JK")
        if card is not None:
            return card
        t = text.strip()
        if t.upper() in ("JK", "🃏"):
            return JOKER
        if len(t) < 2:
            raise CardParseError(f"{text!r} não é uma carta")
        rank_text, suit_text = t[:-1].upper(), t[-1]
        suit = _SUIT_BY_TEXT.get(suit_text.lower())
        rank = _RANK_BY_TEXT.get(rank_text)
        if suit is None or rank is None:
            raise CardParseError(f"{text!r} não é uma carta")
        return cls._interned[(rank, suit)]

    def __str__(self) -> str:
        if self.suit == JOKER_SUIT:
            return "🃏"
        return _rank_text(self.rank) + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Card.of, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _rank_text(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


_RANK_BY_TEXT: dict[str, int] = {_rank_text(r): r for r in range(1, 14)}
_RANK_BY_TEXT["T"] = 10
_SUIT_BY_TEXT: dict[str, int] = {c: i for i, c in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_TEXT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})

for _s in range(4):
    for _r in range(1, 14):
        Card._interned[(_r, _s)] = Card(_r, _s)
Card._interned[(JOKER_RANK, JOKER_SUIT)] = Card(JOKER_RANK, JOKER_SUIT)
JOKER = Card._interned[(JOKER_RANK, JOKER_SUIT)]
ALL_FACES: tuple[Card, ...] = tuple(sorted(Card._interned.values()))
"""The 53 faces, clubs first, joker last."""
BY_CODE: Final[dict[str, Card]] = {c.code: c for c in ALL_FACES}
"""Each face by its own code (``"10h"``, ``"JK"``): what :meth:`Card.parse` looks up
first, for readers of many stored codes (engine/state_json.py)."""
BY_INDEX: tuple[Card, ...] = ALL_FACES


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse a list of card texts, or one space-separated string (``"7h 8h 9h"``).

    Raises ``CardParseError`` at the first bad card.
    """
    items = texts.split() if isinstance(texts, str) else list(texts)
    return [Card.parse(t) for t in items]


def codes(cards: Iterable[Card]) -> list[str]:
    """Record codes of ``cards``, in order: ``["10h", "Ac"]``."""
    return [c.code for c in cards]


def show(cards: Iterable[Card]) -> str:
    """Display form of ``cards`` joined by spaces: ``"10♥ A♣"``."""
    return " ".join(str(c) for c in cards)


def full_deck(jokers: bool = False, decks: int = 2) -> list[Card]:
    """``decks`` x 52 cards (plus two jokers when ``jokers``), in face order (RULES §2 "decks")."""
    cards = [c for c in ALL_FACES if not c.is_joker] * decks
    if jokers:
        cards += [JOKER, JOKER]
    return cards


def copies_allowed(card: Card, jokers: bool = False, decks: int = 2) -> int:
    """How many copies of ``card`` the decks hold (2 per face; jokers 2 or 0)."""
    if card.is_joker:
        return 2 if jokers else 0
    return decks


def shuffled_deck(jokers: bool = False, decks: int = 2) -> list[Card]:
    """A full deck shuffled with ``secrets.SystemRandom``, top card first."""
    cards = full_deck(jokers, decks)
    secrets.SystemRandom().shuffle(cards)
    return cards


def sort_hand(cards: Sequence[Card]) -> list[Card]:
    """``cards`` sorted by suit then rank (ace low), jokers last: the order a hand is shown in."""
    return sorted(cards)
