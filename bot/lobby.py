"""Lobby use cases on a loaded game: open, join, leave, add AI, shuffle, start, cancel.

Pure functions over :class:`bot.model.Game` (no I/O): they raise
:class:`bot.outcome.Refusal` or mutate the game and return an :class:`Outcome`. Teams
follow seat order (RULES §1); with ``shuffle`` on, seats are shuffled with
``secrets.SystemRandom`` at the start.
"""

from __future__ import annotations

import secrets
from typing import Any

from bot import play, variants, views
from bot.buttons import UNKNOWN
from bot.effects import ChatRef, Effect, PlayerRef, number
from bot.i18n import N_, Translator
from bot.model import Game, Seat, norm_level
from bot.outcome import Choices, Outcome, Refusal, echo
from engine.errors import IllegalAction
from engine.rules import Rules, make_rules

SERVICE_OPTIONS = {"timer", "shuffle", "sortear", "tempo"}
_SAME_OPTION = {"tempo": "timer", "sortear": "shuffle", "robos": "robots", "robôs": "robots",
                "robot": "robots"}
"""Options with two names: ``timer=60 tempo=90`` gives the same option twice."""
_TRUE = {"1", "true", "sim", "yes", "on", "si", "sì"}
_FALSE = {"0", "false", "nao", "não", "no", "off"}
MIN_TIMER_S, MAX_TIMER_S = 15, 3600


def button_number(arg: str) -> int:
    """The number a lobby or table button carries (seat, deal); an old button without
    one, or a forged one, is refused (issue 12 item 2)."""
    value = number(arg)
    if value is None:
        raise Refusal(N_("Esse botão é antigo: use a mesa mais recente."))
    return value


def button_flag(arg: str) -> bool:
    """The on/off value a switch button sets (``"1"`` / ``"0"``); another number was
    never on a button."""
    if arg not in ("0", "1"):
        button_number(arg)
        raise Refusal(UNKNOWN)
    return arg == "1"


def parse_args(args: str, default_timer: int) -> tuple[str, dict[str, Any], int, bool]:
    """``"tranca target=3000 timer=60"`` -> (preset, engine options, timer_s, shuffle);
    without a preset (``""``, ``"target=3000"``), :data:`bot.variants.DEFAULT_PRESET`.

    Raises :class:`Refusal` with the engine's reason for an unknown preset or
    option, or a bad timer (15..3600 s), and for an option given twice
    (``target=3000 target=2000``, or ``timer=`` and ``tempo=``): nothing is guessed. A
    repeat is told before any value is checked (``tempo=5 timer=5`` is a repeat).
    """
    preset = variants.DEFAULT_PRESET  # RULES A0: no variant named, Bossa Nova
    options: dict[str, Any] = {}
    timer, shuffle = default_timer, False
    no_repeats(args)
    for i, token in enumerate(args.split()):
        if "=" not in token:
            if i > 0:
                raise Refusal(N_("Não entendi {token!r}: use opção=valor."), token=echo(token))
            preset = token
            continue
        key, value = (p.strip() for p in token.split("=", 1))
        key = key.lower()
        if not key or not value:  # "target=" is no one-deal match, "=5" no option
            raise Refusal(N_("Não entendi {token!r}: use opção=valor."), token=echo(token))
        if key in ("timer", "tempo"):
            seconds = number(value)
            if seconds is None or not MIN_TIMER_S <= seconds <= MAX_TIMER_S:
                raise Refusal(N_("Tempo de jogada inválido: use {key}=15 a {key}=3600 "
                                 "(segundos)."), key=key)  # the name typed: tempo or timer
            timer = seconds
        elif key in ("shuffle", "sortear"):
            if value.lower() not in _TRUE | _FALSE:
                raise Refusal(N_("Sortear duplas: use {key}=sim ou {key}=não."), key=key)
            shuffle = value.lower() in _TRUE
        else:
            options[key] = value
    rules_of(preset, options)
    return play.preset_key(preset), options, timer, shuffle


