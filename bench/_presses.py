"""Button presses of the service bench (bench/service.py): an engine action as the
presses a person makes, and a button's payload found in a view."""

from __future__ import annotations

from bot.effects import View, unpack
from engine.actions import Action
from engine.cards import Card

ENGINE, PICK, DEAL = "action", "pick", "deal"
Press = tuple[str, str, str]  # (code, arg, class)


def find_button(view: View | None, code: str, arg: str | None) -> str | None:
    """The ``data`` of the button with this code and argument (None: any) in ``view``."""
    for row in view.buttons if view is not None else []:
        for button in row:
            parsed = unpack(button.data)
            if parsed is not None and parsed[2] == code and arg in (None, parsed[3]):
                return button.data
    return None


def to_presses(action: Action, hand_codes: list[str]) -> list[Press] | None:
    """The presses that make ``action`` from a hand shown as ``hand_codes`` (sorted),
    or None when the buttons cannot express it (several extensions, no new meld)."""
    free: dict[str, list[int]] = {}
    for i, code in enumerate(hand_codes):
        free.setdefault(code, []).append(i)

    def pick(cards: tuple[Card, ...]) -> list[Press]:
        return [("t", str(free[c.code].pop(0)), PICK) for c in cards]

    do = action.do
    if do in ("draw", "redraw"):
        return [("c" if do == "draw" else "r", "", ENGINE)]
    if do == "take_pile":
        if action.meld is not None:
            return [("p", str(action.meld), ENGINE)]
        return [*pick(action.with_ or ()), ("p", "", ENGINE)]
    if do in ("discard", "lay_three"):
        assert action.card is not None
        return [*pick((action.card,)), ("d" if do == "discard" else "3", "", ENGINE)]
    if do == "extend":
        return [*pick(action.cards), ("e", str(action.meld), ENGINE)]
    melds, exts = list(action.melds), list(action.extensions)
    if not melds:
        if len(exts) != 1:
            return None
        return [*pick(exts[0][1]), ("e", str(exts[0][0]), ENGINE)]
    out: list[Press] = []
    staged = melds if exts else melds[:-1]
    for meld in staged:
        out += [*pick(meld), ("g", "", PICK)]
    for onto, cards in exts:
        out += [*pick(cards), ("e", str(onto), PICK)]
    if not exts:
        out += pick(melds[-1])
    return [*out, ("m", "", ENGINE)]
