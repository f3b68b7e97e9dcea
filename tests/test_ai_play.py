"""AI players (issue 5): every move legal, playing for the side, and blind to hidden cards."""

from __future__ import annotations

import random

import pytest

from engine import Action, DealState, apply, make_rules, new_deal, parse_cards, score_deal, verify
from engine import view_for as engine_view_for
from engine.ai import LEVELS, choose, dificil
from engine.ai.tracker import SeenTracker
from engine.cards import Card, full_deck
from engine.errors import IllegalAction

TABLES = [("buraco", 2), ("buraco", 3), ("buraco", 4), ("buraco", 6), ("buraco_morto", 2),
          ("buraco_morto", 3), ("buraco_morto", 4), ("bossa_nova", 2), ("bossa_nova", 4),
          ("tranca", 2), ("tranca", 4), ("justificado", 2), ("justificado", 4),
          ("altaneira", 4)]


def _deck(seed: int) -> list[Card]:
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return deck


def _play_checked(preset: str, players: int, seed: int, levels: list[str]) -> int:
    """Play one deal, verifying every AI action against the real state; return actions."""
    rules = make_rules(preset)
    rng = random.Random(seed)
    scores = [rng.choice([0, 800]) for _ in rules.teams(players)]  # 800: vulnerable (A22)
    state = new_deal(rules, players, deck=_deck(seed), first=seed % players, scores=scores)
    seen = SeenTracker.for_players(players)
    count = 0
    while not state.over:
        view = engine_view_for(state, state.turn, seen.lists())
        level = levels[state.turn]
        if level == "dificil":
            action = dificil.choose(view, 10.0, rng, max_samples=1)
        else:
            action = choose(view, level, rng=rng)
        verify(state, action)  # raises IllegalAction on an illegal AI move
        events = apply(state, action)
        assert not any(e.kind == "lay_down_short" for e in events)  # A22 respected
        seen.observe(events)
        count += 1
        assert count < 3000
    return count


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_ai_moves_always_legal_in_random_deals(preset: str, players: int) -> None:
    total = 0
    for seed in range(6):
        levels = [random.Random(seed * 7 + s).choice(["facil", "normal"]) for s in range(players)]
        total += _play_checked(preset, players, seed, levels)
    assert total > 200


