"""The Telegram side of the browser tests: the real bot process (with a scripted deck,
``scripted_bot.py``) and its web server against the Bot API emulator, and what a person
does with chat buttons (lobby, private hand, card toggles, actions).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from tg_emulator import BotMessage, Emulator, Group, Person, free_port, run_bot, wait_for

from engine.cards import Card

HERE = Path(__file__).resolve().parent
SCRIPTED_BOT = HERE / "scripted_bot.py"
WEBAPP = "mesa"  # the Mini App's short name (TELEGRAM_WEBAPP)
HAND_TITLE = "<b>Sua mão"
WEB_SECRET = "browser-tests-web-secret-0123456789"
"""The web server's key (WEB_SECRET): the tests sign links with it too."""


@dataclass
class TelegramBot:
    """A running bot process: its emulator, its web server's address, its log."""

    emu: Emulator
    web: str
    log: Path

    def log_text(self) -> str:
        """The bot's log so far."""
        return self.log.read_text()


@contextlib.contextmanager
def telegram_bot(emu: Emulator, workdir: Path, decks: list[list[Card]],
                 **env: str) -> Iterator[TelegramBot]:
    """``scripted_bot.py telegram`` (``python -m bot telegram`` dealing ``decks`` in
    order) on the embedded store, its web table on a free loopback port with the Mini App
    ``mesa`` registered; yields once the web server answers."""
    port = free_port()
    deck_file = workdir / "decks.json"
    deck_file.write_text(json.dumps([[c.code for c in deck] for deck in decks]))
    web = f"http://127.0.0.1:{port}"
    settings = {"WEB_PORT": str(port), "WEB_LISTEN": "127.0.0.1",
                "WEB_PUBLIC_URL": web + "/", "TELEGRAM_WEBAPP": WEBAPP,
                "WEB_SECRET": WEB_SECRET,
                "SCRIPTED_DECKS": str(deck_file), **env}
    with run_bot(emu, workdir, os.environ.get("REDIS_URL"), argv=[str(SCRIPTED_BOT), "telegram"],
                 **settings) as log:
        wait_for(lambda: reachable(web), timeout=30, what="the web server")
        yield TelegramBot(emu, web, log)


def reachable(url: str) -> bool:
    """Whether ``GET url/`` answers 200."""
    try:
        return httpx.get(url + "/", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def table(emu: Emulator, group: Group) -> BotMessage:
    """The group's table message (the bot's first message in the group)."""
    return wait_for(lambda: (emu.messages(group.chat_id) or [None])[0], what="the table")


def hand(emu: Emulator, person: Person) -> BotMessage | None:
    """The person's hand message in their private chat, if any."""
    found = [m for m in emu.messages(person.user_id) if m.text.startswith(HAND_TITLE)]
    return found[0] if found else None


def changed(emu: Emulator, before: BotMessage | None, fetch: Any, what: str) -> Any:
    """Wait until ``fetch()`` returns a message other than ``before`` (text or keys)."""
    def probe() -> Any:
        now = fetch()
        if now is None:
            return None
        return now if before is None or (now.text, now.keyboard) != (
            before.text, before.keyboard) else None
    return wait_for(probe, timeout=10, what=what)


def game_of(message: BotMessage) -> str:
    """The game id in the Mini App link (``https://t.me/<bot>/mesa?startapp=<game>``)
    under ``message``; AssertionError when there is none."""
    for button in message.buttons():
        found = re.fullmatch(rf"https://t\.me/\w+/{WEBAPP}\?startapp=(\w+)",
                             str(button.get("url", "")))
        if found:
            return found.group(1)
    raise AssertionError(f"no Mini App link under the message: {message.buttons()}")


def label_of(code: str) -> str:
    """How a hand button names the card ``code``: ``10♥`` (compared without the emoji
    selector, the brackets of a selected card and the dot of the card just drawn)."""
    return str(Card.parse(code))


def _plain(text: str) -> str:
    """A card button's label without the emoji selector, the brackets of a selected card
    and the dot of the card just drawn."""
    return text.replace("\ufe0f", "").strip("[]•").strip()


class ChatPlayer:
    """A person playing with the buttons of their private hand message."""

    def __init__(self, emu: Emulator, person: Person) -> None:
        self.emu = emu
        self.person = person
        self.last: BotMessage | None = None

    def hand(self) -> BotMessage:
        """The hand message as it stands (waits for it to exist)."""
        return wait_for(lambda: hand(self.emu, self.person),
                        what=f"{self.person.first_name}'s hand")

    def press(self, label: str | re.Pattern[str], wait: bool = True) -> float:
        """Press the hand button ``label`` once the hand shows it; with ``wait``, wait
        until the hand changes. Returns ``time.monotonic()`` just before the press."""
        before = wait_for(lambda: (lambda h: h if h.button(label) else None)(self.hand()),
                          timeout=10, what=f"{label} on {self.person.first_name}'s hand")
        pressed = time.monotonic()
        self.last = before
        self.emu.press(self.person, before, label)
        if wait:
            changed(self.emu, before, lambda: hand(self.emu, self.person),
                    f"{self.person.first_name}'s hand after {label}")
        return pressed

    def settle(self) -> None:
        """Wait until the hand differs from the one the last press was made on."""
        changed(self.emu, self.last, lambda: hand(self.emu, self.person),
                f"{self.person.first_name}'s hand to change")

    def card_button(self, code: str) -> str:
        """The exact label of the hand's button for card ``code``."""
        wanted = label_of(code)
        for button in self.hand().buttons():
            if _plain(str(button.get("text", ""))) == wanted:
                return str(button["text"])
        raise AssertionError(f"no card {wanted} in {[b['text'] for b in self.hand().buttons()]}")

    def pick(self, codes: list[str]) -> None:
        """Toggle each card of ``codes``."""
        for code in codes:
            self.press(self.card_button(code))

    def cards(self) -> list[str]:
        """The hand's card labels (plain)."""
        return [_plain(str(b["text"])) for b in self.hand().buttons()
                if str(b.get("callback_data", "")).split("|")[2:3] in (["t"], ["u"])]


def start_two(emu: Emulator, group: Group, opener: Person, joiner: Person,
              preset: str) -> BotMessage:
    """``opener`` opens a ``preset`` table in ``group`` with /novojogo, ``joiner`` taps
    "Entrar", ``opener`` taps "Iniciar"; the game's table once it offers "Minha mão"."""
    emu.command_in_group(group, opener, f"/novojogo {preset}")
    emu.press(joiner, table(emu, group), "Entrar")
    lobby = wait_for(lambda: (lambda t: t if joiner.first_name in t.text else None)(
        table(emu, group)), what=f"{joiner.first_name} in the lobby")
    emu.press(opener, lobby, "Iniciar")
    return wait_for(lambda: (lambda t: t if "Minha mão" in [b["text"] for b in t.buttons()]
                             else None)(table(emu, group)), what="the game's table")


def open_private_hand(emu: Emulator, group: Group, person: Person) -> ChatPlayer:
    """``person`` taps "Minha mão" on ``group``'s table and opens the private chat it
    points to; the :class:`ChatPlayer` once the hand is there."""
    before = len(emu.calls())
    emu.press(person, table(emu, group), "Minha mão")
    answer = wait_for(lambda: [c for c in emu.calls()[before:]
                               if c["method"] == "answerCallbackQuery" and c["body"].get("url")],
                      what="the answer with the private link")
    emu.command_in_private(person, "/start " + str(answer[-1]["body"]["url"]).split("start=")[1])
    player = ChatPlayer(emu, person)
    player.hand()
    return player
