# ruff: noqa: F811  (pytest fixtures imported from test_service_support)
"""The commands every chat adapter runs (adapters/delivery/commands.py)."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from test_service_support import (  # noqa: F401  (fixtures)
    ANA,
    CHAT,
    backend,
    clock,
    game_of,
    store,
    svc,
)

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
