"""Platform-neutral identities, views and effects: the service's whole output.

An adapter renders each :data:`Effect` for its platform (docs/service-api.md). Views
carry plain text lines and buttons whose ``data`` is a short opaque payload
(``"<game_id>|<version>|<code>|<arg>"``, at most 64 bytes, DESIGN "One button press").
No hidden card ever goes into a :class:`TableView` or a button payload: hand buttons
name a card by its index in the owner's own sorted hand.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_DATA = 64
MAX_DIGITS = 9
"""Longest number a payload or a command argument may carry (versions, indexes, seconds)."""
_ASCII_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
_GAME_ID = re.compile("[0-9a-z]{1,32}")
"""A game id as :func:`bot.model.new_game_id` makes them (a prefixed or mangled id, such
as a Discord custom_id's ``bb:<id>``, is no game id)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


MAX_NAME = 40
"""Characters of a person's name shown at most (the rest is cut to "…")."""
MAX_TITLE = 64
"""Characters of a chat's title shown at most (in each hand's "Mesa:" line, the pings)."""
_HIDDEN = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
"""Unicode's bidirectional controls and its zero-width spaces: a name holding one (a
trial: U+202E) turned the text after it around on the lobby and table lines, or showed
as nothing. Joiners (U+200C, U+200D) stay: emoji sequences and some scripts need them."""
_FLAG_LETTERS = "".join(chr(c) for c in range(0x1F1E6, 0x1F200))
"""Regional indicator letters: two make one flag (🇧🇷)."""


def clean_text(text: str, limit: int) -> str:
    """``text`` (a name or a title someone typed) as the bot shows it: composed (NFC),
    without the characters of :data:`_HIDDEN`, its runs of white space (line breaks too)
    one space, at most ``limit`` characters (cut to "…", never inside a flag's pair of
    letters or before an accent); ``""`` when nothing visible is left."""
    shown = " ".join(_HIDDEN.sub("", unicodedata.normalize("NFC", text)).split())
    if not any(ch.isprintable() for ch in shown):
        return ""
    if len(shown) > limit:
        cut = limit - 1
        while cut > 1 and unicodedata.combining(shown[cut]):
            cut -= 1  # a mark NFC could not compose goes with its letter
        flags = len(shown[:cut]) - len(shown[:cut].rstrip(_FLAG_LETTERS))
        shown = shown[:cut - flags % 2].rstrip() + "…"
    return shown


def clean_name(name: str) -> str:
    """A person's name as shown: :func:`clean_text` with :data:`MAX_NAME`, ``"?"`` when
    nothing visible is left."""
    return clean_text(name, MAX_NAME) or "?"


class ChatRef(_Frozen):
    """A group chat on one platform (``platform`` e.g. ``"tg"``, ``chat_id`` as text)."""

    platform: str
    chat_id: str
    title: str = ""

    @field_validator("title")
    @classmethod
    def _shown(cls, title: str) -> str:
        """The title as shown (:func:`clean_text`, :data:`MAX_TITLE`; a trial's title
        with a line break added lines to every hand that looked like the bot's own)."""
        return clean_text(title, MAX_TITLE)

    @property
    def key(self) -> str:
        """Store key of the chat: ``"tg:-100123"``."""
        return f"{self.platform}:{self.chat_id}"


class PlayerRef(_Frozen):
    """A person on one platform: ``user_id`` as text and the display ``name``
    (:func:`clean_name` of the name given)."""

    platform: str
    user_id: str
    name: str

    @field_validator("name")
    @classmethod
    def _shown(cls, name: str) -> str:
        return clean_name(name)

    @property
    def key(self) -> str:
        """Store key of the person: ``"tg:42"``."""
        return f"{self.platform}:{self.user_id}"


class Button(_Frozen):
    """One button: a ``label`` to show and the opaque ``data`` to pass back to ``press``."""

    label: str
    data: str = Field(max_length=MAX_DATA)


class CardFace(_Frozen):
    """One card of a hand view: position ``index`` (0-based) in the sorted hand, record
    ``code`` (``"10h"``), display ``text`` (``"10♥"``), ``red`` for hearts/diamonds,
    ``selected`` when picked, ``group`` > 0 when set aside as part of meld group N,
    ``drawn`` for the card its holder drew from the stock this turn."""

    index: int
    code: str
    text: str
    red: bool
    selected: bool = False
    group: int = 0
    drawn: bool = False


class View(_Frozen):
    """What one message shows: a ``title``, plain text ``lines``, rows of ``buttons``,
    and for a hand the ``cards``; ``version`` is the version its buttons carry."""

    title: str
    lines: list[str] = Field(default_factory=list)
    buttons: list[list[Button]] = Field(default_factory=list)
    cards: list[CardFace] = Field(default_factory=list)
    version: int = 0

    def text(self) -> str:
        """Title and lines joined by newlines (what a plain-text platform shows)."""
        return "\n".join([self.title, *self.lines])


class TableView(_Frozen):
    """Post or edit in place the chat's one table message (lobby, table, result)."""

    kind: Literal["table"] = "table"
    chat: ChatRef
    game_id: str
    view: View
    state_version: int = 0
    """The stored game version this view shows (0 when unknown): with several workers,
    an adapter drops a table older than the last one it showed."""
    prompt: bool = False
    """Shown at once, not coalesced with the 3 s gap of play (issue 30): a lobby (its
    edits are few, each awaited by the person who pressed) and the table that replaces
    it at the start. The platform's per-chat cap still holds."""
    opens_deal: bool = False
    """The table of a deal just dealt (issue 35): it carries the deal's commitment, so it
    is shown at once and the hands staged with it wait until it is out (a person sees
    the commitment on the table before any card of the deal)."""
    home: bool = True
    """The game's own chat (:attr:`bot.model.Game.chat`); False for another place of the
    table (issue 35, bot/places.py): the adapter keeps each place's message apart."""
    apart: bool = False
    """Coalesced apart from the chat's table (each ``game_id`` its own queue): a message
    that lives beside the table, such as a tournament's sign-up or a match's call (issue
    29), whose edit must not be replaced by the table's, nor the table's by it."""


class HandView(_Frozen):
    """Post or edit in place ``player``'s private hand message of this game (DM)."""

    kind: Literal["hand"] = "hand"
    chat: ChatRef
    game_id: str
    player: PlayerRef
    seat: int
    view: View


class Reply(_Frozen):
    """Answer the person who made this call (toast for a press, reply for a command)."""

    kind: Literal["reply"] = "reply"
    player: PlayerRef
    text: str
    alert: bool = False
    buttons: list[list[Button]] = Field(default_factory=list)
    """Buttons under a command's answer (issue 35: "Sair da fila" under ``/procurar``'s);
    a press's toast shows none."""
    mark: str = ""
    """A name the platform keeps the sent answer under, for this person, so a later
    :class:`Rewrite` of that name edits it: ``"queue"``, the answer to ``/procurar``
    with its "Sair da fila" button (issue 35). ``""``: not kept."""


class Rewrite(_Frozen):
    """The answer kept for ``player`` under ``mark`` (:attr:`Reply.mark`) edited to
    ``text`` with no buttons, then forgotten; nothing when none is kept (issue 35: the
    queue's message once the person's table formed, they left the queue or the entry
    expired, so no live "Sair da fila" is left)."""

    kind: Literal["rewrite"] = "rewrite"
    player: PlayerRef
    mark: str
    text: str


class Say(_Frozen):
    """A new message in the group: results, AFK notices, closing."""

    kind: Literal["say"] = "say"
    chat: ChatRef
    text: str


class Tell(_Frozen):
    """A private message to one person, not tied to a press."""

    kind: Literal["tell"] = "tell"
    player: PlayerRef
    chat: ChatRef
    text: str


class TurnPing(_Frozen):
    """A short new private message telling ``player`` it is their turn."""

    kind: Literal["turn"] = "turn"
    player: PlayerRef
    chat: ChatRef
    game_id: str
    text: str


class PingsOver(_Frozen):
    """No person is pinged for the turn now (a robot or an away person plays it, or the
    deal ended): the game's earlier turn pings are deleted, since they no longer say
    whose turn it is (a trial found "Sua vez" left in a DM while robots played)."""

    kind: Literal["unping"] = "unping"
    chat: ChatRef
    game_id: str
    state_version: int = 0
    """The stored game version whose save made it (0 when unknown)."""
    own_from: int | None = None
    """Every save of the game after this version, up to ``state_version``, was made by
    the worker that made this one (None: unknown). A worker that read the game's pings
    at a version not older than this, found none and sent none since, knows none was
    sent meanwhile (a ping comes with a save): it deletes nothing without reading
    (:class:`adapters.delivery.outbox.Delivery`, issue 36)."""


class Document(_Frozen):
    """A file for the chat (the record of a finished game); ``failed``: what the chat is
    told, in its language, when the platform refuses the file (never silence)."""

    kind: Literal["file"] = "file"
    chat: ChatRef
    filename: str
    content: str
    failed: str = ""


class Picture(_Frozen):
    """A picture for the chat (a finished match's chart, issue 29): PNG ``content``,
    ``caption`` its text for those who cannot see it (sent as the text alone when the
    platform refuses the picture)."""

    model_config = ConfigDict(frozen=True, ser_json_bytes="base64", val_json_bytes="base64")
    """As JSON (handed to another platform's process, adapters/delivery/relay.py) the
    PNG goes as base64."""

    kind: Literal["picture"] = "picture"
    chat: ChatRef
    filename: str
    content: bytes
    caption: str


class ReplayView(_Frozen):
    """A step of ``/replay`` (issue 29): the command posts it as a new message in the
    chat; a press of one of its step buttons edits the pressed message in place. Only
    public facts, as :class:`TableView` (bot/replay.py)."""

    kind: Literal["replay"] = "replay"
    chat: ChatRef
    game_id: str
    view: View


class Closed(_Frozen):
    """The game is gone: the adapter drops its buttons and stored message ids.

    ``final`` is the table as the game ends (no buttons, the reason it closed as its last
    line): the table message is edited to it, so a table edit still waiting in the
    coalescer (replaced by this closing) never leaves an older state on show. None: the
    table keeps its last text and only loses its buttons."""

    kind: Literal["closed"] = "closed"
    chat: ChatRef
    game_id: str
    final: View | None = None
    prompt: bool = False
    """Edited at once, as a lobby's edits are (:attr:`TableView.prompt`): a lobby closed."""
    home: bool = True
    """As :attr:`TableView.home`: False closes the table of another place of the game."""


Effect = Annotated[
    TableView | HandView | Reply | Say | Tell | TurnPing | PingsOver | Document | Picture
    | ReplayView | Closed | Rewrite,
    Field(discriminator="kind"),
]


def platform_of(effect: Effect) -> str:
    """The platform an effect is delivered on (issue 35: a table in several places): a
    person's (hand, reply, private word, turn ping) or else its chat's."""
    if isinstance(effect, HandView | Reply | Tell | TurnPing | Rewrite):
        return effect.player.platform
    return effect.chat.platform


def pack(game_id: str, version: int, code: str, arg: str | int = "") -> str:
    """Payload ``"<game_id>|<version>|<code>|<arg>"``; ``ValueError`` over 64 bytes."""
    data = f"{game_id}|{version}|{code}|{arg}"
    if len(data.encode()) > MAX_DATA:
        raise ValueError(f"button data over {MAX_DATA} bytes: {data!r}")
    return data


def number(text: str) -> int | None:
    """``text`` as a non-negative int when it is 1 to :data:`MAX_DIGITS` ASCII digits
    (``"17"`` -> 17), else None: ``"²"``, ``"٣"``, ``"-1"``, ``"1_000"``, ``" 7"`` and
    longer numbers are refused (``str.isdigit`` accepts the first two, ``int`` would then
    raise or accept them)."""
    return int(text) if _ASCII_NUMBER.fullmatch(text) else None


def unpack(data: str) -> tuple[str, int, str, str] | None:
    """``(game_id, version, code, arg)`` of a payload, or None when it is not one of ours
    (four ``|``-separated parts, the game id lowercase ASCII letters and digits, the
    version ASCII digits, see :func:`number`)."""
    parts = data.split("|")
    if len(parts) != 4 or not _GAME_ID.fullmatch(parts[0]) or not parts[2]:
        return None
    version = number(parts[1])
    if version is None:
        return None
    return parts[0], version, parts[2], parts[3]
