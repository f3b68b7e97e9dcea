"""The match in a picture (issue 29 "Pictures"): each side's score deal by deal as a line
chart, the target, the winner, with the text (the caption) for those who cannot see it.

Drawn with matplotlib's object API (a ``Figure`` on the Agg canvas, never pyplot: no
global state shared by threads), off the event loop (:func:`picture_effect` runs the
drawing in a worker thread), and cached by content: the same chart asked again (a
follow-up redone) is not drawn twice (:data:`CACHED` pictures kept).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Any

from bot import play, views
from bot.effects import Picture
from bot.i18n import Translator
from bot.model import Game
from bot.season.facts import MatchFacts

CACHED = 32
_cache: OrderedDict[str, bytes] = OrderedDict()
_lock = Lock()


@dataclass(frozen=True, slots=True)
class Chart:
    """What the picture shows: ``title``, per side its ``label`` and running ``totals``
    (0 first, then after each deal), the ``target`` line (None: none) and its
    ``target_label`` (``"alvo 1500"``), axis labels."""

    title: str
    labels: tuple[str, ...]
    totals: tuple[tuple[int, ...], ...]
    target: int | None
    x_label: str
    y_label: str
    target_label: str = ""

    def key(self) -> str:
        """The cache key: a digest of everything drawn."""
        text = json.dumps(["match2", self.title, self.labels, self.totals, self.target,
                           self.x_label, self.y_label, self.target_label],
                          ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


def cached(key: str, make: Callable[[], bytes]) -> bytes:
    """The PNG cached under ``key`` (a digest of everything drawn), else ``make()``
    drawn now and kept (the last :data:`CACHED`); thread-safe, so drawings run in worker
    threads (:func:`in_thread`). Shared by every picture of the season (the match, the
    tournament bracket)."""
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    png = make()
    with _lock:
        _cache[key] = png
        while len(_cache) > CACHED:
            _cache.popitem(last=False)
    return png


async def in_thread(key: str, make: Callable[[], bytes]) -> bytes:
    """:func:`cached` run in a worker thread, off the event loop."""
    return await asyncio.to_thread(cached, key, make)


def png_of(fig: Any) -> bytes:
    """The figure as PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def draw(chart: Chart) -> bytes:
    """The chart as PNG bytes (720 pixels wide, for a phone: :mod:`bot.season.phone`),
    from the cache when drawn before."""
    return cached(chart.key(), lambda: _draw(chart))


def _draw(chart: Chart) -> bytes:
    return png_of(chart_figure(chart))


def chart_figure(chart: Chart) -> Any:
    """The chart as a matplotlib ``Figure`` (3.6 x 4.4 inches at 200 dpi): the title
    band, each side's running score as a line, the target dashed and labelled, whole
    numbers on both axes, the legend (long names) below the plot."""
    from bot.season import phone

    fig = phone.figure(phone.band_in(chart.title) + 3.8, chart.title)
    ax = fig.add_subplot()
    phone.style_axes(ax)
    deals = range(len(chart.totals[0]))
    for i, (label, totals) in enumerate(zip(chart.labels, chart.totals, strict=True)):
        ax.plot(deals, totals, marker="o", linewidth=2.2, markersize=5,
                label=phone.shorten(label, 36), color=phone.SIDES[i % len(phone.SIDES)])
    if chart.target is not None:
        ax.axhline(chart.target, linestyle="--", color=phone.GREY, linewidth=1.2)
        ax.annotate(chart.target_label, (0, chart.target), xytext=(2, 3),
                    textcoords="offset points", fontsize=phone.TEXT_PT, color=phone.GREY,
                    va="bottom", ha="left")
        top = max(max(max(t) for t in chart.totals), chart.target)
        bottom = min(0, *(min(t) for t in chart.totals))
        ax.set_ylim(bottom - 0.05 * (top - bottom or 1), top + 0.16 * (top - bottom or 1))
    ax.set_xlabel(chart.x_label, fontsize=phone.TEXT_PT, color=phone.INK)
    ax.set_ylabel(chart.y_label, fontsize=phone.TEXT_PT, color=phone.INK)
    phone.whole_ticks(ax.xaxis)
    phone.whole_ticks(ax.yaxis)
    ax.set_xticks(list(deals) if len(deals) <= 8 else list(deals)[::2])
    fig.legend(loc="outside lower center", ncols=1, fontsize=phone.TEXT_PT,
               frameon=False, labelcolor=phone.INK)
    return fig


def chart_of(game: Game, facts: MatchFacts, _: Translator) -> Chart:
    """The chart of finished ``game`` in the chat's language."""
    state = play.deal_of(game)
    running = [[0] for _side in facts.sides]
    for deal in facts.deals:
        for side, points in enumerate(deal.totals):
            running[side].append(running[side][-1] + points)
    labels = []
    for side, team in enumerate(state.teams):
        label = views.side_label(game, side, team, _)
        labels.append(_.n("{side} (vencedor)", "{side} (vencedores)", len(team), side=label)
                      if side == facts.winner else label)  # a dupla wins in the plural
    rules = play.rules_of(game)
    return Chart(_("Partida de {variant}", variant=views.PRESET_TITLES.get(
        game.preset, game.preset)), tuple(labels), tuple(tuple(t) for t in running),
        rules.target, _("mão"), _("pontos"),
        _("alvo {value}", value=rules.target) if rules.target is not None else "")


def caption_of(game: Game, facts: MatchFacts, _: Translator) -> str:
    """The picture's text: per side its total, canastras and batidas. The winner is not
    named again: the match's end (:func:`bot.results.winner_text`) was just said in the
    same chat, and the chart labels the winner (a tester read "Fim da partida!" twice,
    issue 35)."""
    state = play.deal_of(game)
    lines = []
    for side, team in enumerate(state.teams):
        canastras = sum(len(d.canastras[side]) for d in facts.deals if side < len(d.canastras))
        batidas = sum(1 for d in facts.deals if d.went_out in team)
        lines.append(_("{side}: {n} pontos, canastras {c}, batidas {b}", side=views.side_label(
            game, side, team, _), n=facts.sides[side].total, c=canastras, b=batidas))
    return "\n".join(lines)


async def picture_effect(game: Game, facts: MatchFacts) -> Picture:
    """The match's picture for its chat, drawn in a worker thread."""
    _ = Translator(game.lang)
    chart = chart_of(game, facts, _)
    png = await in_thread(chart.key(), lambda: _draw(chart))
    return Picture(chat=game.chat, filename=f"{game.preset}-{game.id}.png", content=png,
                   caption=caption_of(game, facts, _))
