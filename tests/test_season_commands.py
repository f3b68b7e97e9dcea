# ruff: noqa: F811  (pytest fixtures imported from the support modules)
"""/ranking by period, /ranking geral, /perfil and achievements (issue 29), played
through the service on a (fake or real) Redis."""

from __future__ import annotations

from season_support import Redis, play_match, redis, worker  # noqa: F401
from test_service_support import ANA, BIA, CAIO, CHAT, CHAT2, FakeClock, game_of

from adapters.storage.season import RedisSeason
from bot.effects import Picture, Reply, Say
from bot.season.facts import MatchFacts
from bot.season.rating import Rating

WEEK = 7 * 86_400


async def _text(calls: list) -> str:  # type: ignore[type-arg]
    (reply,) = calls
    assert isinstance(reply, Reply)
    return reply.text


async def _facts(season: RedisSeason, gid: str) -> MatchFacts:
    return MatchFacts.model_validate_json(await season.load_facts(gid) or "")


async def test_ranking_by_period_counts_each_match_in_its_week(redis: Redis) -> None:
    clock = FakeClock()  # 2027-01-15 05:00 in Brasília
    svc, store, season = worker(redis, clock)
    first, _e = await play_match(svc, store, CHAT, [ANA, BIA])
    clock.advance(WEEK + 3600)  # the next week, the same month
    second, _e = await play_match(svc, store, CHAT, [ANA, BIA])
    f1, f2 = await _facts(season, first), await _facts(season, second)
    ratings = dict(zip([ANA.key, BIA.key], await season.ratings(CHAT.key, [ANA.key, BIA.key]),
                       strict=True))

    def line(i: int, who: str, name: str, facts: list[MatchFacts]) -> str:
        side = next(p.side for p in facts[0].people if p.key == who)
        wins = sum(f.winner == side for f in facts)
        points = sum(f.sides[side].total for f in facts)
        shown = Rating.parse(ratings[who]).shown
        won = "vitória" if wins == 1 else "vitórias"  # pt-BR plural: n != 1
        played = "partida" if len(facts) == 1 else "partidas"
        return (f"{i}. {name}: {wins} {won} em {len(facts)} {played} "
                f"({round(100 * wins / len(facts))}%), pontos {points}, "
                f"rating {shown} (provisório)")

    def table(title: str, facts: list[MatchFacts]) -> str:
        rows = sorted([(ANA.key, "Ana"), (BIA.key, "Bia")], key=lambda kn: (
            -sum(f.winner == next(p.side for p in f.people if p.key == kn[0]) for f in facts),
            -sum(f.sides[next(p.side for p in f.people if p.key == kn[0])].total
                 for f in facts)))
        return "\n".join([title] + [line(i, k, n, facts) for i, (k, n) in enumerate(rows, 1)])

    week = await _text(await svc.ranking(CHAT, ANA, "semana"))
    assert week == table("Ranking do grupo — esta semana", [f2])
    assert await _text(await svc.ranking(CHAT, ANA, "mes")) == table(
        "Ranking do grupo — este mês", [f1, f2])
    assert await _text(await svc.ranking(CHAT, ANA, "")) == table(
        "Ranking do grupo — desde sempre", [f1, f2])
    assert await _text(await svc.ranking(CHAT2, ANA, "ano")) == (
        "Ranking do grupo — este ano\nNinguém terminou uma partida neste período.")
    assert await _text(await svc.ranking(CHAT, ANA, "dia")) == (
        "Período desconhecido: dia. Use semana, mes, ano, sempre ou geral.")


