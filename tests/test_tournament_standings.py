"""A tournament's standings and tie-break chain (issue 29, docs/season.md "Torneios"):
win 2, loss 1, loss by W.O. 0; then wins, saldo, head-to-head, sign-up order; the flow's
walkover and champion, pure."""

from __future__ import annotations

import pytest

from bot.effects import ChatRef, PlayerRef
from bot.i18n import Translator
from bot.outcome import Refusal
from bot.season.tournament import flow, texts
from bot.season.tournament.model import Match, Tournament
from bot.season.tournament.standings import decided_by, standings

CHAT = ChatRef(platform="tg", chat_id="-1")
P = [PlayerRef(platform="tg", user_id=str(i), name=n)
     for i, n in enumerate(["Ana", "Bia", "Caio", "Dani", "Eva"])]


def played(a: int, b: int, x: int, y: int) -> Match:
    return Match(round=1, a=a, b=b, score=(x, y), winner=a if x > y else b)


def table(n: int, matches: list[Match]) -> list[tuple[int, int, int, int]]:
    return [(r.side, r.points, r.wins, r.saldo) for r in standings(n, matches)]


def test_points_win_two_loss_one_walkover_loss_zero() -> None:
    wo = Match(round=1, a=0, b=1, winner=0, absent=[1])
    rows = standings(3, [wo, played(2, 0, 500, 100)])
    assert [(r.side, r.points, r.wins, r.losses, r.wo, r.saldo) for r in rows] == [
        (0, 3, 1, 1, 0, -400), (2, 2, 1, 0, 0, 400), (1, 0, 0, 1, 1, 0)]


def test_equal_points_are_split_by_wins() -> None:
    # side 0: two losses played (2 pts, 0 wins); side 1: a win and a W.O. loss (2, 1)
    ms = [played(2, 0, 20, 10), played(3, 0, 20, 10), played(1, 2, 30, 20),
          Match(round=2, a=1, b=3, winner=3, absent=[1])]
    rows = standings(4, ms)
    assert table(4, ms) == [(3, 4, 2, 10), (2, 3, 1, 0), (1, 2, 1, 10), (0, 2, 0, -20)]
    assert decided_by(rows, ms) == ["points", "points", "wins"]


def test_equal_points_and_wins_are_split_by_saldo() -> None:
    ms = [played(0, 1, 900, 100), played(1, 0, 300, 200)]
    assert table(2, ms) == [(0, 3, 1, 700), (1, 3, 1, -700)]
    assert decided_by(standings(2, ms), ms) == ["saldo"]


def test_equal_points_wins_and_saldo_are_split_by_head_to_head() -> None:
    # 1 beat 0, 0 beat 2, 2 beat 1, all by 100; 2 also won by W.O. over 3: 0 and 1 are
    # level on points, wins and saldo, and 1 won their match
    ms = [played(1, 0, 500, 400), played(0, 2, 500, 400), played(2, 1, 500, 400),
          Match(round=2, a=2, b=3, winner=2, absent=[3])]
    assert table(4, ms) == [(2, 5, 2, 0), (1, 3, 1, 0), (0, 3, 1, 0), (3, 0, 0, 0)]
    assert decided_by(standings(4, ms), ms) == ["points", "h2h", "points"]


def test_a_level_cycle_keeps_sign_up_order() -> None:
    ms = [played(1, 0, 500, 400), played(0, 2, 500, 400), played(2, 1, 500, 400)]
    assert table(3, ms) == [(0, 3, 1, 0), (1, 3, 1, 0), (2, 3, 1, 0)]
    assert decided_by(standings(3, ms), ms) == ["order", "order"]


def test_double_walkover_both_lose_in_a_round_robin() -> None:
    t = Tournament(id="t1", chat=CHAT, creator=P[0], people=P[:3])
    flow.start(t, P[0], 0.0)
    assert t.current == 0 and (t.matches[0].a, t.matches[0].b) == (1, 2)
    notes = flow.walkover(t, t.wo_s + 1)
    assert notes[0] == ("wo", 0)
    m = t.matches[0]
    assert (m.winner, m.absent, m.score) == (-1, [1, 2], (0, 0))
    assert [(r.side, r.points, r.losses, r.wo) for r in standings(3, t.matches)] == [
        (0, 0, 0, 0), (1, 0, 1, 1), (2, 0, 1, 1)]


