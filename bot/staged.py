"""Where the wild of each meld set aside stands (issue 30): a person who sets several
melds aside in one turn ("Separar", "+N" with groups, the terminal's ``b 1 2 3 / 4 5 6``)
chooses the place of every wild that could stand in two (2♦ 2♦ 3♦ as A-2-3 or 2-3-4,
RULES C4, C5, docs D11, D20), not only the selection's.

Each such group gets a row of buttons, one per place (``gw``, argument ``100 · first
card + slot``: the group is named by its first card, so a press on a group that is gone
finds nothing), the place it takes now in brackets; the choice is kept in
:attr:`bot.model.Group.wild` and goes with the lay-down (engine ``Action.lay_down``'s
``wilds``: each new meld's, then each extension's).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bot import play
from bot.buttons import UNKNOWN
from bot.i18n import N_, Translator
from bot.model import Game, Group
from bot.outcome import Refusal
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import Meld, extend_meld, make_meld
from engine.rules import Rules
from engine.wilds import extension_wild_choices, wild_choices

GONE = N_("Esse jogo já não está separado.")


def _walk(groups: list[Group], hand: list[Card], melds: list[Meld],
          rules: Rules) -> Iterator[tuple[Group, list[Card], list[int], list[Meld]]]:
    """Each group with its cards, its wild's slots (:func:`places`) and the side's melds
    as the extensions set aside before it leave them."""
    grown = list(melds)
    for g in groups:
        cards = [hand[i] for i in g.cards]
        if g.onto is None:
            yield g, cards, wild_choices(cards, rules), grown
            continue
        if g.onto >= len(grown):
            yield g, cards, [], grown
            continue
        yield g, cards, extension_wild_choices(grown[g.onto], cards, rules), list(grown)
        with contextlib.suppress(IllegalAction):
            grown[g.onto] = extend_meld(grown[g.onto], cards, rules, g.wild)


def places(groups: list[Group], hand: list[Card], melds: list[Meld],
           rules: Rules) -> list[list[int]]:
    """For each group (card indexes into ``hand``, the seat's sorted hand), the slots
    its wild may take, the default first; ``[]`` where there is no choice. ``melds``:
    the side's melds on the table (grown by the extensions set aside before each one)."""
    return [slots for _g, _c, slots, _m in _walk(groups, hand, melds, rules)]


def chosen(group: Group, slots: list[int]) -> int:
    """The slot the group's wild takes now: its choice, else the default."""
    return group.wild if group.wild in slots else slots[0]


def _context(game: Game, seat: int) -> tuple[list[Card], list[Meld], Rules]:
    view = play.view_of(game, seat)
    return view.hand, list(view.melds[view.side]), view.rules


def rows(game: Game, seat: int, b: play.ButtonMaker,
         _: Translator) -> list[list[play.ButtonData]]:
    """One row of place buttons for each group set aside whose wild could stand in two
    places; the place it takes now in brackets."""
    s = game.seats[seat]
    if not s.groups:
        return []
    out, (hand, melds, rules) = [], _context(game, seat)
    for k, (g, cards, slots, grown) in enumerate(_walk(s.groups, hand, melds, rules)):
        if len(slots) < 2:
            continue
        now, row = chosen(g, slots), []
        for slot in slots:
            text = _("Separado {n}: {cards}", n=k + 1,
                     cards=_placed(cards, g.onto, grown, rules, slot))
            row.append(b("", "gw", 100 * g.cards[0] + slot,
                         text=f"[{text}]" if slot == now else text))
        out.append(row)
    return out


def _placed(cards: list[Card], onto: int | None, grown: list[Meld], rules: Rules,
            slot: int) -> str:
    """``2♦(A) 2♦ 3♦`` (a new meld with its wild in ``slot``) or ``+1: 2♣(4)`` (the
    new wild of an extension of meld ``onto``)."""
    if onto is None:
        return play.show_meld(make_meld(cards, rules, slot))
    run = extend_meld(grown[onto], cards, rules, slot)
    return f"+{onto + 1}: {play.text_of(run.cards[run.wild_at])}({play.rank_text(slot)})"


def choose(game: Game, seat: int, arg: int) -> None:
    """``gw``: the group whose first card is ``arg // 100`` puts its wild in slot
    ``arg % 100`` (pressed again: the same, nothing more). A group no longer set aside:
    :data:`GONE`; a slot the group's wild cannot take: "Botão desconhecido."."""
    s = game.seats[seat]
    first, slot = divmod(arg, 100)
    k = next((k for k, g in enumerate(s.groups) if g.cards and g.cards[0] == first), None)
    if k is None:
        raise Refusal(GONE)
    hand, melds, rules = _context(game, seat)
    slots = places(s.groups, hand, melds, rules)[k]
    if slot not in slots:
        raise Refusal(UNKNOWN)
    s.groups[k].wild = 0 if slot == slots[0] else slot


def wilds(groups: list[Group], sel_slot: int | None) -> list[int]:
    """The lay-down's ``wilds``: each new meld's chosen slot (the groups', then the
    selection's ``sel_slot`` when the selection is laid too), then each extension's;
    ``[]`` when all are the default."""
    out = [g.wild for g in groups if g.onto is None]
    if sel_slot is not None:
        out.append(sel_slot)
    out += [g.wild for g in groups if g.onto is not None]
    return out if any(out) else []


__all__ = ["GONE", "choose", "chosen", "places", "rows", "wilds"]
