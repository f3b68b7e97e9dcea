"""A stored game that cannot be read (damaged encoding, JSON, or an engine match with a
field of the wrong JSON type) gets one clear sentence, changes nothing, and an admin can
close it; records with such fields are refused in one line (engine.record)."""

from __future__ import annotations

from typing import Any

import pytest
from test_service_support import ANA, BIA, CAIO, CHAT, CHAT2, button, game_of, kinds
from test_service_turns import hand_of

from bot.effects import Reply
from bot.model import encode
from bot.service import Service
from engine.errors import IllegalAction
from engine.match import Match
from engine.record import MalformedRecord, replay
from engine.rules import make_rules
from engine.state import DealState

CORRUPT = ("Não consegui ler o estado deste jogo (dados danificados): nada foi mudado. "
           "Um admin do grupo pode encerrar a mesa com /cancelar.")


async def started(svc: Service) -> Any:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    return hand_of(await svc.start(CHAT, ANA), ANA)


async def damage_match(store: Any, field: str, value: Any) -> tuple[str, str]:
    """Write the chat's game back with ``deal[field] = value``; its id and stored text."""
    version, game = await game_of(store)
    game.match["deal"][field] = value
    assert await store.save_game(game.id, version, encode(game), 86_400)
    got = await store.load_game(game.id)
    return game.id, got[1]


@pytest.mark.parametrize(("field", "value"), [("turn", "0"), ("turn", 0.0), ("first", True),
                                              ("pile_reused", "false"), ("hands", None)])
async def test_a_press_on_a_game_whose_match_is_damaged_is_told_so_and_changes_nothing(
        svc: Service, store: Any, field: str, value: Any) -> None:
    ana = await started(svc)
    gid, before = await damage_match(store, field, value)
    svc._cache.clear()  # another worker: it reads the damaged state
    assert await svc.press(ANA, button(ana, "Comprar do monte")) == [
        Reply(player=ANA, text=CORRUPT)]
    assert (await store.load_game(gid))[1] == before


async def test_commands_on_an_undecodable_game_are_told_so(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    await store.create_game(gid, "z1:not base64 zlib", 86_400)
    svc._cache.clear()
    assert await svc.join(CHAT, BIA) == [Reply(player=BIA, text=CORRUPT)]
    assert await svc.start(CHAT, ANA) == [Reply(player=ANA, text=CORRUPT)]
    assert await svc.new_game(CHAT, BIA, "") == [Reply(player=BIA, text=CORRUPT)]
    assert await svc.cancel(CHAT, ANA) == [Reply(player=ANA, text=CORRUPT)]  # not an admin
    assert await store.load_game(gid) == (1, "z1:not base64 zlib")
    assert kinds(await svc.scoreboard(CHAT, ANA)) == ["reply"]
    assert kinds(await svc.set_language(CHAT, ANA, "en")) == ["reply"]
    assert kinds(await svc.show_hand(CHAT, ANA)) == ["reply"]


async def test_an_admin_closes_an_unreadable_game_and_the_chat_can_play_again(
        svc: Service, store: Any) -> None:
    await started(svc)
    gid, _text = await damage_match(store, "turn", "1")
    svc._cache.clear()
    effects = await svc.cancel(CHAT, BIA, is_admin=True)
    assert kinds(effects) == ["say", "closed"]
    assert effects[0].text == "Jogo cancelado por Bia."
    assert await store.chat_game(CHAT.key) is None
    assert await store.load_game(gid) is not None  # kept for a person to look at
    assert kinds(await svc.new_game(CHAT, ANA, "")) == ["table"]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I could not read this game's state (damaged data): nothing was changed. "
           "A group admin can close the table with /cancelar."),
    ("it", "Non sono riuscito a leggere lo stato di questa partita (dati danneggiati): non è "
           "cambiato nulla. Un admin del gruppo può chiudere il tavolo con /cancelar.")])
async def test_the_unreadable_game_sentence_is_translated(svc: Service, store: Any, lang: str,
                                                          text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    await svc.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    await store.create_game(gid, "{}", 86_400)
    svc._cache.clear()
    assert await svc.new_game(CHAT, BIA, "") == [Reply(player=BIA, text=text)]
    assert await svc.join(CHAT, BIA) == [Reply(player=BIA, text=text)]


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("turn", "1", "posição inválida: 'turn' precisa ser um número inteiro"),
    ("turn", 1.0, "posição inválida: 'turn' precisa ser um número inteiro"),
    ("first", True, "posição inválida: 'first' precisa ser um número inteiro"),
    ("turn_count", None, "posição inválida: falta o campo 'turn_count'"),
    ("pile_blocked", "false", "posição inválida: 'pile_blocked' precisa ser true ou false"),
    ("has_laid", [0, 1], "posição inválida: 'has_laid' precisa ter 2 valores true ou false"),
    ("reshuffle", [1, "a"],
     "posição inválida: 'reshuffle' precisa ser uma lista de números inteiros"),
    ("drawn", 7, "posição inválida: 'drawn' precisa ser uma carta"),
    ("hands", "Ah Kh", "posição inválida: 'hands' precisa ser uma lista com a mão de cada "
                       "assento"),
])
def test_a_position_field_of_the_wrong_json_type_is_refused_naming_it(
        field: str, value: Any, reason: str) -> None:
    rules = make_rules("buraco")
    data = Match.new(rules, ["Ana", "Bia"]).to_json()
    match = Match.from_json(data)
    match.start_deal(None)
    position = match.deal_state.to_json()
    position[field] = value
    with pytest.raises(IllegalAction) as err:
        DealState.from_json(rules, position)
    assert (err.value.code, err.value.message) == ("bad_position", reason)
    record = {"format": "buraco-record/2", "variant": "buraco", "players": ["Ana", "Bia"],
              "position": position}
    with pytest.raises(MalformedRecord) as bad:
        replay(record)
    assert str(bad.value) == reason


