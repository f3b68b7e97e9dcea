"""The coach's words and rules (issue 37): whether a table has it, the one line of a
``/dica`` and the lines of a ``/revisao``, in the game's language.

The moves and their reasons come from :mod:`engine.ai.coach` (which reads only the
seat's view); this module words them: a move as the hand's buttons would name it and
a reason from its code (:data:`engine.ai.coach.REASONS`). Whether a table has the
coach: the group's ``/config dicas`` when the table opened (on unless a group turned
it off), and never at a table the queue formed (``/procurar``: rated against strangers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import play
from bot.i18n import N_, Translator
from bot.model import Game
from engine.actions import Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import make_meld
from engine.rules import Rules

if TYPE_CHECKING:  # the engine's coach is imported when a hint is asked (bot/coach_calls.py)
    from engine.ai.coach import Cost, Hint

CODE = "dc"
"""The hand's "Dica" button (no argument; the payload carries the hand's version)."""
SETTING = "coach"
"""The chat setting of ``/config dicas`` (``on``/``off``; unset: on)."""
AUTO_SETTING = "revisao"
"""The person's own setting (under their key, as their private chat's settings): ``on``
sends them the review of each deal they play when it ends (``/revisao auto``)."""
AUTO_ON = frozenset({"auto", "sempre", "always", "on", "ligar", "sì", "si"})
AUTO_OFF = frozenset({"off", "nunca", "never", "mai", "desligar", "no", "nao", "não"})
AUTO_ON_TEXT = N_("Revisão automática ligada para você: no fim de cada mão que você jogar "
                  "numa mesa com dicas, as suas três decisões mais caras chegam no seu "
                  "privado. /revisao off desliga.")
AUTO_MATCHED = N_("Esta mesa (da fila, /procurar) não tem dicas nem revisão: a sua revisão "
                  "automática vale nas mesas que têm.")
"""Added to :data:`AUTO_ON_TEXT` when ``/revisao auto`` is typed at a queue table."""
AUTO_OFF_TEXT = N_("Revisão automática desligada. /revisao mostra a da última mão.")
AUTO_BAD = N_("Use /revisao (a última mão), /revisao auto (a cada mão) ou /revisao off.")
OFF = N_("As dicas estão desligadas nesta mesa.")
MATCHED_OFF = N_("Nas mesas da fila (/procurar) não há dicas nem revisão: a partida vale "
                 "para o ranking.")
NOT_YOUR_TURN = N_("A dica é para a sua vez: espere a sua jogada.")
SENT = N_("Mandei no seu privado.")
NO_DEAL = N_("Ainda não há mão terminada nesta partida para revisar.")
NOT_SEATED = N_("Você não jogou esta partida.")
BUTTON = N_("💡 Dica")
TOAST_MAX = 200
"""Characters a press's answer may have to be shown whole (Telegram's
``answerCallbackQuery`` cuts at 200): a longer hint goes as a private message."""
REVIEW_CODE = "rv"
"""The hand's "Revisão da mão" button between deals (argument: the deal's number)."""
REVIEW_BUTTON = N_("📋 Revisão da mão {n}")

_REASONS: dict[str, str] = {
    "out": N_("você bate agora"),
    "canastra": N_("fecha uma canastra"),
    "draw_only": N_("é a única compra possível"),
    "safe": N_("nenhum jogo dos adversários na mesa usa o {card}"),
    "least_risk": N_("é o descarte de menor risco"),
    "three": N_("ele vale pontos para o seu lado"),
    "redraw": N_("a regra deixa trocar a primeira carta"),
    "discard": N_("das cartas que menos falta fazem à sua mão, foi a que melhor se saiu "
                  "nas simulações do robô"),
}


def enabled(game: Game) -> bool:
    """Whether ``game`` has the coach: the table's own flag, and never a matchmade
    table (the queue's tables are rated against strangers, issue 35)."""
    return game.coach and not game.matched


def refusal_text(game: Game) -> str:
    """Why the coach is not available at ``game`` (a msgid)."""
    return MATCHED_OFF if game.matched else OFF


def setting_on(value: str | None) -> bool:
    """The ``/config dicas`` setting as stored: unset or ``on`` is on."""
    return value != "off"


def _cards(codes: Sequence[str] | Sequence[Card]) -> str:
    return play.show(c if isinstance(c, Card) else Card.parse(c) for c in codes)


def _meld(cards: Sequence[Card], rules: Rules | None) -> str:
    """A new meld's cards as the table will show them (a run in order, its wild's
    rank), or as given when ``rules`` is None or they make no meld alone."""
    if rules is not None:
        try:
            return play.show_meld(make_meld(cards, rules))
        except IllegalAction:
            pass
    return _cards(cards)


def move_text(action: Action, _: Translator, rules: Rules | None = None) -> str:
    """A move in the words of the hand's buttons: ``Descarte o 4♣``, ``Baixe 7♥ 8♥ 9♥``
    (new melds laid out by ``rules`` when given)."""
    if action.do == "draw":
        return _("Compre do monte")
    if action.do == "redraw":
        return _("Abra o lixo com a carta comprada e compre outra")
    if action.do == "take_pile":
        if action.with_:
            return _("Pegue o lixo com {cards}", cards=_meld(action.with_, rules))
        if action.meld is not None:
            return _("Pegue o lixo e ponha o topo no jogo {n}", n=action.meld + 1)
        return _("Pegue o lixo")
    if action.do == "discard" and action.card is not None:
        return _("Descarte o {card}", card=play.text_of(action.card))
    if action.do == "lay_three" and action.card is not None:
        return _("Baixe o {card}", card=play.text_of(action.card))
    if action.do == "extend":
        return _("Junte {cards} ao jogo {n}", cards=_cards(action.cards),
                 n=(action.meld or 0) + 1)
    if not action.melds and len(action.extensions) == 1:
        (meld, cards), = action.extensions
        return _("Junte {cards} ao jogo {n}", cards=_cards(cards), n=meld + 1)
    parts = [_meld(m, rules) for m in action.melds]
    parts += [_("+ jogo {n}: {cards}", n=i + 1, cards=_cards(cs)) for i, cs in action.extensions]
    return _("Baixe {melds}", melds=" / ".join(parts))


def reason_text(why: str, params: dict[str, Any], _: Translator) -> str:
    """The reason code ``why`` of :mod:`engine.ai.coach` in words (cards shown)."""
    shown = {k: (play.text_of(Card.parse(v)) if k == "card" and v else v)
             for k, v in params.items()}
    count = int(shown.get("n", 0))
    if why == "shed":
        return _.n("tira {n} carta da mão: menos pontos a perder se alguém bater",
                   "tira {n} cartas da mão: menos pontos a perder se alguém bater", count)
    if why == "take_pile":
        return _.n("é {n} carta e o {card} entra no seu jogo",
                   "são {n} cartas e o {card} entra no seu jogo", count, card=shown["card"])
    if why == "take_pile_hand":
        return _.n("é {n} carta e o {card} forma um jogo com cartas da sua mão",
                   "são {n} cartas e o {card} forma um jogo com cartas da sua mão", count,
                   card=shown["card"])
    if why == "take_pile_size":
        return _.n("o lixo tem {n} carta", "o lixo tem {n} cartas", count)
    if why == "draw":
        return _.n("o lixo, com {n} carta, não compensa agora",
                   "o lixo, com {n} cartas, não compensa agora", count)
    msgid = _REASONS.get(why)
    return _(msgid, **shown) if msgid else ""


def hint_line(hint: Hint, _: Translator, rules: Rules | None = None) -> str:
    """``Dica: Descarte o 4♣ (nenhum jogo dos adversários na mesa usa o 4♣).``, or
    ``Dica: Descarte o 4♣.`` when the reason has no words (an unknown code)."""
    move = move_text(hint.action, _, rules)
    why = reason_text(hint.why, hint.params, _)
    if not why:
        return _("Dica: {move}.", move=move)
    return _("Dica: {move} ({why}).", move=move, why=why)


def review_text(players: int, deal: int, costs: list[Cost], _: Translator,
                rules: Rules | None = None) -> str:
    """The ``/revisao`` of deal ``deal`` (1-based) at a table of ``players`` seats (its
    rounds are counted from the costs' turns): the costliest decisions first, each with
    the robot's estimate of the points it cost; or the line that says there was nothing
    to name."""
    title = _("Revisão da mão {n}:", n=deal)
    if not costs:
        return "\n".join([title, _("Nenhuma decisão custou pontos pela conta do robô. "
                                   "Bom jogo!")])
    lines = [title]
    n = max(1, players)
    for k, cost in enumerate(costs, start=1):
        why = reason_text(cost.why, cost.params, _)
        lines.append(_("{k}. Rodada {round}: você jogou \"{played}\"; o robô jogaria "
                       "\"{better}\"{why}. Custo estimado: {points} pontos.",
                       k=k, round=cost.turn // n + 1, played=move_text(cost.played, _, rules),
                       better=move_text(cost.better, _, rules),
                       why=f" ({why})" if why else "", points=round(cost.points)))
        if cost.turns:
            rounds = _rounds(sorted({t // n + 1 for t in cost.turns}))
            lines.append(_("   O mesmo {times} vezes (rodadas {rounds}); o custo é o da mais "
                           "cara.", times=len(cost.turns), rounds=rounds))
    lines.append(_("Estimativas do robô difícil, jogando as alternativas em mãos "
                   "sorteadas com o que você via."))
    return "\n".join(lines)


ROUNDS_SHOWN = 5
"""Rounds a repeated lesson lists one by one; more are cut: ``3, 4, 5, …, 39``."""


def _rounds(rounds: list[int]) -> str:
    """``rounds`` as a review lists them: all up to :data:`ROUNDS_SHOWN`, else the first
    three, an ellipsis and the last."""
    shown = [str(r) for r in rounds]
    if len(shown) > ROUNDS_SHOWN:
        shown = [*shown[:3], "…", shown[-1]]
    return ", ".join(shown)
