# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end on the fake Discord (issue 35, deals anyone can verify): the real bot
process registers ``/verificar`` with its optional ``jogo`` and answers it with every
deal of the channel's last finished game checked against its revealed seed (a seeded
record kept on the same Redis and key prefix, as the match's follow-up keeps it): OK
per deal, and for a tampered record exactly what does not match."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from bot_run import prefix_of, run_bot
from fake_discord import FakeDiscord
from fake_model import Person
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401
from test_e2e_discord_options import reply_text

from adapters.storage import RedisStore
from engine.match import Match
from engine.rules import make_rules
from engine.simulate import random_action

GID = "g35vrfy1"


def seeded_record() -> dict[str, Any]:
    """A two-deal buraco match of Ana and Bia, dealt from fresh seeds, played by random
    legal moves."""
    rng = random.Random(35)
    match = Match.new(make_rules("buraco", {"target": 100_000}), ["Ana", "Bia"])
    for _ in range(2):
        state = match.start_deal()
        while not state.over:
            match.act(random_action(state, rng))
    return match.record()


async def _keep(fake: FakeDiscord, record: dict[str, Any]) -> None:
    client = aioredis.from_url(str(REDIS), decode_responses=True)
    try:
        store = RedisStore(client, prefix_of(fake))
        await store.save_record(GID, json.dumps(record))
        await store.set_setting(f"dc:{fake.channel_id}", "last_game", GID)
    finally:
        await client.aclose()


async def test_verificar_checks_the_last_game_and_names_a_tampered_card(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia = people[0], people[1]
    record = seeded_record()
    short = [d["commitment"][:16] for d in record["deals"]]
    with run_bot(fake, tmp_path, str(REDIS)) as log:
        assert reply_text(fake, fake.slash(ana, "verificar")) == \
            "Ainda não há partida terminada neste grupo."
        await _keep(fake, record)
        assert reply_text(fake, fake.slash(bia, "verificar")).replace("\\", "").splitlines() == [
            f"Conferência do embaralhamento do jogo {GID}:",
            f"Mão 1: OK (compromisso {short[0]}…, semente conferida).",
            f"Mão 2: OK (compromisso {short[1]}…, semente conferida).",
            "Resultado: OK, 2 mãos verificadas, todas conferem com as sementes.",
            "Para conferir sem o bot: /exportar e python3 verify_deal.py <arquivo> "
            "(tools/verify_deal.py, só Python)."]
        deck = record["deals"][1]["deck"]
        last = len(deck) - 1
        k = next(i for i in range(last - 1, 0, -1) if deck[i] != deck[last])
        deck[k], deck[last] = deck[last], deck[k]
        await _keep(fake, record)
        got = reply_text(fake, fake.slash(ana, "verificar", jogo=GID)).replace("\\", "")
        lines = got.splitlines()
        assert lines[1] == f"Mão 1: OK (compromisso {short[0]}…, semente conferida)."
        assert lines[2] == "Mão 2: NÃO CONFERE."
        dealt = 2 * 11  # two hands, no morto in buraco: the stock starts at position 23
        assert lines[4].startswith(f"  posição {last + 1} do baralho (monte, carta "
                                   f"{last - dealt + 1} a partir do topo): o registro tem ")
        assert lines[5] == "Resultado: 1 de 2 mãos não confere."
        assert "Traceback" not in log.read_text()
