"""What the terminal's commands, questions and variant switch share with the game they
act on, in one place (issue 38: ``app`` imported ``commands``, ``choose``, ``question``
and ``wild``, and each imported ``ConsoleGame`` back, a five-module circle).

:class:`Session` is the part of :class:`adapters.console.app.ConsoleGame` those modules
use, as a ``typing.Protocol``; the person's and the terminal's references (:data:`ME`,
:data:`CHAT`) and the command words (:func:`command_word`) live here too, so the imports
of ``adapters/console`` run one way: ``app`` -> ``commands`` -> ``choose``, ``question``,
``wild``, ``typed`` -> ``session`` (``tests/test_console_imports.py``).
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import Console

from bot.effects import ChatRef, Effect, PlayerRef, View
from bot.i18n import Translator
from bot.service import Service

ME = PlayerRef(platform="cli", user_id="me", name="Você")
"""The person at the terminal."""
CHAT = ChatRef(platform="cli", chat_id="local", title="Terminal")
"""The terminal, a group of one person."""

ALIASES = {"placar": "p", "score": "p", "punteggio": "p", "ajuda": "?", "help": "?",
           "aiuto": "?", "sair": "q", "quit": "q", "esci": "q", "rules": "regras",
           "regole": "regras", "language": "idioma", "lingua": "idioma",
           "export": "exportar", "esporta": "exportar", "profile": "perfil",
           "profilo": "perfil", "verify": "verificar", "verifica": "verificar",
           "hint": "dica", "suggerimento": "dica", "review": "revisao",
           "revisão": "revisao", "revisione": "revisao"}
"""Words in any of the three languages -> the command they name."""


def command_word(line: str) -> str:
    """The command ``line``'s first word names (an alias in any language mapped), lower
    case; "" for an empty line."""
    words = line.strip().lower().split()
    return ALIASES.get(words[0], words[0]) if words else ""


class Session(Protocol):
    """A terminal match as the commands see it (:class:`adapters.console.app.ConsoleGame`
    is the one implementation): the service and the console, the language, the current
    table and hand views, the match's rules and seats, and what a command does to it."""

    service: Service
    console: Console
    _: Translator
    rules: Any  # engine ``Rules`` of the match, None before it is set up
    table: View | None
    hand: View | None
    leaving: set[int]
    pressed: bool
    seats: tuple[int, list[str]]
    next_variant: str | None
    next_seats: tuple[int | None, list[str]]

    def show(self, effects: list[Effect]) -> None:
        """Print the messages of ``effects`` and keep their table and hand."""

    def say(self, text: str) -> None:
        """A refusal, in the replies' style."""

    def ask(self, prompt: str) -> str | None:
        """One line from the person, None on Ctrl-C or Ctrl-D."""

    async def press(self, code: str, arg: str | int = "") -> bool:
        """Press a button of the hand view; False when refused."""

    async def next_deal(self) -> None:
        """Press the table's "Próxima mão"."""

    def shown_codes(self) -> list[str | None]:
        """The card code each hand number names (None: the card left this turn)."""

    def view_index(self, pos: int) -> int:
        """The hand view's index of the card numbered ``pos`` + 1."""
