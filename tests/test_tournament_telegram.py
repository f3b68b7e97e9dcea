# ruff: noqa: F811  (pytest fixtures imported from test_season_telegram)
"""``/torneio`` through the Telegram adapter (issue 29): real Bot API update JSON through
python-telegram-bot's Application into the service with its season store on fakeredis
(and the Redis at REDIS_URL when set), every Bot API request into FakeBotAPI: the
sign-up and call buttons, a refusal as the press's toast, the bracket picture sent as a
photo with the board text as its caption."""

from __future__ import annotations

from typing import Any

from season_support import play_to_end
from test_season_telegram import CHAT, tg  # noqa: F401
from test_telegram_app import ANA, BIA, CAIO, GROUP, Tg
from tournament_support import record

from bot.effects import Picture, PlayerRef, Say
from bot.i18n import Translator
from bot.season.tournament import texts

ANA_REF = PlayerRef(platform="tg", user_id=str(ANA["id"]), name=str(ANA["first_name"]))


def message_with(tg: Tg, words: str) -> dict[str, Any]:
    """The group's current message whose text holds ``words``."""
    return next(m for m in tg.fake.current(GROUP["id"]) if words in m["text"])


async def test_a_knockout_final_by_buttons_ends_with_the_champion_and_the_bracket_photo(
        tg: Tg) -> None:
    await tg.command(ANA, "/torneio mata individual tranca")
    signup = message_with(tg, "Torneio de Tranca — mata-mata, individual")
    assert "Inscritos (1): Ana" in signup["text"]
    await tg.press(BIA, signup, "Inscrever-se")
    assert "Inscritos (2): Ana, Bia" in message_with(tg, "Inscritos")["text"]
    query = await tg.press(BIA, message_with(tg, "Inscritos"), "Começar")
    assert tg.answer(query)["text"] == "Só quem abriu o torneio pode começar."
    await tg.press(ANA, message_with(tg, "Inscritos"), "Começar")
    call = message_with(tg, "Final — Ana x Bia")
    await tg.press(ANA, call, "Estou aqui")
    assert "Presentes: Ana" in message_with(tg, "Final — Ana x Bia")["text"]
    query = await tg.press(ANA, message_with(tg, "Final — Ana x Bia"), "Estou aqui")
    assert tg.answer(query)["text"] == "Sua presença já está confirmada."
    query = await tg.press(BIA, message_with(tg, "Final — Ana x Bia"), "Estou aqui")
    assert "text" not in tg.answer(query)
    assert "Todos presentes" in message_with(tg, "Final — Ana x Bia")["text"]
    table = message_with(tg, "Vez de Ana.")  # the match's table, in the group, started
    assert table["text"].startswith("<b>Tranca · ")
    gid = (await record(tg.service, CHAT)).matches[0].game
    assert gid is not None
    out = await play_to_end(tg.service, tg.service.store, gid, ANA_REF)  # type: ignore[arg-type]
    await tg.handlers.outbox.deliver([e for e in out if isinstance(e, Say | Picture)])
    t = await record(tg.service, CHAT)
    champion = texts.side_name(t, t.champion)
    assert f"🏆 Campeão do torneio: {champion}!" in tg.fake.texts_to(GROUP["id"])
    (photo,) = [p for p in tg.fake.called("sendPhoto") if "Torneio" in p["caption"]]
    board = texts.board_text(t, Translator("pt"))
    assert photo["caption"] == "🏆 Terminou: Final.\n" + board
    assert photo["caption"].splitlines()[-1] == f"Campeão: {champion}"
    sent = len(tg.fake.called("sendMessage"))
    await tg.command(BIA, "/torneio tabela")  # the board once: the photo and its caption
    photos = [p for p in tg.fake.called("sendPhoto") if "Torneio" in p["caption"]]
    assert len(photos) == 2 and photos[1]["caption"] == board
    assert tg.fake.called("sendMessage")[sent:] == []


async def test_a_second_tournament_and_a_stranger_cancelling_are_refused(tg: Tg) -> None:
    await tg.command(ANA, "/torneio")
    await tg.command(BIA, "/torneio mata")
    sent = [c["text"] for c in tg.fake.called("sendMessage") if c["chat_id"] == GROUP["id"]]
    assert sent[-1] == "Já há um torneio neste grupo: veja /torneio tabela."
    query = await tg.press(BIA, message_with(tg, "Inscritos"), "Cancelar")
    assert tg.answer(query)["text"] == (
        "Só quem abriu o torneio ou um admin do grupo pode cancelar.")
    assert (await record(tg.service, CHAT)).status == "signup"
    tg.fake.admins.add(int(BIA["id"]))
    await tg.press(BIA, message_with(tg, "Inscritos"), "Cancelar")
    assert (await record(tg.service, CHAT)).status == "cancelled"
    assert "🏆 Torneio cancelado por Bia." in tg.fake.texts_to(GROUP["id"])


