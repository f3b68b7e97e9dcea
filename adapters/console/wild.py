"""The terminal's question when a wild could stand in two places (issue 30).

The hand view offers one button per place (:func:`bot.hands._wild_rows`: ``w`` for the
new meld of the selection, ``ew`` for an extension of meld N, ``pw`` for the meld that
justifies a closed pile's pick-up); after ``b``, ``e`` or ``l`` has
selected the cards, the terminal reads those buttons and asks which one, so the choice
is made exactly as in the chat (RULES C4, docs/rules-decisions.md D11, D20). A ``b``
with several melds sets each aside as the chat's "Separar" does, then asks about each
one whose wild is in question, in the order typed, from the hand's place buttons of the
melds set aside (``gw``, :mod:`bot.staged`), and lays them all down.
"""

from __future__ import annotations

from adapters.console import question
from adapters.console.session import Session
from bot.i18n import N_

ASK = N_("Onde fica o curinga? {choices} (Enter = 1) ")
AGAIN = N_("Escolha um número de 1 a {max}.")


def staged(game: Session) -> list[list[tuple[str, str, str]]]:
    """``(label, code, arg)`` of the place buttons of each meld set aside whose wild is
    in question (``gw``), one list per meld in the order they were set aside; the label
    without the chat's "Separado N: " and the brackets of the place taken now."""
    melds: dict[int, list[tuple[str, str, str]]] = {}
    for row in game.hand.buttons if game.hand is not None else []:
        for button in row:
            _gid, _ver, code, arg = button.data.split("|")[:4]
            if code == "gw":
                label = button.label.removeprefix("[").removesuffix("]").split(": ", 1)[-1]
                melds.setdefault(int(arg) // 100, []).append((label, code, arg))
    return list(melds.values())


def choices(game: Session, cmd: str, target: int | None) -> list[tuple[str, str, str]]:
    """``(label, code, arg)`` of the hand's place buttons for this move (``b``: ``w``;
    ``l`` justified by the selection: ``pw``; ``e`` onto meld ``target``: its ``ew``)."""
    out = []
    for row in game.hand.buttons if game.hand is not None else []:
        for button in row:
            _gid, _ver, code, arg = button.data.split("|")[:4]
            if (cmd == "b" and code == "w") or (cmd == "l" and code == "pw") or (
                    cmd == "e" and code == "ew" and int(arg) // 100 == target):
                out.append((button.label, code, arg))
    return out


def ask(game: Session, places: list[tuple[str, str, str]]) -> tuple[str, str] | None:
    """The place the person picks (Enter: the first, the rules' default), as the button's
    ``(code, arg)``; None when they leave (Ctrl-D, Ctrl-C)."""
    listed = "  ".join(f"{k + 1}) {label}" for k, (label, _c, _a) in enumerate(places))

    def parse(word: str) -> tuple[str, str] | None:
        if not word:
            return places[0][1:]
        if word.isascii() and word.isdigit() and 1 <= int(word) <= len(places):
            return places[int(word) - 1][1:]
        return None

    return question.ask(game, game._(ASK, choices=listed), parse,
                        game._(AGAIN, max=len(places)))
