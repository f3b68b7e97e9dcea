"""Findings of a fresh-user trial on the terminal: the person's seat name follows
``idioma``, the terminal's ranking is not called a group's, quitting by Ctrl-C / Ctrl-D
asks first and ends cleanly, the exported record is named after the variant."""

from __future__ import annotations

import io

from rich.console import Console
from test_console import after_intro, scripted
from test_service_support import FakeClock, SeededDecks, make_service

from adapters.console.app import ConsoleGame
from bot.memstore import MemoryStore


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


def keyed(keys: list[str]) -> tuple[ConsoleGame, io.StringIO]:
    """A terminal game reading ``keys``: a line, or "^C" (Ctrl-C), "^D" (Ctrl-D)."""
    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock, deck_fn=SeededDecks())
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    feed = iter(keys)

    def read(prompt: str) -> str:
        key = next(feed, "^D")
        console.print(f"{prompt}<{key}>")
        if key == "^C":
            raise KeyboardInterrupt
        if key == "^D":
            raise EOFError
        return key

    return ConsoleGame(svc, console, read=read), out


async def test_ctrl_c_and_ctrl_d_at_the_prompt_ask_like_q_then_quit_cleanly() -> None:
    game, out = keyed(["^C", "n", "^D", "n", "^C", "^C"])
    assert await game.setup("buraco", 2)
    await game.play()  # returns: no KeyboardInterrupt escapes
    said = [ln for ln in after_intro(out.getvalue()).splitlines() if ln and ln[0] not in "╭│╰"]
    score = ["Partida: Você × Robô 2", "Total: 0 × 0", "Ranking:",
             "(nenhuma partida terminada ainda)"]
    assert said == ["> <^C>", *score, "Sair da partida? (s/n) <n>", "A partida continua.",
                    "> <^D>", *score, "Sair da partida? (s/n) <n>", "A partida continua.",
                    "> <^C>", *score, "Sair da partida? (s/n) <^C>", "Até a próxima!"]


def test_an_exported_record_is_named_after_its_variant() -> None:
    from bot.info import record_filename
    assert record_filename("g1", '{"variant": "tranca"}') == "tranca-g1.json"
    assert record_filename("g1", '{"variant": "buraco_morto"}') == "buraco_morto-g1.json"
    assert record_filename("g1", '{"variant": "../x"}') == "buraco-g1.json"
    assert record_filename("g1", "not json") == "buraco-g1.json"


async def test_a_refused_meld_of_several_is_named_in_every_language() -> None:
    """``b 5s 6s 2d / 7c 8c 10c``: the first meld is fine, the second is not a run; the
    refusal names it (engine ``IllegalAction.cards``, code kept)."""
    from test_narration import encode, swap_in

    from adapters.console.app import CHAT as TERMINAL
    from bot import play
    from engine.actions import Action
    from engine.cards import Card
    from engine.errors import IllegalAction

    clock = FakeClock()
    store = MemoryStore(clock)
    svc = make_service(store, clock, deck_fn=SeededDecks())
    out = io.StringIO()
    feed = iter(["c", "b 5s 6s 2d / 7c 8c 10c", "idioma it", "b 5s 6s 2d / 7c 8c 10c"])

    def read(_prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    game = ConsoleGame(svc, Console(file=out, width=200, color_system=None), read=read)
    assert await game.setup("buraco", 2)
    gid = await store.chat_game(TERMINAL.key)
    version, raw = await store.load_game(gid)
    from bot.model import decode
    stored = decode(raw)
    swap_in(stored.match["deal"], 0, ["5s", "6s", "2d", "7c", "8c", "10c"])
    assert await store.save_game(gid, version, encode(stored), 3600)
    await game.play()
    said = [ln for ln in after_intro(out.getvalue()).splitlines()
            if ln and ln[0] not in "╭│╰>"]
    assert "7♣ 8♣ 10♣: as cartas não formam sequência." in said  # pt-BR
    assert "7♣ 8♣ 10♣: le carte non formano una scala." in said
    stored.__dict__.pop("_match", None)
    match = play.match_of(stored)
    match.act(Action.draw(0))
    try:
        match.act(Action.lay_down(0, melds=[[Card.parse(c) for c in ("5s", "6s", "2d")],
                                            [Card.parse(c) for c in ("7c", "8c", "10c")]]))
    except IllegalAction as err:
        assert err.cards == ("7♣", "8♣", "10♣") and err.code.startswith("meld_")
    else:
        raise AssertionError("the lay-down was not refused")
