"""Issue 36: what one press touches in Redis lives in the slots docs/deploy.md "Which
slots a press touches" names, and no other: the game's (G), its chat's (C), the slot
range's timer and stale-table sets (R: one set, or one per range with
``REDIS_TIMER_SETS``), a person's private chat (D) when the bot writes to them, and at a
match's end the group's and the platform's season.

Every Redis command of a press is recorded on the client (tests/slot_support.py: a
command it cannot place fails the test) and its keys' Redis Cluster slots compared with
the table's."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from adapters.storage import RedisStore
from adapters.storage.keys import slot
from adapters.storage.season import RedisSeason
from adapters.telegram.app import build_application
from adapters.telegram.coalesce import EditCoalescer
from adapters.telegram.refs import MessageRefs
from bot import Service, play
from bot.season.ports import PLATFORM
from bot.settings import Settings

sys.path.insert(0, str(Path(__file__).parent))
from slot_support import KeyLog, keys_of, slots
from test_service_match import human_turn
from test_service_support import ANA as ANA_REF
from test_service_support import CHAT as CHAT_REF
from test_service_support import FakeClock, game_of, make_service
from test_telegram_app import ANA, BIA, GROUP, Clock, Tg, labels, open_table
from test_telegram_fakeapi import TOKEN, FakeBotAPI

SETS = 8
P = "p"


@contextlib.asynccontextmanager
async def recorded_bot(sets: int = SETS) -> AsyncIterator[tuple[Tg, KeyLog, RedisStore]]:
    """The Telegram bot (fake Bot API) on one fakeredis client whose every command is
    recorded, with ``sets`` timer sets for the store and the stale tables alike."""
    client = fakeredis.FakeAsyncRedis(decode_responses=True)
    log = KeyLog(client)
    store = RedisStore(client, P, timer_sets=sets)
    clock, fake = Clock(), FakeBotAPI()
    service = Service(store, clock, ai_pace_s=0)

    async def lang_of(chat_key: str) -> str:
        return (await store.get_setting(chat_key, "lang")) or "pt"

    application, handlers = build_application(
        Settings(telegram_token=TOKEN, redis_timer_sets=sets, _env_file=None), service,
        MessageRefs(client, P, layout=store.layout), lang_of, request=fake)
    handlers.outbox.group_edits.gap_s = 0
    handlers.outbox.dm_edits = EditCoalescer(gap_s=0, per_minute=10_000)
    async with application:
        yield Tg(application, handlers, fake, service, clock), log, store
    await client.aclose()


def named(store: RedisStore, gid: str, chat: str, *people: int) -> dict[str, int]:
    """The table's slots for game ``gid`` in chat ``chat``: G, C, R and D(person)."""
    out = {"G": slot(store.keys.state(gid)), "C": slot(store.keys.chat(chat)),
           "R": slot(store.timers.home_key(gid))}
    out.update({f"D{p}": slot(store.keys.dm("tg", str(p))) for p in people})
    return out


async def touched(log: KeyLog, call: Awaitable[Any]) -> list[str]:
    log.take()
    await call
    return log.take()


def within(keys: list[str], allowed: dict[str, int]) -> None:
    """Every key's slot is one the table names (the message lists the others)."""
    extra = sorted(k for k in keys if slot(k) not in allowed.values())
    assert extra == [], f"keys outside {sorted(allowed)}: {extra}"


def test_the_recorder_places_every_key_and_refuses_a_command_it_does_not_know() -> None:
    assert keys_of(("EVALSHA", "abc", "2", "k1", "k2", "arg")) == ["k1", "k2"]
    assert keys_of(("DEL", "a", "b")) == ["a", "b"]
    assert keys_of(("HSET", "h", "f", "v")) == ["h"]
    with pytest.raises(AssertionError, match="RENAME"):
        keys_of(("RENAME", "a", "b"))


async def test_every_press_kind_touches_only_the_slots_of_the_table() -> None:
    async with recorded_bot() as (tg, log, store):
        chat = f"tg:{GROUP['id']}"
        opened = await touched(log, tg.command(ANA, "/novojogo"))
        gid = str(await store.chat_game(chat))
        within(opened, named(store, gid, chat))  # /novojogo: C, G, R
        within(await touched(log, tg.press(BIA, tg.table(), "Entrar")),
               named(store, gid, chat, BIA["id"]))  # lobby join: C, G, R, D(joiner)
        within(await touched(log, tg.press(ANA, tg.table(), "Robô")), named(store, gid, chat))
        await tg.press(ANA, tg.table(), "Robô")
        within(await touched(log, tg.press(ANA, tg.table(), "Iniciar")),
               named(store, gid, chat, ANA["id"], BIA["id"]))  # hands sent: D(each)
        within(await touched(log, tg.press(ANA, tg.hand(ANA), "Comprar do monte")),
               named(store, gid, chat))  # draw
        hand = tg.hand(ANA)
        selected = await touched(log, tg.press(ANA, hand, labels(hand)[0]))
        table = named(store, gid, chat)  # a hand button: G, and R (the hand's stale mark)
        within(selected, {"G": table["G"], "R": table["R"]})
        within(await touched(log, tg.press(ANA, tg.hand(ANA), "Descartar")),
               named(store, gid, chat, BIA["id"]))  # discard: the next person's ping
        within(await touched(log, tg.command(ANA, "/placar")), named(store, gid, chat))
        within(await touched(log, tg.command(BIA, "/mao")), named(store, gid, chat))
        tg.service._swept_at = tg.clock.t  # the sweep (a SCAN every 10 min) apart
        tg.clock.t += 100
        walk = set(store.timers.walked_keys) | {f"{P}:timers:shapes", f"{P}:timers:sets"}
        ticked = await touched(log, tg.tick())  # robots move, a timer fires
        assert walk & set(ticked), "the tick claims from the timer sets"
        within([k for k in ticked if k not in walk], named(store, gid, chat, BIA["id"]))


