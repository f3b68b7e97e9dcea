"""Stateless components: ``discord.ui.DynamicItem`` subclasses whose custom_id carries
everything a press needs (DESIGN "Examples to follow" 10), so they work after a restart
and on any worker. Each one hands the decoded press to the bot (``interaction.client``,
a :class:`Presser`), which calls the service.

- ``bb:<payload>``: a service button (the payload of ``bot.effects.pack``).
- ``bbc:<game>|<version>|<n>``: a card select; its options' values are card payloads.
- ``bba:<game>|<version>``: a select of actions; its options' values are payloads.
- ``bbp:<game>|<version>|<page>``: show another page of a big hand.
- ``bbw:<game>``: "Abrir a mesa" as a Discord Activity (``LAUNCH_ACTIVITY``).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord

from adapters.discord.render import Btn, Menu, Message

log = logging.getLogger(__name__)
STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


class Presser(Protocol):
    """What the items call on the client (:class:`adapters.discord.app.BuracoClient`)."""

    async def press(self, interaction: discord.Interaction[Any], data: list[str],
                    page: int | None = None) -> None:
        """Press the service payloads ``data`` in order (``page``: show that hand page)."""
        ...


def _presser(interaction: discord.Interaction[Any]) -> Presser:
    return cast(Presser, interaction.client)


class PressButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"bb:(?P<data>[^|]+\|[0-9]{1,9}\|[^|]+\|[^|]*)"):
    """A service button."""

    def __init__(self, data: str, label: str = "?", style: str = "secondary") -> None:
        super().__init__(discord.ui.Button(label=label, style=STYLES[style],
                                           custom_id=f"bb:{data}"))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PressButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _presser(interaction).press(interaction, [self.data])


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"bbp:(?P<game>[^|]+)\|(?P<ver>[0-9]{1,9})\|(?P<page>[0-9]{1,9})"):
    """Another page of the cards of a big hand."""

    def __init__(self, game: str, ver: int, page: int, label: str = "…") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"bbp:{game}|{ver}|{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PageButton:
        return cls(match["game"], int(match["ver"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _presser(interaction).press(interaction, [f"{self.game}|0|h|"], page=self.page)


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"bbw:(?P<game>[a-z0-9]{8})"):
    """"Abrir a mesa" where the application has Activities enabled (``DISCORD_ACTIVITY``,
    docs/web.md "Discord Activity"): answers with ``LAUNCH_ACTIVITY`` (interaction
    response type 12), which opens the web table as an Activity in the channel; the
    Activity finds the channel's game itself."""

    def __init__(self, game: str, label: str = "?") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"bbw:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LaunchButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as err:  # Activities not enabled after all: the hand
            log.warning("discord: LAUNCH_ACTIVITY refused (%s %s): showing the hand",
                        err.status, err.code)
            await _presser(interaction).press(interaction, [f"{self.game}|0|h|"])


class CardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"bbc:(?P<game>[^|]+)\|(?P<ver>[0-9]{1,9})\|(?P<n>[0-9]{1,9})"):
    """Cards to select: pressing the payload of every option whose state changed."""

    def __init__(self, custom_id: str, menu: Menu | None = None,
                 base: discord.ui.Select[Any] | None = None) -> None:
        select = base if base is not None else discord.ui.Select(custom_id=custom_id)
        if menu is not None:
            select.placeholder = menu.placeholder
            select.options = [discord.SelectOption(label=o.label, value=o.value,
                                                   default=o.default) for o in menu.options]
            select.min_values, select.max_values = 0, menu.max_values
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> CardSelect:
        base = item if isinstance(item, discord.ui.Select) else None
        return cls(match.string, base=base)

    def changed(self, chosen: list[str]) -> list[str]:
        """The payloads to press: options chosen now that were not shown selected, and
        options shown selected that are not chosen now (in hand order)."""
        picked = set(chosen)
        return [o.value for o in self.item.options if (o.value in picked) != o.default]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _presser(interaction).press(interaction, self.changed(list(self.item.values)))


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"bba:(?P<game>[^|]+)\|(?P<ver>[0-9]{1,9})"):
    """One action out of many (the ones that did not fit as buttons)."""

    def __init__(self, custom_id: str, menu: Menu | None = None,
                 base: discord.ui.Select[Any] | None = None) -> None:
        select = base if base is not None else discord.ui.Select(custom_id=custom_id)
        if menu is not None:
            select.placeholder = menu.placeholder
            select.options = [discord.SelectOption(label=o.label, value=o.value)
                              for o in menu.options]
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ActionSelect:
        base = item if isinstance(item, discord.ui.Select) else None
        return cls(match.string, base=base)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _presser(interaction).press(interaction, list(self.item.values)[:1])


ITEMS = (PressButton, PageButton, LaunchButton, CardSelect, ActionSelect)


def item_of(custom_id: str) -> type[discord.ui.DynamicItem[Any]] | None:
    """The item class whose template ``custom_id`` matches, or None."""
    for item in ITEMS:
        if item.__discord_ui_compiled_template__.fullmatch(custom_id):
            return item
    return None


def payloads_of(custom_id: str, values: list[str]) -> tuple[list[str], int | None]:
    """The service payloads a component stands for, read from its ``custom_id`` (and a
    select's chosen ``values``) alone: what a press of a component that is no longer on
    its message (a double tap after an edit, an old hand) means, so the service answers
    it as Telegram's would be ("Esse botão é antigo…"), never with a ``bb:`` prefix
    taken for a game id. A custom_id of no item goes as it is (the service says
    "Botão desconhecido."). Also the hand page to show, for a page button."""
    item = item_of(custom_id)
    if item is None:
        return [custom_id], None
    match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    if item is PressButton:
        return [match["data"]], None
    if item is PageButton:
        return [f"{match['game']}|0|h|"], int(match["page"])
    if item is LaunchButton:  # an old hand's "Abrir a mesa": the current hand
        return [f"{match['game']}|0|h|"], None
    return (values[:1] if item is ActionSelect else values), None


def _item(part: Btn | Menu, row: int) -> discord.ui.Item[Any]:
    if isinstance(part, Menu):
        kind = CardSelect if part.custom_id.startswith("bbc:") else ActionSelect
        made: discord.ui.Item[Any] = kind(part.custom_id, part)
    elif part.url:
        made = discord.ui.Button(label=part.label, url=part.url,
                                 style=discord.ButtonStyle.link)
    elif part.custom_id.startswith("bbw:"):
        made = LaunchButton(part.custom_id[4:], part.label)
    elif part.custom_id.startswith("bbp:"):
        game, ver, page = part.custom_id[4:].split("|")
        made = PageButton(game, int(ver), int(page), part.label)
    else:
        made = PressButton(part.custom_id[3:], part.label, part.style)
    made.row = row
    return made


def build_view(message: Message) -> discord.ui.View | None:
    """The components of ``message`` as a view that discord.py does not keep in memory
    (stopped at once: the dynamic items answer presses, on any worker). None when empty."""
    if not message.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row, part in enumerate(message.rows):
        for piece in part if isinstance(part, list) else [part]:
            view.add_item(_item(piece, row))
    view.stop()
    return view


def embed(message: Message, colour: int = 0x2E7D32) -> discord.Embed:
    """The embed of ``message``."""
    return discord.Embed(title=message.title, description=message.description or None,
                         colour=colour)


def message_kwargs(message: Message) -> dict[str, Any]:
    """``embed`` and (when there are components) ``view`` for a send call."""
    out: dict[str, Any] = {"embed": embed(message)}
    view = build_view(message)
    if view is not None:
        out["view"] = view
    return out
