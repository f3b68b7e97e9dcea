"""End to end: the real bot process (``python -m bot telegram``, unmodified, polling) against
the Bot API emulator ``telegram-test-api``; simulated people play a whole deal using
only the buttons the bot shows them, in the group and in their private chats.

Needs ``node`` and ``npm install`` in the repository root (``.ci/run`` does it).
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tg_emulator import (
    BotMessage,
    Emulator,
    Group,
    Person,
    emulator_missing,
    run_bot,
    start_emulator,
    wait_for,
)

TOKEN = "4242:E2E-TEST-TOKEN"
GROUP = Group(-4001, "Mesa E2E")
ANA, BIA, CAIO, DUDA = (Person(11, "Ana"), Person(12, "Bia"), Person(13, "Caio"),
                        Person(14, "Duda"))
TABLE_CODES = {"j", "lv", "ai", "ar", "sh", "v", "s", "x", "h", "n"}
DEAL_END = re.compile(r"^Fim da mão 1\.$", re.M)

pytestmark = pytest.mark.skipif(emulator_missing() is not None,
                                reason=f"e2e needs the emulator: {emulator_missing()}")


@pytest.fixture
def emulator() -> Iterator[Emulator]:
    with start_emulator(TOKEN) as emu:
        yield emu


@pytest.fixture
def bot_process(emulator: Emulator, tmp_path: Path) -> Iterator[Path]:
    """``python -m bot telegram`` pointed at the emulator, on the embedded store."""
    with run_bot(emulator, tmp_path) as log:
        yield log


# ---- what people see ----------------------------------------------------------------------
def table(emu: Emulator, group: Group = GROUP) -> BotMessage:
    """The group's table message: the bot's first message in the group."""
    return wait_for(lambda: (emu.messages(group.chat_id) or [None])[0], what="the table")


def hand(emu: Emulator, person: Person) -> BotMessage | None:
    """The person's hand message in their private chat, if any."""
    found = [m for m in emu.messages(person.user_id) if m.text.startswith("<b>Sua mão")]
    return found[0] if found else None


def changed(emu: Emulator, before: BotMessage, fetch: Any) -> Any:
    """Wait until ``fetch()`` returns a message different from ``before``."""
    return wait_for(lambda: (lambda m: m if m and (m.text, m.keyboard) != (
        before.text, before.keyboard) else None)(fetch()), what="the message to change")


def press_and_wait(emu: Emulator, person: Person, message: BotMessage, label: str,
                   fetch: Any) -> Any:
    """Tap ``label`` and wait for ``fetch()`` to show the effect."""
    emu.press(person, message, label)
    return changed(emu, message, fetch)


def open_with_two_robots(emu: Emulator, group: Group, opener: Person,
                         joiner: Person) -> BotMessage:
    """``opener`` opens a Buraco table in ``group`` (``/novojogo buraco``), ``joiner``
    sits by "Entrar", the opener adds two robots and starts it; the started table."""
    emu.command_in_group(group, opener, "/novojogo buraco")
    lobby = table(emu, group)
    lobby = press_and_wait(emu, joiner, lobby, "Entrar", lambda: table(emu, group))
    lobby = press_and_wait(emu, opener, lobby, "Robô", lambda: table(emu, group))
    lobby = press_and_wait(emu, opener, lobby, "Robô", lambda: table(emu, group))
    return press_and_wait(emu, opener, lobby, "Iniciar", lambda: table(emu, group))


def deal_result(emu: Emulator, group: Group = GROUP) -> str | None:
    """The group message announcing the end of deal 1, once it exists."""
    for message in emu.messages(group.chat_id):
        if DEAL_END.search(message.text):
            return message.text
    return None


