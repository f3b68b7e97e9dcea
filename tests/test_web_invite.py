"""The Mini App invitation link (issue 35): ``/convidar`` on Telegram gives the code, the
private chat's ``t.me/<bot>?start=c<code>`` link and the Mini App's
``startapp=c<code>`` link (a named Mini App, ``TELEGRAM_WEBAPP``, or the bot's main one,
``TELEGRAM_MAIN_APP``); the web table reads the code from the signed ``start_param``
(its signature checked before anything changes) and seats the signed person, once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_service_support import ANA, CHAT, Backend, FakeClock, game_of
from test_web_server import Rig
from web_support import telegram_init_data

from adapters.telegram.app import invite_links
from adapters.web.runtime import WebLinks

SECRET = b"k" * 32


class _Platform:
    def __init__(self, web: Any) -> None:
        self.web = web


class _Outbox:
    username = "burbot"

    def __init__(self, web: Any) -> None:
        self.platform = _Platform(web)


@pytest.fixture
async def rig(backend: Backend, clock: FakeClock) -> AsyncIterator[Rig]:
    r = Rig(backend, clock)
    await r.start()
    yield r
    await r.close()


async def invited(rig: Rig) -> tuple[str, str]:
    """A lobby of Ana with one invitation: (game id, code)."""
    await rig.svc.new_game(CHAT, ANA, "buraco")
    reply = (await rig.svc.invite(CHAT, ANA))[0]
    code = reply.text.split(": ", 1)[1].split("\n", 1)[0]
    gid = await rig.store.chat_game(CHAT.key)
    return str(gid), code


async def launch(rig: Rig, user_id: int, param: str, **kw: Any) -> tuple[int, Any]:
    assert rig.client is not None
    data = telegram_init_data(user_id, int(rig.clock.now()), param, first_name="Zé", **kw)
    res = await rig.client.post("/api/session", json={"initData": data})
    return res.status, await res.json()


def test_invite_links_give_the_private_chat_link_and_the_named_mini_app_link() -> None:
    web = WebLinks("https://mesa.example.org/", SECRET, webapp="mesa")
    assert invite_links(_Outbox(web), "K7QX3MPA") == [  # type: ignore[arg-type]
        "https://t.me/burbot?start=cK7QX3MPA",
        "https://t.me/burbot/mesa?startapp=cK7QX3MPA"]


def test_invite_links_use_the_main_mini_app_when_no_named_one_is_set() -> None:
    web = WebLinks("https://mesa.example.org/", SECRET, main_app=True)
    assert invite_links(_Outbox(web), "K7QX3MPA") == [  # type: ignore[arg-type]
        "https://t.me/burbot?start=cK7QX3MPA", "https://t.me/burbot?startapp=cK7QX3MPA"]


def test_invite_links_without_a_mini_app_give_only_the_private_chat_link() -> None:
    assert invite_links(_Outbox(WebLinks("https://m.example/", SECRET)), "K7QX3MPA") == [
        "https://t.me/burbot?start=cK7QX3MPA"]  # type: ignore[arg-type]
    assert invite_links(_Outbox(None), "K7QX3MPA") == [  # type: ignore[arg-type]
        "https://t.me/burbot?start=cK7QX3MPA"]


async def test_convidar_on_telegram_tells_the_code_and_both_links(rig: Rig) -> None:
    web = WebLinks("https://mesa.example.org/", SECRET, webapp="mesa")
    rig.svc.invite_links["tg"] = lambda code: invite_links(_Outbox(web), code)  # type: ignore[arg-type]
    await rig.svc.new_game(CHAT, ANA, "buraco")
    (reply,) = await rig.svc.invite(CHAT, ANA)
    code = reply.text.split(": ", 1)[1].split("\n", 1)[0]
    assert reply.text.splitlines()[-2:] == [f"https://t.me/burbot?start=c{code}",
                                            f"https://t.me/burbot/mesa?startapp=c{code}"]


async def test_the_mini_app_invitation_seats_the_signed_person_and_their_chat_is_a_place(
        rig: Rig) -> None:
    gid, code = await invited(rig)
    status, body = await launch(rig, 77, f"c{code}")
    assert status == 200, body
    assert body["game"] == gid and body["seated"] is True
    _v, game = await game_of(rig.store)
    assert [s.player.key for s in game.seats if s.player] == ["tg:1", "tg:77"]
    assert game.seats[1].player.name == "Zé"
    assert [p.key for p in game.places] == ["tg:77"] and game.invites == {}
    tables = [e.chat.key for e in rig.delivered if e.kind == "table"]
    assert tables == ["tg:-100", "tg:77"]  # the table shown in both places


async def test_a_reload_of_the_invitation_page_takes_no_second_seat(rig: Rig) -> None:
    gid, code = await invited(rig)
    assert (await launch(rig, 77, f"c{code}"))[0] == 200
    version, _game = await game_of(rig.store)
    rig.clock.advance(5)
    status, body = await launch(rig, 77, f"c{code}")  # the same link opened again
    assert status == 200 and body["game"] == gid and body["seated"] is True
    assert (await game_of(rig.store))[0] == version


async def test_a_used_invitation_is_refused_on_the_page_with_the_chat_s_words(
        rig: Rig) -> None:
    _gid, code = await invited(rig)
    assert (await launch(rig, 77, f"c{code}"))[0] == 200
    version, _game = await game_of(rig.store)
    status, body = await launch(rig, 88, f"c{code}")
    assert status == 403 and body == {
        "error": "refused",
        "message": "Esse convite não vale mais (já usado, retirado ou vencido). Peça um novo "
                   "a quem abriu a mesa."}
    assert (await game_of(rig.store))[0] == version


async def test_a_forged_invitation_launch_changes_nothing(rig: Rig) -> None:
    _gid, code = await invited(rig)
    version, _game = await game_of(rig.store)
    status, body = await launch(rig, 77, f"c{code}", token="1:forged")
    assert status == 403 and body["error"] == "forged"
    assert (await game_of(rig.store))[0] == version
    _v, game = await game_of(rig.store)
    assert len(game.seats) == 1 and list(game.invites) == [code]


async def test_an_unknown_invitation_code_is_told_as_no_longer_valid(rig: Rig) -> None:
    await invited(rig)
    version, _game = await game_of(rig.store)
    status, body = await launch(rig, 77, "cK7QX3MPA", language_code="en")
    assert status == 403 and body == {
        "error": "refused",
        "message": "This invitation is no longer valid (used, withdrawn or expired). Ask "
                   "whoever opened the table for a new one."}
    assert (await game_of(rig.store))[0] == version
