"""The queue to find players (issue 35, bot/matchmaking.py, adapters/storage/queue.py):
``/procurar`` joins a queue, a formation round makes full tables of people close in
global rating (the band widening with the wait), robots fill a table when asked, entries
expire, ``/sairfila`` leaves, ``/bloquear`` keeps two people apart; on fakeredis and the
real Redis (REDIS_URL). The fault test: 1,000 people joining and leaving at random on two
workers while both form tables: nobody at two tables, nobody lost, every table full."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from season_support import KINDS, Redis
from test_service_support import FakeClock, make_service

from adapters.storage import RedisStore
from adapters.storage.queue import RedisQueue
from adapters.storage.season import RedisSeason
from bot import matchmaking
from bot.effects import ChatRef, PlayerRef
from bot.model import Game, decode
from bot.season.ports import PLATFORM
from bot.season.rating import Rating
from bot.service import Service


@pytest.fixture(params=KINDS)
async def redis(request: pytest.FixtureRequest) -> AsyncIterator[Redis]:
    """One (fake or real) Redis under a fresh prefix, its keys deleted afterwards."""
    made = Redis(request.param)
    yield made
    await made.close()


GROUP = ChatRef(platform="tg", chat_id="-100", title="Grupo")
CHANNEL = ChatRef(platform="dc", chat_id="900", title="#mesa")


def tg(n: int, name: str = "") -> PlayerRef:
    return PlayerRef(platform="tg", user_id=str(n), name=name or f"P{n}")


def worker(redis: Redis, clock: FakeClock) -> Service:
    store = redis.store()
    return make_service(store, clock, queue=RedisQueue(store.client, redis.prefix),
                        season=RedisSeason.beside(store))


async def games_of(svc: Service) -> list[Game]:
    store = svc.store
    assert isinstance(store, RedisStore)
    return [decode(got[1]) async for gid in store.game_ids()
            if (got := await store.load_game(gid)) is not None]


def texts(effects: list[Any]) -> list[str]:
    return [e.text for e in effects if e.kind in ("reply", "tell")]


async def test_four_people_queued_get_one_table_in_their_private_chats(
        redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    said = [texts(await svc.seek(GROUP, tg(i), "buraco 4"))[0] for i in range(1, 5)]
    assert said[0] == ("Você está na fila de Buraco (4 jogadores): 1 esperando. A mesa abre "
                       "no seu privado assim que se formar. Para sair: /sairfila")
    assert said[3].startswith("Você está na fila de Buraco (4 jogadores): 4 esperando.")
    effects = await svc.form_tables()
    (game,) = await games_of(svc)
    assert game.matched and game.status == "playing" and game.preset == "buraco"
    assert sorted(p.name for _s, p in game.humans()) == ["P1", "P2", "P3", "P4"]
    assert sorted(p.key for p in game.all_places()) == ["tg:1", "tg:2", "tg:3", "tg:4"]
    tables = [e for e in effects if e.kind == "table"]
    assert sorted(e.chat.key for e in tables) == ["tg:1", "tg:2", "tg:3", "tg:4"]
    formed = [e for e in effects if e.kind == "tell"]
    assert len(formed) == 4 and formed[0].text.startswith("Mesa formada: ")
    assert await svc.queue.queues() == []  # type: ignore[union-attr]


async def test_a_person_queued_or_seated_is_told_so(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "tranca 2")
    assert texts(await svc.seek(GROUP, tg(1), "buraco 4")) == [
        "Você já está na fila (Tranca 2). Para sair: /sairfila"]
    await svc.seek(GROUP, tg(2), "tranca 2")
    await svc.form_tables()
    assert texts(await svc.seek(GROUP, tg(1), "tranca 2")) == [
        "Você já está numa mesa formada pela fila: termine-a (ou /sair) antes de procurar "
        "outra."]
    (game,) = await games_of(svc)
    await svc.cancel(game.chat, tg(1))  # the game is over: the seat no longer holds
    assert texts(await svc.seek(GROUP, tg(1), "tranca 2"))[0].startswith(
        "Você está na fila de Tranca (2 jogadores)")


async def test_leaving_the_queue(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "buraco 2")
    assert texts(await svc.unseek(GROUP, tg(1))) == ["Você saiu da fila."]
    assert texts(await svc.unseek(GROUP, tg(1))) == ["Você não está na fila."]
    await svc.seek(GROUP, tg(2), "buraco 2")
    assert await svc.form_tables() == []  # Ana left: Bia waits alone


async def test_an_entry_expires_with_a_message(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(CHANNEL, PlayerRef(platform="dc", user_id="7", name="Zé"), "buraco 2")
    clock.advance(matchmaking.QUEUE_TTL_S)
    effects = await svc.form_tables()
    expired = ("Ninguém para a sua mesa em 10 min: você saiu da fila. Mande /procurar "
               "de novo quando quiser.")
    assert [(e.kind, e.chat.key, e.text) for e in effects if e.kind == "tell"] == [
        ("tell", "dc:900", expired)]
    # the queue's answer loses its "Sair da fila" (issue 35)
    assert [(e.player.key, e.mark, e.text) for e in effects if e.kind == "rewrite"] == [
        ("dc:7", "queue", expired)]
    assert await svc.queue.queues() == []  # type: ignore[union-attr]


async def test_the_entry_s_wait_is_the_queue_ttl_setting(redis: Redis, clock: FakeClock) -> None:
    """``QUEUE_TTL_S`` (the service's ``queue_ttl_s``): an entry waits that long, and the
    message names it."""
    store = redis.store()
    svc = make_service(store, clock, queue=RedisQueue(store.client, redis.prefix),
                       queue_ttl_s=120)
    await svc.seek(GROUP, tg(1), "buraco 2")
    clock.advance(119)
    assert await svc.form_tables() == []
    clock.advance(1)
    assert [e.text for e in await svc.form_tables() if e.kind == "tell"] == [
        "Ninguém para a sua mesa em 2 min: você saiu da fila. Mande /procurar de novo "
        "quando quiser."]


async def test_the_band_widens_with_the_wait(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    season = svc.season
    assert season is not None
    await season.replace_ratings(PLATFORM, {"tg:2": Rating(45.0, 25 / 3, 12).text()})
    assert Rating(45.0, 25 / 3, 12).shown == 1400  # tg:1 is new: 1000
    await svc.seek(GROUP, tg(1), "buraco 2")
    await svc.seek(GROUP, tg(2), "buraco 2")
    clock.advance(69)  # a band of 50 + 5 * 69 = 395 < 400
    assert await svc.form_tables() == []
    clock.advance(1)  # 400
    assert len(await games_of(svc)) == 0
    await svc.form_tables()
    (game,) = await games_of(svc)
    assert sorted(p.key for _s, p in game.humans()) == ["tg:1", "tg:2"]


async def test_robots_fill_the_table_after_the_wait_asked(redis: Redis,
                                                         clock: FakeClock) -> None:
    svc = worker(redis, clock)
    assert texts(await svc.seek(GROUP, tg(1), "buraco 4 robos=1")) == [
        "Você está na fila de Buraco (4 jogadores): 1 esperando. A mesa abre no seu privado "
        "assim que se formar. Para sair: /sairfila\nSe a mesa não se completar em 1 min, "
        "robôs ocupam os lugares vazios."]
    assert await svc.form_tables() == []
    clock.advance(60)
    await svc.form_tables()
    (game,) = await games_of(svc)
    assert [s.player.name if s.player else s.ai for s in game.seats] == [
        "P1", "normal", "normal", "normal"]


async def test_a_blocked_person_is_never_matched_with_who_blocked_them(
        redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1, "Ana"), "buraco 2")
    await svc.seek(GROUP, tg(2, "Bia"), "buraco 2")
    await svc.form_tables()
    (game,) = await games_of(svc)
    assert texts(await svc.block(game.chat, tg(1, "Ana"), "bia")) == [
        "A fila não vai mais pôr Bia na sua mesa."]
    assert texts(await svc.block(game.chat, tg(1, "Ana"), "Caio")) == [
        "Use /bloquear seguido do nome de alguém desta mesa."]
    await svc.cancel(game.chat, tg(1))
    await svc.seek(GROUP, tg(2, "Bia"), "buraco 2")
    await svc.seek(GROUP, tg(1, "Ana"), "buraco 2")
    assert await svc.form_tables() == []  # only Ana and Bia wait: never together
    await svc.seek(GROUP, tg(3, "Caio"), "buraco 2")
    await svc.form_tables()
    newest = [g for g in await games_of(svc) if g.status == "playing"]
    assert len(newest) == 1 and "tg:3" in {p.key for _s, p in newest[0].humans()}


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
async def test_bloquear_in_a_telegram_group_names_the_person_only_privately(
        redis: Redis, clock: FakeClock, lang: str) -> None:
    """A Telegram group reads every command's answer: who was blocked goes to the
    person's private chat, the group reads a neutral line (tester, issue 35)."""
    svc = worker(redis, clock)
    await svc.new_game(GROUP, tg(1, "Ana"), "buraco")
    await svc.join(GROUP, tg(2, "Bia"))
    await svc.set_language(GROUP, tg(1, "Ana"), lang)
    effects = await svc.block(GROUP, tg(1, "Ana"), "Bia")
    private, noted = {"pt": ("A fila não vai mais pôr Bia na sua mesa.",
                             "Anotado. A resposta vai no seu privado com o bot."),
                      "en": ("The queue will no longer put Bia at your table.",
                             "Noted. The answer goes to your private chat with the bot."),
                      "it": ("La coda non metterà più Bia al tuo tavolo.",
                             "Fatto. La risposta arriva nella tua chat privata con il bot.")}[lang]
    assert [(e.kind, e.text) for e in effects] == [("tell", private), ("reply", noted)]
    assert effects[0].player.key == "tg:1"
    # a Discord channel's answer is ephemeral: said there, to the person alone
    await svc.new_game(CHANNEL, PlayerRef(platform="dc", user_id="7", name="Zé"), "buraco")
    await svc.join(CHANNEL, PlayerRef(platform="dc", user_id="8", name="Lu"))
    said = await svc.block(CHANNEL, PlayerRef(platform="dc", user_id="7", name="Zé"), "lu")
    assert [(e.kind, e.text) for e in said] == [
        ("reply", "A fila não vai mais pôr Lu na sua mesa.")]


async def test_people_of_both_platforms_share_a_table(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1, "Ana"), "tranca 2")
    await svc.seek(CHANNEL, PlayerRef(platform="dc", user_id="7", name="Zé"), "tranca 2")
    effects = await svc.form_tables()
    (game,) = await games_of(svc)
    assert sorted(p.key for p in game.all_places()) == ["dc:900", "tg:1"]
    assert {(e.kind, e.chat.key) for e in effects if e.kind == "table"} == {
        ("table", "tg:1"), ("table", "dc:900")}
    assert await svc.store.chat_game("dc:900") == game.id  # its commands find the table


