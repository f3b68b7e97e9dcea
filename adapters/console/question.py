"""The terminal's questions (issue 30): "Sair da partida? (s/n)", "Começar uma partida
de Tranca? ...", "Onde fica o curinga? ...". A question takes its answers; anything else
gets one line saying what it expects, and the question comes again. A game command typed
there (``c``, ``d 5``, ``ajuda``, ``q``) is not run, and that line says so, naming it (a
trial: ``c`` typed at the variant question was silently dropped). Ctrl-C and Ctrl-D leave
the question (None), as at the prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from adapters.console import typed
from adapters.console.session import Session, command_word
from bot.i18n import N_

T = TypeVar("T")

YES_LETTERS, NO_LETTERS = "sy", "n"
"""One word starting with these answers yes (sim, sì, yes, sair) or no (não, no, nao,
and ``não`` as a terminal that cannot decode it reads it, ``n??o``)."""
YES_NO = N_("Responda s (sim) ou n (não).")
NOT_RUN = N_("O comando {command} não foi executado.")
COMMANDS = frozenset({"c", "l", "lj", "b", "e", "d", "t", "r", "n", "p", "?", "q", "regras",
                      "idioma", "exportar", "ranking", "perfil"})
"""The first words of the prompt's commands (:mod:`adapters.console.commands`, where
aliases in three languages map to them)."""


def is_command(line: str, alias: Callable[[str], str]) -> bool:
    """Whether ``line`` reads as one of the prompt's commands (``alias`` maps a first
    word to the command it names, :func:`adapters.console.commands.command_word`), a
    card command glued to its number (``d5``) included."""
    word = alias(line)
    return word in COMMANDS or word.rstrip("0123456789,-") in COMMANDS - {"?"}


def ask(game: Session, prompt: str, parse: Callable[[str], T | None],
        expected: str) -> T | None:
    """Ask ``prompt`` until ``parse`` (given the stripped line) takes the answer; None on
    Ctrl-C or Ctrl-D. Another line gets ``expected`` (translated already), after
    :data:`NOT_RUN` when it was a command."""
    while True:
        line = game.ask(prompt)
        if line is None:
            return None
        got = parse(line.strip())
        if got is not None:
            return got
        if line.strip() and is_command(line, command_word):
            game.say(game._(NOT_RUN, command=typed.echo(line.strip())) + " " + expected)
        else:
            game.say(expected)


def yes_no(game: Session, prompt: str) -> bool | None:
    """``prompt`` answered with one word starting with s or y (True: s, sim, sì, yes) or
    n (False: n, não, no); None on Ctrl-C or Ctrl-D. Enter and anything else ask again
    (:func:`ask`)."""
    def parse(word: str) -> bool | None:
        first = word[:1].lower() if word and len(word.split()) == 1 else ""
        return True if first and first in YES_LETTERS else (
            False if first and first in NO_LETTERS else None)

    return ask(game, prompt, parse, game._(YES_NO))
