"""Where a wild stands when it could stand in two places (issue 30): RULES C4 and
docs/rules-decisions.md D11/D20 put a wild that bridges no gap at the high end, else the
low end; where both ends are open the person chooses. C5: a 2 of the run's suit in its
own slot is natural, so 2♦ 2♦ 3♦ is A-2-3 or 2-3-4 with the other 2♦ the wild. A set's
wild and a laid wild (C4 moves it) leave no choice. Records without a choice replay as
before (docs/record-format.md)."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import extend_meld, make_meld
from engine.rules import make_rules
from engine.wilds import extension_wild_choices, wild_choices

BURACO = make_rules("buraco")


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def shown(meld: object) -> str:
    return " ".join(str(c) for c in meld.cards)  # type: ignore[attr-defined]


def test_c5_two_same_suit_twos_and_a_three_are_a_2_3_or_2_3_4() -> None:
    assert wild_choices(cards("2d 2d 3d"), BURACO) == [4, 1]  # the default (D11) first
    assert shown(make_meld(cards("2d 2d 3d"), BURACO)) == "2♦ 3♦ 2♦"
    low = make_meld(cards("2d 2d 3d"), BURACO, 1)
    assert shown(low) == "2♦ 2♦ 3♦" and (low.low, low.wild_slot) == (1, 1)


def test_c4_a_wild_in_the_one_gap_has_no_choice() -> None:
    """4♠ 2♣ 6♠ 7♠: the 2♣ can only be the 5♠ (C9: consecutive)."""
    assert wild_choices(cards("4s 2c 6s 7s"), BURACO) == [5]
    with pytest.raises(IllegalAction) as err:
        make_meld(cards("4s 2c 6s 7s"), BURACO, 8)
    assert err.value.code == "meld_wild_slot"


def test_d11_either_open_end_and_the_ace_bounds() -> None:
    assert wild_choices(cards("5h 6h 7h 2c"), BURACO) == [8, 4]
    assert shown(make_meld(cards("5h 6h 7h 2c"), BURACO, 4)) == "2♣ 5♥ 6♥ 7♥"
    assert wild_choices(cards("Qh Kh 2c"), BURACO) == [14, 11]  # as the high ace, or J
    assert wild_choices(cards("Qh Kh Ah 2c"), BURACO) == [11]  # A..A: no room above
    # tranca: ace high only and no meld of 3s (RULES §2): 4♦ 5♦ + 2♦ can only be 6♦
    assert wild_choices(cards("2d 4d 5d"), make_rules("tranca")) == [6]


def test_a_sets_wild_and_a_meld_without_one_have_no_choice() -> None:
    assert wild_choices(cards("9h 9d 2c"), BURACO) == []
    assert wild_choices(cards("9h 9d 9c"), BURACO) == []
    assert wild_choices(cards("5h 6h 9h"), BURACO) == []  # no meld at all
    with pytest.raises(IllegalAction) as err:
        make_meld(cards("9h 9d 2c"), BURACO, 9)
    assert err.value.code == "meld_wild_slot"


def test_d20_a_new_wild_added_to_a_run_may_go_to_either_end() -> None:
    run = make_meld(cards("5h 6h 7h"), BURACO)
    assert extension_wild_choices(run, cards("2c"), BURACO) == [8, 4]
    assert shown(extend_meld(run, cards("2c"), BURACO, 4)) == "2♣ 5♥ 6♥ 7♥"
    assert extension_wild_choices(run, cards("2c 8h"), BURACO) == [9, 4]
    # a run that holds a wild: the laid wild moves as C4 says, nothing to choose
    dirty = make_meld(cards("5h 6h 7h 2c"), BURACO)
    assert extension_wild_choices(dirty, cards("8h"), BURACO) == []
    with pytest.raises(IllegalAction) as err:
        extend_meld(dirty, cards("8h"), BURACO, 4)
    assert err.value.code == "meld_wild_slot"


def test_the_action_carries_the_choice_and_its_record_form_round_trips() -> None:
    lay = Action.lay_down(0, [cards("2d 2d 3d"), cards("9h 9d 9c")], [(0, cards("2c"))],
                          [1, 0, 4])
    data = lay.to_json()
    assert data["wilds"] == [1, 0] and data["extend"] == [
        {"meld": 0, "cards": ["2c"], "wild": 4}]
    assert Action.from_json(data) == lay
    plain = Action.lay_down(0, [cards("2d 2d 3d")])
    assert "wilds" not in plain.to_json() and plain.wilds == ()
    assert Action.lay_down(0, [cards("2d 2d 3d")], (), [0]) == plain  # 0 is the default
    ext = Action.extend(1, 2, cards("2c"), 4)
    assert ext.to_json() == {"seat": 1, "do": "extend", "meld": 2, "cards": ["2c"], "wild": 4}
    assert Action.from_json(ext.to_json()) == ext
    pick = Action.take_pile(1, with_=cards("Kd 2c"), wild=11)  # RULES A10's new meld
    assert pick.to_json() == {"seat": 1, "do": "take_pile", "with": ["Kd", "2c"], "wild": 11}
    assert Action.from_json(pick.to_json()) == pick
    for bad in ({"seat": 0, "do": "extend", "meld": 0, "cards": ["2c"], "wild": 15},
                {"seat": 0, "do": "meld", "melds": [["2c", "5h", "6h"]], "wilds": [1, 2]}):
        with pytest.raises(IllegalAction) as err:
            Action.from_json(bad)
        assert err.value.code == "malformed"


def test_a_chosen_place_is_recorded_and_the_record_replays_to_it() -> None:
    """The deal's record keeps the choice (docs/record-format.md ``wilds``), and
    ``replay`` lays the meld where it was laid: 2♦(A) 2♦ 3♦, not the default 2-3-4."""
    from engine.match import Match
    from engine.record import replay
    from tests.rules_support import build_deck

    match = Match.new(BURACO, ["Ana", "Bia"])
    match.start_deal(build_deck(BURACO, 2, ["2d 2d 3d 5h 6h 7h Kh 9s 10s Js Qs",
                                            "Ac Ad Ah As 3c 3h 4d 4h 4s 5c 5d"],
                                stock_top="2c"))
    match.act(Action.draw(0))
    match.act(Action.lay_down(0, [cards("2d 2d 3d")], (), [1]))
    match.act(Action.discard(0, cards("Kh")[0]))
    record = match.record()
    assert record["actions"][1] == {"seat": 0, "do": "meld", "melds": [["2d", "2d", "3d"]],
                                    "wilds": [1]}
    replayed = replay(record)
    assert replayed.ok
    assert replayed.state.to_json()["melds"][0] == [["2d", "2d", "3d"]]
    assert shown(replayed.state.melds[0][0]) == "2♦ 2♦ 3♦"
    assert replayed.state.melds[0][0].wild_slot == 1
    # without the choice (an older record) the same cards replay to the default place
    del record["actions"][1]["wilds"]
    assert shown(replay(record).state.melds[0][0]) == "2♦ 3♦ 2♦"
