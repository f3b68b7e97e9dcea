"""Every season picture is readable on a phone (issue 38 "Pictures": the tournament
title overlapped the round headings, the strips were 880 x 195 with 8-pixel names, the
round robin showed no points, a double W.O.'s winner read as a loss, the match picture
said "(vencedor)" of a dupla and left its target line unlabelled, rating axes read
"1072.5"). A layout check of each kind (the match, the profile, a round robin, a
knockout, in pairs and singles, pt/en/it, short and long names): 720 pixels wide, no
two texts overlap, none leaves the picture, none is under 14 pixels when the picture is
shown 360 pixels wide (:mod:`bot.season.phone`)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from bot.effects import ChatRef, PlayerRef
from bot.i18n import Translator
from bot.season import phone
from bot.season.picture import Chart, chart_figure
from bot.season.profile_picture import ProfileChart
from bot.season.profile_picture import chart_figure as profile_figure
from bot.season.tournament import picture as board
from bot.season.tournament.model import Match, Side, Tournament

CHAT = ChatRef(platform="tg", chat_id="-1", title="Grupo")


def texts_of(fig: Any) -> list[tuple[str, Any, float]]:
    """Every visible, non-empty text of ``fig`` once drawn: (text, window box, points)."""
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    unseen = set()  # labels of ticks outside the axes' view: matplotlib does not draw them
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    unseen |= {id(tick.label1), id(tick.label2)}
    return [(t.get_text(), t.get_window_extent(renderer), t.get_fontsize())
            for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and id(t) not in unseen]


def check_layout(fig: Any) -> list[str]:
    """What is wrong with ``fig`` for a phone (nothing: ``[]``)."""
    width, height = fig.canvas.get_width_height()
    problems = [] if width == 720 else [f"{width} pixels wide"]
    found = texts_of(fig)
    for text, box, points in found:
        if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1:
            problems.append(f"{text!r} leaves the picture ({box})")
        if phone.shown_px(points) < 14:
            problems.append(f"{text!r} is {phone.shown_px(points):.1f} px at 360 wide")
    for ax in fig.axes:  # a tick label said twice ("1 1 1") misreads the axis
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            said = [t.label1.get_text() for t in axis.get_major_ticks()
                    if low - 1e-9 <= t.get_loc() <= high + 1e-9 and t.label1.get_text()]
            if len(said) != len(set(said)):
                problems.append(f"tick labels repeat: {said}")
    for (a, box_a, _pa), (b, box_b, _pb) in combinations(found, 2):
        inner = box_a.expanded(1, 1).shrunk(0.98, 0.9) if box_a.width > 4 else box_a
        if inner.overlaps(box_b):
            problems.append(f"{a!r} overlaps {b!r}")
    return problems


def people(*names: str) -> list[PlayerRef]:
    return [PlayerRef(platform="tg", user_id=str(i), name=n) for i, n in enumerate(names)]


def round_robin(names: list[str], pairs: bool = False) -> Tournament:
    """A round robin of ``names`` two rounds in: a played match, a W.O., a double W.O.,
    then the match being called."""
    ps = people(*names)
    size = 2 if pairs else 1
    sides = [Side(people=ps[i:i + size]) for i in range(0, len(ps), size)]
    from bot.season.tournament import pairing

    matches = [Match(round=r, a=a, b=b) for r, round_ in
               enumerate(pairing.round_robin(len(sides)), start=1)
               for a, b in round_ if b is not None]
    matches[0].score, matches[0].winner = (1520, 830), matches[0].a
    if len(matches) > 1:
        matches[1].absent, matches[1].winner = [matches[1].b], matches[1].a
    if len(matches) > 2:
        matches[2].absent, matches[2].winner = [matches[2].a, matches[2].b], -1
    current = min(3, len(matches) - 1)
    return Tournament(id="t", chat=CHAT, creator=ps[0], status="running", pairs=pairs,
                      preset="tranca", sides=sides, matches=matches, current=current,
                      args="target=2000 timer=60")


def knockout(names: list[str]) -> Tournament:
    """A knockout of 8 over: a W.O., a double W.O. (the better seed goes on), scores."""
    ps = people(*names)
    return Tournament(
        id="k", chat=CHAT, creator=ps[0], status="over", knockout=True, preset="tranca",
        sides=[Side(people=[p]) for p in ps], champion=0,
        matches=[Match(round=1, a=0, b=7, score=(1520, 830), winner=0),
                 Match(round=1, a=3, b=4, absent=[4], winner=3),
                 Match(round=1, a=1, b=6, absent=[1, 6], winner=1),
                 Match(round=1, a=2, b=5, score=(900, 1505), winner=5),
                 Match(round=2, a=0, b=3, score=(1600, 1200), winner=0),
                 Match(round=2, a=1, b=5, score=(12010, 11930), winner=1),
                 Match(round=3, a=0, b=1, score=(2100, 1400), winner=0)])


SHORT = ["Ana", "Bia", "Caio", "Dani", "Eva", "Fábio", "Gil", "Hugo"]
LONG = ["Maria Eduarda Albuquerque", "Bia", "Anne-Sophie Wolfeschlegel", "Dani",
        "Eva Maria", "Fábio Júnior", "Gil", "Hugo Leonardo da Silva"]


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
@pytest.mark.parametrize("names", [SHORT[:4], LONG[:6], SHORT[:7]], ids=["4", "6long", "7"])
def test_a_round_robins_picture_fits_a_phone(lang: str, names: list[str]) -> None:
    t = round_robin(names)
    b = board.board_of(t, Translator(lang))
    assert [row[2] for row in b.table] == sorted((row[2] for row in b.table), reverse=True)
    assert check_layout(board.board_figure(b)) == []


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
def test_a_pairs_round_robins_picture_fits_a_phone(lang: str) -> None:
    t = round_robin(LONG[:6], pairs=True)
    assert check_layout(board.board_figure(board.board_of(t, Translator(lang)))) == []


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
@pytest.mark.parametrize("lang", ["pt", "en", "it"])
def test_a_knockouts_picture_fits_a_phone(lang: str, names: list[str]) -> None:
    assert check_layout(board.board_figure(board.board_of(knockout(names),
                                                          Translator(lang)))) == []


def test_the_round_robin_picture_shows_each_sides_points() -> None:
    """Issue 38: the picture showed matches only; now the standings (points, wins,
    losses, saldo) head it, in the order of the text's standings."""
    t = round_robin(SHORT[:4])
    shown = [text for text, _box, _pt in texts_of(board.board_figure(
        board.board_of(t, Translator("pt"))))]
    from bot.season.tournament.texts import standings_lines

    lines = standings_lines(t, Translator("pt"))
    for line in lines:
        if line[0].isdigit():
            name = line.split(". ", 1)[1].split(" — ")[0]
            points = line.split(" — ")[1].split(" pts")[0]
            row = shown.index(name)
            assert shown[row + 1] == points, (name, shown[row:row + 5])
    assert {"Classificação", "Pts", "V", "D", "±"} <= set(shown)


