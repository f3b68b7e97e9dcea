"""What the coach says (issue 37, the fresh tester's defects): a review names three
different lessons, a hint claims only what the seat can see, a review pressed in the
private chat is not announced there, ``/revisao auto`` at a queue table says it has no
review, and the terminal says it is thinking before it does."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from console_support import typed_game
from test_coach_service import robot_chooser
from test_service_support import ANA, CHAT, SeededDecks, button, game_of, kinds, make_service
from test_service_turns import hand_of, two_player_buraco

from bot import coach as words
from bot import play
from bot.effects import Reply, Tell
from bot.i18n import Translator
from bot.model import encode
from engine.actions import Action
from engine.ai import choose, coach
from engine.cards import Card, full_deck
from engine.deal import apply
from engine.match import Match
from engine.melds import make_meld
from engine.rules import make_rules
from engine.scoring import score_deal
from engine.state import DealState, deal_cards
from engine.view import view_for

DRAW, TAKE = Action.draw(0), Action.take_pile(0)


def _cost(turn: int, played: Action, better: Action, points: float, why: str) -> coach.Cost:
    params = {"n": 80, "card": "Qh"} if why == "take_pile" else {"card": played.card.code
                                                                   if played.card else ""}
    return coach.Cost(turn, turn, played, better, points, why, params)


def test_repeats_of_one_decision_are_one_lesson_with_their_rounds_and_the_costliest_points(
) -> None:
    costs = [_cost(74, DRAW, TAKE, 4307.0, "take_pile"),
             _cost(76, DRAW, TAKE, 4295.0, "take_pile"),
             _cost(78, DRAW, TAKE, 4284.0, "take_pile"),
             _cost(20, Action.discard(0, Card.parse("Kd")),
                   Action.discard(0, Card.parse("4c")), 12.0, "safe"),
             _cost(30, Action.discard(0, Card.parse("5h")),
                   Action.discard(0, Card.parse("9s")), 40.0, "safe"),
             _cost(40, DRAW, Action.take_pile(0, with_=[Card.parse("7h"), Card.parse("8h")]),
                   3.0, "take_pile")]
    got = coach.lessons(costs)
    assert [(c.turn, c.points, c.turns) for c in got] == [
        (74, 4307.0, (40, 74, 76, 78)), (30, 40.0, (20, 30))]
    text = words.review_text(2, 1, got, Translator("pt"))
    assert text.splitlines()[1:3] == [
        '1. Rodada 38: você jogou "Compre do monte"; o robô jogaria "Pegue o lixo" (são 80 '
        'cartas e o Q♥ entra no seu jogo). Custo estimado: 4307 pontos.',
        "   O mesmo 4 vezes (rodadas 21, 38, 39, 40); o custo é o da mais cara."]
    assert "The same 2 times (rounds 11, 16); the cost is that of the costliest." in (
        words.review_text(2, 1, got, Translator("en")))
    many = coach.lessons([_cost(2 * k, DRAW, TAKE, 10.0 + k, "take_pile")
                          for k in range(2, 40)])
    assert words.review_text(2, 1, many, Translator("pt")).splitlines()[2] == (
        "   O mesmo 38 vezes (rodadas 3, 4, 5, …, 40); o custo é o da mais cara.")


def _drawing_only_deal(seed: int) -> tuple[Match, dict[str, object]]:
    """The tester's deal: Ana (seat 0) draws and discards every turn, never taking the
    pile, against ``facil``, until the deal ends."""
    rules = make_rules("buraco")
    match = Match.new(rules, ["Ana", "Robô"])
    deck = full_deck(rules.jokers)
    random.Random(seed).shuffle(deck)
    match.start_deal(deck)
    rng = random.Random(seed)
    while not match.deal_state.over:
        st = match.deal_state
        view = view_for(st, st.turn)
        if st.turn != 0:
            match.act(choose(view, "facil", None, rng))
        elif view.phase == "draw":
            match.act(Action.draw(0))
        else:
            match.act(Action.discard(0, view.hand[0]))
    return match, match.logs[-1].to_json()


def test_a_review_of_a_deal_of_one_repeated_mistake_names_it_once() -> None:
    match, deal = _drawing_only_deal(1)
    costs = coach.review(match.rules, 2, deal, 0)
    assert costs and len({c.kind for c in costs}) == len(costs)  # three different lessons
    first = costs[0]
    assert (first.played.do, first.better.do) == ("draw", "take_pile")
    assert len(first.turns) >= 2 and first.turn in first.turns  # "N vezes"


def _played_out(state: DealState, action: Action) -> list[int]:
    """``action``, then ``normal`` for every seat to the end of the deal: the totals."""
    rng = random.Random(7)
    apply(state, action)
    while not state.over:
        apply(state, choose(view_for(state, state.turn), "normal", None, rng))
    return score_deal(state).totals


def test_the_thousands_a_review_names_for_an_untaken_pile_are_what_the_deal_could_swing(
) -> None:
    """The tester's "impossible" costs (thousands of points in a deal that ended -90 x
    65): with the pile grown to 74 cards, whoever takes it goes out with canastras; the
    deal played to its end from Ana's real position (every card as dealt, ``normal``
    for both seats) swings by thousands between taking it and drawing."""
    match, deal = _drawing_only_deal(1)
    assert score_deal(match.deal_state).totals == [-90, 65]
    state = deal_cards(match.rules, 2, [Card.parse(c) for c in deal["deck"]])
    actions = deal["actions"]
    assert isinstance(actions, list)
    for raw in actions:
        if state.turn_count == 74 and state.turn == 0:
            break
        apply(state, Action.from_json(raw))
    assert len(state.pile) == 74
    took = _played_out(state.clone(), TAKE)
    drew = _played_out(state.clone(), DRAW)
    assert took[0] - took[1] > 1000 and drew[1] - drew[0] > 1000, (took, drew)


def test_a_discard_with_no_opponent_meld_on_the_table_gets_no_claim_about_opponents() -> None:
    rules = make_rules("buraco")
    match = Match.new(rules, ["Ana", "Robô"])
    deck = full_deck(rules.jokers)
    random.Random(2).shuffle(deck)
    match.start_deal(deck)
    match.act(Action.draw(0))
    state = match.deal_state
    view = view_for(state, 0)
    card = view.hand[0]
    assert coach.explain(view, Action.discard(0, card)) == ("discard", {"card": card.code})
    hint = coach.Hint(Action.discard(0, Card.parse("Jc")), "discard", {"card": "Jc"})
    assert words.hint_line(hint, Translator("pt")) == (
        "Dica: Descarte o J♣ (das cartas que menos falta fazem à sua mão, foi a que melhor "
        "se saiu nas simulações do robô).")  # a why of the hand, none of the opponents
    assert words.hint_line(hint, Translator("en")) == (
        "Hint: Discard the J♣ (of the cards your hand needs least, it did best in the "
        "robot's trials).")
    state.melds[1] = [make_meld([Card.parse(c) for c in ("5s", "6s", "7s")], rules)]
    if Card.parse("Kd") not in state.hands[0]:
        state.hands[0][0] = Card.parse("Kd")
    view = view_for(state, 0)
    assert coach.explain(view, Action.discard(0, Card.parse("Kd"))) == (
        "safe", {"card": "Kd"})
    safe = coach.Hint(Action.discard(0, Card.parse("Jc")), "safe", {"card": "Jc"})
    assert words.hint_line(safe, Translator("pt")) == (
        "Dica: Descarte o J♣ (nenhum jogo dos adversários na mesa usa o J♣).")
    assert words.hint_line(safe, Translator("en")) == (
        "Hint: Discard the J♣ (no opponent meld on the table takes the J♣).")
    assert words.hint_line(safe, Translator("it")).endswith(
        "(nessun gioco degli avversari sul tavolo usa il J♣).")


async def _between_deals(store: Any, clock: Any) -> Any:
    """A buraco table of Ana and a ``normal`` robot, its first deal played to the end
    (Ana's seat as ``facil``), between deals; the service."""
    svc = make_service(store, clock, chooser=robot_chooser)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "normal")
    gid = (await svc.start(CHAT, ANA))[0].game_id
    version, game = await game_of(store)
    match = play.match_of(game)
    while not match.deal_state.over:
        st = match.deal_state
        match.act(robot_chooser(view_for(st, st.turn), "facil" if st.turn == 0 else "normal"))
    play.store_match(game, match)
    game.status = "between"
    game.deals.append(list(match.results[-1].totals))
    await store.save_game(gid, version, encode(game), 3600)
    return svc


