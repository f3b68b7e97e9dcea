"""Telegram adapter parts on their own: rendering, the edit coalescer, settings helpers,
command registration and the webhook's secret-token check."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from net_support import free_port
from telegram import InlineKeyboardButton

from adapters.telegram import render
from adapters.telegram.app import api_base, register_commands, webhook_secret
from adapters.telegram.coalesce import EditCoalescer
from adapters.telegram.window import SharedWindow
from bot.effects import Button, View
from bot.settings import Settings

try:
    from test_telegram_app import ANA, GROUP, Tg, tg
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_telegram_app import ANA, GROUP, Tg, tg

__all__ = ["tg"]


# ---- render -----------------------------------------------------------------------------
def test_red_suits_get_the_emoji_selector_once() -> None:
    assert render.redden("7♥ 10♦ 3♠ 2♣ 🃏") == "7♥\ufe0f 10♦\ufe0f 3♠ 2♣ 🃏"
    assert render.redden(render.redden("A♥")) == "A♥\ufe0f"


def test_view_html_bolds_the_title_and_escapes_the_lines() -> None:
    view = View(title="Buraco · até 1500", lines=["Ana <3 & Bia", "Lixo: 7♥"])
    assert render.view_html(view) == (
        "<b>Buraco · até 1500</b>\nAna &lt;3 &amp; Bia\nLixo: 7♥\ufe0f")


def test_a_long_view_is_cut_at_a_line_within_telegram_limits() -> None:
    view = View(title="T", lines=[f"linha {i:04d} " + "x" * 40 for i in range(200)])
    text = render.view_html(view)
    assert len(text) <= render.MAX_TEXT
    assert text.endswith("\n…")
    assert text.splitlines()[-2].startswith("linha ") and len(text.splitlines()[-2]) == 51


def test_keyboard_keeps_the_service_payloads_and_adds_link_rows() -> None:
    rows = [[Button(label="Entrar", data="abcdefgh|0|j|"), Button(label="7♦", data="x|3|t|4")]]
    link = render.link_button("Abrir", "BuracoTestBot", "jabcdefgh")
    markup = render.keyboard(rows, [[link]])
    assert markup is not None
    assert markup.to_dict() == {"inline_keyboard": [
        [{"text": "Entrar", "callback_data": "abcdefgh|0|j|"},
         {"text": "7♦\ufe0f", "callback_data": "x|3|t|4"}],
        [{"text": "Abrir", "url": "https://t.me/BuracoTestBot?start=jabcdefgh"}]]}
    assert render.keyboard([]) is None


def test_codes_reads_the_action_codes_of_a_view() -> None:
    view = View(title="t", buttons=[[Button(label="a", data="g1|0|j|"),
                                     Button(label="b", data="g1|0|lv|")]])
    assert render.codes(view) == {"j", "lv"}
    assert isinstance(render.link_button("x", "b", "p"), InlineKeyboardButton)


# ---- coalescer --------------------------------------------------------------------------
class FakeTime:
    """Monotonic clock and sleep that advance instantly."""

    def __init__(self) -> None:
        self.t = 0.0

    def clock(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds
        await asyncio.sleep(0)


async def test_first_edit_runs_at_once_then_the_latest_after_three_seconds() -> None:
    time = FakeTime()
    coalescer = EditCoalescer(gap_s=3.0, per_minute=20, clock=time.clock, sleep=time.sleep)
    ran: list[tuple[str, float]] = []

    def op(name: str) -> Any:
        async def run() -> None:
            ran.append((name, time.t))
        return run

    coalescer.submit("-100", op("v1"))
    await asyncio.sleep(0)
    for name in ("v2", "v3", "v4"):
        coalescer.submit("-100", op(name))
    await coalescer.flush()
    assert ran == [("v1", 0.0), ("v4", 3.0)]


async def test_never_more_than_twenty_edits_in_a_minute() -> None:
    time = FakeTime()
    coalescer = EditCoalescer(gap_s=1.0, per_minute=20, clock=time.clock, sleep=time.sleep)
    ran: list[float] = []

    async def op() -> None:
        ran.append(time.t)

    for _ in range(25):
        coalescer.submit("-100", op)
        await coalescer.flush()
    assert len(ran) == 25
    assert ran[:20] == [float(i) for i in range(20)]
    assert ran[20] == 61.0  # the 21st waits for the first to leave the window (+1 s margin)
    assert all(sum(1 for t in ran if s <= t < s + 60) <= 20 for s in ran)


async def test_a_failed_edit_does_not_stop_the_next() -> None:
    time = FakeTime()
    coalescer = EditCoalescer(gap_s=3.0, clock=time.clock, sleep=time.sleep)
    ran: list[str] = []

    async def boom() -> None:
        raise RuntimeError("network")

    async def ok() -> None:
        ran.append("ok")

    coalescer.submit("-1", boom)
    await asyncio.sleep(0)
    coalescer.submit("-1", ok)
    await coalescer.flush()
    assert ran == ["ok"]


# ---- settings ---------------------------------------------------------------------------
def test_api_base_accepts_a_server_root() -> None:
    assert api_base(None) == ("https://api.telegram.org/bot", "https://api.telegram.org/file/bot")
    assert api_base("http://127.0.0.1:9000/") == ("http://127.0.0.1:9000/bot",
                                                  "http://127.0.0.1:9000/file/bot")
    assert api_base("http://h:1/bot") == ("http://h:1/bot", "http://h:1/file/bot")


def test_webhook_secret_is_the_setting_or_derived_from_the_token() -> None:
    assert webhook_secret(Settings(telegram_token="1:A", webhook_secret="s3", _env_file=None)) \
        == "s3"
    derived = webhook_secret(Settings(telegram_token="1:A", _env_file=None))
    assert len(derived) == 64 and derived == webhook_secret(
        Settings(telegram_token="1:A", _env_file=None))
    assert derived != webhook_secret(Settings(telegram_token="1:B", _env_file=None))


async def test_commands_are_registered_in_portuguese_english_and_italian(tg: Tg) -> None:
    await register_commands(tg.app)
    calls = tg.fake.called("setMyCommands")
    assert [c.get("language_code") for c in calls] == [None, "en", "it"]
    assert [c["command"] for c in calls[0]["commands"]] == [
        "novojogo", "entrar", "sair", "robo", "iniciar", "mao", "placar", "regras", "ajuda",
        "cancelar", "voltar", "exportar", "idioma", "ranking", "perfil", "config", "replay",
        "dica", "revisao", "torneio", "convidar", "verificar", "procurar", "sairfila", "bloquear"]
    assert calls[1]["commands"][13]["description"] == (  # issue 29
        "Group ranking: /ranking [semana|mes|ano|sempre|geral]")
    assert calls[0]["commands"][0]["description"] == (
        "Abrir uma mesa: /novojogo [variante] [opções]")
    assert calls[1]["commands"][0]["description"] == "Open a table: /novojogo [variant] [options]"
    assert calls[2]["commands"][4]["description"] == "Inizia la partita"


# ---- webhook ----------------------------------------------------------------------------
async def test_webhook_refuses_a_wrong_secret_and_serves_the_right_one(tg: Tg) -> None:
    port = free_port()
    update = {"update_id": 77, "message": {
        "message_id": 77, "date": 0, "chat": GROUP, "from": ANA, "text": "/novojogo",
        "entities": [{"type": "bot_command", "offset": 0, "length": 9}]}}
    await tg.app.start()
    await tg.app.updater.start_webhook(listen="127.0.0.1", port=port, url_path="hook",
                                       webhook_url="https://example.org/hook",
                                       secret_token="s3cret")
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            wrong = await http.post("/hook", json=update,
                                    headers={"X-Telegram-Bot-Api-Secret-Token": "nope"})
            missing = await http.post("/hook", json=update)
            right = await http.post("/hook", json=update,
                                    headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"})
        assert (wrong.status_code, missing.status_code, right.status_code) == (403, 403, 200)
        for _ in range(100):
            if tg.fake.current(GROUP["id"]):
                break
            await asyncio.sleep(0.02)
        await tg.handlers.outbox.flush()
        assert tg.fake.current(GROUP["id"])[0]["text"].startswith(
            "<b>Buraco Bossa Nova · até 1500")
        assert tg.fake.called("setWebhook")[0]["secret_token"] == "s3cret"
    finally:
        await tg.app.updater.stop()
        await tg.app.stop()


def test_build_application_needs_a_token() -> None:
    from adapters.telegram.app import build_application

    settings = Settings(telegram_token=None, _env_file=None)
    with pytest.raises(ValueError, match="TELEGRAM_TOKEN is not set"):
        build_application(settings, None, None, None)  # type: ignore[arg-type]


def test_run_without_a_token_exits_with_a_clear_message() -> None:
    from adapters.telegram import run

    with pytest.raises(SystemExit, match="TELEGRAM_TOKEN is not set: get a token from "):
        run(Settings(telegram_token=None, _env_file=None))


# ---- the edit window shared by workers (fakeredis, and the real Redis when set) ---------
async def test_shared_window_spaces_slots_across_workers(store_clients: Any,
                                                         store_prefix: str) -> None:
    first = SharedWindow(store_clients(), store_prefix, gap_s=10.0, per_minute=20)
    second = SharedWindow(store_clients(), store_prefix, gap_s=10.0, per_minute=20)
    assert await first.reserve("-100") == 0.0
    wait = await second.reserve("-100")  # another worker, same chat: must wait the gap
    assert 9.0 < wait <= 10.0
    assert await second.reserve("-200") == 0.0  # another chat is free


async def test_shared_window_caps_the_slots_in_a_window(store_clients: Any,
                                                        store_prefix: str) -> None:
    workers = [SharedWindow(store_clients(), store_prefix, gap_s=0.0, per_minute=3,
                            window_s=30.0) for _ in range(3)]
    assert [await w.reserve("-100") for w in workers] == [0.0, 0.0, 0.0]
    wait = await workers[0].reserve("-100")
    assert 29.0 < wait <= 30.0


async def test_a_wrong_type_edit_window_key_is_replaced_by_a_fresh_window(
        store_clients: Any, store_prefix: str) -> None:
    client = store_clients()
    window = SharedWindow(client, store_prefix, gap_s=10.0, per_minute=20)
    await client.set(f"{store_prefix}:tg:edits:{{-100}}", "damaged")
    assert await window.reserve("-100") == 0.0
    assert 9.0 < await window.reserve("-100") <= 10.0


async def test_the_coalescer_waits_for_the_shared_slot() -> None:
    time = FakeTime()
    waits = [2.5, 0.0]

    class Shared:
        async def reserve(self, key: str) -> float:
            return waits.pop(0)

    coalescer = EditCoalescer(clock=time.clock, sleep=time.sleep, shared=Shared())
    ran: list[float] = []

    async def op() -> None:
        ran.append(time.t)

    coalescer.submit("-100", op)
    await coalescer.flush()
    assert ran == [2.5] and waits == []
