"""The secrecy check itself (:mod:`secrecy`) catches a leak: a hidden card by its code or
its face, escaped or not, an extra copy of a card seen once, another seat's view; and it
passes what a seat may see. No browser needed."""

from __future__ import annotations

import json
from typing import Any

import deal_script as script
import pytest
from chromium import Wire
from secrecy import assert_secret, names_a_card

REPLAY = script.replay()


def card(code: str) -> dict[str, Any]:
    face = str(script.Card.parse(code))
    return {"code": code, "text": face, "rank": face[:-1], "suit": face[-1]}


def wire_of(*views: dict[str, Any], body: str = "<html></html>") -> Wire:
    wire = Wire()
    wire.bodies.append(("http://127.0.0.1/", body))
    for k, view in enumerate(views):
        wire.frames.append(("ws", json.dumps({"type": "view", "version": k + 1,
                                              "view": view})))
    return wire


def ana_view(**extra: Any) -> dict[str, Any]:
    view = {"seat": 0, "spectator": False, "hand": {"cards": [card(c) for c in
                                                               script.ANA_HAND]},
            "pile": {"top": None, "cards": []}, "sides": []}
    return {**view, **extra}


def test_ana_seeing_her_own_hand_passes() -> None:
    assert_secret(wire_of(ana_view()), 0, REPLAY, min_views=1)


@pytest.mark.parametrize("leak", [
    {"narration": "Bia tem 8♦"},  # a card no copy of which Ana ever saw, by its face
    {"extra": "8d"},  # ... by its code
    {"extra": [card("As")]},  # a card of Bia's morto
])
def test_a_hidden_card_anywhere_fails(leak: dict[str, Any]) -> None:
    with pytest.raises(AssertionError):
        assert_secret(wire_of(ana_view(**leak)), 0, REPLAY, min_views=1)


def test_a_hidden_card_in_an_http_body_fails_even_escaped() -> None:
    body = json.dumps({"note": "8♦"})  # "8\\u2666"
    assert "8♦" not in body
    with pytest.raises(AssertionError):
        assert_secret(wire_of(ana_view(), body=body), 0, REPLAY, min_views=1)


def end_view(**extra: Any) -> dict[str, Any]:
    """Ana's view once the deal is over: its result lays Bia's leftover hand open."""
    return ana_view(status="between", result=["Bia: 2♣ 6♣ 8♦ 8♠ K♦"], **extra)


def test_the_deal_s_result_may_show_the_other_seat_s_leftover_hand() -> None:
    assert "8d" in REPLAY.hidden_from[0] and "8d" not in REPLAY.hidden_at_end[0]
    assert_secret(wire_of(ana_view(), end_view()), 0, REPLAY, min_views=2)


def test_a_leftover_card_shown_before_the_deal_s_end_fails() -> None:
    with pytest.raises(AssertionError):  # the same line, one view early
        assert_secret(wire_of(ana_view(narration="Bia: 8♦"), end_view()), 0, REPLAY,
                      min_views=2)


def test_a_card_no_one_saw_fails_even_in_the_deal_s_result() -> None:
    assert "As" in REPLAY.hidden_at_end[0]  # Bia's morto: never in a hand
    with pytest.raises(AssertionError):
        assert_secret(wire_of(end_view(narration="A♠")), 0, REPLAY, min_views=1)


def test_a_result_in_a_view_still_in_play_fails() -> None:
    with pytest.raises(AssertionError):
        assert_secret(wire_of(ana_view(status="playing", result=["Bia: 8♦"])), 0, REPLAY,
                      min_views=1)


def test_a_second_copy_of_a_card_seen_once_fails() -> None:
    # Ana saw one 9♠ (Bia's meld), never two at once: a second copy is Bia's or the stock's
    assert REPLAY.seen[0]["9s"] == 1
    view = ana_view(sides=[{"melds": [{"cards": [card("9s"), card("9s")]}]}])
    with pytest.raises(AssertionError):
        assert_secret(wire_of(view), 0, REPLAY, min_views=1)


def test_another_seats_view_fails() -> None:
    with pytest.raises(AssertionError):
        assert_secret(wire_of(ana_view(seat=1)), 0, REPLAY, min_views=1)


def test_faces_are_matched_whole() -> None:
    assert names_a_card('"10♦ e J♦"', "10d") and names_a_card("[\"10d\"]", "10d")
    assert not names_a_card('"110♦"', "10d") and not names_a_card('"10dd"', "10d")
