"""End to end, issue 35 "Done when" (the queue): one ``python -m bot serve`` process runs
Telegram (on the Bot API emulator) and Discord (on the fake Discord) at once, with the web
table, on the real Redis at ``REDIS_URL``. Two Telegram people, each in their own group,
and two Discord people send ``/procurar bossa_nova 4``; the queue forms one table, which
opens in Ana's and Bia's private chats and in the Discord channel. The four play a whole
deal: Ana and Zé by their chat buttons, Bia and Lu partly by chat buttons and partly on
the web table (presses sent on its WebSocket as the page sends them, with the session a
signed link gave). The bot is SIGKILLed mid-deal, started again, and the deal goes on.

After every version of the game, against the game state read from Redis (the truth):
every place's table shows the table of the stored state; no public message, button
payload, web frame or log line names a card of a hand it does not belong to; each
person's web frames show exactly their stored hand. The deal's result is the same in
every place; nobody's global rating moves before the match ends (counted once at its
end: test_e2e_queue_rating.py plays a matchmade match to its end through a SIGKILL).
"""

from __future__ import annotations

import secrets
import signal
import subprocess
from pathlib import Path

import pytest
import redis
from bot_run import prefix_of, redis_url, synced_fake, wait_for
from dc_play import answered
from fake_model import Person, snowflake
from serve_checks import Checker, Seats, deal_results, open_page, play, read_truth
from serve_run import free_port, run_serve
from tg_emulator import Emulator, Group, emulator_missing, start_emulator
from tg_emulator import Person as TgPerson

from adapters.storage.keys import StoreKeys

REDIS = redis_url()
TG_TOKEN = "5454:E2E-SERVE-QUEUE-TOKEN"
DC_TOKEN = "e2e-serve-queue-dc-token"
pytestmark = [
    pytest.mark.reliability,
    pytest.mark.skipif(REDIS is None, reason="the game must outlive the bot: REDIS_URL"),
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
]


# ---- the test ---------------------------------------------------------------------------
def test_four_people_of_two_platforms_queue_play_a_deal_on_chats_and_web_through_a_kill(
        tmp_path: Path) -> None:
    assert REDIS is not None
    ze, lu = Person(snowflake(), "Zé"), Person(snowflake(), "Lu")
    base = secrets.randbelow(10**8) + 10**8
    ana, bia = TgPerson(base + 1, "Ana"), TgPerson(base + 2, "Bia")
    groups = {"Ana": Group(-base - 1, "Grupo da Ana"), "Bia": Group(-base - 2, "Grupo da Bia")}
    port = free_port()
    client = redis.Redis.from_url(REDIS, decode_responses=True)
    with start_emulator(TG_TOKEN) as emu, \
            synced_fake(DC_TOKEN, [ze, lu], tmp_path, REDIS) as fake:
        prefix = prefix_of(fake)
        seats = Seats(emu, fake, {"Ana": ana, "Bia": bia}, {"Zé": ze, "Lu": lu},
                      f"http://127.0.0.1:{port}", {"Ana": ana.user_id, "Bia": bia.user_id})
        started: list[subprocess.Popen[bytes]] = []
        logs = [tmp_path / "serve.log", tmp_path / "serve-2.log"]
        with run_serve(emu, fake, tmp_path, REDIS, port, started=started):
            for name in ("Ana", "Bia"):
                emu.command_in_group(groups[name], seats.tg[name], "/procurar bossa_nova 4")
            for person in (ze, lu):
                answered(fake, fake.slash(person, "procurar", variante="bossa_nova",
                                          jogadores="4"))
            gid = wait_for(lambda: client.get(StoreKeys(prefix).chat(f"tg:{ana.user_id}")),
                           timeout=30, what="the formed table")
            ck = Checker(seats, client, prefix, str(gid), logs, [TG_TOKEN, DC_TOKEN])
            truth = ck.now()
            assert truth.game.matched and truth.game.status == "playing"
            assert sorted(s.player.key for s in truth.game.seats if s.player) == sorted(
                seats.key(n) for n in ("Ana", "Bia", "Zé", "Lu"))
            ck.settle(truth)
            ck.secrecy(truth)
            for name in ("Ana", "Bia"):  # told in the group where they queued; the answer
                queued_in_group(emu, groups[name].chat_id)  # rewritten without its button
            seats.pages["Bia"] = open_page(seats, "Bia")
            seats.pages["Lu"] = open_page(seats, "Lu")
            truth = play(seats, ck, truth, turns=8)
            ck.settle(truth)
            killed_at = truth.version
            started[0].send_signal(signal.SIGKILL)
            assert started[0].wait(timeout=10) == -signal.SIGKILL
        assert read_truth(client, prefix, str(gid)).version == killed_at  # nothing lost
        with run_serve(emu, fake, tmp_path, REDIS, port, log_name="serve-2.log"):
            truth = play(seats, ck, ck.now(), turns=1)
            ck.settle(truth)  # the table resumes in every place
            truth = play(seats, ck, truth, turns=None)
            assert truth.game.status == "between"
            ck.settle(truth)
            assert sorted(ck.truths) == list(range(1, truth.version + 1))  # every version
            checked = ck.history()
            assert len(checked) == 3 and min(checked.values()) >= 10, checked
            assert min(ck.exact.values()) >= 10, ck.exact
            results = deal_results(seats)
            assert len(set(results.values())) == 1, results
            ratings = client.hmget(f"{prefix}:{{season}}:rating",
                                   [seats.key(n) for n in ("Ana", "Bia", "Zé", "Lu")])
            assert ratings == [None] * 4  # the match goes on: nobody rated yet
            assert fake.unknown_routes() == []
        for page in seats.pages.values():
            page.close()
    client.close()


def queued_in_group(emu: Emulator, chat_id: int) -> None:
    """The queue's answer in the group where the person queued said so with a "Sair da
    fila" button, and was rewritten without it once the table formed (an edit without a
    keyboard takes it away on Telegram; the emulator keeps the old one, so the call is
    read)."""
    calls = [c for c in emu.calls() if str(c["body"].get("chat_id")) == str(chat_id)]
    first = next(c for c in calls if c["method"] == "sendMessage")
    assert first["body"]["text"].startswith(
        "Você está na fila de Buraco Bossa Nova (4 jogadores): "), first
    assert first["body"]["reply_markup"]["inline_keyboard"][0][0]["text"] == "Sair da fila"
    last = wait_for(lambda: [c for c in emu.calls() if c["method"] == "editMessageText"
                             and str(c["body"].get("chat_id")) == str(chat_id)],
                    what="the queue's answer rewritten")[-1]["body"]
    assert last["text"].startswith("Mesa formada: ") and "reply_markup" not in last, last
