"""Issue 12 (b): ``/mao`` in a Telegram group used to re-edit an unchanged hand message,
which real Telegram answers with "message is not modified": the person got nothing. Now
the hand is sent anew (the old one deleted) and the group is told where it is."""

from __future__ import annotations

from test_telegram_app import ANA, GROUP, Tg, start_two_humans, tg

__all__ = ["tg"]


async def test_mao_in_the_group_sends_the_hand_anew_and_says_where_it_is(tg: Tg) -> None:
    await start_two_humans(tg)
    old = tg.hand(ANA)
    await tg.command(ANA, "/mao")
    new = tg.hand(ANA)  # exactly one hand message: the new one
    assert new["message_id"] != old["message_id"]
    assert new["text"] == old["text"]
    assert {"chat_id": ANA["id"], "message_id": old["message_id"]} in (
        tg.fake.called("deleteMessage"))
    said = [m["text"] for m in tg.fake.current(GROUP["id"]) if not m["text"].startswith("<b>")]
    assert said == ["Sua mão está no privado."]


async def test_mao_of_someone_the_bot_cannot_write_to_claims_no_private_hand(tg: Tg) -> None:
    from test_telegram_app import BIA

    tg.fake.fail("sendMessage", "Forbidden: bot was blocked by the user", code=403,
                 chat_id=BIA["id"], times=100)
    await start_two_humans(tg)
    await tg.command(BIA, "/mao")
    said = [m["text"] for m in tg.fake.current(GROUP["id"]) if not m["text"].startswith("<b>")]
    assert "Sua mão está no privado." not in said


async def test_a_reply_without_result_is_logged_not_raised() -> None:
    """The one gate for Bot API calls (adapters/telegram/calls.py) also absorbs a reply
    python-telegram-bot cannot read, so one odd answer never stops a delivery."""
    from adapters.telegram.calls import api

    async def unreadable() -> bool:
        raise KeyError("result")

    assert await api("deleteMessage", unreadable) is None
