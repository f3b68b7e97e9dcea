"""Issue 38: what is typed at the terminal's prompts is never dropped without a word.
Between deals ("(Enter para a próxima mão) > ") a variant's name was dropped silently
and the next deal dealt; now it asks as mid-turn does ("Começar uma partida de
Tranca…? (s/n)"), a slip gets "Comando desconhecido" and the prompt again, and a move
still deals the next deal saying it was not run. At the last prompt a variant's name
starts a match of it."""

from __future__ import annotations

from collections.abc import Iterator

from console_support import played
from test_console import SeededDecks, seeded_ai

from adapters.console.app import ConsoleGame

BETWEEN = "(Enter para a próxima mão) > "
TRANCA = ("Começar uma partida de Tranca (2 jogadores: você e 1 robô; uma mão só)? Esta "
          "acaba aqui. (s/n) ")


async def duel(between: list[str], last: list[str] | None = None,
               questions: list[str] | None = None) -> tuple[ConsoleGame, str, list[str]]:
    """The seeded 2-player buraco match of test_console, the person drawing and
    discarding their first card every turn; ``between`` typed at the prompts between
    deals (then Enter), ``questions`` at the yes/no questions, ``last`` at the last
    prompt. Returns the game, what the console printed and the prompts, in order."""
    moves: Iterator[str] = iter(["c", "d 1"] * 2000)
    typed_between, typed_last, answers = iter(between), iter(last or []), iter(questions or [])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if prompt == BETWEEN:
            return next(typed_between, "")
        if "(s/n)" in prompt:
            return next(answers)
        if "exportar" in prompt:
            line = next(typed_last, None)
            if line is None:
                raise EOFError
            return line
        return next(moves)

    game, text = await played(read, "buraco", 2, deck_fn=SeededDecks(), chooser=seeded_ai,
                              next_deal_s=3600)
    return game, text, prompts


async def test_a_variant_typed_between_deals_asks_as_mid_turn_and_no_keeps_the_match(
) -> None:
    game, text, prompts = await duel(["tranca"], questions=["n"])
    after = text[text.index("Fim da mão 1."):]
    assert prompts.count(TRANCA) == 1
    kept = after.index("A partida continua.")
    assert kept < after.index("Fim da mão 2.")  # asked before the next deal was dealt
    first = prompts.index(TRANCA)
    assert prompts[first + 1] == BETWEEN  # and the prompt between deals came back
    assert game.next_variant is None
    assert "Fim da partida! Vencedor: Robô 2 com 2100 pontos." in text


async def test_a_variant_typed_between_deals_and_confirmed_starts_a_match_of_it() -> None:
    game, text, prompts = await duel(["tranca target=3000"], questions=["s"])
    assert game.next_variant == "tranca target=3000"
    assert "Fim da mão 1." in text and "Fim da mão 2." not in text
    assert prompts[-1].startswith("Começar uma partida de Tranca (2 jogadores: você e 1 "
                                  "robô; até 3000 pontos)?")


async def test_a_slip_between_deals_is_answered_and_the_prompt_comes_again() -> None:
    _game, text, prompts = await duel(["xyz", "n 2"])
    after = text[text.index("Fim da mão 1."):]
    slip = after.index("Comando desconhecido: xyz. Digite ? para ajuda.")
    assert slip < after.index("n não leva números.") < after.index("Fim da mão 2.")
    first = prompts.index(BETWEEN)
    assert prompts[first:first + 3] == [BETWEEN] * 3  # asked again after each


async def test_a_variant_typed_at_the_last_prompt_starts_a_match_of_it() -> None:
    game, text, prompts = await duel([], last=["tranca"])
    assert game.next_variant == "tranca" and game.next_seats == (2, ["normal"])
    assert TRANCA not in prompts  # the match is over: nothing to confirm
    assert "A partida acabou: exportar salva o registro" not in text
    assert not text.endswith("Até a próxima!\n")