def no_repeats(args: str) -> None:
    """:class:`Refusal` naming the first option given twice in ``args`` (by either of its
    names, :data:`_SAME_OPTION`)."""
    given: set[str] = set()
    for token in args.split():
        if "=" in token:
            key = token.split("=", 1)[0].strip().lower()
            same = _SAME_OPTION.get(key, key)
            if same in given:
                raise Refusal(N_("Opção repetida: {key}. Dê cada opção uma vez só."),
                              key=echo(key))
            given.add(same)


def rules_of(preset: str, options: dict[str, Any]) -> Rules:
    """The engine rules, or :class:`Refusal` with the engine's reason (an unknown option
    is refused with the options ``preset`` takes)."""
    try:
        return make_rules(preset, options)
    except IllegalAction as err:
        raise play.refusal(err, preset) from None


def open_game(gid: str, chat: ChatRef, user: PlayerRef, args: str, lang: str, now: float,
              default_timer: int) -> Game:
    """A new lobby with ``user`` in seat 0 (raises :class:`Refusal` for bad args)."""
    preset, options, timer, shuffle = parse_args(args, default_timer)
    return Game(id=gid, chat=chat, creator=user, lang=lang, preset=preset, options=options,
                timer_s=timer, shuffle=shuffle, seats=[Seat(player=user)], created=now,
                touched=now)


def require_lobby(game: Game) -> None:
    """Refuse anything that needs the lobby once ``game`` has started. A lobby button
    (Entrar, Sair, Robô, Sortear duplas, Iniciar, Cancelar) pressed after the start came
    from a message the table has replaced (or was forged): it changes nothing, whatever
    its code; leaving or cancelling a running game takes /sair and /cancelar.

    Raises :class:`Refusal` "A partida já começou." (or "Esta partida terminou.") unless
    ``game`` is still in its lobby."""
    if game.status == "over":  # a trial: "/start j<id>" of a cancelled game said "began"
        raise Refusal(N_("Esta partida terminou."))
    if game.status != "lobby":
        raise Refusal(N_("A partida já começou."))


def _creator(game: Game, user: PlayerRef, what: str) -> None:
    if user.key != game.creator.key:
        raise Refusal(what)


def max_seats(game: Game) -> int:
    """Most seats the preset allows."""
    return max(play.rules_of(game).players_allowed)


def join(game: Game, user: PlayerRef, now: float) -> Outcome:
    """Seat ``user`` in the next free seat; in a running game, a person whose seat the
    AI keeps (they left, or timed out twice) takes it back (issue 12 item 4)."""
    seat = game.seat_of(user)
    if game.status in ("playing", "between") and seat is not None and game.seats[seat].away:
        return come_back(game, user, now)
    require_lobby(game)
    if seat is not None:
        raise Refusal(N_("Você já está na mesa."))
    if len(game.seats) >= max_seats(game):
        raise Refusal(N_("A mesa está cheia."))
    game.seats.append(Seat(player=user))
    game.touched = now
    return Outcome([views.table_effect(game)])


def leave(game: Game, user: PlayerRef, now: float) -> Outcome:
    """Take ``user`` off the lobby; the creator's role passes to the next person, and a
    lobby with no person left closes. In a running game the seat stays theirs and the
    AI plays it until they send /voltar or /entrar (issue 12 item 4)."""
    seat = game.seat_of(user)
    if game.status in ("playing", "between"):
        return _leave_running(game, seat, now)
    require_lobby(game)
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


def _leave_running(game: Game, seat: int | None, now: float) -> Outcome:
    if seat is None:
        raise Refusal(N_("Você não está nesta partida."))
    s = game.seats[seat]
    if s.away:
        raise Refusal(N_("Você já saiu e ninguém está jogando: a partida espera. Mande "
                         "/voltar para retomar.") if views.paused(game) else
                      N_("Você já saiu: o robô joga no seu lugar. Mande /voltar para retomar."))
    s.away, s.misses = True, 0
    s.ver += 1
    s.clear_pick()
    game.touched = now
    if game.status == "playing" and play.deal_of(game).turn == seat:
        game.step_at = now  # the AI moves at its own pace from now
    _ = Translator(game.lang)
    name = views.seat_name(game, seat, _)
    out: list[Effect] = [views.away_notice(
        game, N_("{name} saiu da mesa: o robô joga no lugar até {name} mandar /voltar ou "
                 "/entrar."), N_("{name} saiu da mesa."), name)]
    # once nobody plays, every hand of a seat away says the game waits, not "the robot"
    away = {i for i, other in enumerate(game.seats) if other.away} if game.paused() else set()
    return Outcome(out + views.after_move_effects(game, {seat} | away, ping=False))


