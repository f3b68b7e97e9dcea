"""Terminal play: one person against AI seats, through the same service and effects as
the chat adapters (issue 4 "Terminal play"; issue 14 part 3).

Commands (``?`` shows them; :mod:`adapters.console.commands` reads them): cards are typed
by their number under "Sua mão" or by name (:mod:`adapters.console.typed`)::

  c            draw from the stock (comprar)
  l            take the discard pile (lixo); ``l 4 5`` justifies it with hand cards 4 5;
               ``lj 2`` puts the top card onto your meld 2 (closed-pile variants)
  b 1 2 3      meld cards 1 2 3; several at once: ``b 1 2 3 / 7 8 9``; ``b 4d 5d 6d``
  e 2 4 5      add cards 4 5 to your side's meld 2
  d 7          discard card 7 (``d js``: the jack of spades)
  t 4          lay the red 3 that is card 4 (tranca, altaneira)
  r            lay the drawn card on the pile and draw another (first turn, RULES A9)
  n            the next deal (between deals any move, or Enter, deals it too)
  p, placar    scoreboard     regras   the variant's rules     idioma en   language
  exportar     save the finished match's record     ?  help     q  quit (asks first)
  dica         the strong robot's move now and why  revisao  your costliest decisions of
               the last deal (issue 37)

Hand numbers hold for the whole turn (issue 30): a number names the same card after a
meld, an extension or a pick-up; a card that left leaves its number unused (``1:5♣
3:10♦``) until the next turn; new cards get new numbers at the end, the drawn card marked
``•`` (other new cards, from the pile or a morto, ``*``); the hand is sorted again when
the person's next turn starts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from adapters.console import choose, commands, question, render, tty, typed
from adapters.console.session import CHAT, ME
from adapters.console.shown import SENTENCE_END, Shown
from bot import lobby
from bot.effects import View, pack
from bot.i18n import N_, Translator
from bot.outcome import Choices, Refusal
from bot.service import Service

__all__ = ["CHAT", "ME", "ConsoleGame", "help_text", "line_reader"]
help_text = commands.help_text


line_reader = tty.line_reader


class ConsoleGame(Shown):
    """A terminal match. ``read`` returns the person's next line (``input`` with line
    editing by default; tests pass a script); ``pause_s`` waits between AI moves so a
    person can follow; ``lang`` is the language of the table and the messages. With
    the default ``read``, what is typed while the robots play is dropped before the
    next prompt and Ctrl-L puts the half-typed line back (:mod:`adapters.console.tty`);
    a script gets neither unless ``flush``/``prefill`` are given."""

    def __init__(self, service: Service, console: Console,
                 read: Callable[[str], str] | None = None, pause_s: float = 0.0,
                 lang: str = "pt", flush: Callable[[], bool] | None = None,
                 prefill: Callable[[str], bool] | None = None) -> None:
        self.service = service
        self.console = console
        self.read = read or line_reader()
        self.flush = flush or (tty.no_flush if read else tty.flush_typeahead)
        self.prefill = prefill or (tty.no_prefill if read else tty.prefill)
        self.robots_moved = False  # since the last prompt: typeahead is dropped
        self.pause_s = pause_s
        self.table: View | None = None
        self.hand: View | None = None
        self.order: list[int | None] = []  # view index of each hand number - 1 (None:
        # the card left this turn, the number stays unused until the next turn)
        self.new_cards = 0  # how many numbers at the end of ``order`` came this turn
        self.leaving: set[int] = set()  # the numbers - 1 a move being pressed plays
        self._shown: object = None  # what the last render showed (see snapshot)
        self.game_id = ""
        self.closed = False
        self.narrate = False
        self.told: set[str] = set()  # narration sentences already seen: not printed
        self.printed: set[str] = set()  # those printed above the table: not in it again
        self._ = Translator(lang)
        self.rules: Any = None
        self.pressed = False  # a move was played: choosing another variant asks first
        self.next_variant: str | None = None  # typed at the prompt (adapters.console.choose)
        self.next_seats: tuple[int | None, list[str]] = (None, ["normal"])  # and its seats
        self.seats: tuple[int, list[str]] = (2, ["normal"])  # this match's: count, levels
        self.ctrl_c = tty.CtrlC()  # held back while the game draws or plays (issue 30)


    async def setup(self, variant: str, players: int | None,
                    levels: Sequence[str] = ("normal",)) -> bool:
        """Open a table, add AI seats up to ``players`` (the preset's default when None),
        of ``levels`` in turn (``facil``/``normal``/``dificil``), start. False (with the
        reason printed) when the service refuses or the variant does not play with
        ``players`` (checked before any AI seat is added)."""
        try:
            preset, options, _timer, _shuffle = lobby.parse_args(variant, lobby.MIN_TIMER_S)
            self.rules = lobby.rules_of(preset, options)
        except Refusal:
            self.rules = None  # the service says why just below
        ignored = sorted({token.split("=", 1)[0].strip().lower() for token in variant.split()
                          if "=" in token} & lobby.SERVICE_OPTIONS)
        if self.rules is not None and ignored:  # no turn timer, no teams to draw here
            self.say(self._("Opção só de mesa de grupo, sem efeito no terminal: {options}.",
                            options=", ".join(ignored)))
            return False
        if self.rules is not None and players is not None \
                and players not in self.rules.players_allowed:
            allowed = Choices(str(k) for k in self.rules.players_allowed).render(self._)
            self.say(self._("Esta variante joga com {allowed} jogadores; a mesa tem {n}.",
                            allowed=allowed, n=players))
            return False
        robots = (players or (self.rules.default_players if self.rules else 2)) - 1
        if len(levels) not in (1, robots):
            self.say(self._("--robos deu {k} níveis para {n} robôs: dê um nível para todos "
                            "ou um por robô.", k=len(levels), n=robots))
            return False
        self.seats = (robots + 1, list(levels))  # kept by a variant typed later (T5)
        with self.ctrl_c.deferred():  # Ctrl-C here is taken at the first prompt
            return await self._setup(robots, levels, variant)

    async def _setup(self, robots: int, levels: Sequence[str], variant: str) -> bool:
        """Open the table of :meth:`setup`, ``robots`` AI seats of ``levels``, start."""
        await self.close()  # a game an earlier run left open (quit by Ctrl-C) is dropped
        await self.service.set_language(CHAT, ME, self._.lang)  # its reply is not needed
        me = ME.model_copy(update={"name": self._("Você")})  # the seat's name, in the language
        self.show(await self.service.new_game(CHAT, me, variant))
        if self.table is None or self.rules is None:
            return False
        for i in range(robots):
            self.show(await self.service.add_ai(CHAT, me, levels[i % len(levels)]))
        self.show(await self.service.start(CHAT, me))
        return self.hand is not None

    async def run_ai(self) -> bool:
        """Let the timers run (AI moves, next deal) until it is the person's turn; False
        when Ctrl-C was pressed (now or since the last prompt): the robots stop after the
        move in progress, which is saved and shown whole (the next call goes on from
        there; the press is left for :meth:`_next_line` to take)."""
        self.narrate, stop = True, self.ctrl_c
        try:
            with stop.deferred():
                for _i in range(10_000):
                    if stop.pressed:
                        return False
                    effects = await self.service.tick(platforms=frozenset({CHAT.platform}))
                    if not effects:
                        return True
                    self.robots_moved = True
                    self.show(effects)
                    if self.pause_s and not stop.pressed:
                        stop.event.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(stop.event.wait(), self.pause_s)
                return not stop.pressed
        finally:
            self.narrate = False

    def render(self) -> None:
        """Table, then hand (with the numbers of :attr:`order`)."""
        if self.table is not None:
            render.show_table(self.console, self._untold(self.table))
            if self.table.lines:  # the turn in play, now on screen, is not printed again
                self.told |= set(SENTENCE_END.split(self.table.lines[-1]))
        if self.hand is not None:
            render.show_hand(self.console, self.hand, self._, self.order, self.new_cards)
        self._shown = self.snapshot()

    def snapshot(self) -> object:
        """What a render would show (texts, cards, numbering), without the versions the
        buttons carry: equal snapshots need no new render."""
        def seen(view: View | None) -> object:
            if view is None:
                return None
            return (view.title, view.lines, [(f.code, f.selected) for f in view.cards],
                    [[b.label for b in row] for row in view.buttons])
        return seen(self.table), seen(self.hand), self.order, self.new_cards, self._.lang

    async def press(self, code: str, arg: str | int = "") -> bool:
        """Press a hand button of the current hand view; False when it was refused."""
        version = self.hand.version if self.hand is not None else 0
        effects = await self.service.press(ME, pack(self.game_id, version, code, arg))
        self.show(effects)
        done = not any(e.kind == "reply" for e in effects)
        self.pressed |= done and code not in ("t", "u", "z")  # a move, not a selection
        return done

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

    def ask(self, prompt: str) -> str | None:
        """One more line from the person, None at end of input (Ctrl-D) or on Ctrl-C.

        What was typed while the robots played is dropped first, with a line saying so
        (issue 30: it ran at the prompt unasked). A line with Ctrl-L (:data:`tty.CLEAR_KEY`)
        clears the screen and redraws the table and the hand, then asks again with the
        rest of the line put back (:func:`tty.prefill`), or returns that rest where it
        cannot be put back (the person pressed Enter after it)."""
        if self.robots_moved:
            self.robots_moved = False
            if self.flush():
                self.console.print(self._(TYPED_AHEAD), style="dim")
        if self.ctrl_c.take():  # pressed while the game drew or played: this prompt's
            self.console.print()
            return None
        try:
            with self.ctrl_c.raising():
                line = self.read(prompt)
                while tty.CLEAR_KEY in line:
                    rest = line.replace(tty.CLEAR_KEY, "")
                    self.redraw()
                    if rest.strip() and not self.prefill(rest):
                        return rest
                    line = self.read(prompt)
            return line
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None

    def redraw(self) -> None:
        """Ctrl-L: clear the screen (a terminal only), then the whole table (its last
        moves too: what was printed above it is gone) and the hand."""
        self.console.clear()
        if self.table is not None:
            render.show_table(self.console, self.table)
        if self.hand is not None:
            render.show_hand(self.console, self.hand, self._, self.order, self.new_cards)
        self._shown = self.snapshot()

    async def command(self, line: str) -> bool:
        """Do one typed command; False to quit (see :mod:`adapters.console.commands`)."""
        return await commands.run(self, line)

    async def play(self) -> None:
        """The main loop: the first screen (:func:`choose.intro`), then AI moves, render,
        read a command, until the match ends, or the person quits or chose another
        variant (:attr:`next_variant`)."""
        with self.ctrl_c.deferred():  # Ctrl-C never cuts a table or a move in two
            await self._play()

    async def _play(self) -> None:
        """The loop of :meth:`play`."""
        if self.rules is not None:
            choose.intro(self, self.rules.preset)
        while not self.closed:
            played_out = await self.run_ai()
            if self.table is not None and not self.table.buttons:
                await self.finish()
                return
            # an empty line, a slip or a refused move leave the table as it is on screen;
            # a Ctrl-C that stopped the robots mid-round leaves it too (issue 30)
            if self.snapshot() != self._shown and (played_out or not self.robots_moved):
                self.render()
            if not await self.command(self._next_line(played_out)):
                await self.close()
                return

    def _next_line(self, played_out: bool) -> str:
        """The person's next command: ``q`` (the score and a question, where a second
        Ctrl-C quits) for Ctrl-C or Ctrl-D at the prompt, and for a Ctrl-C that stopped
        the robots (``played_out`` False). Between deals: Enter deals the next deal, a
        move too (saying it was not run); what changes nothing, ``n`` and a variant's
        name (its question, as mid-turn) are run as at any prompt, and any other word
        gets "Comando desconhecido" and the prompt again (issue 38: a variant typed there
        was dropped silently and the next deal dealt)."""
        if not played_out:  # no table drawn half-way through the robots' turns
            self.ctrl_c.take()
            self.console.print()  # past the "^C" the terminal shows
            return "q"
        line = self.ask(self._("(Enter para a próxima mão) > ") if self.between() else "> ")
        if line is None:
            return "q"
        if not self.between():
            return line
        if not line.strip():
            return "n"
        word = commands.command_word(line)
        if word != "n" and not commands.is_info(line) and question.is_command(
                line, commands.command_word):  # a move for a deal that is over
            self.say(self._(question.NOT_RUN, command=typed.echo(line.strip())) + " "
                     + self._(NEXT_DEAL))
            return "n"
        return line  # n, what changes nothing, a variant, or a slip: run as typed

    async def finish(self) -> None:
        """The match is over: the last table, the score of every side, and a last prompt
        until Enter, ``q``, Ctrl-D or Ctrl-C: ``exportar`` saves the record, the other
        commands that change nothing (``regras``, ``p``, ``idioma``, ``?``) answer, a
        variant's name starts a match of it (as at the first screen), and anything else
        brings the prompt back (it says what it takes)."""
        self.render()
        self.show(await self.service.scoreboard(CHAT, ME))
        while True:
            line = self.ask(self._("exportar = salvar o registro da partida · Enter = sair > "))
            if line is None or not line.strip() or commands.is_quit(line):
                break
            if commands.is_info(line):
                await commands.run(self, line)
            elif choose.is_variant(commands.command_word(line)):
                self.pressed = False  # nothing left to lose: no "this one ends here?"
                if await choose.switch(self, line):  # a match of it starts (bot.__main__)
                    return
            else:  # a move after the end: say why nothing happens (a trial)
                self.say(self._(MATCH_OVER))
        self.console.print(self._("Até a próxima!"))

    async def close(self) -> None:
        """Cancel the terminal's game, if one is open (quiet: a person who quits, or a
        new run, does not need to read that the old game was cancelled)."""
        await self.service.cancel(CHAT, ME, is_admin=True)


TYPED_AHEAD = N_("(O que você digitou enquanto os robôs jogavam foi descartado.)")
"""Said before a prompt when typeahead was dropped (:meth:`ConsoleGame.ask`)."""

NEXT_DEAL = N_("A mão tinha acabado: a próxima começa agora.")
"""Said when a move is typed at the prompt between deals: it deals the next one."""

MATCH_OVER = N_("A partida acabou: exportar salva o registro, Enter sai.")
"""The answer to a move typed at the last prompt, once the match is over."""
