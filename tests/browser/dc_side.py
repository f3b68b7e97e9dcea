"""The Discord side of the browser tests: the real bot process (with a scripted deck,
``scripted_bot.py``) and its web server against the fake Discord (``tests/discord``), the
game two people open and start there, and what a person does with their ephemeral hand's
components (:class:`DiscordSide`, a :class:`deal_flow.ChatSide`).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dc_play
import deal_script as script
from bot_run import run_bot, wait_for
from dc_play import answered, card_options, hand, pick, press, title, until_changed
from fake_discord import FakeDiscord
from fake_model import Person
from tg_emulator import free_port
from tg_side import SCRIPTED_BOT, WEB_SECRET, reachable


def table(fake: FakeDiscord) -> Any:
    """The channel's table message of the buraco_morto game (waits for it)."""
    return wait_for(lambda: next((m for m in fake.channel_messages()
                                  if title(m).startswith("Buraco com Morto · ")), None),
                    what="the table")


def my_hand(fake: FakeDiscord, person: Person) -> Any:
    """``person`` presses "Minha mão" on the table; their new ephemeral hand."""
    return dc_play.my_hand(fake, person, on=table(fake))


def hand_with(fake: FakeDiscord, person: Person, label: str) -> Any:
    """``person``'s hand once it offers ``label`` (after 5 s without it they press "Minha
    mão" again, as a person whose hand could not be updated does)."""
    try:
        return wait_for(lambda: (lambda h: h if h is not None and h.button(label) else None)(
            hand(fake, person)), timeout=5, what=f"{label} on {person.name}'s hand")
    except AssertionError:
        shown = my_hand(fake, person)
        assert shown.button(label) is not None, shown.labels()
        return shown


def pick_card(fake: FakeDiscord, person: Person, code: str) -> Any:
    """``person`` toggles card ``code`` in their hand's card select."""
    current = hand(fake, person)
    assert current is not None
    face = str(script.Card.parse(code))
    labels = [str(o["label"]).replace("\ufe0f", "") for _s, o in card_options(current)]
    pick(fake, person, current, labels.index(face))
    return until_changed(fake, person, current)


@contextlib.contextmanager
def discord_web_bot(fake: FakeDiscord, workdir: Path, redis: str,
                    **env: str) -> Iterator[str]:
    """``scripted_bot.py discord`` (``python -m bot discord`` dealing
    :func:`deal_script.deck`) with its web server on a free loopback port; yields that
    server's address (``http://127.0.0.1:<port>``) once it answers."""
    base = f"http://127.0.0.1:{free_port()}"
    decks = workdir / "decks.json"
    decks.write_text(json.dumps([[c.code for c in script.deck()]]))
    with run_bot(fake, workdir, redis, argv=[str(SCRIPTED_BOT), "discord"],
                 WEB_PORT=base.rsplit(":", 1)[1], WEB_LISTEN="127.0.0.1",
                 WEB_PUBLIC_URL=base + "/", WEB_SECRET=WEB_SECRET, SCRIPTED_DECKS=str(decks),
                 **env):
        wait_for(lambda: reachable(base), timeout=30, what="the web server")
        yield base


def start_two(fake: FakeDiscord, opener: Person, joiner: Person) -> None:
    """``opener`` opens the buraco_morto game (``/novojogo``), ``joiner`` sits, the opener
    starts it; returns once the table offers "Minha mão"."""
    answered(fake, fake.slash(opener, "novojogo", opcoes=script.PRESET))
    press(fake, joiner, table(fake), "Entrar")
    press(fake, opener, table(fake), "Iniciar")
    wait_for(lambda: "Minha mão" in table(fake).labels() or None, what="the game")


class DiscordSide:
    """A person playing with their ephemeral hand's components
    (:class:`deal_flow.ChatSide`); each press waits for its answer."""

    def __init__(self, fake: FakeDiscord, person: Person) -> None:
        self.fake, self.person = fake, person

    def press(self, label: str, wait: bool = True) -> float:
        shown = hand_with(self.fake, self.person, label)
        started = time.monotonic()
        press(self.fake, self.person, shown, label)
        return started

    def pick(self, codes: list[str]) -> None:
        for code in codes:
            pick_card(self.fake, self.person, code)

    def settle(self) -> None:
        """Nothing: each press waited for its answer."""
