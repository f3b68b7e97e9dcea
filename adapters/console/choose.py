"""The terminal's first screen and its variant switch (issue 30): a game opened without
``--variant`` plays the default table (RULES A0, ``bossa_nova``); the first screen says
so with the variant's one-line description and lists the other variants, each with its
own (:mod:`bot.variants`, the same lines the chat lobby shows); typing a variant's name
(``tranca``, ``biriba``; options may follow: ``tranca target=3000``) starts a match of it
instead, asking first once the person has played a move.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.padding import Padding
from rich.table import Table

from adapters.console import question
from adapters.console.session import Session
from bot import lobby, variants
from bot.i18n import Translator
from bot.outcome import Refusal
from engine.rules import ALIASES, PRESETS

WORDS = frozenset(PRESETS) | frozenset(ALIASES)
"""The one words that name a variant at the prompt."""


def is_variant(word: str) -> bool:
    """Whether ``word`` (lower case) names a variant, as typed at the prompt."""
    return word in WORDS


def intro(game: Session, preset: str) -> None:
    """The first screen's lines, above the first table: the variant played and its
    description, then every other variant with the word that starts it."""
    _ = game._
    game.console.print(variants.describe(preset, _), style="bold")
    game.console.print(_("Outras variantes: digite o nome para jogar uma delas."))
    grid = Table.grid(padding=(0, 2))  # a long description wraps within its column
    grid.add_column(no_wrap=True)
    grid.add_column()
    for p in variants.ORDER:
        if p != preset:
            grid.add_row(p, variants.describe(p, _))
    game.console.print(Padding(grid, (0, 0, 0, 2)), highlight=False)


async def switch(game: Session, line: str) -> bool:
    """``tranca [opções]`` at the prompt: True when the person chose to leave this match
    for a match of that variant (:attr:`Session.next_variant` set; the caller ends
    the match and :mod:`bot.__main__` opens the next one). A variant with options it does
    not take is refused with the reason, and this match goes on."""
    _ = game._
    try:
        preset, options, _timer, _shuffle = lobby.parse_args(line, lobby.MIN_TIMER_S)
        lobby.rules_of(preset, options)
    except Refusal as err:
        game.say(err.render(_))
        return False
    title = variants.TITLES[preset]
    players, levels = seats_for(line, *game.seats)
    if game.pressed:
        what = match_line(players or lobby.rules_of(preset, options).default_players,
                          lobby.rules_of(preset, options).target, _)
        answer = question.yes_no(game, _("Começar uma partida de {name} ({what})? Esta "
                                         "acaba aqui. (s/n) ", name=title, what=what))
        if not answer:
            game.console.print(_("A partida continua."))
            return False
    game.next_variant = line.strip()
    game.next_seats = (players, levels)
    return True


def match_line(players: int, target: int | None, _: Translator) -> str:
    """What a match chosen at the prompt will be, said in its question (issue 30 T5: a
    4-player match to 1500 became, unasked, a 2-player one-deal Tranca): ``"4
    jogadores: você e 3 robôs; até 1500 pontos"``, ``"...; uma mão só"`` where one deal
    decides (RULES A35, ``target`` None)."""
    who = _.n("{players} jogadores: você e {n} robô", "{players} jogadores: você e {n} robôs",
              players - 1, players=players)
    goal = _("até {target} pontos", target=target) if target else _("uma mão só")
    return _("{who}; {goal}", who=who, goal=goal)


def seats_for(variant: str, players: int | None,
              levels: Sequence[str]) -> tuple[int | None, list[str]]:
    """The seat count and robot levels a match of ``variant`` chosen at the prompt
    starts with: ``players`` (those of the match it replaces, issue 30 T5) when the
    variant takes it, else its default (RULES §1 "players"); ``levels`` when one level
    or one per robot fits, else the first for all."""
    preset, options, _timer, _shuffle = lobby.parse_args(variant, lobby.MIN_TIMER_S)
    rules = lobby.rules_of(preset, options)
    seats = players if players in rules.players_allowed else None
    robots = (seats or rules.default_players) - 1
    return seats, list(levels) if len(levels) in (1, robots) else [levels[0]]
