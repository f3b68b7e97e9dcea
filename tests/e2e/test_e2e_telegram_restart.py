"""End to end: the bot process dies while a ``dificil`` robot thinks (issue 12, defect 1).

The real bot (``python -m bot telegram``, polling the Bot API emulator, on the real Redis
at ``REDIS_URL``) is stopped with SIGKILL, or with SIGTERM as every deploy does, right
while the robot of a game is computing its move. The claim of that game's deadline is a
lease: after the kill the deadline is still there, a lease ahead; a new bot process takes
it over when the lease runs out and the robot moves. Before leases the claim removed the
deadline and the game never moved again.

Needs ``node``, ``npm install`` and ``REDIS_URL`` (CI sets them); this run's keys are
deleted afterwards.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
from test_e2e_telegram import ANA, hand, play_turn, press_and_wait, table
from tg_emulator import (
    Emulator,
    Group,
    emulator_missing,
    run_bot,
    store_prefix,
    wait_for,
)

from adapters.storage.redis_store import LEASE_S

REDIS_URL = os.environ.get("REDIS_URL") or None
GROUP = Group(-secrets.randbelow(10**9) - 10**9, "Mesa Reinício")

pytestmark = [
    pytest.mark.skipif(emulator_missing() is not None,
                       reason=f"e2e needs the emulator: {emulator_missing()}"),
    pytest.mark.skipif(REDIS_URL is None, reason="the game must outlive the bot: REDIS_URL"),
]


def _robot_thinking(client: redis.Redis, prefix: str, gid: str, killed_at: float) -> bool:
    """The game's deadline is a lease taken less than 5 s before ``killed_at`` and still
    held (between two robot steps the deadline is only the 0.5 s pace ahead; at Ana's
    turn it is her 90 s timer)."""
    score = client.zscore(f"{prefix}:timers", gid)
    return score is not None and killed_at + LEASE_S - 5 < float(score) <= killed_at + LEASE_S


def _stop_while_the_robot_thinks(emu: Emulator, client: redis.Redis, workdir: Path,
                                  how: signal.Signals) -> tuple[str, str, float, int]:
    """Open a table with a ``dificil`` robot, play Ana's turns until the robot is caught
    thinking (its deadline a fresh lease), then send ``how`` to the bot. Returns the game
    id, the state version just before the signal, its time and the bot's exit code."""
    first: list[subprocess.Popen[bytes]] = []
    with run_bot(emu, workdir, REDIS_URL, started=first, AI_PACE_S="0.5") as log:
        emu.command_in_group(GROUP, ANA, "/novojogo buraco")
        lobby = table(emu, GROUP)
        emu.command_in_group(GROUP, ANA, "/robo dificil")
        lobby = wait_for(lambda: (lambda t: t if "Robô 2 (difícil)" in t.text else None)(
            table(emu, GROUP)), what="the robot's seat")
        press_and_wait(emu, ANA, lobby, "Iniciar", lambda: table(emu, GROUP))
        gid = client.get(f"{store_prefix(emu)}:{{tg:{GROUP.chat_id}}}:chat")
        assert gid is not None
        for _turn in range(20):  # Ana plays; the robot is paced 0.5 s, then thinks 1 s
            wait_for(lambda: play_turn(emu, ANA, GROUP) or None, timeout=60,
                     what="Ana's turn")
            time.sleep(0.5 + 0.6)
            version = client.hget(f"{store_prefix(emu)}:{{{gid}}}:state", "v")
            stopped_at = time.time()
            if _robot_thinking(client, store_prefix(emu), gid, stopped_at):
                first[0].send_signal(how)
                code = first[0].wait(timeout=15)
                break
        else:
            raise AssertionError("never caught the robot thinking")
        assert "bot.service" not in log.read_text()  # no timer step failed
    return gid, str(version), stopped_at, code


def _next_bot_plays_on(emu: Emulator, client: redis.Redis, workdir: Path, gid: str,
                       version: str) -> None:
    """A new bot process brings the robot's turn to its end (Ana may draw), and the game
    goes on under it: Ana plays a turn and the robot answers."""
    key = f"{store_prefix(emu)}:{{{gid}}}:state"
    with run_bot(emu, workdir, REDIS_URL, AI_PACE_S="0.5") as log:
        wait_for(lambda: (lambda h: h if h is not None and h.button("Comprar do monte")
                          else None)(hand(emu, ANA)),
                 timeout=LEASE_S + 30, what="the robot's move")
        assert int(client.hget(key, "v") or 0) > int(version)
        wait_for(lambda: play_turn(emu, ANA, GROUP) or None, timeout=60, what="Ana's turn")
        after_ana = int(client.hget(key, "v") or 0)
        wait_for(lambda: int(client.hget(key, "v") or 0) > after_ana or None, timeout=30,
                 what="the robot's answer")
        emu.command_in_group(GROUP, ANA, "/cancelar")
        wait_for(lambda: any("Jogo cancelado por Ana." in m.text
                             for m in emu.messages(GROUP.chat_id)), what="the closing notice")
        assert "bot.service" not in log.read_text()


def test_a_bot_killed_while_the_robot_thinks_leaves_its_lease_to_the_next_bot(
        emu: Emulator, tmp_path: Path) -> None:
    """SIGKILL: nothing of the robot's move is saved; the claim stays a lease, which the
    next process takes over once it runs out."""
    client = redis.Redis.from_url(REDIS_URL or "", decode_responses=True)
    gid, version, killed_at, code = _stop_while_the_robot_thinks(
        emu, client, tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert client.hget(f"{store_prefix(emu)}:{{{gid}}}:state", "v") == version
    assert _robot_thinking(client, store_prefix(emu), gid, killed_at)
    assert hand(emu, ANA) is not None and hand(emu, ANA).button("Comprar do monte") is None
    _next_bot_plays_on(emu, client, tmp_path, gid, version)
    client.close()


def test_a_bot_sigtermed_while_the_robot_thinks_finishes_the_move_and_exits_cleanly(
        emu: Emulator, tmp_path: Path) -> None:
    """SIGTERM (every deploy): the step in flight is finished and saved, its deadline set,
    then the process exits with 0; the next process plays on."""
    client = redis.Redis.from_url(REDIS_URL or "", decode_responses=True)
    gid, version, stopped_at, code = _stop_while_the_robot_thinks(
        emu, client, tmp_path, signal.SIGTERM)
    assert code == 0
    assert int(client.hget(f"{store_prefix(emu)}:{{{gid}}}:state", "v") or 0) > int(version)
    assert client.zscore(f"{store_prefix(emu)}:timers", gid) is not None
    assert not _robot_thinking(client, store_prefix(emu), gid, stopped_at)
    _next_bot_plays_on(emu, client, tmp_path, gid, version)
    client.close()
