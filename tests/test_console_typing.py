"""Terminal play, issue 30: the obvious ways of typing a list of cards, Ctrl-L, and what
is typed while the robots play (never run at the next prompt unasked).

The moves follow RULES C11 (draw, melds and extensions, one discard); melds are RULES C9
runs and sets.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from test_console_numbers import ROBOT, stacked

from adapters.console import typed

RUNS = "4c 5c 6c 7d 8d 9d 9h Kh 3s 8s Js"
"""Seat 0, shown ``1:4♣ 2:5♣ 3:6♣ 4:7♦ 5:8♦ 6:9♦ 7:9♥ 8:K♥ 9:3♠ 10:8♠ 11:J♠``; the stock
gives it 7♣ (``12:•7♣``)."""
ROOT = Path(__file__).resolve().parent.parent


async def run(lines: list[str], **kw: object) -> str:
    game, out = stacked(lines, [RUNS, ROBOT], "7c")
    for key, value in kw.items():
        setattr(game, key, value)
    assert await game.setup("buraco", 2)
    await game.play()
    return out.getvalue()


def test_lists_split_at_spaces_commas_and_semicolons_and_ranges_are_written_out() -> None:
    assert typed.groups_of("1,2,3") == [["1", "2", "3"]]
    assert typed.groups_of(" 1, 2 ,3;4 ") == [["1", "2", "3", "4"]]
    assert typed.groups_of("1-3/7,8, 9") == [["1", "2", "3"], ["7", "8", "9"]]
    assert typed.groups_of("3-1 qd") == [["3", "2", "1", "qd"]]
    assert typed.groups_of("1–3") == [["1", "2", "3"]]  # an en dash, as phones type it
    assert typed.groups_of("") == [[]]
    assert typed.groups_of("1-" + "9" * 40) == [["9" * 40]]  # refused as a number later
    assert typed.groups_of("4d-6d") == [["4d-6d"]]  # names have no ranges


async def test_commas_ranges_and_a_glued_command_meld_extend_and_discard() -> None:
    """``b 1-3 / 4,5;6`` lays two runs (RULES C9), ``e 1,12`` adds the drawn 7♣ to meld
    1 (C1), ``d8`` discards K♥ (shown as 8 all turn long)."""
    text = await run(["c", "b 1-3 / 4,5;6", "e 1,12", "d8", "q", "s"])
    assert ("Você comprou do monte, baixou 4♣ 5♣ 6♣ e 7♦ 8♦ 9♦, juntou 7♣ ao jogo 1 e "
            "descartou K♥.") in text
    assert "Comando desconhecido" not in text and "não é carta" not in text


async def test_a_range_over_a_number_whose_card_left_is_refused() -> None:
    text = await run(["c", "b 1 2 3", "b 2-4", "d 8", "q", "s"])
    assert "A carta 2 já saiu da sua mão nesta vez." in text
    assert "Você comprou do monte, baixou 4♣ 5♣ 6♣ e descartou K♥." in text


async def test_ctrl_l_redraws_the_table_and_the_hand() -> None:
    """A line with Ctrl-L (``\\x0c``: readline's binding or a terminal without one)
    clears the screen and shows the table and the hand again, nothing run."""
    text = await run(["\x0c", "q", "s"])
    assert text.count("╭") == 4  # table and hand at the start, then again
    assert "Comando desconhecido" not in text


async def test_ctrl_l_puts_the_half_typed_line_back_where_it_can() -> None:
    """readline: Ctrl-L after ``d 5`` redraws, then the prompt holds ``d 5`` again, not
    run; without readline (no prefill) the person pressed Enter after it: it runs."""
    kept: list[str] = []

    def prefill(rest: str) -> bool:
        kept.append(rest)
        return True

    text = await run(["c", "\x0cd 5", "q", "s"], prefill=prefill)
    assert kept == ["d 5"] and "descartou" not in text
    assert text.count("╭") == 6  # the start, after the draw, after Ctrl-L
    text = await run(["c", "d 5\x0c", "q", "s"])
    assert "Você comprou do monte e descartou 8♦." in text


async def test_what_was_typed_while_the_robots_played_is_dropped_with_a_line() -> None:
    """The flush runs before the first prompt after the robots moved, not before the
    others (a refused move brings the prompt back at once)."""
    calls: list[int] = []

    def flush() -> bool:
        calls.append(1)
        return True

    text = await run(["c", "d 12", "x", "q", "s"], flush=flush)
    assert len(calls) == 1
    assert text.count("(O que você digitou enquanto os robôs jogavam foi descartado.)") == 1
    after = text.split("<d 12>")[1]
    assert after.index("Robô 2 comprou do monte") < after.index("(O que você digitou")


# --- through a pseudo-terminal, as a person types -------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


class Terminal:
    """``python -m bot play ARGS`` on a pseudo-terminal of 140x45."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 140, 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS", "BURACO_LANG"))}
        env.update(TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8", COLUMNS="140", LINES="45")
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "play", *args], cwd=ROOT,
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.fd, self.raw = master, ""

    def read_until(self, pattern: str, timeout: float = 60.0) -> str:
        """Everything read so far once ``pattern`` (a regex on the text without escape
        codes) matches what came after the last call; fails after ``timeout`` s."""
        start, end = len(self.raw), time.monotonic() + timeout
        while not re.search(pattern, ANSI.sub("", self.raw[start:])):
            left = end - time.monotonic()
            assert left > 0, f"no {pattern!r} in {ANSI.sub('', self.raw[start:])[-2000:]!r}"
            ready, _w, _x = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"the game ended: {ANSI.sub('', self.raw[start:])[-2000:]!r}"
                self.raw += chunk.decode("utf-8", "replace")
        return self.raw[start:]

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)
        os.close(self.fd)


