"""End of a deal and of a match: score breakdown (RULES C14), next deal, winner.

A finished deal is announced in the group with each side's breakdown; the next deal
starts on the "Próxima mão" button or after ``next_deal_s`` (the timers). When the
match is over the winner is announced and the service stores the record and the
chat's ranking entries (``Outcome.finished``).
"""

from __future__ import annotations

from typing import Any

from bot import fairness, hands, narration, play, views
from bot.buttons import UNKNOWN
from bot.effects import Effect, PingsOver, Say
from bot.i18n import N_, Translator
from bot.model import Game
from bot.outcome import Outcome, Refusal
from engine.rules import RedThree, Rules
from engine.state import DealState
from engine.view import hands_at_end


def deal_over(game: Game, now: float, extra: list[Effect]) -> Outcome:
    """The deal just ended: record its totals, announce the breakdown, maybe the match.

    Effects in order: ``extra``, the table (with the move that ended the deal), the
    breakdown, :class:`PingsOver` (nobody's turn), the winner when the match is over,
    then each person's hand."""
    match = play.match_of(game)
    score = match.results[-1]
    game.deals.append(list(score.totals))
    game.deal_end_at = now
    _ = Translator(game.lang)
    for s in game.seats:
        s.ver += 1
        s.clear_pick()
    finished = match.over
    if finished:
        game.status = "over"
        game.winner = match.winner
    else:
        game.status = "between"
    # the table with the last move first, then the result (so it reads in order)
    out: list[Effect] = [*extra, views.table_effect(game),
                         Say(chat=game.chat, text=breakdown_text(game, score, _)),
                         PingsOver(chat=game.chat, game_id=game.id)]  # nobody's turn now
    if finished:
        out.append(Say(chat=game.chat, text=winner_text(game, _)))
    # each person's hand as the deal left it, without action buttons
    out += hands.hand_effects(game, range(len(game.seats)))
    return Outcome(out, finished=finished)


def breakdown_text(game: Game, score: Any, _: Translator) -> str:
    """The deal's result, one block per side (RULES C14 items that are not zero), each
    followed by the cards its players were left with (a deal the stock ended says so
    first, "O monte acabou: ninguém bateu.", RULES A26), ``"  Na mão de Ana: 7♣ K♠"`` (the
    "mão" term; ``"  Na sua mão: ..."`` in the terminal). The deal is over, nothing is
    hidden any more: engine ``hands_at_end``, which refuses a deal in play (issue 30)."""
    state = play.deal_of(game)
    rules = play.rules_of(game)
    left = hands_at_end(state)
    names, you = views.seat_names(game, _), views.you_seat(game)
    lines = [_("Fim da mão {n}.", n=len(game.deals))]
    if state.went_out < 0:  # RULES A26: nobody went out, the stock ended the deal
        lines.append(_(narration.STOCK_OUT))
    for side, team in enumerate(state.teams):
        row = score.breakdown[side]
        parts = [_(N_("jogos sem canastra {n}") if row["melded"] < 0 else N_("jogos {n}"),
                   n=row["melded"])]
        for label, bonus in row["canastras"]:
            parts.append(_("canastra {label} {n}", label=_(views.CANASTRA_LABELS.get(
                label, label)), n=bonus))
        for key, msgid in (("batida", N_("batida {n}")),
                           ("threes", threes_msgid(rules, row["threes"])),
                           ("relancinho", N_("relancinho {n}")),
                           ("hand", N_("cartas na mão {n}")),
                           ("morto", morto_msgid(state, side))):
            if row[key]:
                parts.append(_(msgid, n=row[key]))
        lines.append(_("{side}: {parts} = {total}", side=views.side_label(game, side, team, _),
                       parts=", ".join(parts), total=row["total"]))
        lines += ["  " + (_("Na sua mão: {cards}", cards=play.show(left[seat])) if seat == you
                          else _("Na mão de {name}: {cards}", name=names[seat],
                                 cards=play.show(left[seat])))
                  for seat in team if left[seat]]
    totals = play.match_scores(game)
    lines.append(_("Placar: {scores}", scores=" × ".join(str(t) for t in totals)))
    seed = play.match_of(game).revealed_seed  # issue 35: the deal is over, now it may
    if seed is not None:
        lines.append(fairness.seed_line(seed, _, game.chat.platform in views.SOLO_PLATFORMS))
    return "\n".join(lines)


