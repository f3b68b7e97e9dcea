# ruff: noqa: F811  (pytest fixtures imported from the support modules)
"""``/replay`` through the service (issue 29 "Spectators"): the chat's last finished
match step by step from its stored record, as the group saw the table; step buttons
that carry only the game, a serial and indexes; forged, out-of-range and stale presses
refused with one line and nothing changed; a missing or damaged record told in one line.

``tests/data/replay-buraco.json`` is a known record: buraco to 1,000 points, Ana and Bia
against two robots, seven deals (15, 47, 56, 37, 78, 14 and 50 moves), 870 to 1,050,
played by the engine's ``normal`` AI with ``random.Random(29)`` decks."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from season_support import play_match
from test_service_support import (  # noqa: F401
    ANA,
    BIA,
    CHAT,
    CHAT2,
    FakeClock,
    backend,
    clock,
    make_service,
    store,
    svc,
)

from adapters.storage import RedisStore
from bot import replay
from bot.effects import ReplayView, Reply, Say, View
from bot.service import Service

RECORD = (Path(__file__).parent / "data" / "replay-buraco.json").read_text()
GID = "g29rp"
CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


async def _keep(store: Any, record: str = RECORD, gid: str = GID) -> None:
    """The record kept as the chat's last finished match (what close_out writes)."""
    await store.save_record(gid, record)
    await store.set_setting(CHAT.key, "last_game", gid)


def _view(effects: list[Any]) -> View:
    (shown,) = effects
    assert isinstance(shown, ReplayView) and shown.chat == CHAT and shown.game_id == GID
    return shown.view


def _said(effects: list[Any]) -> str:
    (reply,) = effects
    assert isinstance(reply, Reply)
    return reply.text


def _buttons(view: View) -> list[list[tuple[str, str]]]:
    return [[(b.label, b.data) for b in row] for row in view.buttons]


async def test_replay_without_a_finished_match_says_so_in_one_line(svc: Service) -> None:
    assert _said(await svc.replay(CHAT, ANA)) == "Ainda não há partida terminada neste grupo."


async def test_replay_starts_at_the_first_deal_as_dealt(svc: Service, store: Any) -> None:
    await _keep(store)
    view = _view(await svc.replay(CHAT, ANA))
    assert view.text() == "\n".join([
        "Buraco · até 1000 pontos",
        "Replay · mão 1 de 7 · início",
        "Dupla 1 (Ana, Bia): 0 pts · nesta mão: 0 em jogos",
        "  (sem jogos)",
        "Dupla 2 (Robô 2, Robô 4): 0 pts · nesta mão: 0 em jogos",
        "  (sem jogos)",
        "Cartas na mão: Ana 11 · Robô 2 11 · Bia 11 · Robô 4 11",
        "Lixo vazio · Monte: 60",
        "Vez de Ana.",
        "Mão 1 distribuída."])
    assert _buttons(view) == [[("Mão ▶", f"{GID}|1|rp|1.0"), ("Fim ⏭", f"{GID}|1|rp|6.50")],
                              [("Jogada ▶", f"{GID}|1|rp|0.1")]]


async def test_each_move_is_shown_as_the_table_showed_it(svc: Service, store: Any) -> None:
    await _keep(store)
    await svc.replay(CHAT, ANA)
    drew = _view(await svc.press(BIA, f"{GID}|1|rp|0.1", chat=CHAT))
    assert drew.lines[0] == "Replay · mão 1 de 7 · jogada 1 de 15"
    assert drew.lines[5:] == ["Cartas na mão: Ana 12 · Robô 2 11 · Bia 11 · Robô 4 11",
                              "Lixo vazio · Monte: 59", "Vez de Ana.",
                              "Ana comprou do monte."]  # the card drawn is never named
    laid = _view(await svc.press(BIA, f"{GID}|1|rp|0.2", chat=CHAT))
    assert laid.lines == [
        "Replay · mão 1 de 7 · jogada 2 de 15",
        "Dupla 1 (Ana, Bia): 0 pts · nesta mão: 45 em jogos",
        "  1) 4♣ 4♥ 4♠",
        "  2) 8♣ 2♦(9) 10♣",
        "Dupla 2 (Robô 2, Robô 4): 0 pts · nesta mão: 0 em jogos",
        "  (sem jogos)",
        "Cartas na mão: Ana 6 · Robô 2 11 · Bia 11 · Robô 4 11",
        "Lixo vazio · Monte: 59",
        "Vez de Ana.",
        "Ana baixou 4♣ 4♥ 4♠ e 8♣ 2♦(9) 10♣."]  # the wild marked as on the table
    assert _buttons(laid) == [
        [("⏮ Início", f"{GID}|1|rp|0.0"), ("Mão ▶", f"{GID}|1|rp|1.0"),
         ("Fim ⏭", f"{GID}|1|rp|6.50")],
        [("◀ Jogada", f"{GID}|1|rp|0.1"), ("Jogada ▶", f"{GID}|1|rp|0.3")]]
    robot = _view(await svc.press(BIA, f"{GID}|1|rp|1.3", chat=CHAT))
    assert robot.lines[0] == "Replay · mão 2 de 7 · jogada 3 de 47"
    assert robot.lines[1:4] == ["Dupla 1 (Ana, Bia): 195 pts · nesta mão: 0 em jogos",
                                "  (sem jogos)",
                                "Dupla 2 (Robô 2, Robô 4): 15 pts · nesta mão: 30 em jogos"]
    assert robot.lines[-3:] == ["Lixo: A♣ · Monte: 59", "Vez de Bia.", "Robô 2 descartou A♣."]


