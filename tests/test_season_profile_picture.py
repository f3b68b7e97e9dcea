# ruff: noqa: F811  (pytest fixtures imported from the support modules)
"""The profile in a picture (issue 29 "Pictures"): ``/perfil`` sends the rating trend as
a line and the matches and wins by variant as bars, drawn with the season's picture
machinery (matplotlib's object API, a worker thread, cached by content), with the
profile's text as the caption; the text alone when there is nothing to draw, in the
terminal, or when the drawing fails. Through the service, and through the Telegram
adapter (sendPhoto with the caption)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from season_support import Redis, play_match, redis, worker  # noqa: F401
from test_season_telegram import CHAT as TG_CHAT
from test_season_telegram import PEOPLE, tg  # noqa: F401
from test_service_support import ANA, BIA, CAIO, CHAT, FakeClock, game_of
from test_telegram_app import ANA as TG_ANA
from test_telegram_app import BIA as TG_BIA
from test_telegram_app import GROUP, Tg

from bot.effects import ChatRef, Picture, Reply
from bot.i18n import Translator
from bot.season import profile_picture, texts
from bot.season.picture import _cache

PNG = b"\x89PNG\r\n\x1a\n"
FIELDS = {"name": "Ana", "matches": "7", "wins": "4", "matches:tranca": "4",
          "wins:tranca": "3", "matches:buraco": "3", "wins:buraco": "1", "streak": "2"}
TREND = [1040, 1012, 1023, 1001]  # newest first, as the store keeps it


def _size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def test_the_chart_holds_the_trend_oldest_first_and_each_variants_counts() -> None:
    chart = profile_picture.chart_of("Ana", FIELDS, TREND, Translator("pt"))
    assert chart is not None
    assert (chart.title, chart.trend, chart.labels, chart.matches, chart.wins) == (
        "Perfil de Ana neste grupo", (1001, 1023, 1012, 1040), ("Buraco", "Tranca"),
        (3, 4), (1, 3))
    english = profile_picture.chart_of("Ana", FIELDS, TREND, Translator("en"))
    assert english is not None
    assert (english.trend_title, english.bars_title, english.matches_label,
            english.wins_label) == ("Rating over the last matches", "By variant", "matches",
                                    "wins")
    assert profile_picture.chart_of("Ana", {"name": "Ana"}, [], Translator("pt")) is None


def test_a_profile_is_a_720_pixel_wide_png_drawn_once_per_content() -> None:
    chart = profile_picture.chart_of("Ana", FIELDS, TREND, Translator("pt"))
    assert chart is not None
    _cache.pop(chart.key(), None)
    png = profile_picture.draw(chart)
    assert png.startswith(PNG) and _size(png)[0] == 720  # for a phone (issue 38)
    assert profile_picture.draw(chart) is png  # from the cache: not drawn again
    other = profile_picture.chart_of("Ana", {**FIELDS, "wins:buraco": "2"}, TREND,
                                     Translator("pt"))
    assert other is not None and other.key() != chart.key()
    assert profile_picture.draw(other) != png


async def test_perfil_sends_the_picture_with_the_profile_text_as_caption(redis: Redis) -> None:
    svc, store, season = worker(redis, FakeClock())
    await play_match(svc, store, CHAT, [ANA, BIA])
    (pic,) = await svc.profile(CHAT, BIA)
    assert isinstance(pic, Picture) and pic.chat == CHAT and pic.filename == "perfil.png"
    assert pic.content.startswith(PNG) and _size(pic.content)[0] == 720
    fields, trend = await season.profile(CHAT.key, BIA.key)
    rating = (await season.ratings(CHAT.key, [BIA.key]))[0]
    assert pic.caption == texts.profile_text("Bia", fields, trend, rating, None,
                                             Translator("pt"))
    assert pic.caption.splitlines()[2:4] == ["Partidas 1, vitórias 1 (100%)",
                                             "Por variante: Tranca 1/1 (100%)"]
    chart = profile_picture.chart_of("Bia", fields, trend, Translator("pt"))
    assert chart is not None and (chart.labels, chart.matches, chart.wins) == (
        ("Tranca",), (1,), (1,))
    assert pic.content == profile_picture.draw(chart)


async def test_perfil_with_nothing_to_draw_is_the_text_alone(redis: Redis) -> None:
    svc, _store, _season = worker(redis, FakeClock())
    (reply,) = await svc.profile(CHAT, CAIO)  # never played here
    assert isinstance(reply, Reply) and reply.text.splitlines()[:2] == [
        "Perfil de Caio neste grupo", "Rating: 1000 (provisório)"]


async def test_perfil_in_the_terminal_is_the_text_alone(redis: Redis) -> None:
    svc, store, _season = worker(redis, FakeClock())
    solo = ChatRef(platform="cli", chat_id="local", title="")
    await play_match(svc, store, CHAT, [ANA, BIA])
    await play_match(svc, store, solo, [ANA.model_copy(update={"platform": "cli"}),
                                        BIA.model_copy(update={"platform": "cli"})])
    (reply,) = await svc.profile(solo, BIA.model_copy(update={"platform": "cli"}))
    assert isinstance(reply, Reply) and reply.text.startswith("Seu perfil no terminal\n")


async def test_a_drawing_that_fails_falls_back_to_the_text(redis: Redis,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           caplog: Any) -> None:
    svc, store, _season = worker(redis, FakeClock())
    await play_match(svc, store, CHAT, [ANA, BIA])
    (pic,) = await svc.profile(CHAT, ANA)
    assert isinstance(pic, Picture)

    def broken(chart: Any) -> bytes:
        raise RuntimeError("no fonts")

    monkeypatch.setattr(profile_picture, "_draw", broken)
    _cache.clear()
    with caplog.at_level(logging.ERROR):
        (reply,) = await svc.profile(CHAT, ANA)
    assert isinstance(reply, Reply) and reply.text == pic.caption
    assert "profile picture failed (RuntimeError)" in caplog.text


async def test_telegram_perfil_sends_a_photo_with_the_profile_as_caption(tg: Tg) -> None:
    await tg.command(TG_ANA, "/novojogo tranca")
    await tg.command(TG_BIA, "/entrar")
    await tg.command(TG_ANA, "/iniciar")
    from season_support import play_to_end

    store = tg.service.store
    gid = (await game_of(store, TG_CHAT))[1].id
    await play_to_end(tg.service, store, gid, PEOPLE[0])  # type: ignore[arg-type]
    (want,) = await tg.service.profile(TG_CHAT, PEOPLE[1])
    assert isinstance(want, Picture)
    photos = len(tg.fake.called("sendPhoto"))  # the match's own picture went out already
    await tg.command(TG_ANA, "/perfil Bia")
    sent = tg.fake.called("sendPhoto")[photos:]
    assert [(s["chat_id"], s["caption"]) for s in sent] == [(GROUP["id"], want.caption)]
    assert want.caption.splitlines()[0] == "Perfil de Bia neste grupo"


async def test_telegram_a_caption_too_long_goes_whole_after_the_photo(tg: Tg) -> None:
    caption = "\n".join(f"Linha {n}: " + "x" * 60 for n in range(20))  # 1,379 characters
    assert len(caption) > 1024
    pic = Picture(chat=TG_CHAT, filename="perfil.png", content=PNG + b"0" * 64,
                  caption=caption)
    await tg.handlers.outbox.deliver([pic])
    (sent,) = tg.fake.called("sendPhoto")
    assert sent.get("caption") is None
    assert tg.fake.texts_to(int(GROUP["id"]))[-1] == caption  # never cut
