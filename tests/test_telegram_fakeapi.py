"""A fake Bot API server behind python-telegram-bot's request layer, and the tests of the
adapter's fault gate (``adapters.telegram.calls.api``) that run on it.

:class:`FakeBotAPI` is a ``telegram.request.BaseRequest``: every request the bot makes is
recorded (method name and parameters), sent messages get ids and are kept as they stand
(edits applied, deletions removed), and scripted failures answer exactly as Telegram does
(``error_code``, ``description``, ``parameters`` such as ``retry_after`` or
``migrate_to_chat_id``), so PTB raises its real exceptions. Other test modules import it.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from telegram import Bot
from telegram.error import ChatMigrated, Forbidden
from telegram.request import BaseRequest, RequestData

from adapters.telegram.calls import MessageGone, api

BOT_USER = {"id": 666, "is_bot": True, "first_name": "Buraco", "username": "BuracoTestBot",
            "can_join_groups": True, "can_read_all_group_messages": False,
            "supports_inline_queries": False}
TOKEN = "123:TEST"
FORBIDDEN_DM = "Forbidden: bot can't initiate conversation with a user"
NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same as a current content and reply markup of "
                "the message")
QUERY_TOO_OLD = ("Bad Request: query is too old and response timeout expired or query ID is "
                 "invalid")
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"


@dataclass
class Failure:
    """Answer the next ``times`` calls of ``method`` (to ``chat_id`` if given) with an error."""

    method: str
    code: int
    description: str
    chat_id: int | None = None
    times: int = 1
    parameters: dict[str, Any] = field(default_factory=dict)

    def matches(self, method: str, params: dict[str, Any]) -> bool:
        """True when this failure applies to the call (and has uses left)."""
        if self.times <= 0 or method != self.method:
            return False
        return self.chat_id is None or str(params.get("chat_id")) == str(self.chat_id)


class FakeBotAPI(BaseRequest):
    """In-memory Bot API (see module docstring). ``admins`` answer getChatMember as admins."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}
        self.failures: list[Failure] = []
        self.admins: set[int] = set()
        self.held: dict[str, asyncio.Event] = {}
        self._ids = itertools.count(100)

    @property
    def read_timeout(self) -> float | None:
        """Default read timeout (unused: nothing goes over the network)."""
        return 1.0

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""

    def fail(self, method: str, description: str, code: int = 400, chat_id: int | None = None,
             times: int = 1, **parameters: Any) -> None:
        """Script a failure (``parameters`` e.g. ``retry_after=1``)."""
        self.failures.append(Failure(method, code, description, chat_id, times, parameters))

    def hold(self, method: str) -> asyncio.Event:
        """Make calls of ``method`` wait until the returned event is set (slow network)."""
        self.held[method] = asyncio.Event()
        return self.held[method]

    def called(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every call of ``method``, in order."""
        return [params for name, params in self.calls if name == method]

    def texts_to(self, chat_id: int) -> list[str]:
        """Every text sent or edited into ``chat_id``, in order."""
        return [str(p.get("text", "")) for name, p in self.calls
                if name in ("sendMessage", "editMessageText")
                and str(p.get("chat_id")) == str(chat_id)]

    def current(self, chat_id: int) -> list[dict[str, Any]]:
        """The messages now in ``chat_id`` (edits applied, deleted ones gone), oldest first."""
        return [copy.deepcopy(m) for (c, _), m in sorted(self.messages.items()) if c == chat_id]

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = None, write_timeout: Any = None,
                         connect_timeout: Any = None, pool_timeout: Any = None
                         ) -> tuple[int, bytes]:
        """Record the call and answer it (or fail it as scripted)."""
        name = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        self.calls.append((name, params))
        if name in self.held:
            await self.held[name].wait()
        for failure in self.failures:
            if failure.matches(name, params):
                failure.times -= 1
                body: dict[str, Any] = {"ok": False, "error_code": failure.code,
                                        "description": failure.description}
                if failure.parameters:
                    body["parameters"] = failure.parameters
                return failure.code, json.dumps(body).encode()
        if name not in HANDLERS:
            return 500, json.dumps({"message": f"API method '{name}' is not supported."}).encode()
        return 200, json.dumps({"ok": True, "result": HANDLERS[name](self, params)}).encode()

    # ---- answers -----------------------------------------------------------------
    def _send(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        message_id = next(self._ids)
        chat = ({"id": chat_id, "type": "group", "title": "Mesa"} if chat_id < 0
                else {"id": chat_id, "type": "private", "first_name": "P"})
        message = {"message_id": message_id, "date": int(time.time()), "chat": chat,
                   "text": params.get("text", ""), "from": BOT_USER}
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        if "caption" in params:  # sendPhoto, sendDocument
            message["caption"] = params["caption"]
        self.messages[(chat_id, message_id)] = message
        return message

    def _edit(self, params: dict[str, Any]) -> bool:
        message = self.messages[(int(params["chat_id"]), int(params["message_id"]))]
        if "text" in params:
            message["text"] = params["text"]
        message["reply_markup"] = params.get("reply_markup")
        return True

    def _delete(self, params: dict[str, Any]) -> bool:
        self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None)
        return True

    def _member(self, params: dict[str, Any]) -> dict[str, Any]:
        user_id = int(params["user_id"])
        status = "administrator" if user_id in self.admins else "member"
        user = {"id": user_id, "is_bot": False, "first_name": "P"}
        if status == "administrator":
            return {"status": status, "user": user, "can_be_edited": False,
                    "is_anonymous": False, "can_manage_chat": True,
                    "can_delete_messages": True, "can_manage_video_chats": True,
                    "can_restrict_members": True, "can_promote_members": False,
                    "can_change_info": True, "can_invite_users": True,
                    "can_post_stories": False, "can_edit_stories": False,
                    "can_delete_stories": False}
        return {"status": status, "user": user}


HANDLERS: dict[str, Any] = {
    "getMe": lambda api, p: BOT_USER,
    "sendMessage": FakeBotAPI._send,
    "sendDocument": FakeBotAPI._send,
    "sendPhoto": FakeBotAPI._send,
    "editMessageText": FakeBotAPI._edit,
    "editMessageReplyMarkup": FakeBotAPI._edit,
    "deleteMessage": FakeBotAPI._delete,
    "answerCallbackQuery": lambda api, p: True,
    "setMyCommands": lambda api, p: True,
    "setWebhook": lambda api, p: True,
    "deleteWebhook": lambda api, p: True,
    "getChatMember": FakeBotAPI._member,
    "getUpdates": lambda api, p: [],
}


# ---- the fault gate, on the fake ----------------------------------------------------------
class Waits(list[float]):
    """A ``sleep`` for :func:`api` that only records the seconds asked, in order."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
async def fake_bot() -> Any:
    fake = FakeBotAPI()
    bot = Bot(TOKEN, request=fake, get_updates_request=fake)
    async with bot:
        yield bot, fake


async def test_retry_after_waits_the_time_telegram_asks_then_retries(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("sendMessage", "Too Many Requests: retry after 7", code=429, retry_after=7)
    waited = Waits()
    sent = await api("sendMessage", lambda: bot.send_message(-5, "oi"), sleep=waited)
    assert waited == [7.0]
    assert sent is not None and sent.text == "oi"
    assert [name for name, _ in fake.calls].count("sendMessage") == 2


async def test_retry_after_gives_up_after_the_retries(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("sendMessage", "Too Many Requests: retry after 1", code=429, times=5,
              retry_after=1)
    waited = Waits()
    assert await api("sendMessage", lambda: bot.send_message(-5, "oi"), retries=3,
                     sleep=waited) is None
    assert waited == [1.0, 1.0, 1.0]


async def test_a_server_error_is_retried_so_the_message_still_arrives(fake_bot: Any) -> None:
    """Issue 12 "Faults": a 5xx answer loses nothing (0.5, 1, 2 s between the tries)."""
    bot, fake = fake_bot
    fake.fail("sendMessage", "Internal Server Error", code=500, times=2)
    waited = Waits()
    sent = await api("sendMessage", lambda: bot.send_message(-5, "oi"), sleep=waited)
    assert waited == [0.5, 1.0]
    assert sent is not None and sent.text == "oi"
    assert [name for name, _ in fake.calls].count("sendMessage") == 3


async def test_server_errors_give_up_after_three_retries(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("sendMessage", "Bad Gateway", code=502, times=9)
    waited = Waits()
    assert await api("sendMessage", lambda: bot.send_message(-5, "oi"), sleep=waited) is None
    assert waited == [0.5, 1.0, 2.0]


async def test_message_not_modified_is_not_an_error(fake_bot: Any) -> None:
    bot, fake = fake_bot
    sent = await bot.send_message(-5, "mesa")
    fake.fail("editMessageText", NOT_MODIFIED)
    assert await api("editMessageText", lambda: bot.edit_message_text(
        "mesa", chat_id=-5, message_id=sent.message_id)) is None


async def test_query_too_old_is_not_an_error(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("answerCallbackQuery", QUERY_TOO_OLD)
    assert await api("answerCallbackQuery", lambda: bot.answer_callback_query("9")) is None


async def test_edit_of_a_vanished_message_raises_message_gone(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("editMessageText", EDIT_NOT_FOUND)
    with pytest.raises(MessageGone, match="Message to edit not found"):
        await api("editMessageText", lambda: bot.edit_message_text(
            "mesa", chat_id=-5, message_id=1))


async def test_forbidden_and_chat_migrated_reach_the_caller(fake_bot: Any) -> None:
    bot, fake = fake_bot
    fake.fail("sendMessage", FORBIDDEN_DM, code=403, chat_id=42)
    with pytest.raises(Forbidden):
        await api("sendMessage", lambda: bot.send_message(42, "sua mão"))
    fake.fail("sendMessage", MIGRATED, chat_id=-5, migrate_to_chat_id=-1005)
    with pytest.raises(ChatMigrated) as caught:
        await api("sendMessage", lambda: bot.send_message(-5, "mesa"))
    assert caught.value.new_chat_id == -1005


async def test_a_method_the_server_lacks_is_logged_and_skipped(
        fake_bot: Any, caplog: pytest.LogCaptureFixture) -> None:
    bot, _fake = fake_bot
    assert await api("sendSticker", lambda: bot.send_sticker(-5, "abc")) is None
    assert "sendSticker failed" in caplog.text