def test_knockout_walkover_sends_the_present_side_on_and_crowns_the_champion() -> None:
    t = Tournament(id="t1", chat=CHAT, creator=P[0], knockout=True, people=P[:3])
    notes = flow.start(t, P[0], 0.0)
    assert [(m.a, m.b) for m in t.matches] == [(0, None), (1, 2)]
    assert notes == [("call", 1)]
    assert flow.show_up(t, P[1], 1, "g1") is False
    assert flow.walkover(t, 400.0) == [("wo", 1), ("round", 1), ("call", 2)]
    assert (t.matches[2].a, t.matches[2].b) == (0, 1)
    with pytest.raises(Refusal):
        flow.show_up(t, P[2], 2, "g2")  # Caio is out
    assert flow.show_up(t, P[0], 2, "g2") is False
    assert flow.show_up(t, P[1], 2, "g2") is True
    assert flow.result(t, "g2", [1200, 3100], 1, 500.0) == [("round", 2), ("champion", 1)]
    assert flow.result(t, "g2", [1200, 3100], 1, 500.0) is None  # counted once
    assert (t.status, t.champion) == ("over", 1)


def test_a_table_closed_without_a_result_calls_the_match_again() -> None:
    t = Tournament(id="t1", chat=CHAT, creator=P[0], knockout=True, people=P[:2])
    flow.start(t, P[0], 0.0)
    flow.show_up(t, P[0], 0, "g1")
    flow.show_up(t, P[1], 0, "g1")
    assert flow.result(t, "g1", [0, 0], None, 50.0) == [("again", 0), ("call", 0)]
    assert (t.current, t.matches[0].game, t.present, t.due) == (0, None, [], 50.0 + t.wo_s)


def test_pairs_form_by_sign_up_order_and_sit_across() -> None:
    t = Tournament(id="t1", chat=CHAT, creator=P[0], knockout=True, pairs=True, people=P[:4])
    flow.start(t, P[0], 0.0)
    assert [[p.name for p in s.people] for s in t.sides] == [["Ana", "Bia"], ["Caio", "Dani"]]
    assert [p.name for p in flow.players(t, t.matches[0])] == ["Ana", "Caio", "Bia", "Dani"]
    odd = Tournament(id="t2", chat=CHAT, creator=P[0], pairs=True, people=P[:3])
    with pytest.raises(Refusal) as err:
        flow.start(odd, P[0], 0.0)
    assert err.value.msgid == "Em duplas, o número de inscritos precisa ser par."


@pytest.mark.parametrize(("args", "want"), [
    ("", (False, False, "tranca", "", 300)),
    ("mata duplas tranca alvo=2000 wo=3", (True, True, "tranca", "target=2000", 180)),
    ("todos individual buraco", (False, False, "buraco", "", 300)),
])
def test_options_are_read_as_typed(args: str, want: tuple[object, ...]) -> None:
    assert flow.parse(args) == want


@pytest.mark.parametrize("args", ["wo=0", "wo=61", "tranca alvo=abc", "truco"])
def test_bad_options_are_refused(args: str) -> None:
    with pytest.raises(Refusal):
        flow.parse(args)


@pytest.mark.parametrize(("lang", "want"), [
    ("pt", "🏆 Torneio de Tranca — mata-mata, duplas, alvo 2000, 60 s por jogada"),
    ("en", "🏆 Tranca tournament — knockout, pairs, target 2000, 60 s per move"),
    ("it", "🏆 Torneo di Tranca — eliminazione diretta, coppie, obiettivo 2000, "
           "60 s per mossa"),
])
def test_the_title_shows_table_options_as_players_read_them(lang: str, want: str) -> None:
    t = flow.open_tournament("t9", CHAT, P[0], "mata duplas tranca alvo=2000 timer=60 wo=3",
                             lang)
    assert t.args == "target=2000 timer=60"
    assert texts.title(t, Translator(lang)) == want
