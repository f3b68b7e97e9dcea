"""The stored form of a game (bot/model.py encode/decode, issue 13): round trips, and
states written by earlier code (pydantic's JSON, packed or plain) still read."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from test_service_support import ANA, FakeClock, make_service
from test_service_turns import hand_of, two_player_buraco

from bot import play
from bot.memstore import MemoryStore
from bot.model import PACKED, CorruptGame, Game, decode, encode, to_json


async def mid_game() -> Game:
    """A two-player buraco game with a drawn card and a selection: every kind of field."""
    clock = FakeClock()
    store = MemoryStore(clock)
    svc = make_service(store, clock)
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, f"{gid}|{ana.version}|c|"), ANA)
    await svc.press(ANA, f"{gid}|{ana.version}|t|2")
    got = await store.load_game(gid)
    assert got is not None
    return decode(got[1])


async def test_a_game_round_trips_packed_and_plain() -> None:
    game = await mid_game()
    assert game.seats[0].sel == [2] and game.last
    for compress in (True, False):
        text = encode(game, compress)
        assert text.startswith(PACKED) == compress
        again = decode(text)
        assert again == game
        assert play.deal_of(again).to_json() == play.deal_of(game).to_json()


async def test_the_json_is_the_same_data_as_pydantics() -> None:
    game = await mid_game()
    assert json.loads(to_json(game)) == json.loads(game.model_dump_json())


async def test_states_stored_by_the_earlier_encoder_still_read() -> None:
    """Before issue 13 the JSON was pydantic's ``model_dump_json`` (``match`` in field
    order), stored as is or as ``"z1:" + base64(zlib(JSON))``: a live game stored by
    the previous release must go on after a deploy."""
    game = await mid_game()
    old_json = game.model_dump_json()
    old_packed = PACKED + base64.b64encode(zlib.compress(old_json.encode(), 6)).decode()
    assert decode(old_json) == game
    assert decode(old_packed) == game


def test_a_damaged_state_raises_corrupt_game_naming_the_damage_only() -> None:
    with pytest.raises(CorruptGame, match=r"^JSONDecodeError$"):
        decode("{not json")
    with pytest.raises(CorruptGame, match=r"^ValidationError$"):
        decode('{"id": "x"}')  # JSON, but not a game
    with pytest.raises(CorruptGame, match=r"^error$"):
        decode(PACKED + base64.b64encode(b"not zlib").decode())
