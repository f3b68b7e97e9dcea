"""The tournament in a picture (issue 29 "Pictures"; issue 38: designed for a phone,
:mod:`bot.season.phone`): the title in the felt band; a round robin's standings (place,
side, points, wins, losses, saldo); then round by round each match as a line, both
sides and the score between them, the winner in bold with a check mark, a walkover's
absent side greyed (a knockout's double W.O. says the better seed goes on), the match
being called highlighted; the champion in a gold band. The text of the standings is
its caption (alt text). Drawn with the match picture's machinery
(:mod:`bot.season.picture`: matplotlib's object API on the Agg canvas, in a worker
thread, cached by content)."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from bot.effects import Effect, Picture, Say
from bot.i18n import N_, Translator
from bot.season import phone
from bot.season import picture as shared
from bot.season.tournament import texts
from bot.season.tournament.model import Match, Tournament
from bot.season.tournament.standings import standings

log = logging.getLogger(__name__)
Line = tuple[str, str, str, str, int, bool, bool, str, bool]
"""A match's line: side a, side b, what stands at the right of each (its score, "W.O."
for an absent side, "a jogar" while not played), which won (0 a, 1 b, -1 none yet or
nobody), whether a and b were absent, a note under it (why a double W.O.'s winner goes
on; ``""`` none), whether it is the match being called or played."""
Standing = tuple[int, str, int, int, int, int]
"""Place, side, points, wins, losses, saldo."""
MAX_LINES = 8
"""Match lines drawn at most: the rounds nearest the current one (the rest is in the
caption)."""
NAME_CHARS, TABLE_CHARS, FOOTER_CHARS = 28, 16, 30
"""A side's name in a match line and in the standings, at most (then "…")."""
ROW_IN, HEAD_IN, NOTE_IN, GAP_IN = 0.28, 0.36, 0.26, 0.08
PLAYING = N_("a jogar")
BETTER_SEED = N_("{side} passa: melhor cabeça de chave")
COLUMNS = (N_("Pts"), N_("V"), N_("D"))
"""The standings' columns: points, wins, losses (then the saldo, "±")."""


@dataclass(frozen=True, slots=True)
class Board:
    """What the picture shows: ``title``; the standings (none in a knockout) under
    ``table_title`` with its ``columns``; per round its name and lines; ``hidden`` (how
    many rounds are left out, said by ``hidden_text``); ``footer`` (the champion)."""

    title: str
    table_title: str
    columns: tuple[str, ...]
    table: tuple[Standing, ...]
    rounds: tuple[tuple[str, tuple[Line, ...]], ...]
    hidden_text: str
    footer: str

    def key(self) -> str:
        """The cache key: a digest of everything drawn."""
        text = json.dumps(["tournament2", self.title, self.table_title, self.columns,
                           self.table, self.rounds, self.hidden_text, self.footer],
                          ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


def _line(t: Tournament, i: int, m: Match, _: Translator) -> Line:
    a, b = texts.side_name(t, m.a), texts.side_name(t, m.b)
    now = t.status == "running" and t.current == i
    if m.b is None:
        return a, _("(bye)"), "", "", 0, False, False, "", now
    won = -1 if m.winner is None or m.winner < 0 else 0 if m.winner == m.a else 1
    absent_a, absent_b = m.a in m.absent, m.b in m.absent
    if m.winner is None:
        right = (_(PLAYING), "")
    elif m.absent:
        right = ("W.O." if absent_a else "", "W.O." if absent_b else "")
    else:
        right = (str(m.score[0]), str(m.score[1]))
    note = (_(BETTER_SEED, side=texts.side_name(t, m.winner))
            if absent_a and absent_b and won >= 0 and m.winner is not None else "")
    return a, b, *right, won, absent_a, absent_b, note, now


def _shown_rounds(t: Tournament) -> list[int]:
    """The rounds drawn: the current one (the last when over), then earlier and later
    ones while :data:`MAX_LINES` allows (at least one round)."""
    total = t.rounds()
    if total == 0:
        return []
    size = {r: sum(1 for m in t.matches if m.round == r) for r in range(1, total + 1)}
    here = t.matches[t.current].round if t.current is not None and t.status == "running" \
        else total
    shown, used = [here], size[here]
    for r in [*range(here - 1, 0, -1), *range(here + 1, total + 1)]:
        if used + size[r] > MAX_LINES:
            continue
        shown.append(r)
        used += size[r]
    return sorted(shown)


def board_of(t: Tournament, _: Translator) -> Board:
    """The picture's content for ``t`` in the group's language."""
    shown = _shown_rounds(t)
    rounds = tuple((texts.round_name(t, r, _),
                    tuple(_line(t, i, m, _) for i, m in enumerate(t.matches) if m.round == r))
                   for r in shown)
    table: tuple[Standing, ...] = ()
    if not t.knockout and t.sides:
        table = tuple((place, texts.side_name(t, row.side), row.points, row.wins,
                       row.losses, row.saldo)
                      for place, row in enumerate(standings(len(t.sides), t.matches), 1))
    hidden = t.rounds() - len(shown)
    footer = (_("Campeão: {side}", side=texts.side_name(t, t.champion))
              if t.status == "over" else "")
    return Board(texts.title(t, _).removeprefix("🏆 "), _("Classificação:").rstrip(":"),
                 tuple(_(c) for c in COLUMNS), table, rounds,
                 _.n("+{n} rodada no texto", "+{n} rodadas no texto", hidden)
                 if hidden else "", footer)


def draw(board: Board) -> bytes:
    """The board as PNG bytes (720 pixels wide), from the shared cache when drawn
    before."""
    return shared.cached(board.key(), lambda: _draw(board))


def _draw(board: Board) -> bytes:
    return shared.png_of(board_figure(board))


def _height(board: Board) -> float:
    """Inches from the top of the picture to the bottom of its last row."""
    height = phone.band_in(board.title) + 0.12
    if board.table:
        height += HEAD_IN + ROW_IN * (len(board.table) + 1) + 0.1
    for _name, lines in board.rounds:
        height += HEAD_IN + sum(2 * ROW_IN + GAP_IN + (NOTE_IN if line[7] else 0)
                                for line in lines)
    height += NOTE_IN + 0.06 if board.hidden_text else 0
    return height + (0.5 if board.footer else 0) + 0.12


def board_figure(board: Board) -> Any:
    """The board as a matplotlib ``Figure``, 3.6 inches wide at 200 dpi, as tall as its
    rows (module docstring); laid out in inches from the top."""
    height = _height(board)
    fig = phone.figure(height)
    phone.title_band(fig, board.title)
    ax: Any = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, phone.WIDTH_IN)
    ax.set_ylim(height, 0)
    ax.axis("off")
    y = phone.band_in(board.title) + 0.12
    if board.table:
        y = _table(ax, board, y)
    for name, lines in board.rounds:
        y = _round(ax, name, lines, y)
    if board.hidden_text:
        _text(ax, 0.12, y + NOTE_IN / 2, board.hidden_text, colour=phone.GREY, italic=True)
        y += NOTE_IN + 0.06
    if board.footer:
        _band(ax, y + 0.04, 0.42, phone.GOLD)
        _text(ax, phone.WIDTH_IN / 2, y + 0.25, phone.shorten(board.footer, FOOTER_CHARS),
              ha="center", bold=True, size=phone.TITLE_PT)
    return fig


