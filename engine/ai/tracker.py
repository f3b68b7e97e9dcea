"""Public memory the AI's view needs across actions: which cards each seat took from
an open pile and still holds (``SeatView.seen_taken``).

The deal state keeps the same facts (``DealState.seen``, which ``view_for`` uses by
default); a caller that wants its own record (self-play does) keeps one
:class:`SeenTracker` per deal, calls :meth:`SeenTracker.observe` after every applied
action with the events, and passes :meth:`SeenTracker.lists` to ``view_for``.
Everything it records is public: the open pile's cards, and cards laid or discarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import Card
from engine.state import Event


@dataclass
class SeenTracker:
    """``taken[seat]``: cards the seat took from an open pile and has not shown since."""

    taken: list[list[Card]] = field(default_factory=list)

    @classmethod
    def for_players(cls, n_players: int) -> SeenTracker:
        """An empty tracker for ``n_players`` seats."""
        return cls([[] for _ in range(n_players)])

    def observe(self, events: Sequence[Event]) -> None:
        """Update from the public events of one applied action."""
        for ev in events:
            if ev.seat < 0:
                continue
            if ev.kind == "took_pile" and "cards" in ev.public:
                self.taken[ev.seat].extend(Card.parse(c) for c in ev.public["cards"])
            elif ev.kind == "melded":
                shown = [c for m in ev.public.get("melds", []) for c in m]
                shown += [c for e in ev.public.get("extend", []) for c in e["cards"]]
                self._drop(ev.seat, shown)
            elif ev.kind in ("discarded", "laid_three"):
                self._drop(ev.seat, [ev.public["card"]])
            elif ev.kind == "took_morto" and ev.public.get("direct"):
                self.taken[ev.seat] = []

    def _drop(self, seat: int, codes: Sequence[str]) -> None:
        mine = self.taken[seat]
        for code in codes:
            card = Card.parse(code)
            if card in mine:
                mine.remove(card)

    def lists(self) -> list[list[Card]]:
        """Copies of the per-seat lists, ready for ``view_for(..., seen_taken=...)``."""
        return [list(t) for t in self.taken]
