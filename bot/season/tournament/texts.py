"""What the group sees of a tournament (issue 29): the sign-up message and each match's
call (messages with buttons, edited in place), the standings and the bracket as text
(also the bracket picture's caption, :mod:`.picture`), and what each step announces."""

from __future__ import annotations

from bot.effects import Button, Effect, Say, TableView, View, pack
from bot.i18n import N_, Translator
from bot.season.tournament import flow
from bot.season.tournament.model import Match, Tournament
from bot.season.tournament.standings import decided_by, standings
from bot.variants import TITLES

SIGN_UP, LEAVE, START, CANCEL, PRESENT = "ti", "to", "tc", "tx", "ta"
NO_ARG = frozenset({SIGN_UP, LEAVE, START, CANCEL})
CODES = NO_ARG | {PRESENT}
"""Button codes of a tournament's messages (their game id field is the tournament id)."""
CANCELLED = N_("🏆 Torneio cancelado por {name}.")
PLAYING_ON = N_("A partida que estava em jogo continua como um jogo normal, fora do torneio.")
REASONS = {"points": N_("pontos"), "wins": N_("vitórias"), "saldo": N_("saldo"),
           "h2h": N_("confronto direto"), "order": N_("ordem de inscrição")}


def side_name(t: Tournament, side: int | None) -> str:
    """``"Ana"`` or, in duplas, ``"Ana + Bia"``."""
    if side is None or not 0 <= side < len(t.sides):
        return "—"
    return " + ".join(p.name for p in t.sides[side].people)


OPTION_WORDS = {"target": N_("alvo {value}"), "timer": N_("{value} s por jogada"),
                "tempo": N_("{value} s por jogada")}
"""Table options as players read them in a tournament's title; any other option shows
as ``key value``."""


def option_words(args: str, _: Translator) -> list[str]:
    """``"target=2000 timer=60"`` -> ``["alvo 2000", "60 s por jogada"]`` (in the
    language of ``_``)."""
    out: list[str] = []
    for token in args.split():
        key, _eq, value = token.partition("=")
        word = OPTION_WORDS.get(key.lower())
        out.append(_(word, value=value) if word else f"{key} {value}".strip())
    return out


def title(t: Tournament, _: Translator) -> str:
    """``"🏆 Torneio de Tranca — todos contra todos, individual, alvo 1000"``."""
    fmt = _("mata-mata") if t.knockout else _("todos contra todos")
    kind = _("duplas") if t.pairs else _("individual")
    extra = "".join(f", {w}" for w in option_words(t.args, _))
    return _("🏆 Torneio de {variant} — {fmt}, {kind}{extra}",
             variant=TITLES.get(t.preset, t.preset), fmt=fmt, kind=kind, extra=extra)


