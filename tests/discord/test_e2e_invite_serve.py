"""End to end, issue 35 "Done when" (the invitation): one ``python -m bot serve`` process
runs Telegram (on the Bot API emulator) and Discord (on the fake Discord) at once, on the
real Redis at ``REDIS_URL``. Ana opens a lobby in her Telegram group and sends
``/convidar``; Zé, on Discord, joins with ``/entrar codigo:<code>``; Ana adds two robots
and starts; Ana (private hand buttons) and Zé (ephemeral hand) play the whole deal.

After every version read (a robot's turn may save more than one before it is read),
against the game stored in Redis: no group or channel message, button payload or log
line names a card of a hand it does not belong to, nor a private message a card of
another's hand. The group's and the channel's tables both show the stored table once
dealt and at the deal's end (they are edited every few seconds, so they catch up), and
the deal's result reads the same in both.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest
import redis
from bot_run import prefix_of, redis_url, synced_fake, wait_for
from dc_play import answered
from fake_model import Person, snowflake
from serve_checks import Checker, Seats, dc_table, deal_results, play, tg_hand, tg_table
from serve_run import free_port, run_serve
from tg_emulator import BotMessage, Emulator, Group, emulator_missing, start_emulator
from tg_emulator import Person as TgPerson

from adapters.storage.keys import StoreKeys

REDIS = redis_url()
TG_TOKEN = "5455:E2E-SERVE-INVITE-TOKEN"
DC_TOKEN = "e2e-serve-invite-dc-token"

pytestmark = [
    pytest.mark.skipif(REDIS is None, reason="needs the Redis at REDIS_URL"),
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
]


def group_table(emu: Emulator, group: Group, has: str) -> BotMessage:
    """The group's table once its text holds ``has``."""
    return wait_for(lambda: (lambda t: t if t is not None and has in t.text else None)(
        tg_table(emu, group.chat_id)), what=f"{has!r} on the group's table")


def invitation_code(emu: Emulator, group: Group) -> str:
    """The code of the group's ``/convidar`` answer (its link checked too)."""
    text = wait_for(lambda: next((m.text for m in emu.messages(group.chat_id)
                                  if m.text.startswith("Convite para esta mesa:")), None),
                    what="the invitation")
    code = re.search(r"^Convite para esta mesa: ([A-Z0-9]{8})$", text, re.M)
    assert code is not None, text
    assert f"https://t.me/BuracoTestBot?start=c{code.group(1)}" in text, text
    return code.group(1)


def open_private_hand(emu: Emulator, group: Group, person: TgPerson) -> None:
    """``person`` taps "Minha mão" on the group's table and opens the private chat its
    answer points to (what Telegram does with the answer's URL)."""
    if tg_hand(emu, person) is not None:
        return
    before = len(emu.calls())
    emu.press(person, group_table(emu, group, "Vez de"), "Minha mão")
    answer = wait_for(lambda: [c for c in emu.calls()[before:]
                               if c["method"] == "answerCallbackQuery" and c["body"].get("url")],
                      what="the answer with the private link")
    emu.command_in_private(person, "/start " + str(answer[-1]["body"]["url"]).split("start=")[1])
    wait_for(lambda: tg_hand(emu, person), what=f"{person.first_name}'s hand")


def test_a_telegram_lobby_invites_a_discord_person_who_joins_by_code_and_both_see_the_deal(
        tmp_path: Path) -> None:
    assert REDIS is not None
    ze = Person(snowflake(), "Zé")
    base = secrets.randbelow(10**8) + 10**8
    ana, group = TgPerson(base + 1, "Ana"), Group(-base - 1, "Grupo da Ana")
    port = free_port()
    client = redis.Redis.from_url(REDIS, decode_responses=True)
    with start_emulator(TG_TOKEN) as emu, \
            synced_fake(DC_TOKEN, [ze], tmp_path, REDIS) as fake, \
            run_serve(emu, fake, tmp_path, REDIS, port) as log:
        prefix = prefix_of(fake)
        seats = Seats(emu, fake, {"Ana": ana}, {"Zé": ze}, f"http://127.0.0.1:{port}",
                      {"group": group.chat_id})
        emu.command_in_group(group, ana, "/novojogo bossa_nova")
        group_table(emu, group, "Mesa aberta por Ana.")
        emu.command_in_group(group, ana, "/convidar")
        code = invitation_code(emu, group)
        assert answered(fake, fake.slash(ze, "entrar", codigo=code.lower())).answer_type
        channel = wait_for(lambda: (lambda t: t if t is not None and "Lugar 2: Zé" in t.text()
                                    else None)(dc_table(fake)), what="Zé on the channel's table")
        assert channel.text().startswith("Buraco Bossa Nova · até 1500 pontos\n"
                                         "Mesa aberta por Ana."), channel.text()
        lobby = group_table(emu, group, "Lugar 2: Zé")
        for _ in range(2):
            emu.press(ana, lobby, "Robô")
            lobby = group_table(emu, group, f"Robô {3 + _}")
        emu.press(ana, lobby, "Iniciar")
        gid = wait_for(lambda: client.get(StoreKeys(prefix).chat(f"tg:{group.chat_id}")),
                       what="the game")
        ck = Checker(seats, client, prefix, str(gid), [log], [TG_TOKEN, DC_TOKEN])
        truth = wait_for(lambda: (lambda t: t if t.game.status == "playing" else None)(
            ck.now()), what="the deal")
        ck.settle(truth)  # both chats show the dealt table
        open_private_hand(emu, group, ana)
        truth = play(seats, ck, ck.now(), turns=None)
        assert truth.game.status == "between"
        ck.settle(truth)
        results = deal_results(seats)
        assert len(set(results.values())) == 1, results
        assert fake.unknown_routes() == []
    client.close()
