"""The Telegram adapter end to end inside one process: real Bot API ``Update`` JSON goes
through python-telegram-bot's ``Application`` (``process_update``) into the real service
on fakeredis, and every Bot API request lands in :class:`FakeBotAPI`."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from adapters.storage import RedisStore
from adapters.telegram.app import build_application
from adapters.telegram.coalesce import EditCoalescer
from adapters.telegram.refs import MessageRefs
from bot import Service
from bot.settings import Settings

try:
    from test_telegram_fakeapi import TOKEN, FakeBotAPI
except ImportError:  # pragma: no cover - package-style test import
    from tests.test_telegram_fakeapi import TOKEN, FakeBotAPI

GROUP = {"id": -100, "type": "group", "title": "Mesa da Firma"}
ANA = {"id": 1, "is_bot": False, "first_name": "Ana"}
BIA = {"id": 2, "is_bot": False, "first_name": "Bia"}
CAIO = {"id": 3, "is_bot": False, "first_name": "Caio"}
LINK = "https://t.me/BuracoTestBot?start="


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def now(self) -> float:
        return self.t


class Tg:
    """One bot (Application + handlers) on a fake Bot API, and helpers to act as people."""

    def __init__(self, application: Any, handlers: Any, fake: FakeBotAPI, service: Service,
                 clock: Clock) -> None:
        self.app, self.handlers, self.fake = application, handlers, fake
        self.service, self.clock = service, clock
        self._ids = itertools.count(1)

    async def feed(self, data: dict[str, Any]) -> None:
        """Process one update JSON and wait for every coalesced edit."""
        await self.app.process_update(Update.de_json(data, self.app.bot))
        await self.handlers.outbox.flush()

    async def command(self, person: dict[str, Any], text: str,
                      chat: dict[str, Any] | None = None, update_id: int | None = None) -> int:
        """``person`` sends ``text`` (a command) in ``chat`` (the group by default)."""
        n = update_id or next(self._ids)
        chat = chat or GROUP
        length = len(text.split()[0])
        await self.feed({"update_id": n, "message": {
            "message_id": n, "date": 0, "chat": chat, "from": person, "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": length}]}})
        return n

    async def press(self, person: dict[str, Any], message: dict[str, Any], label: str,
                    update_id: int | None = None) -> str:
        """``person`` taps the button ``label`` under ``message``; returns the query id."""
        data = button(message, label)["callback_data"]
        n = update_id or next(self._ids)
        await self.feed({"update_id": n, "callback_query": {
            "id": f"q{n}", "from": person, "chat_instance": "ci", "data": data,
            "message": {k: message[k] for k in ("message_id", "date", "chat", "text")}}})
        return f"q{n}"

    def answer(self, query_id: str) -> dict[str, Any]:
        """The one answerCallbackQuery for ``query_id``."""
        answers = [p for p in self.fake.called("answerCallbackQuery")
                   if p["callback_query_id"] == query_id]
        assert len(answers) == 1, answers
        return answers[0]

    def table(self) -> dict[str, Any]:
        """The group's table message as it stands (the first one with a bold title)."""
        return next(m for m in self.fake.current(GROUP["id"]) if m["text"].startswith("<b>"))

    def hand(self, person: dict[str, Any]) -> dict[str, Any]:
        """The person's hand message (the one whose title is "Sua mão")."""
        hands = [m for m in self.fake.current(person["id"]) if "Sua mão" in m["text"]]
        assert len(hands) == 1, self.fake.current(person["id"])
        return hands[0]

    async def tick(self) -> None:
        """Run the service's timers once (AI moves) and deliver the effects."""
        await self.handlers.outbox.deliver(await self.service.tick())
        await self.handlers.outbox.flush()


def button(message: dict[str, Any], label: str) -> dict[str, Any]:
    """The inline button labelled ``label`` under ``message`` (AssertionError if none)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    for row in rows:
        for b in row:
            if b["text"] == label:
                return dict(b)
    raise AssertionError(f"no {label!r} in {[b['text'] for r in rows for b in r]}")


def labels(message: dict[str, Any]) -> list[str]:
    """All button labels under ``message``."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b["text"] for row in rows for b in row]


