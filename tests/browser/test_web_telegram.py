"""The web table in a real browser, opened as a Telegram Mini App (issue 27 "Done when").

The real bot process (``python -m bot telegram`` with its web server, dealing the known
deck of :mod:`deal_script`) plays against the Bot API emulator. Ana plays only in
headless Chromium, by taps, with launch data signed as Telegram signs it; Bia plays with
the buttons of her private hand. The page shows each of Bia's moves within 1 s, a refused
move shows its reason, and the page and the chat table end with the engine's score of the
deal. Every WebSocket frame and HTTP body sent to each browser is read: no card of another
seat's hand, of the stock or of a morto.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import chromium
import deal_flow
import deal_script as script
import pytest
import web_page as web
from secrecy import assert_secret
from tg_emulator import Emulator, Group, Person, emulator_missing, start_emulator, wait_for
from tg_side import TelegramBot, game_of, open_private_hand, start_two, table, telegram_bot

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(emulator_missing() is not None,
                                 reason=f"needs the emulator: {emulator_missing()}")]

TOKEN = "4343:WEB-BROWSER-TEST-TOKEN"
ANA, BIA, CAIO = Person(31, "Ana"), Person(32, "Bia"), Person(33, "Caio")
SEEN_WITHIN_S = 1.0


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TelegramBot]:
    """One emulator and one bot process for the module; every deal it deals is the
    scripted deck (each test plays in its own group)."""
    workdir = tmp_path_factory.mktemp("tg-web")
    with start_emulator(TOKEN) as emu, telegram_bot(emu, workdir,
                                                    [script.deck()] * 4) as running:
        yield running
        log = running.log_text()
        assert "Traceback" not in log, log[-4000:]
        assert TOKEN.split(":")[1] not in log


def start_game(emu: Emulator, group: Group) -> str:
    """Ana opens a buraco_morto table in ``group``, Bia joins, Ana starts; returns the game
    id read from the table's Mini App link."""
    return game_of(start_two(emu, group, ANA, BIA, script.PRESET))


def open_page(bot: TelegramBot, new_page: Any, person: Person, game: str,
              viewport: dict[str, int], start_param: bool = True) -> tuple[Any, Any]:
    """``person``'s web table of ``game`` opened as Telegram opens the Mini App."""
    page, wire = new_page(viewport=viewport)
    page.goto(web.telegram_url(bot.web, TOKEN, person.as_user(), game,
                               start_param=start_param))
    web.wait_live(page)
    return page, wire


# ---- the tests -----------------------------------------------------------------------------
def test_a_complete_deal_browser_taps_against_chat_buttons_ends_with_the_same_score(
        bot: TelegramBot, new_page: Any) -> None:
    emu, group, replay = bot.emu, Group(-6101, "Mesa Web"), script.replay()
    game = start_game(emu, group)
    bia = open_private_hand(emu, group, BIA)
    assert sorted(bia.cards()) == sorted(str(script.Card.parse(c)) for c in script.BIA_HAND)
    ana_page, ana_wire = open_page(bot, new_page, ANA, game, chromium.PHONE)
    bia_page, bia_wire = open_page(bot, new_page, BIA, game, chromium.DESKTOP,
                                   start_param=False)  # her hand's web_app button
    assert sorted(web.hand_codes(ana_page)) == sorted(script.ANA_HAND)
    assert sorted(web.hand_codes(bia_page)) == sorted(script.BIA_HAND)
    watch = deal_flow.Watch(ana_page)
    deal_flow.play(ana_page, bia, watch, shots=(ana_page, bia_page))

    # the deal's score: the engine's, on both pages and in the chat
    ana_total, bia_total = replay.totals
    assert (ana_total, bia_total) == (220, -165)
    for page in (ana_page, bia_page):
        deal_flow.wait_score(page, replay.totals)
    final = wait_for(lambda: (lambda t: t if "Próxima mão" in [b["text"] for b in t.buttons()]
                              else None)(table(emu, group)), timeout=70,
                     what="the chat table between deals")
    assert f"Ana: {ana_total} pts" in final.text and f"Bia: {bia_total} pts" in final.text
    watch.assert_within(SEEN_WITHIN_S)
    assert_secret(ana_wire, 0, replay)
    assert_secret(bia_wire, 1, replay)


def test_the_deal_at_360x640_keeps_actions_in_view_and_the_hand_and_counts_of_the_chat(
        bot: TelegramBot, new_page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34 "Done when", through the real bot: after each of Ana's taps on the phone
    page, every action in view, no overflow, tap targets of 44 px, her page's hand equal to
    her private chat hand, and each seat's count equal to the group table's."""
    emu, group = bot.emu, Group(-6104, "Mesa Celular")
    ana, bia_person = Person(41, "Ana"), Person(42, "Bia")  # private chats of their own
    game = game_of(start_two(emu, group, ana, bia_person, script.PRESET))
    bia = open_private_hand(emu, group, bia_person)
    ana_chat = open_private_hand(emu, group, ana)
    page, _wire = open_page(bot, new_page, ana, game, chromium.PHONE)
    tap = web.tap
    checks = [0]
    seen: list[Any] = []

    def as_the_chat() -> bool | None:
        shown = sorted(str(script.Card.parse(c)) for c in web.hand_codes(page))
        seen[:] = [shown, sorted(ana_chat.cards()), table(emu, group).text[-300:],
                   page.inner_text("#hand-title")]
        if shown != sorted(ana_chat.cards()):
            return None
        counts = re.search(r"Cartas na mão: Ana (\d+) · Bia (\d+)", table(emu, group).text)
        title = re.search(r"\((\d+) cartas?\)", page.inner_text("#hand-title"))
        bia_seat = page.get_attribute('.seat[data-seat="1"]', "data-cards")
        if counts is None or title is None or bia_seat is None:
            return None
        return (int(title.group(1)), int(bia_seat)) == (int(counts.group(1)),
                                                        int(counts.group(2))) or None

    def tap_and_check(p: Any, selector: str) -> None:
        tap(p, selector)
        web.assert_fits(page)
        if web.hand_codes(page):  # the deal goes on: the chat shows the same hand
            try:
                wait_for(as_the_chat, timeout=10, what="the hand and counts as the chat's")
            except AssertionError as err:
                raise AssertionError(f"{err}: {seen}") from None
        checks[0] += 1
    monkeypatch.setattr(web, "tap", tap_and_check)
    deal_flow.play(page, bia, deal_flow.Watch(page))
    assert checks[0] >= 25
    page.wait_for_selector("body[data-status=between]", timeout=70_000)
    web.assert_fits(page)
    lines = [t.strip() for t in page.eval_on_selector_all("#result p", "p => p.map(x => "
                                                          "x.textContent)")]
    said = wait_for(lambda: next((t for t in emu.group_texts_ever(group.chat_id)
                                  if t.startswith("Fim da mão 1.")), None),
                    what="the deal's result in the group")
    # the chat's text, but for the emoji selector Telegram's adapter adds after ♥ ♦
    assert lines == [t.strip().replace("\ufe0f", "") for t in said.split("\n")]
