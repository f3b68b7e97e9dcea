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
  p            scoreboard        ?  help        q  quit
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.console import Console

from adapters.console import render
from bot.effects import ChatRef, Effect, PlayerRef, View, pack
from bot.i18n import N_, Translator
from bot.service import Service

ME = PlayerRef(platform="cli", user_id="me", name="Você")
CHAT = ChatRef(platform="cli", chat_id="local", title="Terminal")
HELP = N_("Comandos: c = comprar do monte · l = pegar o lixo (l 4 5 justifica com as cartas "
          "4 5; lj 2 põe o topo no seu jogo 2) · b 1 2 3 = baixar as cartas 1 2 3 (vários "
          "jogos: b 1 2 3 / 7 8 9) · e 2 4 5 = juntar as cartas 4 5 ao jogo 2 · d 7 = descartar "
          "a carta 7 · t 4 = baixar o 3 vermelho (carta 4) · r = abrir o lixo com a carta "
          "comprada e comprar outra · p = placar · ? = ajuda · q = sair")


class ConsoleGame:
    """A terminal match. ``read`` returns the person's next line (``input`` by default;
    tests pass a script); ``pause_s`` waits between AI moves so a person can follow."""

    def __init__(self, service: Service, console: Console,
                 read: Callable[[str], str] = input, pause_s: float = 0.0) -> None:
        self.service = service
        self.console = console
        self.read = read
        self.pause_s = pause_s
        self.table: View | None = None
        self.hand: View | None = None
        self.game_id = ""
        self.closed = False
        self.narrate = False
        self._ = Translator("pt")

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

    async def setup(self, variant: str, players: int | None) -> bool:
        """Open a table, add AI seats up to ``players`` (the preset's default when None),
        start. False (with the reason printed) when the service refuses."""
        self.show(await self.service.new_game(CHAT, ME, variant))
        if self.table is None:
            return False
        from bot import play
        from bot.lobby import rules_of

        rules = rules_of(play.preset_key(variant.split()[0] if variant else "buraco"), {})
        for _i in range((players or rules.default_players) - 1):
            self.show(await self.service.add_ai(CHAT, ME, "normal"))
        self.show(await self.service.start(CHAT, ME))
        return self.hand is not None

    async def run_ai(self) -> None:
        """Let the timers run (AI moves, next deal) until it is the person's turn."""
        self.narrate = True
        try:
            for _i in range(10_000):
                effects = await self.service.tick()
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
            b.data.split("|")[2] not in ("t",) for row in self.hand.buttons for b in row)

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

    async def command(self, line: str) -> bool:
        """Do one typed command; False to quit."""
        words = line.strip().lower().split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "q":
            return False
        if cmd == "?":
            self.console.print(self._(HELP))
        elif cmd == "p":
            self.show(await self.service.scoreboard(CHAT, ME))
        elif cmd in ("c", "r"):
            await self.press(cmd)
        elif cmd == "n":
            await self.press("n")
        elif cmd == "lj" and len(args) == 1 and args[0].isdigit():
            await self.press("p", int(args[0]) - 1)
        elif cmd in ("l", "b", "d", "t", "e"):
            await self._with_cards(cmd, args)
        else:
            self.console.print(self._("Comando desconhecido: {cmd}. Digite ? para ajuda.",
                                      cmd=cmd), style="bold yellow")
        return True

    async def _with_cards(self, cmd: str, args: list[str]) -> None:
        groups = [g.split() for g in " ".join(args).split("/")] if args else [[]]
        numbers = [[int(w) - 1 for w in g if w.isdigit() and int(w) > 0] for g in groups]
        if any(len(n) != len(g) for n, g in zip(numbers, groups, strict=True)):
            self.console.print(self._("Use números de cartas: ex. d 7."), style="bold yellow")
            return
        target = None
        if cmd == "e":
            if not numbers[0]:
                self.console.print(self._("Use: e JOGO CARTAS (ex.: e 2 4 5)."),
                                   style="bold yellow")
                return
            target, numbers[0] = numbers[0][0], numbers[0][1:]
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
                return
            if self.between() and line.strip()[:1] not in ("q", "?", "p"):
                line = "n"  # between deals any move starts the next deal
            if not await self.command(line):
                return