def test_a_double_walkovers_winner_is_marked_the_winner_and_why() -> None:
    """Issue 38: "Bia W.O." in blue read as a loss; the winner of a knockout's double
    W.O. gets the check mark, bold, and a line saying the better seed goes on."""
    b = board.board_of(knockout(SHORT), Translator("pt"))
    quarter = dict(b.rounds)["Quartas de final"]
    assert quarter[2] == ("Bia", "Gil", "W.O.", "W.O.", 0, True, True,
                          "Bia passa: melhor cabeça de chave", False)
    shown = [text for text, _box, _pt in texts_of(board.board_figure(b))]
    assert "Bia passa: melhor cabeça de chave" in shown
    assert shown.count("✓") == 7  # every match's winner


def test_a_long_knockout_shows_the_latest_rounds_and_says_the_rest_is_in_the_text(
        ) -> None:
    ps = people(*(f"P{i}" for i in range(16)))
    from bot.season.tournament import pairing

    t = Tournament(id="k", chat=CHAT, creator=ps[0], status="running", knockout=True,
                   sides=[Side(people=[p]) for p in ps],
                   matches=[Match(round=1, a=a, b=b, score=(1000, 500), winner=a)
                            for a, b in pairing.knockout_first_round(16)])
    winners = [m.a for m in t.matches]
    t.matches += [Match(round=2, a=a, b=b) for a, b in pairing.next_round(winners)]
    t.current = 8
    b = board.board_of(t, Translator("pt"))
    assert [name for name, _lines in b.rounds] == ["Quartas de final"]
    assert b.hidden_text == "+1 rodada no texto"
    assert check_layout(board.board_figure(b)) == []