async def test_with_one_timer_set_the_table_s_r_is_one_shared_slot_and_the_check_sees_it(
) -> None:
    """The table names one shared R for ``REDIS_TIMER_SETS=1``: a press of a game whose
    own range set is elsewhere shows that key, so the check above can fail."""
    async with recorded_bot(sets=1) as (tg, log, store):
        chat = f"tg:{GROUP['id']}"
        await open_table(tg)
        gid = str(await store.chat_game(chat))
        joined = await touched(log, tg.press(BIA, tg.table(), "Entrar"))
        assert f"{P}:tg:stale" in joined  # the one stale set, as R
        allowed = named(store, gid, chat, BIA["id"])
        allowed["R"] = slot(RedisStore(fakeredis.FakeAsyncRedis(), P,
                                       timer_sets=SETS).timers.home_key(gid))
        with pytest.raises(AssertionError, match="keys outside"):
            within(joined, allowed)


async def test_a_match_end_touches_the_game_its_chat_its_range_and_the_season() -> None:
    client = fakeredis.FakeAsyncRedis(decode_responses=True)
    log = KeyLog(client)
    store = RedisStore(client, P, timer_sets=SETS)
    clock = FakeClock()
    svc = make_service(store, clock, season=RedisSeason.beside(store))
    svc._swept_at = clock.now()  # the sweep (a SCAN every 10 min) apart
    await svc.new_game(CHAT_REF, ANA_REF, "tranca")
    await svc.add_ai(CHAT_REF, ANA_REF, "")
    await svc.start(CHAT_REF, ANA_REF)
    gid = (await game_of(store))[1].id
    season = RedisSeason.beside(store).keys
    allowed = named(store, gid, CHAT_REF.key, int(ANA_REF.user_id))  # D(Ana): a deal's
    # end reads her own automatic-review setting (/revisao auto, issue 37)
    allowed.update({"season:C": slot(season.counted(CHAT_REF.key)),
                    "season": slot(season.counted(PLATFORM))})
    ended = None
    for _ in range(2000):
        game = (await game_of(store, gid=gid))[1]
        if game.status != "playing":
            break
        turn = play.deal_of(game).turn
        keys = await touched(log, human_turn(svc, store, gid, turn)
                             if game.seats[turn].player is not None else svc.tick())
        within([k for k in keys if k not in store.timers.walked_keys
                and not k.startswith(f"{P}:timers:")], allowed)
        ended = keys
    assert (await game_of(store, gid=gid))[1].status == "over"
    assert ended is not None
    assert {slot(season.counted(CHAT_REF.key))} <= slots(ended)
    await client.aclose()


async def test_a_press_at_a_table_shown_on_the_other_platform_adds_only_that_platform_s_relay(
) -> None:
    """Issue 35 (docs/deploy.md "Which slots a press touches", P): a Telegram press at a
    table that also has a Discord place hands the Discord effects over in the relay's
    slot ``{relay:dc}`` (one shared slot per platform) and touches nothing else beyond
    the table's own slots; a table without a Discord place never touches it."""
    from bot.effects import ChatRef, PlayerRef

    async with recorded_bot() as (tg, log, store):
        chat = f"tg:{GROUP['id']}"
        await open_table(tg)
        gid = str(await store.chat_game(chat))
        relay = {"P": slot(store.keys.owed("dc")), "P2": slot(store.keys.relay("dc"))}
        assert relay["P"] == relay["P2"]  # one slot per platform
        alone = await touched(log, tg.press(ANA, tg.table(), "Robô"))
        assert relay["P"] not in slots(alone)
        ana = PlayerRef(platform="tg", user_id=str(ANA["id"]), name="Ana")
        reply = (await tg.service.invite(ChatRef(platform="tg", chat_id=str(GROUP["id"]),
                                                 title=""), ana))[0]
        code = reply.text.split(": ", 1)[1].split("\n", 1)[0]
        await tg.service.join_code(ChatRef(platform="dc", chat_id="900", title="#mesa"),
                                   PlayerRef(platform="dc", user_id="77", name="Zé"), code)
        started = await touched(log, tg.press(ANA, tg.table(), "Iniciar"))
        allowed = {**named(store, gid, chat, ANA["id"]), "P": relay["P"]}
        within(started, allowed)
        assert relay["P"] in slots(started)  # the Discord place's table and Zé's hand
        drawn = await touched(log, tg.press(ANA, tg.hand(ANA), "Comprar do monte"))
        within(drawn, allowed)
        assert relay["P"] in slots(drawn)
