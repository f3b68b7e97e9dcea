"""The REST half of the fake Discord: the v10 routes a discord.py bot calls, on the state
of :class:`fake_discord.FakeDiscord` (``s``). Every handler returns ``(status, json)``
or raises :class:`fake_model.ApiError`; the router records each call.

Interaction rules enforced, from the Receiving and Responding reference: the first
callback must come within 3 s of the dispatch (later: 404 10062 Unknown interaction), only
one callback per interaction (40060), the token lives 15 minutes (then 401 50027 Invalid
Webhook Token); ephemeral messages are reachable only through their interaction token
(channel routes answer 10008 Unknown Message); a DM to a person who refuses DMs gets 403
50007 Cannot send messages to this user.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fake_model import (
    EPHEMERAL,
    ApiError,
    Interaction,
    Message,
    check_message_body,
    snowflake,
    unknown_message,
)

if TYPE_CHECKING:
    from fake_discord import FakeDiscord

Handler = Callable[["FakeDiscord", dict[str, str], Any, dict[str, str]],
                   Awaitable[tuple[int, Any]]]
ROUTES: list[tuple[str, str, re.Pattern[str], Handler]] = []
CALLBACK_LIMIT_S = 3.0


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    """Register a handler for ``method template`` (``{name}`` matches one path part)."""
    pattern = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")

    def register(fn: Handler) -> Handler:
        ROUTES.append((method, template, pattern, fn))
        return fn
    return register


def match(method: str, path: str) -> tuple[str, dict[str, str], Handler] | None:
    """The template, path parameters and handler for a request, or None."""
    for m, template, pattern, fn in ROUTES:
        found = pattern.match(path)
        if m == method and found:
            return f"{method} {template}", found.groupdict(), fn
    return None


# ---- identity and setup ----------------------------------------------------------------
@route("GET", "/users/@me")
async def me(s: FakeDiscord, p: dict[str, str], body: Any, q: dict[str, str]) -> tuple[int, Any]:
    return 200, s.bot_user


@route("GET", "/applications/{app}/activity-instances/{i}")
async def activity_instance(s: FakeDiscord, p: dict[str, str], body: Any,
                            q: dict[str, str]) -> tuple[int, Any]:
    return s.oauth.instance(p["app"], p["i"])


@route("GET", "/gateway")
@route("GET", "/gateway/bot")
async def gateway(s: FakeDiscord, p: dict[str, str], body: Any,
                  q: dict[str, str]) -> tuple[int, Any]:
    return 200, {"url": s.gateway_url, "shards": 1, "session_start_limit": {
        "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}


@route("GET", "/oauth2/applications/@me")
@route("GET", "/applications/@me")
async def application(s: FakeDiscord, p: dict[str, str], body: Any,
                      q: dict[str, str]) -> tuple[int, Any]:
    return 200, {"id": str(s.app_id), "name": "Buraco", "description": "", "icon": None,
                 "bot_public": True, "bot_require_code_grant": False, "verify_key": "00",
                 "flags": 0, "owner": s.bot_user, "team": None, "summary": ""}


@route("GET", "/users/{u}")
async def user(s: FakeDiscord, p: dict[str, str], body: Any, q: dict[str, str]) -> tuple[int, Any]:
    person = s.person(int(p["u"]))
    if person is None:
        raise ApiError(404, 10013, "Unknown User")
    return 200, person.as_user()


@route("GET", "/guilds/{g}")
async def guild(s: FakeDiscord, p: dict[str, str], body: Any, q: dict[str, str]) -> tuple[int, Any]:
    if int(p["g"]) != s.guild_id:
        raise ApiError(404, 10004, "Unknown Guild")
    return 200, s.guild_payload()


@route("GET", "/guilds/{g}/members/{u}")
async def member(s: FakeDiscord, p: dict[str, str], body: Any,
                 q: dict[str, str]) -> tuple[int, Any]:
    person = s.person(int(p["u"]))
    if person is None or int(p["g"]) != s.guild_id:
        raise ApiError(404, 10007, "Unknown Member")
    return 200, person.as_member()


# ---- application commands --------------------------------------------------------------
@route("PUT", "/applications/{app}/commands")
@route("PUT", "/applications/{app}/guilds/{g}/commands")
async def put_commands(s: FakeDiscord, p: dict[str, str], body: Any,
                       q: dict[str, str]) -> tuple[int, Any]:
    for cmd in body or []:  # Discord refuses the whole list for one bad description
        _check_description(cmd)
        for option in cmd.get("options") or []:
            _check_description(option)
    commands = []
    for cmd in body or []:
        stored = {"type": 1, "options": [], "description": "", "default_member_permissions": None,
                  "dm_permission": True, "nsfw": False, **cmd, "id": str(snowflake()),
                  "application_id": str(s.app_id), "version": str(snowflake())}
        if "g" in p:
            stored["guild_id"] = p["g"]
        commands.append(stored)
    s.commands[p.get("g")] = commands
    return 200, commands


def _check_description(item: dict[str, Any]) -> None:
    """Discord's limits (1 to 100 characters, each localization too): else 50035."""
    texts = [item.get("description", ""),
             *(item.get("description_localizations") or {}).values()]
    if any(not 1 <= len(text) <= 100 for text in texts):
        raise ApiError(400, 50035, "Invalid Form Body")


