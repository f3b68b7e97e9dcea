"""Who opened the web table (docs/web.md "Launch flow"): Telegram's signed launch data
(``initData``) and our own signed tokens (a one-use link, then the page's session).

Telegram Mini Apps (https://core.telegram.org/bots/webapps "Validating data received via
the Mini App"): the secret key is HMAC-SHA256 of the bot token keyed with
``"WebAppData"``; the data-check string is every received field but ``hash``, sorted by
key, ``key=value`` joined by ``"\\n"``; its HMAC-SHA256 under the secret key, in hex,
must equal ``hash`` (compared in constant time). python-telegram-bot leaves this out on
purpose, so these few lines are ours.

Our tokens are ``base64url(JSON payload) "." base64url(HMAC-SHA256(secret, payload))``
with a kind (``"l"`` link, ``"s"`` session), so one can never serve as the other. Every
failure raises :class:`Refused` with a stable code; nothing else is told.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

INIT_MAX_AGE_S = 3600
"""Telegram launch data older than this (by its signed ``auth_date``) is refused."""
CLOCK_SKEW_S = 60
"""Launch data dated further than this in the future is refused."""
LINK_TTL_S = 900
"""A link token is valid 15 minutes, and once."""
SESSION_TTL_S = 12 * 3600
"""A page's session lasts 12 hours (it reconnects with it)."""
MAX_INPUT = 4096
"""Longest launch data or token looked at (bytes)."""


class Refused(Exception):
    """The launch data or token is not accepted; ``code`` is one of ``bad_request``,
    ``forged``, ``expired``, ``used`` (docs/web.md)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Person:
    """A person the page speaks for: ``platform`` (``"tg"``, ``"dc"``), their user id,
    their name as the platform gave it (may be empty), the game the page is for, and
    their language code when the platform said (``"pt-br"``, ``"en"``)."""

    platform: str
    user_id: str
    name: str
    game: str
    lang: str = ""
    invite: str = ""
    """The signed ``start_param`` of an invitation link (``c<código>``) that named the
    game; the page's person takes a seat with it (docs/web.md, issue 35)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def launch_lang(init_data: Any) -> str:
    """The ``language_code`` of the user in Telegram launch data, read without checking
    anything ('' when absent or unreadable): only the language a refusal speaks."""
    if not isinstance(init_data, str) or len(init_data) > MAX_INPUT:
        return ""
    try:
        user = json.loads(dict(parse_qsl(init_data)).get("user", "{}"))
        return str(user.get("language_code") or "") if isinstance(user, dict) else ""
    except ValueError:
        return ""


def start_param(init_data: Any) -> str:
    """The ``start_param`` of Telegram launch data, read without checking anything
    ('' when absent or unreadable): only to look up what it names before the check
    (:func:`telegram_launch`'s ``aliases``)."""
    if not isinstance(init_data, str) or len(init_data) > MAX_INPUT:
        return ""
    return dict(parse_qsl(init_data)).get("start_param", "")


