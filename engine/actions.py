"""Actions a seat takes during a deal, with their record (JSON) form.

Record forms (issue 2, ``docs/record-format.md``)::

    {"seat": s, "do": "draw"}
    {"seat": s, "do": "take_pile"}                      # open pile
    {"seat": s, "do": "take_pile", "with": [cards]}     # top card + hand cards, new meld
    {"seat": s, "do": "take_pile", "meld": i}           # top card onto the side's meld i
    {"seat": s, "do": "meld", "melds": [[cards], ...], "extend": [{"meld": i, "cards": [...]}]}
    {"seat": s, "do": "extend", "meld": i, "cards": [...]}
    # a run's wild in the slot the person chose (issue 30, engine.wilds): "wilds" beside
    # "melds" (one slot per new meld, 0 = the default place), "wild" in an "extend"
    # entry, an extend action or a take_pile "with"; absent when every wild is where
    # the rules put it
    {"seat": s, "do": "discard", "card": c}
    {"seat": s, "do": "redraw"}                         # RULES A9
    {"seat": s, "do": "lay_three", "card": c}           # RULES A4, A32
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.cards import Card, CardParseError, codes

KINDS = ("draw", "take_pile", "meld", "extend", "discard", "redraw", "lay_three")


def _malformed(template: str, **params: str | int) -> Exception:
    from engine.errors import IllegalAction

    return IllegalAction("malformed", template, **params)


class Action:
    """One move by ``seat``. ``do`` is one of :data:`KINDS`.

    ``card``: the discarded or laid card. ``cards``: the cards of an ``extend``.
    ``meld``: a meld index of the acting side (``extend``, ``take_pile`` onto a meld).
    ``with_``: hand cards that form a new meld with the pile's top card.
    ``melds``: the new melds of a ``meld`` action; ``extensions``: its (index, cards).
    ``wilds``: the slot chosen for the wild of each new meld, then of each extension
    (an ``extend``: one), 0 for the default place; ``()`` when all are 0 (issue 30).

    Immutable, compared and hashed by its fields in order, like the frozen dataclass it
    was; written out (issue 13, branch `engrow`) because a dataclass's generated
    ``__init__`` stays Python under mypyc, and the random player builds one for every
    candidate meld. The fields are ``Final`` (mypy refuses an assignment; the compiled
    class refuses it at run time too).
    """

    __slots__ = ("card", "cards", "do", "extensions", "meld", "melds", "seat", "wilds",
                 "with_")

    def __init__(
        self,
        seat: int,
        do: str,
        card: Card | None = None,
        cards: tuple[Card, ...] = (),
        meld: int | None = None,
        with_: tuple[Card, ...] | None = None,
        melds: tuple[tuple[Card, ...], ...] = (),
        extensions: tuple[tuple[int, tuple[Card, ...]], ...] = (),
        wilds: tuple[int, ...] = (),
    ) -> None:
        self.seat: Final = seat
        self.do: Final = do
        self.card: Final = card
        self.cards: Final = cards
        self.meld: Final = meld
        self.with_: Final = with_
        self.melds: Final = melds
        self.extensions: Final = extensions
        self.wilds: Final = wilds if any(wilds) else ()

    def _fields(self) -> tuple[object, ...]:
        """The fields in order; ``wilds`` only when set, so an action without a chosen
        wild compares, hashes and prints as before issue 30 (``bench/same_play.py``)."""
        fields = (self.seat, self.do, self.card, self.cards, self.meld, self.with_,
                  self.melds, self.extensions)
        return (*fields, self.wilds) if self.wilds else fields

    def wild_of(self, k: int) -> int:
        """The slot chosen for the wild of new meld ``k`` (extensions follow the new
        melds), 0 for the default place."""
        return self.wilds[k] if k < len(self.wilds) else 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Action(seat={self.seat!r}, do={self.do!r}, card={self.card!r}, "
                f"cards={self.cards!r}, meld={self.meld!r}, with_={self.with_!r}, "
                f"melds={self.melds!r}, extensions={self.extensions!r}"
                + (f", wilds={self.wilds!r})" if self.wilds else ")"))

    # Constructors --------------------------------------------------------------
    @classmethod
    def draw(cls, seat: int) -> Action:
        """Draw the stock's top card."""
        return _shared(("draw", seat), lambda: cls(seat, "draw"))

    @classmethod
    def redraw(cls, seat: int) -> Action:
        """First turn of the first player: the drawn card starts the pile; draw again (A9)."""
        return cls(seat, "redraw")

    @classmethod
    def take_pile(
        cls, seat: int, with_: Sequence[Card] | None = None, meld: int | None = None,
        wild: int = 0,
    ) -> Action:
        """Take the discard pile, justified by ``with_`` hand cards or onto meld ``meld``
        (A10); ``wild``: the chosen slot of the new meld's wild (0: the default place)."""
        if with_ is None:
            return _shared(("take_pile", seat, meld), lambda: cls(seat, "take_pile", meld=meld))
        return cls(seat, "take_pile", with_=tuple(with_), meld=meld, wilds=(wild,))

    @classmethod
    def lay_down(
        cls,
        seat: int,
        melds: Sequence[Sequence[Card]] = (),
        extend: Sequence[tuple[int, Sequence[Card]]] = (),
        wilds: Sequence[int] = (),
    ) -> Action:
        """One lay-down: new ``melds`` and ``extend`` = [(meld index, cards)] (A22);
        ``wilds``: the chosen wild slot of each new meld, then of each extension (0 or
        missing: the default place, ``engine.wilds``)."""
        return cls(
            seat,
            "meld",
            melds=tuple(tuple(m) for m in melds),
            extensions=tuple((i, tuple(c)) for i, c in extend),
            wilds=tuple(wilds),
        )

    @classmethod
    def extend(cls, seat: int, meld: int, cards: Sequence[Card], wild: int = 0) -> Action:
        """Add ``cards`` to the side's meld number ``meld`` (a new wild in slot ``wild``,
        0 for the default place)."""
        laid = tuple(cards)
        if wild:
            return cls(seat, "extend", meld=meld, cards=laid, wilds=(wild,))
        return _shared(
            ("extend", seat, meld, laid), lambda: cls(seat, "extend", meld=meld, cards=laid)
        )

    @classmethod
    def discard(cls, seat: int, card: Card) -> Action:
        """Discard ``card``; ends the turn (C11)."""
        return _shared(("discard", seat, card), lambda: cls(seat, "discard", card=card))

    @classmethod
    def lay_three(cls, seat: int, card: Card) -> Action:
        """Lay a red 3 (tranca A32) or a Dólar (altaneira A4) in the side's area."""
        return _shared(("lay_three", seat, card), lambda: cls(seat, "lay_three", card=card))

    # Record form --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The record form of the action (see module docstring)."""
        out: dict[str, Any] = {"seat": self.seat, "do": self.do}
        if self.do in ("discard", "lay_three") and self.card is not None:
            out["card"] = self.card.code
        elif self.do == "extend":
            out["meld"] = self.meld
            out["cards"] = codes(self.cards)
            if self.wilds:
                out["wild"] = self.wilds[0]
        elif self.do == "take_pile":
            if self.with_ is not None:
                out["with"] = codes(self.with_)
                if self.wilds:
                    out["wild"] = self.wilds[0]
            elif self.meld is not None:
                out["meld"] = self.meld
        elif self.do == "meld":
            out["melds"] = [codes(m) for m in self.melds]
            if self.wilds and any(self.wild_of(k) for k in range(len(self.melds))):
                out["wilds"] = [self.wild_of(k) for k in range(len(self.melds))]
            if self.extensions:
                n = len(self.melds)
                out["extend"] = [{"meld": i, "cards": codes(c)} | (
                    {"wild": self.wild_of(n + k)} if self.wild_of(n + k) else {})
                    for k, (i, c) in enumerate(self.extensions)]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse a record action; raises ``IllegalAction("malformed")`` with the reason."""
        if not isinstance(data, dict):
            raise _malformed("cada ação precisa ser um objeto JSON")
        seat, do = data.get("seat"), data.get("do")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise _malformed("ação sem 'seat' válido")
        if do not in KINDS:
            raise _malformed("ação desconhecida: {action}", action=repr(do))
        allowed = {"seat", "do", *_FIELDS[do]}
        extra = set(data) - allowed
        if extra:
            raise _malformed(
                "campos inesperados em {action}: {fields}",
                action=do,
                fields=", ".join(sorted(extra)),
            )
        try:
            return _parse(seat, do, data)
        except CardParseError as err:
            raise _malformed("carta inválida: {error}", error=str(err)) from None


_SHARED: Final[dict[tuple[object, ...], Action]] = {}
"""Actions are immutable values, so the constructors above hand out one shared instance
per key (issue 13: building a frozen dataclass costs about 1.5 µs, a look-up 0.1 µs; the
random player and the AI build the same draws, discards and extensions every turn).
Bounded by :data:`SHARED_SIZE`: cleared when full."""
SHARED_SIZE: Final = 4096


def _shared(key: tuple[object, ...], build: Callable[[], Action]) -> Action:
    action = _SHARED.get(key)
    if action is None:
        if len(_SHARED) >= SHARED_SIZE:
            _SHARED.clear()
        action = _SHARED[key] = build()
    return action


_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "draw": (),
    "redraw": (),
    "take_pile": ("with", "meld", "wild"),
    "meld": ("melds", "extend", "wilds"),
    "extend": ("meld", "cards", "wild"),
    "discard": ("card",),
    "lay_three": ("card",),
}


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise _malformed("carta precisa ser texto, como '10h'")
    return Card.parse(value)


def _card_list(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _malformed("'{what}' precisa ser uma lista de cartas", what=what)
    return tuple(_card(v) for v in value)


def _index(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _malformed("'meld' precisa ser o número de um jogo (0, 1, ...)")
    return value


def _slot(value: Any) -> int:
    """A chosen wild slot: 0 (the default place) or 1..14 (docs/record-format.md)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 14:
        raise _malformed("'wild' precisa ser o lugar do curinga (1 a 14) ou 0")
    return value


