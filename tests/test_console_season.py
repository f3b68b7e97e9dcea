"""Issue 30 (with issue 29's season): a finished terminal match counts in the season as a
group's does (``python -m bot play`` builds its service with the season store), so the
terminal answers ``ranking`` and ``perfil`` with the service's own ``/ranking`` and
``/perfil`` for its one person: titled for the terminal, without the ranking across
groups. Played through the console adapter as a person types, on the season's Redis."""

from __future__ import annotations

import io
import uuid

import fakeredis
from rich.console import Console
from test_service_support import FakeClock, SeededDecks, make_service, seeded_ai

from adapters.console.app import ConsoleGame
from adapters.storage import RedisStore
from adapters.storage.season import RedisSeason


async def test_ranking_and_perfil_in_the_terminal_before_and_after_a_match() -> None:
    clock = FakeClock()
    store = RedisStore(fakeredis.FakeAsyncRedis(decode_responses=True),
                       f"test-console-season-{uuid.uuid4().hex}")
    svc = make_service(store, clock, deck_fn=SeededDecks(), chooser=seeded_ai,
                       next_deal_s=3600, season=RedisSeason.beside(store))
    first = iter(["ranking", "perfil", "ranking geral", "ranking xyz", "perfil publico",
                  "profile"])
    moves = iter(["c", "d 1"] * 2000)
    last = iter(["ranking", "perfil", ""])

    def read(prompt: str) -> str:
        if "exportar" in prompt:  # the last prompt, once the match is over
            return next(last)
        return next(first, None) or next(moves)

    out = io.StringIO()
    game = ConsoleGame(svc, Console(file=out, width=200, color_system=None), read=read)
    assert await game.setup("buraco", 2)
    await game.play()
    text = out.getvalue()
    before, after = text.split("Fim da partida!", 1)
    # before any match: nobody counted yet, the terminal's own titles
    assert "Ranking do terminal — desde sempre\nNinguém terminou uma partida neste " \
        "período.\n" in before
    assert "Seu perfil no terminal\nRating: 1000 (provisório)\nPartidas 0, vitórias 0 (0%)" \
        in before
    assert "No terminal o ranking é por período: ranking semana, mes, ano ou sempre.\n" \
        in before
    assert "Período desconhecido: xyz. Use semana, mes, ano ou sempre.\n" in before  # no geral
    assert before.count("No terminal, perfil mostra o seu perfil: digite só perfil.\n") == 1
    assert "Perfil de" not in text and "grupo" not in text.replace("Ranking do grupo", "")
    # the match just played (lost to the seeded robot, -175) is counted for the person
    ranked = after[after.index("Ranking do terminal — desde sempre"):]
    assert ranked.startswith("Ranking do terminal — desde sempre\n1. Você: 0 vitórias em 1 "
                             "partida (0%), pontos -175, rating ")
    profile = after[after.index("Seu perfil no terminal"):].split("\n")
    assert profile[2] == "Partidas 1, vitórias 0 (0%)"
    assert profile[3] == "Por variante: Buraco 0/1 (0%)"
    assert not any("ranking geral" in line for line in profile[:12])


def test_the_terminal_s_season_words_are_commands_a_question_names() -> None:
    """``perfil`` typed at a yes/no question is a command that is not run (and said so)."""
    from adapters.console import question
    from adapters.console.commands import command_word

    assert question.is_command("perfil", command_word)
    assert question.is_command("profilo", command_word)
    assert question.is_command("ranking semana", command_word)
    assert not question.is_command("talvez", command_word)
