"""The small protocol a chat platform implements for the shared delivery policy
(:class:`adapters.delivery.outbox.Delivery`): render views, and post, edit, delete, send
privately and answer a press. Every method does one platform API call (or a fallback the
platform itself defines); the policy - what to post once and edit after, what to
coalesce, what to remember in Redis - is the delivery's.

References (``ref``) are opaque strings the platform makes and reads back (stored in
Redis by :class:`adapters.delivery.refs.GameRefs`). ``origin`` is whatever the adapter
passes to ``deliver`` for the call being answered (a Telegram command or callback query, a
Discord interaction), or None for the tick loop.

A platform may say ``hand_replaced_when_gone = True`` (an attribute, default False):
a person's hand message is only ever replaced by a new one when the old one is gone or
is deleted right after (Telegram: a DM hand is edited in place, sent anew only after an
edit found it gone or by ``/mao``, which deletes the old one). The delivery then edits
the hand ref this process last read or wrote without reading Redis first, and reads it
again only when that edit finds the message gone (issue 36: one round trip less per
hand edit). A platform whose hand can move to another live message (Discord: the
ephemeral answer to the person's press) leaves it False.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.effects import ChatRef, HandView, PlayerRef, ReplayView, Reply, TableView, TurnPing


class MessageGone(Exception):
    """The message to edit or delete no longer exists (or can no longer be edited):
    the delivery posts a fresh one."""


class PrivateRefused(Exception):
    """The platform will not let the bot write to the person privately (Telegram: never
    started the bot or blocked it; Discord: closed DMs, error 50007)."""


class Platform(Protocol):
    """What the shared delivery needs from one chat platform."""

    name: str
    """Key space of the platform in Redis: ``"tg"``, ``"dc"``."""

    async def table(self, effect: TableView) -> Any:
        """The rendered table message (text and buttons) of ``effect``."""
        ...

    def hand(self, effect: HandView) -> Any:
        """The rendered hand message of ``effect``."""
        ...

    def text(self, text: str) -> Any:
        """A plain service text (results, notices) as a message."""
        ...

    async def post(self, chat: ChatRef, message: Any) -> str | None:
        """A new message in the group; its ref, or None when the group refused it."""
        ...

    async def edit(self, chat: ChatRef, ref: str, message: Any) -> None:
        """Edit group message ``ref`` in place; raises :class:`MessageGone`."""
        ...

    async def strip(self, ref: str, message: Any | None) -> None:
        """Drop the buttons of group message ``ref`` (``message``: its last rendering, or
        None when unknown); a message that is gone is ignored."""
        ...

    def carries_hand(self, origin: Any, player: PlayerRef) -> bool:
        """True when the answer to ``origin`` itself shows ``player``'s hand (a Discord
        ephemeral response); the hand then skips the coalescer."""
        ...

    async def answer_hand(self, origin: Any, player: PlayerRef, message: Any) -> str | None:
        """Show the hand as the answer to ``origin`` (only when :meth:`carries_hand`);
        returns the ref to edit it later, or None."""
        ...

    async def send_private(self, player: PlayerRef, message: Any, origin: Any) -> str | None:
        """A new private message to the person (hand, notice); its ref or None when the
        platform has no private place for it now. Raises :class:`PrivateRefused`."""
        ...

    async def edit_private(self, player: PlayerRef, ref: str, message: Any) -> None:
        """Edit private message ``ref``; raises :class:`MessageGone`, :class:`PrivateRefused`."""
        ...

    async def strip_private(self, user_id: str, ref: str) -> None:
        """Drop the buttons of private message ``ref``; gone or refused is ignored."""
        ...

    async def ping(self, effect: TurnPing) -> str | None:
        """A notification that it is the person's turn (a new message: edits do not ring);
        its ref or None. Raises :class:`PrivateRefused`."""
        ...

    async def delete_private(self, user_id: str, ref: str) -> None:
        """Delete a private message or turn ping ``ref`` (a ref :meth:`ping` or
        :meth:`send_private` made); gone is ignored."""
        ...

    async def send_file(self, chat: ChatRef, filename: str, content: str) -> bool:
        """A file for the group (a finished game's record); False when the platform
        refused it (the outbox then says so in the chat)."""
        ...

    async def send_picture(self, chat: ChatRef, filename: str, content: bytes,
                           caption: str) -> bool:
        """A picture for the group with its text as the caption (a finished match's
        chart, issue 29); False when the platform refused it (the outbox then posts the
        caption alone)."""
        ...

    async def show_replay(self, effect: ReplayView, origin: Any) -> None:
        """A ``/replay`` step (issue 29): for a step button (``origin`` a press), the
        pressed message edited in place; for the command, a new message in the chat."""
        ...

    async def answer(self, effect: Reply, origin: Any) -> str | None:
        """Answer the person who made the call ``origin`` (a toast, a reply, an ephemeral
        message; None: a private message); the ref :meth:`rewrite` edits it by, or None
        (a toast, a refusal)."""
        ...

    async def rewrite(self, player: PlayerRef, ref: str, text: str) -> None:
        """Edit the answer ``ref`` to ``player`` (:meth:`answer`'s) to ``text`` with no
        buttons (issue 35); gone, refused or too old is ignored."""
        ...

    async def refused_notice(self, chat: ChatRef, game_id: str, player: PlayerRef) -> None:
        """Tell the group, once per game and person (the delivery counts), that the bot
        cannot write to ``player`` privately, and how to fix it."""
        ...
