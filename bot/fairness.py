"""What people see of verifiable deals (issue 35; engine/fairdeal.py, docs/record-format.md
"Verifiable deals"): the commitment on the table while a deal is played, the seed once
it is over, and ``/verificar``'s answer.

The seed is read only through ``Match.revealed_seed``, which is None until the deal is
over: no table, web frame or message made here can carry it earlier.
"""

from __future__ import annotations

from bot import play
from bot.i18n import N_, Translator
from bot.model import Game
from engine.cards import Card
from engine.deal_check import DealCheck, Mismatch
from engine.fairdeal import commitment

COMMITMENT = N_("Compromisso do baralho (SHA-256): {commitment}")
"""The table's line during a deal: the SHA-256 of the deal's secret seed, shown before
anyone sees a card."""
SEED = N_("Semente do baralho: {seed} (compromisso {short}…): /verificar confere.")
"""The table's line and the deal result's last line once the deal is over."""
SEED_TERMINAL = N_("Semente do baralho: {seed} (compromisso {short}…): verificar confere.")
"""The terminal's :data:`SEED`: its commands are typed without a slash."""
SHORT = 16
"""Hex digits of a commitment quoted beside the seed (64 bits: enough to compare by eye
with the one the table showed; the record and the script compare all 64)."""


def table_line(game: Game, _: Translator, solo: bool = False) -> str | None:
    """The line the table shows about the current deal's shuffle: its commitment while it
    is played, its seed once it is over (``solo``: the terminal's words,
    :func:`seed_line`); None for a deal dealt from a given deck."""
    match = play.match_of(game)
    seed = match.revealed_seed
    if seed is not None:
        return seed_line(seed, _, solo)
    shown = match.commitment
    return _(COMMITMENT, commitment=shown) if shown is not None else None


def seed_line(seed: str, _: Translator, solo: bool = False) -> str:
    """:data:`SEED` for ``seed`` (a revealed one); :data:`SEED_TERMINAL` with ``solo``
    (the terminal, whose command is ``verificar``)."""
    return _(SEED_TERMINAL if solo else SEED, seed=seed, short=commitment(seed)[:SHORT])


def verdict_lines(checks: list[DealCheck], players: list[str], _: Translator) -> list[str]:
    """``/verificar``'s answer: one line per deal (OK with the start of its commitment, or
    each thing that does not match) and a last line with the result."""
    lines = []
    for check in checks:
        if check.ok:
            lines.append(_("Mão {n}: OK (compromisso {short}…, semente conferida).",
                           n=check.number, short=(check.commitment or "")[:SHORT]))
            continue
        lines.append(_("Mão {n}: NÃO CONFERE.", n=check.number)
                     if check.mismatches[0].code != "no_seed"
                     else _("Mão {n}: sem semente (distribuída antes das mãos verificáveis).",
                            n=check.number))
        lines += ["  " + _mismatch(m, players, _) for m in check.mismatches[:MAX_SHOWN]
                  if m.code != "no_seed"]
        if len(check.mismatches) > MAX_SHOWN:
            lines.append("  " + _("… e mais {n} diferenças.",
                                  n=len(check.mismatches) - MAX_SHOWN))
    lines.append(result_line(sum(not c.ok for c in checks), len(checks), _))
    return lines


def result_line(bad: int, total: int, _: Translator) -> str:
    """The last line of ``/verificar``: ``bad`` of ``total`` deals do not match (plural
    forms of the language: one deal is "a mão confere", not "todas as 1 mãos")."""
    if not bad:
        return _.n("Resultado: OK, {n} mão verificada, confere com a semente.",
                   "Resultado: OK, {n} mãos verificadas, todas conferem com as sementes.",
                   total)
    if total == 1:
        return _("Resultado: a mão não confere com a semente.")
    return _.n("Resultado: {n} de {total} mãos não confere.",
               "Resultado: {n} de {total} mãos não conferem.", bad, total=total)


MAX_SHOWN = 6
"""Differences of one deal listed in a chat (the standalone script lists them all)."""


def _mismatch(m: Mismatch, players: list[str], _: Translator) -> str:
    if m.code == "commitment":
        return _("o compromisso do registro ({given}…) não é o SHA-256 da semente "
                 "({computed}…)", given=m.given[:SHORT], computed=m.computed[:SHORT])
    if m.code == "reshuffle":
        return _("a ordem do lixo ao voltar ao monte não é a da semente")
    kind, who, k = m.place
    if kind == "hand":
        where = _("mão de {name}, carta {k}", name=players[who], k=k + 1)
    elif kind == "morto":
        where = _("morto {side}, carta {k}", side=who + 1, k=k + 1)
    else:
        where = _("monte, carta {k} a partir do topo", k=who + 1)
    return _("posição {pos} do baralho ({where}): o registro tem {given}, a semente dá "
             "{computed}", pos=m.position + 1, where=where, given=_card(m.given),
             computed=_card(m.computed))


def _card(code: str) -> str:
    return play.text_of(Card.parse(code))
