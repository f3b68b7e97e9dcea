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


OUR_STYLES = {"0", "1", "2", "36", "1;31", "1;32", "1;33", "1;4", "1;4;31"}
"""The SGR codes of the styles the terminal gives its own text (adapters/console: bold,
bold red cards, dim numbers, bold yellow replies, cyan group lines, the bold green ``*``,
a picked card underlined); rich's automatic highlighting adds others (a number in bold
cyan, ``1;36``; quoted text in green)."""


def test_terminal_text_is_not_highlighted_by_rich() -> None:
    """Issue 30 T6: the end-of-match summary read "Partida: Você × Robô 2" with the 2 in
    bold cyan, rich's own highlighting of numbers; the game's text keeps the colours the
    game gives it, every number and name alike."""
    import re

    from pty_support import Terminal

    term = Terminal.bot_play("--variant", "buraco", "--players", "2")
    try:
        term.expect("> ")
        term.type("q")
        term.expect("(s/n)")
        term.type("s")
        term.expect("Até a próxima!")
    finally:
        term.close()
    raw = term.raw.decode("utf-8", "replace")
    assert "\x1b[1;33mPartida: Você × Robô 2\x1b[0m" in raw
    assert set(re.findall(r"\x1b\[([0-9;]*)m", raw)) <= OUR_STYLES


async def test_a_variant_typed_mid_match_keeps_the_table_and_says_what_comes() -> None:
    """Issue 30 T5: ``tranca`` typed in a 4-player match to 1500 asked "Começar uma
    partida de Tranca? Esta termina aqui." and started a 2-player one-deal Tranca. The
    question says what the new match will be, and it keeps the table's seats and robot
    levels where the variant plays with them (RULES §1: tranca 2, or 4 in pairs; one
    deal, A35); altaneira plays with 4 only, so a duel becomes its 4 (RULES §1)."""
    from adapters.console import choose

    game, out = stacked(["c", "tranca", "s"], [PERSON, ROBOT, "2c 2d 2h 2s Jc Jd Jh Qc Qd Qh Kc",
                                                "6d 6h 6s 7c 7h 7s 8c 8d 8h Td Th"], "Qs")
    assert await game.setup("buraco", 4, ["facil", "normal", "dificil"])
    await game.play()
    assert ("Começar uma partida de Tranca (4 jogadores: você e 3 robôs; uma mão só)? Esta "
            "acaba aqui. (s/n) <s>") in out.getvalue()
    assert (game.next_variant, game.next_seats) == ("tranca", (4, ["facil", "normal",
                                                                   "dificil"]))
    assert choose.seats_for("altaneira", 2, ["facil"]) == (None, ["facil"])
    duel, out = stacked(["c", "altaneira", "s"], [PERSON, ROBOT], "Qs")
    assert await duel.setup("buraco", 2)
    await duel.play()
    assert ("Começar uma partida de Biriba com Tranca de Altaneira (4 jogadores: você e 3 "
            "robôs; até 5000 pontos)? Esta acaba aqui. (s/n) <s>") in out.getvalue()
