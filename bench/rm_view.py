"""Translation between our engine and the game state of rafaelmuylaert/buraco (RM), for
``bench/vs_rm.py`` (issue 37). Pure functions, no Node: ``tests/test_vs_rm.py`` checks them.

RM's format (``GameEngines/Buraco.js``, commit 1e89683): a card is an id
``(suit - 1) * 13 + rank - 1`` with suits 1 ♠, 2 ♥, 3 ♣, 4 ♦ (53 = joker); a hand is a
54-slot count array; a run ("seq") is 16 slots ``[A-low, A-high, natural 2, 3..K,
foreign-wild suit, same-suit-2-as-wild count]``; a set ("runner") is 6 slots ``[rank,
♠ count, ♥ count, ♣ count, ♦ count, wild suit]``; ``G.table[team] = [{suit: [seq...]},
[runner...]]``.

:func:`rm_view` builds the ``G`` one seat may see: its own hand, every side's melds,
the discard pile, the counts of the other hands, the stock and the mortos left, and
whose mortos are taken. The stock and the mortos are lists of the placeholder id 52
(RM's engine reads only their lengths); other seats' hands are not sent at all. The
pile goes whole: every card in it was discarded face up in front of everyone, and
RM's table shows it (``openDiscardView`` in ``BotRafa.meta.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.cards import CLUBS, DIAMONDS, HEARTS, JOKER_SUIT, SPADES, Card
from engine.melds import RUN, Meld
from engine.state import DealState

HIDDEN = 52
"""RM's unused card id: the placeholder for a card the seat may not see."""
RM_SUIT = {SPADES: 1, HEARTS: 2, CLUBS: 3, DIAMONDS: 4, JOKER_SUIT: 5}
OUR_SUIT = {v: k for k, v in RM_SUIT.items()}
RM_RULES: dict[str, Any] = {
    "discard": True, "runners": [1, 13], "largeCanasta": True, "cleanCanastaToWin": True,
    "noJokers": True, "openDiscardView": True, "scoreCardPoints": True,
    "scoreHandPenalty": True, "dirtyCanastraBonus": 100, "cleanCanastraBonus": 200,
    "mortoPenalty": 100, "endGameBonus": 100, "meldSizeBonus": False,
    "cardPointValues": {"joker": 10, "two": 10, "ace": 15, "high": 10, "low": 5},
}
"""``BotRafa.meta.json`` "rules" (what BotRafa was trained on)."""


class BadMove(ValueError):
    """An RM move that names no card, meld or kind of ours (counted, never raised out)."""


def rm_card(card: Card) -> int:
    """Our card -> RM's id (the joker is 53)."""
    if card.suit == JOKER_SUIT:
        return 53
    return (RM_SUIT[card.suit] - 1) * 13 + card.rank - 1


