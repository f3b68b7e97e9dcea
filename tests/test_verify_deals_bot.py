"""Deals anyone can verify, in the bot (issue 35): the commitment on the table of every
deal before any hand (and the delivery keeps that order), the seed in no effect, web
frame or log line before the deal is over, then on the table and in the deal's
result; ``/verificar`` on the chat's last finished game, a tampered record, a game in
play, a bad argument; the terminal's ``verificar``."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from console_support import played
from season_support import Redis, redis, worker
from test_delivery import CHAT as DCHAT
from test_delivery import Recorder
from test_service_match import human_turn
from test_service_support import ANA, BIA, CHAT, FakeClock, clock, game_of, make_service
from test_telegram_app import ANA as TG_ANA
from test_telegram_app import BIA as TG_BIA
from test_telegram_app import GROUP, Tg, open_table, tg

from adapters.console.app import CHAT as TERMINAL
from adapters.console.app import ME as TERMINAL_ME
from adapters.delivery.coalesce import EditCoalescer
from adapters.delivery.outbox import Delivery
from adapters.delivery.refs import GameRefs
from bot import fairness, play, webview
from bot.effects import (
    ChatRef,
    Effect,
    HandView,
    PlayerRef,
    Reply,
    Say,
    TableView,
    View,
    pack,
)
from bot.i18n import Translator
from bot.memstore import MemoryStore
from bot.service import Service
from engine.cards import Card
from engine.fairdeal import commitment

_ = (redis, clock, tg)  # fixtures


def dumped(effects: list[Effect]) -> str:
    return json.dumps([e.model_dump(mode="json") for e in effects], ensure_ascii=False)


async def seed_of(store: Any, gid: str) -> str:
    _v, game = await game_of(store, gid=gid)
    seed = play.match_of(game).logs[-1].seed
    assert seed is not None
    return seed


async def open_two(svc: Service, preset: str = "buraco_morto target=5000") -> list[Effect]:
    await svc.new_game(CHAT, ANA, preset)
    await svc.join(CHAT, BIA)
    return await svc.start(CHAT, ANA)


def check_opening(effects: list[Effect], seed: str) -> None:
    """The deal's first table comes before every hand and shows the commitment; the
    seed is nowhere."""
    tables = [k for k, e in enumerate(effects) if isinstance(e, TableView)]
    hands = [k for k, e in enumerate(effects) if isinstance(e, HandView)]
    assert tables and hands and tables[0] < hands[0]
    table = effects[tables[0]]
    assert isinstance(table, TableView) and table.opens_deal and table.prompt
    assert f"Compromisso do baralho (SHA-256): {commitment(seed)}" in table.view.lines
    assert seed not in dumped(effects)


async def test_every_deal_shows_its_commitment_first_and_its_seed_only_at_its_end(
        redis: Redis, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    """The first two deals of a match, people by buttons: each call's effects are
    checked against the stored game right after it (no seed while the deal is in
    play); log lines at every level too."""
    svc, store, _s = worker(redis, clock, deck_fn=None)
    caplog.set_level(logging.DEBUG)
    started = await open_two(svc)
    gid = (await game_of(store))[1].id
    seeds = [await seed_of(store, gid)]
    check_opening(started, seeds[0])
    ended = 0
    for _step in range(2_000):
        _v, game = await game_of(store, gid=gid)
        if ended == 2:
            break
        if game.status == "between":
            effects = await svc.press(ANA, pack(gid, 0, "n", len(game.deals) + 1))
            seeds.append(await seed_of(store, gid))
            check_opening(effects, seeds[-1])
            continue
        effects = await human_turn(svc, store, gid, play.deal_of(game).turn)
        _v, game = await game_of(store, gid=gid)
        if game.status == "playing":
            assert seeds[-1] not in dumped(effects)
            continue
        ended += 1  # the deal's end: the table and the result reveal the seed
        line = (f"Semente do baralho: {seeds[-1]} (compromisso {commitment(seeds[-1])[:16]}…): "
                "/verificar confere.")
        tables = [e for e in effects if isinstance(e, TableView)]
        assert line in tables[-1].view.lines
        result = [e for e in effects if isinstance(e, Say) and e.text.startswith("Fim da mão")]
        assert result[0].text.splitlines()[-1] == line
    assert ended == len(seeds) == 2
    for record in caplog.records:  # the seeds were secret in play; no log line holds one
        assert not any(seed in record.getMessage() for seed in seeds)


async def test_the_web_frame_shows_the_commitment_in_play_and_the_seed_after(
        redis: Redis, clock: FakeClock) -> None:
    svc, store, _s = worker(redis, clock, deck_fn=None)
    await open_two(svc)
    gid = (await game_of(store))[1].id
    seed = await seed_of(store, gid)
    _v, game = await game_of(store, gid=gid)
    for seat in (0, 1, None):
        frame = webview.web_view(game, seat)
        assert frame["shuffle"] == f"Compromisso do baralho (SHA-256): {commitment(seed)}"
        assert seed not in json.dumps(frame)
    while game.status == "playing":
        await human_turn(svc, store, gid, play.deal_of(game).turn)
        _v, game = await game_of(store, gid=gid)
    assert webview.web_view(game, None)["shuffle"].startswith(f"Semente do baralho: {seed} ")


async def finished(svc: Service, store: Any, preset: str = "tranca") -> str:
    """A one-deal game (one more deal after a tie, RULES §2) played to its end by Ana
    and Bia; its id."""
    await open_two(svc, preset)
    gid = (await game_of(store))[1].id
    for _step in range(5_000):
        _v, game = await game_of(store, gid=gid)
        if game.status == "over":
            return gid
        if game.status == "between":
            await svc.press(ANA, pack(gid, 0, "n", len(game.deals) + 1))
            continue
        await human_turn(svc, store, gid, play.deal_of(game).turn)
    raise AssertionError("the game did not end")


def reply(effects: list[Effect]) -> str:
    (one,) = effects
    assert isinstance(one, Reply)
    return one.text


async def test_verificar_checks_the_last_finished_game(redis: Redis, clock: FakeClock) -> None:
    svc, store, _s = worker(redis, clock, deck_fn=None)
    gid = await finished(svc, store)
    record = json.loads(await store.load_record(gid) or "")
    deals = record.get("deals", [record])
    short = deals[0]["commitment"][:16]
    expected = [f"Conferência do embaralhamento do jogo {gid}:",
                *(f"Mão {n}: OK (compromisso {d['commitment'][:16]}…, semente conferida)."
                  for n, d in enumerate(deals, 1)),
                "Resultado: OK, 1 mão verificada, confere com a semente." if len(deals) == 1
                else f"Resultado: OK, {len(deals)} mãos verificadas, todas conferem com as "
                "sementes.",
                "Para conferir sem o bot: /exportar e python3 verify_deal.py <arquivo> "
                "(tools/verify_deal.py, só Python)."]
    assert reply(await svc.verify_deal(CHAT, BIA)).splitlines() == expected
    assert reply(await svc.verify_deal(CHAT, BIA, f"tranca-{gid}.json")).splitlines() \
        == expected
    await svc.set_language(CHAT, ANA, "en")
    english = reply(await svc.verify_deal(CHAT, BIA, gid)).splitlines()
    assert english[1] == f"Deal 1: OK (commitment {short}…, seed checked)."


async def test_verificar_says_exactly_what_a_tampered_record_changed(
        redis: Redis, clock: FakeClock) -> None:
    svc, store, _s = worker(redis, clock, deck_fn=None)
    gid = await finished(svc, store)
    whole = json.loads(await store.load_record(gid) or "")
    record = whole["deals"][0] if "deals" in whole else whole
    deck = record["deck"]
    k = next(i for i in range(1, 40) if deck[i] != deck[0])
    deck[0], deck[k] = deck[k], deck[0]
    record["commitment"] = commitment("11" * 32)
    await store.save_record(gid, json.dumps(whole))
    lines = reply(await svc.verify_deal(CHAT, ANA)).splitlines()
    first = record["first"]
    names = whole["players"]
    show = [play.text_of(Card.parse(c)) for c in (deck[0], deck[k])]
    assert lines[1:5] == [
        "Mão 1: NÃO CONFERE.",
        f"  o compromisso do registro ({record['commitment'][:16]}…) não é o SHA-256 da "
        f"semente ({commitment(record['seed'])[:16]}…)",
        f"  posição 1 do baralho (mão de {names[first]}, carta 1): o registro tem "
        f"{show[0]}, a semente dá {show[1]}",
        f"  posição {k + 1} do baralho (mão de {names[(first + k) % 2]}, carta {k // 2 + 1}): "
        f"o registro tem {show[1]}, a semente dá {show[0]}"]
    total = len(whole.get("deals", [1]))
    assert lines[-2] == ("Resultado: a mão não confere com a semente." if total == 1
                         else f"Resultado: 1 de {total} mãos não confere.")


@pytest.mark.parametrize(("lang", "bad", "total", "line"), [
    ("pt", 0, 1, "Resultado: OK, 1 mão verificada, confere com a semente."),
    ("pt", 0, 3, "Resultado: OK, 3 mãos verificadas, todas conferem com as sementes."),
    ("pt", 1, 1, "Resultado: a mão não confere com a semente."),
    ("pt", 1, 3, "Resultado: 1 de 3 mãos não confere."),
    ("pt", 2, 3, "Resultado: 2 de 3 mãos não conferem."),
    ("en", 0, 1, "Result: OK, 1 deal checked, it matches its seed."),
    ("en", 0, 2, "Result: OK, 2 deals checked, all match their seeds."),
    ("en", 1, 1, "Result: the deal does not match its seed."),
    ("en", 2, 5, "Result: 2 of 5 deals do not match."),
    ("it", 0, 1, "Risultato: OK, 1 mano verificata, corrisponde al seme."),
    ("it", 0, 4, "Risultato: OK, 4 mani verificate, tutte corrispondono ai semi."),
    ("it", 1, 2, "Risultato: 1 mano su 2 non corrisponde."),
    ("it", 2, 2, "Risultato: 2 mani su 2 non corrispondono.")])
def test_verificar_result_line_takes_the_plural_of_the_count(
        lang: str, bad: int, total: int, line: str) -> None:
    """``/verificar`` of a one-deal match: never "todas as 1 mãos" (tester, issue 35)."""
    assert fairness.result_line(bad, total, Translator(lang)) == line


async def test_verificar_refuses_a_game_in_play_a_bad_argument_and_an_unknown_game(
        redis: Redis, clock: FakeClock) -> None:
    svc, store, _s = worker(redis, clock, deck_fn=None)
    assert reply(await svc.verify_deal(CHAT, ANA)) == \
        "Ainda não há partida terminada neste grupo."
    await open_two(svc)
    gid = (await game_of(store))[1].id
    before = await store.load_game(gid)
    in_play = ("Só uma partida terminada se confere: esta ainda está em jogo. A semente de "
               "cada mão aparece na mesa quando a mão acaba.")
    assert reply(await svc.verify_deal(CHAT, ANA)) == in_play
    assert reply(await svc.verify_deal(CHAT, ANA, gid)) == in_play
    assert reply(await svc.verify_deal(CHAT, ANA, "../../etc")).startswith(
        "Use /verificar para a última partida terminada")
    assert reply(await svc.verify_deal(CHAT, ANA, "zzzzzzzz")) == \
        "Não há registro do jogo zzzzzzzz."
    assert await store.load_game(gid) == before  # nothing changed


async def test_a_doubled_verificar_update_answers_once(redis: Redis, clock: FakeClock) -> None:
    svc, _store, _s = worker(redis, clock, deck_fn=None)
    await open_two(svc)
    assert len(await svc.verify_deal(CHAT, ANA, update="tg:1")) == 1
    assert await svc.verify_deal(CHAT, ANA, update="tg:1") == []


# The delivery keeps the order: the deal's table, then the hands ---------------------------
class SlowTable(Recorder):
    """A platform whose table post takes a while (a busy group)."""

    async def post(self, chat: Any, message: Any) -> str | None:
        if str(message).startswith("table:"):
            await asyncio.sleep(0.05)
        return await super().post(chat, message)


def deal_effects(opens: bool) -> list[Effect]:
    person = PlayerRef(platform="xx", user_id="1", name="Ana")
    return [TableView(chat=DCHAT, game_id="g1", view=View(title="t"), prompt=True,
                      opens_deal=opens),
            HandView(chat=DCHAT, game_id="g1", player=person, seat=0, view=View(title="h"))]


@pytest.mark.parametrize("opens", [True, False])
async def test_the_hands_of_a_new_deal_wait_for_its_table(
        store_clients: Any, store_prefix: str, opens: bool) -> None:
    """With ``opens_deal`` the hand goes out after the table; without it (any other
    table) the quicker hand goes first: the wait is what orders them."""
    platform = SlowTable()
    delivery = Delivery(platform, GameRefs(store_clients(), store_prefix, platform="xx"),
                        EditCoalescer(gap_s=0, per_minute=10_000),
                        EditCoalescer(gap_s=0, per_minute=10_000))
    await delivery.deliver(deal_effects(opens))
    await delivery.flush()
    order = [call[0] for call in platform.calls]
    assert order == (["post", "send_private"] if opens else ["send_private", "post"])


# On Telegram (the fake Bot API): the table edit first, then the hands; /verificar ---------
async def test_on_telegram_no_hand_is_sent_before_the_table_shows_the_commitment(
        tg: Tg) -> None:
    """The table that replaces the lobby is held (a slow Bot API): no hand goes out
    until it is through, and it carries the commitment of the seed stored for the deal."""
    await open_table(tg)
    await tg.press(TG_BIA, tg.table(), "Entrar")
    held = tg.fake.hold("editMessageText")
    start = asyncio.create_task(tg.press(TG_ANA, tg.table(), "Iniciar"))
    for _ in range(50):
        await asyncio.sleep(0.01)
    hands_sent = [p for p in tg.fake.called("sendMessage") if "Sua mão" in p["text"]]
    assert hands_sent == []
    held.set()
    await start
    hands_sent = [p for p in tg.fake.called("sendMessage") if "Sua mão" in p["text"]]
    assert len(hands_sent) == 2
    game = (await game_of(tg.service.store, ChatRef(platform="tg", chat_id=str(GROUP["id"]))))[1]
    seed = play.match_of(game).logs[-1].seed
    assert seed is not None
    assert f"Compromisso do baralho (SHA-256): {commitment(seed)}" in tg.table()["text"]
    assert all(seed not in text for text in tg.fake.texts_to(GROUP["id"]))
    await tg.command(TG_BIA, "/verificar")
    assert tg.fake.texts_to(GROUP["id"])[-1].endswith(
        "A semente de cada mão aparece na mesa quando a mão acaba.")


# In the terminal ----------------------------------------------------------------------------
async def test_the_terminal_shows_the_commitment_before_the_hand_and_verificar_at_the_end(
) -> None:
    """A justificado duel (one deal, RULES A35) on production seeds, the person drawing
    and discarding; ``verificar`` at the last prompt checks it."""
    commands = iter(["c", "d 1"] * 400)
    last = iter(["verificar"])

    def read(prompt: str) -> str:
        line = next(last, None) if "exportar" in prompt else next(commands)
        if line is None:
            raise EOFError
        return line

    _game, text = await played(read, "justificado", 2, deck_fn=None, next_deal_s=0)
    assert text.index("Compromisso do baralho (SHA-256): ") < text.index("Sua mão (11 cartas)")
    verdict = text[text.index("Conferência do embaralhamento do jogo"):]
    assert "Mão 1: OK (compromisso " in verdict
    assert "Resultado: OK, 1 mão verificada, confere com a semente." in verdict
    # the terminal names its own commands, typed without a slash (issue 38)
    assert "/verificar" not in text and "/exportar" not in text
    words = " ".join(text.split())  # rich wraps the long seed line
    assert words.count("…): verificar confere.") == words.count("Semente do baralho: ") > 0
    assert " ".join(verdict.split()).endswith("só Python). Até a próxima!") and (
        "Para conferir sem o jogo: exportar e python3 verify_deal.py <arquivo> "
        "(tools/verify_deal.py, só Python)." in " ".join(verdict.split()))


async def test_the_terminal_names_its_own_verificar_when_the_argument_is_bad() -> None:
    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock, deck_fn=None)
    (none,) = await svc.verify_deal(TERMINAL, TERMINAL_ME)  # and speaks of no group
    assert isinstance(none, Reply) and none.text == "Ainda não há partida terminada."
    (one,) = await svc.verify_deal(TERMINAL, TERMINAL_ME, "x y")
    assert isinstance(one, Reply) and one.text == (
        "Use verificar para a última partida terminada, ou verificar <jogo> com o código "
        "do arquivo de exportar (bossa_nova-k3f9qz2a.json: k3f9qz2a).")