def signup_view(t: Tournament, version: int, _: Translator) -> TableView:
    """The sign-up message: who signed up, and the buttons while it is open."""
    lines = [_("Aberto por {name}. W.O. após {m} min sem comparecer.", name=t.creator.name,
               m=t.wo_s // 60)]
    if t.pairs:
        lines.append(_("Duplas pela ordem de inscrição: 1º com 2º, 3º com 4º..."))
    names = ", ".join(p.name for p in t.people) or "—"
    lines.append(_("Inscritos ({n}): {names}", n=len(t.people), names=names))
    buttons: list[list[Button]] = []
    if t.status == "signup":
        buttons = [[Button(label=_("Inscrever-se"), data=pack(t.id, 0, SIGN_UP)),
                    Button(label=_("Sair"), data=pack(t.id, 0, LEAVE))],
                   [Button(label=_("Começar"), data=pack(t.id, 0, START)),
                    Button(label=_("Cancelar"), data=pack(t.id, 0, CANCEL))]]
    elif t.status == "cancelled":
        lines.append(_("Torneio cancelado."))
    else:
        lines.append(_("Inscrições encerradas."))
    return TableView(chat=t.chat, game_id=t.id, view=View(title=title(t, _), lines=lines,
                                                          buttons=buttons),
                     state_version=version, prompt=True, apart=True)


def round_name(t: Tournament, r: int, _: Translator) -> str:
    """``"Rodada 2"``; in a knockout the last rounds are named (final, semifinal...)."""
    if t.knockout and t.sides:
        left = len([m for m in t.matches if m.round == r]) * 2
        named = {2: N_("Final"), 4: N_("Semifinal"), 8: N_("Quartas de final")}
        if left in named:
            return _(named[left])
    return _("Rodada {r}", r=r)


def call_view(t: Tournament, index: int, version: int, _: Translator) -> TableView:
    """Match ``index``'s call: who plays, who showed, "Estou aqui" while it waits."""
    m = t.matches[index]
    head = _("{round} — {a} x {b}", round=round_name(t, m.round, _), a=side_name(t, m.a),
             b=side_name(t, m.b))
    waiting = t.status == "running" and t.current == index and m.game is None
    names = [p.name for p in flow.players(t, m) if p.key in t.present] if waiting else []
    lines = [match_line(t, m, _)] if m.done else []
    if waiting:
        lines += [_("Cada lado aperta \"Estou aqui\" em até {m} min; quem não vier perde "
                    "por W.O.", m=t.wo_s // 60),
                  _("Presentes: {names}", names=", ".join(names) or "—")]
    elif m.game is not None and not m.done:
        lines.append(_("Todos presentes: a mesa está aberta no grupo."))
    buttons = [[Button(label=_("Estou aqui"), data=pack(t.id, 0, PRESENT, index))]] \
        if waiting else []
    return TableView(chat=t.chat, game_id=f"{t.id}p{index}", state_version=version,
                     view=View(title=_("🏆 {head}", head=head), lines=lines,
                               buttons=buttons), prompt=True, apart=True)


def match_line(t: Tournament, m: Match, _: Translator) -> str:
    """One match as a line: ``"Ana 1520 x 830 Bia → Ana"``, ``"Ana x Bia: W.O. (Bia
    ausente) → Ana"``, ``"Ana: folga"``, ``"Ana x Bia"`` while not played."""
    a, b = side_name(t, m.a), side_name(t, m.b)
    if m.b is None:
        return _("{a}: passa direto (bye)", a=a)
    if m.winner is None:
        return _("{a} x {b}", a=a, b=b)
    won = winner_name(t, m, _)
    if m.absent:
        return _("{a} x {b}: W.O. ({who}) → {won}", a=a, b=b, who=absent(t, m, _), won=won)
    return _("{a} {x} x {y} {b} → {won}", a=a, b=b, x=m.score[0], y=m.score[1], won=won)


def absent(t: Tournament, m: Match, _: Translator) -> str:
    """Who missed walkover match ``m``: ``"Caio ausente"``, ``"Bia, Ana ausentes"``."""
    return _.n("{names} ausente", "{names} ausentes", len(m.absent),
               names=", ".join(side_name(t, s) for s in m.absent))


def wo_text(t: Tournament, m: Match, _: Translator) -> str:
    """The walkover's announcement, W.O. said once: ``"🏆 W.O.: Ana x Caio (Caio
    ausente) → Ana"``."""
    return _("🏆 W.O.: {a} x {b} ({who}) → {won}", a=side_name(t, m.a), b=side_name(t, m.b),
             who=absent(t, m, _), won=winner_name(t, m, _))


def winner_name(t: Tournament, m: Match, _: Translator) -> str:
    """Who won decided match ``m``: ``"Ana"``; nobody (a round robin's double W.O.)
    ``"ninguém"``; a knockout's double W.O. sends the better seed on (the earlier
    sign-up, docs/season.md "W.O."), and says so: ``"Bia, a melhor cabeça de chave"``."""
    if m.winner is None or m.winner < 0:
        return _("ninguém")
    won = side_name(t, m.winner)
    if t.knockout and m.b is not None and {m.a, m.b} <= set(m.absent):
        return _("{side}, a melhor cabeça de chave", side=won)
    return won


def standings_lines(t: Tournament, _: Translator) -> list[str]:
    """The table: ``"1. Ana — 4 pts, 2 V, 0 D, saldo +830"``, then which tie-break
    separated sides level on points."""
    table = standings(len(t.sides), t.matches)
    lines = [_("{place}. {side} — {p} pts, {w} V, {l} D, saldo {s}", place=i + 1,
               side=side_name(t, r.side), p=r.points, w=r.wins, l=r.losses, s=f"{r.saldo:+d}")
             for i, r in enumerate(table)]
    for i, why in enumerate(decided_by(table, t.matches)):
        if why != "points":
            lines.append(_("{upper} fica à frente de {lower} por {why}.",
                           upper=side_name(t, table[i].side),
                           lower=side_name(t, table[i + 1].side), why=_(REASONS[why])))
    return lines


def board_text(t: Tournament, _: Translator) -> str:
    """``/torneio tabela``: the standings (round robin) or the bracket (knockout), with
    every match by round, and what is being played now."""
    lines = [title(t, _)]
    if t.status == "signup":
        return "\n".join([*lines, _("Inscrições abertas: {n} inscritos.", n=len(t.people))])
    if not t.knockout:
        lines += [_("Classificação:"), *standings_lines(t, _)]
    for r in range(1, t.rounds() + 1):
        lines.append(round_name(t, r, _) + ":")
        lines += [f"  {match_line(t, m, _)}" for m in t.matches if m.round == r]
    if t.status == "running" and t.current is not None:
        m = t.matches[t.current]
        lines.append(_("Agora: {a} x {b}", a=side_name(t, m.a), b=side_name(t, m.b)))
    elif t.status == "over":
        lines.append(_("Campeão: {side}", side=side_name(t, t.champion)))
    elif t.status == "cancelled":
        lines.append(_("Torneio cancelado."))
    return "\n".join(lines)


def round_text(t: Tournament, r: int, _: Translator) -> str:
    """Round ``r``'s end: ``"🏆 Terminou: Rodada 1."`` and the standings or bracket
    (:func:`board_text`), the caption of the picture the group gets in one message."""
    return _("🏆 Terminou: {round}.", round=round_name(t, r, _)) + "\n" + board_text(t, _)


def cancelled(t: Tournament, was: int | None, name: str, version: int,
              _: Translator) -> list[Effect]:
    """What the group sees when ``name`` cancels ``t``: the sign-up message and the call
    of match ``was`` (the one called or played when it was cancelled, or None) edited
    without their buttons, and the line saying so; a match being played goes on as a
    normal game (its result is no longer counted, :func:`.flow.result`)."""
    out: list[Effect] = [signup_view(t, version, _)]
    text = _(CANCELLED, name=name)
    if was is not None and t.matches[was].game is None:
        out.append(call_view(t, was, version, _))
    elif was is not None and not t.matches[was].done:
        text += "\n" + _(PLAYING_ON)
    return [*out, Say(chat=t.chat, text=text)]


def announced(t: Tournament, notes: list[flow.Note], version: int,
              _: Translator) -> list[Effect]:
    """What the group is told of ``notes``: a walkover, a round's end (the standings or
    bracket), a match called again, the call of the next match, the champion."""
    out: list[Effect] = []
    for kind, value in notes:
        if kind == "wo":
            out.append(Say(chat=t.chat, text=wo_text(t, t.matches[value], _)))
            out.append(call_view(t, value, version, _))
        elif kind == "round":  # its picture takes its place (.picture.after_round)
            out.append(Say(chat=t.chat, text=round_text(t, value, _)))
        elif kind == "again":
            out.append(Say(chat=t.chat, text=_(
                "🏆 A mesa de {a} x {b} fechou sem resultado: a partida é chamada de novo.",
                a=side_name(t, t.matches[value].a), b=side_name(t, t.matches[value].b))))
        elif kind == "call":
            out.append(call_view(t, value, version, _))
        elif kind == "champion":
            out.append(Say(chat=t.chat, text=_("🏆 Campeão do torneio: {side}!",
                                               side=side_name(t, value))))
    return out
