"""Issue 30: the README lists every command the terminal game accepts (each word that
adapters/console reads) and suggests the easiest robots for a first game."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.console import choose, commands

README = Path(__file__).resolve().parent.parent / "README.md"
CARD_COMMANDS = {"c", "l", "b", "e", "d", "t", "n", "q", "?"}
"""The words :func:`adapters.console.commands.run` handles itself, besides its tables."""


def terminal_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Playing in the terminal")
    return text[start:text.index("\n## ", start + 1)]


def test_every_word_the_terminal_reads_is_in_the_readme() -> None:
    words = (CARD_COMMANDS | set(commands.SIMPLE) | set(commands.NEEDS)
             | set(commands.ALIASES) | choose.WORDS)
    shown = set(re.findall(r"`([^`\s]+)(?:[ `])", terminal_section()))
    assert sorted(words - shown) == []


def test_the_readme_suggests_the_easiest_robots_for_a_first_game() -> None:
    assert 'For a first game, play against the easiest robots: `make play ARGS="--robos ' \
        'facil"`.' in terminal_section()
