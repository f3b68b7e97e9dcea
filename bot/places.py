"""A table in several places (issue 35; DESIGN "A table in several places").

A game's places are its own chat (:attr:`bot.model.Game.chat`) and the chats in
:attr:`bot.model.Game.places`: groups, channels or private chats, on either platform. The
use cases make their public effects (the table, the group notices, the closing) for the
game's own chat only; :func:`spread` copies each of them to every other place, once, when
the service returns them, so one game is one game wherever it is shown. Effects meant for
one person (a hand, a reply, a private word, a turn ping) are not copied: they go to that
person on their own platform (:func:`bot.effects.platform_of`).

Each platform's process delivers the effects of its own platform and hands the others to
the processes of theirs (adapters/delivery/relay.py).
"""

from __future__ import annotations

from bot.effects import (
    ChatRef,
    Closed,
    Effect,
    Picture,
    PingsOver,
    Say,
    TableView,
    View,
    unpack,
)
from bot.model import Game

JOIN = "j"
"""The action code of the lobby's "Entrar" (bot/views.py ``lobby_view``)."""
MAX_PLACES = 8
"""Places a table may have besides its own chat: one per seat of the largest table (4)
would do; a little more for spectators' chats (DESIGN: each place is one message edited
under its platform's limits, so they are bounded)."""


def spread(game: Game, effects: list[Effect]) -> list[Effect]:
    """``effects`` with each public effect of the game's own chat (table, notice,
    picture, closing) followed by its copy for every other place of ``game``; a game with
    no other place gets ``effects`` unchanged. A message kept apart from the table (a
    tournament's call, :attr:`TableView.apart`) and the record's file stay in the game's
    own chat. A :class:`PingsOver` is copied once per other platform (turn pings are
    kept per platform)."""
    if not game.places:
        return effects
    home = game.chat.key
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        if isinstance(effect, TableView) and effect.chat.key == home and not effect.apart:
            away = _without_join(effect.view) if game.status == "lobby" else effect.view
            out += [effect.model_copy(update={"chat": p, "home": False, "view": away})
                    for p in game.places]
        elif isinstance(effect, Closed) and effect.chat.key == home:
            out += [effect.model_copy(update={"chat": p, "home": False}) for p in game.places]
        elif isinstance(effect, Say | Picture) and effect.chat.key == home:
            out += [effect.model_copy(update={"chat": p}) for p in game.places]
        elif isinstance(effect, PingsOver) and effect.chat.key == home:
            seen = {game.chat.platform}
            for p in game.places:
                if p.platform not in seen:
                    seen.add(p.platform)
                    out.append(effect.model_copy(update={"chat": p}))
    return out


def _without_join(view: View) -> View:
    """A lobby's view for a place other than the game's own chat: without "Entrar"
    (code ``j``), which only a code seats from there (:func:`bot.invites.join_from`
    refuses it, issue 35): a button that cannot work is not offered. The Telegram
    "Entrar e abrir o privado" link goes with it (it follows the button)."""
    rows = [[b for b in row if (unpack(b.data) or ("", 0, "", ""))[2] != JOIN]
            for row in view.buttons]
    return view.model_copy(update={"buttons": [row for row in rows if row]})


def has_place(game: Game, chat: ChatRef) -> bool:
    """Whether ``chat`` is one of the game's places (its own chat included)."""
    return any(p.key == chat.key for p in game.all_places())


def add_place(game: Game, chat: ChatRef) -> bool:
    """Make ``chat`` a place of ``game`` (the chat a person joined from with an
    invitation); False when it is one already or the game has :data:`MAX_PLACES`
    (the table then is not shown there, the person still plays from their hand)."""
    if has_place(game, chat) or len(game.places) >= MAX_PLACES:
        return False
    game.places.append(chat)
    return True
