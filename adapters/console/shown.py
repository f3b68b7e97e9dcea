"""What the terminal shows (mixed into :class:`adapters.console.app.ConsoleGame`): the
effects taken in (the latest table and hand kept, messages printed), the hand numbers
that hold for a whole turn (issue 30), and the table's narration printed once per turn,
when the turn has ended."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Console

from adapters.console import typed
from adapters.console.session import ME
from bot.effects import Effect, View
from bot.i18n import Translator

SENTENCE_END = re.compile(r"(?<=[.!])\s+")


class Shown:
    """The terminal's view of the match (see the module docstring); the attributes are
    :class:`adapters.console.app.ConsoleGame`'s."""

    console: Console
    table: View | None
    hand: View | None
    order: list[int | None]
    new_cards: int
    leaving: set[int]
    game_id: str
    closed: bool
    narrate: bool
    told: set[str]
    printed: set[str]
    _: Translator
    rules: Any

    def show(self, effects: list[Effect]) -> None:
        """Keep the latest table and hand; print the messages. A narration sentence a
        message of the same effects says as a whole line (the deal's result opens with
        "O monte acabou: ninguém bateu.", RULES A26) is printed once, by the message."""
        said = {line for eff in effects if eff.kind in ("reply", "say", "tell")
                for line in eff.text.splitlines()}
        self.told |= said
        self.printed |= said
        for eff in effects:
            if eff.kind == "table":
                before = self.table.lines[-1] if self.table is not None else ""
                self.table, self.game_id = eff.view, eff.game_id
                if self.narrate and eff.view.lines and eff.view.lines[-1] != before:
                    self._narrate(before, eff.view.lines[-1])
                elif not self.narrate and eff.view.lines:  # the person's own move: the
                    self.told |= set(SENTENCE_END.split(eff.view.lines[-1]))  # hand says it
            elif eff.kind == "hand" and eff.player.key == ME.key:
                self._new_hand(eff.view)
            elif eff.kind in ("reply", "say", "tell"):
                style = "bold yellow" if eff.kind == "reply" else "cyan"
                self.console.print(eff.text, style=style)
            elif eff.kind == "file":
                path = Path(eff.filename).resolve()
                path.write_text(eff.content, encoding="utf-8")
                self.console.print(self._("Registro da partida salvo em {path}.", path=path))
            elif eff.kind == "closed":
                self.closed = True

    def _new_hand(self, view: View) -> None:
        """Take a new hand view: numbered afresh (sorted) when a turn starts; during the
        turn every number keeps naming the card it named (a card that left leaves its
        number unused, :func:`typed.keep_order`) and new cards get new numbers at the end."""
        codes = [face.code for face in view.cards]
        if self.hand is None or not self.my_turn():
            self.order, self.new_cards = list(range(len(codes))), 0
        else:
            self.order, self.new_cards = typed.keep_order(
                self.shown_codes(), codes, self.new_cards, self.leaving)
            if not _offers_actions(view):  # the turn is over (a discard, the deal's end):
                self.new_cards = 0  # the numbers stay, no card is "new this turn" (*)
        self.hand = view

    def shown_codes(self) -> list[str | None]:
        """The record code of the card each hand number names (number - 1), None for a
        number whose card left this turn."""
        if self.hand is None:
            return []
        cards = self.hand.cards
        return [None if i is None else cards[i].code for i in self.order]

    def view_index(self, pos: int) -> int:
        """The hand view's index of the card numbered ``pos`` + 1 (a number that names a
        card: :func:`typed.positions` checked it)."""
        index = self.order[pos]
        if index is None:
            raise ValueError(f"hand number {pos + 1} names no card")
        return index

    def _narrate(self, before: str, now: str) -> None:
        """Print each turn of the table's narration (bot/narration.py: one sentence per
        seat and turn) once, on its own line, when the turn has ended (a later sentence
        follows it); the turn in play is shown by the table (:meth:`render`, which leaves
        out what was printed here). ``before`` is the previous table's narration."""
        del before  # each sentence is printed once, whatever the previous table said
        parts = SENTENCE_END.split(now)
        self.told &= set(parts)  # a sentence gone from the narration may come back anew
        self.printed &= set(parts)
        playing = self.table is not None and not self.between() and bool(self.table.buttons)
        for part in parts[:-1] if playing else parts:  # a deal's end ends the last turn
            if part and part not in self.told:
                self.told.add(part)
                self.printed.add(part)
                self.console.print(part, style="dim")

    def _untold(self, view: View) -> View:
        """``view`` (the table) without the narration sentences already printed, nor
        the person's own ended turn (their hand says it): the turn in play, or the turn
        that ended last, is left."""
        if not view.lines or not self.told:
            return view
        parts = SENTENCE_END.split(view.lines[-1])
        left = [part for k, part in enumerate(parts) if part not in self.printed
                and (part not in self.told or k == len(parts) - 1)]
        if len(left) == len(parts):
            return view
        lines = view.lines[:-1] + ([" ".join(left)] if left else [])
        return view.model_copy(update={"lines": lines})

    def my_turn(self) -> bool:
        """True when the hand view offers actions."""
        return self.hand is not None and _offers_actions(self.hand)

    def between(self) -> bool:
        """True between two deals (the table offers "Próxima mão")."""
        return self.table is not None and any(
            b.data.split("|")[2] == "n" for row in self.table.buttons for b in row)


def _offers_actions(view: View) -> bool:
    """True when the hand ``view`` offers a move (a button other than a card toggle)."""
    return any(b.data.split("|")[2] not in ("t", "u") for row in view.buttons for b in row)
