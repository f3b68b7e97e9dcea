"""Objects of the fake Discord (``fake_discord``): people, messages, interactions, REST calls.

Payload shapes follow the Discord API v10 reference (User, Guild Member, Message, Message
Components, Interaction objects); only the fields discord.py 2.7 reads are filled in.
Snowflakes carry their real creation time (``(ms - DISCORD_EPOCH) << 22``), so discord.py's
``created_at`` and ``Interaction.expires_at`` are right.
"""

from __future__ import annotations

import datetime
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 64
_counter = itertools.count()


def snowflake() -> int:
    """A fresh Discord id made from the current time."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) % 4096)


def iso_now() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(frozen=True)
class Person:
    """A simulated Discord user (``user_id`` is their snowflake, ``name`` the display name)."""

    user_id: int
    name: str
    locale: str = "pt-BR"

    def as_user(self) -> dict[str, Any]:
        """The API ``User`` object."""
        return {"id": str(self.user_id), "username": self.name.lower(), "global_name": self.name,
                "discriminator": "0", "avatar": None, "public_flags": 0}

    def as_member(self, permissions: str = "0") -> dict[str, Any]:
        """The API guild ``Member`` object (with ``permissions`` as in an interaction)."""
        return {"user": self.as_user(), "nick": None, "avatar": None, "roles": [],
                "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                "flags": 0, "pending": False, "permissions": permissions}


def flat_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every interactive component (buttons, selects) of ``rows``, row by row."""
    return [c for row in rows for c in row.get("components", [])]


@dataclass
class Message:
    """A message as it stands now on the fake (edits applied in place).

    ``ephemeral_for`` is the user id that alone sees it (flag 64); ``tokens`` are the
    interaction tokens through which it may be edited (its ``@original`` or a followup).
    ``edits`` lists when (``time.monotonic()``) each edit landed.
    """

    id: int
    channel_id: int
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None
    tokens: set[str] = field(default_factory=set)
    deleted: bool = False
    loading: bool = False
    edits: list[float] = field(default_factory=list)
    webhook_id: int | None = None
    interaction_user: int | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    """The files' metadata a create body gave (``filename``, ``description``: alt text)."""
    files: list[dict[str, Any]] = field(default_factory=list)
    """The files uploaded with it: ``filename``, ``description`` (the alt text) and the
    bytes as ``data``."""

    @property
    def ephemeral(self) -> bool:
        """True when only one person sees it (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    def apply(self, body: dict[str, Any]) -> None:
        """Apply a create/edit body (only the fields it names, as Discord does)."""
        for key in ("content", "embeds", "components", "attachments"):
            if key in body and body[key] is not None:
                setattr(self, key, body[key])
        if body.get("_files"):
            self.files = body["_files"]
        if body.get("flags") is not None:
            self.flags = (self.flags & EPHEMERAL) | (int(body["flags"]) & ~EPHEMERAL)

    def payload(self) -> dict[str, Any]:
        """The API ``Message`` object."""
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": 0,
            "author": self.author, "content": self.content, "embeds": self.embeds,
            "components": self.components, "flags": self.flags | (128 if self.loading else 0),
            "timestamp": iso_now(), "edited_timestamp": iso_now() if self.edits else None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "pinned": False}
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data

    def buttons(self) -> list[dict[str, Any]]:
        """Every button and select under the message, row by row."""
        return flat_components(self.components)

    def labels(self) -> list[str]:
        """The labels of its buttons (selects have none)."""
        return [str(c.get("label", "")) for c in self.buttons() if c.get("type") == 2]

    def button(self, label: str | re.Pattern[str]) -> dict[str, Any] | None:
        """The first button whose label equals ``label`` (or matches the pattern)."""
        for c in self.buttons():
            text = str(c.get("label", ""))
            if c.get("type") == 2 and ((text == label) if isinstance(label, str)
                                       else label.search(text)):
                return c
        return None

    def text(self) -> str:
        """Everything written in it: content, then each embed's title, description,
        fields and footer, one per line."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts += [str(embed[k]) for k in ("title", "description") if embed.get(k)]
            for f in embed.get("fields", []):
                parts += [str(f.get("name", "")), str(f.get("value", ""))]
            if (embed.get("footer") or {}).get("text"):
                parts.append(str(embed["footer"]["text"]))
        return "\n".join(parts)


