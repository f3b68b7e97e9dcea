"""One game's trouble is never another's (issue 36), through python-telegram-bot's own
concurrent update processing (:class:`adapters.telegram.order.UpdateOrder`): updates go
into the ``Application``'s queue as polling puts them there, and the real service runs
on fakeredis (or the real Redis at ``REDIS_URL``) behind a store that can hold one
game's calls, as a dying Redis node would."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

from telegram import Update

from adapters.delivery.order import GAME_COMMANDS
from adapters.delivery.ticks import tick_loop, wind_down
from adapters.ops.metrics import REGISTRY
from adapters.storage import RedisStore
from adapters.telegram.order import UPDATES_IN_HAND, UpdateOrder, order_key
from bot import Service

try:
    from test_telegram_app import ANA, BIA, CAIO, GROUP, LINK, Clock, Tg, bot_on_fake_api, button
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_telegram_app import (
        ANA,
        BIA,
        CAIO,
        GROUP,
        LINK,
        Clock,
        Tg,
        bot_on_fake_api,
        button,
    )

OTHER = {"id": -200, "type": "group", "title": "Mesa do Bar"}
DAVI = {"id": 4, "is_bot": False, "first_name": "Davi"}
MISSED = "Ana não jogou a tempo"
AFTER_DRAW = "Ana não jogou a tempo: jogada automática (só o descarte: já tinha comprado)."


class HeldStore:
    """A :class:`RedisStore` whose calls about one game (its id as first argument) wait
    while that game is ``held`` (a Redis node that stopped answering), and whose saves
    wait ``save_delay(update)`` seconds first. Everything else is the store's own."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self.held: str | None = None
        self.gate = asyncio.Event()
        self.waiting = 0
        self.save_delay: Callable[[str | None], float] = lambda update: 0.0

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if not asyncio.iscoroutinefunction(real):
            return real

        async def call(*args: Any, **kw: Any) -> Any:
            if self.held is not None and args and args[0] == self.held:
                self.waiting += 1
                await self.gate.wait()
            if name == "save_game":
                await asyncio.sleep(self.save_delay(args[4] if len(args) > 4 else None))
            return await real(*args, **kw)

        return call


@contextlib.asynccontextmanager
async def concurrent_bot(store_clients: Any, prefix: str) -> AsyncIterator[tuple[Tg, HeldStore]]:
    """The bot over a :class:`HeldStore`, its ``Application`` started (updates put in
    ``update_queue`` are processed concurrently by its update processor) and its tick
    loop running; wound down as on SIGTERM at the end."""
    real = RedisStore(store_clients(), prefix)
    store = HeldStore(real)
    clock = Clock()
    service = Service(store, clock, ai_pace_s=0)  # type: ignore[arg-type]
    async with bot_on_fake_api(real, prefix, service, clock) as tg:
        await tg.app.start()
        halt = asyncio.Event()
        ticking = asyncio.ensure_future(tick_loop(service, tg.handlers.outbox, every_s=0.02,
                                                  stop=halt))
        try:
            yield tg, store
        finally:
            store.gate.set()
            await wind_down(ticking, halt, tg.handlers.outbox, wait_s=5.0)
            await tg.app.stop()


_ids = itertools.count(9000)


def press_update(tg: Tg, person: dict[str, Any], message: dict[str, Any],
                 label: str) -> tuple[Update, str]:
    """An update of ``person`` tapping ``label`` under ``message``, and its query id."""
    n = next(_ids)
    update = Update.de_json({"update_id": n, "callback_query": {
        "id": f"q{n}", "from": person, "chat_instance": "ci",
        "data": button(message, label)["callback_data"],
        "message": {k: message[k] for k in ("message_id", "date", "chat", "text")}}},
        tg.app.bot)
    return update, f"q{n}"


def answers(tg: Tg, query_id: str) -> list[dict[str, Any]]:
    return [p for p in tg.fake.called("answerCallbackQuery")
            if p["callback_query_id"] == query_id]


def table_of(tg: Tg, chat: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in tg.fake.current(chat["id"]) if m["text"].startswith("<b>"))


