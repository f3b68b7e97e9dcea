"""The persisted state of one game (one store key, JSON): lobby, seats, the engine match.

The engine's match lives in ``Game.match`` as its own JSON; everything else here is the
service's: who sits where, who is away, each seat's card selection and button version,
the timers' reference times and the narration of the last moves (``last``: message ids
and their parameters, so each chat reads them in its own language; bot/narration.py).
"""

from __future__ import annotations

import base64
import secrets
import string
import threading
import zlib
from pathlib import Path
from typing import Any, Literal

import orjson
import zstandard
from pydantic import BaseModel, Field

from bot.effects import ChatRef, PlayerRef

Status = Literal["lobby", "playing", "between", "over"]
AI_LEVELS = ("facil", "normal", "dificil")
_LEVEL_ALIASES = {"fácil": "facil", "easy": "facil", "facile": "facil", "medio": "normal",
                  "médio": "normal", "medium": "normal", "difícil": "dificil", "hard": "dificil",
                  "difficile": "dificil", "": "normal"}
_ID_ALPHABET = string.ascii_lowercase + string.digits


def new_game_id() -> str:
    """A fresh 8-character game id (``secrets``), e.g. ``"k3f9qz2a"``."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))


def norm_level(text: str) -> str | None:
    """``facil`` / ``normal`` / ``dificil`` for ``text`` (accents, English, Italian), or None."""
    key = text.strip().lower()
    key = _LEVEL_ALIASES.get(key, key)
    return key if key in AI_LEVELS else None


class Group(BaseModel):
    """Hand cards (indices into the sorted hand) set aside for one move: a new meld
    (``onto`` None) or an extension of the side's meld ``onto``."""

    cards: list[int]
    onto: int | None = None
    wild: int = 0  # the slot chosen for its wild (issue 30, bot.staged); 0: the default


class Seat(BaseModel):
    """One seat: a person (``player``) or an AI (``ai`` level, ``player`` None).

    ``misses`` counts turn timeouts in a row; ``away`` means the AI plays for the person
    until they act or send ``/voltar``. ``ver`` is the version hand buttons carry;
    ``sel`` and ``groups`` are the person's current card selection. ``robot`` is the
    number in an AI seat's name (``"Robô 3"``), fixed when it joins so the name and level
    stay together when the seats are shuffled or someone leaves (0: a seat stored before,
    named by its position). ``seen`` is when the person last pressed a button of their
    hand (a card, an action), Unix seconds (0: never): a person seen within
    :data:`HAND_OPEN_S` of their turn's start has the hand open and is not pinged
    (:func:`hand_open`, issue 30). Showing the hand (``/mao``, "Minha mão") saves
    nothing, so it does not count.
    """

    player: PlayerRef | None = None
    ai: str | None = None
    robot: int = 0
    misses: int = 0
    away: bool = False
    ver: int = 1
    sel: list[int] = Field(default_factory=list)
    groups: list[Group] = Field(default_factory=list)
    seen: float = 0.0
    asked: ChatRef | None = None
    """The chat the person queued in (``/procurar``, issue 35), when a formed table put
    them at this game: their hand's and turn ping's "cannot write to you privately"
    notice goes there (their private chat, the table's place, may be closed)."""
    where: str = ""
    """The chat key of the place the person joined from (issue 35, bot/places.py): their
    turn pings, hand title and "cannot write to you" notice go there; ``""``: the game's
    own chat (every seat stored before places)."""

    @property
    def is_ai(self) -> bool:
        """True for an AI seat (not a person's seat taken over while away)."""
        return self.player is None

    @property
    def robot_plays(self) -> bool:
        """True when the AI decides this seat's moves (AI seat, or the person is away)."""
        return self.player is None or self.away

    def clear_pick(self) -> None:
        """Forget the selection and the groups set aside."""
        self.sel = []
        self.groups = []


HAND_OPEN_S = 120.0
"""A person who pressed a button of their hand this many seconds before
their turn starts is playing with the hand open: the turn is not pinged (a Discord deal
of two people got 22-34 "Sua vez" notifications, issue 30). It covers another person's
whole turn at the default timer (90 s) and the robots' steps; someone away longer (or who
never opened the hand) is pinged."""


