"""The web table's server (issue 27): launch data and links exchanged for a session,
the seat's view at once, presses through the service as chat buttons, live updates
from every save path, and refusals that change nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from test_service_support import ANA, BIA, CHAT, T0, Backend, FakeClock, game_of, make_service
from web_support import BOT_TOKEN, telegram_init_data

from adapters.web import auth
from adapters.web.server import STATIC, Site, WebServer
from bot.effects import Effect, pack

SECRET = b"k" * 32


class Rig:
    """A service over one store, its web server under aiohttp's test client, and the
    chat effects the web presses hand to the chat delivery."""

    def __init__(self, backend: Backend, clock: FakeClock) -> None:
        self.store = backend.make()
        self.clock = clock
        self.svc = make_service(self.store, clock)
        self.server = WebServer(SECRET, BOT_TOKEN, clock=clock.now)
        self.delivered: list[Effect] = []
        self.client: TestClient[Any, Any] | None = None
        self.sockets: list[Any] = []

    async def deliver(self, effects: list[Effect]) -> None:
        self.delivered += effects

    async def start(self) -> TestClient[Any, Any]:
        await self.server.attach(Site("tg", self.store, self.svc, self.deliver))
        self.client = TestClient(TestServer(self.server.app))
        await self.client.start_server()
        return self.client

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()
        await self.server.detach("tg")
        if self.client is not None:
            await self.client.close()

    async def game(self, players: tuple[Any, ...] = (ANA, BIA), preset: str = "buraco") -> str:
        await self.svc.new_game(CHAT, players[0], preset)
        for p in players[1:]:
            await self.svc.join(CHAT, p)
        await self.svc.start(CHAT, players[0])
        gid = await self.store.chat_game(CHAT.key)
        assert gid is not None
        return str(gid)

    async def session(self, user_id: int, gid: str, **kw: Any) -> Any:
        assert self.client is not None
        data = telegram_init_data(user_id, int(self.clock.now()), gid, **kw)
        res = await self.client.post("/api/session", json={"initData": data})
        return res.status, await res.json()

    async def page(self, user_id: int, gid: str, version: int = 0) -> Any:
        status, body = await self.session(user_id, gid)
        assert status == 200, body
        return await self.socket(body["session"], version)

    async def socket(self, session: str, version: int = 0) -> Any:
        assert self.client is not None
        ws = await self.client.ws_connect("/ws")
        self.sockets.append(ws)
        await ws.send_json({"type": "hello", "session": session, "version": version})
        return ws


@pytest.fixture
async def rig(backend: Backend, clock: FakeClock) -> AsyncIterator[Rig]:
    r = Rig(backend, clock)
    await r.start()
    yield r
    await r.close()


async def frame(ws: Any, kind: str | None = None, timeout: float = 3.0) -> dict[str, Any]:
    """The next frame (of ``kind``), failing after ``timeout`` seconds."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        got: dict[str, Any] = json.loads(msg.data)
        if kind is None or got["type"] == kind:
            return got


def action(view: dict[str, Any], code: str) -> str:
    found = [a["data"] for a in view["hand"]["actions"] if a["code"] == code]
    assert found, [a["code"] for a in view["hand"]["actions"]]
    return str(found[0])


async def test_telegram_launch_opens_the_seat_s_view_with_its_own_hand(rig: Rig) -> None:
    gid = await rig.game()
    status, body = await rig.session(1, gid)
    assert status == 200 and body["game"] == gid and body["seated"] is True
    ws = await rig.socket(body["session"])
    got = await frame(ws)
    version, _game = await game_of(rig.store)
    assert got["type"] == "view" and got["version"] == version
    view = got["view"]
    assert view["seat"] == 0 and view["status"] == "playing" and not view["spectator"]
    assert [c["text"] for c in view["hand"]["cards"]] == [
        "5♣", "3♦", "10♦", "Q♦", "Q♦", "A♥", "5♥", "8♥", "9♥", "6♠", "K♠"]
    assert [a["label"] for a in view["hand"]["actions"]] == ["💡 Dica", "Comprar do monte"]
    assert view["turn"] == "Sua vez." and view["my_turn"] is True
    assert view["deadline"] == T0 + 90
    assert [p["cards"] for p in view["players"]] == [11, 11]


