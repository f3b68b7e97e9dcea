"""Every round of a tournament ends with its standings (issue 29, docs/season.md
"Torneios": "After each round the group gets the standings … as text and as a
picture"): a round robin pairs all its rounds at the start, and each one is announced
when its last match ends, once, even when the match's follow-up is redone."""

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
        assert [s for s in said if s.startswith("🏆 Terminou")] == [
            f"🏆 Terminou: Rodada {r}.\n{board}"]
        assert "Classificação:" in board.splitlines()
        pictures = [e for e in out if isinstance(e, Picture) and e.caption == board]
        assert len(pictures) == 1 and pictures[0].content.startswith(b"\x89PNG")
        _v, game = await game_of(store, gid=t.counted[-1])
        assert await upkeep.close_out(store, game, season) == []  # a redone follow-up
        assert (await record(svc, CHAT)).model_dump() == t.model_dump()
    assert said[-1] == f"🏆 Campeão do torneio: {texts.side_name(t, t.champion)}!"
