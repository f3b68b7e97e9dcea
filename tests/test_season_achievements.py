"""Achievements' checks on a match's facts (issue 29; issue 38: "Vitória sem pegar o
lixo" is the side's, docs/season.md "Profile and achievements")."""

from __future__ import annotations

from bot.season.achievements import earned, side_seats
from bot.season.facts import MatchFacts, Person, SideFacts


def pairs_match(took_pile: list[int]) -> MatchFacts:
    """A 4-seat match side 0 (seats 0 and 2: Ana, Caio) won 1520 to 830, no deal facts;
    ``took_pile``: per seat, how many times it took the pile."""
    people = [Person(key=f"tg:{i}", name=n, seat=i, side=i % 2)
              for i, n in enumerate(("Ana", "Bia", "Caio", "Dani"))]
    return MatchFacts(game_id="g", chat="tg:1", ended_at=0.0, variant="tranca", winner=0,
                      people=people, sides=[SideFacts(total=1520, rank=0),
                                            SideFacts(total=830, rank=1)],
                      took_pile=took_pile)


def test_partners_sit_across_so_a_sides_seats_are_every_other_one() -> None:
    f = pairs_match([0, 0, 0, 0])
    assert (side_seats(f, 0), side_seats(f, 1)) == ([0, 2], [1, 3])


def test_a_side_that_never_took_the_pile_earns_it_for_both_partners() -> None:
    f = pairs_match([0, 3, 0, 1])  # only the losers took it
    assert [("sem_lixo" in earned(f, p)) for p in f.people] == [True, False, True, False]


def test_a_partners_pickup_costs_the_whole_side_the_no_pile_win() -> None:
    """Ana never took the pile but her partner Caio did once: the side took it, so
    neither earns "Vitória sem pegar o lixo" (it was Ana's before issue 38)."""
    f = pairs_match([0, 0, 1, 0])
    assert [("sem_lixo" in earned(f, p)) for p in f.people] == [False] * 4


def test_a_duel_counts_the_one_seat_of_the_side() -> None:
    people = [Person(key="tg:0", name="Ana", seat=0, side=0),
              Person(key="tg:1", name="Bia", seat=1, side=1)]
    f = MatchFacts(game_id="g", chat="tg:1", ended_at=0.0, variant="tranca", winner=1,
                   people=people, sides=[SideFacts(total=400, rank=1),
                                         SideFacts(total=1010, rank=0)], took_pile=[2, 0])
    assert [("sem_lixo" in earned(f, p)) for p in people] == [False, True]
