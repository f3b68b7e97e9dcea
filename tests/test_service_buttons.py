"""Forged and foreign button payloads (fresh-user trial, items 1 and 2): a payload no
button of the service carries (a prefixed Discord custom_id, an unknown code, an argument
where none belongs, a number no table or hand ever showed) gets "Botão desconhecido.",
in the chat's language when it is known, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from test_service_support import ANA, BIA, CHAT, game_of, only
from test_service_turns import two_player_buraco

from bot.effects import Reply
from bot.service import Service

UNKNOWN = "Botão desconhecido."


async def stored(store: Any) -> tuple[int, str]:
    """The chat's game as stored: version and text."""
    gid = await store.chat_game(CHAT.key)
    got = await store.load_game(gid)
    assert got is not None
    return got


async def test_a_discord_prefixed_payload_is_an_unknown_button_not_a_vanished_game(
        svc: Service, store: Any) -> None:
    gid, _ana, _bia = await two_player_buraco(svc)
    before = await stored(store)
    for data in (f"bb:{gid}|0|j|", f"bb:{gid}|0|h|", f"bbp:{gid}|3|1", f"{gid.upper()}|0|h|"):
        assert await svc.press(ANA, data) == [Reply(player=ANA, text=UNKNOWN)], data
    assert await stored(store) == before


async def test_an_unknown_code_in_the_lobby_is_an_unknown_button(
        svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table")
    await svc.join(CHAT, BIA)
    before = await stored(store)
    for who in (ANA, BIA):
        for data in (f"{table.game_id}|1|zz|", f"{table.game_id}|0|zz|3"):
            assert await svc.press(who, data) == [Reply(player=who, text=UNKNOWN)]
    assert await stored(store) == before


@pytest.mark.parametrize("count", ["0", "3", "99"])
async def test_a_robot_count_no_lobby_showed_is_an_unknown_button(
        svc: Service, store: Any, count: str) -> None:
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    before = await stored(store)
    assert await svc.press(ANA, f"{gid}|0|ai|{count}") == [Reply(player=ANA, text=UNKNOWN)]
    assert await stored(store) == before


async def test_a_shuffle_switch_to_another_number_is_an_unknown_button(
        svc: Service, store: Any) -> None:
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    before = await stored(store)
    assert await svc.press(ANA, f"{gid}|0|sh|2") == [Reply(player=ANA, text=UNKNOWN)]
    assert await stored(store) == before


async def test_a_hand_button_in_the_lobby_says_the_match_has_not_started(
        svc: Service, store: Any) -> None:
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    before = await stored(store)
    for data in (f"{gid}|0|c|", f"{gid}|0|n|1"):
        assert await svc.press(ANA, data) == [
            Reply(player=ANA, text="A partida ainda não começou.")]
    assert await stored(store) == before


@pytest.mark.parametrize(("code", "arg"), [
    ("t", "11"), ("u", "99"), ("t", ""), ("e", "0"), ("p", "0"), ("p", "x"), ("c", "1"),
    ("d", "0"), ("h", "x"), ("j", "1"), ("x", "1"), ("n", "0"), ("n", "2"), ("zz", ""),
    ("C", ""), ("t", "-1")])
async def test_out_of_range_or_misplaced_arguments_of_a_current_hand_are_unknown_buttons(
        svc: Service, store: Any, code: str, arg: str) -> None:
    """Ana holds 11 cards and her side has no meld: no card 11, no meld 0, no deal 0,
    and deal 2 was never offered during deal 1."""
    gid, ana, _bia = await two_player_buraco(svc)
    before = await stored(store)
    data = f"{gid}|{ana.version}|{code}|{arg}"
    assert await svc.press(ANA, data) == [Reply(player=ANA, text=UNKNOWN)]
    assert await stored(store) == before


@pytest.mark.parametrize(("lang", "text"), [("en", "Unknown button."),
                                            ("it", "Pulsante sconosciuto.")])
async def test_an_unknown_button_is_answered_in_the_chats_language(
        svc: Service, store: Any, lang: str, text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    before = await stored(store)
    assert await svc.press(ANA, "garbage", chat=CHAT) == [Reply(player=ANA, text=text)]
    assert await svc.press(ANA, f"bb:{gid}|0|j|", chat=CHAT) == [Reply(player=ANA, text=text)]
    # without the chat, a payload naming the game is answered in the game's language
    assert await svc.press(ANA, f"{gid}|1|zz|") == [Reply(player=ANA, text=text)]
    assert await svc.press(ANA, f"{gid}|0|ai|99") == [Reply(player=ANA, text=text)]
    assert await stored(store) == before


async def test_an_unknown_button_redelivered_is_answered_once(svc: Service) -> None:
    assert await svc.press(ANA, "garbage", update="tg:1:u:5") == [
        Reply(player=ANA, text=UNKNOWN)]
    assert await svc.press(ANA, "garbage", update="tg:1:u:5") == []


async def test_an_older_lobby_s_robot_button_with_its_count_adds_a_robot_each_press(
        svc: Service, store: Any) -> None:
    """A lobby posted before issue 30 carries "make it k robots" (``ai|k``): it is now
    one more robot in the next free seat, as today's "Robô" is."""
    gid = only(await svc.new_game(CHAT, ANA, "buraco"), "table").game_id
    await svc.press(ANA, f"{gid}|0|ai|1", update="tg:1:q:1")
    await svc.press(ANA, f"{gid}|0|ai|1", update="tg:1:q:2")
    _v, game = await game_of(store)
    assert [s.ai for s in game.seats] == [None, "normal", "normal"]