def match_chart(labels: tuple[str, ...], deals: int, lang: str = "pt") -> Chart:
    _ = Translator(lang)
    totals = tuple(tuple(round(k * (510 - 90 * s)) for k in range(deals + 1))
                   for s in range(len(labels)))
    return Chart(_("Partida de {variant}", variant="Biriba com Tranca de Altaneira"), labels,
                 totals, 1500, _("mão"), _("pontos"), _("alvo {value}", value=1500))


@pytest.mark.parametrize("labels", [
    ("Dupla 1 (Ana, Caio) (vencedores)", "Dupla 2 (Bia, Dani)"),
    ("Ana (vencedor)", "Bia", "Caio"),
    ("Dupla 1 (Maria Eduarda Albuquerque, Anne-Sophie Wolfeschlegel) (vencedores)",
     "Dupla 2 (Bia, Dani)")], ids=["pairs", "three", "long"])
@pytest.mark.parametrize("deals", [1, 4, 12])
def test_the_match_picture_fits_a_phone(labels: tuple[str, ...], deals: int) -> None:
    assert check_layout(chart_figure(match_chart(labels, deals))) == []


def test_the_match_pictures_target_line_is_labelled_and_its_axes_whole() -> None:
    fig = chart_figure(match_chart(("Ana (vencedor)", "Bia"), 3, "en"))
    shown = [text for text, _box, _pt in texts_of(fig)]
    assert "target 1500" in shown
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels() + ax.get_xticklabels()]
    assert ticks and all(t.lstrip("−-").isdigit() for t in ticks), ticks


def profile_chart(variants: int, trend: tuple[int, ...], lang: str = "pt") -> ProfileChart:
    _ = Translator(lang)
    names = ("Tranca", "Buraco Bossa Nova", "Biriba com Tranca de Altaneira",
             "Buraco Justificado", "Buraco com Morto")[:variants]
    return ProfileChart(_("Perfil de {name} neste grupo", name="Maria Eduarda"), trend,
                        names, tuple(range(9, 9 - variants, -1)),
                        tuple(range(4, 4 - variants, -1)),
                        _("Rating nas últimas partidas"), _("partida"), _("Por variante"),
                        _("partidas"), _("vitórias"))


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
@pytest.mark.parametrize("variants,trend", [
    (1, (1000,)), (3, (1000, 1012, 1031, 1025, 1050, 1072)),
    (5, (1000, 1003, 998, 1001, 1004, 1006, 1010, 1009, 1011, 1013))],
    ids=["one", "three", "five"])
def test_the_profile_picture_fits_a_phone(lang: str, variants: int,
                                          trend: tuple[int, ...]) -> None:
    assert check_layout(profile_figure(profile_chart(variants, trend, lang))) == []


def test_the_profiles_rating_axis_reads_whole_numbers() -> None:
    """A rating moving 1000 -> 1003 was ticked 1000.5, 1001.0, ... ("1072.5")."""
    fig = profile_figure(profile_chart(2, (1000, 1001, 1003)))
    fig.canvas.draw()
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks and all(t.isdigit() for t in ticks), ticks
