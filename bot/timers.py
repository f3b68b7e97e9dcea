"""What happens when a game's deadline comes due (``Service.tick``).

One deadline per game, computed by :func:`next_due` after every save:
  * lobby: closed after ``idle_s`` without a person's action;
  * between deals: the next deal after ``next_deal_s``;
  * a person's turn: after ``timer_s`` the safe move is played for them (draw, safe
    discard); after two timeouts in a row the AI keeps the seat until they act or send
    ``/voltar`` (issue 4 "Timers");
  * an AI's turn (or an away person's): one action every ``ai_pace_s``, while at least
    one person at the table is present; otherwise the game waits to be closed idle.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import hands, lobby, play, robot, turns, views
from bot.effects import Effect, Say
from bot.i18n import N_, Translator
from bot.model import Game
from bot.outcome import Outcome
from bot.results import next_deal


@dataclass(frozen=True)
class Pacing:
    """Timer settings in seconds."""

    ai_pace_s: float = 1.0
    next_deal_s: float = 30.0
    idle_s: float = 86_400.0


def next_due(game: Game, p: Pacing) -> float | None:
    """When the game next needs the timers (Unix seconds), or None when over."""
    if game.status == "over":
        return None
    idle_at = game.touched + p.idle_s
    if game.status == "lobby":
        return idle_at
    if game.status == "between":
        return min(game.deal_end_at + p.next_deal_s, idle_at)
    seat = game.seats[play.deal_of(game).turn]
    if seat.robot_plays:
        return idle_at if views.paused(game) else min(game.step_at + p.ai_pace_s, idle_at)
    return min(game.turn_since + game.timer_s, idle_at)


def step(game: Game, now: float, p: Pacing, chooser: robot.Chooser | None,
         deck_fn: play.DeckFn | None = None) -> Outcome:
    """Do what is due now (nothing if the deadline moved since it was set)."""
    if game.status == "over":
        return Outcome(changed=False)
    if now >= game.touched + p.idle_s:
        return lobby.closing(game, N_("Mesa fechada por inatividade (24 h)."), tell=True)
    if game.status == "between":
        if now >= game.deal_end_at + p.next_deal_s:
            return next_deal(game, now, None, deck_fn)
        return Outcome(changed=False)
    if game.status != "playing":
        return Outcome(changed=False)
    turn = play.deal_of(game).turn
    seat = game.seats[turn]
    if seat.robot_plays:
        if views.paused(game) or now < game.step_at + p.ai_pace_s:
            return Outcome(changed=False)
        action = robot.ai_move(play.deal_of(game), turn, seat.ai or "normal", chooser)
        return turns.apply_action(game, turn, action, now, human=False)
    if now < game.turn_since + game.timer_s:
        return Outcome(changed=False)
    return timeout(game, turn, now, chooser)


def timeout(game: Game, seat: int, now: float, chooser: robot.Chooser | None = None) -> Outcome:
    """The person at ``seat`` let the timer run out: safe move, count the miss, maybe
    hand the seat to the AI."""
    s = game.seats[seat]
    s.misses += 1
    _ = Translator(game.lang)
    name = views.seat_name(game, seat, _)
    s.away = s.misses >= 2
    effects: list[Effect] = []
    if s.away and game.paused():  # the other seats away: their hands say the game waits
        effects += hands.hand_effects(game, [i for i, other in enumerate(game.seats)
                                             if other.away and i != seat])
    last: Outcome | None = None
    done: list[str] = []
    while play.deal_of(game).turn == seat and game.status == "playing":
        action = robot.timeout_move(play.deal_of(game), seat, chooser)
        done.append(action.do)
        last = turns.apply_action(game, seat, action, now, human=False, auto=True)
        effects += last.resolved()  # the next move changes the game again
    if s.away:
        notice = views.away_notice(
            game, N_("{name} não jogou a tempo de novo: o robô joga por {name} até /voltar."),
            N_("{name} não jogou a tempo de novo."), name)
    else:  # what was done for them (O8)
        notice = Say(chat=game.chat, text=_(AUTO_MOVES.get(tuple(done), AUTO_MOVE), name=name))
    finished = last.finished if last is not None else False
    return Outcome(_dedupe([notice, *effects]), finished=finished)


AUTO_MOVE = N_("{name} não jogou a tempo: jogada automática.")
AUTO_MOVES = {
    ("draw", "discard"): N_("{name} não jogou a tempo: jogada automática (comprar e "
                            "descartar)."),
    ("discard",): N_("{name} não jogou a tempo: jogada automática (só o descarte: "
                     "já tinha comprado)."),
}
"""The group's notice of a timeout by what was done for the person (engine action
kinds, in order): a person who had drawn (and melded) gets only the discard, and the
notice said "comprar e descartar" all the same (issue 30 O8). Anything else (the AI's
move when no safe move is legal, :func:`bot.robot.timeout_move`) is "jogada automática";
the table's narration names the moves."""


def _dedupe(effects: list[Effect]) -> list[Effect]:
    """Keep only the last table view and the last hand view of each seat."""
    out: list[Effect] = []
    seen: set[tuple[str, int]] = set()
    for eff in reversed(effects):
        key = (eff.kind, getattr(eff, "seat", -1))
        if eff.kind in ("table", "hand"):
            if key in seen:
                continue
            seen.add(key)
        out.append(eff)
    return list(reversed(out))