async def test_the_page_s_dica_answers_that_page_alone_and_changes_nothing(rig: Rig) -> None:
    """Issue 37: the seat's page has the hand's "💡 Dica"; its answer is the page's own
    reply frame, and the game is not saved."""
    gid = await rig.game()
    ana = await rig.page(1, gid)
    view = (await frame(ana, "view"))["view"]
    version, _game = await game_of(rig.store)
    await ana.send_json({"type": "press", "id": 7, "data": action(view, "dc")})
    got = await frame(ana, "reply")
    assert got == {"type": "reply", "id": 7,
                   "text": "Dica: Compre do monte (é a única compra possível)."}
    assert (await game_of(rig.store))[0] == version


async def test_two_pages_see_each_other_s_moves_and_the_chat_table_follows(rig: Rig) -> None:
    gid = await rig.game()
    ana = await rig.page(1, gid)
    bia = await rig.page(2, gid)
    first = (await frame(ana))["view"]
    before = (await frame(bia))["version"]
    await ana.send_json({"type": "press", "id": 1, "data": action(first, "c")})
    assert (await frame(ana, "done"))["id"] == 1
    seen = await frame(bia, "view")
    assert seen["version"] > before
    assert [p["cards"] for p in seen["view"]["players"]] == [12, 11]
    assert seen["view"]["stock"] == first["stock"] - 1
    assert seen["view"]["narration"] == "Ana comprou do monte."
    mine = await frame(ana, "view")
    assert len(mine["view"]["hand"]["cards"]) == 12
    # the group's table and Ana's private hand were handed to the chat delivery
    assert {e.kind for e in rig.delivered} >= {"table", "hand"}


async def test_a_chat_button_press_arrives_at_the_web_page(rig: Rig) -> None:
    gid = await rig.game()
    bia = await rig.page(2, gid)
    await frame(bia)
    _v, game = await game_of(rig.store)
    await rig.svc.press(ANA, pack(gid, game.seats[0].ver, "c", ""))  # Ana, in the chat
    seen = await frame(bia, "view", timeout=1.0)
    assert seen["view"]["narration"] == "Ana comprou do monte."


async def test_a_refused_move_tells_the_chat_s_reason_and_changes_nothing(rig: Rig) -> None:
    gid = await rig.game()
    ana = await rig.page(1, gid)
    view = (await frame(ana))["view"]
    await ana.send_json({"type": "press", "id": 1, "data": action(view, "c")})
    view = (await frame(ana, "view"))["view"]
    version, _g = await game_of(rig.store)
    discard = action(view, "d")
    await ana.send_json({"type": "press", "id": 2, "data": discard})
    reply = await frame(ana, "reply")
    assert reply == {"type": "reply", "id": 2, "text": "Selecione a carta primeiro."}
    assert (await game_of(rig.store))[0] == version
    chat = await rig.svc.press(ANA, discard)  # the same button in the chat says the same
    assert [e.text for e in chat if e.kind == "reply"] == [reply["text"]]


async def test_a_double_tap_applies_once(rig: Rig) -> None:
    gid = await rig.game()
    ana = await rig.page(1, gid)
    draw = action((await frame(ana))["view"], "c")
    await ana.send_json({"type": "press", "id": 1, "data": draw})
    await ana.send_json({"type": "press", "id": 2, "data": draw})
    assert (await frame(ana, "reply"))["text"].startswith("Esse botão é antigo")
    _v, game = await game_of(rig.store)
    from bot import play

    assert len(play.deal_of(game).hands[0]) == 12  # one card drawn, not two
    # the same press id again (a resent frame) is a redelivery: nothing at all
    await ana.send_json({"type": "press", "id": 1, "data": draw})
    assert (await frame(ana, "done"))["id"] == 1
    assert len(play.deal_of((await game_of(rig.store))[1]).hands[0]) == 12


async def test_a_person_not_seated_watches_without_any_hand(rig: Rig) -> None:
    gid = await rig.game()
    status, body = await rig.session(3, gid)
    assert status == 200 and body["seated"] is False
    ws = await rig.socket(body["session"])
    view = (await frame(ws))["view"]
    assert view["spectator"] is True and view["hand"] is None and view["seat"] is None
    assert view["turn"] == "Vez de Ana."
    await ws.send_json({"type": "press", "id": 1, "data": pack(gid, 1, "c", "")})
    assert (await frame(ws, "reply"))["text"] == "Você não está nesta partida."


