# ruff: noqa: F811  (pytest fixtures imported from test_telegram_app)
"""``/cancelar`` and the "Cancelar" button on Telegram (fresh-user trial, item 4): the
table's creator needs no admin check, so no ``getChatMember`` call slows the cancel down
(it took 3.5 s while the Bot API answered 500); when the check is needed and Telegram
cannot answer, the person is told so at once and nothing changes."""

from __future__ import annotations

import time

import test_telegram_app
from test_telegram_app import ANA, BIA, GROUP, Tg, button, labels, open_table, tg  # noqa: F401

UNSURE = ("Não consegui confirmar com o Telegram se você é admin do grupo: nada foi mudado. "
          "Tente /cancelar de novo daqui a pouco.")


async def test_the_creators_cancel_asks_telegram_nothing_even_while_it_fails(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("getChatMember", "Internal Server Error", code=500, times=10)
    started = time.monotonic()
    await tg.command(ANA, "/cancelar")
    assert time.monotonic() - started < 1.0
    assert tg.fake.called("getChatMember") == []
    assert labels(tg.table()) == []
    assert tg.fake.current(GROUP["id"])[-1]["text"] == "Jogo cancelado por Ana."


async def test_the_creators_cancel_button_asks_telegram_nothing(tg: Tg) -> None:
    await open_table(tg)
    tg.fake.fail("getChatMember", "Internal Server Error", code=500, times=10)
    await tg.press(ANA, tg.table(), "Cancelar")
    assert tg.fake.called("getChatMember") == []
    assert labels(tg.table()) == []


async def test_an_admin_check_telegram_cannot_answer_is_told_at_once_and_changes_nothing(
        tg: Tg) -> None:
    await open_table(tg)
    before = tg.table()
    tg.fake.fail("getChatMember", "Internal Server Error", code=500, times=10)
    started = time.monotonic()
    await tg.command(BIA, "/cancelar")
    assert time.monotonic() - started < 1.5
    assert len(tg.fake.called("getChatMember")) == 2  # one retry, half a second apart
    assert tg.fake.current(GROUP["id"])[-1]["text"] == UNSURE
    assert tg.table() == before
    query = await tg.press(BIA, tg.table(), "Cancelar")
    assert tg.answer(query)["text"] == UNSURE
    assert labels(tg.table()) == labels(before)


async def test_a_stranger_still_needs_to_be_an_admin_to_cancel(tg: Tg) -> None:
    await open_table(tg)
    await tg.command(BIA, "/cancelar")
    assert len(tg.fake.called("getChatMember")) == 1
    assert tg.fake.current(GROUP["id"])[-1]["text"] == (
        "Só quem abriu a mesa ou um admin do grupo pode cancelar.")
    assert "Cancelar" in labels(tg.table())
    assert button(tg.table(), "Cancelar")


async def test_after_a_cancel_in_play_the_hand_link_and_button_say_the_game_is_over(
        tg: Tg) -> None:
    """A fresh-user trial: after /cancelar mid-match, "/start h<id>" (the hand's deep link)
    answered the welcome and "Minha mão" on the old table still opened the private chat;
    both now say the match is over, and no hand with dead buttons is sent."""
    game_id = await test_telegram_app.start_two_humans(tg)
    table = tg.table()
    await tg.command(ANA, "/cancelar")
    sent = len(tg.fake.called("sendMessage"))
    await tg.command(BIA, f"/start h{game_id}",
                     chat={"id": BIA["id"], "type": "private", "first_name": "Bia"})
    assert [m["text"] for m in tg.fake.called("sendMessage")[sent:]] == [
        "Esta partida terminou."]
    await tg.press(BIA, table, "Minha mão")
    answer = tg.fake.called("answerCallbackQuery")[-1]
    assert answer["text"] == "Esta partida terminou." and "url" not in answer


async def test_tirar_robo_on_telegram_by_the_creator_once_and_by_an_admin_only(tg: Tg) -> None:
    """Issue 30: "Tirar Robô N" under the lobby takes the last robot off; the creator's
    press asks Telegram nothing; a second tap of the same button changes nothing; a member
    who did not open the table is refused in one line until Telegram says they are admin."""
    await open_table(tg)
    await tg.press(ANA, tg.table(), "Robô")
    await tg.press(ANA, tg.table(), "Robô")
    lobby = tg.table()
    assert "Tirar Robô 3" in labels(lobby) and "Tirar Robô 2" not in labels(lobby)
    query = await tg.press(BIA, lobby, "Tirar Robô 3")
    assert tg.answer(query)["text"] == (
        "Só quem abriu a mesa ou um admin do grupo pode tirar robôs.")
    assert len(tg.fake.called("getChatMember")) == 1
    assert tg.table()["text"] == lobby["text"]
    await tg.press(ANA, lobby, "Tirar Robô 3")
    assert len(tg.fake.called("getChatMember")) == 1  # the creator: no admin check
    text = tg.table()["text"]
    assert "Lugar 2: Robô 2 (normal)" in text and "Robô 3" not in text
    assert "Tirar Robô 2" in labels(tg.table())
    again = await tg.press(ANA, lobby, "Tirar Robô 3")  # the same button, tapped twice
    assert tg.answer(again)["text"] == "Esse robô já saiu da mesa."
    assert tg.table()["text"] == text
    tg.fake.admins.add(BIA["id"])
    await tg.press(BIA, tg.table(), "Tirar Robô 2")
    assert [line for line in tg.table()["text"].splitlines() if line.startswith("Lugar")] == [
        "Lugar 1: Ana · lado 1"]
    assert not [label for label in labels(tg.table()) if label.startswith("Tirar")]