def our_card(rm_id: int) -> Card:
    """RM's id -> our card; raises :class:`BadMove` for an id that is no card."""
    if rm_id == 53:
        return Card.of(0, JOKER_SUIT)
    if not 0 <= rm_id < 52:
        raise BadMove(f"no card {rm_id}")
    return Card.of(rm_id % 13 + 1, OUR_SUIT[rm_id // 13 + 1])


def rm_meld(meld: Meld) -> list[int]:
    """Our meld -> RM's 16-slot run or 6-slot set."""
    if meld.kind != RUN:
        m = [meld.low, 0, 0, 0, 0, 0]
        for c in meld.cards:
            if c.wild:
                m[5] = RM_SUIT[c.suit]
            else:
                m[RM_SUIT[c.suit]] += 1
        return m
    m = [0] * 16
    for i in range(len(meld.cards)):
        slot = meld.low + i
        if i != meld.wild_at:
            m[0 if slot == 1 else 1 if slot == 14 else slot] = 1
    if meld.wild is not None:
        if meld.wild.rank == 2 and meld.wild.suit == meld.suit and not m[2]:
            m[15] = 1
        else:
            m[14] = RM_SUIT[meld.wild.suit]
    return m


@dataclass
class Table:
    """Where each of our melds sits in RM's table of one side: ``seq[(suit, k)]`` and
    ``runners[k]`` -> our meld index."""

    seq: dict[tuple[int, int], int] = field(default_factory=dict)
    runners: dict[int, int] = field(default_factory=dict)


def rm_table(melds: list[Meld]) -> tuple[list[Any], Table]:
    """One side's melds in RM's ``[{suit: [seq...]}, [runner...]]`` and the index map."""
    seqs: dict[str, list[list[int]]] = {}
    runners: list[list[int]] = []
    where = Table()
    for i, meld in enumerate(melds):
        if meld.kind == RUN:
            suit = RM_SUIT[meld.suit]
            row = seqs.setdefault(str(suit), [])
            where.seq[(suit, len(row))] = i
            row.append(rm_meld(meld))
        else:
            where.runners[len(runners)] = i
            runners.append(rm_meld(meld))
    return [seqs, runners], where


def rm_view(state: DealState, seat: int) -> tuple[dict[str, Any], list[Table]]:
    """The ``G`` of RM's engine as ``seat`` may see it (module docstring), and each
    side's index map. A seat's pending morto (taken by discard, C12) counts in its hand
    size, as RM hands it over at once. RM's mortos are shared (the first side to empty
    its hand takes the next one) and ours are one a side: ``teamMortos[side]`` is true
    when no morto waits for that side (taken, or turned into stock, RULES A26), so RM's
    ``mortoSafe`` (Buraco.js:860) asks what our engine asks."""
    n = state.n_players
    tables = [rm_table(state.melds[s]) for s in range(len(state.teams))]
    flat = [0] * 54
    for c in state.hands[seat]:
        flat[rm_card(c)] += 1
    sizes = {str(p): len(state.hands[p]) + len(state.pending_morto[p]) for p in range(n)}
    mortos_left = sum(1 for m in state.mortos if m)
    return {
        "rules": {**RM_RULES, "numPlayers": n},
        "deck": [HIDDEN] * len(state.stock),
        "discardPile": [rm_card(c) for c in state.pile],
        "pots": [[HIDDEN] * state.rules.hand_size for _ in range(mortos_left)],
        "cards": {str(seat): flat},
        "knownCards": {},
        "handSizes": sizes,
        "hasDrawn": state.turn == seat and state.phase == "play",
        "lastDrawnCard": None,
        "lastMoveType": None,
        "teams": [state.side_of[p] for p in range(n)],
        "teamPlayers": state.teams,
        "teamMortos": {str(s): not m for s, m in enumerate(state.mortos)},
        "isExhausted": False,
        "table": [t for t, _ in tables],
        "cleanMelds": [sum(1 for m in state.melds[s] if m.is_clean_canastra)
                       for s in range(len(state.teams))],
    }, [w for _, w in tables]


def _cards(counts: Any) -> list[Card]:
    if not isinstance(counts, dict):
        raise BadMove("cards must be {id: count}")
    out: list[Card] = []
    for key, n in counts.items():
        if not isinstance(n, int) or not 0 <= n <= 2:
            raise BadMove(f"bad count {n!r}")
        out += [our_card(int(key))] * n
    return out


def _meld_index(target: Any, where: Table) -> int:
    if not isinstance(target, dict):
        raise BadMove("bad target")
    try:
        if target.get("type") == "runner":
            return where.runners[int(target["index"])]
        return where.seq[(int(target["suit"]), int(target["index"]))]
    except (KeyError, TypeError, ValueError):
        raise BadMove(f"no meld {target!r}") from None


def our_actions(state: DealState, seat: int, move: dict[str, Any],
                where: Table) -> list[Action]:
    """RM's move (``rm_bot.mjs`` "move" line) -> the actions of ours that make it, in
    order; ``where``: the seat's side's index map of the view RM saw (a pick-up onto a
    meld with hand cards besides the top card needs ``pickup_extend_with_hand``).
    Raises :class:`BadMove` for a malformed move."""
    kind = move.get("kind")
    if kind == "draw":
        return [Action.draw(seat)]
    if kind == "discard":
        return [Action.discard(seat, our_card(int(move.get("card", -1))))]
    cards = _cards(move.get("cards", {}))
    if kind == "meld":
        return [Action.lay_down(seat, [cards])]
    if kind == "append":
        return [Action.extend(seat, _meld_index(move.get("target"), where), cards)]
    if kind == "pickup":
        target = move.get("target") or {}
        if target.get("type") == "append":
            index = _meld_index(target.get("meldTarget"), where)
            return [Action.take_pile(seat, with_=cards or None, meld=index)]
        return [Action.take_pile(seat, with_=cards)]
    raise BadMove(f"unknown move {kind!r}")