def _text(ax: Any, x: float, y: float, text: str, ha: str = "left", bold: bool = False,
          colour: str = phone.INK, italic: bool = False, size: float = phone.TEXT_PT) -> None:
    ax.text(x, y, text, ha=ha, va="center", fontsize=size, color=colour,
            fontweight="bold" if bold else "normal", fontstyle="italic" if italic else "normal")


def _band(ax: Any, top: float, height: float, colour: str) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((0.06, top), phone.WIDTH_IN - 0.12, height, facecolor=colour,
                           edgecolor="none", zorder=0))


def _table(ax: Any, board: Board, y: float) -> float:
    """The standings from ``y`` (inches down); the ``y`` below them."""
    _text(ax, 0.12, y + HEAD_IN / 2, board.table_title, bold=True, colour=phone.FELT)
    y += HEAD_IN
    right = (2.3, 2.62, 2.9)
    for x, column in zip(right, board.columns, strict=True):
        _text(ax, x, y + ROW_IN / 2, column, ha="right", colour=phone.GREY)
    _text(ax, 3.5, y + ROW_IN / 2, "±", ha="right", colour=phone.GREY)
    y += ROW_IN
    for k, (place, name, points, wins, losses, saldo) in enumerate(board.table):
        if k % 2 == 0:
            _band(ax, y, ROW_IN, phone.FELT_LIGHT)
        middle = y + ROW_IN / 2
        _text(ax, 0.34, middle, f"{place}.", ha="right", colour=phone.GREY)
        _text(ax, 0.42, middle, phone.shorten(name, TABLE_CHARS), bold=place == 1)
        for x, value in zip(right, (points, wins, losses), strict=True):
            _text(ax, x, middle, str(value), ha="right", bold=x == right[0])
        _text(ax, 3.5, middle, f"{saldo:+d}", ha="right")
        y += ROW_IN
    return y + 0.1


def _round(ax: Any, name: str, lines: tuple[Line, ...], y: float) -> float:
    """One round's heading and its matches from ``y``, each match two lines (one per
    side: a check mark by the winner, the name, its score or "W.O." at the right); the
    ``y`` below them."""
    _text(ax, 0.12, y + HEAD_IN / 2, name, bold=True, colour=phone.FELT)
    y += HEAD_IN
    for a, b, right_a, right_b, won, absent_a, absent_b, note, now in lines:
        card = 2 * ROW_IN + (NOTE_IN if note else 0)
        _band(ax, y, card, "#fff3cd" if now else phone.FELT_LIGHT)
        scores = (right_a, right_b)
        for j, (who, absent) in enumerate(((a, absent_a), (b, absent_b))):
            middle = y + ROW_IN * (j + 0.5)
            lost = absent or (won >= 0 and won != j)
            if won == j:
                _text(ax, 0.13, middle, "✓", bold=True, colour=phone.GREEN)
            _text(ax, 0.38, middle, phone.shorten(who, NAME_CHARS), bold=won == j,
                  colour=phone.GREY if lost else phone.INK)
            _text(ax, 3.48, middle, scores[j], ha="right", bold=won == j,
                  colour=phone.GREY if lost or won < 0 else phone.INK)
        if note:
            _text(ax, 0.38, y + 2 * ROW_IN + NOTE_IN / 2, note, colour=phone.GREY,
                  italic=True)
        y += card + GAP_IN
    return y


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
