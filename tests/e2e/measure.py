"""Measure the Telegram bot in a scripted four-person game (no AI seats) against the Bot API
emulator: Bot API calls per action and the most group edits in any minute.

Run from the repository root (after ``npm install``)::

    .venv/bin/python tests/e2e/measure.py

Four people open a table, join with the "Entrar" button, start, and play deal 1 to its
score with the buttons only (draw from the stock, select the first card, discard). The
figures go to docs/telegram.md.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import itertools

from test_e2e_telegram import (
    ANA,
    BIA,
    CAIO,
    DUDA,
    GROUP,
    TOKEN,
    group_edit_times,
    most_in_a_minute,
    play_deal,
    press_and_wait,
    table,
)
from tg_emulator import run_bot, start_emulator

SETUP = ("getMe", "setMyCommands", "deleteWebhook", "getUpdates")


def main() -> None:
    """Play the scripted game and print the figures."""
    people = [ANA, BIA, CAIO, DUDA]
    with (tempfile.TemporaryDirectory() as workdir, start_emulator(TOKEN) as emu,
          run_bot(emu, Path(workdir))):
        began = time.monotonic()
        emu.command_in_group(GROUP, ANA, "/novojogo buraco")
        lobby = table(emu)
        for person in people[1:]:
            emu.command_in_private(person, "/start")
            lobby = press_and_wait(emu, person, lobby, "Entrar", lambda: table(emu))
        press_and_wait(emu, ANA, lobby, "Iniciar", lambda: table(emu))
        play_deal(emu, people, limit_s=900)
        time.sleep(3.5)  # the last coalesced edit
        elapsed = time.monotonic() - began
        calls = [c for c in emu.calls() if c["method"] not in SETUP]
        history = emu.history()
        presses = sum(1 for h in history if h.get("callbackQuery"))
        commands = sum(1 for h in history if h.get("message") and "chat" in h["message"])
        edits = group_edit_times(emu)
        gaps = [b - a for a, b in itertools.pairwise(edits)]
        by_method = Counter(c["method"] for c in calls)
        print(f"game: {elapsed:.0f} s, {presses} button presses + {commands} commands")
        print(f"Bot API calls: {len(calls)} = {len(calls) / (presses + commands):.2f} per action")
        for method, count in by_method.most_common():
            print(f"  {method}: {count} ({count / (presses + commands):.2f} per action)")
        for where, test in (("group", lambda c: c < 0), ("private chats", lambda c: c > 0)):
            mine = Counter(c["method"] for c in calls
                           if "chat_id" in c["body"] and test(int(c["body"]["chat_id"])))
            print(f"  in {where}: {dict(mine)}")
        print(f"group edits: {len(edits)}, most in any minute: {most_in_a_minute(edits)}, "
              f"smallest gap: {min(gaps):.2f} s")
        print(f"unanswered callback queries: {sorted(emu.unanswered_callbacks())}")


if __name__ == "__main__":
    main()
