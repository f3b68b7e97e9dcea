"""Turn bookkeeping shared by the action handlers of :mod:`engine.deal` and
:mod:`engine.pile`: the phase a move needs, taking cards out of a hand, when a
going-out is allowed (RULES C2, C13, A1, A16, A17), what a move may leave in the hand,
taking the morto (C12), passing the turn, stock exhaustion (A26), and the public
record of pick-ups and pile Dólares (A4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from engine.cards import DIAMONDS, HEARTS, Card, show
from engine.errors import IllegalAction
from engine.melds import Meld
from engine.memo import facts
from engine.rules import RedThree, Requirement
from engine.state import DRAW, OVER, DealState, Event

# Enum members as module constants: reading one from its class goes through the
# enum metaclass's __getattr__ hook, many times the cost of a global (issue 13).
_DOLLAR: Final = RedThree.DOLLAR
_ANY_CANASTRA: Final = Requirement.ANY_CANASTRA
_CLEAN_CANASTRA: Final = Requirement.CLEAN_CANASTRA
_RED_3D: Final = Card.of(3, DIAMONDS)
_RED_3H: Final = Card.of(3, HEARTS)


def going_out_refusal(
    state: DealState, seat: int, direct: bool, side_melds: list[Meld]
) -> IllegalAction | None:
    """Why emptying the hand now is refused, or None (RULES C13, A1, A16, A17, §2)."""
    rules = state.rules
    side = state.side_of[seat]
    if state.mortos[side]:
        others_took = any(t for s, t in enumerate(state.morto_taken) if s != side)
        if not direct and rules.second_morto_direct_only and others_took:
            return IllegalAction(
                "second_morto_direct",
                "o outro lado já pegou o morto: o seu só sai batendo sem descarte",
            )
        need = rules.morto_requires
    else:
        need = rules.end_requires
    if need == _ANY_CANASTRA and not any(m.is_canastra for m in side_melds):
        return IllegalAction("need_canastra", "para bater é preciso ter pelo menos uma canastra")
    if need == _CLEAN_CANASTRA and not any(m.is_clean_canastra for m in side_melds):
        return IllegalAction("need_clean_canastra", "para bater é preciso ter uma canastra limpa")
    return None


def check_leftover(state: DealState, seat: int, hand: list[Card], side_melds: list[Meld]) -> None:
    """A play-phase move may leave no card only as a legal direct going-out, and one
    card only if discarding it would be a legal going-out (C2, C13); otherwise the
    player could be left with no legal way to end the turn. Tranca red 3s still in
    the hand do not count: they are laid, never discarded (A32)."""
    normals = hand
    if facts(state.rules).red_lay_alone and holds_red_three(hand):
        normals = [c for c in hand if not is_red_three(c)]
    if len(normals) >= 2:
        return
    if normals and normals[0] == state.taken_top:
        raise IllegalAction(
            "discard_taken_top",
            "a carta tirada do lixo não pode ser descartada nesta vez: "
            "guarde outra carta para descartar",
        )
    refusal = going_out_refusal(state, seat, not normals, side_melds)
    if refusal is not None:
        raise keep_two(refusal.code) if normals else refusal


def keep_two(code: str) -> IllegalAction:
    """The going-out refusal ``code`` for a move that would leave one card: each reason
    of :func:`going_out_refusal` plus "keep two cards" (one msgid each, for gettext)."""
    if code == "second_morto_direct":
        return IllegalAction(
            code,
            "o outro lado já pegou o morto: o seu só sai batendo sem descarte"
            "; guarde pelo menos duas cartas na mão",
        )
    if code == "need_canastra":
        return IllegalAction(
            code,
            "para bater é preciso ter pelo menos uma canastra"
            "; guarde pelo menos duas cartas na mão",
        )
    return IllegalAction(
        code,
        "para bater é preciso ter uma canastra limpa; guarde pelo menos duas cartas na mão",
    )


def able_to_end_turn(state: DealState, seat: int, hand: list[Card]) -> bool:
    """Whether the player can still finish the turn: another red 3 to lay, two cards
    (discard one, keep one), or a legal going-out with what is left."""
    if len(hand) >= 2 or (facts(state.rules).red_lay_alone and holds_red_three(hand)):
        return True
    side_melds = state.melds[state.side_of[seat]]
    return going_out_refusal(state, seat, not hand, side_melds) is None


def is_red_three(card: Card) -> bool:
    """``card.rank == 3 and card.is_red``, by identity (cards are interned)."""
    return card is _RED_3D or card is _RED_3H


def holds_red_three(cards: list[Card]) -> bool:
    """``any(is_red_three(c) for c in cards)``: compiled, a loop of pointer comparisons
    instead of two attribute reads a card (issue 13)."""
    return any(c is _RED_3D or c is _RED_3H for c in cards)


def go_out(state: DealState, seat: int, direct: bool, events: list[Event]) -> None:
    """The hand is empty: take the morto (direct: play on; indirect: from the next
    turn, C12) or end the deal (C2, C11)."""
    side = state.side_of[seat]
    if state.rules.relancinho_bonus and not state.laid_before_turn and state.laid_this_turn:
        state.relancinhos[side] += 1  # RULES A21
        state.laid_before_turn = True
        events.append(Event("relancinho", seat, {"side": side}))
    if state.mortos[side]:
        morto, state.mortos[side] = state.mortos[side], []
        state.morto_taken[side] = True
        if direct:
            state.hands[seat] = morto
            state.taken_top = None  # C3: the pile's top was melded; the morto holds others
        else:
            state.pending_morto[seat] = morto
        events.append(Event("took_morto", seat, {"side": side, "direct": direct}))
        return
    state.phase = OVER
    state.went_out = seat
    events.append(Event("went_out", seat, {"side": side, "direct": direct}))
    events.append(Event("deal_over", -1, {"reason": "batida"}))


def note_pile_dollars(state: DealState, seat: int, cards: list[Card]) -> None:
    """RULES A4: a Dólar taken with the pile never earns a replacement draw."""
    if state.rules.red_three == _DOLLAR:
        state.pile_dollars[seat].extend(c for c in cards if c.rank == 3 and c.is_red)


def forget_seen(state: DealState, seat: int, cards: list[Card]) -> None:
    """Cards a seat was seen taking leave public knowledge once laid or discarded."""
    seen = state.seen[seat]
    for card in cards:
        if card in seen:
            seen.remove(card)


def trim_pile_dollars(state: DealState, seat: int, left: Sequence[Card]) -> None:
    """Forget the pile Dólares among ``left``, the cards that just left ``seat``'s hand
    (melded or discarded): of two equal Dólares, one from the pile and one not, the one
    that leaves counts as the pile's, so the one kept still earns its replacement when
    laid (RULES A4; the two look the same, and the player would say so; an audit found
    the reverse done)."""
    kept = state.pile_dollars[seat]
    for card in left:
        if card in kept:
            kept.remove(card)


def next_turn(state: DealState, events: list[Event]) -> None:
    state.turn = (state.turn + 1) % state.n_players
    state.turn_count += 1
    state.phase = DRAW
    state.taken_top = None
    state.drawn = None
    state.drawn_more = []
    state.redraw_ok = False
    state.laid_this_turn = False
    state.from_pile = []
    seat = state.turn
    state.laid_before_turn = state.has_laid[seat]
    if not state.stock and not refill_stock(state, events):
        state.phase = OVER  # RULES A26: no stock, no morto, no pile to reuse
        events.append(Event("deal_over", -1, {"reason": "stock"}))
        return
    if state.pending_morto[seat]:  # RULES C12: the morto is playable from this turn
        state.hands[seat].extend(state.pending_morto[seat])
        state.pending_morto[seat] = []


def draw_card(state: DealState, events: list[Event]) -> Card | None:
    """The top card of the stock, taken off it, for a draw inside a turn (the tranca
    red 3's D1 draws, the altaneira Dólar's replacement, RULES A4): an empty stock is
    refilled first as at a turn's draw (RULES A26, :func:`refill_stock`, its events
    added to ``events``); None, changing nothing, when nothing is left to draw."""
    if not state.stock and not refill_stock(state, events):
        return None
    return state.stock.pop()


def refill_stock(state: DealState, events: list[Event]) -> bool:
    """RULES A26 / seed 000 §3: untaken mortos become stock in side order, then (where
    the rules say) the pile is shuffled into a new stock once."""
    for side, morto in enumerate(state.mortos):
        if morto:
            state.stock = list(reversed(morto))
            state.mortos[side] = []
            events.append(Event("stock_from_morto", -1, {"side": side}))
            return True
    if state.rules.reuse_pile_once and not state.pile_reused and state.pile:
        order = [i for i in state.reshuffle if i < len(state.pile)] or list(range(len(state.pile)))
        state.stock = [state.pile[i] for i in order]
        state.pile = []
        state.pile_reused = True
        state.pile_blocked = False
        events.append(Event("stock_from_pile", -1, {"count": len(state.stock)}))
        return True
    return False


def check_phase(state: DealState, wanted: str) -> None:
    """``IllegalAction`` unless the deal is in phase ``wanted`` (``DRAW`` or ``PLAY``):
    a seat draws once, then lays down and discards (RULES §2)."""
    if state.phase != wanted:
        if wanted == DRAW:
            raise IllegalAction("already_drew", "você já comprou nesta vez")
        raise IllegalAction("must_draw", "primeiro compre do monte ou pegue o lixo")


def without(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` minus the multiset ``cards`` (the first copies of each); raises ``not_in_hand``.
    (``list.remove`` compares cards in C: see :class:`~engine.cards.Card`.)"""
    out = list(hand)
    try:
        for c in cards:
            for i, x in enumerate(out):  # the first copy is the card itself (interned):
                if x is c:  # found by identity, no float comparison per card (issue 37)
                    out.pop(i)  # compiled: a list call; `del out[i]` was PyObject_DelItem
                    break
            else:
                out.remove(c)
    except ValueError:
        pass
    else:
        return out
    missing = Counter(cards) - Counter(hand)
    raise IllegalAction(
        "not_in_hand", "você não tem: {cards}", cards=show(sorted(missing.elements()))
    )
