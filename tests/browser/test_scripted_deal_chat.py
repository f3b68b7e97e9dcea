"""The harness of the browser tests, without a browser: the real bot process dealing the
known deck (``scripted_bot.py telegram``) against the Telegram emulator, and the scripted
deal of :mod:`deal_script` played by both people with the buttons of their private
hands, ends with the engine's exact score in the group's deal result (220 to -165)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import deal_script as script
import pytest
from tg_emulator import Group, Person, emulator_missing, run_bot, start_emulator, wait_for
from tg_side import SCRIPTED_BOT, ChatPlayer, label_of, open_private_hand, start_two

pytestmark = pytest.mark.skipif(emulator_missing() is not None,
                                reason=f"needs the emulator: {emulator_missing()}")

TOKEN = "4545:SCRIPTED-DEAL-TOKEN"
GROUP = Group(-6201, "Mesa Roteiro")
ANA, BIA = Person(51, "Ana"), Person(52, "Bia")


def turn(player: ChatPlayer, *moves: tuple[str, list[str]]) -> None:
    """Draw, then for each ``(button, cards)`` pick the cards and press the button."""
    player.press("Comprar do monte")
    for label, cards in moves:
        player.pick(cards)
        player.press(label, wait=label != "Descartar")


def test_the_scripted_deal_through_chat_buttons_scores_as_the_engine(tmp_path: Path) -> None:
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps([[c.code for c in script.deck()]]))
    with start_emulator(TOKEN) as emu, run_bot(emu, tmp_path, argv=[str(SCRIPTED_BOT), "telegram"],
                                               SCRIPTED_DECKS=str(decks)) as log:
        start_two(emu, GROUP, ANA, BIA, script.PRESET)
        ana, bia = open_private_hand(emu, GROUP, ANA), open_private_hand(emu, GROUP, BIA)
        assert sorted(ana.cards()) == sorted(label_of(c) for c in script.ANA_HAND)
        assert sorted(bia.cards()) == sorted(label_of(c) for c in script.BIA_HAND)

        turn(ana, ("Baixar", ["4h", "5h", "6h", "7h"]), ("Baixar", ["7c", "7d", "7s"]),
             ("Descartar", ["Kc"]))
        turn(bia, ("Baixar", ["9s", "10s", "Js"]), ("Descartar", ["4c"]))
        turn(ana, ("+1", ["8h"]), ("Baixar", ["9d", "10d", "Jd"]), ("Descartar", ["Qc"]))
        wait_for(lambda: bia.hand().button("Pegar o lixo") or None, what="Bia's turn")
        bia.press("Pegar o lixo")
        bia.pick(["3d"])
        bia.press("Descartar", wait=False)
        wait_for(lambda: ana.hand().button("Comprar do monte") or None, what="Ana's turn")
        assert sorted(ana.cards()) == sorted(label_of(c) for c in script.ANA_MORTO)
        turn(ana, ("Baixar", ["3s", "4s", "5s", "6s"]), ("Baixar", ["8c", "9c", "10c"]),
             ("Baixar", ["Jh", "Qh", "Kh", "Ah"]), ("Descartar", ["5d"]))

        result = wait_for(lambda: next((m.text for m in emu.messages(GROUP.chat_id)
                                        if re.search(r"^Fim da mão 1\.$", m.text, re.M)), None),
                          what="the deal's result")
        totals = [int(n) for n in re.findall(r"= (-?\d+)$", result, re.M)]
        assert totals == script.replay().totals == [220, -165]
        assert "Traceback" not in log.read_text()
