"""The web table launched as a Discord Activity (DESIGN "The table inside Discord",
docs/web.md "Discord Activity"): who the person is and which game the Activity shows.

The page asks the Embedded App SDK to ``authorize`` (response type ``code``, scope
``identify``) and posts the code here. The code is exchanged at Discord's OAuth2 token
endpoint (``POST /oauth2/token``, form-encoded: client id and secret,
``grant_type=authorization_code``, no redirect URI), the access token reads the person
(``GET /users/@me``), and the bot token reads the Activity's instance
(``GET /applications/{app}/activity-instances/{instance}``): its channel names the
game, and a person not among its ``users`` gets a spectator's view at most. Every
failure raises :class:`adapters.web.auth.Refused` (``forged``: a code Discord refused,
an instance it does not know); nothing Discord said is passed on.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import aiohttp

from adapters.web.auth import Refused

log = logging.getLogger(__name__)
DISCORD_API = "https://discord.com/api/v10"
WAIT_S = 10.0
"""Longest wait for each of Discord's answers."""
SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")
INSTANCE = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
SPECTATOR = "~"
"""Prefix of the user id of a person outside the Activity's instance: never a seat's."""


@dataclass(frozen=True, slots=True)
class Launch:
    """Who opened the Activity (``user_id``: their Discord id, prefixed with
    :data:`SPECTATOR` when they are not in the instance), their name and locale, and the
    channel the instance runs in."""

    user_id: str
    name: str
    lang: str
    channel_id: str


class DiscordActivity:
    """Discord's side of an Activity's launch, for application ``client_id``."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str,
                 api_base: str | None = None) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")

    async def launch(self, code: str, instance_id: str) -> Launch:
        """The person of the authorization ``code`` in the Activity ``instance_id``;
        :class:`Refused` when Discord refuses the code or does not know the instance."""
        if not code or len(code) > 200 or not INSTANCE.match(instance_id or ""):
            raise Refused("bad_request")
        timeout = aiohttp.ClientTimeout(total=WAIT_S)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            token = await self._token(http, code)
            user = await self._get(http, "/users/@me", f"Bearer {token}")
            instance = await self._get(
                http, f"/applications/{self.client_id}/activity-instances/{instance_id}",
                f"Bot {self.bot_token}")
        user_id = str(user.get("id", ""))
        channel = str((instance.get("location") or {}).get("channel_id", ""))
        if not SNOWFLAKE.match(user_id) or not SNOWFLAKE.match(channel):
            raise Refused("forged")
        inside = user_id in {str(u) for u in instance.get("users") or []}
        name = str(user.get("global_name") or user.get("username") or "")
        return Launch(user_id if inside else SPECTATOR + user_id, name,
                      str(user.get("locale") or ""), channel)

    async def _token(self, http: aiohttp.ClientSession, code: str) -> str:
        form = {"client_id": self.client_id, "client_secret": self.client_secret,
                "grant_type": "authorization_code", "code": code}
        async with http.post(f"{self.api}/oauth2/token", data=form) as res:
            body = await _json(res)
        token = body.get("access_token") if res.status == 200 else None
        if not isinstance(token, str) or not token:
            log.info("discord activity: the code was refused (%d)", res.status)
            raise Refused("forged")
        return token

    async def _get(self, http: aiohttp.ClientSession, path: str, auth: str) -> dict[str, Any]:
        async with http.get(f"{self.api}{path}", headers={"Authorization": auth}) as res:
            body = await _json(res)
        if res.status != 200:
            log.info("discord activity: %s answered %d", path.split("/")[1], res.status)
            raise Refused("forged")
        return body


async def _json(res: aiohttp.ClientResponse) -> dict[str, Any]:
    """The answer's JSON object ({} when it is none)."""
    try:
        got = await res.json(content_type=None)
    except (ValueError, aiohttp.ContentTypeError):
        return {}
    return got if isinstance(got, dict) else {}
