"""Ctrl-C at any moment of a terminal game (issue 30: pressed while the robots played, it
left a half-drawn table). It is held back while the game draws or plays and taken at the
next safe point as ``q`` is: the move in progress ends whole, the score shows and the
game asks "Sair da partida? (s/n)"; another Ctrl-C there quits with one line. No
traceback, no table cut in two, the terminal as it was."""

from __future__ import annotations

import signal
import sys
import termios
import time
from typing import Any

import pytest
from pty_support import Terminal

from bot import __main__ as cli

SCORE_2 = "Partida: Você × Robô 2\nTotal: 0 × 0\nRanking:\n(nenhuma partida terminada ainda)\n"
QUESTION = "Sair da partida? (s/n) "


def boxes_whole(text: str) -> bool:
    """Every box drawn (a table, a hand) has its last line: as many tops as bottoms."""
    return text.count("╭") == text.count("╰") and text.count("╮") == text.count("╯")


def test_ctrl_c_typed_while_the_robots_play_asks_without_a_table_then_quits() -> None:
    """``python -m bot play`` on a terminal, as a person types: Ctrl-C right after a
    discard, while the three robots play, then again at a prompt and at the question."""
    term = Terminal([sys.executable, "-m", "bot", "play", "--pause", "0.4"],
                    controlling=True)
    try:
        term.expect("> ")
        term.type("c")
        term.expect("> ")
        term.type("d 1")
        term.expect("d 1")
        time.sleep(0.2)  # the first robot is thinking or paused
        term.ctrl_c()
        asked = term.expect(QUESTION, timeout=30)
        # no table, not half a table: the move in progress ends, the score and the question
        assert "╭" not in asked and "╰" not in asked and "Traceback" not in asked
        assert asked.rstrip(" \n").endswith(
            "Total: 0 × 0\nRanking:\n(nenhuma partida terminada ainda)")
        term.type("n")
        term.expect("A partida continua.")
        term.expect("> ", timeout=60)  # the robots went on; the next prompt
        time.sleep(0.5)  # a person reads the prompt (readline is waiting for a key)
        term.ctrl_c()  # at the prompt: q
        term.expect(QUESTION)
        time.sleep(0.5)
        term.ctrl_c()  # at the question: quits
        term.expect("Até a próxima!")
        assert term.proc.wait(timeout=20) == 0
        # the terminal is as it was: line editing and echo on again after readline
        flags = termios.tcgetattr(term.master)[3]
        assert flags & termios.ICANON and flags & termios.ECHO
        assert term.close() == 0
        text = term.text
        assert "Traceback" not in text and boxes_whole(text)
        assert text.rstrip("\n").endswith("Até a próxima!")
        assert text.count("Até a próxima!") == 1
    finally:
        if term.proc.poll() is None:
            term.close(timeout=0)


@pytest.mark.parametrize("where", ["drawing the table", "playing the person's move",
                                   "dealing the first table"])
def test_ctrl_c_while_the_game_draws_or_plays_is_taken_at_the_next_prompt(
        where: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C during synchronous drawing, during the service call of the person's own
    move, or while the table is being set up: the table is drawn whole, the move is
    played and shown whole, then the score and the question, as q (before, the
    KeyboardInterrupt cut the table or the move short and the run just ended)."""
    from adapters.console import render
    from bot.service import Service

    pressed, prompts = [False], []

    def once() -> None:
        if not pressed[0]:
            pressed[0] = True
            signal.raise_signal(signal.SIGINT)

    if where == "drawing the table":
        real_show = render.show_table

        def show_table(console: Any, view: Any) -> None:
            once()
            real_show(console, view)

        monkeypatch.setattr(render, "show_table", show_table)
    elif where == "playing the person's move":
        real_press = Service.press

        async def press(self: Service, *args: Any, **kw: Any) -> Any:
            effects = await real_press(self, *args, **kw)
            if prompts:  # the person's "c"
                once()
            return effects

        monkeypatch.setattr(Service, "press", press)
    else:
        real_start = Service.start

        async def start(self: Service, *args: Any, **kw: Any) -> Any:
            once()
            return await real_start(self, *args, **kw)

        monkeypatch.setattr(Service, "start", start)

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        if prompt == QUESTION:
            raise KeyboardInterrupt  # a second Ctrl-C at the question quits
        return "c"

    monkeypatch.setattr("builtins.input", answer)
    assert cli.main(["play", "--players", "2", "--pause", "0"]) == 0
    out = capsys.readouterr().out
    assert pressed == [True] and boxes_whole(out)
    assert prompts[-1] == QUESTION and prompts.count(QUESTION) == 1
    assert out.endswith(SCORE_2 + "\nAté a próxima!\n")
    if where == "playing the person's move":
        assert prompts == ["> ", QUESTION]
        assert "Você comprou o " in out  # the draw was played and its hand shown whole
    else:
        assert prompts == [QUESTION]  # the press belonged to the first prompt