@contextlib.asynccontextmanager
async def bot_on_fake_api(store: RedisStore, prefix: str, service: Service,
                          clock: Any) -> AsyncIterator[Tg]:
    """For the ``async with`` block: the Telegram bot of ``service`` (whose store is
    ``store``, under key prefix ``prefix``, holding the message references too), every Bot
    API request into a new :class:`FakeBotAPI`, with edit coalescing gaps of zero."""
    fake = FakeBotAPI()

    async def lang_of(chat_key: str) -> str:
        return (await store.get_setting(chat_key, "lang")) or "pt"

    application, handlers = build_application(
        Settings(telegram_token=TOKEN, _env_file=None), service,
        MessageRefs(store.client, prefix), lang_of, request=fake)
    handlers.outbox.group_edits = EditCoalescer(gap_s=0, per_minute=10_000)
    handlers.outbox.dm_edits = EditCoalescer(gap_s=0, per_minute=10_000)
    async with application:
        yield Tg(application, handlers, fake, service, clock)


@pytest.fixture
async def tg(store_clients: Any, store_prefix: str) -> AsyncIterator[Tg]:
    """The bot on a fake Bot API over fakeredis (and over the real Redis at ``REDIS_URL``
    when it is set: see tests/conftest.py), with edit coalescing gaps of zero."""
    store = RedisStore(store_clients(), store_prefix)
    clock = Clock()
    async with bot_on_fake_api(store, store_prefix, Service(store, clock, ai_pace_s=0),
                               clock) as bot:
        yield bot


async def open_table(tg: Tg) -> str:
    """Ana opens a Buraco table; returns the game id (from the deep-link button)."""
    await tg.command(ANA, "/novojogo")
    rows = tg.table()["reply_markup"]["inline_keyboard"]
    url = next(b["url"] for row in rows for b in row if "url" in b)
    return str(url.removeprefix(LINK + "j"))


# ---- lobby ------------------------------------------------------------------------------
async def test_novojogo_posts_the_lobby_with_join_buttons_and_a_deep_link(tg: Tg) -> None:
    game_id = await open_table(tg)
    table = tg.table()
    assert table["text"].startswith(
        "<b>Buraco Bossa Nova · até 1500 pontos</b>\nMesa aberta por Ana.\n"
        "Buraco Bossa Nova: com morto; para encerrar a mão o lado precisa de uma canastra. "
        "A mais jogada.\nLugar 1: Ana · lado 1\n"
        "Jogadores: 2, 3, 4 · tempo por jogada: 90 s\nSortear duplas: não\n"
        "Outras variantes (um toque de quem abriu a mesa):\n• Buraco com Morto: ")
    assert labels(table) == ["Entrar", "Sair", "Robô", "Sortear duplas", "Iniciar",
                             "Cancelar", "Buraco com Morto", "Buraco", "Tranca",
                             "Justificado", "Altaneira", "Entrar e abrir o privado"]
    assert button(table, "Entrar")["callback_data"] == f"{game_id}|0|j|"
    assert button(table, "Entrar e abrir o privado")["url"] == f"{LINK}j{game_id}"
    assert re.fullmatch(r"[a-z0-9]{8}", game_id)


async def test_join_by_button_edits_the_table_and_opens_the_dm_for_a_stranger(tg: Tg) -> None:
    game_id = await open_table(tg)
    query = await tg.press(BIA, tg.table(), "Entrar")
    assert "Lugar 2: Bia · lado 2" in tg.table()["text"]
    assert len(tg.fake.called("sendMessage")) == 1  # the table was edited, not re-posted
    assert tg.answer(query)["url"] == f"{LINK}g{game_id}"  # Bia never started the bot


async def test_join_by_deep_link_seats_the_person_from_the_private_chat(tg: Tg) -> None:
    game_id = await open_table(tg)
    await tg.command(CAIO, f"/start j{game_id}", chat={"id": 3, "type": "private",
                                                        "first_name": "Caio"})
    assert "Lugar 2: Caio · lado 2" in tg.table()["text"]
    query = await tg.press(CAIO, tg.table(), "Sair")
    assert "url" not in tg.answer(query)  # the bot can write to Caio now
    assert "Caio" not in tg.table()["text"]


