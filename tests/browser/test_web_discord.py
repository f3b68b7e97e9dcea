"""The web table in a real browser, opened from Discord by its signed link (issue 27).

The real bot process (``python -m bot discord`` with its web server, dealing the known
deck of :mod:`deal_script`) against the fake Discord (``tests/discord``). Ana's ephemeral
hand carries "Abrir a mesa", a link holding a one-use signed token; she opens it in
headless Chromium and plays her first turn there by taps, Bia plays hers with the
hand's components: the page shows Bia's moves within 1 s, the channel's table follows
Ana's, and the link opens once. Needs the Redis at ``REDIS_URL`` (as the Discord
end-to-end tests).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromium
import deal_script as script
import pytest
import web_page as web
from bot_run import redis_url, synced_fake, wait_for
from dc_play import hand, press
from dc_side import discord_web_bot, hand_with, my_hand, pick_card, start_two, table
from fake_discord import FakeDiscord
from fake_model import Person, snowflake
from secrecy import names_a_card

TOKEN = "browser-discord-bot-token"
REDIS = redis_url()
SEEN_WITHIN_S = 1.0
USED = "Este link já foi usado: abra a mesa de novo pelo botão do jogo (/mao)."

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REDIS is None, reason="needs the Redis at REDIS_URL")]


@pytest.fixture
def people() -> list[Person]:
    """Ana and Bia with fresh ids."""
    return [Person(snowflake(), name) for name in ("Ana", "Bia")]


@pytest.fixture
def fake(people: list[Person], tmp_path: Path) -> Iterator[FakeDiscord]:
    """The fake Discord with the bot's commands synced; the run's keys deleted after."""
    assert REDIS is not None
    with synced_fake(TOKEN, people, tmp_path, REDIS) as server:
        yield server


def link_of(message: Any) -> str:
    """The URL of the hand's "Abrir a mesa" link button."""
    for button in message.buttons():
        if button.get("url") and "#t=" in str(button["url"]):
            return str(button["url"])
    raise AssertionError(f"no web table link under the hand: {message.buttons()}")


def test_a_discord_hand_link_opens_the_web_table_once_and_both_play_a_turn(
        fake: FakeDiscord, people: list[Person], tmp_path: Path, new_page: Any) -> None:
    ana, bia = people
    assert REDIS is not None
    with discord_web_bot(fake, tmp_path, REDIS):
        start_two(fake, ana, bia)
        link = link_of(my_hand(fake, ana))
        my_hand(fake, bia)

        page, wire = new_page(viewport=chromium.PHONE)
        page.goto(link)
        web.wait_live(page)
        assert "#t=" not in page.url  # the token leaves the address bar once exchanged
        assert sorted(web.hand_codes(page)) == sorted(script.ANA_HAND)
        web.action(page, "c")
        web.tap_cards(page, ["Kc"])
        web.action(page, "d")
        wait_for(lambda: "Monte: 59" in table(fake).text() or None, timeout=15,
                 what="the channel's table after Ana's web turn")

        delays = []
        turn = hand_with(fake, bia, "Comprar do monte")
        start = time.monotonic()
        press(fake, bia, turn, "Comprar do monte")
        delays.append(web.seen_after(
            page, start, "() => document.getElementById('stock').dataset.count === '58'"))
        pick_card(fake, bia, "4c")
        start = time.monotonic()
        press(fake, bia, hand(fake, bia), "Descartar")
        delays.append(web.seen_after(
            page, start, "() => { const c = document.querySelectorAll('#pile .card');"
                         " return c.length === 2 && c[1].dataset.code === '4c'; }"))
        print("Bia's Discord moves on Ana's page after (s):", [round(d, 3) for d in delays])
        assert max(delays) <= SEEN_WITHIN_S

        again, again_wire = new_page()
        again.goto(link)
        again.wait_for_selector("body[data-state=refused]", timeout=10_000)
        assert again.inner_text("#message").strip() == USED
        assert not again_wire.frames
        for code in set(script.BIA_HAND) - {"4c"}:  # Bia's hand never reached Ana's page
            assert not any(names_a_card(text, code) for text in wire.texts()), code
