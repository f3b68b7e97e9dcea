"""End to end in webhook mode: two real bot processes (``python -m bot telegram`` with
``WEBHOOK_URL``) behind one URL (a round-robin proxy), sharing the real Redis at
``REDIS_URL``; the emulator delivers every update to that URL with the secret header.
People play a whole deal with buttons while updates alternate between the workers.

Needs ``node``, ``npm install`` and ``REDIS_URL`` (CI sets it); this run's keys are
deleted afterwards.
"""

from __future__ import annotations

import itertools
import os
import secrets
from pathlib import Path

import pytest
from test_e2e_telegram import (
    ANA,
    BIA,
    assert_no_hand_card_in_group,
    deal_result,
    group_edit_times,
    most_in_a_minute,
    open_with_two_robots,
    play_deal,
    play_edit_times,
    side_totals,
)
from tg_emulator import (
    Emulator,
    Group,
    RoundRobinProxy,
    emulator_missing,
    free_port,
    run_bot,
    wait_for,
)

REDIS_URL = os.environ.get("REDIS_URL") or None
SECRET = "e2e-webhook-secret"
GROUP = Group(-secrets.randbelow(10**9) - 10**9, "Mesa Webhook")  # this run's own group

pytestmark = [
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
    pytest.mark.skipif(REDIS_URL is None,
                       reason="two workers share their state through the Redis at REDIS_URL"),
]


def test_two_webhook_workers_behind_one_url_play_a_deal(emu: Emulator, tmp_path: Path) -> None:
    group = GROUP
    ports = [free_port(), free_port()]
    proxy = RoundRobinProxy([f"http://127.0.0.1:{port}" for port in ports])
    workers = [tmp_path / "w1", tmp_path / "w2"]
    for path in workers:
        path.mkdir()
    settings = {"WEBHOOK_URL": f"{proxy.url}/hook", "WEBHOOK_LISTEN": "127.0.0.1",
                "WEBHOOK_SECRET": SECRET}
    try:
        with (run_bot(emu, workers[0], REDIS_URL, WEBHOOK_PORT=str(ports[0]), **settings) as log1,
              run_bot(emu, workers[1], REDIS_URL, WEBHOOK_PORT=str(ports[1]), **settings) as log2):
            play(emu, group)
            # both workers took updates; the proxy alternates, and a deal on a random deck
            # can be short (18 updates seen), so each gets at least 3 of the 7 or more
            # (five in the lobby, two or more for Ana's first turn)
            assert min(proxy.counts) >= 3, proxy.counts
            for log in (log1, log2):
                assert "Traceback" not in log.read_text()
    finally:
        proxy.close()


def play(emu: Emulator, group: Group) -> None:
    """Open, join, start and play deal 1; the table stays one message edited in place."""
    setups = [c["body"] for c in emu.calls() if c["method"] == "setWebhook"]
    assert [(b["url"], b["secret_token"]) for b in setups] == [(setups[0]["url"], SECRET)] * 2
    started = open_with_two_robots(emu, group, ANA, BIA)
    assert "Vez de Ana." in started.text
    result = play_deal(emu, [ANA, BIA], group=group)
    totals = side_totals(result)
    assert f"Placar: {totals[0]} × {totals[1]}" in result
    tables = [m for m in emu.messages(group.chat_id) if m.text.startswith("<b>Buraco")]
    assert len(tables) == 1, [m.text for m in tables]
    assert_no_hand_card_in_group(emu, [ANA, BIA], group)
    assert deal_result(emu, group) == result
    edits = group_edit_times(emu, group)  # both workers together, through the shared window
    assert most_in_a_minute(edits) <= 20
    assert min(b - a for a, b in itertools.pairwise(play_edit_times(emu, group))) >= 2.5
    wait_for(lambda: not emu.unanswered_callbacks() or None, timeout=5,
             what="every callback query to be answered")
    emu.command_in_group(group, ANA, "/cancelar")
    wait_for(lambda: any("Jogo cancelado por Ana." in m.text
                         for m in emu.messages(group.chat_id)), what="the closing notice")
