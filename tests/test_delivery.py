"""The delivery policy both chat adapters share (adapters/delivery), over a recording
platform: post once then edit, a gone message posted anew, older views dropped, the hand
edited in place or answered by the origin, a refused DM told once, turn pings replaced,
buttons dropped on closing, and stale tables kept in Redis for any worker (issue 12)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.platform import MessageGone, PrivateRefused
from adapters.delivery.refs import CLOSED_V, GameRefs
from adapters.delivery.stale import HAND_GRACE_S, StaleTables, hand_member
from bot.effects import (
    ChatRef,
    Closed,
    Document,
    HandView,
    PingsOver,
    PlayerRef,
    Reply,
    Say,
    TableView,
    TurnPing,
    View,
)

CHAT = ChatRef(platform="xx", chat_id="-7", title="Mesa")
ANA = PlayerRef(platform="xx", user_id="1", name="Ana")


class Recorder:
    """A platform that records its calls; ``gone``/``refused`` make calls fail."""

    name = "xx"

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.gone: set[str] = set()
        self.refuse_private = False
        self.files_ok = True
        self.carry = False
        self.count = 0

    async def table(self, effect: TableView) -> str:
        return f"table:{effect.view.title}"

    def hand(self, effect: HandView) -> str:
        return f"hand:{effect.view.title}"

    def text(self, text: str) -> str:
        return f"text:{text}"

    def _ref(self) -> str:
        self.count += 1
        return f"m{self.count}"

    async def post(self, chat: ChatRef, message: Any) -> str | None:
        ref = self._ref()
        self.calls.append(("post", message, ref))
        return ref

    async def edit(self, chat: ChatRef, ref: str, message: Any) -> None:
        if ref in self.gone:
            raise MessageGone(ref)
        self.calls.append(("edit", ref, message))

    async def strip(self, ref: str, message: Any) -> None:
        self.calls.append(("strip", ref, str(message)))

    def carries_hand(self, origin: Any, player: PlayerRef) -> bool:
        return self.carry and origin is not None

    async def answer_hand(self, origin: Any, player: PlayerRef, message: Any) -> str | None:
        self.calls.append(("answer_hand", str(origin), message))
        return "eph1"

    async def send_private(self, player: PlayerRef, message: Any, origin: Any) -> str | None:
        if self.refuse_private:
            raise PrivateRefused("closed")
        ref = self._ref()
        self.calls.append(("send_private", message, ref))
        return ref

    async def edit_private(self, player: PlayerRef, ref: str, message: Any) -> None:
        if self.refuse_private:
            raise PrivateRefused("closed")
        if ref in self.gone:
            raise MessageGone(ref)
        self.calls.append(("edit_private", ref, message))

    async def strip_private(self, user_id: str, ref: str) -> None:
        self.calls.append(("strip_private", ref))

    async def ping(self, effect: TurnPing) -> str | None:
        if self.refuse_private:
            raise PrivateRefused("closed")
        ref = self._ref()
        self.calls.append(("ping", effect.text, ref))
        return ref

    async def delete_private(self, user_id: str, ref: str) -> None:
        self.calls.append(("delete_private", ref))

    async def send_file(self, chat: ChatRef, filename: str, content: str) -> bool:
        self.calls.append(("file", filename))
        return self.files_ok

    async def answer(self, effect: Reply, origin: Any) -> None:
        self.calls.append(("answer", effect.text, str(origin)))

    async def refused_notice(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        self.calls.append(("refused_notice", player.name))


def table(title: str, version: int = 0, game: str = "g1") -> TableView:
    return TableView(chat=CHAT, game_id=game, view=View(title=title), state_version=version)


def hand(title: str) -> HandView:
    return HandView(chat=CHAT, game_id="g1", player=ANA, seat=0, view=View(title=title))


@pytest.fixture
async def setup(store_clients: Any, store_prefix: str) -> tuple[Delivery, Recorder]:
    platform = Recorder()
    client = store_clients()
    delivery = Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        StaleTables(client, store_prefix, "xx"))
    return delivery, platform


async def test_the_table_is_posted_once_then_edited_in_place(setup: Any) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    await delivery.deliver([table("v2", 2)])
    await delivery.flush()
    assert platform.calls == [("post", "table:v1", "m1"), ("edit", "m1", "table:v2")]


async def test_a_deleted_table_is_posted_anew_and_remembered(setup: Any) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    platform.gone.add("m1")  # a moderator deleted it (Discord 10008, Telegram "not found")
    await delivery.deliver([table("v2", 2)])
    await delivery.flush()
    await delivery.deliver([table("v3", 3)])
    await delivery.flush()
    assert platform.calls[1:] == [("post", "table:v2", "m2"), ("edit", "m2", "table:v3")]


async def test_a_wrong_type_refs_key_is_dropped_and_the_table_posted_anew(
        setup: Any, caplog: pytest.LogCaptureFixture) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    key = delivery.refs._game("g1")
    await delivery.refs.client.delete(key)
    await delivery.refs.client.rpush(key, "damaged")  # the hash became a list
    with caplog.at_level(logging.ERROR):
        await delivery.deliver([table("v2", 2)])
        await delivery.flush()
    await delivery.deliver([table("v3", 3)])
    await delivery.flush()
    assert platform.calls[1:] == [("post", "table:v2", "m2"), ("edit", "m2", "table:v3")]
    assert "game g1: xx message refs unreadable (WRONGTYPE): dropped" in caplog.messages


async def test_a_table_older_than_the_one_shown_is_dropped(setup: Any) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v5", 5)])
    await delivery.flush()
    await delivery.deliver([table("v4", 4)])  # another worker's late view
    await delivery.flush()
    assert platform.calls == [("post", "table:v5", "m1")]


async def test_the_hand_is_edited_in_place_and_a_gone_one_sent_anew(setup: Any) -> None:
    delivery, platform = setup
    for title in ("h1", "h2"):
        await delivery.deliver([hand(title)])
        await delivery.flush()
    platform.gone.add("m1")
    await delivery.deliver([hand("h3")])
    await delivery.flush()
    assert platform.calls == [("send_private", "hand:h1", "m1"),
                              ("edit_private", "m1", "hand:h2"),
                              ("send_private", "hand:h3", "m2")]


async def test_a_hand_the_origin_carries_is_its_answer(setup: Any) -> None:
    delivery, platform = setup
    platform.carry = True
    await delivery.deliver([hand("h1"), Reply(player=ANA, text="ok")], origin="press-9")
    await delivery.flush()
    assert platform.calls == [("answer_hand", "press-9", "hand:h1"), ("answer", "ok", "press-9")]
    assert await delivery.refs.get("g1", "hand:1") == "eph1"


async def test_asking_for_the_hand_sends_it_anew_and_deletes_the_old(setup: Any) -> None:
    """Issue 12 (b): /mao re-editing an unchanged hand shows nothing on real Telegram."""
    delivery, platform = setup
    await delivery.deliver([hand("h1")])
    await delivery.flush()
    assert delivery.stage([hand("h1")], fresh=True).queued_hand is True
    await delivery.flush()
    assert platform.calls == [("send_private", "hand:h1", "m1"),
                              ("send_private", "hand:h1", "m2"), ("delete_private", "m1")]


async def test_a_refused_private_message_is_told_to_the_group_once(setup: Any) -> None:
    delivery, platform = setup
    platform.refuse_private = True
    for title in ("h1", "h2"):
        await delivery.deliver([hand(title)])
        await delivery.flush()
    await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez")])
    assert platform.calls == [("refused_notice", "Ana")]


async def test_a_refused_file_is_told_to_the_chat_in_its_own_words(setup: Any) -> None:
    """A trial: /exportar answered nothing when the platform refused the document."""
    delivery, platform = setup
    record = Document(chat=CHAT, filename="buraco-g1.json", content="{}",
                      failed="Não consegui enviar o arquivo da partida agora.")
    await delivery.deliver([record])
    platform.files_ok = False
    await delivery.deliver([record])
    assert platform.calls == [
        ("file", "buraco-g1.json"), ("file", "buraco-g1.json"),
        ("post", "text:Não consegui enviar o arquivo da partida agora.", "m1")]


async def test_a_new_turn_ping_replaces_the_previous_one(setup: Any) -> None:
    delivery, platform = setup
    for text in ("vez 1", "vez 2"):
        await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text=text)])
    # the old one goes first: never two on show, even for a moment (a trial, Discord)
    assert platform.calls == [("ping", "vez 1", "m1"), ("delete_private", "m1"),
                              ("ping", "vez 2", "m2")]
    assert await delivery.refs.all("g1") == {"ping:1": "m2"}


async def test_closing_drops_buttons_and_pings_and_forgets_the_refs(setup: Any) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v1", 1), hand("h1"),
                            TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez")])
    await delivery.flush()
    refs = {call[1]: call[2] for call in platform.calls}  # what -> ref
    await delivery.deliver([Say(chat=CHAT, text="fim"), Closed(chat=CHAT, game_id="g1")])
    await delivery.flush()
    assert sorted(platform.calls[3:]) == sorted([
        ("post", "text:fim", "m4"), ("strip", refs["table:v1"], "table:v1"),
        ("strip_private", refs["hand:h1"]), ("delete_private", refs["vez"])])
    assert await delivery.refs.all("g1") == {}
    assert not await delivery.refs.newest_table("g1", CLOSED_V - 1)


async def test_closing_edits_the_table_to_its_final_view_when_an_edit_was_still_pending(
        setup: Any) -> None:
    # /cancelar within the 3 s gap of a move: the closing replaces the move's table edit
    # in the coalescer, so the closing itself must leave the final text on the table
    delivery, platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    delivery.stage([table("v2", 2)])
    await delivery.deliver([Say(chat=CHAT, text="fim"), Closed(
        chat=CHAT, game_id="g1", final=View(title="cancelado", lines=["Jogo cancelado."]))])
    await delivery.flush()
    assert platform.calls == [("post", "table:v1", "m1"), ("post", "text:fim", "m2"),
                              ("edit", "m1", "table:cancelado")]


async def test_a_table_view_another_worker_still_had_queued_is_dropped_after_the_closing(
        setup: Any, store_clients: Any, store_prefix: str) -> None:
    delivery, platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    await delivery.deliver([Closed(chat=CHAT, game_id="g1", final=View(title="fim"))])
    await delivery.flush()
    other = Recorder()
    late = Delivery(other, GameRefs(store_clients(), store_prefix, platform="xx"),
                    EditCoalescer(gap_s=0, per_minute=10_000),
                    EditCoalescer(gap_s=0, per_minute=10_000))
    await late.deliver([table("v2", 2)])
    await late.flush()
    assert other.calls == []
    assert platform.calls == [("post", "table:v1", "m1"), ("edit", "m1", "table:fim")]


async def test_a_shown_table_leaves_no_stale_mark(setup: Any) -> None:
    delivery, _platform = setup
    await delivery.deliver([table("v1", 1)])
    await delivery.flush()
    assert await delivery.stale.client.zcard(delivery.stale.key) == 0


async def test_a_table_edit_lost_with_its_worker_is_redone_by_another(
        store_clients: Any, store_prefix: str) -> None:
    """Issue 12 (a): the edit waiting in a dead worker's coalescer is not lost: the game
    stays in the Redis set of stale tables and a live worker re-renders it."""
    now = [1000.0]
    dead = StaleTables(store_clients(), store_prefix, "xx", clock=lambda: now[0])
    await dead.mark("g1", wait_s=3.0)  # queued, then the process was SIGKILLed
    platform = Recorder()
    client = store_clients()
    alive = Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                     EditCoalescer(gap_s=0, per_minute=10_000), None,
                     StaleTables(client, store_prefix, "xx", clock=lambda: now[0]))

    async def retable(game_id: str) -> list[Any]:
        return [table("from the store", 7, game_id)]

    assert await alive.redo(retable) == 0  # not due yet: the owner may still show it
    now[0] += 3.0 + 70.0 + 0.1
    assert await alive.redo(retable) == 1
    await alive.flush()
    assert platform.calls == [("post", "table:from the store", "m1")]
    assert await alive.redo(retable) == 0  # shown: the mark is gone


async def test_a_shown_hand_leaves_no_stale_mark(setup: Any) -> None:
    delivery, _platform = setup
    await delivery.deliver([hand("mão v1")])
    await delivery.flush()
    assert await delivery.stale_hands.client.zcard(delivery.stale_hands.key) == 0


async def test_a_hand_edit_lost_with_its_worker_is_redone_by_another(
        store_clients: Any, store_prefix: str) -> None:
    """Issue 36: a hand edit waiting in a dead worker's coalescer (SIGKILL between the
    move's save and the edit) stays marked in Redis, and a live worker sends the hand
    again from the stored game, instead of the old hand staying on screen until the
    next move; a hand shown leaves no mark."""
    now = [1000.0]
    dead = StaleTables(store_clients(), store_prefix, "xx", clock=lambda: now[0]).hands()
    await dead.mark(hand_member("g1", "1"), wait_s=1.0)  # queued, then SIGKILL
    platform = Recorder()
    client = store_clients()
    alive = Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                     EditCoalescer(gap_s=0, per_minute=10_000),
                     EditCoalescer(gap_s=0, per_minute=10_000),
                     StaleTables(client, store_prefix, "xx", clock=lambda: now[0]))
    asked: list[tuple[str, PlayerRef]] = []

    async def rehand(game_id: str, person: PlayerRef) -> list[Any]:
        asked.append((game_id, person))
        return [hand("mão do store")]

    async def retable(game_id: str) -> list[Any]:
        return []

    assert await alive.redo(retable, rehand=rehand) == 0  # not due: the owner may show it
    now[0] += 1.0 + HAND_GRACE_S + 0.1
    assert await alive.redo(retable, rehand=rehand) == 1
    await alive.flush()
    assert [(g, p.key) for g, p in asked] == [("g1", ANA.key)]
    assert platform.calls == [("send_private", "hand:mão do store", "m1")]
    assert await alive.redo(retable, rehand=rehand) == 0  # shown: the mark is gone


async def test_a_newer_mark_survives_the_clear_of_an_older_show(
        store_clients: Any, store_prefix: str) -> None:
    now = [50.0]
    stale = StaleTables(store_clients(), store_prefix, "xx", clock=lambda: now[0])
    first = await stale.mark("g1", 0.0)
    now[0] += 5
    second = await stale.mark("g1", 0.0)
    assert await stale.clear("g1", first) is False
    assert await stale.clear("g1", second) is True
    assert await stale.claim() == []


async def test_two_workers_do_not_both_claim_a_stale_table(
        store_clients: Any, store_prefix: str) -> None:
    now = [10.0]
    one = StaleTables(store_clients(), store_prefix, "xx", clock=lambda: now[0])
    two = StaleTables(store_clients(), store_prefix, "xx", clock=lambda: now[0])
    await one.mark("g1", 0.0)
    now[0] += 71.0
    assert await one.claim() == ["g1"]
    assert await two.claim() == []  # leased for another 70 s


async def test_a_redone_table_that_cannot_be_posted_is_not_retried_forever(
        store_clients: Any, store_prefix: str) -> None:
    """A stale table whose channel is gone (the post is refused) leaves no mark behind."""
    now = [500.0]
    client = store_clients()
    stale = StaleTables(client, store_prefix, "xx", clock=lambda: now[0])
    await stale.mark("g1", 0.0)
    now[0] += 71.0
    platform = Recorder()

    async def refused(chat: ChatRef, message: Any) -> str | None:
        platform.calls.append(("post refused", message))
        return None

    platform.post = refused  # type: ignore[method-assign]
    delivery = Delivery(platform, GameRefs(client, store_prefix, platform="xx"),
                        EditCoalescer(gap_s=0, per_minute=10_000), None, stale)

    async def retable(game_id: str) -> list[Any]:
        return [table("t", 1, game_id)]

    assert await delivery.redo(retable) == 1
    await delivery.flush()
    now[0] += 200.0
    assert await delivery.redo(retable) == 0
    assert platform.calls == [("post refused", "table:t")]


async def test_sigterm_finishes_the_tick_round_in_progress_and_delivers_it(
        setup: Any) -> None:
    """Issue 12 (c): on SIGTERM the step in flight is finished and its table shown, not
    cut between the save and the edit."""
    import asyncio

    from adapters.delivery.ticks import tick_loop, wind_down

    delivery, platform = setup
    started = asyncio.Event()

    class SlowService:
        calls = 0

        async def due(self, limit: int) -> list[str]:
            self.calls += 1
            return ["g1"] if self.calls == 1 else []

        async def tick_game(self, gid: str,
                            platforms: frozenset[str] | None = None) -> list[Any]:
            assert (gid, platforms) == ("g1", frozenset({"xx"}))
            started.set()
            await asyncio.sleep(0.2)  # an AI thinking, then the save
            return [table("after the move", 1)]

        async def table_of(self, game_id: str) -> list[Any]:
            return []

    halt = asyncio.Event()
    ticking = asyncio.get_running_loop().create_task(
        tick_loop(SlowService(), delivery, every_s=0.05, stop=halt))
    await started.wait()
    await wind_down(ticking, halt, delivery, wait_s=5.0)
    assert ticking.done() and not ticking.cancelled()
    assert platform.calls == [("post", "table:after the move", "m1")]


async def test_a_ping_for_the_next_person_deletes_the_previous_person_s(setup: Any) -> None:
    """At most one turn ping per game: when the turn moves to Bia, Ana's is stale."""
    delivery, platform = setup
    bia = PlayerRef(platform="xx", user_id="2", name="Bia")
    await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez Ana")])
    await delivery.deliver([TurnPing(player=bia, chat=CHAT, game_id="g1", text="vez Bia")])
    assert platform.calls == [("ping", "vez Ana", "m1"), ("delete_private", "m1"),
                              ("ping", "vez Bia", "m2")]
    assert await delivery.refs.all("g1") == {"ping:2": "m2"}


