"""What simulated people do on the fake Discord: run slash commands and press components.

A mixin of :class:`fake_discord.FakeDiscord` (it uses the fake's state, lock and loop):
each action becomes an INTERACTION_CREATE dispatched on the bot's live gateway session,
with the payload the Interactions reference describes (guild ``member`` or DM ``user``,
``channel``, the pressed ``message``, ``data``).
"""

from __future__ import annotations

import asyncio
import copy
import secrets
import time
from typing import Any

from fake_gateway import Session
from fake_model import Interaction, Message, Person, snowflake

# view channel, send messages, embed links, read history, use application commands
PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31))


class People:
    """``slash``, ``press`` and ``press_label`` (test thread, blocking until dispatched)."""

    app_id: int
    guild_id: int
    channel_id: int
    gateway: Any
    commands: dict[str | None, list[dict[str, Any]]]
    messages: dict[int, Message]
    interactions: dict[int, Interaction]
    by_token: dict[str, Interaction]
    _lock: Any

    def slash(self, person: Person, command: str, in_dm: bool = False,
              **options: Any) -> Interaction:
        """``person`` runs ``/command`` (``"grupo sub"`` for a subcommand) with ``options``
        in the guild channel (or their DM with the bot). AssertionError when the bot has
        not registered such a command."""
        name, *sub = command.split()
        with self._lock:
            found = [c for cmds in self.commands.values() for c in cmds if c["name"] == name]
        if not found:
            raise AssertionError(f"no command /{name}; registered: {self.command_names()}")
        cmd = found[0]
        spec = {o["name"]: o for o in cmd.get("options", [])}
        if sub:
            spec = {o["name"]: o for o in spec[sub[0]].get("options", [])}
        opts = [{"name": k, "type": spec[k]["type"], "value": v} for k, v in options.items()]
        if sub:
            opts = [{"name": sub[0], "type": 1, "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        channel = self.dm_channel(person) if in_dm else self.channel_id
        return self._interact(person, 2, channel, data, None)

    def press(self, person: Person, message: Message, custom_id: str,
              values: list[str] | None = None, forged: bool = False) -> Interaction:
        """``person`` presses the component ``custom_id`` under ``message`` (a select:
        choosing ``values``). Unless ``forged``, the component must be on the message as
        it stands now, enabled, and the message visible to ``person`` — what a Discord
        client allows; ``forged`` sends what no client would (for abuse tests)."""
        with self._lock:
            current = self.messages[message.id]
            component = next((c for c in current.buttons() if c.get("custom_id") == custom_id),
                             None)
            if not forged:
                visible = current.ephemeral_for in (None, person.user_id)
                assert visible and not current.deleted, f"{person.name} cannot see {message.id}"
                assert component is not None, f"no component {custom_id!r} on {message.id}"
                assert not component.get("disabled"), f"{custom_id!r} is disabled"
                if component.get("type") == 3:
                    allowed = {o["value"] for o in component.get("options", [])}
                    low, high = component.get("min_values", 1), component.get("max_values", 1)
                    chosen = values or []
                    assert set(chosen) <= allowed and low <= len(chosen) <= high, (
                        chosen, allowed, low, high)
            kind = int((component or {}).get("type", 2))
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
            if kind == 3 or values is not None:
                data["values"] = list(values or [])
            snapshot = copy.deepcopy(current)
        return self._interact(person, 3, snapshot.channel_id, data, snapshot)

    def press_label(self, person: Person, message: Message, label: str) -> Interaction:
        """Press the button labelled ``label`` (AssertionError listing labels if none)."""
        with self._lock:
            button = self.messages[message.id].button(label)
            labels = self.messages[message.id].labels()
        assert button is not None, f"no button {label!r} on {message.id}: {labels}"
        return self.press(person, message, str(button["custom_id"]))

    def _interact(self, person: Person, kind: int, channel_id: int, data: dict[str, Any],
                  message: Message | None) -> Interaction:
        inter_id, token = snowflake(), "tok-" + secrets.token_urlsafe(24)
        guild = channel_id == self.channel_id
        payload: dict[str, Any] = {
            "id": str(inter_id), "application_id": str(self.app_id), "type": kind,
            "token": token, "version": 1, "data": data, "channel_id": str(channel_id),
            "channel": self.channel_payload(channel_id), "locale": person.locale,
            "app_permissions": PERMISSIONS, "entitlements": [],
            "attachment_size_limit": 8 * 1024 * 1024, "context": 0 if guild else 1,
            "authorizing_integration_owners": {"0": str(self.guild_id)} if guild
            else {"1": str(person.user_id)}}
        if guild:
            payload.update(guild_id=str(self.guild_id), guild_locale="pt-BR",
                           member=person.as_member(PERMISSIONS),
                           guild={"id": str(self.guild_id), "locale": "pt-BR", "features": []})
        else:
            payload["user"] = person.as_user()
        if message is not None:
            payload["message"] = message.payload()
        inter = Interaction(id=inter_id, token=token, type=kind, user=person,
                            channel_id=channel_id, payload=payload,
                            message_id=message.id if message else None)
        with self._lock:
            self.interactions[inter_id] = inter
            self.by_token[token] = inter
        self._run(self._dispatch(inter))
        return inter

    async def _dispatch(self, inter: Interaction) -> None:
        """Send the interaction to the newest session, as Discord does: the 3 s of its
        first answer count from now; a session whose socket is away keeps it and sends
        it on RESUME (a client that identifies anew never gets it: the person sees "This
        interaction failed"). Only before the first IDENTIFY does it wait (15 s) for one."""
        inter.dispatched_at = time.monotonic()
        session = self.gateway.newest() or await self._wait_session(15.0)
        await self.gateway.dispatch(session, "INTERACTION_CREATE", inter.payload)

    async def _wait_session(self, timeout: float) -> Session:
        async with self.gateway.changed:
            await asyncio.wait_for(self.gateway.changed.wait_for(
                lambda: self.gateway.active() is not None), timeout)
        session = self.gateway.active()
        assert session is not None
        return session