@route("GET", "/applications/{app}/commands")
@route("GET", "/applications/{app}/guilds/{g}/commands")
async def get_commands(s: FakeDiscord, p: dict[str, str], body: Any,
                       q: dict[str, str]) -> tuple[int, Any]:
    return 200, s.commands.get(p.get("g"), [])


# ---- interactions ----------------------------------------------------------------------
def _live(s: FakeDiscord, token: str) -> Interaction:
    inter = s.by_token.get(token)
    if inter is None or inter.expired:
        raise ApiError(401, 50027, "Invalid Webhook Token")
    return inter


@route("POST", "/interactions/{i}/{token}/callback")
async def callback(s: FakeDiscord, p: dict[str, str], body: Any,
                   q: dict[str, str]) -> tuple[int, Any]:
    inter = s.interactions.get(int(p["i"]))
    if inter is None or inter.token != p["token"] or inter.expired:
        raise ApiError(404, 10062, "Unknown interaction")
    if inter.answer_type is not None:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    if time.monotonic() - inter.dispatched_at > CALLBACK_LIMIT_S:
        s.late.append(inter)
        raise ApiError(404, 10062, "Unknown interaction")
    kind, data = int(body["type"]), body.get("data") or {}
    message = s.messages.get(inter.message_id or 0)
    if kind in (4, 7):
        check_message_body(data)
    if kind in (6, 7) and message is None:
        raise ApiError(400, 50035, "Invalid Form Body")
    if kind in (4, 5):
        message = s.new_message(inter.channel_id, data, ephemeral_for=(
            inter.user.user_id if int(data.get("flags") or 0) & EPHEMERAL else None),
            token=inter.token, loading=kind == 5, interaction_user=inter.user.user_id)
    elif kind == 7 and message is not None:
        s.edit(message, data)
    if message is not None:
        message.tokens.add(inter.token)
        inter.original_id = message.id
    inter.answer_type, inter.answered_at = kind, time.monotonic()
    if q.get("with_response") not in ("1", "true", "True"):
        return 204, None
    answer: dict[str, Any] = {"interaction": {
        "id": str(inter.id), "type": inter.type,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool(message and message.ephemeral)}}
    if message is not None and kind != 6:
        answer["interaction"]["response_message_id"] = str(message.id)
        answer["resource"] = {"type": kind, "message": message.payload()}
    return 200, answer


def _webhook_message(s: FakeDiscord, token: str, mid: str) -> Message:
    inter = _live(s, token)
    message = s.messages.get(inter.original_id or 0) if mid == "@original" else (
        s.messages.get(int(mid)) if mid.isdigit() else None)
    if message is None or message.deleted or token not in message.tokens:
        raise unknown_message()
    return message


