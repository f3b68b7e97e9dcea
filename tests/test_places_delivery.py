"""Delivering a table in several places (issue 35, adapters/delivery): each platform's
delivery shows the places of its own platform and hands the others over in Redis
(adapters/delivery/relay.py); each place's table is its own message; the closing
finishes each place's table; a table handed over is never lost with a process."""

from __future__ import annotations

from typing import Any

import pytest
from test_delivery import Recorder

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from adapters.delivery.relay import LEASE_S, Relay
from adapters.delivery.stale import StaleTables
from bot.effects import ChatRef, Closed, Effect, HandView, PlayerRef, Say, TableView, View

TG = ChatRef(platform="tg", chat_id="-100", title="Grupo")
TG2 = ChatRef(platform="tg", chat_id="-200", title="Outro grupo")
DC = ChatRef(platform="dc", chat_id="900", title="Canal")
ZE = PlayerRef(platform="dc", user_id="77", name="Zé")


class PlaceRecorder(Recorder):
    """:class:`Recorder` naming the chat a message is posted in."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    async def post(self, chat: ChatRef, message: Any) -> str | None:
        ref = self._ref()
        self.calls.append(("post", chat.key, message, ref))
        return ref


class Clock:
    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


def delivery(client: Any, prefix: str, name: str, clock: Clock) -> Delivery:
    return Delivery(PlaceRecorder(name), GameRefs(client, prefix, platform=name),
                    EditCoalescer(gap_s=0, per_minute=10_000),
                    EditCoalescer(gap_s=0, per_minute=10_000),
                    StaleTables(client, prefix, name), relay=Relay(client, prefix, clock))


def tables(title: str, version: int, *places: ChatRef) -> list[Effect]:
    return [TableView(chat=p, game_id="g1", view=View(title=title), state_version=version,
                      home=i == 0) for i, p in enumerate(places)]


@pytest.fixture
async def pair(store_clients: Any, store_prefix: str) -> tuple[Delivery, Delivery, Clock]:
    client, clock = store_clients(), Clock()
    return (delivery(client, store_prefix, "tg", clock),
            delivery(client, store_prefix, "dc", clock), clock)


async def test_each_platform_shows_its_places_and_hands_over_the_others(pair: Any) -> None:
    tg, dc, _clock = pair
    shown = tables("v1", 1, TG, DC)
    hand = HandView(chat=DC, game_id="g1", player=ZE, seat=1, view=View(title="mão"))
    await tg.deliver([*shown, hand, Say(chat=DC, text="Zé entrou.")])
    await tg.flush()
    assert tg.platform.calls == [("post", "tg:-100", "table:v1", "m1")]
    newer = hand.model_copy(update={"view": View(title="mão agora")})

    async def rehand(gid: str, person: PlayerRef) -> list[Effect]:
        assert (gid, person.key) == ("g1", ZE.key)
        return [newer]  # the hand as stored now, not as it was handed over

    assert await dc.relayed(lambda gid: _tables(shown), rehand=rehand) == 3
    await dc.flush()  # the notice, then the table and the hand, each re-rendered
    assert sorted(c[:-1] for c in dc.platform.calls) == [  # refs in the order they ran
        ("post", "dc:900", "table:v1"), ("post", "dc:900", "text:Zé entrou."),
        ("send_private", "hand:mão agora")]
    assert await dc.relayed(lambda gid: _tables(shown)) == 0  # nothing is done twice


async def _tables(effects: list[Effect]) -> list[Effect]:
    return effects


async def test_two_places_of_one_platform_each_keep_their_own_message(pair: Any) -> None:
    tg, _dc, _clock = pair
    await tg.deliver(tables("v1", 1, TG, TG2))
    await tg.flush()
    await tg.deliver(tables("v2", 2, TG, TG2))
    await tg.flush()
    posted = {c[1]: c[3] for c in tg.platform.calls[:2]}  # the chats post concurrently
    assert sorted(tg.platform.calls[:2]) == [("post", "tg:-100", "table:v1", posted["tg:-100"]),
                                             ("post", "tg:-200", "table:v1", posted["tg:-200"])]
    assert sorted(tg.platform.calls[2:]) == sorted([("edit", posted["tg:-100"], "table:v2"),
                                                    ("edit", posted["tg:-200"], "table:v2")])
    assert await tg.refs.all("g1") == {"table": posted["tg:-100"],
                                       "table:-200": posted["tg:-200"]}


async def test_the_closing_finishes_every_place_then_forgets_the_game(pair: Any) -> None:
    tg, _dc, _clock = pair
    await tg.deliver(tables("v1", 1, TG, TG2))
    await tg.flush()
    final = View(title="fim")
    await tg.deliver([Closed(chat=TG, game_id="g1", final=final),
                      Closed(chat=TG2, game_id="g1", final=final, home=False)])
    await tg.flush()
    assert sorted(tg.platform.calls[2:]) == [("edit", "m1", "table:fim"),
                                             ("edit", "m2", "table:fim")]  # m1, m2 any order
    assert await tg.refs.all("g1") == {}
    await tg.deliver(tables("v1", 1, TG2))  # a late view of the closed game: dropped
    await tg.flush()
    assert len(tg.platform.calls) == 4


async def test_an_owed_table_claimed_by_a_process_that_died_is_shown_by_another(
        pair: Any, store_clients: Any, store_prefix: str) -> None:
    tg, dc, clock = pair
    shown = tables("v1", 1, TG, DC)
    await tg.deliver(shown)
    await tg.flush()
    relay = dc.relay
    assert [g for g, _lease in await relay.claim_owed("dc")] == ["g1"]  # then it dies
    assert await dc.relayed(lambda gid: _tables(shown)) == 0  # leased to the dead one
    clock.t += LEASE_S + 1
    assert await dc.relayed(lambda gid: _tables(shown)) == 1
    await dc.flush()
    assert dc.platform.calls == [("post", "dc:900", "table:v1", "m1")]


async def test_a_change_while_an_owed_table_is_leased_is_shown_again_at_once(pair: Any) -> None:
    _tg, dc, _clock = pair
    relay = dc.relay
    await relay.push("dc", tables("v1", 1, DC))
    ((gid, lease),) = await relay.claim_owed("dc")
    await relay.push("dc", tables("v2", 2, DC))  # a newer move while v1 was being shown
    assert await relay.done("dc", gid, lease) is False  # not forgotten: v2 is owed
    assert [g for g, _lease in await relay.claim_owed("dc")] == ["g1"]
