"""Check a record's seeded deals (issue 35, docs/record-format.md "Verifiable deals").

For every deal of a record, :func:`verify_record` recomputes the commitment from the
revealed seed, the deck (and the altaneira reshuffle) from the seed
(engine/fairdeal.py), and so every hand, morto and the stock order by the dealing
procedure (engine ``deal_cards``), and says what does not match the record. The bot's
``/verificar`` shows its answer; ``tools/verify_deal.py`` is an independent stdlib-only
reimplementation that a person runs without the project.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.errors import IllegalAction
from engine.fairdeal import SCHEME, commitment, deck_from_seed, reshuffle_from_seed
from engine.record import MalformedRecord, _deck, _rules_of, _seeded, _start
from engine.rules import Rules
from engine.state import deal_cards

Place = tuple[str, int, int]
"""Where a deck position is dealt: ``("hand", seat, k)``, ``("morto", side, k)`` or
``("stock", k, 0)`` (``k`` counts from 0: the k-th card dealt there; the stock from its
top)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One thing in a deal that does not match its seed. ``code``:

    * ``no_seed``: the deal has no seed (dealt from a given deck, or before issue 35);
    * ``commitment``: ``given`` (the record's) is not ``SHA-256(seed)``, ``computed``;
    * ``card``: deck ``position`` (0 = top) holds ``given`` but the seed gives
      ``computed``; ``place`` says whose card it is (:data:`Place`);
    * ``reshuffle``: the altaneira reshuffle order differs from the seed's."""

    code: str
    given: str = ""
    computed: str = ""
    position: int = -1
    place: Place = ("", 0, 0)


@dataclass(slots=True)
class DealCheck:
    """One deal's verdict: ``number`` (1-based), the record's ``commitment`` and
    ``seed`` (None without), ``mismatches`` (empty: OK), and what the seed deals:
    ``hands`` per seat and ``mortos`` per side (in dealing order), ``stock`` top first."""

    number: int
    commitment: str | None
    seed: str | None
    mismatches: list[Mismatch] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    mortos: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the deal has a seed and everything matches it."""
        return not self.mismatches


def place_of(position: int, rules: Rules, n_players: int, first: int) -> Place:
    """Where deck ``position`` (0 = top) is dealt (docs/record-format.md "Dealing from a
    deck"): one card at a time from ``first``, ``rules.hand_size`` each; then each
    side's morto; then the stock."""
    hs = rules.hand_size
    if position < hs * n_players:
        return ("hand", (first + position % n_players) % n_players, position // n_players)
    position -= hs * n_players
    sides = len(rules.teams(n_players))
    if rules.morto:
        if position < hs * sides:
            return ("morto", position // hs, position % hs)
        position -= hs * sides
    return ("stock", position, 0)


def verify_record(record: Any) -> list[DealCheck]:
    """Every deal of ``record`` checked against its seed, in order.

    Raises :class:`engine.record.MalformedRecord` when the record cannot be read (it
    is not a record, a deck is not the full deck, a seed is not 64 hex digits)."""
    rules, players = _rules_of(record)
    if "position" in record:
        raise MalformedRecord("uma posição não tem semente: 'seed' vai com 'deck'")
    raw_deals = record.get("deals", [record])
    if not isinstance(raw_deals, list) or not raw_deals:
        raise MalformedRecord("'deals' precisa ser uma lista não vazia")
    sides = len(rules.teams(len(players)))
    checks = []
    for k, deal in enumerate(raw_deals):
        if not isinstance(deal, dict):
            raise MalformedRecord("a mão {n} precisa ser um objeto com {keys}", n=str(k + 1),
                                  keys="deck")
        first, _ = _start(deal, len(players), sides, rules)
        deck = _deck(deal.get("deck"))
        try:
            deal_cards(rules, len(players), deck, first)  # the full deck, or bad_deck
        except IllegalAction as err:
            raise MalformedRecord("mão {n}: {reason}", err, n=str(k + 1)) from None
        checks.append(_check(k + 1, deal, deck, rules, len(players), first))
    return checks


def _check(number: int, deal: dict[str, Any], deck: list[Card], rules: Rules, n: int,
           first: int) -> DealCheck:
    _seeded(deal)
    seed, given = deal.get("seed"), deal.get("commitment")
    check = DealCheck(number, given, seed)
    if seed is None or given is None or deal.get("shuffle") != SCHEME:
        check.mismatches.append(Mismatch("no_seed"))
        return check
    computed = commitment(seed)
    if computed != given:
        check.mismatches.append(Mismatch("commitment", given, computed))
    dealt = deck_from_seed(seed, rules.jokers)
    for pos, (got, want) in enumerate(zip(deck, dealt, strict=True)):
        if got is not want:
            check.mismatches.append(
                Mismatch("card", got.code, want.code, pos, place_of(pos, rules, n, first)))
    if rules.reuse_pile_once and deal.get("reshuffle") != reshuffle_from_seed(seed, len(deck)):
        check.mismatches.append(Mismatch("reshuffle"))
    _deal_out(check, dealt, rules, n, first)
    return check


def _deal_out(check: DealCheck, deck: list[Card], rules: Rules, n: int, first: int) -> None:
    """Fill ``check``'s hands, mortos and stock with what ``deck`` deals."""
    sides = len(rules.teams(n))
    check.hands = [[] for _ in range(n)]
    check.mortos = [[] for _ in range(sides)]
    for pos, card in enumerate(deck):
        kind, who, _ = place_of(pos, rules, n, first)
        if kind == "hand":
            check.hands[who].append(card)
        elif kind == "morto":
            check.mortos[who].append(card)
        else:
            check.stock.append(card)