async def test_a_review_pressed_in_the_private_chat_is_not_announced_there(
        store: Any, clock: Any) -> None:
    svc = await _between_deals(store, clock)
    hand = hand_of(await svc.show_hand(CHAT, ANA), ANA)
    there = await svc.press(ANA, button(hand, "📋 Revisão da mão 1"), private=True)
    assert kinds(there) == ["tell"]
    assert isinstance(there[0], Tell) and there[0].text.startswith("Revisão da mão 1:\n")
    elsewhere = await svc.press(ANA, button(hand, "📋 Revisão da mão 1"))  # the web table
    assert elsewhere[1:] == [Reply(player=ANA, text="Mandei no seu privado.")]


async def test_revisao_auto_at_a_queue_table_says_that_table_has_no_review(
        svc: Any, store: Any) -> None:
    gid, _ana, _bia = await two_player_buraco(svc)
    version, game = await game_of(store)
    game.matched = True
    await store.save_game(gid, version, encode(game), 3600)
    said = await svc.review(CHAT, ANA, "auto")
    assert said == [Reply(player=ANA, text=(
        "Revisão automática ligada para você: no fim de cada mão que você jogar numa mesa "
        "com dicas, as suas três decisões mais caras chegam no seu privado. /revisao off "
        "desliga.\nEsta mesa (da fila, /procurar) não tem dicas nem revisão: a sua "
        "revisão automática vale nas mesas que têm."))]


async def test_revisao_in_the_terminal_says_it_is_thinking_before_it_thinks() -> None:
    game, out = typed_game(["revisao", "idioma en", "revisao", "q"], SeededDecks())
    seen: list[str] = []
    review = game.service.review

    async def spy(*args: Any, **kw: Any) -> Any:
        seen.append(out.getvalue())
        return await review(*args, **kw)

    game.service.review = spy  # type: ignore[method-assign]
    assert await game.setup("buraco", None)
    await game.play()
    assert len(seen) == 2
    assert seen[0].endswith("Analisando a mão... (alguns segundos)\n")
    assert seen[1].endswith("Analysing the deal... (a few seconds)\n")


@pytest.mark.parametrize("lang,guide", [("en", "guide.en.md"), ("it", "guida.it.md"),
                                        ("pt", "guia.md")])
def test_each_guide_names_the_coach_s_buttons_as_the_bot_shows_them_in_its_language(
        lang: str, guide: str) -> None:
    text = " ".join((Path(__file__).parent.parent / "docs" / guide).read_text().split())
    _ = Translator(lang)
    assert f'"{_(words.BUTTON)}"' in text
    assert f'"{_(words.REVIEW_BUTTON, n="N")}"' in text
    if lang != "pt":
        assert "Dica\"" not in text and "Revisão da mão" not in text
