"""The web table's sessions and refusals (issue 34 "Sessions"): launch data older than an
hour still opens the page of the person whose saved session comes with it (a reload, a
Telegram Desktop cached launch), and only theirs; every refusal is the documented JSON
in the person's Telegram language first; an oversized launch body gets a JSON 413."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_service_support import Backend, FakeClock
from test_web_server import SECRET, Rig, frame
from web_support import telegram_init_data

from adapters.web import auth

HOUR_AND_A_BIT = 3600 + 600


@pytest.fixture
async def rig(backend: Backend, clock: FakeClock) -> AsyncIterator[Rig]:
    r = Rig(backend, clock)
    await r.start()
    yield r
    await r.close()


async def post(rig: Rig, body: Any, **headers: str) -> tuple[int, dict[str, Any]]:
    assert rig.client is not None
    res = await rig.client.post("/api/session", json=body, headers=headers)
    return res.status, await res.json()


async def test_old_launch_data_with_the_same_person_s_saved_session_opens_the_table(
        rig: Rig) -> None:
    gid = await rig.game()
    now = rig.clock.now()
    saved = auth.session_token(SECRET, auth.Person("tg", "1", "Ana", gid), "pt", now - 600)
    old = telegram_init_data(1, int(now) - HOUR_AND_A_BIT, gid)
    status, body = await post(rig, {"initData": old, "session": saved})
    assert status == 200 and body["game"] == gid and body["seated"] is True
    view = (await frame(await rig.socket(body["session"])))["view"]
    assert view["seat"] == 0 and len(view["hand"]["cards"]) == 11


async def test_old_launch_data_with_another_person_s_or_game_s_session_is_refused(
        rig: Rig) -> None:
    gid = await rig.game()
    now = rig.clock.now()
    old = telegram_init_data(1, int(now) - HOUR_AND_A_BIT, gid)
    sessions = [auth.session_token(SECRET, auth.Person("tg", "2", "Bia", gid), "pt", now),
                auth.session_token(SECRET, auth.Person("tg", "1", "Ana", "zzzz9999"), "pt",
                                   now),
                auth.session_token(SECRET, auth.Person("tg", "1", "Ana", gid), "pt",
                                   now - auth.SESSION_TTL_S - 1),  # expired
                auth.session_token(b"x" * 32, auth.Person("tg", "1", "Ana", gid), "pt",
                                   now)]  # not ours
    for saved in [*sessions, "", "garbage"]:
        status, body = await post(rig, {"initData": old, "session": saved})
        assert (status, body["error"]) == (403, "expired"), saved


async def test_a_refusal_speaks_the_telegram_language_code_before_accept_language(
        rig: Rig) -> None:
    gid = await rig.game()
    old = int(rig.clock.now()) - HOUR_AND_A_BIT
    said = {}
    for code in ("en", "it", "pt-br"):
        status, body = await post(rig, {"initData": telegram_init_data(
            1, old, gid, language_code=code)}, **{"Accept-Language": "en"})
        assert status == 403 and set(body) == {"error", "message"}
        said[code] = body["message"]
    assert said == {
        "en": "This link has expired: open the table again with the game's button.",
        "it": "Questo link è scaduto: apri di nuovo il tavolo con il pulsante della partita.",
        "pt-br": "Este link expirou: abra a mesa de novo pelo botão do jogo."}


async def test_a_launch_body_of_100_kb_gets_a_json_413(rig: Rig) -> None:
    assert rig.client is not None
    big = b'{"initData": "' + b"a" * 100_000 + b'"}'
    res = await rig.client.post("/api/session", data=big, headers={
        "Content-Type": "application/json", "Accept-Language": "en"})
    assert res.status == 413 and res.content_type == "application/json"
    assert await res.json() == {"error": "too_large",
                                "message": "Request too large: open the table with the "
                                           "game's button."}
