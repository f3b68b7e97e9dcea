"""The heuristic weights of the ``normal`` player, as data (issue 5).

``normal`` judges the pile, the lateness of the deal and its discards with a handful of
hand-set numbers; :class:`Weights` holds them so another player can think with other
numbers (``dificil`` starts from weights tuned by ``bench/tune_weights.py``) and a
tuning run can try variations. Units are points of the rough scale the AI uses; only
the order between the options compared matters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Weights:
    """Every number ``normal`` decides with. Pile (``pile_*``): worth of a canastra and of
    a wild the pile brings, cost per card it leaves in hand (``pile_left``, times the
    risk early / late), bonus per pile card early, and the gain needed to take it.
    Lateness (``late_*``): stock below ``late_stock`` cards or an opponent at
    ``late_opp`` cards or fewer. Discards: ``keep_*`` is the worth of keeping a card
    (fits a side meld, neighbours in hand, same rank, per card point),
    ``danger_*`` the harm of throwing it (fits an opposing meld, would make its
    canastra, pile size, near what an opponent took, next player about to go out).
    Wilds (``wild_*``): spent on new melds with ``wild_rich`` wilds in hand or at
    ``wild_short`` cards. Ending the deal (``out_*``): an unseen hand card counts
    ``out_hand_card`` points; it pays anyway below ``out_stock`` stock cards or with an
    opponent at ``out_close`` cards."""

    pile_canastra: float = 60.0
    pile_wild: float = 20.0
    pile_left: float = 8.0
    pile_risk_early: float = 0.15
    pile_risk_late: float = 0.6
    pile_size_early: float = 1.5
    pile_threshold: float = 12.0
    late_stock: int = 16
    late_opp: int = 3
    keep_fit: float = 40.0
    keep_near: float = 12.0
    keep_far: float = 5.0
    keep_same: float = 9.0
    keep_points: float = 0.3
    special_pull: float = 8.0
    danger_fit: float = 25.0
    danger_six_clean: float = 150.0
    danger_six_dirty: float = 80.0
    danger_closed_pile: float = 6.0
    danger_open_pile: float = 0.5
    danger_taken_rank: float = 10.0
    danger_taken_near: float = 8.0
    danger_taken_far: float = 4.0
    danger_next_out: float = 1.5
    wild_rich: int = 2
    wild_short: int = 4
    out_hand_card: float = 8.0
    out_stock: int = 8
    out_close: int = 2


NORMAL: Final = Weights()
"""The ``normal`` player's weights."""

TUNED: Final[dict[str, Weights]] = {
    "buraco_morto": Weights(pile_left=12.8, pile_risk_late=0.96, keep_same=20.16,
                            keep_points=0.15, danger_fit=8.75, danger_next_out=0.75,
                            wild_rich=4, out_close=0),
    "tranca": Weights(late_opp=0, keep_near=6.0, danger_fit=12.5, wild_rich=4),
}
TUNED["justificado"] = TUNED["tranca"]
"""Per preset, the weights ``dificil`` starts from: a coordinate search against
``normal`` (``bench/tune_weights.py``). Presets not listed use :data:`NORMAL`.
Justificado borrows tranca's (``normal`` with them against plain ``normal``, two
players: 996 of 1,800 mirrored deals, 55.3%, on three sets of 300 seeded decks; issue
37, docs/robots.md)."""

TUNED_AT: Final[dict[tuple[str, int], Weights]] = {
    ("bossa_nova", 4): TUNED["buraco_morto"],
}
"""Weights for a preset at one table size, before :data:`TUNED`: Bossa Nova with four
players borrows buraco_morto's (649 of 1,200 mirrored deals against plain ``normal``,
54.1%; with two players they lose, 47.3% of 600, so two players keep ``normal``'s)."""


def tuned(preset: str, players: int = 2) -> Weights:
    """The ``dificil`` weights of ``preset`` at a table of ``players`` seats
    (:data:`TUNED_AT`, else :data:`TUNED`, else :data:`NORMAL`)."""
    return TUNED_AT.get((preset, players)) or TUNED.get(preset, NORMAL)