async def test_a_deals_last_step_shows_its_result_with_the_leftovers(svc: Service,
                                                                   store: Any) -> None:
    await _keep(store)
    await svc.replay(CHAT, ANA)
    end = _view(await svc.press(BIA, f"{GID}|1|rp|0.15", chat=CHAT))
    assert end.lines[12:] == [
        "Cartas na mão: Ana 0 · Robô 2 6 · Bia 5 · Robô 4 5",
        "Lixo: K♣ · Monte: 57",
        "Ana descartou K♣ e bateu.",
        "",
        "Fim da mão 1.\n"
        "Dupla 1 (Ana, Bia): jogos 185, batida 50, cartas na mão -40 = 195\n"
        "  Na mão de Bia: 6♣ 7♥ 2♠ 8♠ K♠\n"
        "Dupla 2 (Robô 2, Robô 4): jogos 95, cartas na mão -80 = 15\n"
        "  Na mão de Robô 2: 7♣ 4♦ 2♥ 6♥ 5♠ 7♠\n"
        "  Na mão de Robô 4: K♣ 2♦ 5♥ 8♥ K♠\n"
        "Placar: 195 × 15"]
    assert end.lines[1] == "Dupla 1 (Ana, Bia): 195 pts · nesta mão: 185 em jogos"
    # the next move is the next deal's start ("Mão ▶" would repeat it: left out)
    assert _buttons(end) == [[("⏮ Início", f"{GID}|1|rp|0.0"), ("Fim ⏭", f"{GID}|1|rp|6.50")],
                             [("◀ Jogada", f"{GID}|1|rp|0.14"),
                              ("Jogada ▶", f"{GID}|1|rp|1.0")]]


async def test_no_two_buttons_of_a_step_lead_to_the_same_step(svc: Service,
                                                              store: Any) -> None:
    """Discord refuses one custom_id twice on a message: the first move's "◀ Jogada"
    is the deal's start, so "⏮ Início" is left out there."""
    await _keep(store)
    await svc.replay(CHAT, ANA)
    drew = _view(await svc.press(BIA, f"{GID}|1|rp|0.1", chat=CHAT))
    assert _buttons(drew) == [[("Mão ▶", f"{GID}|1|rp|1.0"), ("Fim ⏭", f"{GID}|1|rp|6.50")],
                              [("◀ Jogada", f"{GID}|1|rp|0.0"),
                               ("Jogada ▶", f"{GID}|1|rp|0.2")]]
    _digest, tape = replay.tape_of(GID, RECORD)
    for deal in range(len(tape.deals)):
        for move in (0, 1, tape.moves(deal) - 1, tape.moves(deal)):
            view = replay.step_view(GID, 1, CHAT, "pt", (GID, _digest), tape, deal, move)
            data = [b.data for row in view.buttons for b in row]
            assert len(data) == len(set(data)) and f"{GID}|1|rp|{deal}.{move}" not in data


async def test_the_last_step_names_the_winner_and_leads_nowhere_further(
        svc: Service, store: Any) -> None:
    await _keep(store)
    await svc.replay(CHAT, ANA)
    last = _view(await svc.press(BIA, f"{GID}|1|rp|6.50", chat=CHAT))
    assert last.lines[0] == "Replay · mão 7 de 7 · jogada 50 de 50"
    assert last.lines[-2].endswith("\n  Na mão de Robô 4: 6♥ 6♠\nPlacar: 870 × 1050")
    assert last.lines[-1] == "Fim da partida! Vencedor: Dupla 2 (Robô 2, Robô 4) com 1050 pontos."
    assert _buttons(last) == [[("⏮ Início", f"{GID}|1|rp|0.0"), ("◀ Mão", f"{GID}|1|rp|5.0")],
                              [("◀ Jogada", f"{GID}|1|rp|6.49")]]


