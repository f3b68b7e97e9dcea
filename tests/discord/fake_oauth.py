"""The fake Discord's OAuth2 and Activity instances (issue 34, DESIGN "The table inside
Discord"): what an Activity's launch asks of Discord.

- ``POST /oauth2/token`` (form: ``client_id``, ``client_secret``,
  ``grant_type=authorization_code``, ``code``): a code :meth:`FakeOAuth.issue` made for
  this application, once; a forged, reused or other application's code, or a wrong
  secret, gets Discord's ``400 {"error": "invalid_grant"}`` / ``401 invalid_client``.
- ``GET /users/@me`` with ``Authorization: Bearer <access token>``: that person.
- ``GET /applications/{app}/activity-instances/{instance}`` (bot token): an instance
  :meth:`FakeOAuth.open_instance` opened, with its ``users`` and channel.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

from aiohttp import web

CLIENT_SECRET = "fake-discord-client-secret"


class FakeOAuth:
    """The codes, access tokens and Activity instances of one fake Discord."""

    def __init__(self, app_id: int, guild_id: int, channel_id: int) -> None:
        self.app_id, self.guild_id, self.channel_id = app_id, guild_id, channel_id
        self.client_secret = CLIENT_SECRET
        self.codes: dict[str, tuple[int, str]] = {}  # code -> (user id, client id)
        self.tokens: dict[str, int] = {}
        self.instances: dict[str, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.exchanged: list[tuple[str, int]] = []  # (code, status) of every exchange
        self._lock = threading.Lock()

    def issue(self, user: dict[str, Any], client_id: str | None = None) -> str:
        """A fresh authorization code for ``user`` (a Discord user object) of the
        application ``client_id`` (default: this fake's own)."""
        code = "code-" + secrets.token_urlsafe(12)
        with self._lock:
            self.users[int(user["id"])] = user
            self.codes[code] = (int(user["id"]), client_id or str(self.app_id))
        return code

    def open_instance(self, user_ids: list[int], channel_id: int | None = None) -> str:
        """A running Activity instance in ``channel_id`` (default the fake's channel)
        with ``user_ids`` in it; its id."""
        instance = "i-" + secrets.token_hex(8)
        with self._lock:
            self.instances[instance] = {
                "application_id": str(self.app_id), "instance_id": instance,
                "launch_id": secrets.token_hex(8),
                "location": {"id": "gc-" + instance, "kind": "gc",
                             "channel_id": str(channel_id or self.channel_id),
                             "guild_id": str(self.guild_id)},
                "users": [str(u) for u in user_ids]}
        return instance

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``."""
        form = await request.post()
        with self._lock:
            code = str(form.get("code", ""))
            got = self.codes.pop(code, None)
            if form.get("client_id") != str(self.app_id) or (
                    form.get("client_secret") != self.client_secret):
                status, body = 401, {"error": "invalid_client"}
            elif form.get("grant_type") != "authorization_code" or got is None or (
                    got[1] != str(self.app_id)):
                status, body = 400, {"error": "invalid_grant"}
            else:
                access = "at-" + secrets.token_urlsafe(16)
                self.tokens[access] = got[0]
                status, body = 200, {"access_token": access, "token_type": "Bearer",
                                     "expires_in": 604800, "scope": "identify"}
            self.exchanged.append((code, status))
        return _json(body, status)

    def me(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with a Bearer token."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        with self._lock:
            user_id = self.tokens.get(token)
            user = self.users.get(user_id) if user_id is not None else None
        if user is None:
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        return _json(user, 200)

    def instance(self, app: str, instance: str) -> tuple[int, Any]:
        """``GET /applications/{app}/activity-instances/{instance}``."""
        with self._lock:
            found = self.instances.get(instance) if app == str(self.app_id) else None
        if found is None:
            return 404, {"message": "Unknown Application Activity Instance", "code": 10068}
        return 200, found


def _json(data: Any, status: int) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json")