async def test_a_duplicate_update_changes_nothing_but_is_still_answered(tg: Tg) -> None:
    await open_table(tg)
    first = await tg.press(BIA, tg.table(), "Entrar", update_id=500)
    edits = len(tg.fake.called("editMessageText"))
    await tg.feed({"update_id": 500, "callback_query": {
        "id": first, "from": BIA, "chat_instance": "ci",
        "data": button(tg.table(), "Entrar")["callback_data"],
        "message": {k: tg.table()[k] for k in ("message_id", "date", "chat", "text")}}})
    assert len(tg.fake.called("editMessageText")) == edits
    answers = [p for p in tg.fake.called("answerCallbackQuery")
               if p["callback_query_id"] == first]
    assert len(answers) == 2 and all("text" not in a for a in answers)


async def test_robo_tapped_twice_on_the_same_lobby_adds_two_robots(tg: Tg) -> None:
    """Issue 30: two taps are two callback queries, two robots, even on the lobby message
    as it was before the first robot showed."""
    await open_table(tg)
    lobby = tg.table()
    first = await tg.press(ANA, lobby, "Robô")
    second = await tg.press(ANA, lobby, "Robô")
    assert "Lugar 2: Robô 2 (normal) · lado 2\nLugar 3: Robô 3 (normal) · lado 3" in (
        tg.table()["text"])
    assert "text" not in tg.answer(first) and "text" not in tg.answer(second)


async def test_one_robot_tap_delivered_again_in_another_update_adds_one_robot(tg: Tg) -> None:
    """The same press (its callback query) in a second update, as a redelivery brings it,
    applies once: the press is told by its query id, not by the update's."""
    await open_table(tg)
    lobby = tg.table()
    query = await tg.press(ANA, lobby, "Robô", update_id=700)
    await tg.feed({"update_id": 701, "callback_query": {
        "id": query, "from": ANA, "chat_instance": "ci",
        "data": button(lobby, "Robô")["callback_data"],
        "message": {k: lobby[k] for k in ("message_id", "date", "chat", "text")}}})
    text = tg.table()["text"]
    assert "Lugar 2: Robô 2 (normal) · lado 2" in text and "Lugar 3" not in text


async def test_cancel_by_a_chat_admin_closes_the_table_and_drops_its_buttons(tg: Tg) -> None:
    await open_table(tg)
    await tg.command(BIA, "/cancelar")
    assert tg.fake.current(GROUP["id"])[-1]["text"] == (
        "Só quem abriu a mesa ou um admin do grupo pode cancelar.")
    tg.fake.admins.add(BIA["id"])
    await tg.command(BIA, "/cancelar")
    assert labels(tg.table()) == []


# ---- play -------------------------------------------------------------------------------
async def start_two_humans(tg: Tg) -> str:
    """Ana and Bia with two AI seats (seats: Ana, Bia, AI, AI); Ana starts."""
    game_id = await open_table(tg)
    await tg.press(BIA, tg.table(), "Entrar")
    await tg.press(ANA, tg.table(), "Robô")
    await tg.press(ANA, tg.table(), "Robô")
    await tg.press(ANA, tg.table(), "Iniciar")
    return game_id


async def test_start_sends_each_person_their_hand_and_pings_whose_turn_it_is(tg: Tg) -> None:
    game_id = await start_two_humans(tg)
    table = tg.table()
    assert labels(table) == ["Minha mão"]
    assert "Vez de Ana." in table["text"]
    ana, bia = tg.hand(ANA), tg.hand(BIA)
    assert ana["text"].startswith("<b>Sua mão (11 cartas)</b>\nMesa: Mesa da Firma\n")
    assert labels(ana)[-1] == "Comprar do monte"
    assert "Comprar do monte" not in labels(bia)
    assert all(b["callback_data"].startswith(f"{game_id}|") for r in
               ana["reply_markup"]["inline_keyboard"] for b in r)
    pings = [m for m in tg.fake.current(ANA["id"]) if m != ana]
    assert [m["text"] for m in pings] == ["Sua vez em Mesa da Firma."]
    assert [m["text"] for m in tg.fake.current(BIA["id"]) if m != bia] == []


async def test_no_hand_card_reaches_the_group(tg: Tg) -> None:
    await start_two_humans(tg)
    group_texts = "\n".join(tg.fake.texts_to(GROUP["id"]))
    for person in (ANA, BIA):
        cards = labels(tg.hand(person))[:11]
        assert " ".join(cards) not in group_texts
    group_buttons = [b for m in tg.fake.current(GROUP["id"]) for b in labels(m)]
    assert group_buttons == ["Minha mão"]


