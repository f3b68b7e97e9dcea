"""Taking the discard pile (lixo): open or justified, and the checks of each variant
(docs/RULES.md "discard pile" row; A10, A11, A23, A33, A38)."""

from __future__ import annotations

from engine.actions import Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import RUN, Meld, extend_meld, make_meld
from engine.rules import Rules
from engine.state import DRAW, PLAY, DealState, Event
from engine.turns import (
    check_leftover,
    check_phase,
    go_out,
    note_pile_dollars,
    trim_pile_dollars,
    without,
)


def take_pile(state: DealState, action: Action) -> list[Event]:
    """Apply ``take_pile`` (``IllegalAction`` when it may not be taken): the whole pile
    into the hand where it is open (docs/RULES.md "discard pile" row), or, where a pick-up
    must be justified, its top card into a meld in the same move and the rest into the
    hand (A10, A11, A38); a black 3 blocks it (A33); one card in hand may not take a
    one-card pile where the rules say so (A23). Ends the draw phase; an emptied hand goes out."""
    check_phase(state, DRAW)
    rules, seat = state.rules, action.seat
    hand = state.hands[seat]
    if not state.pile:
        raise IllegalAction("pile_empty", "o lixo está vazio")
    if state.pile_blocked:
        raise IllegalAction("pile_blocked", "o lixo está trancado por um 3 preto: compre do monte")
    if rules.single_card_pile_rule and len(hand) == 1 and len(state.pile) == 1:
        raise IllegalAction(
            "single_card_pile", "com uma carta na mão não se pega lixo de uma carta só"
        )
    top, rest = state.pile[-1], state.pile[:-1]
    side = state.side_of[seat]
    if not rules.pickup_justified:
        if action.with_ is not None or action.meld is not None:
            raise IllegalAction(
                "pile_open", "neste jogo o lixo é aberto: pegue-o e depois baixe seus jogos"
            )
        state.hands[seat] = hand + state.pile
        state.from_pile = list(state.pile)
        state.seen[seat].extend(state.pile)  # an open pile: everyone saw what was taken
        note_pile_dollars(state, seat, state.pile)
        state.taken_top = top
        events = [Event("took_pile", seat, {"cards": [c.code for c in state.pile]})]
    else:
        new_hand, side_melds, meld_index = _justify(state, action, top)
        new_hand = new_hand + rest
        check_leftover(state, seat, new_hand, side_melds)
        state.hands[seat] = new_hand
        state.melds[side] = side_melds
        state.from_pile = list(rest)
        if action.with_ and state.pile_dollars[seat]:  # A4: a pile Dólar melded with the top
            trim_pile_dollars(state, seat, action.with_)
        note_pile_dollars(state, seat, rest)
        state.has_laid[seat] = True
        state.laid_this_turn = True
        events = [
            Event(
                "took_pile", seat, {"top": top.code, "count": len(state.pile), "meld": meld_index}
            )
        ]
    state.pile = []
    state.phase = PLAY
    state.drawn = None
    state.drawn_more = []
    state.redraw_ok = False
    if not state.hands[seat]:
        go_out(state, seat, True, events)
    return events


def _justify(state: DealState, action: Action, top: Card) -> tuple[list[Card], list[Meld], int]:
    """RULES A10, A11, A38: the top card goes into a new meld with >= 2 hand cards, or
    onto one of the side's melds, in the same move."""
    rules = state.rules
    side = state.side_of[action.seat]
    side_melds = list(state.melds[side])
    laid: Meld | None = None  # the meld the top card joins (None: a new meld)
    if action.with_ and action.meld is not None and rules.pickup_extend_with_hand:
        # docs/RULES.md "Options for comparison": the top card and hand cards onto a meld
        laid = _side_meld(side_melds, action.meld)
        new_hand = without(state.hands[action.seat], action.with_)
        meld = extend_meld(laid, [top, *action.with_], rules)
        side_melds[action.meld] = meld
        index = action.meld
    elif action.with_ is not None:
        if len(action.with_) < 2:
            raise IllegalAction(
                "justify_two_cards", "para pegar o lixo, junte a carta de cima com 2 ou mais da mão"
            )
        if rules.justify_wild_same_suit and any(
            c.rank == 2 and c.suit != top.suit for c in action.with_
        ):
            raise IllegalAction(
                "justify_wild_suit", "só um 2 do mesmo naipe da carta de cima justifica"
            )
        new_hand = without(state.hands[action.seat], action.with_)
        meld = make_meld([top, *action.with_], rules, action.wild_of(0))  # issue 30
        side_melds.append(meld)
        index = len(side_melds) - 1
    elif action.meld is not None:
        laid = _side_meld(side_melds, action.meld)
        meld = extend_meld(laid, [top], rules)
        side_melds[action.meld] = meld
        new_hand = list(state.hands[action.seat])
        index = action.meld
    else:
        raise IllegalAction("justify_needed", "para pegar o lixo, baixe a carta de cima num jogo")
    if not top_two_allowed(laid, meld, top, rules):
        raise IllegalAction(
            "justify_wild_top", "um 2 no topo do lixo só sai como o 2 natural do seu naipe"
        )
    return new_hand, side_melds, index


def _side_meld(side_melds: list[Meld], index: int) -> Meld:
    if index >= len(side_melds):
        raise IllegalAction("no_such_meld", "seu lado não tem o jogo {number}", number=index + 1)
    return side_melds[index]


def top_two_allowed(laid: Meld | None, made: Meld, top: Card, rules: Rules) -> bool:
    """RULES A11 (altaneira, ``rules.justify_wild_same_suit``): whether ``top``, the
    pile's top card taken into ``made`` (a new meld when ``laid`` is None, else ``laid``
    extended by it), may be taken so: any card but a 2 may; a 2 only as ``made``'s
    natural 2, i.e. ``made`` holds a natural 2 of its suit and ``laid`` did not. When
    ``laid`` holds its natural 2 already, the top one (the other copy) could only be its
    wild (a trial took a whole pile so). True wherever A11 does not apply. The engine's
    pick-up, the AI's and the hand's "Lixo → N" buttons all ask this."""
    if not (rules.justify_wild_same_suit and top.rank == 2):
        return True
    return _natural_two(made, top) and (laid is None or not _natural_two(laid, top))


def _natural_two(meld: Meld, two: Card) -> bool:
    """Whether ``meld`` is a run of ``two``'s suit holding a 2 of that suit in its rank-2
    slot, not as its wild (RULES C5: slot 2 is a run's one natural 2)."""
    if meld.kind != RUN or meld.suit != two.suit or not meld.low <= 2 <= meld.high:
        return False
    at = 2 - meld.low
    slot = meld.cards[at]
    return slot.rank == 2 and slot.suit == two.suit and at != meld.wild_at