def hand_open(seat: Seat, at: float) -> bool:
    """Whether the person of ``seat`` has the hand open at ``at`` (Unix seconds): seen
    within :data:`HAND_OPEN_S` before it. Read from the stored game alone, so every
    worker decides the same (never from a worker's memory)."""
    return seat.player is not None and seat.seen > 0 and at - seat.seen <= HAND_OPEN_S


class Game(BaseModel):
    """Everything stored under one game key (see module docstring). Times are Unix seconds."""

    id: str
    chat: ChatRef
    creator: PlayerRef
    lang: str = "pt"
    status: Status = "lobby"
    preset: str
    options: dict[str, Any] = Field(default_factory=dict)
    timer_s: int = 90
    shuffle: bool = False
    seats: list[Seat] = Field(default_factory=list)
    created: float
    touched: float
    turn_since: float = 0.0
    step_at: float = 0.0
    deal_end_at: float = 0.0
    last: list[tuple[str, dict[str, Any]]] = Field(default_factory=list)
    match: dict[str, Any] | None = None
    deals: list[list[int]] = Field(default_factory=list)
    winner: int | None = None
    places: list[ChatRef] = Field(default_factory=list)
    """Chats besides ``chat`` where the table is shown too (issue 35, bot/places.py): a
    group, a channel or a private chat, on either platform. A game stored before places
    has none: its one place is ``chat``."""
    said: list[tuple[int, int, float]] = Field(default_factory=list)
    """The last preset phrases said at the table (issue 35, bot/phrases.py): ``(seat,
    phrase index, Unix seconds)``, oldest first."""
    matched: bool = False
    """Formed by the queue to find players (issue 35, bot/matchmaking.py)."""
    coach: bool = False
    """The coach (``/dica``, ``/revisao``, issue 37, bot/coach.py) at this table: set
    from the group's ``/config dicas`` when the table opens (on unless turned off);
    False for a game stored before, and never used at a matchmade table."""
    invites: dict[str, float] = Field(default_factory=dict)
    """Live invitation codes of the lobby (bot/invites.py): code -> Unix seconds it
    expires. Taking a seat with one removes it in the same save (one seat each)."""

    def all_places(self) -> list[ChatRef]:
        """Every place of the table: its own chat first, then :attr:`places`."""
        return [self.chat, *self.places]

    def place_of(self, seat: int) -> ChatRef:
        """The place seat ``seat``'s person joined from (:attr:`Seat.where`): that place
        when the game still has it, else the game's own chat."""
        where = self.seats[seat].where
        return next((p for p in self.places if p.key == where), self.chat) if where else self.chat

    def notices_of(self, seat: int) -> ChatRef:
        """Where seat ``seat``'s private effects name as their chat (the refused-DM
        notice): the chat they queued in (:attr:`Seat.asked`), else their place."""
        return self.seats[seat].asked or self.place_of(seat)

    def robots(self) -> int:
        """How many AI seats the table has (seats taken over while away not counted)."""
        return sum(1 for s in self.seats if s.is_ai)

    def seat_of(self, player: PlayerRef) -> int | None:
        """The seat index of ``player`` (by platform key), or None."""
        for i, seat in enumerate(self.seats):
            if seat.player is not None and seat.player.key == player.key:
                return i
        return None

    def paused(self) -> bool:
        """Whether every person at the table is away, so the robots wait with them
        (bot/timers.py) until someone sends /voltar."""
        return all(s.away for s in self.seats if s.player is not None)

    def humans(self) -> list[tuple[int, PlayerRef]]:
        """``(seat, player)`` of every person at the table, in seat order."""
        return [(i, s.player) for i, s in enumerate(self.seats) if s.player is not None]

    def robot_number(self, seat: int) -> int:
        """The number in the name of AI seat ``seat`` (``Seat.robot``, else its position)."""
        return self.seats[seat].robot or seat + 1

    def next_robot_number(self) -> int:
        """The number a robot joining now is named by: the seat it takes, or the next one
        no robot at the table is named by (after seats moved)."""
        taken = {self.robot_number(i) for i, s in enumerate(self.seats) if s.is_ai}
        n = len(self.seats) + 1
        while n in taken:
            n += 1
        return n

    def name_of(self, seat: int) -> str:
        """Display name of a seat (``"Robô 2"`` for AI seats, see :meth:`robot_number`)."""
        s = self.seats[seat]
        return s.player.name if s.player is not None else f"Robô {self.robot_number(seat)}"