@pytest.mark.parametrize("args, said", [
    ("buraco 3", "Mesas de 2 ou de 4: /procurar [variante] [2|4] [robos=minutos]."),
    ("buraco robos=99", "Robôs depois de quantos minutos? Use robos=1 a robos=10."),
    ("altaneira 2", "Biriba com Tranca de Altaneira não se joga com 2 jogadores."),
    ("buraco robos=1 robos=2", "Opção repetida: robos. Dê cada opção uma vez só."),
    ("buraco robos=1 robots=2", "Opção repetida: robots. Dê cada opção uma vez só."),
    ("tranca 2 target=50", "A fila não usa a opção target: a mesa dela segue as regras da "
                           "variante. Use /procurar [variante] [2|4] [robos=minutos]."),
])
async def test_a_bad_request_is_told_and_queues_nobody(redis: Redis, clock: FakeClock,
                                                      args: str, said: str) -> None:
    svc = worker(redis, clock)
    assert texts(await svc.seek(GROUP, tg(1), args)) == [said]
    assert await svc.queue.queues() == []  # type: ignore[union-attr]


async def test_a_table_formed_by_a_worker_that_died_is_made_by_another(
        redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    queue = svc.queue
    assert isinstance(queue, RedisQueue)
    for i in (1, 2):
        await svc.seek(GROUP, tg(i), "buraco 2")
    _expired, tables = await queue.form("buraco:2", 2, clock.now(), 600, (50, 5, 2000),
                                        ["dead0001"])  # then the worker dies
    assert [t["game"] for t in tables] == ["dead0001"] and await games_of(svc) == []
    assert await svc.form_tables() == []  # its lease still runs
    clock.advance(31)
    other = worker(redis, clock)
    await other.form_tables()
    (game,) = await games_of(svc)
    assert game.id == "dead0001" and len(game.humans()) == 2


async def test_a_formed_game_whose_worker_died_before_its_deadline_gets_one(
        redis: Redis, clock: FakeClock) -> None:
    """A worker that dies after storing a formed game but before its deadline leaves a
    started game nobody would move (frozen): the next formation round, finding the game
    made, gives it the deadline its state calls for (its first turn's timer)."""
    svc = worker(redis, clock)
    for i in (1, 2):
        await svc.seek(GROUP, tg(i), "buraco 2")

    async def dies(game_id: str, due_ts: float) -> None:
        raise ConnectionError("worker died before the deadline")

    store = svc.store
    assert isinstance(store, RedisStore)
    setattr(store, "set_deadline", dies)  # noqa: B010 (this worker's store only)
    with pytest.raises(ConnectionError):
        await svc.form_tables()
    (game,) = await games_of(svc)
    assert game.status == "playing" and await store.has_deadline([game.id]) == [False]
    clock.advance(31)  # the formed table's lease (FORMED_LEASE_S) runs out
    other = worker(redis, clock)
    assert await other.form_tables() == []
    assert await store.has_deadline([game.id]) == [True]
    due = await store.client.zscore(store.timers.home_key(game.id), game.id)
    assert due == game.turn_since + game.timer_s


async def test_a_thousand_people_joining_and_leaving_on_two_workers(
        redis: Redis, clock: FakeClock) -> None:
    """Bounded: 1,000 people, each joining, half leaving at random, some joining again,
    while two workers form tables; then the accounting (issue 35 "Queue faults")."""
    rng = random.Random(35)
    workers = [worker(redis, clock), worker(redis, clock)]
    people = [tg(i) for i in range(1, 1001)]
    left: dict[str, bool] = {}

    async def person(p: PlayerRef) -> None:
        w = rng.choice(workers)
        await w.seek(GROUP, p, "buraco 4")
        if rng.random() < 0.5:
            await asyncio.sleep(0)
            left[p.key] = texts(await rng.choice(workers).unseek(GROUP, p)) == [
                "Você saiu da fila."]
            if rng.random() < 0.3:
                await rng.choice(workers).seek(GROUP, p, "buraco 4")
                left[p.key] = False

    async def forming() -> None:
        for _ in range(20):
            await asyncio.gather(*(w.form_tables() for w in workers))
            await asyncio.sleep(0)

    batches = [people[i:i + 100] for i in range(0, 1000, 100)]
    for batch in batches:
        await asyncio.gather(forming(), *(person(p) for p in batch))
    games = await games_of(workers[0])
    seats: dict[str, int] = {}
    for game in games:
        assert len(game.seats) == 4 and len(game.humans()) == 4  # full, no robots asked
        for _s, p in game.humans():
            seats[p.key] = seats.get(p.key, 0) + 1
    assert all(n == 1 for n in seats.values())  # nobody at two tables
    queue = workers[0].queue
    assert isinstance(queue, RedisQueue)
    for p in people:  # nobody lost: seated, waiting, or left by their own /sairfila
        waiting = await queue.queue_of(p.key) is not None
        states = [p.key in seats, waiting, left.get(p.key, False)]
        assert sum(states) == 1, (p.key, states)


async def test_the_leave_button_under_the_answer_leaves_the_queue(
        redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    (reply,) = await svc.seek(GROUP, tg(1), "buraco 2")
    assert [[(b.label, b.data) for b in row] for row in reply.buttons] == [
        [("Sair da fila", "fila|0|qx|")]]
    assert texts(await svc.press(tg(1), "fila|0|qx|", update="tg:q:1")) == [
        "Você saiu da fila."]
    assert await svc.press(tg(1), "fila|0|qx|", update="tg:q:1") == []  # delivered twice
    assert texts(await svc.press(tg(1), "fila|0|qx|")) == ["Você não está na fila."]
    assert texts(await svc.press(tg(1), "fila|0|qx|7")) == ["Botão desconhecido."]


async def test_procurar_on_telegram_answers_with_the_leave_button(
        store_clients: Any, store_prefix: str) -> None:
    """The Telegram adapter on the fake Bot API: ``/procurar`` in the private chat is
    answered with the count and "Sair da fila", whose press leaves the queue."""
    from test_telegram_app import ANA, Clock, bot_on_fake_api, button

    store = RedisStore(store_clients(), store_prefix)
    clock = Clock()
    svc = Service(store, clock, ai_pace_s=0, queue=RedisQueue(store.client, store_prefix))
    async with bot_on_fake_api(store, store_prefix, svc, clock) as bot:
        private = {"id": ANA["id"], "type": "private", "first_name": "Ana"}
        await bot.command(ANA, "/procurar tranca 2", chat=private)
        (answer,) = [m for m in bot.fake.current(ANA["id"]) if "fila" in m["text"]]
        assert answer["text"].startswith("Você está na fila de Tranca (2 jogadores): 1 esperando.")
        assert button(answer, "Sair da fila")["callback_data"] == "fila|0|qx|"
        query = await bot.press(ANA, answer, "Sair da fila")
        assert bot.answer(query)["text"] == "Você saiu da fila."
        assert await svc.queue.queues() == []  # type: ignore[union-attr]


async def test_the_queue_answer_is_kept_and_rewritten_without_its_button_when_the_table_forms(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: the answer to /procurar is kept by the platform (``mark``), and the
    formation rewrites it (no "Sair da fila" left), for each person of the table."""
    svc = worker(redis, clock)
    (reply,) = await svc.seek(GROUP, tg(1, "Ana"), "buraco 2")
    assert reply.mark == "queue"
    await svc.seek(GROUP, tg(2, "Bia"), "buraco 2")
    effects = await svc.form_tables()
    rewrites = [(e.player.key, e.mark, e.text) for e in effects if e.kind == "rewrite"]
    (game,) = await games_of(svc)
    names = ", ".join(game.name_of(i) for i in range(2))
    assert rewrites == [(p.key, "queue", f"Mesa formada: {names}. Você não está mais na fila.")
                        for _s, p in game.humans()]


async def test_leaving_rewrites_the_queue_answer(redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "buraco 2")
    effects = await svc.unseek(GROUP, tg(1))
    assert [(e.kind, e.text) for e in effects] == [("reply", "Você saiu da fila."),
                                                   ("rewrite", "Você saiu da fila.")]


async def test_a_stale_leave_button_after_the_table_formed_says_so_and_changes_nothing(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: "Sair da fila" pressed after the person's table formed: they are told
    they are at a table, and the game and the queue are as they were."""
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "buraco 2")
    await svc.seek(GROUP, tg(2), "buraco 2")
    await svc.form_tables()
    (game,) = await games_of(svc)
    store = svc.store
    assert isinstance(store, RedisStore)
    before = await store.load_game(game.id)
    effects = await svc.press(tg(1), "fila|0|qx|")
    assert [(e.kind, e.text) for e in effects] == [(
        "reply", "Sua mesa já se formou: você não está mais na fila, e nada mudou. A partida "
                 "está no seu privado com o bot (/mao mostra sua mão).")]
    assert await store.load_game(game.id) == before
    assert await svc.queue.queues() == []  # type: ignore[union-attr]
    assert texts(await svc.unseek(GROUP, tg(1))) == [effects[0].text]  # /sairfila alike


async def test_leave_at_a_group_table_names_it_and_changes_nothing(
        redis: Redis, clock: FakeClock) -> None:
    svc = worker(redis, clock)
    await svc.new_game(GROUP, tg(1, "Ana"), "buraco")
    assert texts(await svc.unseek(GROUP, tg(1, "Ana"))) == [
        "Você não está na fila: você está numa mesa (Grupo), e nada mudou."]


async def test_the_telegram_queue_answer_is_edited_when_the_table_forms(
        store_clients: Any, store_prefix: str) -> None:
    """The Telegram adapter on the fake Bot API: the answer to ``/procurar`` with its
    "Sair da fila" is edited, button gone, when the person's table forms."""
    from test_telegram_app import ANA, BIA, Clock, bot_on_fake_api, button

    store = RedisStore(store_clients(), store_prefix)
    clock = Clock()
    svc = Service(store, clock, ai_pace_s=0, queue=RedisQueue(store.client, store_prefix))
    async with bot_on_fake_api(store, store_prefix, svc, clock) as bot:
        for person in (ANA, BIA):
            private = {"id": person["id"], "type": "private", "first_name": person["first_name"]}
            await bot.command(person, "/procurar tranca 2", chat=private)
        (answer,) = [m for m in bot.fake.current(ANA["id"]) if "fila de" in m["text"]]
        assert button(answer, "Sair da fila")["callback_data"] == "fila|0|qx|"
        await bot.handlers.outbox.deliver(await svc.form_tables())
        (edited,) = [m for m in bot.fake.current(ANA["id"])
                     if m["message_id"] == answer["message_id"]]
        assert edited["text"].startswith("Mesa formada: ")
        assert edited["text"].endswith(". Você não está mais na fila.")
        assert not (edited.get("reply_markup") or {}).get("inline_keyboard")


def test_leaving_a_matchmade_game_counts_as_a_loss() -> None:
    """Issue 35 (docs/guia.md §8): in a match the queue formed, a person away at its end
    (they left: the robot played) is rated as having lost, though their side won; in a
    group's match they get half the winner's change (docs/season.md)."""
    from bot.season.facts import MatchFacts, Person, SideFacts
    from bot.season.followup import rated

    def facts(matched: bool) -> MatchFacts:
        return MatchFacts(
            game_id="g1", chat="tg:1", ended_at=0.0, variant="buraco", winner=0,
            people=[Person(key="tg:1", name="Ana", seat=0, side=0, away=True),
                    Person(key="tg:2", name="Bia", seat=1, side=1)],
            sides=[SideFacts(total=1500, rank=0), SideFacts(total=300, rank=1)],
            matched=matched)

    new = Rating()
    assert rated(facts(False), {})["tg:1"].mu > new.mu  # won, at half weight
    left = rated(facts(True), {})
    assert left["tg:1"].mu < new.mu and left["tg:1"].n == 1  # counted as a loss, once
    assert left["tg:2"] == rated(facts(False), {})["tg:2"]  # the others as the match went


async def test_a_person_who_leaves_a_matchmade_game_is_rated_a_loss_once(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35 (docs/guia.md §8), end to end: two people matched by the queue, one
    sends /sair in the first turns and never comes back (the robot plays their seat to
    the end); the match is rated once, the one who left as a loss whatever the result,
    the other as the match went."""
    from season_support import play_to_end

    svc = worker(redis, clock)
    ana, bia = tg(1, "Ana"), tg(2, "Bia")
    await svc.seek(GROUP, ana, "tranca 2")
    await svc.seek(GROUP, bia, "tranca 2")
    await svc.form_tables()
    (game,) = await games_of(svc)
    place = game.place_of(game.seat_of(ana))  # type: ignore[arg-type]
    await svc.leave(place, ana)
    (now,) = await games_of(svc)
    assert now.seats[now.seat_of(ana)].away  # type: ignore[index]  # the robot plays it
    store = svc.store
    assert isinstance(store, RedisStore)
    await play_to_end(svc, store, game.id, bia)
    (over,) = await games_of(svc)
    assert over.status == "over" and over.seats[over.seat_of(ana)].away  # type: ignore[index]
    season = svc.season
    assert season is not None
    left, stayed = (Rating.parse(t) for t in await season.ratings(PLATFORM, [ana.key,
                                                                             bia.key]))
    assert left.n == 1 and left.mu < Rating().mu  # a loss, counted once
    bia_won = over.winner == over.seat_of(bia)
    assert stayed.n == 1 and (stayed.mu > Rating().mu) == bia_won


async def test_a_closed_private_chat_is_told_where_the_person_queued(
        redis: Redis, clock: FakeClock) -> None:
    """The table opens in each person's private chat; their hand names the chat they
    queued in, where the delivery tells them how to open the private chat when it is
    closed (adapters/delivery/outbox.py ``dm_refused``)."""
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1, "Ana"), "tranca 2")
    private = ChatRef(platform="tg", chat_id="2", title="")
    await svc.seek(private, tg(2, "Bia"), "tranca 2")
    effects = await svc.form_tables()
    hands = {e.player.key: e.chat.key for e in effects if e.kind == "hand"}
    assert hands == {"tg:1": "tg:-100", "tg:2": "tg:2"}
    tables = sorted(e.chat.key for e in effects if e.kind == "table")
    assert tables == ["tg:1", "tg:2"]


GROUP_TWO = ChatRef(platform="tg", chat_id="-200", title="Grupo Dois")
ANA_DM = ChatRef(platform="tg", chat_id="1", title="")


async def test_a_person_at_a_group_table_is_not_queued(redis: Redis, clock: FakeClock) -> None:
    """Issue 35 (guide §8): a person playing a group's game, or seated at its lobby
    (starting it would seat them twice), is told so and not queued; after leaving the
    lobby they may queue."""
    svc = worker(redis, clock)
    ana = tg(1, "Ana")
    await svc.new_game(GROUP, ana, "tranca")
    assert texts(await svc.seek(ANA_DM, ana, "tranca 2")) == [
        "Você já está numa mesa (Grupo): termine-a, ou saia dela antes de começar, para "
        "procurar outra."]
    await svc.join(GROUP, tg(2))
    await svc.start(GROUP, ana)
    assert texts(await svc.seek(ANA_DM, ana, "tranca 2"))[0].startswith(
        "Você já está numa mesa (Grupo)")
    assert await svc.queue.queues() == []  # type: ignore[union-attr]
    await svc.new_game(GROUP_TWO, tg(3), "tranca")
    await svc.join(GROUP_TWO, tg(4))
    await svc.leave(GROUP_TWO, tg(4))  # left the lobby: the seat no longer holds
    assert texts(await svc.seek(GROUP_TWO, tg(4), "tranca 2"))[0].startswith(
        "Você está na fila de Tranca (2 jogadores)")


async def test_taking_a_seat_leaves_the_queue_so_no_table_seats_them_twice(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: someone queued who sits down at a lobby (Entrar, /entrar, /novojogo) is
    out of the queue in the same step: the next formation does not seat them."""
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "tranca 2")
    await svc.new_game(GROUP_TWO, tg(3), "tranca")
    assert [e.kind for e in await svc.join(GROUP_TWO, tg(1))] == ["table"]
    assert await svc.queue.queues() == []  # type: ignore[union-attr]
    await svc.seek(GROUP, tg(2), "tranca 2")
    assert await svc.form_tables() == []
    (lobby_game,) = await games_of(svc)
    assert sorted(p.key for _s, p in lobby_game.humans()) == ["tg:1", "tg:3"]
    await svc.seek(GROUP, tg(5), "tranca 2")  # tg:2 still waits, and is matched
    await svc.form_tables()
    matched = [g for g in await games_of(svc) if g.matched]
    assert [sorted(p.key for _s, p in g.humans()) for g in matched] == [["tg:2", "tg:5"]]


class Killed(BaseException):
    """The process dies here (SIGKILL): nothing after it runs."""


async def test_a_kill_right_after_the_seat_is_saved_leaves_it_known_to_the_queue(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: the seat is recorded with the queue *before* the game's save, so a
    process killed right after the save (before anything else of the call) leaves a
    seated person the queue knows: /procurar refuses them and no formation seats them
    at a second table. (Recorded after the save, the kill left them unknown.)"""
    svc = worker(redis, clock)
    await svc.seek(GROUP, tg(1), "tranca 2")
    await svc.new_game(GROUP_TWO, tg(3), "tranca")

    async def killed(*_a: Any) -> None:
        raise Killed

    svc.took_seat = killed  # type: ignore[method-assign]  # the kill: nothing after the save
    with pytest.raises(Killed):
        await svc.join(GROUP_TWO, tg(1))
    again = worker(redis, clock)  # the restarted process
    lobby_game = (await games_of(again))[0]
    assert sorted(p.key for _s, p in lobby_game.humans()) == ["tg:1", "tg:3"]
    assert texts(await again.seek(GROUP, tg(1), "tranca 2")) == [
        "Você já está numa mesa (Grupo Dois): termine-a, ou saia dela antes de começar, para "
        "procurar outra."]
    await again.seek(GROUP, tg(2), "tranca 2")
    assert await again.form_tables() == []  # tg:1 is not in the queue to be matched
    assert [g.id for g in await games_of(again)] == [lobby_game.id]


async def test_a_kill_before_the_seat_is_saved_leaves_the_person_free_to_queue(
        redis: Redis, clock: FakeClock) -> None:
    """The other side of the window: killed after the record, before the save, the
    person holds no seat and is out of the queue (the price of never being at two
    tables: they asked to sit elsewhere, and got no answer); the game counted as theirs
    is seen through (they are not seated at it), so /procurar queues them again."""
    svc = worker(redis, clock)
    await svc.new_game(GROUP_TWO, tg(3), "tranca")
    await svc.seek(GROUP, tg(1), "tranca 2")

    async def killed(*_a: Any, **_k: Any) -> None:
        raise Killed

    svc._run = killed  # type: ignore[method-assign]  # dies before the save
    with pytest.raises(Killed):
        await svc.join(GROUP_TWO, tg(1))
    again = worker(redis, clock)
    (lobby_game,) = await games_of(again)
    assert [p.key for _s, p in lobby_game.humans()] == ["tg:3"]
    assert await again.queue.queue_of("tg:1") is None  # type: ignore[union-attr]
    assert texts(await again.seek(GROUP, tg(1), "tranca 2"))[0].startswith(
        "Você está na fila de Tranca (2 jogadores): 1 esperando.")


async def test_a_refused_entrar_puts_a_queued_person_back_in_their_place(
        redis: Redis, clock: FakeClock) -> None:
    """The seat recorded before the save is undone when the call is refused (a full
    table): the person waits in the queue as before, with their join time."""
    svc = worker(redis, clock)
    await svc.new_game(GROUP_TWO, tg(3), "tranca")
    for n in (4, 5, 6):  # four seats at most: full
        await svc.join(GROUP_TWO, tg(n))
    await svc.seek(GROUP, tg(1), "tranca 2")
    queue = svc.queue
    assert isinstance(queue, RedisQueue)
    since = await queue.client.zscore(queue.keys.queue("t:tranca:2"), "tg:1")
    clock.advance(5)
    refused = texts(await svc.join(GROUP_TWO, tg(1)))
    assert refused == ["A mesa está cheia."]
    assert await queue.queue_of("tg:1") == "tranca:2"
    assert await queue.client.zscore(queue.keys.queue("t:tranca:2"), "tg:1") == since
    assert await queue.seated_at("tg:1") == []
    await svc.seek(GROUP, tg(2), "tranca 2")
    await svc.form_tables()
    matched = [g for g in await games_of(svc) if g.matched]
    assert [sorted(p.key for _s, p in g.humans()) for g in matched] == [["tg:1", "tg:2"]]


async def test_an_invitation_does_not_seat_someone_playing_another_game(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: ``/entrar <código>`` from a person in a running game is refused with a
    message and seats nobody (the code stays good for someone else)."""
    svc = worker(redis, clock)
    ana = tg(1, "Ana")
    await svc.new_game(GROUP, ana, "tranca")
    await svc.join(GROUP, tg(2))
    await svc.start(GROUP, ana)
    await svc.new_game(GROUP_TWO, tg(3), "tranca")
    code = (await svc.invite(GROUP_TWO, tg(3)))[0].text.split(": ", 1)[1].split("\n")[0]
    assert texts(await svc.join_code(ANA_DM, ana, code)) == [
        "Você está numa partida em andamento: termine-a antes de entrar em outra mesa."]
    other = next(g for g in await games_of(svc) if g.chat.key == "tg:-200")
    assert [p.key for _s, p in other.humans()] == ["tg:3"] and code in other.invites
    await svc.join_code(ChatRef(platform="tg", chat_id="4"), tg(4), code)
    other = next(g for g in await games_of(svc) if g.chat.key == "tg:-200")
    assert [p.key for _s, p in other.humans()] == ["tg:3", "tg:4"]


async def test_a_matchmade_table_is_named_by_a_person_never_by_an_id(
        redis: Redis, clock: FakeClock) -> None:
    """Issue 35: a table formed in private chats (which have no title) is "Mesa de
    <name>" in each hand and turn ping, never a user id or the game's code."""
    svc = worker(redis, clock)
    for n, name in ((1, "Ana"), (2, "Bia")):
        await svc.seek(ChatRef(platform="tg", chat_id=str(n)), tg(n, name), "tranca 2")
    effects = await svc.form_tables()
    (game,) = await games_of(svc)
    named = f"Mesa de {game.creator.name}"
    assert game.creator.name in ("Ana", "Bia")
    assert sorted(e.view.lines[0] for e in effects if e.kind == "hand") == [
        f"Mesa: {named}"] * 2
    assert [e.text for e in effects if e.kind == "turn"] == [f"Sua vez em {named}."]