async def test_no_hand_is_shown_during_a_deal(svc: Service, store: Any) -> None:
    """Every card a step names before its deal's end lies open on the table then (melds,
    laid 3s, pile): the hidden hands never reach the group's message."""
    await _keep(store)
    _digest, tape = replay.tape_of(GID, RECORD)
    key = (GID, _digest)
    await svc.replay(CHAT, ANA)
    for deal in range(len(tape.deals)):
        for move in range(tape.moves(deal)):  # the last step lays the leftovers open
            state, _events, _turn = replay.position(key, tape, deal, move)
            shown = {str(c) for side in state.melds for m in side for c in m.cards}
            shown |= {str(c) for c in state.pile}
            shown |= {str(c) for side in state.laid_threes for c in side}
            view = _view(await svc.press(BIA, f"{GID}|1|rp|{deal}.{move}", chat=CHAT))
            named = set(CARD.findall(view.text()))
            assert named <= shown, (deal, move, named - shown)
            assert "Na mão de" not in view.text()


@pytest.mark.parametrize("data", [
    f"{GID}|1|rp|7.0",      # no such deal
    f"{GID}|1|rp|0.16",     # past the deal's last move
    f"{GID}|1|rp|0.x",      # not a step
    f"{GID}|1|rp|-1.0",
    f"{GID}|1|rp|0.1.2",
    f"{GID}|1|rp|",
    f"{GID}|1|rp|٣.0",      # not ASCII digits
])
async def test_a_forged_or_out_of_range_step_is_refused_and_changes_nothing(
        svc: Service, store: Any, data: str) -> None:
    await _keep(store)
    await svc.replay(CHAT, ANA)
    assert _said(await svc.press(BIA, data, chat=CHAT)) == "Botão desconhecido."
    assert await store.get_setting(CHAT.key, replay.SETTING) == "1"
    assert await store.load_record(GID) == RECORD


async def test_a_replaced_replay_message_or_an_older_match_is_stale(svc: Service,
                                                                    store: Any) -> None:
    await _keep(store)
    first = _view(await svc.replay(CHAT, ANA))
    second = _view(await svc.replay(CHAT, BIA))
    assert _buttons(second)[1] == [("Jogada ▶", f"{GID}|2|rp|0.1")]
    stale = "Este replay foi substituído: use /replay de novo."
    assert _said(await svc.press(ANA, first.buttons[1][0].data, chat=CHAT)) == stale
    assert _said(await svc.press(ANA, f"{GID}|9|rp|0.1", chat=CHAT)) == stale
    assert _said(await svc.press(ANA, "other1|2|rp|0.1", chat=CHAT)) == stale
    # pressed in another chat, or where the platform names no chat
    assert _said(await svc.press(ANA, second.buttons[1][0].data, chat=CHAT2)) == stale
    assert _said(await svc.press(ANA, second.buttons[1][0].data)) == "Botão desconhecido."
    # a newer match finished: the replay of the earlier one is stale
    await store.set_setting(CHAT.key, "last_game", "newer1")
    assert _said(await svc.press(ANA, second.buttons[1][0].data, chat=CHAT)) == stale
    assert await store.get_setting(CHAT.key, replay.SETTING) == "2"


@pytest.mark.parametrize("record", [
    "{not json",
    "[]",
    json.dumps({"format": "buraco-record/2", "variant": "nope", "players": ["A", "B"],
                "deck": [], "actions": []}),
    RECORD.replace('"Kc"', '"Zz"', 1),                       # no card
    RECORD.replace('{"seat":0,"do":"draw"}', '{"seat":1,"do":"draw"}', 1),  # out of turn
    RECORD.replace('"first":1', '"first":0', 1),  # deal 2 at seat 0 again (RULES C15)
])
async def test_a_damaged_record_is_told_in_one_line(svc: Service, store: Any,
                                                    record: str) -> None:
    await _keep(store, record)
    assert _said(await svc.replay(CHAT, ANA)) == (
        "O registro da última partida não pode ser lido: não há replay dela.")
    assert await store.get_setting(CHAT.key, replay.SETTING) is None


async def test_a_record_of_the_wrong_redis_type_is_told_in_one_line(clock: FakeClock) -> None:
    client = fakeredis.FakeAsyncRedis(decode_responses=True)
    store = RedisStore(client, "test-replay-type")
    svc = make_service(store, clock)
    await store.set_setting(CHAT.key, "last_game", GID)
    await client.rpush(store.keys.record(GID), "x")  # a list where the record's string goes
    assert _said(await svc.replay(CHAT, ANA)) == (
        "O registro da última partida não pode ser lido: não há replay dela.")
    await client.aclose()


