"""Every round of a tournament ends with its standings (issue 29, docs/season.md
"Torneios": after each round the group gets the standings as a picture with the text
as its caption, one message): a round robin pairs all its rounds at the start, and each
one is announced when its last match ends, once, even when the match's follow-up is
redone."""

from __future__ import annotations

from season_support import Redis, redis, worker  # noqa: F401  (fixture)
from test_service_support import ANA, BIA, CAIO, CHAT, FakeClock, game_of
from tournament_support import press, record, show_up_and_play

from bot import upkeep
from bot.effects import Picture, Say
from bot.i18n import Translator
from bot.season.tournament import texts


async def test_each_round_of_a_round_robin_posts_its_standings_once(
        redis: Redis) -> None:  # noqa: F811
    svc, store, season = worker(redis, FakeClock())
    await svc.tournament(CHAT, ANA, "todos individual tranca")
    for person in (BIA, CAIO):
        await press(svc, CHAT, person, "ti")
    await press(svc, CHAT, ANA, "tc")
    assert [m.round for m in (await record(svc, CHAT)).matches] == [1, 2, 3]
    for r in (1, 2, 3):
        out = await show_up_and_play(svc, store, CHAT)
        t = await record(svc, CHAT)
        said = [e.text for e in out if isinstance(e, Say)]
        board = texts.board_text(t, Translator("pt"))
        assert not [s for s in said if board in s]  # issue 38: once, as the caption
        assert "Classificação:" in board.splitlines()
        pictures = [e for e in out if isinstance(e, Picture) and board in e.caption]
        assert [p.caption for p in pictures] == [f"🏆 Terminou: Rodada {r}.\n{board}"]
        assert pictures[0].content.startswith(b"\x89PNG")
        _v, game = await game_of(store, gid=t.counted[-1])
        assert await upkeep.close_out(store, game, season) == []  # a redone follow-up
        assert (await record(svc, CHAT)).model_dump() == t.model_dump()
    assert said[-1] == f"🏆 Campeão do torneio: {texts.side_name(t, t.champion)}!"


def test_a_walkover_says_w_o_once_and_absent_in_the_plural_for_two_sides() -> None:
    """A fresh tester read "🏆 W.O.: Ana x Caio: W.O. (Caio ausente) → Ana" and "Bia, Ana
    ausente": W.O. is said once, and two absent sides are "ausentes" (pt, en, it)."""
    from bot.effects import PlayerRef
    from bot.season.tournament.model import Match, Side, Tournament

    people = [PlayerRef(platform="tg", user_id=str(i), name=n)
              for i, n in enumerate(["Ana", "Bia", "Caio"])]
    t = Tournament(id="t1", chat=CHAT, creator=people[0], status="running",
                   sides=[Side(people=[p]) for p in people],
                   matches=[Match(round=1, a=0, b=2, absent=[2], winner=0),
                            Match(round=2, a=1, b=0, absent=[1, 0], winner=-1)])
    pt, en, it = Translator("pt"), Translator("en"), Translator("it")
    assert texts.wo_text(t, t.matches[0], pt) == "🏆 W.O.: Ana x Caio (Caio ausente) → Ana"
    assert texts.wo_text(t, t.matches[1], pt) == (
        "🏆 W.O.: Bia x Ana (Bia, Ana ausentes) → ninguém")
    assert texts.match_line(t, t.matches[1], pt) == (
        "Bia x Ana: W.O. (Bia, Ana ausentes) → ninguém")
    assert texts.wo_text(t, t.matches[0], en) == (
        "🏆 Walkover: Ana vs Caio (Caio absent) → Ana")
    assert texts.match_line(t, t.matches[1], it) == (
        "Bia contro Ana: forfait (Bia, Ana assenti) → nessuno")


def test_a_knockouts_double_walkover_says_the_better_seed_goes_through() -> None:
    """Issue 38: "🏆 W.O.: Bia x Caio (Bia, Caio ausentes) → Bia" did not say why Bia
    went on: the better seed (the earlier sign-up), in pt, en and it."""
    from bot.effects import PlayerRef
    from bot.season.tournament.model import Match, Side, Tournament

    people = [PlayerRef(platform="tg", user_id=str(i), name=n)
              for i, n in enumerate(["Ana", "Bia", "Caio", "Dani"])]
    t = Tournament(id="t1", chat=CHAT, creator=people[0], status="running", knockout=True,
                   sides=[Side(people=[p]) for p in people],
                   matches=[Match(round=1, a=0, b=3, absent=[3], winner=0),
                            Match(round=1, a=1, b=2, absent=[1, 2], winner=1)])
    said = {lang: texts.wo_text(t, t.matches[1], Translator(lang)) for lang in ("pt", "en", "it")}
    assert said == {
        "pt": "🏆 W.O.: Bia x Caio (Bia, Caio ausentes) → Bia, a melhor cabeça de chave",
        "en": "🏆 Walkover: Bia vs Caio (Bia, Caio absent) → Bia, the better seed",
        "it": "🏆 Forfait: Bia contro Caio (Bia, Caio assenti) → Bia, testa di serie migliore"}
    assert texts.match_line(t, t.matches[1], Translator("pt")) == (
        "Bia x Caio: W.O. (Bia, Caio ausentes) → Bia, a melhor cabeça de chave")
    assert texts.wo_text(t, t.matches[0], Translator("pt")) == (
        "🏆 W.O.: Ana x Dani (Dani ausente) → Ana")