def hand_of(tg: Tg, person: dict[str, Any], game_id: str) -> dict[str, Any]:
    """``person``'s hand message of ``game_id`` (its buttons carry the game's id)."""
    return next(m for m in tg.fake.current(person["id"]) if "Sua mão" in m["text"] and any(
        b.get("callback_data", "").startswith(game_id + "|")
        for row in m["reply_markup"]["inline_keyboard"] for b in row))


async def until(check: Callable[[], bool], timeout_s: float = 1.5) -> None:
    """Wait until ``check()`` holds (AssertionError after ``timeout_s``)."""
    async with asyncio.timeout(timeout_s):
        while not check():
            await asyncio.sleep(0.01)


async def open_game(tg: Tg, chat: dict[str, Any], robots: int = 1, start: bool = True) -> str:
    """Ana opens a table in ``chat`` with ``robots`` robots (and starts it); its id."""
    await tg.command(ANA, "/novojogo", chat=chat)
    table = table_of(tg, chat)
    url = next(b["url"] for row in table["reply_markup"]["inline_keyboard"] for b in row
               if "url" in b)
    for _ in range(robots):
        await tg.press(ANA, table_of(tg, chat), "Robô")
    if start:
        await tg.press(ANA, table_of(tg, chat), "Iniciar")
    return str(url.removeprefix(LINK + "j"))


def said(tg: Tg, chat: dict[str, Any]) -> list[str]:
    """The bot's messages in ``chat`` other than its tables."""
    return [t for t in tg.fake.texts_to(chat["id"]) if not t.startswith("<b>")]


def press_wait_count() -> float:
    return REGISTRY.get_sample_value("buraco_press_seconds_count") or 0.0


async def test_a_held_game_holds_neither_another_game_s_presses_nor_its_ticks(
        store_clients: Any, store_prefix: str) -> None:
    """Game A's Redis calls hang; game B's press is applied and answered, and B's turn
    timer fires, meanwhile; A's press and timer go through once A's calls come back."""
    async with concurrent_bot(store_clients, store_prefix) as (tg, store):
        game_a = await open_game(tg, GROUP)
        game_b = await open_game(tg, OTHER)
        store.held = game_a
        press_a, query_a = press_update(tg, ANA, hand_of(tg, ANA, game_a), "Comprar do monte")
        press_b, query_b = press_update(tg, ANA, hand_of(tg, ANA, game_b), "Comprar do monte")
        timed = press_wait_count()
        await tg.app.update_queue.put(press_a)
        await tg.app.update_queue.put(press_b)
        await until(lambda: "Ana comprou do monte" in table_of(tg, OTHER)["text"]
                    and len(answers(tg, query_b)) == 1)
        assert len(hand_of(tg, ANA, game_b)["reply_markup"]["inline_keyboard"]) > 0
        assert answers(tg, query_a) == [] and store.waiting == 1  # A still hangs
        tg.clock.t += 91  # both turn timers run out: B's fires, A's hangs too
        await until(lambda: any(MISSED in t for t in tg.fake.texts_to(OTHER["id"])))
        assert not any(MISSED in t for t in tg.fake.texts_to(GROUP["id"]))
        assert "Ana comprou do monte" not in table_of(tg, GROUP)["text"]
        store.gate.set()
        await until(lambda: len(answers(tg, query_a)) == 1)
        await until(lambda: any(MISSED in t for t in tg.fake.texts_to(GROUP["id"])))
        assert "text" not in answers(tg, query_a)[0]  # applied, not "Esse botão é antigo"
        assert said(tg, GROUP) == [AFTER_DRAW]  # A's press first, then A's timer
        assert said(tg, OTHER) == [AFTER_DRAW]
        assert press_wait_count() - timed == 2.0  # each press's wait observed once


async def test_presses_of_one_game_sent_at_once_are_applied_in_arrival_order(
        store_clients: Any, store_prefix: str) -> None:
    """Three people tap "Entrar" on one lobby at once; the earlier taps' saves are the
    slower ones, yet the seats follow the order the updates arrived in."""
    async with concurrent_bot(store_clients, store_prefix) as (tg, store):
        await open_game(tg, GROUP, robots=0, start=False)
        lobby = table_of(tg, GROUP)
        taps = [press_update(tg, person, lobby, "Entrar") for person in (BIA, CAIO, DAVI)]
        delays = {query: 0.12 - 0.05 * n for n, (_u, query) in enumerate(taps)}
        store.save_delay = lambda update: next(
            (d for q, d in delays.items() if update and update.endswith(":q:" + q)), 0.0)
        for update, _query in taps:
            await tg.app.update_queue.put(update)
        await until(lambda: all(len(answers(tg, q)) == 1 for _u, q in taps), 3.0)
        await tg.handlers.outbox.flush()
        assert ("Lugar 2: Bia · lado 2\nLugar 3: Caio · lado 1\nLugar 4: Davi · lado 2"
                in table_of(tg, GROUP)["text"])