def _parse(seat: int, do: str, data: dict[str, Any]) -> Action:
    if do in ("discard", "lay_three"):
        if "card" not in data:
            raise _malformed("{action} precisa de 'card'", action=do)
        return Action(seat, do, card=_card(data["card"]))
    if do == "extend":
        if "meld" not in data or "cards" not in data:
            raise _malformed("extend precisa de 'meld' e 'cards'")
        return Action.extend(seat, _index(data["meld"]), _card_list(data["cards"], "cards"),
                             _slot(data.get("wild", 0)))
    if do == "take_pile":
        if "with" in data and "meld" in data:
            raise _malformed("take_pile aceita 'with' ou 'meld', não os dois")
        if "with" in data:
            return Action.take_pile(seat, with_=_card_list(data["with"], "with"),
                                    wild=_slot(data.get("wild", 0)))
        if "meld" in data:
            return Action.take_pile(seat, meld=_index(data["meld"]))
        return Action.take_pile(seat)
    if do == "meld":
        raw_melds = data.get("melds", [])
        raw_ext = data.get("extend", [])
        if not isinstance(raw_melds, list) or not isinstance(raw_ext, list):
            raise _malformed("'melds' e 'extend' precisam ser listas")
        melds = [_card_list(m, "melds") for m in raw_melds]
        raw_wilds = data.get("wilds", [0] * len(melds))
        if not isinstance(raw_wilds, list) or len(raw_wilds) != len(melds):
            raise _malformed("'wilds' precisa ter um lugar (ou 0) por jogo")
        wilds = [_slot(w) for w in raw_wilds]
        ext: list[tuple[int, tuple[Card, ...]]] = []
        for e in raw_ext:
            if not isinstance(e, dict) or not {"meld", "cards"} <= set(e) <= {
                    "meld", "cards", "wild"}:
                raise _malformed("cada 'extend' é {shape}", shape='{"meld": i, "cards": [...]}')
            ext.append((_index(e["meld"]), _card_list(e["cards"], "cards")))
            wilds.append(_slot(e.get("wild", 0)))
        if not melds and not ext:
            raise _malformed("meld precisa de pelo menos um jogo ou extensão")
        return Action.lay_down(seat, melds, ext, wilds)
    return Action(seat, do)
