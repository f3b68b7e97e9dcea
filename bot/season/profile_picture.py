"""The profile in a picture (issue 29 "Pictures"): ``/perfil``'s rating trend as a line
and its matches and wins by variant as bars, sent with the profile's text as the
caption (alt text) for those who cannot see it.

Drawn with the season's picture machinery (:mod:`bot.season.picture`: a matplotlib
``Figure`` on the Agg canvas, never pyplot; in a worker thread; cached by a digest of
everything drawn, so the same profile asked again is not drawn twice).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from bot import views
from bot.effects import ChatRef, Picture
from bot.i18n import Translator
from bot.season.picture import COLOURS, cached, figure, in_thread, png_of

WIDTH, HEIGHT = 8.0, 3.6
"""Inches at 100 dpi: 800 x 360 pixels (two panels side by side)."""


@dataclass(frozen=True, slots=True)
class ProfileChart:
    """What the profile's picture shows: ``title``; the rating ``trend`` oldest first
    (its panel titled ``trend_title``, x axis ``trend_x``); per variant its ``labels``,
    ``matches`` and ``wins`` (bars, the panel titled ``bars_title``, the two series
    named ``matches_label`` and ``wins_label``)."""

    title: str
    trend: tuple[int, ...]
    labels: tuple[str, ...]
    matches: tuple[int, ...]
    wins: tuple[int, ...]
    trend_title: str
    trend_x: str
    bars_title: str
    matches_label: str
    wins_label: str

    def key(self) -> str:
        """The cache key: a digest of everything drawn (tagged apart from the match's)."""
        text = json.dumps(["profile", self.title, self.trend, self.labels, self.matches,
                           self.wins, self.trend_title, self.trend_x, self.bars_title,
                           self.matches_label, self.wins_label], ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


def chart_of(name: str, fields: dict[str, str], trend: list[int],
             _: Translator) -> ProfileChart | None:
    """The chart of a profile (``fields``: the person's counters in the group, as the
    store keeps them; ``trend``: the ratings shown after their last matches, newest
    first), in the chat's language; None when there is nothing to draw (no match)."""
    n = {k: int(v) for k, v in fields.items() if v.lstrip("-").isdigit()}
    variants = sorted(k.split(":", 1)[1] for k in n if k.startswith("matches:"))
    if not variants and not trend:
        return None
    return ProfileChart(
        title=_("Perfil de {name} neste grupo", name=name),
        trend=tuple(reversed(trend)),
        labels=tuple(views.PRESET_TITLES.get(v, v) for v in variants),
        matches=tuple(n[f"matches:{v}"] for v in variants),
        wins=tuple(n.get(f"wins:{v}", 0) for v in variants),
        trend_title=_("Rating nas últimas partidas"), trend_x=_("partida"),
        bars_title=_("Por variante"), matches_label=_("partidas"),
        wins_label=_("vitórias"))


def draw(chart: ProfileChart) -> bytes:
    """The chart as PNG bytes (800 x 360 pixels), from the cache when drawn before."""
    return cached(chart.key(), lambda: _draw(chart))


def _draw(chart: ProfileChart) -> bytes:
    fig = figure(WIDTH, HEIGHT)
    fig.suptitle(chart.title)
    line, bars = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    points = range(1, len(chart.trend) + 1)
    line.plot(points, chart.trend, marker="o", color=COLOURS[0])
    line.set_title(chart.trend_title, fontsize="medium")
    line.set_xlabel(chart.trend_x)
    line.set_xticks(list(points))
    line.grid(alpha=0.3)
    spots = range(len(chart.labels))
    bars.bar([x - 0.2 for x in spots], chart.matches, 0.4, label=chart.matches_label,
             color=COLOURS[0])
    bars.bar([x + 0.2 for x in spots], chart.wins, 0.4, label=chart.wins_label,
             color=COLOURS[2])
    bars.set_title(chart.bars_title, fontsize="medium")
    bars.set_xticks(list(spots), list(chart.labels), fontsize="small")
    bars.yaxis.get_major_locator().set_params(integer=True)
    bars.grid(alpha=0.3, axis="y")
    if chart.labels:  # headroom above the tallest bar for the legend
        bars.set_ylim(0, max(chart.matches) * 1.3 + 0.5)
        bars.legend(loc="upper right", fontsize="small")
    return png_of(fig)


async def picture_effect(chat: ChatRef, chart: ProfileChart, caption: str) -> Picture:
    """The profile's picture for ``chat`` with ``caption`` (the profile's text), drawn
    in a worker thread."""
    png = await in_thread(chart.key(), lambda: _draw(chart))
    return Picture(chat=chat, filename="perfil.png", content=png, caption=caption)
