"""The season's chat calls (issue 29): ``/ranking [semana|mes|ano|sempre|geral]`` and
``/perfil [@pessoa|publico|privado]``. :class:`bot.service.Service` extends
:class:`SeasonCalls`; the texts are :mod:`bot.season.texts`'."""

from __future__ import annotations

import logging
import re

from bot import views
from bot.effects import ChatRef, Effect, PlayerRef, Reply
from bot.i18n import N_, Translator
from bot.outcome import echo
from bot.runner import GameRunner
from bot.season import profile_picture, texts
from bot.season.periods import PERIOD_WORDS, period_key
from bot.season.rating import Rating

log = logging.getLogger(__name__)

RANKING_ROWS = 10
"""Rows ``/ranking`` shows."""
PUBLIC_WORDS = {"publico": True, "público": True, "public": True, "pubblico": True,
                "privado": False, "private": False, "privato": False}
PLATFORM_WORDS = {"geral", "global", "generale", "todos"}
MENTION = re.compile(r"<@!?(\d+)>")
NO_SEASON = N_("O ranking não está disponível neste bot.")
SOLO_RANKING = N_("No terminal o ranking é por período: ranking semana, mes, ano ou sempre.")
SOLO_PROFILE = N_("No terminal, perfil mostra o seu perfil: digite só perfil.")
"""The terminal (``bot.views.SOLO_PLATFORMS``) counts its one person's matches against
the robots as a group's (issue 30), with nobody else to compare: no ranking across
groups, no one else's profile, no choice of appearing."""


class SeasonCalls(GameRunner):
    """``/ranking`` and ``/perfil`` over :attr:`season` (see the module docstring)."""

    async def ranking(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                      update: str | None = None) -> list[Effect]:
        """``/ranking [semana|mes|ano|sempre]``: the group's ranking of the period, best
        :data:`RANKING_ROWS` (wins, then points), with win rate and rating;
        ``/ranking geral``: the people of this group who chose to appear, by their rating
        across groups. An unknown period is named in the reply."""
        if not await self._fresh(update, chat):
            return []
        _ = Translator(await self._lang(chat))
        season = self.season
        if season is None:
            return [Reply(player=user, text=_(NO_SEASON))]
        word = args.strip().lower()
        solo = chat.platform in views.SOLO_PLATFORMS
        if solo and word in PLATFORM_WORDS:
            return [Reply(player=user, text=_(SOLO_RANKING))]
        if word in PLATFORM_WORDS:
            members = await season.members(chat.key)
            keys = sorted(members)
            got = await season.public_ratings(keys)
            shown = [(members[k], t) for k, t in zip(keys, got, strict=True) if t is not None]
            shown.sort(key=lambda row: -Rating.parse(row[1]).shown)
            return [Reply(player=user, text=texts.platform_text(shown[:RANKING_ROWS], _))]
        kind = PERIOD_WORDS.get(word)
        if kind is None:
            unknown = (N_("Período desconhecido: {word}. Use semana, mes, ano ou sempre.")
                       if solo else
                       N_("Período desconhecido: {word}. Use semana, mes, ano, sempre ou "
                          "geral."))
            return [Reply(player=user, text=_(unknown, word=echo(args.strip())))]
        rows = await season.standings(chat.key, period_key(kind, self.clock.now()),
                                      RANKING_ROWS)
        return [Reply(player=user, text=texts.standings_text(kind, rows, _, solo))]

    async def profile(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                      update: str | None = None) -> list[Effect]:
        """``/perfil``: the person's profile in this group; ``/perfil @Ana`` (a name of
        the group's ranking, or a platform mention ``<@id>``) someone else's;
        ``/perfil publico`` / ``privado``: whether one appears in ``/ranking geral``.
        The profile comes as a picture (the rating trend and the matches and wins by
        variant, :mod:`bot.season.profile_picture`) with its text as the caption; the
        text alone when there is nothing to draw or the drawing fails."""
        if not await self._fresh(update, chat):
            return []
        _ = Translator(await self._lang(chat))
        season = self.season
        if season is None:
            return [Reply(player=user, text=_(NO_SEASON))]
        word = args.strip()
        solo = chat.platform in views.SOLO_PLATFORMS
        if solo and word:
            return [Reply(player=user, text=_(SOLO_PROFILE))]
        if word.lower() in PUBLIC_WORDS:
            appear = PUBLIC_WORDS[word.lower()]
            await season.set_public(user.key, appear)
            said = (_("Você aparece no ranking geral.") if appear
                    else _("Você não aparece mais no ranking geral."))
            return [Reply(player=user, text=said)]
        members = await season.members(chat.key)
        key = user.key if not word else _find(chat, word, members)
        if key is None or (word and key not in members):
            return [Reply(player=user, text=_(
                "Não achei {name} entre quem já jogou neste grupo.", name=echo(word)))]
        fields, trend = await season.profile(chat.key, key)
        rating = (await season.ratings(chat.key, [key]))[0]
        public = (await season.public_ratings([key]))[0]
        name = members.get(key, user.name)
        text = texts.profile_text(name, fields, trend, rating, public, _, solo)
        return await _with_picture(chat, user, name, fields, trend, text, _)


async def _with_picture(chat: ChatRef, user: PlayerRef, name: str, fields: dict[str, str],
                        trend: list[int], text: str, _: Translator) -> list[Effect]:
    """The profile as a picture with ``text`` as its caption (issue 29), or ``text`` alone
    as the reply: in the terminal (one person, no pictures), with nothing to draw (no
    match yet), or when the drawing fails (logged by its kind)."""
    chart = None if chat.platform in views.SOLO_PLATFORMS else profile_picture.chart_of(
        name, fields, trend, _)
    if chart is not None:
        try:
            return [await profile_picture.picture_effect(chat, chart, text)]
        except Exception as err:  # matplotlib missing or failing: the text says it all
            log.error("chat %s: profile picture failed (%s)", chat.key, type(err).__name__)
    return [Reply(player=user, text=text)]


def _find(chat: ChatRef, word: str, members: dict[str, str]) -> str | None:
    """The person ``word`` names: a platform mention ``<@123>`` (Discord), else the one
    member whose name is ``word`` without its ``@`` (case-insensitive)."""
    mention = MENTION.fullmatch(word)
    if mention:
        return f"{chat.platform}:{mention.group(1)}"
    wanted = word.removeprefix("@").strip().casefold()
    found = [k for k, name in members.items() if name.casefold() == wanted]
    return found[0] if len(found) == 1 else None
