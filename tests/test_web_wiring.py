"""Turning the web table on (issue 27): its settings refused in one line, the server
started inside the bot's process by ``web_table``, and the chat views' "Abrir a mesa"
buttons (Telegram: the Mini App's direct link, else a one-use signed link; Discord's
hand: the signed link), only when the web settings are set."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from net_support import free_port
from pydantic import ValidationError

from adapters.discord.items import build_view
from adapters.discord.render import hand_message
from adapters.telegram.outbox import TelegramPlatform
from adapters.web import auth
from adapters.web.runtime import WebLinks, web_table
from bot.effects import ChatRef, HandView, PlayerRef, TableView, View
from bot.i18n import Translator
from bot.memstore import MemoryStore
from bot.settings import Settings, settings_error

SECRET = b"w" * 32
CHAT = ChatRef(platform="tg", chat_id="-100", title="Grupo")
ANA = PlayerRef(platform="tg", user_id="42", name="Ana")


def refusal(**env: Any) -> str:
    with pytest.raises(ValidationError) as err:
        Settings(_env_file=None, **env)
    return settings_error(err.value)


def test_web_port_without_a_public_address_is_refused_in_one_line() -> None:
    assert refusal(web_port=8080) == (
        "WEB_PUBLIC_URL inválido: com WEB_PORT, defina WEB_PUBLIC_URL, o endereço público "
        "da mesa (ex.: https://mesa.example.org/).")


def test_bad_web_settings_say_what_they_accept() -> None:
    assert refusal(web_port=8080, web_public_url="mesa.org") == (
        "WEB_PUBLIC_URL inválido ('mesa.org'): use um endereço http:// ou https://.")
    assert refusal(telegram_webapp="a b") == (
        "TELEGRAM_WEBAPP inválido ('a b'): use o nome curto do Mini App no @BotFather "
        "(3 a 30 letras, algarismos ou '_').")
    assert refusal(web_secret="short") == "WEB_SECRET inválido: use ao menos 16 caracteres."


def test_without_web_settings_nothing_is_served() -> None:
    settings = Settings(_env_file=None)
    assert settings.web_port is None and settings.web_public_url is None


async def test_web_table_serves_the_page_in_process_and_stops_with_the_last_platform() -> None:
    port = free_port()
    settings = Settings(_env_file=None, web_port=port, web_listen="127.0.0.1",
                        web_public_url=f"http://127.0.0.1:{port}/", web_secret="x" * 20,
                        telegram_token="1:abc")
    store = MemoryStore()
    async with web_table(settings, store, object(), "tg", None) as links:
        assert links is not None and links.webapp is None
        async with web_table(settings, store, object(), "dc", None) as again:
            assert again is not None
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/") as res:
                page = await res.text()
                assert res.status == 200 and 'id="hand"' in page
                assert "default-src 'self'" in res.headers["Content-Security-Policy"]
            async with http.get(f"http://127.0.0.1:{port}/static/app.js") as res:
                assert res.status == 200
            token = links.signed("tg", "42", "abcd1234").split("#t=")[1]
            async with http.post(f"http://127.0.0.1:{port}/api/session",
                                 json={"token": token}) as res:
                assert res.status == 404 and (await res.json())["error"] == "no_game"
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/"):
            pass


def test_links_name_the_mini_app_or_carry_a_signed_one_use_token() -> None:
    links = WebLinks("https://mesa.example.org", SECRET, "mesa")
    assert links.mini_app("burbot", "abcd1234") == "https://t.me/burbot/mesa?startapp=abcd1234"
    url = links.signed("dc", "777", "abcd1234", now=1_800_000_000)
    assert url.startswith("https://mesa.example.org/#t=")
    person, _tid, expires = auth.read_link(SECRET, url.split("#t=")[1], 1_800_000_000)
    assert (person.platform, person.user_id, person.game, expires) == (
        "dc", "777", "abcd1234", 1_800_000_900)
    assert WebLinks("https://m.org/", SECRET).mini_app("burbot", "abcd1234") is None


def platform(web: WebLinks | None) -> TelegramPlatform:
    async def lang_of(_key: str) -> str:
        return "en"

    tg = TelegramPlatform(SimpleNamespace(username="burbot"), None, lang_of)  # type: ignore[arg-type]
    tg.web = web
    return tg


def urls(rendered: Any) -> list[tuple[str, str]]:
    rows = rendered.markup.inline_keyboard if rendered.markup else ()
    return [(b.text, b.url) for row in rows for b in row if b.url]


PLAYING = View(title="Buraco", lines=["..."],
               buttons=[[{"label": "Minha mão", "data": "abcd1234|0|h|"}]])  # type: ignore[list-item]
HAND = View(title="Sua mão", lines=["..."],
            buttons=[[{"label": "5♣", "data": "abcd1234|3|t|0"}]])  # type: ignore[list-item]


async def test_telegram_group_table_carries_the_mini_app_direct_link() -> None:
    table = TableView(chat=CHAT, game_id="abcd1234", view=PLAYING)
    with_app = await platform(WebLinks("https://m.org/", SECRET, "mesa")).table(table)
    assert urls(with_app) == [("Open the table", "https://t.me/burbot/mesa?startapp=abcd1234")]
    assert urls(await platform(WebLinks("https://m.org/", SECRET)).table(table)) == []
    assert urls(await platform(None).table(table)) == []


async def test_telegram_private_hand_opens_the_mini_app_or_a_signed_link() -> None:
    hand = HandView(chat=CHAT, game_id="abcd1234", player=ANA, seat=0, view=HAND)
    app = platform(WebLinks("https://m.org/", SECRET, "mesa"))
    await app.table(TableView(chat=CHAT, game_id="abcd1234", view=PLAYING))  # learns "en"
    assert urls(app.hand(hand)) == [("Open the table",
                                     "https://t.me/burbot/mesa?startapp=abcd1234")]
    [(label, url)] = urls(platform(WebLinks("https://m.org/", SECRET)).hand(hand))
    assert label == "Abrir a mesa" and url.startswith("https://m.org/#t=")
    person = auth.read_link(SECRET, url.split("#t=")[1], time.time())[0]
    assert (person.platform, person.user_id, person.game) == ("tg", "42", "abcd1234")
    assert urls(platform(None).hand(hand)) == []


def test_discord_hand_carries_the_signed_link_as_a_link_button() -> None:
    msg = hand_message(HAND, "abcd1234", Translator("pt"),
                       link=("Abrir a mesa", "https://m.org/#t=x"))
    first = next(r for r in msg.rows if isinstance(r, list))[0]
    assert (first.label, first.url) == ("Abrir a mesa", "https://m.org/#t=x")
    view = build_view(msg)
    assert view is not None
    links = [i for i in view.children if isinstance(i, discord.ui.Button) and i.url]
    assert [(b.label, b.url, b.style) for b in links] == [
        ("Abrir a mesa", "https://m.org/#t=x", discord.ButtonStyle.link)]
    plain = hand_message(HAND, "abcd1234", Translator("pt"))
    assert all(not getattr(b, "url", "") for r in plain.rows if isinstance(r, list) for b in r)
