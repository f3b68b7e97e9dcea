# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end, slash-command values outside the registered choices (issue 30): a Discord
client with an older list of commands, or a hand-made request, sends ``variante: xyz``,
``nivel: xyz``, ``idioma: xx``, ``modo: xyz``, a number where text was registered, or a
command the bot no longer has. Each gets the answer the same words typed on Telegram get
(the service's, "Variante desconhecida: xyz …") or "recarregue o Discord", never "Algo
deu errado"; the bot logs no ERROR and no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot_run import run_bot, wait_for
from dc_play import answered
from fake_discord import FakeDiscord
from fake_model import Interaction, Person
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401

from adapters.delivery.commands import run_command
from bot.effects import ChatRef, PlayerRef, Reply
from bot.memstore import MemoryStore
from bot.service import Service

OUTDATED = ("Seu Discord tem uma versão antiga deste comando: recarregue o Discord "
            "(Ctrl+R) e tente de novo.")


class Clock:
    def now(self) -> float:
        return 1_800_000_000.0


async def typed(name: str, args: str, open_first: bool = False) -> str:
    """What a person typing ``/<name> <args>`` gets (the Telegram path, same service)."""
    service = Service(MemoryStore(), Clock(), threaded=False)
    chat = ChatRef(platform="tg", chat_id="-1", title="Mesa")
    user = PlayerRef(platform="tg", user_id="1", name="Ana")
    if open_first:
        await service.new_game(chat, user)
    [reply] = await run_command(service, name, chat, user, args, False, "tg:1:u:1")
    assert isinstance(reply, Reply)
    return reply.text


def reply_text(fake: FakeDiscord, inter: Interaction) -> str:
    """The text of the bot's answer to ``inter`` (its ``@original`` message), once written."""
    answered(fake, inter)

    def text() -> str | None:
        now = fake.interaction(inter)
        if now.original_id is None:
            return None
        return fake.message(now.original_id).text() or None

    return wait_for(text, timeout=5.0, what=f"the text answering {inter.id}")


async def test_values_outside_the_choices_get_the_typed_answer(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana = people[0]
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("novojogo", {"variante": "xyz"}, await typed("novojogo", "xyz")),
        ("novojogo", {"variante": 7, "opcoes": "target=3000"},
         await typed("novojogo", "7 target=3000")),
        ("regras", {"variante": "xyz"}, await typed("regras", "xyz")),
        ("idioma", {"idioma": "xx"}, await typed("idioma", "xx")),
        ("novojogo", {}, ""),  # opens the table for the commands below
        ("robo", {"nivel": "xyz"}, await typed("robo", "xyz", open_first=True)),
        ("mao", {"modo": "xyz"}, await typed("mao", "xyz", open_first=True)),
    ]
    assert cases[0][2].startswith("Variante desconhecida: 'xyz' (conheço: ")
    assert cases[5][2] == "Nível desconhecido: use facil, normal ou dificil."
    with run_bot(fake, tmp_path, str(REDIS)) as log:
        for name, options, want in cases:
            # as a person reads it: the bot escapes Discord's markdown ("biriba\\_tranca")
            got = reply_text(fake, fake.slash(ana, name, **options)).replace("\\", "")
            if want:
                assert got == want, (name, options)
        gone = fake._interact(ana, 2, fake.channel_id, {  # a command the bot no longer has
            "id": "1", "name": "velho", "type": 1, "options": [],
            "guild_id": str(fake.guild_id)}, None)
        assert reply_text(fake, gone) == OUTDATED
        text = log.read_text()
        assert "Traceback" not in text and " ERROR " not in text
        assert "command out of date (CommandNotFound)" in text
