"""Card points and the score of a deal (RULES C14, §2 "card points", "canastra", "extras")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import JOKER_SUIT, Card
from engine.melds import Meld, canastra_bonus, canastra_label
from engine.rules import CardPoints, Rules
from engine.state import DealState

_FLAT_10: Final = CardPoints.FLAT_10  # a global: an enum class's attribute read is slow
TWO: Final = Card.of(2, 0)


def card_points(card: Card, rules: Rules) -> int:
    """Points of one card (RULES §2 "card points"): classic = joker 10, 2 = 10,
    3-7 = 5, 8-K = 10, A = 15; flat = 10 each (tranca, altaneira A8)."""
    if rules.card_points == _FLAT_10:
        return 10
    if card.rank == 1:
        return 15
    if 3 <= card.rank <= 7:
        return 5
    return 10


@dataclass(slots=True)
class DealScore:
    """A deal's result: ``totals[side]`` and ``breakdown[side]`` with the keys
    ``melded``, ``canastras`` (list of [label, bonus]), ``batida``, ``threes``,
    ``relancinho``, ``hand``, ``morto``, ``total`` (ints, points; C14)."""

    totals: list[int]
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    went_out: int = -1

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"totals": [...], "breakdown": [...], "went_out": seat or -1}``."""
        return {"totals": self.totals, "breakdown": self.breakdown, "went_out": self.went_out}


def melded_points(melds: list[Meld], rules: Rules) -> int:
    """The "jogos" term of a side's score (RULES C14): the card points of its ``melds``
    (each 2 counting ``rules.melded_two_points`` where set, docs/RULES.md "Options for
    comparison with BotRafa"), negative where ``rules.no_canastra_negative`` and none of
    them is a canastra (seed 000 §9.5). The table shows it during the deal,
    :func:`score_deal` counts it at the end."""
    melded = sum(card_points(c, rules) for m in melds for c in m.cards)
    if rules.melded_two_points is not None:  # engine.comparison: a melded 2 counts more
        twos = sum(1 for m in melds for c in m.cards if c.rank == 2 and c.suit != JOKER_SUIT)
        melded += twos * (rules.melded_two_points - card_points(TWO, rules))
    if rules.no_canastra_negative and not any(m.is_canastra for m in melds):
        return -melded
    return melded


def score_deal(state: DealState) -> DealScore:
    """Score every side of ``state`` (normally a finished deal) by RULES C14:
    melded card points + canastra bonuses + batida + 3s +/- + relancinho - cards in
    the hands of the side's players - morto penalty. Untaken and pending mortos never
    count (C12); laid 3s count only their +/-100; with ``no_canastra_negative``
    (seed 000 §9.5) a side without a canastra counts its melded cards negative."""
    rules = state.rules
    totals: list[int] = []
    breakdown: list[dict[str, Any]] = []
    winner_side = state.side_of[state.went_out] if state.went_out >= 0 else -1
    for side, seats in enumerate(state.teams):
        melds = state.melds[side]
        melded = melded_points(melds, rules)
        canastras: list[tuple[str, int]] = [
            (canastra_label(m, rules), canastra_bonus(m, rules)) for m in melds if m.is_canastra
        ]
        threes = _threes(len(state.laid_threes[side]), melds, rules)
        row: dict[str, Any] = {
            "melded": melded,
            "canastras": [list(c) for c in canastras],
            "batida": rules.batida_bonus if side == winner_side else 0,
            "threes": threes,
            "relancinho": state.relancinhos[side] * rules.relancinho_bonus,
            "hand": -sum(card_points(c, rules) for s in seats for c in state.hands[s]),
            "morto": -rules.morto_penalty if rules.morto and not _kept_morto(state, side) else 0,
        }
        row["total"] = (
            row["melded"]
            + sum(b for _, b in canastras)
            + row["batida"]
            + row["threes"]
            + row["relancinho"]
            + row["hand"]
            + row["morto"]
        )
        totals.append(row["total"])
        breakdown.append(row)
    return DealScore(totals, breakdown, state.went_out)


def _threes(laid: int, melds: list[Meld], rules: Rules) -> int:
    """Laid red 3s / Dólares (RULES §2 "extras", A4): ``three_bonus`` (100) each when the
    side has a canastra, minus that each when it has none. With ``dollar_per_canastra``
    (altaneira option, seed 000 §5.3 "vale 100 para cada canastra formada" read
    literally) each Dólar earns ``three_bonus`` per canastra of the side instead."""
    canastras = sum(1 for m in melds if m.is_canastra)
    if not canastras:
        return -laid * rules.three_bonus
    return laid * rules.three_bonus * (canastras if rules.dollar_per_canastra else 1)


def _kept_morto(state: DealState, side: int) -> bool:
    """Taken and in play: a morto still pending (taken by discard, C12) is paid."""
    if not state.morto_taken[side]:
        return False
    return not any(state.pending_morto[s] for s in state.teams[side])