@dataclass
class Interaction:
    """One interaction the fake dispatched: who, where, what; when it was dispatched and
    answered (``time.monotonic()``), with which callback type; ``expired`` once the
    15-minute token life is over (:meth:`FakeDiscord.expire_tokens`)."""

    id: int
    token: str
    type: int
    user: Person
    channel_id: int
    payload: dict[str, Any]
    message_id: int | None = None
    dispatched_at: float = 0.0
    answered_at: float | None = None
    answer_type: int | None = None
    original_id: int | None = None
    expired: bool = False

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first callback, or None while unanswered."""
        return None if self.answered_at is None else self.answered_at - self.dispatched_at


@dataclass
class Call:
    """One REST call the bot made: ``route`` is the template (``"PATCH
    /channels/{c}/messages/{m}"``), ``path`` the real one, ``status`` the fake's answer."""

    time: float
    method: str
    route: str
    path: str
    body: Any
    status: int = 0
    ids: dict[str, str] = field(default_factory=dict)


class ApiError(Exception):
    """An error answer: HTTP ``status``, Discord JSON ``code`` and ``message``."""

    def __init__(self, status: int, code: int, message: str,
                 headers: dict[str, str] | None = None, extra: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        """The JSON error body."""
        return {"message": self.message, "code": self.code, **self.extra}


def unknown_message() -> ApiError:
    """404 10008 Unknown Message."""
    return ApiError(404, 10008, "Unknown Message")


def invalid_form(why: str) -> ApiError:
    """400 50035 Invalid Form Body, with the reason in ``errors``."""
    return ApiError(400, 50035, "Invalid Form Body", extra={"errors": {"_errors": [
        {"code": "BASE_TYPE_INVALID", "message": why}]}})


def check_message_body(body: dict[str, Any]) -> None:
    """Raise :func:`invalid_form` where Discord would refuse ``body`` (limits of the Message
    and Message Components references: 2000 characters of content, 10 embeds of 6000
    characters, 5 action rows, 5 buttons or one select a row, 25 options a select,
    custom_id 1-100 characters and unique in the message, label 80 characters)."""
    if len(body.get("content") or "") > 2000:
        raise invalid_form("content longer than 2000")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        raise invalid_form("more than 10 embeds")
    for embed in embeds:
        size = sum(len(str(embed.get(k) or "")) for k in ("title", "description"))
        size += sum(len(f.get("name", "")) + len(f.get("value", ""))
                    for f in embed.get("fields", []))
        if size > 6000 or len(str(embed.get("description") or "")) > 4096:
            raise invalid_form("embed too long")
    rows = body.get("components") or []
    if len(rows) > 5:
        raise invalid_form("more than 5 action rows")
    seen: set[str] = set()
    for row in rows:
        items = row.get("components", [])
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            raise invalid_form("an action row holds 1 to 5 components")
        if any(c.get("type") != 2 for c in items) and len(items) != 1:
            raise invalid_form("a select fills its action row alone")
        for c in items:
            _check_component(c, seen)


def _check_component(c: dict[str, Any], seen: set[str]) -> None:
    custom_id = c.get("custom_id")
    if c.get("type") == 2 and c.get("style") == 5:
        if not c.get("url") or custom_id:
            raise invalid_form("a link button has a url and no custom_id")
    else:
        if not custom_id or len(custom_id) > 100:
            raise invalid_form(f"custom_id must be 1-100 characters: {custom_id!r}")
        if custom_id in seen:
            raise invalid_form(f"custom_id repeated in one message: {custom_id!r}")
        seen.add(custom_id)
    if len(str(c.get("label") or "")) > 80:
        raise invalid_form("label longer than 80")
    if c.get("type") == 3:
        options = c.get("options") or []
        if not 1 <= len(options) <= 25:
            raise invalid_form("a select has 1 to 25 options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            raise invalid_form("select option values repeat")
        if any(len(str(o.get("label") or "")) > 100 for o in options):
            raise invalid_form("option label longer than 100")