async def test_a_played_match_replays_to_the_table_and_result_the_group_saw(
        store: Any, clock: FakeClock) -> None:
    svc = make_service(store, clock)
    gid, effects = await play_match(svc, store, CHAT, [ANA, BIA])
    said = [e.text for e in effects if isinstance(e, Say) and e.text.startswith("Fim da mão")]
    (shown,) = await svc.replay(CHAT, BIA)
    assert isinstance(shown, ReplayView) and shown.game_id == gid
    _digest, tape = replay.tape_of(gid, await store.load_record(gid) or "")
    deal, move = tape.last()
    last = _view_of(await svc.press(ANA, f"{gid}|1|rp|{deal}.{move}", chat=CHAT))
    assert last.lines[-2] == said[-1]  # the deal's result, leftovers and all
    assert last.lines[-1] == "Fim da partida! Vencedor: Bia com -300 pontos."


def _view_of(effects: list[Any]) -> View:
    (shown,) = effects
    assert isinstance(shown, ReplayView)
    return shown.view


async def test_a_step_is_drawn_off_the_event_loop_and_the_deal_kept(store: Any,
                                                                    clock: FakeClock) -> None:
    svc = make_service(store, clock, threaded=True)
    await _keep(store)
    await svc.replay(CHAT, ANA)
    loop_thread = asyncio.get_running_loop()
    drawn_in: list[bool] = []
    real = replay.step_view

    def spy(*args: Any) -> View:
        try:
            asyncio.get_running_loop()
            drawn_in.append(False)
        except RuntimeError:
            drawn_in.append(True)  # no loop in this thread: a worker thread
        return real(*args)

    replay.step_view = spy  # type: ignore[assignment]
    try:
        _view(await svc.press(BIA, f"{GID}|1|rp|4.70", chat=CHAT))
    finally:
        replay.step_view = real  # type: ignore[assignment]
    assert drawn_in == [True] and loop_thread.is_running()
    digest = replay.tape_of(GID, RECORD)[0]
    kept = replay.frames((GID, digest), replay.tape_of(GID, RECORD)[1], 4)
    assert len(kept) == 78 // replay.EVERY + 1  # the deal's positions every EVERY moves
    assert replay.frames((GID, digest), replay.tape_of(GID, RECORD)[1], 4) is kept


async def test_replay_speaks_the_chats_language(svc: Service, store: Any) -> None:
    await _keep(store)
    await store.set_setting(CHAT.key, "lang", "en")
    view = _view(await svc.replay(CHAT, ANA))
    assert view.text().splitlines()[:4] == [
        "Buraco · to 1000 points", "Replay · deal 1 of 7 · start",
        "Team 1 (Ana, Bia): 0 pts · this deal: 0 in melds", "  (no melds)"]
    assert view.lines[3] == "Team 2 (AI 2, AI 4): 0 pts · this deal: 0 in melds"
    assert [b.label for row in view.buttons for b in row] == ["Deal ▶", "End ⏭", "Move ▶"]
    await store.set_setting(CHAT.key, "lang", "it")
    stale = await svc.press(BIA, f"{GID}|0|rp|0.1", chat=CHAT)
    assert _said(stale) == "Questo replay è stato sostituito: manda di nuovo /replay."


@pytest.mark.parametrize("dies_at", ["save_game", "set_setting"])
async def test_a_worker_killed_before_the_last_game_is_written_leaves_replay_working(
        backend: Any, clock: FakeClock, dies_at: str) -> None:
    """The chat's last finished match is written by the idempotent follow-up after the
    record (bot/upkeep.close_out): a worker killed right after the match's last save
    (no record, no last_game), or between the record and last_game, leaves the game
    bound to its chat, and the next worker's /replay closes it out and replays it."""
    from test_service_faults import Faulty, Killed
    from test_service_match import play_deal

    from bot.model import decode

    store = Faulty(backend.make())
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    gid = await store.chat_game(CHAT.key)
    if dies_at == "save_game":
        store.fail("save_game", Killed("after the save"), after=True,
                   when=lambda _g, _v, text, *a: decode(text).status == "over")
    else:
        store.fail("set_setting", Killed("before last_game"),
                   when=lambda _chat, name, *a: name == "last_game")
    with pytest.raises(Killed):
        await play_deal(svc, store)
    assert await store.get_setting(CHAT.key, "last_game") is None
    heir = make_service(backend.make(), clock)
    (shown,) = await heir.replay(CHAT, BIA)
    assert isinstance(shown, ReplayView) and shown.game_id == gid
    assert shown.view.lines[0] == "Replay · mão 1 de 1 · início"
    assert await store.get_setting(CHAT.key, "last_game") == gid
    assert await store.chat_game(CHAT.key) is None  # closed out by the /replay
