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
import textwrap
from dataclasses import dataclass
from typing import Any

from bot import views
from bot.effects import ChatRef, Picture
from bot.i18n import Translator
from bot.season import phone
from bot.season.picture import cached, in_thread, png_of


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
        text = json.dumps(["profile2", self.title, self.trend, self.labels, self.matches,
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
    """The chart as PNG bytes (720 pixels wide, for a phone: :mod:`bot.season.phone`),
    from the cache when drawn before."""
    return cached(chart.key(), lambda: _draw(chart))


def _draw(chart: ProfileChart) -> bytes:
    return png_of(chart_figure(chart))


def chart_figure(chart: ProfileChart) -> Any:
    """The chart as a matplotlib ``Figure``, 3.6 inches wide at 200 dpi, the panels one
    under the other: the rating after each match (whole numbers), then per variant its
    matches and wins as horizontal bars with the counts at their ends."""
    rows = max(1, len(chart.labels))
    bars_in = 0.75 + 0.62 * rows
    fig = phone.figure(phone.band_in(chart.title) + 2.6 + bars_in, chart.title)
    line, bars = fig.subplots(2, 1, height_ratios=[2.4, bars_in])
    for ax in (line, bars):
        phone.style_axes(ax)
    points = range(1, len(chart.trend) + 1)
    line.plot(points, chart.trend, marker="o", linewidth=2.2, color=phone.BLUE)
    line.set_title(chart.trend_title, fontsize=phone.TEXT_PT, color=phone.INK,
                   fontweight="bold", loc="left")
    line.set_xlabel(chart.trend_x, fontsize=phone.TEXT_PT, color=phone.INK)
    phone.whole_ticks(line.yaxis)
    line.set_xticks(list(points) if len(points) <= 6 else list(points)[::2])
    line.set_xlim(0.5, len(points) + 0.5)  # one match: a tick at 1, not five "1"s
    if chart.trend:
        low, high = min(chart.trend), max(chart.trend)
        line.set_ylim(low - max(2, (high - low) * 0.15), high + max(2, (high - low) * 0.15))
    spots = list(range(rows))[::-1]  # the first variant on top
    names = [textwrap.fill(label, 14) for label in chart.labels]
    bars.barh([y + 0.2 for y in spots[:len(chart.labels)]], chart.matches, 0.38,
              label=chart.matches_label, color=phone.BLUE)
    bars.barh([y - 0.2 for y in spots[:len(chart.labels)]], chart.wins, 0.38,
              label=chart.wins_label, color=phone.GREEN)
    for y, matches, wins in zip(spots, chart.matches, chart.wins, strict=False):
        for dy, value in ((0.2, matches), (-0.2, wins)):
            bars.text(value, y + dy, f" {value}", va="center", ha="left",
                      fontsize=phone.TEXT_PT, color=phone.INK)
    bars.set_yticks(spots[:len(chart.labels)], names, fontsize=phone.TEXT_PT)
    bars.set_title(chart.bars_title, fontsize=phone.TEXT_PT, color=phone.INK,
                   fontweight="bold", loc="left")
    phone.whole_ticks(bars.xaxis)
    bars.grid(alpha=0.3, axis="x")
    bars.grid(False, axis="y")
    bars.set_xlim(0, max([*chart.matches, 1]) * 1.25)
    if chart.labels:
        fig.legend(loc="outside lower center", fontsize=phone.TEXT_PT, frameon=False,
                   ncols=2)
    return fig


async def picture_effect(chat: ChatRef, chart: ProfileChart, caption: str) -> Picture:
    """The profile's picture for ``chat`` with ``caption`` (the profile's text), drawn
    in a worker thread."""
    png = await in_thread(chart.key(), lambda: _draw(chart))
    return Picture(chat=chat, filename="perfil.png", content=png, caption=caption)
