"""Turn pings help without nagging (issue 30): a person playing with the hand open (a
press on their hand within ``HAND_OPEN_S`` = 120 s of their turn's start, as stored in
the game) is not pinged; the last ping is dropped instead (``PingsOver``). Someone who
has not touched the hand for longer, or never, is pinged."""

from __future__ import annotations

from typing import Any

from test_service_support import (
    ANA,
    BIA,
    CHAT,
    FakeClock,
    button,
    game_of,
    kinds,
    make_service,
)
from test_service_turns import hand_of

from bot.effects import TurnPing
from bot.model import HAND_OPEN_S
from bot.service import Service

PING_BIA = TurnPing(player=BIA, chat=CHAT, game_id="", text="Sua vez em Grupo do Buraco.")


async def simple_turn(svc: Service, who: Any, effects: list[Any]) -> list[Any]:
    """``who`` draws from the stock and discards their first card, by their hand's
    buttons; the effects of the discard."""
    hand = hand_of(effects, who)
    hand = hand_of(await svc.press(who, button(hand, "Comprar do monte")), who)
    hand = hand_of(await svc.press(who, button(hand, hand.buttons[0][0].label)), who)
    return await svc.press(who, button(hand, "Descartar"))


def pings(effects: list[Any]) -> list[Any]:
    return [e for e in effects if e.kind in ("turn", "unping")]


async def test_a_person_playing_with_the_hand_open_is_not_pinged_on_their_turn(
        svc: Service, store: Any, clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    gid = started[0].game_id
    clock.advance(5)
    to_bia = await simple_turn(svc, ANA, started)
    # Bia never touched her hand: she is pinged
    [ping] = pings(to_bia)
    assert ping == PING_BIA.model_copy(update={"game_id": gid})
    clock.advance(30)
    to_ana = await simple_turn(svc, BIA, to_bia)
    # Ana pressed her hand 30 s before her turn came back: open, no ping; Bia's old ping
    # goes (nobody is pinged for this turn)
    assert kinds(pings(to_ana)) == ["unping"]
    _v, game = await game_of(store)
    assert [s.seen for s in game.seats] == [clock.t - 30, clock.t]


async def test_someone_away_from_the_hand_longer_is_pinged_again(
        svc: Service, store: Any, clock: FakeClock) -> None:
    await svc.new_game(CHAT, ANA, "buraco timer=600")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    to_bia = await simple_turn(svc, ANA, started)
    clock.advance(HAND_OPEN_S + 1)  # Bia takes her time; Ana put the phone down
    to_ana = await simple_turn(svc, BIA, to_bia)
    [ping] = pings(to_ana)
    assert isinstance(ping, TurnPing) and ping.player == ANA


async def test_asking_for_the_hand_saves_nothing_so_the_turn_is_still_pinged(
        svc: Service, store: Any, clock: FakeClock) -> None:
    """A view is no press: "Minha mão" / /mao leave the game as stored (bad-input tests
    hold every view to that), so only a press on the hand opens it."""
    await svc.new_game(CHAT, ANA, "buraco timer=600")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    to_bia = await simple_turn(svc, ANA, started)
    clock.advance(HAND_OPEN_S + 1)
    before = await game_of(store)
    assert kinds(await svc.show_hand(CHAT, ANA)) == ["hand"]
    assert await game_of(store) == before
    clock.advance(10)
    to_ana = await simple_turn(svc, BIA, to_bia)
    assert kinds(pings(to_ana)) == ["turn"]


async def test_a_whole_deal_of_two_people_and_a_robot_pings_each_person_once(
        svc: Service, store: Any, clock: FakeClock) -> None:
    """The Discord trial's table (Ana, Bia and a robot), played by their hands at once
    (the test's clock stands still): one "Sua vez" each, for the turn that found their
    hand not yet opened (before: one for every turn of theirs)."""
    from test_service_match import play_deal

    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA)
    effects += await play_deal(svc, store)
    sent = [e.player.name for e in effects if isinstance(e, TurnPing)]
    assert sent == ["Ana", "Bia"]


async def test_pings_over_names_the_version_after_which_the_saves_were_its_workers(
        svc: Service, store: Any, clock: FakeClock) -> None:
    """``PingsOver.own_from`` (issue 36): every save after it, up to the effect's own
    version, was made by the worker that made the effect; a save by another worker (a
    second service on the same store) moves it to that save's version."""
    other = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    clock.advance(5)
    to_bia = await simple_turn(svc, ANA, started)  # this worker: Ana's turn
    after_ana, _game = await game_of(store)
    clock.advance(30)
    to_ana = await simple_turn(other, BIA, to_bia)  # the other worker: Bia's turn
    [over] = pings(to_ana)
    after_bia, _game = await game_of(store)
    assert (over.kind, over.state_version, over.own_from) == ("unping", after_bia, after_ana)
    clock.advance(30)
    to_bia = await simple_turn(other, ANA, to_ana)  # the other worker again: still its own
    [over] = pings(to_bia)
    assert (over.kind, over.own_from) == ("unping", after_ana)
    assert over.state_version == (await game_of(store))[0] > after_bia
    clock.advance(30)
    to_ana = await simple_turn(svc, BIA, to_bia)  # back to the first: from the other's
    [over] = pings(to_ana)
    assert over.own_from == over.state_version - 3  # the three saves of Bia's turn