def add_ai(game: Game, user: PlayerRef, level_text: str, now: float,
           robots: int | None = None) -> Outcome:
    """The creator adds an AI seat of level ``facil`` / ``normal`` / ``dificil`` to the
    next free seat (issue 30: "Robô" pressed twice in a row adds two robots).

    A press is applied once by its platform's press id (the service's ``update``: a
    Telegram callback query, a Discord interaction), not by what the button says, so a
    second press of the same-looking button, before the lobby is redrawn, is a new robot.
    ``robots`` is the count an older lobby's button carried ("make it k robots"): it is
    only checked to be one some lobby showed (robots only come in), else
    "Botão desconhecido."."""
    require_lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode adicionar robôs."))
    level = norm_level(level_text)
    if level is None:
        raise Refusal(N_("Nível desconhecido: use facil, normal ou dificil."))
    if robots is not None and not 1 <= robots <= game.robots() + 1:
        raise Refusal(UNKNOWN)  # no table showed that count: robots only come in
    if len(game.seats) >= max_seats(game):
        raise Refusal(N_("A mesa está cheia."))
    game.seats.append(Seat(ai=level, robot=game.next_robot_number()))
    game.touched = now
    return Outcome([views.table_effect(game)])


def remove_ai(game: Game, user: PlayerRef, robot: int, now: float,
              is_admin: bool = False) -> Outcome:
    """Take the robot named "Robô ``robot``" off the lobby ("Tirar Robô N", issue 30: a
    robot added by mistake), by the table's creator or a chat admin; the seats after it
    move up, the other robots keep their names.

    The press names the robot it removes, so a double tap or a stale lobby's button
    applies once: the second finds that robot gone, "Esse robô já saiu da mesa.", and
    nothing changes. Refused too: someone else's press, a table already started."""
    require_lobby(game)
    if user.key != game.creator.key and not is_admin:
        raise Refusal(N_("Só quem abriu a mesa ou um admin do grupo pode tirar robôs."))
    seat = next((i for i, s in enumerate(game.seats)
                 if s.is_ai and game.robot_number(i) == robot), None)
    if seat is None:
        raise Refusal(N_("Esse robô já saiu da mesa."))
    del game.seats[seat]
    game.touched = now
    return Outcome([views.table_effect(game)])


def toggle_shuffle(game: Game, user: PlayerRef, now: float, value: bool) -> Outcome:
    """The creator switches shuffling the seats (and so the teams) at the start to
    ``value`` (already so: a toast, nothing changes)."""
    require_lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode mudar isso."))
    if game.shuffle == value:
        raise Refusal(N_("O sorteio das duplas já está ligado.") if value
                      else N_("O sorteio das duplas já está desligado."))
    game.shuffle = value
    game.touched = now
    return Outcome([views.table_effect(game)])


def set_variant(game: Game, user: PlayerRef, index: int, now: float) -> Outcome:
    """The creator switches the lobby to variant ``index`` of :data:`bot.variants.ORDER`
    (a lobby button, issue 30), keeping the seats and the options given at /novojogo.

    The press says its result, so a double tap applies once: the table already plays it
    is a toast ("A mesa já joga Tranca."). Refused, changing nothing: an index no button
    carries ("Botão desconhecido."), a press by someone else, more seats than the
    variant takes, options the variant does not take (the engine's reason)."""
    require_lobby(game)
    if not 0 <= index < len(variants.ORDER):
        raise Refusal(UNKNOWN)
    _creator(game, user, N_("Só quem abriu a mesa pode mudar isso."))
    preset = variants.ORDER[index]
    if preset == game.preset:
        raise Refusal(N_("A mesa já joga {name}."), name=variants.TITLES[preset])
    rules = rules_of(preset, game.options)
    if len(game.seats) > max(rules.players_allowed):
        allowed = Choices(str(k) for k in rules.players_allowed)
        raise Refusal(N_("Esta variante joga com {allowed} jogadores; a mesa tem {n}."),
                      allowed=allowed, n=len(game.seats))
    game.preset = preset
    game.touched = now
    return Outcome([views.table_effect(game)])


