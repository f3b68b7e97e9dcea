"""One short but complete deal of ``buraco_morto`` for two people, dealt from a known deck
(DESIGN example 4: dealing takes an explicit deck, so a test can script a game to a known
score), and its replay on the engine to know every hidden card and the exact score.

Seat 0 (Ana) plays in the browser, seat 1 (Bia) with chat buttons. Five turns:

1. Ana draws 7♥, lays 4♥ 5♥ 6♥ 7♥ and 7♣ 7♦ 7♠, discards K♣.
2. Bia draws 8♠, lays 9♠ 10♠ J♠, discards 4♣.
3. Ana draws 8♥, adds it to her run, lays 9♦ 10♦ J♦, discards Q♣: her hand is empty, so
   her side's morto comes to her next turn (RULES C12, indirect).
4. Bia takes the whole pile (K♣ 4♣ Q♣, open pile, RULES §2), discards 3♦.
5. Ana finds the morto in her hand, draws A♥, lays 3♠ 4♠ 5♠ 6♠, 8♣ 9♣ 10♣ and
   J♥ Q♥ K♥ A♥, discards 5♦: her second empty hand ends the deal (A17, no canastra needed).

Bia's side keeps its untaken morto (-100, C14). :func:`replay` plays the same moves on the
engine and gives the score every table must show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card, full_deck
from engine.match import Match
from engine.rules import make_rules
from engine.view import hands_at_end

PRESET = "buraco_morto"
NAMES = ["Ana", "Bia"]

ANA_HAND = ["4h", "5h", "6h", "7c", "7d", "7s", "9d", "10d", "Jd", "Kc", "Qc"]
BIA_HAND = ["9s", "10s", "Js", "4c", "3d", "2c", "Kd", "Kh", "6c", "8d", "Ah"]
ANA_MORTO = ["3s", "4s", "5s", "6s", "8c", "9c", "10c", "Jh", "Qh", "Kh", "5d"]
BIA_MORTO = ["Ac", "As", "Ad", "2h", "2s", "3c", "3h", "4d", "5c", "6d", "7h"]
DRAWS = ["7h", "8s", "8h", "Ah"]  # the stock's top cards, in the order they are drawn


def _c(text: str) -> Card:
    return Card.parse(text)


def deck() -> list[Card]:
    """The full deck, top first, that deals :data:`ANA_HAND`, :data:`BIA_HAND`, the two
    mortos and puts :data:`DRAWS` on top of the stock (engine.state.deal_cards: one card
    at a time from seat 0, then each side's morto, the rest is the stock, top first)."""
    head: list[Card] = []
    for a, b in zip(ANA_HAND, BIA_HAND, strict=True):
        head += [_c(a), _c(b)]
    head += [_c(t) for t in ANA_MORTO + BIA_MORTO + DRAWS]
    rest = Counter(full_deck(False)) - Counter(head)
    assert sum(rest.values()) == 104 - len(head), "a card is used three times"
    tail = sorted(rest.elements(), key=lambda card: (card.suit, card.rank))
    return head + tail


def cards(text: str) -> tuple[Card, ...]:
    """``"4h 5h"`` as cards."""
    return tuple(_c(t) for t in text.split())


# (seat, action) of the whole deal, in order
ACTIONS: list[Action] = [
    Action(0, "draw"),
    Action(0, "meld", melds=(cards("4h 5h 6h 7h"),)),
    Action(0, "meld", melds=(cards("7c 7d 7s"),)),
    Action(0, "discard", card=_c("Kc")),
    Action(1, "draw"),
    Action(1, "meld", melds=(cards("9s 10s Js"),)),
    Action(1, "discard", card=_c("4c")),
    Action(0, "draw"),
    Action(0, "extend", meld=0, cards=cards("8h")),
    Action(0, "meld", melds=(cards("9d 10d Jd"),)),
    Action(0, "discard", card=_c("Qc")),
    Action(1, "take_pile"),
    Action(1, "discard", card=_c("3d")),
    Action(0, "draw"),
    Action(0, "meld", melds=(cards("3s 4s 5s 6s"),)),
    Action(0, "meld", melds=(cards("8c 9c 10c"),)),
    Action(0, "meld", melds=(cards("Jh Qh Kh Ah"),)),
    Action(0, "discard", card=_c("5d")),
]


@dataclass
class Replay:
    """What the engine says about the scripted deal: ``totals`` (each side's deal score),
    ``seen[seat]`` (every card code seat held or saw on the table while the deal was in
    play, with the most copies visible to it at once), ``hidden_from[seat]`` (codes of
    which no copy was visible to seat while the deal was in play: they must never reach
    that seat's page before the deal's end); ``seen_at_end`` / ``hidden_at_end`` the
    same once the deal is over, when its result lays every leftover hand open (engine
    ``hands_at_end``, as the chat does)."""

    totals: list[int]
    seen: list[Counter[str]]
    hidden_from: list[set[str]]
    seen_at_end: list[Counter[str]]
    hidden_at_end: list[set[str]]


def replay() -> Replay:
    """Play :data:`ACTIONS` on the engine from :func:`deck`; AssertionError if the deal
    does not end with the last action."""
    rules = make_rules(PRESET)
    match = Match.new(rules, NAMES)
    state = match.start_deal(deck())
    seen: list[Counter[str]] = [Counter(), Counter()]

    def look() -> None:
        table = [c.code for side in state.melds for meld in side for c in meld.cards]
        table += [c.code for c in state.pile]
        for seat in (0, 1):
            now = Counter(table) + Counter(c.code for c in state.hands[seat])
            seen[seat] |= now

    look()
    for k, action in enumerate(ACTIONS):
        assert match.deal is not None and not match.deal.over, f"over before action {k}"
        match.act(action)
        look()
    assert match.deal is not None and match.deal.over, "the deal did not end"
    # the deal's result lays every leftover hand open (engine hands_at_end, as the chat)
    left = Counter(c.code for hand in hands_at_end(match.deal) for c in hand)
    at_end = [seen[seat] | left for seat in (0, 1)]
    result = match.logs[-1].result
    assert result is not None
    every = {c.code for c in full_deck(False)}
    hidden = [every - set(seen[seat]) for seat in (0, 1)]
    hidden_at_end = [every - set(at_end[seat]) for seat in (0, 1)]
    return Replay(list(result.totals), seen, hidden, at_end, hidden_at_end)