async def test_the_update_processor_the_handlers_and_the_tick_loop_share_one_order(
        store_clients: Any, store_prefix: str) -> None:
    async with concurrent_bot(store_clients, store_prefix) as (tg, _store):
        processor = tg.app.update_processor
        assert isinstance(processor, UpdateOrder)
        assert processor.order is tg.handlers.outbox.order
        assert processor.max_concurrent_updates == UPDATES_IN_HAND


def test_updates_are_lined_up_by_the_game_they_name_else_by_their_chat() -> None:
    bot: Any = None
    press = Update.de_json({"update_id": 1, "callback_query": {
        "id": "q1", "from": ANA, "chat_instance": "ci", "data": "ab12cd34|4|d|7",
        "message": {"message_id": 5, "date": 0, "chat": GROUP, "text": "x"}}}, bot)
    forged = Update.de_json({"update_id": 2, "callback_query": {
        "id": "q2", "from": ANA, "chat_instance": "ci", "data": "zz",
        "message": {"message_id": 5, "date": 0, "chat": GROUP, "text": "x"}}}, bot)

    def message(text: str, chat: dict[str, Any]) -> Update:
        return Update.de_json({"update_id": 3, "message": {
            "message_id": 9, "date": 0, "chat": chat, "from": ANA, "text": text}}, bot)

    private = {"id": 1, "type": "private", "first_name": "Ana"}
    assert order_key(press) == "g:ab12cd34"
    assert order_key(forged) == "c:-100"
    assert order_key(message("/mao", GROUP)) == "c:-100"
    assert order_key(message("/start jab12cd34", private)) == "g:ab12cd34"
    assert order_key(message("/start g", private)) == "c:1"
    assert order_key(object()) == ""


def command_update(tg: Tg, person: dict[str, Any], text: str,
                   chat: dict[str, Any]) -> Update:
    """An update of ``person`` sending the command ``text`` in ``chat``."""
    return Update.de_json({"update_id": next(_ids), "message": {
        "message_id": next(_ids), "date": 0, "chat": chat, "from": person, "text": text,
        "entities": [{"type": "bot_command", "offset": 0,
                      "length": len(text.split()[0])}]}}, tg.app.bot)


async def test_a_command_on_the_game_runs_after_the_game_s_press_that_came_before_it(
        store_clients: Any, store_prefix: str) -> None:
    """Ana taps "Comprar do monte" and at once sends /cancelar; the tap's save is the
    slower. /cancelar acts on the game, so it waits in the game's line: the draw is
    applied (its button answered without a refusal), then the table is closed. In the
    chat's line the two ran side by side and the later /cancelar won the race: the tap
    that came first was refused."""
    async with concurrent_bot(store_clients, store_prefix) as (tg, store):
        game = await open_game(tg, GROUP)
        tap, query = press_update(tg, ANA, hand_of(tg, ANA, game), "Comprar do monte")
        store.save_delay = lambda update: 0.2 if update and update.endswith(
            ":q:" + query) else 0.0
        await tg.app.update_queue.put(tap)
        await tg.app.update_queue.put(command_update(tg, ANA, "/cancelar", GROUP))
        await until(lambda: any("cancelado" in t for t in said(tg, GROUP)), 3.0)
        await until(lambda: len(answers(tg, query)) == 1)
        assert "text" not in answers(tg, query)[0]  # applied, not refused
        assert any("Jogo cancelado por Ana." in t for t in said(tg, GROUP)), said(tg, GROUP)


def test_commands_acting_on_the_game_are_lined_up_with_it_and_the_others_by_chat() -> None:
    assert {"sair", "robo", "iniciar", "mao", "voltar", "cancelar", "placar"} <= GAME_COMMANDS
    assert not {"novojogo", "idioma", "config", "ranking", "procurar"} & GAME_COMMANDS
