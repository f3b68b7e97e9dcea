"""Match flow: deal result with the RULES C14 breakdown, next deal (button or 30 s),
match end with the winner, record, /placar, /exportar (issue 4 "Match flow",
"Scoreboard", "Records")."""

from __future__ import annotations

import json
from typing import Any

from test_service_support import (
    ANA,
    BIA,
    CHAT,
    FakeClock,
    SeededDecks,
    button,
    game_of,
    kinds,
    make_service,
    only,
    seeded_ai,
)

from bot import play, robot
from bot.effects import Document, Effect, Reply, pack
from bot.service import Service
from engine.record import replay
from engine.view import hands_at_end


async def human_turn(svc: Service, store: Any, gid: str, seat: int) -> list[Effect]:
    """Play one whole turn for the person at ``seat`` with buttons only: the safe move
    (draw, then the safe discard or a red 3 to lay), the way a careful person would."""
    out: list[Effect] = []
    while True:
        _v, game = await game_of(store, gid=gid)
        if game.status != "playing" or play.deal_of(game).turn != seat:
            return out
        player = game.seats[seat].player
        state = play.deal_of(game)
        action = robot.fallback_move(state, seat)
        view = play.view_of(game, seat)
        ver = game.seats[seat].ver
        if action.do == "draw":
            out += await svc.press(player, pack(game.id, ver, "c"))
            continue
        i = view.hand.index(action.card)
        await svc.press(player, pack(game.id, ver, "t", i))
        out += await svc.press(player, pack(game.id, ver, "d" if action.do == "discard" else "3"))


async def play_deal(svc: Service, store: Any) -> list[Effect]:
    """Play until the current deal ends: people by buttons, AI seats by ticks."""
    out: list[Effect] = []
    gid = (await game_of(store))[1].id
    for _ in range(2000):
        _v, game = await game_of(store, gid=gid)
        if game.status != "playing":
            return out
        turn = play.deal_of(game).turn
        if game.seats[turn].player is not None:
            out += await human_turn(svc, store, gid, turn)
        else:
            out += await svc.tick()
    raise AssertionError("deal did not end")