def telegram_launch(init_data: str, bot_token: str, now: float, game: str = "",
                    max_age_s: float = INIT_MAX_AGE_S,
                    session: Person | None = None,
                    aliases: dict[str, str] | None = None) -> Person:
    """The person of Telegram's ``initData`` (query-string form) after checking its
    signature against ``bot_token`` and its ``auth_date`` (at most ``max_age_s`` old, at
    most :data:`CLOCK_SKEW_S` ahead of ``now``). The game is the signed ``start_param``
    (a direct link ``?startapp=<game>``), else ``game`` (the page's address; the person
    is still the signed one). ``session``: the person of a valid session the page kept;
    when it is this Telegram user's for this game, the age is not checked (Telegram
    Desktop reopens a Mini App with launch data hours old; DESIGN "A Mini App that feels
    native"). ``aliases``: a signed ``start_param`` that is no game id but names one
    (an invitation's ``c<código>``, issue 35) -> that game; the person's
    :attr:`Person.invite` is then that ``start_param``. Raises :class:`Refused`."""
    if not init_data or len(init_data) > MAX_INPUT or not bot_token:
        raise Refused("bad_request")
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        raise Refused("bad_request") from None
    given = fields.pop("hash", "")
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    wanted = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(wanted, given):
        raise Refused("forged")
    try:
        dated = int(fields.get("auth_date", ""))
        user: dict[str, Any] = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, KeyError, TypeError):
        raise Refused("bad_request") from None
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    param = fields.get("start_param", "")
    target = (aliases or {}).get(param) or param or game
    invite = param if target != param and param else ""
    if not _game_id(target):
        raise Refused("bad_request")
    kept = session is not None and (session.platform, session.user_id, session.game) == (
        "tg", str(user_id), target)
    if dated > now + CLOCK_SKEW_S or (dated < now - max_age_s and not kept):
        raise Refused("expired")
    return Person("tg", str(user_id), name, target, str(user.get("language_code") or ""),
                  invite)


def _game_id(text: str) -> bool:
    """Whether ``text`` looks like a game id (8 lowercase letters and digits)."""
    return len(text) == 8 and text.isascii() and text.isalnum() and text.lower() == text


def sign(secret: bytes, payload: dict[str, Any]) -> str:
    """``payload`` as a signed token (see the module docstring)."""
    body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    mac = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def verify(secret: bytes, token: str, kind: str, now: float) -> dict[str, Any]:
    """The payload of ``token`` when its signature holds, its kind is ``kind`` and it
    has not expired; :class:`Refused` otherwise."""
    if not token or len(token) > MAX_INPUT or token.count(".") != 1:
        raise Refused("bad_request")
    body, mac = token.split(".")
    wanted = _b64(hmac.new(secret, body.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(wanted, mac):
        raise Refused("forged")
    try:
        payload: dict[str, Any] = json.loads(_unb64(body))
        expires = float(payload["e"])
        ok = payload["k"] == kind and _game_id(str(payload["g"]))
    except (ValueError, KeyError, TypeError):
        raise Refused("forged") from None
    if not ok:
        raise Refused("forged")
    if expires < now:
        raise Refused("expired")
    return payload


def link_token(secret: bytes, platform: str, user_id: str, game: str, now: float,
               ttl_s: float = LINK_TTL_S) -> str:
    """A one-use link for ``user_id`` of ``platform`` to open ``game``'s web table,
    valid ``ttl_s`` seconds (a fresh random id ``n`` makes each one single)."""
    return sign(secret, {"k": "l", "p": platform, "u": user_id, "g": game,
                         "e": int(now + ttl_s), "n": secrets.token_urlsafe(12)})


def read_link(secret: bytes, token: str, now: float) -> tuple[Person, str, float]:
    """``(person, token id, expiry)`` of a link token; :class:`Refused` when it is not
    one of ours, was altered or has expired (its single use is the caller's check)."""
    payload = verify(secret, token, "l", now)
    person = Person(str(payload["p"]), str(payload["u"]), "", str(payload["g"]))
    return person, str(payload["n"]), float(payload["e"])


def session_token(secret: bytes, person: Person, lang: str, now: float,
                  ttl_s: float = SESSION_TTL_S) -> str:
    """The page's session for ``person`` (kept in the page's memory, sent at each
    WebSocket hello)."""
    return sign(secret, {"k": "s", "p": person.platform, "u": person.user_id,
                         "m": person.name, "g": person.game, "l": lang,
                         "e": int(now + ttl_s)})


def read_session(secret: bytes, token: str, now: float) -> tuple[Person, str]:
    """``(person, page language)`` of a session token; :class:`Refused` otherwise."""
    payload = verify(secret, token, "s", now)
    person = Person(str(payload["p"]), str(payload["u"]), str(payload.get("m", "")),
                    str(payload["g"]))
    return person, str(payload.get("l", ""))