@pytest.mark.parametrize("reshuffle", [[1, "a"], [True, 0], "x"])
def test_a_record_with_a_reshuffle_of_the_wrong_json_type_is_refused_in_one_line(
        reshuffle: Any) -> None:
    from engine.cards import shuffled_deck

    record = {"format": "buraco-record/2", "variant": "altaneira",
              "players": ["A", "B", "C", "D"], "deck": [c.code for c in shuffled_deck(False)],
              "reshuffle": reshuffle}
    with pytest.raises(MalformedRecord) as bad:
        replay(record)
    assert str(bad.value) == "'reshuffle' precisa ser uma permutação de 0..n-1"


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("dealer", "0", "posição inválida: 'dealer' precisa ser um número inteiro"),
    ("over", "false", "posição inválida: 'over' precisa ser true ou false"),
    ("scores", ["0", 0], "posição inválida: 'scores' precisa ser uma lista de números inteiros"),
    ("winner", 0.5, "posição inválida: 'winner' precisa ser um número inteiro"),
])
def test_a_stored_match_with_a_field_of_the_wrong_json_type_is_refused_naming_it(
        field: str, value: Any, reason: str) -> None:
    data = Match.new(make_rules("buraco"), ["Ana", "Bia"]).to_json()
    data[field] = value
    with pytest.raises(IllegalAction) as err:
        Match.from_json(data)
    assert (err.value.code, err.value.message) == ("bad_position", reason)


async def test_a_state_copied_into_another_game_s_key_is_damaged_not_that_other_game(
        svc: Service, store: Any) -> None:
    """A trial copied the state of one group's game into another game's key: the first
    group's /placar showed the other group's match and a hand press refreshed a hand of
    the other game. The id inside a state must be its key's (bot.model.decode)."""
    await started(svc)
    await svc.new_game(CHAT2, CAIO, "tranca")
    mine, theirs = await store.chat_game(CHAT.key), await store.chat_game(CHAT2.key)
    version, before = await store.load_game(mine)
    other = (await store.load_game(theirs))[1]
    assert await store.save_game(mine, version, other, 86_400)
    svc._cache.clear()  # another worker: it reads the copied state
    assert await svc.show_hand(CHAT, ANA) == [Reply(player=ANA, text=CORRUPT)]
    assert await svc.join(CHAT, BIA) == [Reply(player=BIA, text=CORRUPT)]
    board = await svc.scoreboard(CHAT, ANA)
    assert board == [Reply(player=ANA, text=f"{CORRUPT}\n\nRanking do grupo:\n"
                                            "(nenhuma partida terminada ainda)")]
    assert await store.load_game(mine) == (version + 1, other)  # nothing more written
    assert (await store.load_game(theirs))[1] == other
    assert before != other


async def test_the_scoreboard_of_an_undecodable_game_says_it_is_damaged(
        svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    await store.create_game(gid, "z3:AAAAgarbage", 86_400)
    svc._cache.clear()
    assert await svc.scoreboard(CHAT, ANA) == [Reply(
        player=ANA, text=f"{CORRUPT}\n\nRanking do grupo:\n(nenhuma partida terminada ainda)")]


async def test_an_unreadable_game_s_timer_is_retried_hourly_not_every_minute(
        svc: Service, store: Any, clock: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A trial: the timer of a damaged game logged "timer step failed" once a minute for
    the two days its key lives (bot.ticking.CORRUPT_RETRY_S)."""
    await svc.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    await store.create_game(gid, "z3:AAAAgarbage", 86_400)
    await svc.tick()  # the first tick's sweep
    await store.set_deadline(gid, clock.now())
    svc._cache.clear()
    clock.advance(1)
    assert await svc.tick() == []
    assert f"game {gid}: timer step failed (CorruptGame)" in caplog.messages
    assert await store.claim_due(clock.now() + 3_599) == []
    assert await store.claim_due(clock.now() + 3_600) == [gid]
