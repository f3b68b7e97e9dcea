"""Findings of a fresh-user trial on the terminal: the person's seat name follows
``idioma``, the terminal's ranking is not called a group's, quitting by Ctrl-C / Ctrl-D
asks first and ends cleanly, the exported record is named after the variant."""

from __future__ import annotations

from test_console import scripted


async def run(variant: str, lines: list[str], players: int | None = None) -> str:
    game, out = scripted(lines, width=200)
    assert await game.setup(variant, players)
    await game.play()
    return out.getvalue()


async def test_idioma_renames_the_persons_own_seat_on_the_table() -> None:
    text = await run("buraco", ["idioma en", "p", "q", "s"], 4)
    after = text[text.index("Language: English."):]
    assert "│ Team 1 (You, AI 3): 0 pts · this deal: 0 in melds" in after
    assert "│ Cards in hand: You 11 · AI 2 11 · AI 3 11 · AI 4 11" in after
    assert "Você" not in after
    assert "\nMatch: Team 1 (You, AI 3) × Team 2 (AI 2, AI 4)\n" in after


async def test_the_terminals_ranking_is_not_a_groups() -> None:
    text = await run("buraco", ["p", "q", "s"])
    assert "\nRanking:\n(nenhuma partida terminada ainda)\n" in text
    assert "Ranking do grupo" not in text