def threes_msgid(rules: Rules, points: int = 0) -> str:
    """The deal result's label of the laid red 3s: "Dólares {n}" where they are Dólares
    (altaneira, RULES A4), else "3 vermelhos {n}" (a bare "3s 200" read as 3200); when
    they take ``points`` away, why: the side made no canastra ("3 vermelhos sem canastra
    -200", RULES §2 "extras", A4; issue 30: every line that takes points says why)."""
    if rules.red_three == RedThree.DOLLAR:
        return N_("Dólares sem canastra {n}") if points < 0 else N_("Dólares {n}")
    return N_("3 vermelhos sem canastra {n}") if points < 0 else N_("3 vermelhos {n}")


def morto_msgid(state: DealState, side: int) -> str:
    """Why ``side`` pays the morto's -100 in the deal's result (RULES C14), from the
    deal as it ended (issue 30: a trial read a bare "morto -100" as a bug twice):

    * its morto became the stock when the stock ran out (RULES A26: "their sides still
      pay -100") — "morto virou monte";
    * a player of the side took it by discarding, and the deal ended before their next
      turn, the first they could play it in (C12: paid "as if it had not taken it") —
      "morto pego com descarte, não jogado";
    * else it was never taken — "morto não pego"."""
    if state.morto_taken[side]:
        return N_("morto pego com descarte, não jogado {n}")
    if not state.mortos[side]:
        return N_("morto virou monte {n}")
    return N_("morto não pego {n}")


def winner_text(game: Game, _: Translator) -> str:
    """``"Fim da partida! Vencedor: Dupla 1 (Ana, Robô 3) com 1620 pontos."``"""
    state = play.deal_of(game)
    totals = play.match_scores(game)
    if game.winner is None:
        return _("Fim da partida: empate.")
    side = game.winner
    return _("Fim da partida! Vencedor: {side} com {n} pontos.",
             side=views.side_label(game, side, state.teams[side], _), n=totals[side])


def next_deal(game: Game, now: float, seat: int | None,
              deck_fn: play.DeckFn | None = None, deal: int | None = None) -> Outcome:
    """Deal the next deal (button by a seated person, or the timer with ``seat`` None).

    ``deal`` is the 1-based deal number the "Próxima mão" button deals: once that deal
    is out (a double tap, a re-sent press, the timer came first) the press is refused."""
    if game.status == "over" and seat is not None:
        raise Refusal(N_("Esta partida terminou."))
    if game.match is None and seat is not None:
        raise Refusal(N_("A partida ainda não começou."))
    due = len(game.deals) + 1
    if deal is not None and not 1 <= deal <= due:
        raise Refusal(UNKNOWN)  # a deal no table offered
    if game.status != "between" or (deal is not None and deal != due):
        if seat is None:
            return Outcome(changed=False)
        if deal is not None and deal <= due:
            raise Refusal(N_("A mão {n} já foi distribuída."), n=deal)
        raise Refusal(N_("A mão ainda está em jogo."))
    match = play.match_of(game)
    kept = match.archive_finished()  # the stored game stays small (bench/README.md)
    match.start_deal(deck_fn(match.rules) if deck_fn else None)
    play.store_match(game, match)
    game.status = "playing"
    game.turn_since = game.step_at = now
    if seat is not None:
        game.touched = now
    game.last = [(N_("Mão {n} distribuída."), {"n": len(game.deals) + 1})]
    seats = set(range(len(game.seats)))  # every hand is new: built while the save flies
    return Outcome(render=lambda: views.after_move_effects(game, seats, ping=True,
                                                           opens_deal=True),
                   keep_deals=kept)


def player_points(game: Game) -> list[tuple[Any, bool, int]]:
    """``(player, won, points)`` of each person: their side's match total, and whether
    that side won."""
    state = play.deal_of(game)
    totals = play.match_scores(game)
    out = []
    for seat, player in game.humans():
        side = state.side_of[seat]
        out.append((player, game.winner == side, totals[side]))
    return out