async def test_ranking_geral_lists_only_people_who_chose_and_played_here(
        redis: Redis) -> None:
    svc, store, season = worker(redis, FakeClock())
    await play_match(svc, store, CHAT, [ANA, BIA])
    await play_match(svc, store, CHAT2, [CAIO, BIA])
    assert await _text(await svc.ranking(CHAT, ANA, "geral")) == (
        "Ranking geral (todos os grupos; só quem joga aqui e escolheu aparecer com "
        "/perfil publico)\nNinguém deste grupo escolheu aparecer no ranking geral.")
    assert await _text(await svc.profile(CHAT, ANA, "publico")) == (
        "Você aparece no ranking geral.")
    assert await _text(await svc.profile(CHAT2, CAIO, "público")) == (
        "Você aparece no ranking geral.")
    ana = Rating.parse((await season.ratings("", [ANA.key]))[0])
    here = await _text(await svc.ranking(CHAT, BIA, "geral"))
    # Caio chose to appear but never played in this group: not listed here
    assert here.splitlines()[1:] == [f"1. Ana: rating {ana.shown} (provisório), partidas 1"]
    assert await _text(await svc.profile(CHAT, ANA, "privado")) == (
        "Você não aparece mais no ranking geral.")
    assert (await _text(await svc.ranking(CHAT, BIA, "geral"))).splitlines()[1] == (
        "Ninguém deste grupo escolheu aparecer no ranking geral.")


async def test_perfil_from_the_counters_and_achievements_announced_once(redis: Redis) -> None:
    clock = FakeClock()
    svc, store, season = worker(redis, clock)
    gid, effects = await play_match(svc, store, CHAT, [ANA, BIA])
    _v, game = await game_of(store, gid=gid)
    winner, loser = ("Ana", "Bia") if game.winner == 0 else ("Bia", "Ana")
    says = [e.text for e in effects if isinstance(e, Say)]
    # the safe moves never take the pile: the winner's first win is also one without it
    assert f"🏅 {winner}: Primeira vitória, Vitória sem pegar o lixo" in says
    assert not any(s.startswith(f"🏅 {loser}") for s in says)
    facts = await _facts(season, gid)
    clock.advance(600)
    _gid2, again = await play_match(svc, store, CHAT, [ANA, BIA])
    assert not any(e.text.startswith(f"🏅 {winner}") for e in again if isinstance(e, Say))
    person = next(p for p in facts.people if p.name == winner)
    fields, trend = await season.profile(CHAT.key, person.key)
    assert fields["matches"] == "2" and fields["a:first_win"] == str(int(facts.ended_at))
    assert len(trend) == 2
    (pic,) = await svc.profile(CHAT, BIA, f"@{winner.lower()}")
    assert isinstance(pic, Picture) and pic.chat == CHAT and pic.filename == "perfil.png"
    assert pic.content.startswith(b"\x89PNG\r\n\x1a\n")  # the trend and the variants drawn
    lines = pic.caption.splitlines()  # the profile's text: the picture's caption
    assert lines[0] == f"Perfil de {winner} neste grupo"
    rating = Rating.parse((await season.ratings(CHAT.key, [person.key]))[0])
    assert lines[1] == f"Rating: {rating.shown} (provisório)"
    assert lines[2] == f"Tendência: {trend[1]} → {trend[0]}"
    wins = int(fields["wins"])
    assert lines[3] == f"Partidas 2, vitórias {wins} ({round(50 * wins)}%)"
    assert lines[4] == f"Por variante: Tranca {wins}/2 ({round(50 * wins)}%)"
    assert lines[-2] == "Conquistas: Primeira vitória, Vitória sem pegar o lixo"
    assert lines[-1] == "Fora do ranking geral (/perfil publico para aparecer)."
    assert await _text(await svc.profile(CHAT, ANA, "@Zé")) == (
        "Não achei @Zé entre quem já jogou neste grupo.")


async def test_ajuda_lists_the_season_commands(redis: Redis) -> None:
    svc, _store, _season = worker(redis, FakeClock())
    lines = (await _text(await svc.help(CHAT, ANA))).splitlines()
    assert lines[lines.index("/idioma [pt|en|it] — idioma do grupo") + 1:][:3] == [
        "/ranking [semana|mes|ano|sempre|geral] — ranking do grupo por período",
        "/perfil [@pessoa|publico|privado] — partidas, conquistas e rating",
        "/config — configuração do grupo (os admins mudam)"]
