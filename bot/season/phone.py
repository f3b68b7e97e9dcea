"""The season's pictures are read on a phone (issue 38 "Pictures"): every one is drawn
:data:`WIDTH_IN` inches wide at :data:`DPI` (720 pixels), so shown :data:`SHOWN_PX`
pixels wide (a chat bubble on a phone) one point is 100/72 pixels and the smallest text
(:data:`TEXT_PT`) is 14.6 pixels; they grow down, never sideways. The colours are the
web table's (``adapters/web/static/style.css``): the felt green, the card's cream, the
suits' red and ink, the accent gold.

``tests/test_season_pictures_layout.py`` checks every kind: no two texts overlap, none
leaves the picture, none is smaller than 14 pixels at 360 pixels wide."""

from __future__ import annotations

from typing import Any

WIDTH_IN = 3.6
DPI = 200
SHOWN_PX = 360
"""A picture is laid out for this display width (pixels)."""
TEXT_PT = 10.5
"""The smallest text: 14.6 pixels when the picture is shown :data:`SHOWN_PX` wide."""
TITLE_PT = 12.5
FELT, FELT_LIGHT, CARD = "#0f5132", "#e3efe7", "#fffdf7"
INK, GREY, RED, BLUE, GREEN, GOLD = ("#1b1b1b", "#5f6b66", "#c62828", "#1565c0",
                                     "#2e7d32", "#ffca28")
SIDES = (BLUE, RED, GREEN)
"""The sides' colours, in seat order (a side's line, its bars)."""
TITLE_LINE_IN, TITLE_PAD_IN = 0.24, 0.16
"""A title line's height in the felt band, and the band's padding (a band of 1 to 3
lines: :func:`band_in`)."""
TITLE_CHARS = 32
"""Characters of a title line at :data:`TITLE_PT` across :data:`WIDTH_IN`."""


def shown_px(points: float) -> float:
    """The height in pixels of a ``points`` font when the picture is shown
    :data:`SHOWN_PX` pixels wide."""
    return points * DPI / 72 * SHOWN_PX / (WIDTH_IN * DPI)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (a long name must not run
    into the next column)."""
    return text if len(text) <= limit else text[:max(1, limit - 1)].rstrip() + "…"


def title_lines(text: str, most: int = 3) -> str:
    """``text`` wrapped to at most ``most`` lines of :data:`TITLE_CHARS` (the last cut)."""
    import textwrap

    lines = textwrap.wrap(text, TITLE_CHARS) or [""]
    if len(lines) > most:
        lines = [*lines[:most - 1], shorten(" ".join(lines[most - 1:]), TITLE_CHARS)]
    return "\n".join(lines)


def band_in(title: str) -> float:
    """The felt band's height (inches) for ``title``."""
    return TITLE_PAD_IN + TITLE_LINE_IN * title_lines(title).count("\n") + TITLE_LINE_IN


def figure(height_in: float, title: str | None = None) -> Any:
    """A :data:`WIDTH_IN` x ``height_in`` inch ``Figure`` at :data:`DPI` on its own Agg
    canvas (never pyplot), the card's cream behind; with ``title``, the felt band
    (:func:`title_band`) and a constrained layout of the axes below it; without, no
    layout (the caller places everything)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # only the chats draw
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    layout = None if title is None else ConstrainedLayoutEngine(
        rect=(0.0, 0.0, 1.0, 1.0 - band_in(title) / height_in), h_pad=0.06, w_pad=0.06)
    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI, facecolor=CARD, layout=layout)
    FigureCanvasAgg(fig)
    if title is not None:
        title_band(fig, title)
    return fig


def title_band(fig: Any, title: str) -> None:
    """The felt band across the top with ``title`` in it (up to three lines)."""
    from matplotlib.patches import Rectangle

    height = band_in(title) / fig.get_figheight()
    fig.add_artist(Rectangle((0, 1 - height), 1, height, transform=fig.transFigure,
                             facecolor=FELT, edgecolor="none", zorder=0))
    fig.text(0.5, 1 - height / 2, title_lines(title), ha="center", va="center",
             color="white", fontsize=TITLE_PT, fontweight="bold", linespacing=1.15)


def style_axes(ax: Any) -> None:
    """An axes in the pictures' style: ink ticks of :data:`TEXT_PT`, a light grid, no
    top or right frame."""
    ax.set_facecolor(CARD)
    ax.tick_params(labelsize=TEXT_PT, colors=INK)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.grid(alpha=0.3)


def whole_ticks(axis: Any) -> None:
    """Ticks on whole numbers only, written without decimals or an offset (a rating
    axis read "1072.5")."""
    from matplotlib.ticker import MaxNLocator, StrMethodFormatter

    axis.set_major_locator(MaxNLocator(integer=True, nbins=5))
    axis.set_major_formatter(StrMethodFormatter("{x:.0f}"))