def start(game: Game, user: PlayerRef, now: float, deck_fn: play.DeckFn | None = None) -> Outcome:
    """The creator starts the match when the seat count is valid for the preset."""
    require_lobby(game)
    _creator(game, user, N_("Só quem abriu a mesa pode iniciar."))
    rules = play.rules_of(game)
    n = len(game.seats)
    if n not in rules.players_allowed:
        allowed = Choices(str(k) for k in rules.players_allowed)
        raise Refusal(N_("Esta variante joga com {allowed} jogadores; a mesa tem {n}."),
                      allowed=allowed, n=n)
    if game.shuffle:
        for i, seat in enumerate(game.seats):  # a robot of a lobby stored before Seat.robot
            if seat.is_ai and not seat.robot:
                seat.robot = i + 1
        secrets.SystemRandom().shuffle(game.seats)
    game.match = play.new_match(rules, [game.name_of(i) for i in range(n)], deck_fn)
    game.status = "playing"
    game.touched = game.turn_since = game.step_at = now
    game.last = [(N_("A partida começou."), {})]
    return Outcome(render=lambda: views.at_once(
        views.after_move_effects(game, {*range(n)}, ping=True, opens_deal=True)))


def closing(game: Game, why: str, tell: bool = False, **kw: Any) -> Outcome:
    """Close the game (cancelled, abandoned, idle): announce ``why`` in the group (and,
    with ``tell``, to each person privately), drop the table. A started game keeps its
    record; a lobby that never started is deleted."""
    started = game.match is not None
    game.status = "over"
    return Outcome(views.closing_effects(game, why, tell, **kw), closed=True,
                   delete=not started)


def may_cancel(game: Game, user: PlayerRef) -> bool:
    """Whether ``user`` may close the game without being a chat admin: its creator, or
    the only person seated at it."""
    if user.key == game.creator.key:
        return True
    people = game.humans()
    return len(people) == 1 and people[0][1].key == user.key


def cancel(game: Game, user: PlayerRef, is_admin: bool) -> Outcome:
    """Close the game by its creator or a chat admin (a closed one stays closed: a
    second delivery of the button is refused)."""
    if game.status == "over":
        raise Refusal(N_("Esta partida terminou."))
    if not may_cancel(game, user) and not is_admin:
        raise Refusal(N_("Só quem abriu a mesa ou um admin do grupo pode cancelar."))
    return closing(game, N_("Jogo cancelado por {name}."), name=user.name)


def come_back(game: Game, user: PlayerRef, now: float) -> Outcome:
    """``/voltar``: the person takes their seat back from the AI (RULES-free, issue 4).
    A table that was waiting (nobody present) resumes: a robot whose turn it is moves at
    its pace from now, so its deadline is a real one, not the time the table paused (a
    deadline hours in the past read as a frozen game to the overdue gauge and to the
    reliability checks, issue 36)."""
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal(N_("Você não está nesta partida."))
    s = game.seats[seat]
    if not s.away:
        raise Refusal(N_("Você já está jogando."))
    resumes = game.paused()
    s.away, s.misses = False, 0
    s.ver += 1
    game.touched = now
    if game.status == "playing" and play.deal_of(game).turn == seat:
        game.turn_since = now
    if resumes:
        game.step_at = now  # the robots waited with the table: their pace starts again now
    out: list[Effect] = [views.came_back(game, user.name)]
    if game.match is not None:
        out += views.after_move_effects(game, {seat}, ping=False)
    return Outcome(out)