PACKED = "z1:"
"""Prefix of a compressed state of the first encoding: ``"z1:" + base64(zlib(JSON))``;
still read, and written when ``compress="z1"``."""
PACKED_DICT = "z2:"
"""Prefix of ``"z2:" + base64(zlib(JSON))``, deflated at level 1 with :data:`STATE_DICT`
as preset dictionary (issue 13, first pass): about 25% fewer bytes than ``"z1:"``. Read
by every release since the one that introduced it; written with ``"z2"``
(``STATE_CODEC=z2``), for a rolling deploy from a release that reads no ``"z3:"``."""
PACKED_ZSTD = "z3:"
"""Prefix of ``"z3:" + base64(zstd(JSON))`` (issue 13, third pass): Zstandard level 3
with :data:`STATE_DICT` as raw-content dictionary and a checksum; the compression 2-3x
faster to write and to read than ``"z2:"``'s and the state about 20% smaller
(bench/README.md "Service speed (issue 13)", "Third pass"). Written by default
(:data:`DEFAULT_CODEC`), read by every release since 99e6f03."""
STATE_DICT = (Path(__file__).with_name("state-dict-1.bin")).read_bytes()
"""The preset dictionary of ``"z2:"`` and ``"z3:"`` (the JSON of three seeded games,
bench/_state_dict.py, 11,773 bytes). Frozen: every such state needs these very bytes
(the zlib header names their Adler-32); a new dictionary needs a new prefix."""
_DEFLATE = zlib.compressobj(1, zlib.DEFLATED, 15, 5, zlib.Z_DEFAULT_STRATEGY, STATE_DICT)
"""A compressor primed with :data:`STATE_DICT`, copied for each state (priming a new one
costs about 8x the compression of a state)."""
_ZSTD_DICT = zstandard.ZstdCompressionDict(STATE_DICT,
                                           dict_type=zstandard.DICT_TYPE_RAWCONTENT)
_ZSTD_DICT.precompute_compress(level=3)  # else each compression digests the dictionary
_ZSTD_LOCAL = threading.local()
"""Each thread's own compressor and decompressor (zstandard's are not thread-safe; a new
one per state would cost about 2.5x the compression)."""
MAX_STATE_BYTES = 1 << 20
"""Largest JSON a ``"z3:"`` frame may declare (1 MiB; the largest state seen is about
12 KB): a damaged header claiming more is refused before any memory is taken for it."""
Codec = bool | Literal["z1", "z2", "z3"]
"""How :func:`encode` writes: ``"z3"`` (or ``True``) Zstandard with the dictionary,
``"z2"`` zlib with it, ``"z1"`` zlib without, ``False`` plain JSON."""
CODECS: tuple[Codec, ...] = (True, False, "z1", "z2", "z3")
READ_CODECS = ("z1", "z2", "z3")
"""The packed forms this release reads (and plain JSON), as its workers log at start-up:
docs/deploy.md "Rolling deploys" tells an operator to look for it."""
DEFAULT_CODEC: Codec = "z3"
"""The form written unless told otherwise (:class:`bot.service.Service`, ``STATE_CODEC``):
``"z3"``, which the previous release (99e6f03, the first to log "reads z1, z2, z3") reads
too, so a rolling deploy from it is safe; ``"z2"`` for a roll from an older release
(docs/deploy.md "Rolling deploys")."""


def check_codec(compress: object) -> Codec:
    """``compress`` when it is one of :data:`CODECS`; ``ValueError`` naming them
    otherwise (a typo must not silently write another form)."""
    for codec in CODECS:
        if compress is codec or (isinstance(compress, str) and compress == codec):
            return codec
    raise ValueError(f"compress must be one of True, False, 'z1', 'z2', 'z3', not {compress!r}")


def to_json(game: Game) -> bytes:
    """``game`` as compact UTF-8 JSON, ``match`` last. The engine's match is plain JSON
    data (``dict[str, Any]``), which orjson writes about 4x faster than pydantic's
    serializer infers the types of ``Any`` (issue 13); the rest is pydantic's."""
    head = game.model_dump_json(exclude={"match"}).encode()
    return b"".join((head[:-1], b',"match":', orjson.dumps(game.match), b"}"))