async def test_a_cancel_telegram_cannot_check_names_the_tournaments_command(tg: Tg) -> None:
    """The "Cancelar" button's toast and ``/torneio cancelar`` when getChatMember fails:
    nothing changes, and the call to send again is ``/torneio cancelar`` (``/cancelar``
    closes the table, not the tournament)."""
    unsure = ("Não consegui confirmar com o Telegram se você é admin do grupo: nada foi "
              "mudado. Tente /torneio cancelar de novo daqui a pouco.")
    await tg.command(ANA, "/torneio")
    tg.fake.fail("getChatMember", "Internal Server Error", code=500, times=10)
    query = await tg.press(BIA, message_with(tg, "Inscritos"), "Cancelar")
    assert tg.answer(query)["text"] == unsure
    await tg.command(BIA, "/torneio cancelar")
    sent = [c["text"] for c in tg.fake.called("sendMessage") if c["chat_id"] == GROUP["id"]]
    assert sent[-1] == unsure
    assert (await record(tg.service, CHAT)).status == "signup"


async def test_finished_tournament_messages_lose_their_buttons(tg: Tg) -> None:
    """A fresh tester: after "Começar" the sign-up message said "Inscrições encerradas."
    but kept its buttons, and a call kept "Estou aqui" once everyone was there; a
    message whose buttons can do nothing is edited with none."""
    from test_telegram_app import labels

    await tg.command(ANA, "/torneio mata individual tranca")
    await tg.press(BIA, message_with(tg, "Inscritos"), "Inscrever-se")
    assert labels(message_with(tg, "Inscritos")) == [
        "Inscrever-se", "Sair", "Começar", "Cancelar"]
    await tg.press(ANA, message_with(tg, "Inscritos"), "Começar")
    signup = message_with(tg, "Inscritos")
    assert "Inscrições encerradas." in signup["text"] and labels(signup) == []
    assert labels(message_with(tg, "Final — Ana x Bia")) == ["Estou aqui"]
    await tg.press(ANA, message_with(tg, "Final — Ana x Bia"), "Estou aqui")
    await tg.press(BIA, message_with(tg, "Final — Ana x Bia"), "Estou aqui")
    call = message_with(tg, "Final — Ana x Bia")
    assert "Todos presentes" in call["text"] and labels(call) == []


async def test_a_cancelled_tournaments_sign_up_loses_its_buttons(tg: Tg) -> None:
    await tg.command(ANA, "/torneio")
    await tg.press(ANA, message_with(tg, "Inscritos"), "Cancelar")
    signup = message_with(tg, "Inscritos")
    assert "Torneio cancelado." in signup["text"]
    assert not (signup.get("reply_markup") or {}).get("inline_keyboard")


def group_posts(tg: Tg) -> list[tuple[int, str]]:
    """The group's messages in the order they reached it (message ids: a request held
    by the fake gets its id when it is let through): ``(id, first line)``, a photo's
    as ``photo: <its caption's first line>``."""
    out = []
    for m in tg.fake.current(GROUP["id"]):
        line = str(m.get("text") or "photo: " + str(m.get("caption", ""))).splitlines()[0]
        out.append((int(m["message_id"]), line))
    return out


async def test_a_walkover_that_ends_a_round_posts_its_standings_once_before_the_next_call(
        tg: Tg) -> None:
    """Issue 38: after each round the standings came twice (a text, then a photo with
    the same caption), and after a W.O. the next round's call came before the round's
    standings. One photo with the standings as its caption, then the next call."""
    await tg.command(ANA, "/torneio todos individual tranca wo=2")
    for person in (BIA, CAIO):
        await tg.press(person, message_with(tg, "Inscritos"), "Inscrever-se")
    await tg.press(ANA, message_with(tg, "Inscritos"), "Começar")
    t = await record(tg.service, CHAT)
    first = t.matches[0]
    before = max(i for i, _line in group_posts(tg))
    tg.clock.advance(121)  # type: ignore[attr-defined]  # nobody showed: W.O. of both
    await tg.tick()
    t = await record(tg.service, CHAT)
    board = texts.board_text(t, Translator("pt"))
    nxt = t.matches[t.current or 0]
    assert [line for i, line in group_posts(tg) if i > before] == [
        texts.wo_text(t, t.matches[0], Translator("pt")),
        "photo: 🏆 Terminou: Rodada 1.",
        f"<b>🏆 Rodada 2 — {texts.side_name(t, nxt.a)} x {texts.side_name(t, nxt.b)}</b>"]
    (photo,) = tg.fake.called("sendPhoto")
    assert photo["caption"] == "🏆 Terminou: Rodada 1.\n" + board
    assert first.round == 1 and sum(board in s for s in tg.fake.texts_to(GROUP["id"])) == 0
