"""Verify and apply actions on a deal (DESIGN example 2).

``apply(state, action)`` checks everything before it changes anything, so a refused
action leaves the state untouched; ``verify`` runs the same checks on a copy.
Rule sources are cited at each check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Final

from engine.actions import Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import extend_meld, make_meld
from engine.memo import facts
from engine.pile import take_pile
from engine.rules import RedThree
from engine.scoring import card_points
from engine.state import DRAW, OVER, PLAY, DealState, Event, deal_cards
from engine.turns import (
    able_to_end_turn,
    check_leftover,
    check_phase,
    draw_card,
    forget_seen,
    go_out,
    going_out_refusal,
    holds_red_three,
    is_red_three,
    next_turn,
    trim_pile_dollars,
    without,
)

new_deal = deal_cards
_CODE: Final = attrgetter("code")

# Enum members as module constants: reading one from its class goes through the
# enum metaclass's __getattr__ hook, many times the cost of a global (issue 13).
_LAY_ALONE: Final = RedThree.LAY_ALONE
_DOLLAR: Final = RedThree.DOLLAR


def verify(state: DealState, action: Action) -> None:
    """Raise ``IllegalAction`` if ``action`` is not legal now; never changes ``state``.

    A draw or a discard is checked in place by its side-effect-free check (the same one
    :func:`apply` runs first); any other action is applied to a copy."""
    check = _CHECKS.get(action.do)
    if check is None:
        apply(state.clone(), action)
        return
    _check_turn(state, action)
    check(state, action)


def can(state: DealState, action: Action) -> bool:
    """True when ``action`` is legal now (built on :func:`verify`)."""
    try:
        verify(state, action)
    except IllegalAction:
        return False
    return True


def apply(state: DealState, action: Action) -> list[Event]:
    """Apply ``action`` to ``state`` in place and return the public events.

    Raises ``IllegalAction`` (codes: ``deal_over``, ``bad_seat``, ``not_your_turn``,
    ``must_draw``, ``already_drew``, and those of each action) before any change.
    """
    if action.seat != state.turn or state.phase == OVER:
        _check_turn(state, action)  # raises (turn is always a valid seat)
    return _HANDLERS[action.do](state, action)


def _check_turn(state: DealState, action: Action) -> None:
    if not 0 <= action.seat < state.n_players:
        raise IllegalAction("bad_seat", "não existe o assento {seat}", seat=action.seat)
    if state.phase == OVER:
        raise IllegalAction("deal_over", "esta mão já terminou")
    if action.seat != state.turn:
        raise IllegalAction("not_your_turn", "não é a sua vez")


def play(state: DealState, action: Action) -> tuple[DealState, list[Event]]:
    """Functional form: ``(new_state, events)``; ``state`` is left unchanged."""
    new = state.clone()
    return new, apply(new, action)


# Helpers ---------------------------------------------------------------------
# Handlers --------------------------------------------------------------------
def _check_draw(state: DealState, action: Action) -> None:
    if state.phase != DRAW:
        check_phase(state, DRAW)
    if not state.stock:
        raise IllegalAction("stock_empty", "o monte acabou")


def _draw(state: DealState, action: Action) -> list[Event]:
    _check_draw(state, action)
    card = state.stock.pop()
    state.hands[action.seat].append(card)
    state.phase = PLAY
    state.drawn = card
    state.redraw_ok = (
        facts(state.rules).first_player_second_card and state.turn_count == 0 and not state.pile
    )
    return [Event("drew", action.seat, {"stock": len(state.stock)})]


def _redraw(state: DealState, action: Action) -> list[Event]:
    """RULES A9: the first player's drawn card becomes the pile's first card; draw again."""
    check_phase(state, PLAY)
    if not state.rules.first_player_second_card:
        raise IllegalAction("no_redraw", "nesta variante não se troca a primeira carta comprada")
    if not state.redraw_ok or state.drawn is None or state.drawn not in state.hands[action.seat]:
        raise IllegalAction(
            "no_redraw", "só o primeiro jogador, logo após a primeira compra, troca a carta"
        )
    if not state.stock:
        raise IllegalAction("stock_empty", "o monte acabou")
    old = state.drawn
    state.hands[action.seat].remove(old)
    state.pile.append(old)
    new = state.stock.pop()
    state.hands[action.seat].append(new)
    state.drawn = new
    state.redraw_ok = False
    return [Event("redrew", action.seat, {"card": old.code, "stock": len(state.stock)})]


def _about(err: IllegalAction, cards: Sequence[Card], several: bool) -> IllegalAction:
    """``err`` naming the meld it is about (``err.cards``) when the lay-down had several."""
    if several:
        err.cards = tuple(str(c) for c in cards)
    return err


def _lay_down(state: DealState, action: Action) -> list[Event]:
    """New melds and extensions in one lay-down (C1, C10, A22 vulnerability, A21)."""
    if state.phase != PLAY:
        check_phase(state, PLAY)
    rules, seat = state.rules, action.seat
    side = state.side_of[seat]
    if action.do == "extend":
        assert action.meld is not None
        new_melds: tuple[tuple[Card, ...], ...] = ()
        extensions: tuple[tuple[int, tuple[Card, ...]], ...] = ((action.meld, action.cards),)
        laid = list(action.cards)
    else:
        new_melds = action.melds
        extensions = action.extensions
        laid = [c for m in new_melds for c in m] + [c for _, cs in extensions for c in cs]
    if not laid:
        raise IllegalAction("meld_no_cards", "escolha as cartas para baixar")
    hand = without(state.hands[seat], laid)
    side_melds = list(state.melds[side])
    several = len(new_melds) + len(extensions) > 1
    n_new = len(new_melds) if action.do == "meld" else 0
    for k, (index, cards) in enumerate(extensions):
        if index >= len(side_melds):
            raise IllegalAction(
                "no_such_meld", "seu lado não tem o jogo {number}", number=index + 1
            )
        try:
            side_melds[index] = extend_meld(side_melds[index], cards, rules,
                                            action.wild_of(n_new + k))
        except IllegalAction as err:
            raise _about(err, cards, several) from None
    built = []
    for k, cards in enumerate(new_melds):
        try:
            built.append(make_meld(cards, rules, action.wild_of(k)))
        except IllegalAction as err:
            raise _about(err, cards, several) from None
    side_melds.extend(built)
    minimum = state.vuln_min[seat]
    if minimum and not state.has_laid[seat]:
        points = sum(card_points(c, rules) for c in laid)
        if points < minimum:  # RULES A22: refused, and 90 from now on
            state.vuln_min[seat] = rules.vulnerable_min_after_fail
            return [
                Event(
                    "lay_down_short",
                    seat,
                    {"points": points, "needed": minimum, "now_needed": state.vuln_min[seat]},
                )
            ]
    if len(hand) < 2 or facts(rules).red_lay_alone:
        check_leftover(state, seat, hand, side_melds)
    state.hands[seat] = hand
    state.melds[side] = side_melds
    state.has_laid[seat] = True
    state.laid_this_turn = True
    state.redraw_ok = False
    if state.pile_dollars[seat]:
        trim_pile_dollars(state, seat, laid)
    if state.seen[seat]:
        forget_seen(state, seat, laid)
    events = [
        Event(
            "melded",
            seat,
            {
                "melds": [list(map(_CODE, m.cards)) for m in built],
                "extend": [{"meld": i, "cards": list(map(_CODE, cs))} for i, cs in extensions],
            },
        )
    ]
    if not hand:
        go_out(state, seat, True, events)
    return events


def _check_discard(state: DealState, action: Action) -> list[Card]:
    """The checks of a discard; returns the hand that would be left."""
    if state.phase != PLAY:
        check_phase(state, PLAY)
    seat, card = action.seat, action.card
    assert card is not None
    rest = without(state.hands[seat], (card,))
    if facts(state.rules).red_lay_alone:  # RULES A32: red 3s are laid, never thrown
        if is_red_three(card):
            raise IllegalAction("three_no_discard", "o 3 vermelho nunca é descartado: baixe-o")
        if holds_red_three(rest):
            raise IllegalAction("lay_three_first", "baixe o 3 vermelho antes de descartar")
    if card is state.taken_top and (card not in rest or any(c is not card for c in rest)):
        raise IllegalAction(
            "discard_taken_top", "a carta de cima do lixo não pode ser descartada na mesma vez"
        )
    if not rest:
        refusal = going_out_refusal(state, seat, False, state.melds[state.side_of[seat]])
        if refusal is not None:
            raise refusal
    return rest


def _discard(state: DealState, action: Action) -> list[Event]:
    rest = _check_discard(state, action)
    rules, seat, card = state.rules, action.seat, action.card
    assert card is not None
    state.hands[seat] = rest
    if state.pile_dollars[seat]:
        trim_pile_dollars(state, seat, [card])
    if state.seen[seat]:
        forget_seen(state, seat, [card])
    events = [Event("discarded", seat, {"card": card.code})]
    black = card.rank == 3 and not card.is_red and not card.is_joker
    known = facts(rules)
    if black and known.black_kills:
        state.killed.extend(state.pile)
        state.killed.append(card)
        state.pile = []
        state.pile_blocked = False
        events.append(Event("pile_killed", seat, {"count": len(state.killed)}))
    else:
        state.pile.append(card)
        state.pile_blocked = black and known.black_blocks
        if state.pile_blocked:
            events.append(Event("pile_blocked", seat, {}))
    if not rest:
        go_out(state, seat, False, events)
    if state.phase != OVER:
        next_turn(state, events)
    return events


def _lay_three(state: DealState, action: Action) -> list[Event]:
    """RULES A32 (tranca red 3: laid alone, no replacement; emptying the hand is a
    going-out) and A4 (Dólar: replacement draw unless it came with the pile). A draw
    here from an empty stock first turns an untaken morto (altaneira: then the pile,
    once) into stock, as a turn's draw does (A26; an audit found the deal ended, or the
    Dólar left unreplaced, with a morto still there).

    A draw owed here that finds nothing left to draw (no stock, no morto, altaneira's
    pile already reused) ends the deal at once, without a batida bonus (RULES A26, D1,
    seed 000 §8.4): the player neither melds nor goes out after it (issue 38 found the
    turn going on without the Dólar's replacement, and a batida scored).

    Gap decision (docs/rules-decisions.md D1): a tranca red 3 may always be laid; when
    the side may not go out and the player would be left unable to end the turn
    (fewer than two other cards), they draw from the stock until they can."""
    check_phase(state, PLAY)
    rules, seat, card = state.rules, action.seat, action.card
    assert card is not None
    if rules.red_three not in (_LAY_ALONE, _DOLLAR):
        raise IllegalAction("no_threes", "neste jogo o 3 é uma carta comum")
    if card.rank != 3 or not card.is_red or card.is_joker:
        raise IllegalAction("not_red_three", "{card} não é um 3 vermelho", card=str(card))
    hand = without(state.hands[seat], [card])
    side = state.side_of[seat]
    refills: list[Event] = []  # an empty stock refilled for a draw here (A26)
    stock_out = False  # a draw owed here found nothing left to draw: the deal ends (A26)
    if rules.red_three == _DOLLAR:
        from_pile = state.pile_dollars[seat]
        owed = state.hands[seat].count(card) > from_pile.count(card)
        got = draw_card(state, refills) if owed else None  # None: it changed nothing
        stock_out = owed and got is None
        if got is not None:
            hand.append(got)
            state.drawn_more.append(got)
        elif not owed:  # checked before the pile Dólar is forgotten: a refusal changes nothing
            check_leftover(state, seat, hand, state.melds[side])
            if card in from_pile:
                from_pile.remove(card)
        drawn = 0 if got is None else 1
    else:
        drawn = 0
        while not able_to_end_turn(state, seat, hand):  # D1: only when it could not end
            got = draw_card(state, refills)
            if got is None:
                break
            hand.append(got)
            state.drawn_more.append(got)
            drawn += 1
    state.laid_threes[side].append(card)
    state.redraw_ok = False
    forget_seen(state, seat, [card])
    events = [Event("laid_three", seat, {"card": card.code, "replaced": drawn}), *refills]
    state.hands[seat] = hand
    if stock_out or not able_to_end_turn(state, seat, hand):  # RULES A26: nothing left to draw
        state.phase = OVER
        events.append(Event("deal_over", -1, {"reason": "stock"}))
        return events
    if not hand:
        go_out(state, seat, True, events)
    return events


_CHECKS: Final[dict[str, Callable[[DealState, Action], object]]] = {
    "draw": _check_draw,
    "discard": _check_discard,
}
"""Side-effect-free checks, run by :func:`verify` instead of an apply on a copy."""

_HANDLERS: Final[dict[str, Callable[[DealState, Action], list[Event]]]] = {
    "draw": _draw,
    "redraw": _redraw,
    "take_pile": take_pile,
    "meld": _lay_down,
    "extend": _lay_down,
    "discard": _discard,
    "lay_three": _lay_three,
}

__all__ = ["DealState", "Event", "apply", "can", "new_deal", "play", "verify"]
