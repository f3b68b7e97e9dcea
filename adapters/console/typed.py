"""What a person types in the terminal, read against the hand they see (issue 14).

Cards are typed by their number on screen (``d 7``) or by name (``d js``, ``b 4d 5d 6d``):
rank ``A 2 … 10 J Q K`` then a suit letter or symbol. The letters are the game's own
(records, ``Card.parse``): ``c`` ♣ paus (clubs), ``d`` ♦ ouros (diamonds), ``h`` ♥ copas
(hearts), ``s`` ♠ espadas (spades); the Portuguese initials that clash with none of them
also work: ``p`` paus, ``o`` ouros, ``e`` espadas. ``c`` is always paus, never copas: a
name the hand lacks is refused with the symbol it means, so ``7c`` typed for copas reads
"Não há 7♣ na sua mão". The joker is ``jk``.

Hand numbers stay put during a turn: :func:`keep_order` keeps the cards already shown under
their numbers, leaves the number of a card that left unused until the next turn, and gives
new cards (a draw, the pile, a morto) new numbers at the end, marked.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence

from bot import outcome
from bot.i18n import N_
from engine.cards import Card, CardParseError

MAX_DIGITS = 3  # no hand or table reaches 1000 cards or melds
MAX_ECHO = outcome.TYPED_ECHO  # typed text shown back in a refusal is cut after this many
PT_SUITS = {"p": "c", "o": "d", "e": "s"}
# The example of each command, by number and by name.
EXAMPLES = {"b": ("b 1 2 3", "b 4d 5d 6d"), "d": ("d 7", "d js"), "e": ("e 2 4 5", "e 1 9c"),
            "l": ("l 4 5", "l 4d 5d"), "t": ("t 4", "t 3h")}


SEPARATORS = re.compile(r"[\s,;]+")
"""What sets typed cards apart: spaces, commas, semicolons, mixed (``b 1,2, 3``)."""
RANGE = re.compile(r"(\d+)[-\u2013](\d+)")
"""``1-3`` (or ``1–3``): the hand numbers 1 2 3; numbers only, either way round."""


def groups_of(text: str) -> list[list[str]]:
    """The typed words of ``text`` (what follows the command), one list per meld (``/``
    sets melds apart: ``b 1 2 3 / 7 8 9``): split at :data:`SEPARATORS`, a
    :data:`RANGE` of numbers written out (``1-3`` is ``1 2 3``, ``3-1`` is ``3 2 1``; an
    end longer than :data:`MAX_DIGITS` is kept alone, to be refused as a number). No
    text is ``[[]]``."""
    groups: list[list[str]] = []
    for part in text.split("/"):
        words: list[str] = []
        for word in SEPARATORS.split(part):
            span = RANGE.fullmatch(word)
            if span is None:
                words += [word] if word else []
                continue
            ends = [end for end in span.groups() if len(end) > MAX_DIGITS]
            if ends:
                words.append(ends[0])
                continue
            low, high = int(span[1]), int(span[2])
            step = 1 if high >= low else -1
            words += [str(k) for k in range(low, high + step, step)]
        groups.append(words)
    return groups


class Typo(Exception):
    """A typed word the hand cannot read: ``msgid`` (pt-BR, for the translator) and its
    placeholders."""

    def __init__(self, msgid: str, **kw: object) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.kw = kw


def echo(text: str) -> str:
    """Typed text as shown back: printable characters only, cut to ``MAX_ECHO`` + ``…``
    (:func:`bot.outcome.echo`, a shorter cut: a typed word, not a name)."""
    return outcome.echo(text, MAX_ECHO)


def is_number(word: str) -> bool:
    """ASCII digits only (``²`` and ``١`` are not numbers here)."""
    return word.isascii() and word.isdigit()


def card_of(word: str) -> Card | None:
    """The card named by ``word`` (``js``, ``10h``, ``4♦``, ``7p``), None if not a name."""
    if not word or is_number(word):
        return None
    low = word.lower()
    if low[-1:] in PT_SUITS and low not in ("jk",):
        low = low[:-1] + PT_SUITS[low[-1]]
    try:
        return Card.parse(low)
    except CardParseError:
        return None


def positions(words: list[str], codes: Sequence[str | None], taken: set[int]) -> list[int]:
    """0-based positions (hand numbers - 1) of the typed ``words`` in a hand whose
    numbers name cards of record ``codes`` (None: a number whose card left this turn,
    :func:`keep_order`); ``taken`` collects the positions used so far (a name takes the
    first copy not taken yet). Raises :class:`Typo`."""
    out: list[int] = []
    for word in words:
        if is_number(word):
            if len(word) > MAX_DIGITS or not 1 <= int(word) <= len(codes):
                raise Typo(N_("Não há carta {n} na sua mão (1 a {max})."), n=echo(word),
                           max=len(codes))
            pos = int(word) - 1
            if codes[pos] is None:
                raise Typo(N_("A carta {n} já saiu da sua mão nesta vez."), n=int(word))
            if pos in taken:
                raise Typo(N_("Carta {n} repetida."), n=int(word))
        else:
            card = card_of(word)
            if card is None:
                raise Typo("bad_word", word=echo(word))
            free = [i for i, code in enumerate(codes) if code == card.code and i not in taken]
            if not free:
                other = N_("Não há outro {card} na sua mão.")
                raise Typo(other if card.code in codes else N_("Não há {card} na sua mão."),
                           card=str(card))
            pos = free[0]
        taken.add(pos)
        out.append(pos)
    return out


def keep_order(shown: Sequence[str | None], codes: list[str], marked: int = 0,
               leaving: Collection[int] = ()) -> tuple[list[int | None], int]:
    """Display order for a hand view whose cards (in the view's order) have ``codes``,
    keeping every number of the previous display ``shown`` (codes by number - 1, None
    for a number whose card left earlier this turn; the last ``marked`` numbers new this
    turn): a card still held keeps its number, a card that left leaves its number
    unused (None), and the cards not shown before get new numbers at the end (issue 30:
    ``b 6 7 3`` then ``d 5`` must still discard the card shown as 5). Of two copies of a
    card (two decks) one of which left, the number in ``leaving`` (0-based: the numbers
    the person just played) is the one left unused. Returns the view index of each
    number (None: unused) and how many numbers, at the end, are new this turn."""
    held = Counter(codes)
    keep: set[int] = set()
    by_code: dict[str, list[int]] = {}
    for pos, code in enumerate(shown):
        if code is not None:
            by_code.setdefault(code, []).append(pos)
    for code, spots in by_code.items():
        spots.sort(key=lambda pos: (pos in leaving, pos))
        keep.update(spots[:held[code]])
    free: dict[str, list[int]] = {}
    for i, code in enumerate(codes):
        free.setdefault(code, []).append(i)
    order: list[int | None] = [free[code].pop(0) if pos in keep and code is not None else None
                               for pos, code in enumerate(shown)]
    kept = {i for i in order if i is not None}
    new = [i for i in range(len(codes)) if i not in kept]
    return order + list(new), min(marked, len(shown)) + len(new)
