# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""End to end, bad input (issue 12 "Bad input", the Discord custom_ids): the real bot
process against the fake Discord gets hundreds of forged component interactions: random,
cut short, mutated, of another game, with non-ASCII digits, a stranger's presses and
another seat's. Each one is answered (never "This interaction failed"), nothing stored
changes, and the bot logs no error.
"""

from __future__ import annotations

import random
from pathlib import Path

import redis
from bot_run import prefix_of, run_bot
from dc_play import answered, hand, my_hand, table
from fake_discord import FakeDiscord
from fake_model import Message, Person
from test_e2e_discord import REDIS, fake, lobby, people, pytestmark  # noqa: F401

FORGED = 300


def ids_of(message: Message) -> list[str]:
    """The custom_id of every component under ``message``."""
    return [str(c["custom_id"]) for c in message.buttons() if c.get("custom_id")]


def forged_ids(real: list[str], rng: random.Random) -> list[str]:
    """``FORGED`` custom_ids made from the real ones and from nothing."""
    alphabet = "bbcpa:|0123456789xyzé²٣🃏\u200b\n "
    out: list[str] = []
    while len(out) < FORGED:
        base = rng.choice(real)
        kind = rng.randrange(6)
        if kind == 0:
            cid = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 101)))
        elif kind == 1:
            cid = base[:rng.randrange(len(base))]
        elif kind == 2:
            pos = rng.randrange(len(base))
            cid = base[:pos] + rng.choice(alphabet) + base[pos + 1:]
        elif kind == 3:
            cid = base.replace(base.split(":", 1)[1][:8], "zzzzzzzz", 1)  # another game
        elif kind == 4:
            cid = base.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
        else:
            cid = base + rng.choice(["|", "|1", "x", "|999999999999"])
        out.append(cid[:100] or "x")
    return out


def test_forged_custom_ids_are_answered_and_change_nothing(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia, caio = people
    assert REDIS is not None
    client = redis.Redis.from_url(REDIS, decode_responses=True)
    with run_bot(fake, tmp_path, REDIS) as log:
        lobby(fake, ana, bia, robots=0)
        mine = my_hand(fake, ana)
        theirs = my_hand(fake, bia)
        gid = client.get(f"{prefix_of(fake)}:chat:dc:{fake.channel_id}")
        state = f"{prefix_of(fake)}:{{{gid}}}:state"
        before = client.hgetall(state)
        real = ids_of(mine) + ids_of(theirs) + ids_of(table(fake))
        rng = random.Random(20261202)
        for cid in forged_ids(real, rng):
            who = rng.choice([bia, caio])  # it is Ana's turn: nobody else may change it
            message = rng.choice([table(fake), mine, theirs])
            try:
                answered(fake, fake.press(who, message, cid, forged=True))
            except AssertionError as error:
                raise AssertionError(f"no answer to {cid!r} by {who.name}") from error
        for cid in ids_of(mine):  # Ana's own hand, pressed by Bia and by Caio
            for who in (bia, caio):
                answered(fake, fake.press(who, mine, cid, forged=True))
        assert client.hgetall(state) == before
        assert hand(fake, ana) is not None
        text = log.read_text()
        assert "Traceback" not in text and " ERROR " not in text
    late = [i for i in fake.all_interactions() if i.answer_type is None]
    assert late == []
    client.close()