@route("POST", "/webhooks/{app}/{token}")
async def followup(s: FakeDiscord, p: dict[str, str], body: Any,
                   q: dict[str, str]) -> tuple[int, Any]:
    inter = _live(s, p["token"])
    if inter.answer_type is None:
        raise ApiError(404, 10015, "Unknown Webhook")
    check_message_body(body)
    ephemeral = int(body.get("flags") or 0) & EPHEMERAL
    message = s.new_message(inter.channel_id, body, token=inter.token,
                            ephemeral_for=inter.user.user_id if ephemeral else None,
                            interaction_user=inter.user.user_id)
    return (200, message.payload()) if q.get("wait") in ("1", "true", "True") else (204, None)


@route("GET", "/webhooks/{app}/{token}/messages/{m}")
async def get_webhook_message(s: FakeDiscord, p: dict[str, str], body: Any,
                              q: dict[str, str]) -> tuple[int, Any]:
    return 200, _webhook_message(s, p["token"], p["m"]).payload()


@route("PATCH", "/webhooks/{app}/{token}/messages/{m}")
async def edit_webhook_message(s: FakeDiscord, p: dict[str, str], body: Any,
                               q: dict[str, str]) -> tuple[int, Any]:
    message = _webhook_message(s, p["token"], p["m"])
    check_message_body(body)
    s.edit(message, body)
    return 200, message.payload()


@route("DELETE", "/webhooks/{app}/{token}/messages/{m}")
async def delete_webhook_message(s: FakeDiscord, p: dict[str, str], body: Any,
                                 q: dict[str, str]) -> tuple[int, Any]:
    _webhook_message(s, p["token"], p["m"]).deleted = True
    return 204, None


# ---- channels and messages -------------------------------------------------------------
def _channel_message(s: FakeDiscord, p: dict[str, str]) -> Message:
    message = s.messages.get(int(p["m"])) if p["m"].isdigit() else None
    if (message is None or message.deleted or message.ephemeral
            or message.channel_id != int(p["c"])):
        raise unknown_message()
    return message


@route("GET", "/channels/{c}")
async def channel(s: FakeDiscord, p: dict[str, str], body: Any,
                  q: dict[str, str]) -> tuple[int, Any]:
    found = s.channel_payload(int(p["c"]))
    if found is None:
        raise ApiError(404, 10003, "Unknown Channel")
    return 200, found


@route("POST", "/channels/{c}/messages")
async def send(s: FakeDiscord, p: dict[str, str], body: Any, q: dict[str, str]) -> tuple[int, Any]:
    channel_id = int(p["c"])
    if s.channel_payload(channel_id) is None:
        raise ApiError(404, 10003, "Unknown Channel")
    recipient = s.dm_owner(channel_id)
    if recipient is not None and recipient in s.dm_refused:
        raise ApiError(403, 50007, "Cannot send messages to this user")
    check_message_body(body)
    return 200, s.new_message(channel_id, body).payload()


@route("GET", "/channels/{c}/messages/{m}")
async def get_message(s: FakeDiscord, p: dict[str, str], body: Any,
                      q: dict[str, str]) -> tuple[int, Any]:
    return 200, _channel_message(s, p).payload()


@route("PATCH", "/channels/{c}/messages/{m}")
async def edit_message(s: FakeDiscord, p: dict[str, str], body: Any,
                       q: dict[str, str]) -> tuple[int, Any]:
    message = _channel_message(s, p)
    check_message_body(body)
    s.edit(message, body)
    return 200, message.payload()


@route("DELETE", "/channels/{c}/messages/{m}")
async def delete_message(s: FakeDiscord, p: dict[str, str], body: Any,
                         q: dict[str, str]) -> tuple[int, Any]:
    _channel_message(s, p).deleted = True
    return 204, None


@route("POST", "/users/@me/channels")
async def open_dm(s: FakeDiscord, p: dict[str, str], body: Any,
                  q: dict[str, str]) -> tuple[int, Any]:
    person = s.person(int((body or {}).get("recipient_id", 0)))
    if person is None:
        raise ApiError(400, 50035, "Invalid Form Body")
    return 200, s.channel_payload(s.dm_channel(person)) or {}
