"""The web table page in headless Chromium against the web server in this process
(:mod:`inproc`: the real service and server on an embedded store, no chat platform):
the scripted deal played by Ana's taps against Bia's hand buttons, with the page's score,
the 1 s rule and the secrecy of every frame and body each page received."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import chromium
import deal_flow
import deal_script as script
import pytest
import tg_initdata
import web_page as web
from inproc import BOT_TOKEN, SECRET, InProcess, ServicePlayer, chat, open_page, tg_user
from secrecy import assert_secret, names_a_card

from adapters.web import auth
from bot.effects import PlayerRef

pytestmark = pytest.mark.browser

ANA = PlayerRef(platform="tg", user_id="41", name="Ana")
BIA = PlayerRef(platform="tg", user_id="42", name="Bia")
CAIO = PlayerRef(platform="tg", user_id="43", name="Caio")
SEEN_WITHIN_S = 1.0
STALE_TAP = "Esse botão é antigo: use a mão mais recente (/mao)."
REFUSALS = {  # bot/webview.py REFUSALS, pt-BR
    "forged": "Este link não é válido: abra a mesa pelo botão do jogo.",
    "expired": "Este link expirou: abra a mesa de novo pelo botão do jogo.",
    "used": "Este link já foi usado: abra a mesa de novo pelo botão do jogo (/mao).",
}


@pytest.fixture(scope="module")
def server() -> Iterator[InProcess]:
    running = InProcess()
    yield running
    running.close()


def test_the_scripted_deal_on_the_page_against_hand_buttons_scores_as_the_engine(
        server: InProcess, new_page: Any) -> None:
    replay = script.replay()
    game = server.start_game(chat("-901"), [ANA, BIA])
    ana_page, ana_wire = new_page(viewport=chromium.PHONE)
    ana_page.goto(web.telegram_url(server.url, BOT_TOKEN, tg_user(ANA), game))
    bia_page, bia_wire = new_page(viewport=chromium.DESKTOP)
    bia_page.goto(web.telegram_url(server.url, BOT_TOKEN, tg_user(BIA), game))
    for page in (ana_page, bia_page):
        web.wait_live(page)
    watch = deal_flow.Watch(ana_page)
    deal_flow.play(ana_page, ServicePlayer(server, BIA, 1), watch,
                   shots=(ana_page, bia_page), shot_name="inprocess")
    for page in (ana_page, bia_page):
        deal_flow.wait_score(page, replay.totals)
    assert replay.totals == [220, -165]
    watch.assert_within(SEEN_WITHIN_S)
    assert_secret(ana_wire, 0, replay)
    assert_secret(bia_wire, 1, replay)
    assert ana_wire.outside == [] or all("telegram.org" in u for u in ana_wire.outside)
def session_answers(wire: Any) -> list[dict[str, Any]]:
    """The JSON answers of ``POST /api/session`` the page received."""
    return [json.loads(body) for url, body in wire.bodies if url.endswith("/api/session")]


def assert_refused(page: Any, wire: Any, code: str, message: str) -> None:
    """The page says ``message``, shows no hand nor table, and got no view at all."""
    page.wait_for_selector("body[data-state=refused]", timeout=10_000)
    assert page.inner_text("#message").strip() == message
    assert page.eval_on_selector_all("#hand .card, .meld", "n => n.length") == 0
    assert [a.get("error") for a in session_answers(wire)] == [code]
    assert not any(json.loads(f).get("type") == "view" for _, f in wire.frames)


def test_forged_altered_expired_launch_data_and_links_are_refused_and_change_nothing(
        server: InProcess, new_page: Any) -> None:
    game = server.start_game(chat("-902"), [ANA, BIA])
    ana_page, _ = open_page(server, new_page, ANA, game)
    shown = web.version(ana_page)
    now = int(time.time())
    launch = tg_initdata.init_data(BOT_TOKEN, tg_user(ANA), game)
    secret = SECRET
    link = auth.link_token(secret, "tg", ANA.user_id, game, now)
    body, mac = link.split(".")
    other_game = auth.link_token(secret, "tg", ANA.user_id, "zzzzzzzz", now).split(".")[0]
    forged, expired = REFUSALS["forged"], REFUSALS["expired"]
    cases = [
        # Telegram launch data: another person's id under Ana's hash, another bot's
        # signature, signed two hours ago
        ("forged", forged, web.telegram_url(server.url, BOT_TOKEN, tg_user(ANA), game, data=(
            tg_initdata.altered(launch, "user", json.dumps(tg_user(BIA)))))),
        ("forged", forged, web.telegram_url(server.url, BOT_TOKEN, tg_user(ANA), game, data=(
            tg_initdata.init_data("999:ANOTHER-BOT", tg_user(ANA), game)))),
        ("expired", expired, web.telegram_url(server.url, BOT_TOKEN, tg_user(ANA), game,
                                              auth_date=now - 7200)),
        # signed links: another game's payload under this link's signature, expired
        ("forged", forged, f"{server.url}/#t={other_game}.{mac}"),
        ("expired", expired, f"{server.url}/#t=" + auth.link_token(
            secret, "tg", ANA.user_id, game, now - 3600)),
    ]
    for code, message, url in cases:
        page, wire = new_page()
        page.goto(url)
        assert_refused(page, wire, code, message)
    # a link opens once; the same link again is refused
    page, wire = new_page()
    page.goto(f"{server.url}/#t={link}")
    web.wait_live(page)
    again, wire = new_page()
    again.goto(f"{server.url}/#t={body}.{mac}")
    assert_refused(again, wire, "used", REFUSALS["used"])
    assert web.version(ana_page) == shown  # nothing changed the game


def test_a_person_not_seated_gets_the_table_without_any_hand(
        server: InProcess, new_page: Any) -> None:
    game = server.start_game(chat("-903"), [ANA, BIA])
    page, wire = open_page(server, new_page, CAIO, game)
    assert page.eval_on_selector_all("#hand .card", "n => n.length") == 0
    assert page.is_hidden("#hand-box")
    assert page.inner_text("#stock").endswith("60") and web.melds(page, 0) == 0
    views = [json.loads(f)["view"] for _, f in wire.frames if json.loads(f)["type"] == "view"]
    assert views and all(v["spectator"] and v["hand"] is None for v in views)
    for code in script.ANA_HAND + script.BIA_HAND:  # no hand card, by code or face
        assert not any(names_a_card(text, code) for text in wire.texts())


def test_a_double_tap_applies_once_a_stale_tap_is_refused_and_a_reconnect_resyncs(
        server: InProcess, new_page: Any) -> None:
    game = server.start_game(chat("-904"), [ANA, BIA])
    url = web.telegram_url(server.url, BOT_TOKEN, tg_user(ANA), game)
    # a phone that sends every press twice (a double tap that reached the server twice)
    page, _ = new_page()
    page.route_web_socket("**/ws", _twice)
    page.goto(url)
    web.wait_live(page)
    # a second tab that stopped receiving after its first view (a phone asleep)
    stale, _ = new_page()
    routes: list[Any] = []
    stale.route_web_socket("**/ws", lambda ws: routes.append(_hold_after_first_view(ws)))
    stale.goto(url)
    web.wait_live(stale)
    old = web.version(stale)
    web.action(page, "c")
    page.wait_for_timeout(500)
    assert len(web.hand_codes(page)) == 12
    assert page.get_attribute("#stock", "data-count") == "59"
    assert web.version(stale) == old and "c" in web.actions(stale)
    said = web.toast(stale)
    stale.click('#actions button[data-action="c"]')
    stale.wait_for_function("t => document.getElementById('toast').textContent.trim() !== t",
                            arg=said, timeout=5_000)
    assert web.toast(stale) == STALE_TAP
    page.wait_for_timeout(500)
    assert len(web.hand_codes(page)) == 12  # one draw in all
    assert page.get_attribute("#stock", "data-count") == "59"
    # the sleeping phone's connection drops; it reconnects with the version it shows and
    # at once shows the current table (its first view on the new connection)
    routes[-1].close()
    stale.wait_for_function("v => Number(document.body.dataset.version) > v", arg=old,
                            timeout=10_000)
    assert web.version(stale) == web.version(page)
    assert len(web.hand_codes(stale)) == 12 and "c" not in web.actions(stale)


def _twice(ws: Any) -> None:
    """A WebSocket route that forwards each page frame to the server twice."""
    server = ws.connect_to_server()
    ws.on_message(lambda message: (server.send(message), server.send(message)))
    server.on_message(ws.send)


def _hold_after_first_view(ws: Any) -> Any:
    """A WebSocket route that lets the page's frames through and, of the server's views,
    only the first: the page keeps showing it (replies still come through). Returns
    ``ws`` (closing it drops the page's connection)."""
    server = ws.connect_to_server()
    ws.on_message(server.send)
    views = [0]

    def back(message: Any) -> None:
        if '"type": "view"' in str(message):
            views[0] += 1
            if views[0] > 1:
                return
        ws.send(message)
    server.on_message(back)
    return ws
