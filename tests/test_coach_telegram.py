# ruff: noqa: F811  (the tg fixture imported from test_telegram_app)
"""The coach through the Telegram adapter (issue 37): real Bot API update JSON into the
service, every Bot API request into FakeBotAPI. The hand's "💡 Dica" answers in its
presser's alert; ``/dica`` and ``/revisao`` sent in the group answer in the person's
private chat, and the group sees no hint."""

from __future__ import annotations

from typing import Any

from test_telegram_app import ANA, BIA, GROUP, Tg, labels, start_two_humans, tg  # noqa: F401

HINT = "Dica: Compre do monte (é a única compra possível)."


async def test_the_dica_button_answers_in_an_alert_and_the_group_sees_nothing(tg: Tg) -> None:
    await start_two_humans(tg)
    hand = tg.hand(ANA)
    assert "💡 Dica" in labels(hand) and "💡 Dica" not in labels(tg.hand(BIA))
    before = list(tg.fake.texts_to(GROUP["id"]))
    query = await tg.press(ANA, hand, "💡 Dica")
    answer = tg.answer(query)
    assert answer["text"] == HINT and answer.get("show_alert") is True
    assert tg.fake.texts_to(GROUP["id"]) == before
    assert tg.hand(ANA)["text"] == hand["text"]  # nothing changed


async def test_dica_and_revisao_typed_in_the_group_answer_privately(tg: Tg) -> None:
    await start_two_humans(tg)
    before = list(tg.fake.texts_to(GROUP["id"]))
    await tg.command(ANA, "/dica")
    assert HINT in tg.fake.texts_to(ANA["id"])
    assert not any("Dica:" in t for t in tg.fake.texts_to(GROUP["id"]))
    assert tg.fake.texts_to(GROUP["id"])[len(before):] == ["Mandei no seu privado."]
    await tg.command(BIA, "/dica")
    assert tg.fake.texts_to(GROUP["id"])[-1] == "A dica é para a sua vez: espere a sua jogada."
    await tg.command(BIA, "/revisao")
    assert tg.fake.texts_to(GROUP["id"])[-1] == (
        "Ainda não há mão terminada nesta partida para revisar.")


async def test_a_press_in_the_private_chat_tells_the_service_it_is_private(tg: Tg) -> None:
    """The hand lives in the person's private chat: its presses say so (a review pressed
    there is not followed by "Mandei no seu privado.", tests/test_coach_words.py)."""
    await start_two_humans(tg)
    seen: list[bool] = []
    press = tg.service.press

    async def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw.get("private", False))
        return await press(*args, **kw)

    tg.service.press = spy  # type: ignore[method-assign]
    await tg.press(ANA, tg.hand(ANA), "💡 Dica")
    assert seen == [True]