def encode(game: Game, compress: Codec = DEFAULT_CODEC) -> str:
    """The stored text of ``game``: its JSON (:func:`to_json`), compressed as ``compress``
    says (:data:`Codec`; a mid-deal state shrinks about 4x with ``"z1"``, 5x with
    ``"z2"`` and 6x with ``"z3"``, bench/README.md "Service speed (issue 13)").
    ``ValueError`` for another ``compress`` (:func:`check_codec`)."""
    raw = to_json(game)
    if compress is False:
        return raw.decode()
    if compress == "z1":
        return PACKED + base64.b64encode(zlib.compress(raw, 1)).decode()  # fast level
    if compress == "z2":
        deflate = _DEFLATE.copy()
        packed = deflate.compress(raw) + deflate.flush()
        return PACKED_DICT + base64.b64encode(packed).decode()
    if compress is not True and compress != "z3":
        check_codec(compress)  # raises
    return PACKED_ZSTD + base64.b64encode(_zstd()[0].compress(raw)).decode()


def _zstd() -> tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor]:
    """This thread's ``"z3:"`` compressor and decompressor (made on first use)."""
    pair: tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor] | None = getattr(
        _ZSTD_LOCAL, "pair", None)
    if pair is None:
        pair = (zstandard.ZstdCompressor(level=3, dict_data=_ZSTD_DICT, write_checksum=True,
                                         write_dict_id=False),
                zstandard.ZstdDecompressor(dict_data=_ZSTD_DICT))
        _ZSTD_LOCAL.pair = pair
    return pair


def _inflate(data: bytes) -> bytes:
    """The JSON of a ``"z2:"`` state's bytes; ``zlib.error`` when they are not one whole
    stream made with :data:`STATE_DICT`."""
    inflate = zlib.decompressobj(15, STATE_DICT)
    raw = inflate.decompress(data)
    if not inflate.eof or inflate.unused_data:
        raise zlib.error("truncated or trailing data")
    return raw


def _unzstd(data: bytes) -> bytes:
    """The JSON of a ``"z3:"`` state's bytes; ``zstandard.ZstdError`` when they are not
    one whole frame (nothing after it) made with :data:`STATE_DICT`, its checksum and
    declared size met, or when it declares no size or more than :data:`MAX_STATE_BYTES`."""
    size = zstandard.frame_content_size(data)  # ZstdError on a damaged header
    if not 0 <= size <= MAX_STATE_BYTES:
        raise zstandard.ZstdError("missing or oversized content size")
    unpack = _zstd()[1].decompressobj()
    raw = unpack.decompress(data)
    if not unpack.eof or unpack.unused_data or len(raw) != size:
        raise zstandard.ZstdError("truncated or trailing data")
    return raw


class CorruptGame(Exception):
    """A stored game that cannot be read: its encoding, its JSON, a field of it or its
    engine match is damaged. ``str(err)`` names the kind of damage only (never the
    content, which may hold hidden cards)."""


def decode(text: str, game_id: str | None = None) -> Game:
    """Inverse of :func:`encode` for every encoding ever stored (``"z3:"``, ``"z2:"``,
    ``"z1:"``, plain JSON; orjson then pydantic);
    :class:`CorruptGame` when ``text`` is no stored game, or, given the ``game_id`` of
    the key it was read from, when it is another game's state (a trial copied one game's
    state into another's key: that group saw the other group's match)."""
    game = _decoded(text)
    if game_id is not None and game.id != game_id:
        raise CorruptGame("another game's state")
    return game


def _decoded(text: str) -> Game:
    """:func:`decode` without the key's check."""
    try:
        data: str | bytes = text
        if text.startswith(PACKED_ZSTD):
            data = _unzstd(base64.b64decode(text[len(PACKED_ZSTD):]))
        elif text.startswith(PACKED_DICT):
            data = _inflate(base64.b64decode(text[len(PACKED_DICT):]))
        elif text.startswith(PACKED):
            data = zlib.decompress(base64.b64decode(text[len(PACKED):]))
        return Game.model_validate(orjson.loads(data))
    except (ValueError, zlib.error, zstandard.ZstdError) as err:  # base64, JSON, UTF-8, pydantic
        raise CorruptGame(type(err).__name__) from None