async def test_only_the_seat_owner_may_press_its_buttons(tg: Tg) -> None:
    await start_two_humans(tg)
    hand = tg.hand(ANA)
    by_partner = await tg.press(BIA, hand, "Comprar do monte")
    by_stranger = await tg.press(CAIO, hand, "Comprar do monte")
    assert tg.answer(by_partner)["text"] == "Não é a sua vez."
    assert tg.answer(by_stranger)["text"] == "Você não está nesta partida."
    assert tg.hand(ANA)["text"] == hand["text"]


async def test_an_old_button_gets_a_toast_and_changes_nothing(tg: Tg) -> None:
    await start_two_humans(tg)
    old = tg.hand(ANA)
    await tg.press(ANA, old, "Comprar do monte")
    drawn = tg.hand(ANA)
    assert drawn["text"].startswith("<b>Sua mão (12 cartas)</b>")
    query = await tg.press(ANA, old, "Comprar do monte")
    assert tg.answer(query)["text"] == "Esse botão é antigo: use a mão mais recente (/mao)."
    assert tg.hand(ANA)["text"] == drawn["text"]


async def simple_turn(tg: Tg, person: dict[str, Any]) -> None:
    """Draw from the stock, select the first card, discard it (buttons only)."""
    await tg.press(person, tg.hand(person), "Comprar do monte")
    hand = tg.hand(person)
    await tg.press(person, hand, labels(hand)[0])
    query = await tg.press(person, tg.hand(person), "Descartar")
    assert "text" not in tg.answer(query), tg.answer(query)