async def test_one_deal_match_end_record_ranking_export(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    assert await svc.export(CHAT, ANA) == [Reply(
        player=ANA, text="O registro só sai depois do fim da partida.")]
    _v, game = await game_of(store)
    gid = game.id
    effects = await play_deal(svc, store)
    says = [e.text for e in effects if e.kind == "say"]
    # the stock ran out: both mortos became the stock, their sides pay -100 (RULES A26),
    # and each line that takes points says why (issue 30 T4)
    assert says[-2] == (
        "Fim da mão 1.\n"
        "O monte acabou: ninguém bateu.\n"  # issue 38: nobody went out
        "Ana: jogos 0, 3 vermelhos sem canastra -300, cartas na mão -80, morto virou monte -100 "
        "= -480\n"
        "  Na mão de Ana: 2♠ 6♠ 6♠ 7♠ 8♠ 9♠ 10♠ K♠\n"  # issue 30: the deal is over
        "Robô 2: jogos 0, 3 vermelhos sem canastra -100, cartas na mão -100, morto virou monte "
        "-100 = -300\n"
        "  Na mão de Robô 2: 2♣ 2♣ 2♦ 2♦ 2♥ 2♥ 2♠ Q♠ Q♠ K♠\n"
        "Placar: -480 × -300")
    left = hands_at_end(play.deal_of((await game_of(store, gid=gid))[1]))  # as left
    assert [" ".join(map(str, cards)) for cards in left] == [
        "2♠ 6♠ 6♠ 7♠ 8♠ 9♠ 10♠ K♠", "2♣ 2♣ 2♦ 2♦ 2♥ 2♥ 2♠ Q♠ Q♠ K♠"]
    assert says[-1] == "Fim da partida! Vencedor: Robô 2 com -300 pontos."
    final = [e for e in effects if e.kind == "table"][-1]
    assert final.view.buttons == []
    assert await store.chat_game(CHAT.key) is None
    # the record is the engine's, with the deck the deal started from
    record = json.loads(await store.load_record(gid))
    assert record["format"] == "buraco-record/2" and record["variant"] == "tranca"
    assert record["players"] == ["Ana", "Robô 2"]
    assert record["deck"][:3] == [c.code for c in SeededDecks()(play.rules_of(game))[:3]]
    replayed = replay(record)  # the record replays to the same score
    assert replayed.ok and replayed.match_scores == [-480, -300]
    exported = await svc.export(CHAT, ANA)
    assert exported == [Document(chat=CHAT, filename=f"tranca-{gid}.json",
                                 content=await store.load_record(gid), failed=(
                                     "Não consegui enviar o arquivo da partida agora: tente "
                                     "/exportar de novo daqui a pouco."))]
    board = only(await svc.scoreboard(CHAT, ANA), "reply").text
    assert board == (
        "Partida: Ana × Robô 2\n"
        "Mão 1: -480 × -300\n"
        "Total: -480 × -300\n"
        "Classificação da partida:\n"  # every side, robots too (the ranking has people)
        "1. Robô 2: -300 pontos\n"
        "2. Ana: -480 pontos\n"
        "Ranking do grupo:\n"
        "1. Ana: partidas 1, vitórias 0, pontos -480")
    # a new match in play: /exportar gives the finished one, never the one in play
    # (/ajuda: "the record of the last finished match"; a trial was refused it)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    assert (await game_of(store))[1].id != gid
    assert await svc.export(CHAT, ANA) == exported


async def test_next_deal_after_30_s_or_on_the_button(svc: Service, store: Any,
                                                      clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    effects = await play_deal(svc, store)
    says = [e.text for e in effects if e.kind == "say"]
    assert says[-1].startswith("Fim da mão 1.\nO monte acabou: ninguém bateu.\nAna: ")
    table = [e for e in effects if e.kind == "table"][-1].view
    assert [b.label for b in table.buttons[0]] == ["Próxima mão", "Minha mão"]
    _v, game = await game_of(store)
    assert game.status == "between" and len(game.deals) == 1
    # the deal's end: the last turn's ping is deleted (nobody's turn), and each hand
    # shows the cards it is left with (no action button)
    ended = effects[-5:]
    assert kinds(ended) == ["table", "say", "unping", "hand", "hand"]
    assert [h.player for h in ended[3:]] == [ANA, BIA]
    assert [len(h.view.cards) for h in ended[3:]] == [
        len(play.deal_of(game).hands[seat]) for seat in (0, 1)]
    assert all(b.data.split("|")[2] in ("t", "u") for h in ended[3:]
               for row in h.view.buttons[:-1] for b in row)
    # but the deal's own review, for each person (issue 37, bot/coach.py)
    assert [[b.label for b in h.view.buttons[-1]] for h in ended[3:]] == [
        ["📋 Revisão da mão 1"]] * 2
    clock.advance(29)
    assert await svc.tick() == []
    clock.advance(1)
    effects = await svc.tick()
    # both played the deal by their hands 30 s ago: open, so no ping (issue 30)
    assert kinds(effects) == ["table", "hand", "hand", "unping"]
    assert effects[0].view.lines[-1] == "Mão 2 distribuída."
    # the first deal's button deals nothing more: deal 2 is out (the timer came first)
    assert await svc.press(BIA, button(table, "Próxima mão")) == [
        Reply(player=BIA, text="A mão 2 já foi distribuída.")]
    # second deal: the button starts the third at once; a double tap deals nothing more
    effects = await play_deal(svc, store)
    table = [e for e in effects if e.kind == "table"][-1].view
    started = await svc.press(BIA, button(table, "Próxima mão"))
    assert started[0].view.lines[-1] == "Mão 3 distribuída."
    assert await svc.press(BIA, button(table, "Próxima mão")) == [
        Reply(player=BIA, text="A mão 3 já foi distribuída.")]
    board = only(await svc.scoreboard(CHAT, BIA), "reply").text.splitlines()
    _v, game = await game_of(store)
    assert board[1:3] == [f"Mão {n}: {d[0]} × {d[1]}" for n, d in enumerate(game.deals, 1)]
    assert board[3] == "Total: {} × {}".format(*play.match_scores(game))
    assert board[4:] == ["Ranking do grupo:", "(nenhuma partida terminada ainda)"]
    # finished deals left the stored game (it stays small); the record key holds them
    assert [bool(log.get("archived")) for log in game.match["logs"]] == [True, True, False]
    assert [len(d["deck"]) for d in json.loads(await store.load_record(game.id))["deals"]] \
        == [104, 104]
    # cancelled mid-match: the record of the three deals is kept and replays
    assert kinds(await svc.cancel(CHAT, ANA)) == ["say", "closed"]
    record = json.loads(await store.load_record(game.id))
    assert len(record["deals"]) == 3
    replayed = replay(record)
    assert replayed.ok and replayed.match_scores == play.match_scores(game)


async def test_hand_on_demand(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    assert await svc.show_hand(CHAT, ANA) == [Reply(
        player=ANA, text="A partida ainda não começou.")]
    effects = await svc.start(CHAT, ANA)
    table = effects[0].view
    hand = only(await svc.press(BIA, button(table, "Minha mão")), "hand")
    assert hand.player == BIA and len(hand.view.cards) == 11
    assert kinds(await svc.show_hand(CHAT, ANA)) == ["hand"]


async def test_no_card_in_any_button_payload_over_a_whole_deal(
        store: Any, clock: FakeClock) -> None:
    """DESIGN "One button press": payloads are short and never carry a card; table
    buttons carry no seat version; hand buttons name cards by index only."""
    import re

    svc = make_service(store, clock, chooser=seeded_ai)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.add_ai(CHAT, ANA, "facil")
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA) + await play_deal(svc, store)
    payload = re.compile(r"^[a-z0-9]{8}\|\d+\|(?P<code>[a-z0-9]+)\|(?P<arg>\d*|normal)$")
    seen_codes: set[str] = set()
    for eff in effects:
        if eff.kind not in ("table", "hand"):
            continue
        for row in eff.view.buttons:
            for b in row:
                m = payload.match(b.data)
                assert m is not None and len(b.data.encode()) <= 64, b.data
                seen_codes.add(m["code"])
                if eff.kind == "table":
                    assert m["code"] in ("h", "n") and b.data.split("|")[1] == "0"
    assert {"t", "c", "d", "m", "h", "n"} <= seen_codes
    says = [e.text for e in effects if e.kind == "say"]
    assert says and says[-1].startswith(
        "Fim da mão 1.\nO monte acabou: ninguém bateu.\nDupla 1 (Ana, Robô 3): ")