@pytest.mark.parametrize("how", ["forged", "altered", "expired", "garbage"])
async def test_bad_launch_data_gets_a_clear_refusal_and_no_data(rig: Rig, how: str) -> None:
    gid = await rig.game()
    assert rig.client is not None
    now = int(rig.clock.now())
    data = {"forged": telegram_init_data(1, now, gid, token="1:other"),
            "altered": telegram_init_data(1, now, gid).replace("start_param=", "start_param=x"),
            "expired": telegram_init_data(1, now - 3601, gid, language_code="en"),
            "garbage": "user=1&hash=00"}[how]
    res = await rig.client.post("/api/session", json={"initData": data},
                                headers={"Accept-Language": "en"})
    body = await res.json()
    code = {"garbage": "forged", "altered": "forged"}.get(how, how)
    assert res.status == 403 and body["error"] == code
    assert set(body) == {"error", "message"}
    if how == "expired":
        assert body["message"] == ("This link has expired: open the table again with the "
                                   "game's button.")


async def test_a_link_token_is_exchanged_once(rig: Rig) -> None:
    gid = await rig.game()
    assert rig.client is not None
    token = auth.link_token(SECRET, "tg", "2", gid, rig.clock.now())
    res = await rig.client.post("/api/session", json={"token": token})
    body = await res.json()
    assert res.status == 200 and body["seated"] is True
    again = await rig.client.post("/api/session", json={"token": token})
    assert again.status == 403 and (await again.json())["error"] == "used"
    ws = await rig.socket(body["session"])
    view = (await frame(ws))["view"]
    assert view["seat"] == 1 and len(view["hand"]["cards"]) == 11


async def test_links_expired_altered_or_for_a_game_that_is_gone_are_refused(rig: Rig) -> None:
    gid = await rig.game()
    assert rig.client is not None
    now = rig.clock.now()
    old = auth.link_token(SECRET, "tg", "2", gid, now - 1000)
    other = auth.link_token(SECRET, "tg", "2", "zzzz9999", now)
    altered = auth.link_token(SECRET, "tg", "2", gid, now)[:-3] + "AAA"
    foreign = auth.link_token(b"x" * 32, "tg", "2", gid, now)
    for token, code in ((old, "expired"), (other, "no_game"), (altered, "forged"),
                        (foreign, "forged")):
        res = await rig.client.post("/api/session", json={"token": token})
        assert (await res.json())["error"] == code
    session = auth.session_token(SECRET, auth.Person("tg", "2", "Bia", gid), "pt", now)
    ws = await rig.socket(session[:-2] + "xx")
    got = await frame(ws)
    assert got["type"] == "error" and got["code"] == "forged"


async def test_a_page_presses_only_its_own_game(rig: Rig) -> None:
    gid = await rig.game()
    ana = await rig.page(1, gid)
    await frame(ana)
    version = (await game_of(rig.store))[0]
    await ana.send_json({"type": "press", "id": 1, "data": pack("zzzz9999", 1, "c", "")})
    await ana.send_json({"type": "press", "id": 2, "data": "nonsense"})
    await asyncio.sleep(0.2)
    assert (await game_of(rig.store))[0] == version


async def test_a_reconnecting_page_gets_the_current_view_at_once(rig: Rig) -> None:
    gid = await rig.game()
    _status, body = await rig.session(1, gid)
    ana = await rig.socket(body["session"])
    first = await frame(ana)
    await ana.close()
    _v, game = await game_of(rig.store)
    await rig.svc.press(ANA, pack(gid, game.seats[0].ver, "c", ""))  # while away
    again = await rig.socket(body["session"], version=first["version"])
    got = await frame(again)
    assert got["version"] == (await game_of(rig.store))[0] > first["version"]
    assert len(got["view"]["hand"]["cards"]) == 12



async def test_the_page_s_icon_is_served_where_browsers_ask_for_it(rig: Rig) -> None:
    """``/favicon.ico`` (and the page's ``<link rel=icon>``) answer with the SVG icon,
    not a 404 in every page's console (issue 38)."""
    assert rig.client is not None
    icon = (STATIC / "favicon.svg").read_bytes()
    for path in ("/favicon.ico", "/static/favicon.svg", "/.proxy/favicon.ico"):
        res = await rig.client.get(path)
        assert (res.status, res.content_type, await res.read()) == (200, "image/svg+xml", icon)
    page = await (await rig.client.get("/")).text()
    assert '<link rel="icon" href="static/favicon.svg" type="image/svg+xml">' in page
