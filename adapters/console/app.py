"""Terminal play: one person against AI seats, through the same service and effects as
the chat adapters (issue 4 "Terminal play").

Commands (``?`` shows them; cards are numbered from 1 as shown under "Sua mão"):
  c            draw from the stock (comprar)
  l            take the discard pile (lixo); ``l 4 5`` justifies it with hand cards 4 5;
               ``lj 2`` puts the top card onto your meld 2 (closed-pile variants)
  b 1 2 3      meld cards 1 2 3; several at once: ``b 1 2 3 / 7 8 9``
  e 2 4 5      add cards 4 5 to your side's meld 2
  d 7          discard card 7
  t 4          lay the red 3 that is card 4 (tranca, altaneira)
  r            lay the drawn card on the pile and draw another (first turn, RULES A9)
  p            scoreboard        ?  help (only the commands of the variant)
  q            quit (also Ctrl-D; Ctrl-C exits with code 130)

Typed numbers are checked here (digits, range, repeats) before any button is built.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from adapters.console import render
from bot import lobby
from bot.effects import ChatRef, Effect, PlayerRef, View, pack
from bot.i18n import N_, Translator
from bot.outcome import Choices, Refusal
from bot.service import Service

ME = PlayerRef(platform="cli", user_id="me", name="Você")
CHAT = ChatRef(platform="cli", chat_id="local", title="Terminal")
MAX_DIGITS = 3  # no hand or table reaches 1000 cards or melds
HELP_PARTS: list[tuple[str, str]] = [
    ("", N_("c = comprar do monte")),
    ("", N_("l = pegar o lixo")),
    ("justified", N_("l 4 5 = pegar o lixo justificando com as cartas 4 5")),
    ("justified", N_("lj 2 = pôr o topo do lixo no seu jogo 2")),
    ("", N_("b 1 2 3 = baixar as cartas 1 2 3 (vários jogos: b 1 2 3 / 7 8 9)")),
    ("", N_("e 2 4 5 = juntar as cartas 4 5 ao jogo 2")),
    ("", N_("d 7 = descartar a carta 7")),
    ("threes", N_("t 4 = baixar o 3 vermelho (carta 4)")),
    ("redraw", N_("r = abrir o lixo com a carta comprada e comprar outra")),
    ("", N_("p = placar · ? = ajuda · q = sair")),
]


def help_text(rules: Any, _: Translator) -> str:
    """``Comandos: c = comprar do monte · ...``: only the commands of ``rules`` (engine
    ``Rules``; None lists them all): justified pick-up when ``pickup_justified``, ``t``
    when red 3s are laid (tranca, altaneira), ``r`` when ``first_player_second_card``."""
    applies = {
        "": True,
        "justified": rules is None or rules.pickup_justified,
        "threes": rules is None or rules.red_three != "ordinary",
        "redraw": rules is None or rules.first_player_second_card,
    }
    parts = [_(msgid) for need, msgid in HELP_PARTS if applies[need]]
    return _("Comandos: {parts}", parts=" · ".join(parts))


def _is_number(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _short(word: str) -> str:
    """A typed number as shown back: long ones cut to ``1111…``."""
    return word if len(word) <= MAX_DIGITS + 1 else word[:4] + "…"


class ConsoleGame:
    """A terminal match. ``read`` returns the person's next line (``input`` by default;
    tests pass a script); ``pause_s`` waits between AI moves so a person can follow."""

    def __init__(self, service: Service, console: Console,
                 read: Callable[[str], str] | None = None, pause_s: float = 0.0) -> None:
        self.service = service
        self.console = console
        self.read = read or input
        self.pause_s = pause_s
        self.table: View | None = None
        self.hand: View | None = None
        self.game_id = ""
        self.closed = False
        self.narrate = False
        self._ = Translator("pt")
        self._rules: Any = None

    def show(self, effects: list[Effect]) -> None:
        """Keep the latest table and hand; print the messages."""
        for eff in effects:
            if eff.kind == "table":
                before = self.table.lines[-1:] if self.table is not None else []
                self.table, self.game_id = eff.view, eff.game_id
                if self.narrate and eff.view.lines[-1:] != before and eff.view.lines:
                    self.console.print(eff.view.lines[-1], style="dim")
            elif eff.kind == "hand" and eff.player.key == ME.key:
                self.hand = eff.view
            elif eff.kind in ("reply", "say", "tell"):
                style = "bold yellow" if eff.kind == "reply" else "cyan"
                self.console.print(eff.text, style=style)
            elif eff.kind == "closed":
                self.closed = True

    async def setup(self, variant: str, players: int | None,
                    levels: Sequence[str] = ("normal",)) -> bool:
        """Open a table, add AI seats up to ``players`` (the preset's default when None),
        of ``levels`` in turn (``facil``/``normal``/``dificil``), start. False (with the
        reason printed) when the service refuses or the variant does not play with
        ``players`` (checked before any AI seat is added)."""
        try:
            preset, options, _timer, _shuffle = lobby.parse_args(variant, lobby.MIN_TIMER_S)
            self._rules = lobby.rules_of(preset, options)
        except Refusal:
            self._rules = None  # the service says why just below
        if self._rules is not None and players is not None \
                and players not in self._rules.players_allowed:
            allowed = Choices(str(k) for k in self._rules.players_allowed).render(self._)
            self.say(self._("Esta variante joga com {allowed} jogadores; a mesa tem {n}.",
                            allowed=allowed, n=players))
            return False
        await self.close()  # a game an earlier run left open (quit by Ctrl-C) is dropped
        self.show(await self.service.new_game(CHAT, ME, variant))
        if self.table is None or self._rules is None:
            return False
        for i in range((players or self._rules.default_players) - 1):
            self.show(await self.service.add_ai(CHAT, ME, levels[i % len(levels)]))
        self.show(await self.service.start(CHAT, ME))
        return self.hand is not None

    async def run_ai(self) -> None:
        """Let the timers run (AI moves, next deal) until it is the person's turn."""
        self.narrate = True
        try:
            for _i in range(10_000):
                effects = await self.service.tick(platforms=frozenset({CHAT.platform}))
                if not effects:
                    return
                self.show(effects)
                if self.pause_s:
                    await asyncio.sleep(self.pause_s)
        finally:
            self.narrate = False

    def my_turn(self) -> bool:
        """True when the hand view offers actions."""
        return self.hand is not None and any(
            b.data.split("|")[2] not in ("t", "u") for row in self.hand.buttons for b in row)

    def between(self) -> bool:
        """True between two deals (the table offers "Próxima mão")."""
        return self.table is not None and any(
            b.data.split("|")[2] == "n" for row in self.table.buttons for b in row)

    def render(self) -> None:
        """Table, then hand."""
        if self.table is not None:
            render.show_table(self.console, self.table)
        if self.hand is not None:
            render.show_hand(self.console, self.hand, self._)

    async def press(self, code: str, arg: str | int = "") -> bool:
        """Press a hand button of the current hand view; False when it was refused."""
        version = self.hand.version if self.hand is not None else 0
        effects = await self.service.press(ME, pack(self.game_id, version, code, arg))
        self.show(effects)
        return not any(e.kind == "reply" for e in effects)

    async def next_deal(self) -> None:
        """Press the table's "Próxima mão" button (it names the deal it deals)."""
        data = next((b.data for row in (self.table.buttons if self.table else [])
                     for b in row if b.data.split("|")[2] == "n"), None)
        if data is None:
            self.say(self._("A mão ainda está em jogo."))
            return
        self.show(await self.service.press(ME, data))

    def say(self, text: str) -> None:
        """A console-side refusal (bold yellow, like the service's replies)."""
        self.console.print(text, style="bold yellow")

    async def command(self, line: str) -> bool:
        """Do one typed command; False to quit. Every typed number is checked here
        (digits, range, no repeats) before any button is pressed."""
        words = line.strip().lower().split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "q":
            self.console.print(self._("Até a próxima!"))
            return False
        if cmd in ("c", "r", "n", "p", "?") and args:
            self.say(self._("{cmd} não leva números.", cmd=cmd))
        elif cmd == "?":
            self.console.print(help_text(self._rules, self._))
        elif cmd == "p":
            self.show(await self.service.scoreboard(CHAT, ME))
        elif cmd == "n":
            await self.next_deal()
        elif cmd in ("c", "r"):
            await self.press(cmd)
        elif cmd == "lj":
            await self._onto_meld(args)
        elif cmd in ("l", "b", "d", "t", "e"):
            await self._with_cards(cmd, args)
        else:
            shown = "".join(ch for ch in cmd if ch.isprintable())
            self.say(self._("Comando desconhecido: {cmd}. Digite ? para ajuda.", cmd=shown))
        return True

    def hand_size(self) -> int:
        """How many cards the person holds (0 before the first deal)."""
        return len(self.hand.cards) if self.hand is not None else 0

    def meld_count(self) -> int | None:
        """How many melds the person's side has (the "+N" buttons of the play phase),
        None outside the play phase (then only 0 and long numbers are refused here)."""
        if self.hand is None:
            return None
        codes = [b.data.split("|")[2] for row in self.hand.buttons for b in row]
        if "m" not in codes:
            return None  # not the play phase: no "+N" buttons to count
        return codes.count("e")

    def _meld_number(self, word: str) -> int | None:
        """The 0-based meld index typed as ``word``, or None (message printed)."""
        count = self.meld_count()
        if not _is_number(word):
            self.say(self._("Use números de jogos: ex. lj 2."))
            return None
        if count == 0:
            self.say(self._("Seu lado ainda não tem jogos."))
            return None
        if len(word) > MAX_DIGITS or int(word) < 1 or (count is not None and int(word) > count):
            self.say(self._("Não há jogo {n} (jogos 1 a {max}).", n=_short(word), max=count)
                     if count is not None else self._("Não há jogo {n}.", n=_short(word)))
            return None
        return int(word) - 1

    def _card_numbers(self, groups: list[list[str]]) -> list[list[int]] | None:
        """0-based hand indexes of typed card numbers, or None (message printed)."""
        size, seen = self.hand_size(), set()
        out: list[list[int]] = []
        for group in groups:
            out.append([])
            for word in group:
                if not _is_number(word):
                    self.say(self._("Use números de cartas: ex. d 7."))
                    return None
                if len(word) > MAX_DIGITS or not 1 <= int(word) <= size:
                    self.say(self._("Não há carta {n} na sua mão (1 a {max}).",
                                    n=_short(word), max=size))
                    return None
                if int(word) in seen:
                    self.say(self._("Carta {n} repetida.", n=int(word)))
                    return None
                seen.add(int(word))
                out[-1].append(int(word) - 1)
        return out

    async def _onto_meld(self, args: list[str]) -> None:
        if len(args) != 1:
            self.say(self._("Diga em qual jogo: lj 2."))
            return
        target = self._meld_number(args[0])
        if target is not None:
            await self.press("p", target)

    async def _with_cards(self, cmd: str, args: list[str]) -> None:
        groups = [g.split() for g in " ".join(args).split("/")] if args else [[]]
        if cmd in ("d", "t") and not args:
            example = "d 7" if cmd == "d" else "t 4"
            self.say(self._("Diga qual carta: {example}.", example=example))
            return
        target = None
        if cmd == "e":
            if not groups[0]:
                self.say(self._("Use: e JOGO CARTAS (ex.: e 2 4 5)."))
                return
            target = self._meld_number(groups[0][0])
            if target is None:
                return
            groups[0] = groups[0][1:]
        numbers = self._card_numbers(groups)
        if numbers is None:
            return
        await self.press("z")
        for k, group in enumerate(numbers):
            for i in group:
                if not await self.press("t", i):
                    await self.press("z")
                    return
            if cmd == "b" and k < len(numbers) - 1:
                await self.press("g")
        code = {"l": "p", "b": "m", "d": "d", "t": "3", "e": "e"}[cmd]
        if not await self.press(code, target if target is not None else ""):
            await self.press("z")  # a refused move leaves no half-made selection behind

    async def play(self) -> None:
        """The main loop: AI moves, render, read a command, until the match ends."""
        while not self.closed:
            await self.run_ai()
            if self.table is not None and not self.table.buttons:
                self.render()
                self.show(await self.service.scoreboard(CHAT, ME))
                return
            self.render()
            prompt = self._("(Enter para a próxima mão) > ") if self.between() else "> "
            try:
                line = self.read(prompt)
            except EOFError:
                self.console.print()
                self.console.print(self._("Até a próxima!"))
                await self.close()
                return
            if self.between() and line.strip()[:1] not in ("q", "?", "p"):
                line = "n"  # between deals any move starts the next deal
            if not await self.command(line):
                await self.close()
                return

    async def close(self) -> None:
        """Cancel the terminal's game, if one is open (quiet: a person who quits, or a
        new run, does not need to read that the old game was cancelled)."""
        await self.service.cancel(CHAT, ME, is_admin=True)
