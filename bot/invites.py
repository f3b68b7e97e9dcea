"""Invitations across chats and platforms (issue 35): pure use cases on a loaded game.

``/convidar`` in a lobby makes a short code (:func:`new_code`); someone in any other
chat, on either platform, takes a seat with ``/entrar <código>`` (or the Telegram link
``t.me/<bot>?start=c<código>``), and the chat they sent it from becomes a place of the
table (bot/places.py). The live codes live in the game's own state
(:attr:`bot.model.Game.invites`, code -> expiry), so taking a seat and using up the code
are one compare-and-set of the game (one Redis slot): two people with the same code never
both sit, a double press seats once, and a process that dies before the save leaves the
code unused. A Redis key per code (:meth:`bot.ports.GameStore.put_invite`) only finds the
game; it expires with the code (a used code's key stays until then, so a redelivered
``/entrar`` finds the game that recorded it as applied and changes nothing).
"""

from __future__ import annotations

import secrets

from bot import lobby, places, views
from bot.effects import ChatRef, PlayerRef
from bot.i18n import N_
from bot.model import Game, Seat
from bot.outcome import Outcome, Refusal

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""31 characters without the look-alikes 0/O, 1/I/L: a code read aloud or copied from a
phone's screen is typed right."""
CODE_LEN = 8
"""31**8 (about 8.5e11) codes: guessing a live one among a few thousand, at the bot's
rate limits, within its 30 minutes, is hopeless."""
INVITE_TTL_S = 1_800
"""How long a code seats someone (``INVITE_TTL_S``, default 30 minutes)."""
GONE = N_("Esse convite não vale mais (já usado, retirado ou vencido). Peça um novo a quem "
          "abriu a mesa.")
BAD_CODE = N_("Código de convite inválido: confira as 8 letras e números.")
NOT_SEATED = N_("Só quem está na mesa pode convidar.")
NO_SEATS = N_("Não há lugar livre para mais um convite: a mesa está cheia ou cada lugar já "
              "tem um convite.")
ONLY_CREATOR_WITHDRAWS = N_("Só quem abriu a mesa pode retirar convites.")
NONE_TO_WITHDRAW = N_("Não há convite para retirar.")
OTHER_GAME_HERE = N_("Este chat já tem uma mesa: termine-a ou use o convite em outro chat "
                     "(por exemplo, no privado com o bot).")
CODE_NEEDED = N_("Para sentar nesta mesa daqui é preciso um código de convite: peça um a "
                 "quem está na mesa (/convidar) e mande /entrar <código>.")


def new_code() -> str:
    """A fresh invitation code: :data:`CODE_LEN` characters of :data:`ALPHABET`
    (``secrets``), e.g. ``"K7QX3MPA"``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def norm_code(text: str) -> str | None:
    """The code ``text`` names (case, spaces and dashes ignored: ``"k7qx-3mpa"``), or
    None when it cannot be one (another length or a character outside :data:`ALPHABET`)."""
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LEN or any(ch not in ALPHABET for ch in code):
        return None
    return code


def live(game: Game, now: float) -> dict[str, float]:
    """The game's codes that have not expired at ``now``."""
    return {code: exp for code, exp in game.invites.items() if exp > now}


def invite(game: Game, user: PlayerRef, code: str, now: float, ttl_s: float) -> Outcome:
    """Add invitation ``code`` to the lobby, valid ``ttl_s`` seconds: by a person seated
    at it, while it has a free seat no other live code is for (one seat each). Expired
    codes are dropped on the way. Raises :class:`Refusal` otherwise."""
    lobby.require_lobby(game)
    if game.seat_of(user) is None:
        raise Refusal(NOT_SEATED)
    game.invites = live(game, now)
    if len(game.seats) + len(game.invites) >= lobby.max_seats(game):
        raise Refusal(NO_SEATS)
    game.invites[code] = now + ttl_s
    game.touched = now
    return Outcome()


def withdraw(game: Game, user: PlayerRef, code: str | None, now: float) -> Outcome:
    """The creator withdraws invitation ``code`` (None: every one of the lobby)."""
    lobby.require_lobby(game)
    if user.key != game.creator.key:
        raise Refusal(ONLY_CREATOR_WITHDRAWS)
    kept = live(game, now)
    if not kept or (code is not None and code not in kept):
        raise Refusal(NONE_TO_WITHDRAW)
    game.invites = {} if code is None else {c: e for c, e in kept.items() if c != code}
    game.touched = now
    return Outcome()


def take_seat(game: Game, user: PlayerRef, code: str, chat: ChatRef, now: float) -> Outcome:
    """Seat ``user`` with invitation ``code``, sent from ``chat``: the code is used up in
    this same change, and ``chat`` becomes a place of the table (when it is not one).
    Refused (nothing changes, the code stays): a code the lobby has not (or no longer),
    a person already seated, a full table, a game already started."""
    lobby.require_lobby(game)
    if live(game, now).get(code) is None:
        raise Refusal(GONE)
    if game.seat_of(user) is not None:
        raise Refusal(N_("Você já está na mesa."))
    if len(game.seats) >= lobby.max_seats(game):
        raise Refusal(N_("A mesa está cheia."))
    del game.invites[code]
    home = chat.key == game.chat.key
    if not home:
        places.add_place(game, chat)
    game.seats.append(Seat(player=user, where="" if home else chat.key))
    game.touched = now
    return Outcome([views.table_effect(game)])


def join_from(game: Game, user: PlayerRef, chat: ChatRef | None, now: float) -> Outcome:
    """Entrar (the button or ``/entrar`` with no code) pressed in ``chat``: in the game's
    own chat (or where the platform names none) it is :func:`bot.lobby.join`; in another
    place of a lobby (a chat that joined by code) only a code seats someone, since each
    code is good for one seat (docs/guia.md §7): refused with :data:`CODE_NEEDED`. A
    person seated there who left while the game runs takes their seat back as anywhere."""
    if (chat is not None and chat.key != game.chat.key and game.status == "lobby"
            and game.seat_of(user) is None):
        raise Refusal(CODE_NEEDED)
    return lobby.join(game, user, now)
