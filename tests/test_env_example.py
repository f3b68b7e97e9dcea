"""Issue 30 "Whoever runs the bot": ``.env.example`` lists every setting the bot reads,
with the default it states equal to the code's, and loads as a ``.env`` without a
refusal (docs/operator.md "Settings")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic_settings import BaseSettings

from adapters.discord.process import DiscordTuning
from adapters.telegram.app import TelegramTuning
from bot.settings import Settings
from engine._native import ENV as NATIVE_ENV

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")
MODELS: list[type[BaseSettings]] = [Settings, TelegramTuning, DiscordTuning]
ENV_ONLY = {"LANG", NATIVE_ENV}  # read from os.environ (engine.cli_i18n, engine._native)
LINE = re.compile(r"^(#\s)?([A-Z][A-Z0-9_]+)=(.*)$", re.M)


def named() -> dict[str, tuple[bool, str]]:
    """``NAME -> (commented, value)`` of every ``NAME=value`` line."""
    return {m.group(2): (bool(m.group(1)), m.group(3)) for m in LINE.finditer(EXAMPLE)}


def test_every_setting_the_bot_reads_is_in_the_example_and_nothing_else() -> None:
    fields = {name.upper() for model in MODELS for name in model.model_fields}
    assert set(named()) == fields | ENV_ONLY


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_the_defaults_the_example_states_are_the_code_s(model: type[BaseSettings]) -> None:
    """A commented ``# NAME=value`` line states the default: it must be the field's (an
    example value goes in the comment above it, the line stays ``# NAME=``)."""
    lines = named()
    for name, field in model.model_fields.items():
        commented, value = lines[name.upper()]
        if commented and value:
            default: Any = field.default
            typed = type(default)(value) if isinstance(default, int | float) else value
            assert typed == default, name


def test_the_example_loads_as_a_dot_env_without_a_refusal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for model in MODELS:
        for name in model.model_fields:
            monkeypatch.delenv(name.upper(), raising=False)
    (tmp_path / ".env").write_text(EXAMPLE, encoding="utf-8")
    settings = Settings()
    assert (settings.redis_url, settings.telegram_token, settings.webhook_url,
            settings.turn_timer_s) == ("redis://127.0.0.1:6379/0", "", None, 90)
    assert TelegramTuning().telegram_poll_interval == 0.0
    assert DiscordTuning().discord_api_base is None
