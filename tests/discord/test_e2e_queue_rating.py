"""End to end, issue 35 "Done when" (each person's rating updated exactly once): one
``python -m bot serve`` process (Telegram on the Bot API emulator, Discord on the fake
Discord) on the real Redis at ``REDIS_URL``. Ana (Telegram, in her group) and Zé (the
Discord channel) send ``/procurar bossa_nova 2`` and get one table; Ana leaves it at once
(``/sair`` in her private chat, a place of the table: the robot plays her seat), Zé plays
every deal to the match's end by his ephemeral hand (drawing and discarding). The bot is
SIGKILLed mid-match and started again; nobody is rated before the match's end, and at the
end each person's global rating has counted the match exactly once, Ana's as a loss (she
left a matchmade game: bot/season/followup.py); both places announced the match's end.
"""

from __future__ import annotations

import secrets
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
from bot_run import prefix_of, redis_url, synced_fake, wait_for
from dc_play import answered, pick, press, until_changed
from fake_discord import FakeDiscord
from fake_model import Person, snowflake
from serve_checks import Seats, dc_hand_with, dc_table
from serve_run import free_port, run_serve
from tg_emulator import Group, emulator_missing, start_emulator
from tg_emulator import Person as TgPerson

from adapters.storage.keys import StoreKeys
from bot import play as game_play
from bot.model import Game, decode
from bot.season.rating import Rating

REDIS = redis_url()
TG_TOKEN = "5456:E2E-SERVE-RATING-TOKEN"
DC_TOKEN = "e2e-serve-rating-dc-token"
MATCH_S = 240.0
"""The longest the match may take (a stall fails sooner: 60 s without a version)."""

pytestmark = [
    pytest.mark.reliability,
    pytest.mark.skipif(REDIS is None, reason="the game must outlive the bot: REDIS_URL"),
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
]


def stored(client: redis.Redis, prefix: str, gid: str) -> tuple[int, Game]:
    version, state = client.hmget(StoreKeys(prefix).state(gid), ["v", "s"])
    assert version is not None and state is not None
    return int(version), decode(str(state), gid)


def ze_plays(client: redis.Redis, prefix: str, gid: str, seats: Seats, ze: Person,
             fake: FakeDiscord, until: float, stop_after: int | None = None) -> int:
    """Zé plays his turns (and deals the next deal) until the match is over or he played
    ``stop_after`` turns; the turns played."""
    turns, last, moved = 0, -1, time.monotonic()
    while True:
        version, game = stored(client, prefix, gid)
        if version != last:
            last, moved = version, time.monotonic()
        assert time.monotonic() - moved < 60, f"the match stopped at version {version}"
        assert time.monotonic() < until, "the match did not end in time"
        if game.status == "over" or (stop_after is not None and turns >= stop_after):
            return turns
        if game.status == "between":
            table = wait_for(lambda: (lambda t: t if t is not None and t.button("Próxima mão")
                                      else None)(dc_table(fake)), what="Próxima mão")
            press(fake, ze, table, "Próxima mão")
            wait_for(lambda: stored(client, prefix, gid)[1].status != "between",
                     what="the next deal")
            continue
        deal = game_play.deal_of(game)
        if game.seats[deal.turn].player is None or game.seats[deal.turn].player.key != \
                f"dc:{ze.user_id}":
            time.sleep(0.05)
            continue
        current = dc_hand_with(seats, ze, "Comprar do monte")
        press(fake, ze, current, "Comprar do monte")
        current = until_changed(fake, ze, current)
        pick(fake, ze, current, 0)
        current = until_changed(fake, ze, current)
        press(fake, ze, current, "Descartar")
        wait_for(lambda v=version: stored(client, prefix, gid)[0] > v + 2,
                 what="Zé's discard")
        turns += 1


def test_a_matchmade_match_is_rated_once_for_each_person_through_a_kill(
        tmp_path: Path) -> None:
    assert REDIS is not None
    ze = Person(snowflake(), "Zé")
    base = secrets.randbelow(10**8) + 10**8
    ana, group = TgPerson(base + 1, "Ana"), Group(-base - 1, "Grupo da Ana")
    port = free_port()
    client = redis.Redis.from_url(REDIS, decode_responses=True)
    until = time.monotonic() + MATCH_S
    keys = [f"tg:{ana.user_id}", f"dc:{ze.user_id}"]
    with start_emulator(TG_TOKEN) as emu, \
            synced_fake(DC_TOKEN, [ze], tmp_path, REDIS) as fake:
        prefix = prefix_of(fake)
        seats = Seats(emu, fake, {"Ana": ana}, {"Zé": ze}, f"http://127.0.0.1:{port}",
                      {"Ana": ana.user_id})
        started: list[subprocess.Popen[bytes]] = []
        with run_serve(emu, fake, tmp_path, REDIS, port, started=started):
            emu.command_in_group(group, ana, "/procurar bossa_nova 2")
            answered(fake, fake.slash(ze, "procurar", variante="bossa_nova", jogadores="2"))
            gid = str(wait_for(lambda: client.get(StoreKeys(prefix).chat(f"tg:{ana.user_id}")),
                               timeout=30, what="the formed table"))
            emu.command_in_private(ana, "/sair")
            wait_for(lambda: any(s.away and s.player is not None and s.player.key == keys[0]
                                 for s in stored(client, prefix, gid)[1].seats),
                     what="Ana's seat played by the robot")
            ze_plays(client, prefix, gid, seats, ze, fake, until, stop_after=5)
            started[0].send_signal(signal.SIGKILL)
            assert started[0].wait(timeout=10) == -signal.SIGKILL
        ratings = f"{prefix}:{{season}}:rating"
        assert client.hmget(ratings, keys) == [None, None]  # the match goes on
        with run_serve(emu, fake, tmp_path, REDIS, port, log_name="serve-2.log"):
            ze_plays(client, prefix, gid, seats, ze, fake, until)
            got = wait_for(lambda: (lambda r: r if None not in r else None)(
                client.hmget(ratings, keys)), what="both ratings")
            wait_for(lambda: any("Fim da partida" in m.text()
                                 for m in fake.channel_messages()), what="the end, channel")
            wait_for(lambda: any("Fim da partida" in m.text
                                 for m in emu.messages(ana.user_id)), what="the end, Ana")
        left, stayed = (Rating.parse(t) for t in got)
        assert left.n == 1 and stayed.n == 1, got
        assert left.mu < Rating().mu  # leaving a matchmade game counts as a loss
    client.close()
