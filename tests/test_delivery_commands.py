"""The commands every chat adapter runs (adapters/delivery/commands.py)."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from test_service_support import ANA, CHAT, game_of

from adapters.delivery.commands import run_command
from bot.service import Service


@pytest.mark.parametrize("typed", ["Difícil", "difícil", "DIFÍCIL"])
async def test_a_decomposed_accent_types_the_same_level_as_a_composed_one(
        svc: Service, store: Any, typed: str) -> None:
    """A trial: ``/robo Difícil`` from a keyboard that sends "í" as "i" and a combining
    accent (Unicode NFD) was "Nível desconhecido"; the level is dificil either way."""
    await run_command(svc, "novojogo", CHAT, ANA, "", False, "u1")
    decomposed = unicodedata.normalize("NFD", typed)
    assert decomposed != typed
    effects = await run_command(svc, "robo", CHAT, ANA, decomposed, False, "u2")
    assert [e.kind for e in effects] == ["table"]
    assert [s.ai for s in (await game_of(store))[1].seats] == [None, "dificil"]


async def test_a_decomposed_nao_turns_the_shuffle_off(svc: Service, store: Any) -> None:
    await run_command(svc, "novojogo", CHAT, ANA, unicodedata.normalize("NFD", "sortear=não"),
                      False, "u1")
    assert (await game_of(store))[1].shuffle is False


HOSTILE = ["xyz", "7", "=", "target=", "variante=xyz", "\x00", "🃏 🃏", "a" * 5000,
           "tranca target=abc", "dificil extra"]


@pytest.mark.parametrize("args", HOSTILE)
async def test_every_command_answers_any_typed_argument_in_words(
        svc: Service, store: Any, args: str) -> None:
    """Issue 30: a value no option takes (typed on Telegram, or sent by a Discord client
    from an older list of commands) gets a line saying why, never an exception (the
    adapters' "Algo deu errado" and a traceback in the log). In a chat with an open
    table, so the table commands read their arguments too."""
    from adapters.delivery.commands import COMMANDS

    await run_command(svc, "novojogo", CHAT, ANA, "", False, "open")
    for name, _description in COMMANDS:
        if name in ("cancelar", "sair"):
            continue  # they close the table the others need
        effects = await run_command(svc, name, CHAT, ANA, args, False, f"{name}:{args[:20]}")
        assert effects, name
        for effect in effects:
            text = getattr(effect, "text", "")
            assert "Algo deu errado" not in text and len(text) < 4000, (name, text[:80])