def play_turn(emu: Emulator, person: Person, group: Group = GROUP) -> bool:
    """If it is ``person``'s turn, draw from the stock and discard the first card, using
    the buttons shown. Returns True when a turn was played."""
    current = hand(emu, person)
    if current is None or current.button("Comprar do monte") is None:
        return False
    current = press_and_wait(emu, person, current, "Comprar do monte",
                             lambda: hand(emu, person))
    first_card = current.keyboard[0][0]["text"]
    current = press_and_wait(emu, person, current, first_card, lambda: hand(emu, person))
    assert "Selecionadas:" in current.text
    emu.press(person, current, "Descartar")
    wait_for(lambda: (lambda h: h is not None and "Descartar" not in
                      [b["text"] for b in h.buttons()])(hand(emu, person))
             or deal_result(emu, group),
             what=f"{person.first_name}'s discard")
    return True


def play_deal(emu: Emulator, people: list[Person], limit_s: float = 240,
              group: Group = GROUP) -> str:
    """Let the people play (the AI seats play by themselves) until deal 1 ends."""
    deadline = time.monotonic() + limit_s
    while (result := deal_result(emu, group)) is None:
        assert time.monotonic() < deadline, "the deal did not end in time"
        if not any(play_turn(emu, p, group) for p in people):
            time.sleep(0.05)
    return result


# ---- checks -------------------------------------------------------------------------------
def assert_no_hand_card_in_group(emu: Emulator, people: list[Person],
                                 group: Group = GROUP) -> None:
    """Group messages never show a hand: no hand title, no card-toggle buttons, and no
    person's hand (as its cards in order) appears in any group text ever sent, but for
    a deal's result, which lists the cards left in every hand (issue 30: the deal is
    over, RULES C14)."""
    group_texts = [text for text in emu.group_texts_ever(group.chat_id)
                   if not DEAL_END.search(text)]
    assert not any("Sua mão" in text for text in group_texts)
    for call in emu.calls():
        body = call["body"]
        if str(body.get("chat_id")) != str(group.chat_id):
            continue
        for row in (body.get("reply_markup") or {}).get("inline_keyboard", []):
            for b in row:
                data = b.get("callback_data")
                assert data is None or data.split("|")[2] in TABLE_CODES, b
    dm_hands = [c["body"] for c in emu.calls()
                if c["method"] in ("sendMessage", "editMessageText")
                and int(c["body"].get("chat_id", 0)) in {p.user_id for p in people}
                and str(c["body"].get("text", "")).startswith("<b>Sua mão")]
    assert dm_hands, "no hand was ever sent"
    for body in dm_hands:
        cards = [b["text"] for row in body["reply_markup"]["inline_keyboard"] for b in row
                 if b.get("callback_data", "").split("|")[2] == "t"]
        shown = " ".join(c.strip("[]") for c in cards)
        assert all(shown not in text for text in group_texts)


def group_edit_times(emu: Emulator, group: Group = GROUP) -> list[float]:
    """When each edit of a group message reached the server (seconds, sorted)."""
    return sorted(c["time"] for c in emu.calls() if c["method"] == "editMessageText"
                  and str(c["body"].get("chat_id")) == str(group.chat_id))


def play_edit_times(emu: Emulator, group: Group = GROUP) -> list[float]:
    """:func:`group_edit_times` from the start on: the lobby's edits go out at once
    (issue 30), those of play at least 3 s apart."""
    lobby = [c["time"] for c in emu.calls() if c["method"] == "editMessageText"
             and str(c["body"].get("chat_id")) == str(group.chat_id)
             and "\nMesa aberta por " in str(c["body"].get("text", ""))]
    return [t for t in group_edit_times(emu, group) if not lobby or t > max(lobby)]


def most_in_a_minute(times: list[float]) -> int:
    """The most events in any 60 s window."""
    return max((sum(1 for t in times if s <= t < s + 60) for s in times), default=0)


def side_totals(result: str) -> list[int]:
    """``= N`` of each side's line in a deal result."""
    return [int(n) for n in re.findall(r"= (-?\d+)$", result, re.M)]


