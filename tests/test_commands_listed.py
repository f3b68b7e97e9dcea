"""Every command the docs name is findable (issue 38 "Season and tournaments": ``/ajuda``
and the command menus did not list ``/torneio``): ``/ajuda``'s text in pt/en/it, the
Telegram menu (``setMyCommands``, every language) and the Discord slash commands list
each command the player's guides, ``docs/telegram.md``, ``docs/discord.md`` and
``docs/season.md`` name; and every description fits the platform's limit (Discord
refuses a description over 100 characters, and with it the whole list)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from adapters.delivery.commands import DESCRIPTION_MAX
from adapters.discord.commands import GettextTranslator, install
from adapters.telegram.app import register_commands
from bot.i18n import Translator
from bot.info import help_text

DOCS = Path(__file__).resolve().parent.parent / "docs"
DOC_FILES = ("guia.md", "guide.en.md", "guida.it.md", "telegram.md", "discord.md",
             "season.md")
COMMAND = re.compile(r"(?<![\w./:{}@<>\-])/([a-z][a-z_]*)\b(?![/{@<\w])")
"""``/novojogo`` in a sentence or code span; not a URL's or an HTTP path's part
(``GET /users/@me``, ``/bot<token>/<method>``, ``{app_id}/commands``)."""
NOT_MENU = {"start": "Telegram's own Start button sends it (the deep link), on no menu"}
TELEGRAM_MAX = 256
"""Telegram's limit for a command's description (Bot API ``BotCommand``)."""


def documented() -> set[str]:
    """The commands the docs name (the collector below must find the known ones)."""
    found: set[str] = set()
    for name in DOC_FILES:
        found |= set(COMMAND.findall((DOCS / name).read_text(encoding="utf-8")))
    return found - NOT_MENU.keys()


def test_the_docs_name_the_commands_a_group_uses() -> None:
    """The collector itself: it finds the commands (and no HTTP path) in the docs."""
    names = documented()
    assert {"novojogo", "torneio", "ranking", "perfil", "config", "replay", "ajuda"} <= names
    assert not names & {"users", "gateway", "messages", "bot", "commands", "start"}


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
def test_ajuda_lists_every_documented_command(lang: str) -> None:
    text = help_text(Translator(lang))
    listed = set(re.findall(r"/([a-z]+)\b", text))
    assert documented() - listed == {"ajuda"}  # the text is /ajuda's own answer


def test_ajuda_says_how_to_open_see_and_cancel_a_tournament() -> None:
    lines = {lang: next(line for line in help_text(Translator(lang)).splitlines()
                        if line.startswith("/torneio")) for lang in ("pt", "en", "it")}
    assert lines == {
        "pt": "/torneio [todos|mata] [duplas|individual] [variante] — abre um torneio no "
              "grupo; /torneio tabela mostra a classificação, /torneio cancelar o encerra",
        "en": "/torneio [todos|mata] [duplas|individual] [variant] — opens a tournament in "
              "the group; /torneio tabela shows the standings, /torneio cancelar ends it",
        "it": "/torneio [todos|mata] [duplas|individual] [variante] — apre un torneo nel "
              "gruppo; /torneio tabela mostra la classifica, /torneio cancelar lo chiude"}


class _MenuBot:
    def __init__(self) -> None:
        self.menus: dict[str | None, list[Any]] = {}

    async def set_my_commands(self, commands: list[Any], language_code: str | None) -> bool:
        self.menus[language_code] = commands
        return True


class _App:
    def __init__(self) -> None:
        self.bot = _MenuBot()


async def test_telegrams_menu_lists_every_documented_command_in_each_language() -> None:
    app = _App()
    await register_commands(app)
    assert set(app.bot.menus) == {None, "en", "it"}
    for code, menu in app.bot.menus.items():
        assert documented() - {c.command for c in menu} == set(), code
        for command in menu:
            assert 1 <= len(command.description) <= TELEGRAM_MAX, (code, command.command)


class _Caller:
    async def command(self, interaction: Any, name: str, args: str = "",
                      dm: bool = False) -> None:
        """Never called: the tree is only read."""


def discord_payloads() -> list[dict[str, Any]]:
    """The slash commands as discord.py sends them to Discord at ``--sync``, with the
    English and Italian descriptions (its translator over the gettext catalogs)."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install(tree, _Caller())

    async def payload() -> list[dict[str, Any]]:
        await tree.set_translator(GettextTranslator())
        assert tree.translator is not None
        return [await c.get_translated_payload(tree, tree.translator)
                for c in tree.get_commands()]
    return asyncio.run(payload())


def test_discords_slash_commands_list_every_documented_command() -> None:
    assert documented() - {c["name"] for c in discord_payloads()} == set()


def test_every_discord_description_fits_discords_limit_in_every_language() -> None:
    """``/torneio``'s description was 117 characters: Discord answers a sync with one
    over 100 by "Invalid Form Body" and registers none of the commands."""
    for command in discord_payloads():
        texts = [command["description"], *command.get("description_localizations", {}).values()]
        for option in command.get("options", []):
            texts += [option["description"],
                      *option.get("description_localizations", {}).values()]
        for text in texts:
            assert 1 <= len(text) <= DESCRIPTION_MAX, (command["name"], text)