async def test_an_unreachable_platform_logs_one_line_and_a_bug_its_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    """A table edit that fails because the platform cannot be reached (an ``OSError``:
    connection refused, a timeout) is one warning line without a traceback (a trial saw a
    log filled with them while Discord was gone); any other failure is a bug and keeps
    its traceback. Either way the next edit still runs."""
    coalescer = EditCoalescer(gap_s=0, per_minute=10_000)
    done: list[str] = []

    async def unreachable() -> None:
        raise ConnectionRefusedError("refused")

    async def broken() -> None:
        raise ValueError("bug")

    async def fine() -> None:
        done.append("edited")

    with caplog.at_level("WARNING", logger="adapters.delivery.coalesce"):
        for key, operation in (("a", unreachable), ("b", broken), ("c", fine)):
            coalescer.submit(key, operation)
        await coalescer.flush()
    # a traceback is exc_info, or exc_text once adapters.logsafe's filter redacted it
    records = [(r.levelname, r.getMessage(), bool(r.exc_info or r.exc_text))
               for r in caplog.records]
    assert records == [
        ("WARNING", "coalesced operation for a failed (ConnectionRefusedError)", False),
        ("ERROR", "coalesced operation for b failed", True)]
    assert done == ["edited"]


async def test_pings_over_deletes_the_last_ping_when_a_robot_plays_the_turn(
        setup: Any) -> None:
    """A turn that moves to a robot (or an away person, or a deal's end) leaves no "Sua
    vez" in the last person's DM: their ping is deleted and forgotten; a second
    PingsOver finds none and deletes nothing."""
    delivery, platform = setup
    await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez Ana")])
    await delivery.deliver([PingsOver(chat=CHAT, game_id="g1")])
    await delivery.deliver([PingsOver(chat=CHAT, game_id="g1")])
    assert platform.calls == [("ping", "vez Ana", "m1"), ("delete_private", "m1")]
    assert await delivery.refs.all("g1") == {}


async def test_a_ping_whose_deletion_was_cut_short_is_deleted_by_the_next_drop(
        setup: Any) -> None:
    """The ref is forgotten only after the message is deleted: a delivery stopped right
    before the deletion (here the platform call fails) leaves the ref, and the next
    PingsOver deletes the message and forgets it, so no "Sua vez" is left unremembered."""
    delivery, platform = setup
    await delivery.deliver([TurnPing(player=ANA, chat=CHAT, game_id="g1", text="vez Ana")])
    real_delete = platform.delete_private

    async def stopped(user_id: str, ref: str) -> None:
        raise RuntimeError("the worker stopped here")

    platform.delete_private = stopped  # type: ignore[method-assign]
    await delivery.deliver([PingsOver(chat=CHAT, game_id="g1")])
    assert await delivery.refs.all("g1") == {"ping:1": "m1"}
    platform.delete_private = real_delete  # type: ignore[method-assign]
    await delivery.deliver([PingsOver(chat=CHAT, game_id="g1")])
    assert platform.calls == [("ping", "vez Ana", "m1"), ("delete_private", "m1")]
    assert await delivery.refs.all("g1") == {}
