"""Lobby use cases on a loaded game: open, join, leave, add AI, shuffle, start, cancel.

Pure functions over :class:`bot.model.Game` (no I/O): they raise
:class:`bot.outcome.Refusal` or mutate the game and return an :class:`Outcome`. Teams
follow seat order (RULES §1); with ``shuffle`` on, seats are shuffled with
``secrets.SystemRandom`` at the start.
"""

from __future__ import annotations

import secrets
from typing import Any

from bot import play, views
from bot.effects import ChatRef, PlayerRef
from bot.i18n import N_
from bot.model import Game, Seat, norm_level
from bot.outcome import Outcome, Refusal
from engine.errors import IllegalAction
from engine.rules import Rules, make_rules

SERVICE_OPTIONS = {"timer", "shuffle", "sortear", "tempo"}
_TRUE = {"1", "true", "sim", "yes", "on", "si"}
MIN_TIMER_S, MAX_TIMER_S = 15, 3600


def parse_args(args: str, default_timer: int) -> tuple[str, dict[str, Any], int, bool]:
    """``"tranca target=3000 timer=60"`` -> (preset, engine options, timer_s, shuffle).

    Raises :class:`Refusal` with the engine's reason for an unknown preset or
    option, or a bad timer (15..3600 s).
    """
    preset = "buraco"
    options: dict[str, Any] = {}
    timer, shuffle = default_timer, False
    for i, token in enumerate(args.split()):
        if "=" not in token:
            if i > 0:
                raise Refusal(N_("Não entendi {token!r}: use opção=valor."), token=token)
            preset = token
            continue
        key, value = (p.strip() for p in token.split("=", 1))
        key = key.lower()
        if key in ("timer", "tempo"):
            if not value.isdigit() or not MIN_TIMER_S <= int(value) <= MAX_TIMER_S:
                raise Refusal(N_("Tempo de jogada inválido: use timer=15 a timer=3600 (segundos)."))
            timer = int(value)
        elif key in ("shuffle", "sortear"):
            shuffle = value.lower() in _TRUE
        else:
            options[key] = value
    rules_of(preset, options)
    return play.preset_key(preset), options, timer, shuffle


def rules_of(preset: str, options: dict[str, Any]) -> Rules:
    """The engine rules, or :class:`Refusal` with the engine's reason."""
    try:
        return make_rules(preset, options)
    except IllegalAction as err:
        raise play.refusal(err) from None


def open_game(gid: str, chat: ChatRef, user: PlayerRef, args: str, lang: str, now: float,
              default_timer: int) -> Game:
    """A new lobby with ``user`` in seat 0 (raises :class:`Refusal` for bad args)."""
    preset, options, timer, shuffle = parse_args(args, default_timer)
    return Game(id=gid, chat=chat, creator=user, lang=lang, preset=preset, options=options,
                timer_s=timer, shuffle=shuffle, seats=[Seat(player=user)], created=now,
                touched=now)


def _lobby(game: Game) -> None:
    if game.status != "lobby":
        raise Refusal(N_("A partida já começou."))


def _creator(game: Game, user: PlayerRef, what: str) -> None:
    if user.key != game.creator.key:
        raise Refusal(what)


def max_seats(game: Game) -> int:
    """Most seats the preset allows."""
    return max(rules_of(game.preset, game.options).players_allowed)


def join(game: Game, user: PlayerRef, now: float) -> Outcome:
    """Seat ``user`` in the next free seat."""
    _lobby(game)
    if game.seat_of(user) is not None:
        raise Refusal(N_("Você já está na mesa."))
    if len(game.seats) >= max_seats(game):
        raise Refusal(N_("A mesa está cheia."))
    game.seats.append(Seat(player=user))
    game.touched = now
    return Outcome([views.table_effect(game)])


def leave(game: Game, user: PlayerRef, now: float) -> Outcome:
    """Take ``user`` off the lobby; the creator's role passes to the next person, and a
    lobby with no person left closes."""
    _lobby(game)
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal(N_("Você não está na mesa."))
    del game.seats[seat]
    game.touched = now
    humans = game.humans()
    if not humans:
        return closing(game, N_("Mesa fechada: todos saíram."))
    if user.key == game.creator.key:
        game.creator = humans[0][1]
    return Outcome([views.table_effect(game)])


def add_ai(game: Game, user: PlayerRef, level_text: str, now: float) -> Outcome:
    """The creator adds an AI seat of level ``facil`` / ``normal`` / ``dificil``."""
    _lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode adicionar robôs."))
    level = norm_level(level_text)
    if level is None:
        raise Refusal(N_("Nível desconhecido: use facil, normal ou dificil."))
    if len(game.seats) >= max_seats(game):
        raise Refusal(N_("A mesa está cheia."))
    game.seats.append(Seat(ai=level))
    game.touched = now
    return Outcome([views.table_effect(game)])


def toggle_shuffle(game: Game, user: PlayerRef, now: float) -> Outcome:
    """The creator switches shuffling the seats (and so the teams) at the start."""
    _lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode mudar isso."))
    game.shuffle = not game.shuffle
    game.touched = now
    return Outcome([views.table_effect(game)])


def start(game: Game, user: PlayerRef, now: float, deck_fn: play.DeckFn | None = None) -> Outcome:
    """The creator starts the match when the seat count is valid for the preset."""
    _lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode iniciar."))
    rules = rules_of(game.preset, game.options)
    n = len(game.seats)
    if n not in rules.players_allowed:
        allowed = ", ".join(str(k) for k in rules.players_allowed)
        raise Refusal(N_("Esta variante joga com {allowed} jogadores; a mesa tem {n}."),
                      allowed=allowed, n=n)
    if game.shuffle:
        secrets.SystemRandom().shuffle(game.seats)
    game.match = play.new_match(rules, [game.name_of(i) for i in range(n)], deck_fn)
    game.status = "playing"
    game.touched = game.turn_since = game.step_at = now
    game.last = [(N_("A partida começou."), {})]
    return Outcome(views.after_move_effects(game, {*range(n)}, ping=True))


def closing(game: Game, why: str, tell: bool = False, **kw: Any) -> Outcome:
    """Close the game (cancelled, abandoned, idle): announce ``why`` in the group (and,
    with ``tell``, to each person privately), drop the table. A started game keeps its
    record; a lobby that never started is deleted."""
    started = game.match is not None
    game.status = "over"
    return Outcome(views.closing_effects(game, why, tell, **kw), closed=True,
                   delete=not started)


def cancel(game: Game, user: PlayerRef, is_admin: bool) -> Outcome:
    """Close the game by its creator or a chat admin."""
    if user.key != game.creator.key and not is_admin:
        raise Refusal(N_("Só quem abriu a mesa ou um admin do grupo pode cancelar."))
    return closing(game, N_("Jogo cancelado por {name}."), name=user.name)
