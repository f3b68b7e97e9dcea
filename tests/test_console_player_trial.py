"""Terminal play, what a fresh player's trial of whole matches found (issue 30, "The
first hour", items T2, T5, T6): each through the console adapter as a person types, or
through ``python -m bot play`` on a pseudo-terminal."""

from __future__ import annotations

from test_console_numbers import PERSON, ROBOT, stacked

from adapters.console.commands import CHAT
from bot.model import decode, encode


async def _vulnerable(game: object, seat: int, minimum: int) -> None:
    """Make ``seat``'s side vulnerable in the stored game (RULES A22: its match score
    reached ``vulnerable_at``), as a side at 750+ points starts a deal."""
    store = game.service.store  # type: ignore[attr-defined]
    gid = await store.chat_game(CHAT.key)
    version, text = (await store.load_game(gid))[:2]
    stored = decode(text)
    stored.match["deal"]["vuln_min"][seat] = minimum
    assert await store.save_game(gid, version, encode(stored), 3600)


async def test_terminal_hint_says_a_short_first_lay_down_raises_the_minimum() -> None:
    """RULES A22 (buraco family): the hint before the try names the 90 a short try
    leads to (T2: the trial met it only in the refusal); after the refusal the hint
    names the 90 alone."""
    game, out = stacked(["c", "b 3 6 7", "q", "s"], [PERSON, ROBOT], "Qs")
    assert await game.setup("buraco", 2)
    await _vulnerable(game, 0, 75)
    await game.play()
    text = out.getvalue()
    before = ("Sua primeira baixada precisa de 75 pontos; se tentar com menos, ela é "
              "recusada e o mínimo nesta mão passa a 90.")
    refused = "Baixada recusada: 30 pontos, mínimo 75. Nesta mão agora você precisa de 90."
    assert before in text and refused in text
    assert text.index(before) < text.index(refused)
    assert "Sua primeira baixada precisa de 90 pontos." in text[text.index(refused):]
