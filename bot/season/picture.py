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
COLOURS = ("#1f77b4", "#d62728", "#2ca02c")


@dataclass(frozen=True, slots=True)
class Chart:
    """What the picture shows: ``title``, per side its ``label`` and running ``totals``
    (0 first, then after each deal), the ``target`` line (None: none), axis labels."""

    title: str
    labels: tuple[str, ...]
    totals: tuple[tuple[int, ...], ...]
    target: int | None
    x_label: str
    y_label: str

    def key(self) -> str:
        """The cache key: a digest of everything drawn."""
        text = json.dumps([self.title, self.labels, self.totals, self.target, self.x_label,
                           self.y_label], ensure_ascii=False)
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


def figure(width: float, height: float) -> Any:
    """A matplotlib ``Figure`` on its own Agg canvas (the object API, never pyplot: no
    global state shared by threads), ``width`` x ``height`` inches at 100 dpi."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # only the chats draw
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def png_of(fig: Any) -> bytes:
    """The figure as PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def draw(chart: Chart) -> bytes:
    """The chart as PNG bytes (640 x 360 pixels), from the cache when drawn before."""
    return cached(chart.key(), lambda: _draw(chart))


def _draw(chart: Chart) -> bytes:
    fig = figure(6.4, 3.6)  # layout="constrained": tight_layout took 1.3x
    ax = fig.add_subplot()
    deals = range(len(chart.totals[0]))
    for i, (label, totals) in enumerate(zip(chart.labels, chart.totals, strict=True)):
        ax.plot(deals, totals, marker="o", label=label, color=COLOURS[i % len(COLOURS)])
    if chart.target is not None:
        ax.axhline(chart.target, linestyle="--", color="grey", linewidth=1)
    ax.set_title(chart.title)
    ax.set_xlabel(chart.x_label)
    ax.set_ylabel(chart.y_label)
    ax.set_xticks(list(deals))
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    return png_of(fig)


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
        labels.append(_("{side} (vencedor)", side=label) if side == facts.winner else label)
    rules = play.rules_of(game)
    return Chart(_("Partida de {variant}", variant=views.PRESET_TITLES.get(
        game.preset, game.preset)), tuple(labels), tuple(tuple(t) for t in running),
        rules.target, _("mão"), _("pontos"))


def caption_of(game: Game, facts: MatchFacts, _: Translator) -> str:
    """The picture's text: the winner, then per side its total, canastras and batidas."""
    state = play.deal_of(game)
    lines = [_("Fim da partida! Vencedor: {side} com {n} pontos.", side=views.side_label(
        game, facts.winner, state.teams[facts.winner], _), n=facts.sides[facts.winner].total)]
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
