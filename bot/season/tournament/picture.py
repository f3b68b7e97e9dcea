"""The tournament in a picture (issue 29 "Pictures"): every round as a column of its
matches (a knockout's columns joined as a bracket), each match a box with both sides and
their scores, the winner in bold; the text of ``/torneio tabela`` is its caption (alt
text). Drawn with the match picture's machinery (:mod:`bot.season.picture`: matplotlib's
object API on the Agg canvas, in a worker thread, cached by content)."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from bot.effects import Effect, Picture, Say
from bot.i18n import Translator
from bot.season import picture as shared
from bot.season.tournament import texts
from bot.season.tournament.model import Match, Tournament

log = logging.getLogger(__name__)
Box = tuple[str, str, int]
"""A match's box: side a's line, side b's line, which won (0, 1; -1 none yet)."""


@dataclass(frozen=True, slots=True)
class Board:
    """What the picture shows: ``title``, per round its name and boxes, ``bracket``
    (join the columns as a knockout's), ``footer`` (the champion, or what is next)."""

    title: str
    rounds: tuple[tuple[str, tuple[Box, ...]], ...]
    bracket: bool
    footer: str

    def key(self) -> str:
        """The cache key: a digest of everything drawn."""
        text = json.dumps(["tournament", self.title, self.rounds, self.bracket,
                           self.footer], ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


def _box(t: Tournament, m: Match, _: Translator) -> Box:
    a, b = texts.side_name(t, m.a), texts.side_name(t, m.b)
    if m.b is None:
        return a, _("(bye)"), 0
    if m.winner is None:
        return a, b, -1
    if m.absent:
        a += " W.O." if m.a in m.absent else ""
        b += " W.O." if m.b in m.absent else ""
    else:
        a, b = f"{a}  {m.score[0]}", f"{b}  {m.score[1]}"
    return a, b, (0 if m.winner == m.a else 1 if m.winner == m.b else -1)


def board_of(t: Tournament, _: Translator) -> Board:
    """The picture's content for ``t`` in the group's language."""
    rounds = tuple((texts.round_name(t, r, _),
                    tuple(_box(t, m, _) for m in t.matches if m.round == r))
                   for r in range(1, t.rounds() + 1))
    footer = (_("Campeão: {side}", side=texts.side_name(t, t.champion))
              if t.status == "over" else "")
    return Board(texts.title(t, _).removeprefix("🏆 "), rounds, t.knockout, footer)


def draw(board: Board) -> bytes:
    """The board as PNG bytes, from the shared cache when drawn before."""
    return shared.cached(board.key(), lambda: _draw(board))


def _draw(board: Board) -> bytes:
    cols = max(1, len(board.rounds))
    rows = max([len(boxes) for _n, boxes in board.rounds] or [1])
    fig = shared.figure(0.4 + 2.8 * cols, 1.2 + 0.75 * rows)
    ax: Any = fig.add_subplot()
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    ax.axis("off")
    ax.set_title(board.title, fontsize="medium")
    from matplotlib.patches import Rectangle

    for c, (name, boxes) in enumerate(board.rounds):
        ax.text(c + 0.45, rows, name, ha="center", va="bottom", fontsize="small",
                fontweight="bold")
        step = rows / max(1, len(boxes))
        for i, (top, bottom, won) in enumerate(boxes):
            y = rows - (i + 0.5) * step
            ax.add_patch(Rectangle((c + 0.05, y - 0.3), 0.8, 0.6, fill=False,
                                   edgecolor="#555555", linewidth=1))
            for j, line in enumerate((top, bottom)):
                ax.text(c + 0.1, y + (0.13 if j == 0 else -0.13), line, va="center",
                        fontsize="x-small", fontweight="bold" if won == j else "normal",
                        color=shared.COLOURS[j])
            if board.bracket and c + 1 < cols:
                ax.plot([c + 0.85, c + 1.05], [y, rows - (i // 2 + 0.5) * step * 2],
                        color="#999999", linewidth=0.8)
    if board.footer:
        ax.text(cols / 2, -0.05, board.footer, ha="center", va="top", fontsize="small",
                fontweight="bold")
    return shared.png_of(fig)


async def drawn(t: Tournament, _: Translator) -> bytes | None:
    """The tournament's picture as PNG bytes, drawn off the event loop; None when the
    drawing fails (logged by its kind: the text then goes alone)."""
    board = board_of(t, _)
    try:
        return await shared.in_thread(board.key(), lambda: _draw(board))
    except Exception as err:  # matplotlib missing or failing
        log.error("tournament %s: picture failed (%s)", t.id, type(err).__name__)
        return None


def pictured(t: Tournament, text: str, png: bytes | None) -> Picture | None:
    """``text`` as the caption of the tournament's picture ``png`` (None: none)."""
    return None if png is None else Picture(chat=t.chat, filename=f"torneio-{t.id}.png",
                                            content=png, caption=text)


async def after_round(t: Tournament, notes: list[tuple[str, int]],
                      effects: list[Effect]) -> list[Effect]:
    """``effects`` with each round's end (:func:`.texts.round_text`, said when ``notes``
    end a round) sent as the picture with that text as its caption, in its place: one
    message, in order (issue 38: the standings came as a text and again as the
    picture's caption); the text alone when the drawing fails."""
    _ = Translator(t.lang)
    ends = {texts.round_text(t, r, _) for kind, r in notes if kind == "round"}
    if not ends:
        return effects
    png = await drawn(t, _)
    return [(pictured(t, e.text, png) or e) if isinstance(e, Say) and e.text in ends else e
            for e in effects]
