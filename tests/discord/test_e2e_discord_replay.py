# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end on the fake Discord (issue 29): the real bot process answers ``/replay``
with the chat's last finished match (a known record kept on the same Redis and key
prefix, as the match's follow-up keeps it), posted in the channel with its step buttons
(discord.py ``DynamicItem`` custom_ids ``bb:<game>|<serial>|rp|<deal>.<move>``); a press
edits that message in place (an update of the pressed message, callback type 7);
forged, out-of-range and stale presses get one ephemeral line and edit nothing."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the record

import redis.asyncio as aioredis
from bot_run import prefix_of, run_bot, wait_for
from dc_play import answered
from fake_discord import FakeDiscord
from fake_model import Message, Person
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401
from test_e2e_discord_options import reply_text

from adapters.storage import RedisStore

RECORD = (Path(__file__).resolve().parent.parent / "data" / "replay-buraco.json").read_text()
GID = "g29dc"
UPDATE_MESSAGE = 7


async def _keep(fake: FakeDiscord) -> None:
    client = aioredis.from_url(str(REDIS), decode_responses=True)
    try:
        store = RedisStore(client, prefix_of(fake))
        await store.save_record(GID, RECORD)
        await store.set_setting(f"dc:{fake.channel_id}", "last_game", GID)
    finally:
        await client.aclose()


def _replays(fake: FakeDiscord) -> list[Message]:
    return [m for m in fake.channel_messages() if "Replay · " in m.text()]


def fake_text(message: Message) -> str:
    """The message as a person reads it (the bot escapes Discord's markdown)."""
    return message.text().replace("\\", "")


async def test_replay_posts_the_match_and_its_buttons_step_it_in_place(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia = people[0], people[1]
    with run_bot(fake, tmp_path, str(REDIS)) as log:
        got = reply_text(fake, fake.slash(ana, "replay"))
        assert got == "Ainda não há partida terminada neste grupo."
        await _keep(fake)
        answered(fake, fake.slash(bia, "replay"))
        (message,) = wait_for(lambda: _replays(fake), timeout=5.0, what="the replay")
        assert fake_text(message).splitlines()[:3] == [
            "Buraco · até 1000 pontos", "Replay · mão 1 de 7 · início",
            "Dupla 1 (Ana, Bia): 0 pts · nesta mão: 0 em jogos"]
        assert message.labels() == ["Mão ▶", "Fim ⏭", "Jogada ▶"]
        assert (message.button("Jogada ▶") or {})["custom_id"] == f"bb:{GID}|1|rp|0.1"
        inter = answered(fake, fake.press_label(ana, message, "Jogada ▶"))
        assert inter.answer_type == UPDATE_MESSAGE
        moved = wait_for(lambda: (lambda m: m if "jogada 1 de 15" in m.text() else None)(
            fake.message(message.id)), timeout=5.0, what="the edited replay")
        assert fake_text(moved).splitlines()[-1] == "Ana comprou do monte."
        assert moved.labels() == ["Mão ▶", "Fim ⏭", "◀ Jogada", "Jogada ▶"]
        answered(fake, fake.press_label(bia, moved, "Fim ⏭"))
        end = wait_for(lambda: (lambda m: m if "mão 7 de 7" in m.text() else None)(
            fake.message(message.id)), timeout=5.0, what="the last step")
        assert fake_text(end).splitlines()[-1] == (
            "Fim da partida! Vencedor: Dupla 2 (Robô 2, Robô 4) com 1050 pontos.")
        assert len(_replays(fake)) == 1  # edited in place, never posted again
        assert "Traceback" not in log.read_text()


async def test_forged_and_stale_replay_buttons_get_one_line_and_edit_nothing(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana = people[0]
    await _keep(fake)
    with run_bot(fake, tmp_path, str(REDIS)) as log:
        answered(fake, fake.slash(ana, "replay"))
        (old,) = wait_for(lambda: _replays(fake), timeout=5.0, what="the replay")
        before = fake_text(fake.message(old.id))
        for custom_id, said in ((f"bb:{GID}|1|rp|7.0", "Botão desconhecido."),
                                (f"bb:{GID}|1|rp|0.16", "Botão desconhecido."),
                                (f"bb:{GID}|1|rp|zz", "Botão desconhecido.")):
            inter = fake.press(ana, old, custom_id, forged=True)
            assert reply_text(fake, inter) == said, custom_id
        answered(fake, fake.slash(ana, "replay"))  # a newer replay message
        wait_for(lambda: len(_replays(fake)) == 2, timeout=5.0, what="the second replay")
        inter = fake.press_label(ana, fake.message(old.id), "Jogada ▶")
        assert reply_text(fake, inter) == "Este replay foi substituído: use /replay de novo."
        await asyncio.sleep(0.2)
        assert fake_text(fake.message(old.id)) == before
        assert "Traceback" not in log.read_text()