# ---- the tests -----------------------------------------------------------------------------
def test_people_and_robots_play_a_whole_deal_with_buttons(emulator: Emulator,
                                                          bot_process: Path) -> None:
    emu = emulator
    emu.command_in_group(GROUP, ANA, "/novojogo buraco")
    lobby = table(emu)
    assert lobby.text.startswith("<b>Buraco · até 1500 pontos</b>\nMesa aberta por Ana.")
    # Bia joins by the "Entrar" button; the answer opens her private chat, as a client would.
    lobby = press_and_wait(emu, BIA, lobby, "Entrar", lambda: table(emu))
    assert "Lugar 2: Bia · lado 2" in lobby.text
    answer = wait_for(lambda: [c for c in emu.calls() if c["method"] == "answerCallbackQuery"
                               and c["body"].get("url")], what="the answer with a link")
    payload = str(answer[-1]["body"]["url"]).split("start=")[1]
    emu.command_in_private(BIA, f"/start {payload}")
    # Caio joins with the deep link button, then leaves with "Sair".
    emu.press(CAIO, lobby, "Entrar e abrir o privado")
    lobby = changed(emu, lobby, lambda: table(emu))
    assert "Lugar 3: Caio · lado 3" in lobby.text
    lobby = press_and_wait(emu, CAIO, lobby, "Sair", lambda: table(emu))
    assert "Caio" not in lobby.text
    lobby = press_and_wait(emu, ANA, lobby, "Robô", lambda: table(emu))
    lobby = press_and_wait(emu, ANA, lobby, "Robô", lambda: table(emu))
    assert "Lugar 4: Robô 4 (normal) · lado 2" in lobby.text
    started = press_and_wait(emu, ANA, lobby, "Iniciar", lambda: table(emu))
    assert [b["text"] for b in started.buttons()] == ["Minha mão"]
    assert "Dupla 1 (Ana, Robô 3): 0 pts" in started.text

    result = play_deal(emu, [ANA, BIA])
    totals = side_totals(result)
    assert len(totals) == 2
    assert f"Placar: {totals[0]} × {totals[1]}" in result
    assert "\n  Na mão de " in result  # the leftovers, the deal being over (issue 30)
    final = wait_for(lambda: (lambda t: t if "Próxima mão" in [b["text"] for b in t.buttons()]
                              else None)(table(emu)), what="the table between deals")
    assert f"Dupla 1 (Ana, Robô 3): {totals[0]} pts" in final.text
    assert f"Dupla 2 (Bia, Robô 4): {totals[1]} pts" in final.text
    assert_no_hand_card_in_group(emu, [ANA, BIA])
    wait_for(lambda: not emu.unanswered_callbacks() or None, timeout=5,
             what="every callback query to be answered")
    assert emu.unanswered_callbacks() == set()
    edits = group_edit_times(emu)
    assert most_in_a_minute(edits) <= 20
    assert min(b - a for a, b in itertools.pairwise(play_edit_times(emu))) >= 2.5
    # Ana closes the table: it keeps its last text, says why it closed and loses its buttons.
    before = len(emu.calls())
    emu.command_in_group(GROUP, ANA, "/cancelar")
    wait_for(lambda: any("Jogo cancelado por Ana." in m.text
                         for m in emu.messages(GROUP.chat_id)), what="the closing notice")
    closing = wait_for(lambda: [c["body"] for c in emu.calls()[before:]
                                if c["method"] == "editMessageText"
                                and str(c["body"].get("chat_id")) == str(GROUP.chat_id)],
                       what="the table's last edit")
    assert closing[-1]["text"] == final.text + "\nJogo cancelado por Ana."
    assert "reply_markup" not in closing[-1]
    log = bot_process.read_text()
    # the emulator lacks setMyCommands; the creator's /cancelar asks no getChatMember
    assert "WARNING adapters.telegram.calls: setMyCommands failed" in log
    assert "getChatMember" not in log
    assert "Traceback" not in log and TOKEN not in log