@pytest.mark.parametrize("preset", ["buraco_morto", "tranca", "altaneira"])
def test_dificil_moves_legal(preset: str) -> None:
    players = 4 if preset == "altaneira" else 2
    levels = ["dificil", "normal"] * (players // 2)
    assert _play_checked(preset, players, 11, levels) > 20


def _position(preset: str, **pos: object) -> DealState:
    rules = make_rules(preset)
    data = {"phase": "play", "turn": 0, "pile": [], "stock": ["Ad", "Kc", "Qh", "Js", "9h"]}
    data.update(pos)
    return DealState.from_json(rules, data)


def test_normal_extends_the_partners_meld() -> None:
    # Seat 2 (partner of seat 0, RULES C1) laid 5-6-7 of hearts; seat 0 holds the 8.
    state = _position(
        "buraco",
        hands=[["8h", "Kd", "4c", "9s"], ["5c", "6d"], ["Ac", "3d"], ["4d", "6s"]],
        melds=[[["5h", "6h", "7h"]], []],
    )
    for level in ("facil", "normal"):
        action = choose(engine_view_for(state, 0), level, rng=random.Random(1))
        assert action == Action.lay_down(0, extend=[(0, parse_cards("8h"))])


def test_normal_discards_safely_not_the_card_that_completes_their_canastra() -> None:
    # The other side has 4..9 of spades (6 cards): the 10 of spades would make it a canastra.
    state = _position(
        "buraco",
        hands=[["10s", "Kd", "7c"], ["5c", "6d", "Jh", "Qd"]],
        melds=[[], [["4s", "5s", "6s", "7s", "8s", "9s"]]],
    )
    view = engine_view_for(state, 0)
    assert choose(view, "normal", rng=random.Random(3)) == Action.discard(0, Card.parse("Kd"))
    for seed in range(10):
        assert choose(view, "facil", rng=random.Random(seed)).card != Card.parse("10s")


def test_normal_goes_out_when_that_wins_the_deal() -> None:
    state = _position(
        "buraco",
        hands=[["9d", "10d", "Jd", "Ks"], ["5c", "6d", "Jh", "Qd", "8s", "9c", "Kh", "As"]],
        melds=[[["5h", "6h", "7h", "8h", "9h", "10h", "Jh"]], [["4c", "5c", "6c"]]],
    )
    first = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert first == Action.lay_down(0, melds=[parse_cards("9d 10d Jd")])
    apply(state, first)
    second = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert second == Action.discard(0, Card.parse("Ks"))
    apply(state, second)
    assert state.over and state.went_out == 0
    # side 0: 55 + 30 melded, limpa 200, batida 50; side 1: 15 melded - 75 in hand
    assert score_deal(state).totals == [335, -60]


def test_normal_goes_out_in_tranca_once_its_clean_canastra_is_made() -> None:
    # The 10 of hearts makes 4..10 a clean canastra, which tranca needs to end the deal.
    state = _position(
        "tranca",
        hands=[["10h", "Ks"], ["5c", "6d", "Jh", "Qd"]],
        melds=[[["4h", "5h", "6h", "7h", "8h", "9h"]], []],
        mortos=[[], []],
        morto_taken=[True, True],
    )
    first = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert first == Action.lay_down(0, extend=[(0, parse_cards("10h"))])
    apply(state, first)
    second = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert second == Action.discard(0, Card.parse("Ks"))
    apply(state, second)
    assert state.over and state.went_out == 0
    assert score_deal(state).totals == [70 + 200 + 100, -40]


def test_normal_keeps_two_cards_when_it_may_not_go_out() -> None:
    # Tranca ends only with a clean canastra (RULES §2): a dirty one is not enough.
    state = _position(
        "tranca",
        hands=[["9d", "10d", "Jd", "Ks"], ["5c", "6d", "Jh", "Qd"]],
        melds=[[["5h", "6h", "7h", "8h", "2s", "10h", "Jh"]], []],
        mortos=[[], []],
        morto_taken=[True, True],
    )
    view = engine_view_for(state, 0)
    action = choose(view, "normal", rng=random.Random(0))
    verify(state, action)
    apply(state, action)
    assert len(state.hands[0]) >= 1 and not state.over


def test_tranca_red_three_is_laid_first() -> None:
    state = _position("tranca", hands=[["3h", "9d", "Ks", "5c"], ["5d", "6d"]],
                      melds=[[], []])
    action = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert action == Action.lay_three(0, Card.parse("3h"))


def test_tranca_takes_the_pile_justified_by_two_hand_cards() -> None:
    state = _position(
        "tranca", phase="draw", hands=[["6h", "7h", "Ks", "5c"], ["5d", "6d"]],
        melds=[[], []], pile=["Qc", "Jd", "8h"],
    )
    action = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert action == Action.take_pile(0, with_=parse_cards("6h 7h"))


def _hidden_twin(state: DealState, seat: int, rng: random.Random) -> DealState:
    """The same deal with every card ``seat`` cannot see (other hands, stock, mortos)
    dealt again at random in the same sizes. Cards a seat was seen taking from the open
    pile are public knowledge and stay in that hand."""
    twin = state.clone()
    hidden = []
    for s, hand in enumerate(twin.hands):
        if s != seat:
            known = list(twin.seen[s])
            rest = list(hand)
            for c in known:
                rest.remove(c)
            hidden.append((hand, known, rest))
    groups = [*(rest for _, _, rest in hidden), twin.stock, *twin.mortos]
    pool = [c for g in groups for c in g]
    rng.shuffle(pool)
    for g in groups:
        g[:], pool = pool[: len(g)], pool[len(g):]
    for hand, known, rest in hidden:
        hand[:] = known + rest
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_no_hidden_card_reaches_the_ai(level: str) -> None:
    """Two deals differing only in cards seat 0 cannot see give the same view and the
    same decision, at every decision of seat 0 along a deal."""
    rules = make_rules("buraco_morto")
    state = new_deal(rules, 2, deck=_deck(5))
    rng = random.Random(4)
    checked = differ = 0
    while not state.over and checked < (6 if level == "dificil" else 40):
        if state.turn == 0:
            twin = _hidden_twin(state, 0, rng)
            differ += sorted(twin.hands[1]) != sorted(state.hands[1])
            view, twin_view = engine_view_for(state, 0), engine_view_for(twin, 0)
            assert view == twin_view
            if level == "dificil":
                a = dificil.choose(view, 10.0, random.Random(9), max_samples=1)
                b = dificil.choose(twin_view, 10.0, random.Random(9), max_samples=1)
            else:
                a = choose(view, level, rng=random.Random(9))
                b = choose(twin_view, level, rng=random.Random(9))
            assert a == b
            checked += 1
        else:
            a = choose(engine_view_for(state, state.turn), "normal", rng=rng)
        apply(state, a)
    # nearly every twin really differs (a hand of only public cards cannot)
    assert checked >= 6 and differ >= checked * 0.9


def test_choose_refuses_the_hidden_state() -> None:
    state = new_deal(make_rules("buraco"), 2, deck=_deck(2))
    with pytest.raises(TypeError, match="SeatView"):
        choose(state, "normal")  # type: ignore[arg-type]


def test_choose_refuses_unknown_level_and_other_turns() -> None:
    state = new_deal(make_rules("buraco"), 2, deck=_deck(2))
    with pytest.raises(IllegalAction, match="unknown_level"):
        choose(engine_view_for(state, 0), "expert")
    with pytest.raises(IllegalAction, match="not_your_turn"):
        choose(engine_view_for(state, 1), "normal")


def _altaneira_dollar(pile_dollars: list[str]) -> DealState:
    # Seat 0's side took its morto and has no canastra, so it may not end the deal
    # (seed 000 §8.3): it must keep a card to discard.
    return _position(
        "altaneira",
        hands=[["3h", "Ks", "9c"], ["5d", "6d"], ["7c", "8d"], ["4d", "6s"]],
        melds=[[["5h", "6h", "7h"]], []],
        mortos=[[], ["4c", "5c", "6c", "7c", "8c", "9c", "10c", "Jc", "Qc", "Kc", "Ac"]],
        morto_taken=[True, False],
        pile_dollars=[pile_dollars, [], [], []],
    )


def test_dollar_drawn_is_laid_for_its_replacement_rules_a4() -> None:
    state = _altaneira_dollar([])
    action = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert action == Action.lay_three(0, Card.parse("3h"))
    events = apply(state, action)
    assert events[0].public["replaced"] == 1 and len(state.hands[0]) == 3


def test_dollar_from_the_pile_is_kept_when_laying_it_would_strand_the_turn_rules_a4() -> None:
    # RULES A4: a Dólar taken with the pile earns no replacement; laying it would leave
    # two cards, one of which must be the going-out discard the side may not make yet.
    state = _altaneira_dollar(["3h"])
    state.hands[0] = parse_cards("3h Ks")
    view = engine_view_for(state, 0)
    assert view.pile_dollars == parse_cards("3h")
    action = choose(view, "normal", rng=random.Random(0))
    assert action.do == "discard"
    verify(state, action)


def test_dollar_from_the_pile_is_laid_when_two_cards_stay_rules_a4() -> None:
    state = _altaneira_dollar(["3h"])
    action = choose(engine_view_for(state, 0), "normal", rng=random.Random(0))
    assert action == Action.lay_three(0, Card.parse("3h"))
    events = apply(state, action)
    assert events[0].public["replaced"] == 0
    assert state.hands[0] == parse_cards("Ks 9c")


def test_normal_skips_a_pile_whose_meld_it_may_not_lay_rules_a16_c13() -> None:
    # bossa_nova (RULES A16): no canastra, so no going out. The 10 on the pile would
    # make a set of three 10s, but laying it would empty the hand (C13 refuses), so the
    # pile is worth nothing now. Taking it anyway let two normals pass one card back
    # and forth for ever (a self-play deal that never ended).
    state = _position(
        "bossa_nova", phase="draw",
        hands=[["10h", "10s"], ["Jc", "10d", "10d"]],
        melds=[[["5c", "5d", "5h", "5s"]], [["9c", "9h", "9s"]]],
        pile=["10h"], mortos=[[], []], morto_taken=[True, True],
    )
    assert choose(engine_view_for(state, 0), "normal", rng=random.Random(0)) == Action.draw(0)
