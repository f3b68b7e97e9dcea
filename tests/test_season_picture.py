# ruff: noqa: F811  (pytest fixtures imported from the support modules)
"""The match in a picture (issue 29): a line chart of each side's score deal by deal,
drawn with matplotlib's object API off the event loop, cached by content, sent with its
caption through the service and the Telegram adapter."""

from __future__ import annotations

from season_support import Redis, play_match, redis, worker  # noqa: F401
from test_service_support import ANA, BIA, CHAT, FakeClock, game_of

from bot.effects import Picture
from bot.i18n import Translator
from bot.season import picture
from bot.season.facts import MatchFacts

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_chart_is_a_png_drawn_once_per_content() -> None:
    chart = picture.Chart("Partida de Tranca", ("Ana (vencedor)", "Bia"),
                          ((0, 300, 1620), (0, 500, 900)), 1500, "mão", "pontos")
    png = picture.draw(chart)
    assert png.startswith(PNG)
    assert int.from_bytes(png[16:20], "big") == 720  # for a phone (issue 38)
    assert picture.draw(chart) is png  # from the cache: not drawn again
    other = picture.Chart("Partida de Tranca", ("Ana", "Bia (vencedor)"),
                          ((0, 300, 620), (0, 500, 1900)), 1500, "mão", "pontos")
    assert picture.draw(other) != png


async def test_the_match_end_sends_the_picture_with_its_caption(redis: Redis) -> None:
    svc, store, season = worker(redis, FakeClock())
    gid, effects = await play_match(svc, store, CHAT, [ANA, BIA])
    (pic,) = [e for e in effects if isinstance(e, Picture)]
    _v, game = await game_of(store, gid=gid)
    facts = MatchFacts.model_validate_json(await season.load_facts(gid) or "")
    assert pic.chat == CHAT and pic.filename == f"tranca-{gid}.png"
    assert pic.content.startswith(PNG)
    assert pic.caption == (
        "Ana: -480 pontos, canastras 0, batidas 0\n"
        "Bia: -300 pontos, canastras 0, batidas 0")
    # the group reads the match's end once (a tester read it twice, issue 35)
    said = [e.text for e in effects if e.kind == "say"] + [pic.caption]
    assert sum(t.count("Fim da partida") for t in said) == 1
    assert "Fim da partida! Vencedor: Bia com -300 pontos." in said
    chart = picture.chart_of(game, facts, Translator("en"))
    assert (chart.title, chart.labels, chart.totals, chart.target) == (
        "Tranca match", ("Ana", "Bia (winner)"), ((0, -480), (0, -300)), None)
    assert [e.kind for e in effects][-1] == "picture"  # after the winner's announcement


async def test_a_dupla_wins_in_the_plural_and_the_target_is_labelled(redis: Redis) -> None:
    """Issue 38: the match picture said "(vencedor)" of a dupla and left the target line
    unlabelled: a side of two is "(vencedores)", and the line is "alvo 1500"."""
    from test_service_support import CAIO, DANI

    svc, store, season = worker(redis, FakeClock())
    gid, _effects = await play_match(svc, store, CHAT, [ANA, BIA, CAIO, DANI])
    _v, game = await game_of(store, gid=gid)
    facts = MatchFacts.model_validate_json(await season.load_facts(gid) or "")
    charts = {lang: picture.chart_of(game, facts, Translator(lang)) for lang in ("pt", "en")}
    won = facts.winner
    assert charts["pt"].labels[won].endswith(" (vencedores)")
    assert charts["en"].labels[won].endswith(" (winners)")
    assert charts["pt"].labels[1 - won].startswith("Dupla ")
    assert charts["pt"].target is None and charts["pt"].target_label == ""  # one deal
    game.options["target"] = 1500  # the same match played to 1500
    assert [picture.chart_of(game, facts, Translator(lang)).target_label
            for lang in ("pt", "en", "it")] == ["alvo 1500", "target 1500", "obiettivo 1500"]
