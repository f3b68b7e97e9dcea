"""The stored form of a game (bot/model.py encode/decode, issue 13): round trips, and
states written by earlier code (pydantic's JSON, packed or plain) still read."""

from __future__ import annotations

import base64
import hashlib
import json
import zlib

import pytest
import zstandard
from test_service_support import ANA, FakeClock, make_service
from test_service_turns import hand_of, two_player_buraco

from bot import play
from bot.effects import ChatRef, PlayerRef
from bot.memstore import MemoryStore
from bot.model import (
    DEFAULT_CODEC,
    PACKED,
    PACKED_DICT,
    PACKED_ZSTD,
    STATE_DICT,
    CorruptGame,
    Game,
    decode,
    encode,
    to_json,
)

DICT_SHA256_16 = "73cbbf578c5934fb"


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
        assert text.startswith(PACKED_ZSTD) == compress  # True: the newest form
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


async def test_states_are_written_with_the_dictionary_and_every_form_reads() -> None:
    """``"z2:"`` (issue 13): zlib with the frozen preset dictionary, smaller than
    ``"z1:"``; ``"z1:"`` is still written on request (rolling deploys) and read."""
    game = await mid_game()
    packed, legacy = encode(game, "z2"), encode(game, "z1")
    assert packed.startswith(PACKED_DICT) and legacy.startswith(PACKED)
    assert decode(packed) == game and decode(legacy) == game
    assert len(packed) * 4 < len(legacy) * 3  # at least 25% fewer bytes
    raw = zlib.decompressobj(15, STATE_DICT).decompress(base64.b64decode(packed[3:]))
    assert raw == to_json(game)


def test_the_dictionary_is_the_frozen_one() -> None:
    """Every ``"z2:"`` state needs these very bytes: the file must never change."""
    assert len(STATE_DICT) == 11_773
    assert hashlib.sha256(STATE_DICT).hexdigest()[:16] == DICT_SHA256_16


def test_a_damaged_dictionary_state_is_corrupt() -> None:
    game_text = PACKED_DICT + base64.b64encode(b"not zlib").decode()
    with pytest.raises(CorruptGame, match=r"^error$"):
        decode(game_text)
    other = zlib.compressobj(1, zlib.DEFLATED, 15, 5, zlib.Z_DEFAULT_STRATEGY, b'{"id": "y"}')
    made = other.compress(b'{"id": "x"}') + other.flush()  # with another dictionary
    with pytest.raises(CorruptGame, match=r"^error$"):
        decode(PACKED_DICT + base64.b64encode(made).decode())


async def test_a_truncated_dictionary_state_is_corrupt() -> None:
    packed = base64.b64decode(encode(await mid_game(), "z2")[3:])
    for cut in (packed[:-7], packed + b"x"):
        with pytest.raises(CorruptGame, match=r"^error$"):
            decode(PACKED_DICT + base64.b64encode(cut).decode())


FROZEN_Z3 = ("z3:KLUv/WTiAG0CANBrM2Y5cXoyYTEwMDFBbmFsb2JieTJudWxsfQ4ABvQjQQGrMkj6Qe6C1SOE"
             "1G8CjvEAv1tFocMQAWhxPH3e6hq4ONttXpxzBI8HIztB0AmD3w==")
"""A lobby stored as ``"z3:"`` by the release that introduced it: later releases must
read it (a live game outlives a deploy)."""


async def test_z3_is_zstd_with_the_dictionary_smaller_than_z2_and_the_default() -> None:
    """``"z3:"`` (issue 13, third pass): Zstandard level 3 with the same frozen
    dictionary and a checksum, written on request (``"z3"`` or ``True``); it reads back
    to the very JSON and game, and takes fewer bytes than ``"z2:"``; the default written
    form since the release after 99e6f03, which reads it (docs/deploy.md "Rolling
    deploys")."""
    game = await mid_game()
    packed = encode(game, "z3")
    assert packed.startswith(PACKED_ZSTD) and encode(game, True) == packed
    assert encode(game) == packed and DEFAULT_CODEC == "z3"
    assert decode(packed) == game
    assert len(packed) < len(encode(game, "z2"))
    frame = base64.b64decode(packed[3:])
    unpack = zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(
        STATE_DICT, dict_type=zstandard.DICT_TYPE_RAWCONTENT))
    assert unpack.decompress(frame) == to_json(game)
    assert zstandard.frame_content_size(frame) == len(to_json(game))


@pytest.mark.parametrize("bad", ["zz", "Z2", "z4", "", None, 1])
async def test_a_codec_that_is_none_of_ours_is_refused_not_written_as_another(
        bad: object) -> None:
    game = await mid_game()
    with pytest.raises(ValueError, match=r"^compress must be one of True, False, 'z1', "
                                         r"'z2', 'z3', not "):
        encode(game, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="compress must be one of"):
        make_service(MemoryStore(FakeClock()), FakeClock(), compress=bad)


def test_a_zstd_state_written_by_the_first_release_of_z3_still_reads() -> None:
    game = decode(FROZEN_Z3)
    assert (game.id, game.status, game.preset, game.created, game.touched) == (
        "k3f9qz2a", "lobby", "buraco", 1.0, 2.0)
    assert game.chat == ChatRef(platform="tg", chat_id="-100", title="Mesa")
    assert game.seats[0].player == PlayerRef(platform="tg", user_id="1", name="Ana")


async def test_a_damaged_zstd_state_is_corrupt_and_names_the_damage_only() -> None:
    """Cut short, with bytes after the frame, a flipped byte (the checksum), no frame at
    all, a frame that declares no size or more than 1 MiB: ``CorruptGame("ZstdError")``."""
    frame = base64.b64decode(encode(await mid_game(), "z3")[3:])
    flipped = frame[:20] + bytes([frame[20] ^ 1]) + frame[21:]
    no_size = zstandard.ZstdCompressor(write_content_size=False).compress(b"{}")
    huge = zstandard.ZstdCompressor().compress(b" " * (1 << 20 | 1))
    for bad in (frame[:-7], frame + b"x", frame + frame, flipped, b"not zstd", no_size, huge):
        with pytest.raises(CorruptGame, match=r"^ZstdError$"):
            decode(PACKED_ZSTD + base64.b64encode(bad).decode())
