# ruff: noqa: F811  (pytest fixtures imported from test_e2e_discord)
"""A shard away from the gateway and a restarted process (issue 36), on the fake Discord
with the real bot process: the fake keeps the interactions sent while the bot's socket
is away in its session and replays them on RESUME, as Discord does; one whose 3 s
passed meanwhile is refused by Discord (404 10062) and the person is shown "This
interaction failed". Checked with "Robô" presses in a lobby (each applied adds one
robot, so the table counts the presses applied):

- away 1 s: the press is replayed on RESUME, answered within Discord's 3 s, applied once;
- away 4 s: the replayed press is past its 3 s; the bot does not apply what the person
  was told failed, and the person's next press is answered and applied once;
- the process SIGKILLed and started again: the press sent while it was down never
  reaches the new session (it identifies anew); the next press works, applied once.

Marked ``reliability`` (run alone: ``-m reliability``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from bot_run import run_bot, wait_for
from dc_play import answered, press, table
from fake_discord import FakeDiscord
from fake_model import Person
from test_e2e_discord import REDIS, fake, people, pytestmark  # noqa: F401

pytestmark = [pytestmark, pytest.mark.reliability]


def robots(fake: FakeDiscord) -> int:
    """Robot seats the lobby table lists now."""
    return len(re.findall(r"Robô \d", table(fake).text()))


def robots_become(fake: FakeDiscord, count: int) -> None:
    """Wait until the table lists ``count`` robots (AssertionError with the table)."""
    try:
        wait_for(lambda: robots(fake) == count or None, timeout=15,
                 what=f"{count} robots at the table")
    except AssertionError as error:
        raise AssertionError(f"{error}\n{table(fake).text()}") from None


def test_presses_while_the_gateway_is_away_are_resumed_or_refused_and_never_doubled(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    assert REDIS is not None
    ana = people[0]
    started: list[Any] = []
    with run_bot(fake, tmp_path, REDIS, started=started) as log:
        assert answered(fake, fake.slash(ana, "novojogo", variante="buraco")).answer_type == 4
        lobby = table(fake)
        assert robots(fake) == 0
        # away 1 s: replayed on RESUME, answered in time, applied once
        assert fake.hold_gateway(4000)
        sent = fake.press_label(ana, lobby, "Robô")
        time.sleep(1.0)
        fake.release_gateway()
        done = answered(fake, sent)
        assert done.latency is not None and done.latency < 3.0, done.latency
        robots_become(fake, 1)
        [session] = fake.gateway.sessions.values()
        assert (session.resumes, fake.gateway.identifies) == (1, 1)
        # away 4 s: past Discord's 3 s; not applied, and the next press counts once
        assert fake.hold_gateway(4000)
        late = fake.press_label(ana, table(fake), "Robô")
        time.sleep(4.0)
        fake.release_gateway()
        wait_for(lambda: session.resumes == 2 or None, what="the second RESUME")
        time.sleep(1.5)  # the replayed press reached the bot and was refused by Discord
        assert fake.interaction(late).answer_type is None  # "This interaction failed"
        assert robots(fake) == 1
        again = press(fake, ana, table(fake), "Robô")
        assert again.latency is not None and again.latency < 3.0
        robots_become(fake, 2)
        assert "too late to answer: not applied" in log.read_text()
        started[0].kill()  # a crash: SIGKILL
        started[0].wait()
    # a press now waits in the old session, which the next process never resumes
    before = table(fake)
    missed = fake.press_label(ana, before, "Robô")
    with run_bot(fake, tmp_path, REDIS, "bot2.log") as log2:
        time.sleep(3.5)
        assert fake.interaction(missed).answer_type is None
        assert robots(fake) == 2
        after = press(fake, ana, table(fake), "Robô")
        assert after.latency is not None and after.latency < 3.0
        robots_become(fake, 3)
        assert fake.gateway.identifies == 2
        for text in (log.read_text(), log2.read_text()):
            assert "Traceback" not in text
    assert fake.unknown_routes() == []