@pytest.fixture
def terminal() -> object:
    made: list[Terminal] = []

    def start(*args: str) -> Terminal:
        made.append(Terminal(*args))
        return made[-1]

    yield start
    for term in made:
        term.close()


PROMPT = r"╰[^\n]*\n(?:\([^\n]*\)\n)?> $"


def test_in_a_terminal_ctrl_l_clears_and_redraws_and_typeahead_is_dropped(
        terminal: object) -> None:
    """``python -m bot play`` on a pseudo-terminal: Ctrl-L clears the screen and shows
    the table again with the half-typed ``d 1`` back on the line (Ctrl-U then wipes it);
    a ``d 1`` typed while the robot plays is not run at the next prompt (it would be
    refused, "Primeiro compre do monte", RULES C11) and a line says it was dropped."""
    term = terminal("--variant", "buraco", "--players", "2", "--pause", "1",
                    "--robos", "facil")  # type: ignore[operator]
    term.read_until(r"Sua vez: compre[^╰]*" + PROMPT)
    term.type("d 1\x0c")
    shown = term.read_until(r"(?s)Buraco · até 1500 pontos.*Sua mão.*> d 1$", timeout=30)
    assert "\x1b[2J" in shown  # the screen was cleared
    term.type("\x15c\r")  # Ctrl-U: the line put back is wiped; then draw
    term.read_until(r"Sua vez: baixe[^╰]*" + PROMPT)
    term.type("d 1\r")
    time.sleep(0.4)
    term.type("d 1\r")  # typed while the robot plays
    after = ANSI.sub("", term.read_until(r"Sua vez: compre[^╰]*" + PROMPT, timeout=90))
    assert "(O que você digitou enquanto os robôs jogavam foi descartado.)" in after
    term.type("x\r")  # the prompt reads what is typed now
    assert "Comando desconhecido: x." in ANSI.sub("", term.read_until(r"> $"))
    assert "Primeiro compre do monte" not in ANSI.sub("", term.raw)
    term.type("q\rs\r")
    term.read_until("Até a próxima!")
    assert term.proc.wait(30) == 0
