# ruff: noqa: F811  (pytest fixtures imported from test_season_telegram)
"""``/replay`` through the Telegram adapter (issue 29): real Bot API update JSON through
python-telegram-bot's Application into the service (fakeredis, and the Redis at
REDIS_URL when set), every Bot API request into FakeBotAPI. The command posts the step
in the group with its buttons; a button press edits that very message; forged and
stale presses are answered in the callback's toast and edit nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_season_telegram import CHAT, tg  # noqa: F401
from test_telegram_app import ANA, BIA, GROUP, Tg

from adapters.telegram.app import COMMANDS

RECORD = (Path(__file__).parent / "data" / "replay-buraco.json").read_text()
GID = "g29tg"


def _replay_message(tg: Tg) -> dict[str, Any]:
    (found,) = [m for m in tg.fake.current(int(GROUP["id"]))
                if "Replay · " in m["text"]]
    return found


def _labels(message: dict[str, Any]) -> list[list[str]]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [[b["text"] for b in row] for row in rows]


async def _forged(tg: Tg, message: dict[str, Any], data: str) -> str:
    """Ana presses a button carrying ``data`` under ``message``; the toast's text."""
    forged = {**message, "reply_markup": {"inline_keyboard": [[
        {"text": "x", "callback_data": data}]]}}
    query = await tg.press(ANA, forged, "x")
    return str(tg.answer(query).get("text"))


async def test_replay_is_posted_and_stepped_in_place_by_its_buttons(tg: Tg) -> None:
    await tg.command(ANA, "/replay")
    assert tg.fake.texts_to(int(GROUP["id"]))[-1] == (
        "Ainda não há partida terminada neste grupo.")
    store = tg.service.store
    await store.save_record(GID, RECORD)
    await store.set_setting(CHAT.key, "last_game", GID)
    await tg.command(BIA, "/replay")
    first = _replay_message(tg)
    assert first["text"].splitlines()[:3] == [
        "<b>Buraco · até 1000 pontos</b>", "Replay · mão 1 de 7 · início",
        "Dupla 1 (Ana, Bia): 0 pts · nesta mão: 0 em jogos"]
    assert _labels(first) == [["Mão ▶", "Fim ⏭"], ["Jogada ▶"]]
    sends = len(tg.fake.called("sendMessage"))
    query = await tg.press(ANA, first, "Jogada ▶")
    assert tg.answer(query).get("text") is None  # no toast: the message changed
    (edit,) = tg.fake.called("editMessageText")
    assert (edit["chat_id"], edit["message_id"]) == (GROUP["id"], first["message_id"])
    now = _replay_message(tg)
    assert now["text"].splitlines()[1] == "Replay · mão 1 de 7 · jogada 1 de 15"
    assert now["text"].splitlines()[-1] == "Ana comprou do monte."
    assert _labels(now) == [["Mão ▶", "Fim ⏭"], ["◀ Jogada", "Jogada ▶"]]
    await tg.press(BIA, now, "Fim ⏭")
    end = _replay_message(tg)["text"].splitlines()
    assert end[1] == "Replay · mão 7 de 7 · jogada 50 de 50"
    assert end[-1] == "Fim da partida! Vencedor: Dupla 2 (Robô 2, Robô 4) com 1050 pontos."
    assert len(tg.fake.called("sendMessage")) == sends  # edited in place, nothing posted
    data = now["reply_markup"]["inline_keyboard"][1][1]["callback_data"]  # "Jogada ▶"
    assert data == f"{GID}|1|rp|0.2" and len(data.encode()) <= 64


async def test_forged_and_stale_replay_presses_get_one_toast_and_edit_nothing(tg: Tg) -> None:
    store = tg.service.store
    await store.save_record(GID, RECORD)
    await store.set_setting(CHAT.key, "last_game", GID)
    await tg.command(ANA, "/replay")
    old = _replay_message(tg)
    edits = len(tg.fake.called("editMessageText"))
    assert await _forged(tg, old, f"{GID}|1|rp|9.0") == "Botão desconhecido."
    assert await _forged(tg, old, f"{GID}|1|rp|0.99") == "Botão desconhecido."
    assert await _forged(tg, old, f"{GID}|1|rp|A♣") == "Botão desconhecido."
    await tg.command(ANA, "/replay")  # a new replay message: the old one's buttons are stale
    assert await _forged(tg, old, f"{GID}|1|rp|0.1") == (
        "Este replay foi substituído: use /replay de novo.")
    assert len(tg.fake.called("editMessageText")) == edits


def test_replay_is_one_of_the_commands_telegram_lists() -> None:
    assert ("replay", "Rever a última partida terminada, jogada a jogada") in COMMANDS
