"""Rich rendering of the service's views for the terminal (table, numbered hand)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from bot.effects import Button, View
from bot.hands import DRAWN_MARK
from bot.i18n import Translator

# Hand button code -> what to type (docs: adapters/console/app.py HELP).
COMMANDS = {"c": "c", "p": "l", "m": "b", "e": "e", "d": "d", "r": "r", "3": "t"}


def hand_text(view: View, order: Sequence[int | None] | None = None, new: int = 0) -> Text:
    """``1:7♥  2:8♥ ...`` with red suits in red and selected cards underlined; ``order``
    lists the view's card index of each number (default: the view's order; None: a number
    whose card left this turn, not shown, ``1:7♥  3:9♥``). One mark per
    card: the cards drawn from the stock this turn ``•`` as on every platform
    (``bot.hands.DRAWN_MARK``), the other cards that came this turn (the last ``new``
    shown: the pile, a morto) ``*``."""
    text = Text()
    shown = order if order is not None else list(range(len(view.cards)))
    for pos, i in enumerate(shown):
        if i is None:
            continue
        face = view.cards[i]
        if text:
            text.append("  ")
        text.append(f"{pos + 1}:", style="dim")
        if face.drawn:
            text.append(DRAWN_MARK, style="bold")
        style = "bold red" if face.red else "bold"
        text.append(face.text, style=style + (" underline" if face.selected else ""))
        if starred(view, shown, new, pos):
            text.append("*", style="bold green")
    return text


def starred(view: View, shown: Sequence[int | None], new: int, pos: int) -> bool:
    """True when the card numbered ``pos`` + 1 is marked ``*``: new this turn (one of
    the last ``new`` numbers) and not drawn from the stock (those are marked ``•``)."""
    index = shown[pos]
    return index is not None and pos >= len(shown) - new and not view.cards[index].drawn


def actions_text(view: View, _: Translator) -> str:
    """The actions valid now, with the command that does each: ``Comprar do monte (c)``,
    ``Lixo → 1 (lj 1)``, ``Juntar a um jogo (e J N N)`` when the side has melds."""
    seen: list[str] = []
    for row in view.buttons:
        for button in row:
            label = _action_label(button, _)
            if label and label not in seen:
                seen.append(label)
    return " · ".join(seen)


def _action_label(button: Button, _: Translator) -> str | None:
    _gid, _ver, code, arg = button.data.split("|")[:4]
    if code not in COMMANDS:
        return None
    if code == "e":
        return _("Juntar a um jogo (e J N N)")
    if code == "p" and arg:
        return f"{button.label} (lj {int(arg) + 1})"
    suffix = " N" if code in ("d", "3") else (" N N N" if code == "m" else "")
    return f"{button.label} ({COMMANDS[code]}{suffix})"


def show_table(console: Console, view: View) -> None:
    """The table panel."""
    console.print(Panel("\n".join(view.lines), title=view.title, expand=False))


def show_hand(console: Console, view: View, _: Translator,
              order: Sequence[int | None] | None = None, new: int = 0) -> None:
    """The hand panel: numbered cards (see :func:`hand_text`), a note on the marks when a
    ``*`` is shown,
    status lines, and the actions valid now."""
    parts: list[Text | str] = [hand_text(view, order, new)]
    shown = order if order is not None else list(range(len(view.cards)))
    if any(starred(view, shown, new, pos) for pos in range(len(shown))):
        parts.append(_("* = nova nesta vez, • = comprada do monte (no fim: as outras "
                       "mantêm o número)"))
    parts += [line for line in view.lines[1:]]
    actions = actions_text(view, _)
    if actions:
        parts.append(_("Ações: {actions}", actions=actions))
    console.print(Panel(Group(*parts), title=view.title, expand=False))
