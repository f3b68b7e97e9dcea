"""``/verificar [jogo]`` as a service call (issue 35, deals anyone can verify):
:class:`Service` extends :class:`VerifyCalls`; the check is :mod:`engine.deal_check`'s, the
words :mod:`bot.fairness`'s.

Without an argument it checks the chat's last finished game, the one ``/exportar``
hands out (its ``last_game`` setting); with one, the finished game of that id (as the
file ``/exportar`` sends names it, ``bossa_nova-k3f9qz2a.json``). A game still in play
is never checked: its record is not out yet (its deal in play has no revealed seed).
Nothing is saved.
"""

from __future__ import annotations

import json
import logging
import re

from bot import fairness
from bot.effects import ChatRef, Effect, PlayerRef, Reply
from bot.i18n import N_, Translator
from bot.model import CorruptGame
from bot.runner import CORRUPT, GameRunner
from bot.views import SOLO_PLATFORMS
from engine.deal_check import verify_record
from engine.record import MalformedRecord

log = logging.getLogger(__name__)
GAME_ARG = re.compile(r"(?:[a-z_]+-)?([0-9a-z]{8})(?:\.json)?")
"""``k3f9qz2a`` or the record's file name ``bossa_nova-k3f9qz2a.json``."""
IN_PLAY = N_("Só uma partida terminada se confere: esta ainda está em jogo. A semente de "
             "cada mão aparece na mesa quando a mão acaba.")
NONE_YET = N_("Ainda não há partida terminada neste grupo.")
NONE_YET_TERMINAL = N_("Ainda não há partida terminada.")
"""The terminal's :data:`NONE_YET`: it has no group."""
UNKNOWN_GAME = N_("Não há registro do jogo {game}.")
BAD_ARG = N_("Use /verificar para a última partida terminada, ou /verificar <jogo> com o "
             "código do arquivo de /exportar (bossa_nova-k3f9qz2a.json: k3f9qz2a).")
UNREADABLE = N_("O registro do jogo {game} não pode ser lido: {reason}")
HEADER = N_("Conferência do embaralhamento do jogo {game}:")
SCRIPT = N_("Para conferir sem o bot: /exportar e python3 verify_deal.py <arquivo> "
            "(tools/verify_deal.py, só Python).")
SCRIPT_TERMINAL = N_("Para conferir sem o jogo: exportar e python3 verify_deal.py <arquivo> "
                     "(tools/verify_deal.py, só Python).")
"""The terminal's :data:`SCRIPT`: its commands are typed without a slash."""
BAD_ARG_TERMINAL = N_("Use verificar para a última partida terminada, ou verificar <jogo> "
                      "com o código do arquivo de exportar (bossa_nova-k3f9qz2a.json: "
                      "k3f9qz2a).")


def solo(chat: ChatRef) -> bool:
    """Whether ``chat`` is the terminal's (commands typed without a slash)."""
    return chat.platform in SOLO_PLATFORMS


class VerifyCalls(GameRunner):
    """``/verificar`` (see the module docstring)."""

    async def verify_deal(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                          update: str | None = None) -> list[Effect]:
        """``/verificar [jogo]``: every deal of a finished game checked against its seed
        (commitment, deck, so every hand, morto and the stock), answered to the person:
        OK per deal, or exactly what does not match (:func:`bot.fairness.verdict_lines`)."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        none_yet = NONE_YET_TERMINAL if solo(chat) else NONE_YET
        active = await self._active(chat)  # a game found over is closed out first
        typed = args.strip().lower()
        if typed:
            found = GAME_ARG.fullmatch(typed)
            if found is None:
                return await self._reply(chat, user, BAD_ARG_TERMINAL if solo(chat)
                                         else BAD_ARG, lang)
            gid: str | None = found[1]
        else:
            gid = await self.store.get_setting(chat.key, "last_game")
        if (active is not None and gid in (None, active)) or (gid and await self._in_play(gid)):
            return await self._reply(chat, user, IN_PLAY, lang)
        if gid is None:
            return await self._reply(chat, user, none_yet, lang)
        try:
            text = await self.store.load_record(gid)
        except CorruptGame as err:
            log.error("game %s: record unreadable (%s)", gid, err)
            return await self._reply(chat, user, CORRUPT, lang)
        if text is None:
            return await self._reply(chat, user, UNKNOWN_GAME if typed else none_yet, lang,
                                     game=gid)
        script = SCRIPT_TERMINAL if solo(chat) else SCRIPT
        return [Reply(player=user, text=self._verdict(gid, text, Translator(lang), script))]

    async def _in_play(self, gid: str) -> bool:
        """Whether game ``gid`` is stored and not over (its record is not out yet); an
        unreadable stored game counts as not in play (its record decides)."""
        try:
            got = await self.store.load_game(gid)
            return got is not None and self._parsed(gid, got).status != "over"
        except CorruptGame:
            return False

    @staticmethod
    def _verdict(gid: str, text: str, _: Translator, script: str = SCRIPT) -> str:
        try:
            record = json.loads(text)
            checks = verify_record(record)
        except MalformedRecord as err:
            reason = _(err.template, **err.params, **(
                {"reason": _(err.cause.template, **err.cause.params)} if err.cause else {}))
            return _(UNREADABLE, game=gid, reason=reason)
        except ValueError:
            return _(UNREADABLE, game=gid, reason="JSON")
        players = [str(p) for p in record["players"]]
        return "\n".join([_(HEADER, game=gid), *fairness.verdict_lines(checks, players, _),
                          _(script)])
