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

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromium
import dc_play
import deal_script as script
import pytest
import web_page as web
from bot_run import redis_url, run_bot, synced_fake, wait_for
from dc_play import answered, card_options, hand, pick, press, title, until_changed
from fake_discord import FakeDiscord
from fake_model import Person, snowflake
from secrecy import names_a_card
from tg_emulator import free_port
from tg_side import SCRIPTED_BOT, WEB_SECRET, reachable

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


def table(fake: FakeDiscord) -> Any:
    """The channel's table message of the buraco_morto game (waits for it)."""
    return wait_for(lambda: next((m for m in fake.channel_messages()
                                  if title(m).startswith("Buraco com Morto · ")), None),
                    what="the table")


def link_of(message: Any) -> str:
    """The URL of the hand's "Abrir a mesa" link button."""
    for button in message.buttons():
        if button.get("url") and "#t=" in str(button["url"]):
            return str(button["url"])
    raise AssertionError(f"no web table link under the hand: {message.buttons()}")


def my_hand(fake: FakeDiscord, person: Person) -> Any:
    """``person`` presses "Minha mão" on the table; their new ephemeral hand."""
    return dc_play.my_hand(fake, person, on=table(fake))


def pick_card(fake: FakeDiscord, person: Person, code: str) -> Any:
    """``person`` toggles card ``code`` in their hand's card select."""
    current = hand(fake, person)
    assert current is not None
    face = str(script.Card.parse(code))
    labels = [str(o["label"]).replace("\ufe0f", "") for _s, o in card_options(current)]
    pick(fake, person, current, labels.index(face))
    return until_changed(fake, person, current)


def _hand_with(fake: FakeDiscord, person: Person, label: str) -> Any:
    """``person``'s hand once it offers ``label`` (after 5 s without it they press "Minha
    mão" again, as a person whose hand could not be updated does)."""
    try:
        return wait_for(lambda: (lambda h: h if h is not None and h.button(label) else None)(
            hand(fake, person)), timeout=5, what=f"{label} on {person.name}'s hand")
    except AssertionError:
        shown = my_hand(fake, person)
        assert shown.button(label) is not None, shown.labels()
        return shown


def test_a_discord_hand_link_opens_the_web_table_once_and_both_play_a_turn(
        fake: FakeDiscord, people: list[Person], tmp_path: Path, new_page: Any) -> None:
    ana, bia = people
    assert REDIS is not None
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps([[c.code for c in script.deck()]]))
    with run_bot(fake, tmp_path, REDIS, argv=[str(SCRIPTED_BOT), "discord"],
                 WEB_PORT=str(port), WEB_LISTEN="127.0.0.1", WEB_PUBLIC_URL=base + "/",
                 WEB_SECRET=WEB_SECRET, SCRIPTED_DECKS=str(decks)):
        wait_for(lambda: reachable(base), timeout=30, what="the web server")
        answered(fake, fake.slash(ana, "novojogo", opcoes=script.PRESET))
        press(fake, bia, table(fake), "Entrar")
        press(fake, ana, table(fake), "Iniciar")
        wait_for(lambda: "Minha mão" in table(fake).labels() or None, what="the game")
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
        turn = _hand_with(fake, bia, "Comprar do monte")
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