def pings(tg: Tg, person: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn notifications now in the person's private chat."""
    return [m for m in tg.fake.current(person["id"]) if m["text"].startswith("Sua vez em")]


async def until_turn_of(tg: Tg, person: dict[str, Any]) -> None:
    """Play on until it is ``person``'s turn again: the other person plays
    :func:`simple_turn`, the robots one step per tick, and a deal a robot ended early
    (buraco needs no canastra to go out, RULES A17) is followed by "Próxima mão"."""
    other = BIA if person is ANA else ANA
    for _ in range(200):
        if "Comprar do monte" in labels(tg.hand(person)):
            return
        if "Comprar do monte" in labels(tg.hand(other)):
            await simple_turn(tg, other)
        elif "Próxima mão" in labels(tg.table()):
            await tg.press(person, tg.table(), "Próxima mão")
        else:
            await tg.tick()
    raise AssertionError(tg.fake.texts_to(GROUP["id"])[-3:])


async def test_a_turn_ping_replaces_the_previous_one(tg: Tg) -> None:
    await start_two_humans(tg)
    first = pings(tg, ANA)
    assert [m["text"] for m in first] == ["Sua vez em Mesa da Firma."]
    await simple_turn(tg, ANA)
    tg.clock.t += 121  # Ana's hand is no longer open when her turn comes (issue 30)
    await until_turn_of(tg, ANA)
    second = pings(tg, ANA)
    assert len(second) == 1 and second[0]["message_id"] != first[0]["message_id"]
    assert {"chat_id": ANA["id"], "message_id": first[0]["message_id"]} in (
        tg.fake.called("deleteMessage"))


async def test_my_hand_opens_the_private_chat_with_the_hand(tg: Tg) -> None:
    tg.fake.fail("sendMessage", "Forbidden: bot was blocked by the user", code=403,
                 chat_id=BIA["id"], times=100)
    game_id = await start_two_humans(tg)
    hand = tg.hand(ANA)
    reached = await tg.press(ANA, tg.table(), "Minha mão")
    blocked = await tg.press(BIA, tg.table(), "Minha mão")
    assert tg.answer(reached)["url"] == tg.answer(blocked)["url"] == f"{LINK}h{game_id}"
    assert tg.hand(ANA) == hand  # re-sent in place: no second hand message


async def test_my_hand_answers_a_non_player_in_the_group_without_a_link(tg: Tg) -> None:
    """Issue 12 item 4: no deep link to a private chat that would only refuse."""
    await start_two_humans(tg)
    outsider = await tg.press(CAIO, tg.table(), "Minha mão")
    answer = tg.answer(outsider)
    assert "url" not in answer
    assert answer["text"] == "Você não está nesta partida."
    assert tg.fake.current(CAIO["id"]) == []


async def test_the_press_is_answered_before_the_table_is_edited(tg: Tg) -> None:
    await open_table(tg)
    await tg.press(BIA, tg.table(), "Entrar")
    names = [name for name, _ in tg.fake.calls]
    assert names[-2:] == ["answerCallbackQuery", "editMessageText"]


async def test_say_tell_document_and_closed_effects(tg: Tg) -> None:
    from bot.effects import ChatRef, Closed, Document, PlayerRef, Say, Tell

    game_id = await start_two_humans(tg)
    chat = ChatRef(platform="tg", chat_id=str(GROUP["id"]), title="Mesa da Firma")
    bia = PlayerRef(platform="tg", user_id=str(BIA["id"]), name="Bia")
    await tg.handlers.outbox.deliver([
        Say(chat=chat, text="Fim da mão 1.\nA <b> & 7♥"),
        Tell(player=bia, chat=chat, text="Mesa fechada."),
        Document(chat=chat, filename=f"buraco-{game_id}.json", content='{"deck": []}'),
        Closed(chat=chat, game_id=game_id)])
    await tg.handlers.outbox.flush()
    group = tg.fake.current(GROUP["id"])
    assert "Fim da mão 1.\nA &lt;b&gt; &amp; 7♥\ufe0f" in [m["text"] for m in group]
    assert tg.fake.current(BIA["id"])[-1]["text"] == "Mesa fechada."
    assert tg.fake.called("sendDocument")[0]["chat_id"] == GROUP["id"]
    assert labels(tg.table()) == []
    assert labels(tg.hand(ANA)) == [] and labels(tg.hand(BIA)) == []
    assert [m for m in tg.fake.current(ANA["id"]) if m["text"].startswith("Sua vez")] == []
    assert await tg.handlers.outbox.refs.all(game_id) == {}


async def test_a_slow_answer_cannot_put_an_older_table_over_a_newer_one(tg: Tg) -> None:
    await open_table(tg)
    release = tg.fake.hold("answerCallbackQuery")
    press = asyncio.get_running_loop().create_task(tg.press(BIA, tg.table(), "Entrar"))
    while not tg.fake.called("answerCallbackQuery"):  # Bia's join is saved and staged
        await asyncio.sleep(0)
    await tg.command(ANA, "/robo")  # a newer table while Bia's answer is on the wire
    release.set()
    await press
    assert "Lugar 2: Bia · lado 2" in tg.table()["text"]
    assert "Lugar 3: Robô 3 (normal) · lado 3" in tg.table()["text"]


async def test_cancel_within_the_edit_gap_of_a_move_leaves_the_table_saying_so(
        tg: Tg, monkeypatch: pytest.MonkeyPatch) -> None:
    await start_two_humans(tg)
    tg.handlers.outbox.group_edits = EditCoalescer(gap_s=0.5, per_minute=10_000)
    await tg.press(ANA, tg.hand(ANA), "Comprar do monte")  # the table is edited at once
    hand = tg.hand(ANA)
    await tg.press(ANA, hand, labels(hand)[0])
    flush = tg.handlers.outbox.flush

    async def later() -> None:
        return None

    monkeypatch.setattr(tg.handlers.outbox, "flush", later)
    await tg.press(ANA, tg.hand(ANA), "Descartar")  # its table edit waits for the gap
    await tg.command(ANA, "/cancelar")  # and the closing replaces it
    await flush()
    table = tg.table()
    assert table["text"].endswith("\nJogo cancelado por Ana.")
    assert labels(table) == []


async def test_a_record_telegram_refuses_is_told_to_the_group(tg: Tg) -> None:
    """A trial: /exportar answered nothing when sendDocument failed; the group now hears
    the service's notice in its language."""
    from bot.effects import ChatRef, Document

    chat = ChatRef(platform="tg", chat_id=str(GROUP["id"]), title="Mesa da Firma")
    tg.fake.fail("sendDocument", "Bad Request: file is empty", chat_id=GROUP["id"])
    await tg.handlers.outbox.deliver([Document(
        chat=chat, filename="buraco-g1.json", content="{}",
        failed="Não consegui enviar o arquivo da partida agora: tente /exportar de novo "
               "daqui a pouco.")])
    assert [m["text"] for m in tg.fake.current(GROUP["id"])][-1] == (
        "Não consegui enviar o arquivo da partida agora: tente /exportar de novo daqui a "
        "pouco.")
