"""A stored match does not grow deal after deal (issue 4 "≤ 4 KB per game"): finished
deals leave the match state once a record holding them was written elsewhere."""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalAction, Match, make_rules
from engine.record import replay
from engine.simulate import random_action


def _play_deal(match: Match, rng: random.Random) -> None:
    state = match.start_deal()
    while not state.over:
        match.act(random_action(state, rng))


def test_archived_deals_come_back_from_the_earlier_record_and_replay() -> None:
    rng = random.Random(5)
    match = Match.new(make_rules("buraco", {"target": 100000}), ["Ana", "Bia"])
    _play_deal(match, rng)
    first_record = match.record()
    dropped = match.archive_finished()
    assert [i for i, _ in dropped] == [0]
    assert dropped[0][1]["deck"] == first_record["deck"]
    assert match.archive_finished() == []
    stored = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert stored.logs[0].archived and stored.logs[0].deck == []
    _play_deal(stored, rng)
    full = stored.record(first_record)
    kept = ("first", "scores", "deck", "actions", "shuffle", "commitment", "seed")
    assert full["deals"][0] == {k: first_record[k] for k in kept}
    result = replay(full)
    assert result.ok and result.match_scores == stored.scores


def test_the_stored_match_stays_small_after_many_deals() -> None:
    rng = random.Random(9)
    match = Match.new(make_rules("buraco_morto", {"target": 100000}), ["a", "b", "c", "d"])
    sizes = []
    for _ in range(5):
        _play_deal(match, rng)
        match.archive_finished()
        sizes.append(len(json.dumps(match.to_json(), separators=(",", ":"))))
    # each archived deal keeps only its first seat, scores and result (< 600 bytes)
    assert sizes[-1] - sizes[0] < 4 * 600


def test_a_record_without_the_archived_deal_is_refused() -> None:
    rng = random.Random(2)
    match = Match.new(make_rules("buraco", {"target": 100000}), ["Ana", "Bia"])
    _play_deal(match, rng)
    match.archive_finished()
    with pytest.raises(IllegalAction) as err:
        match.record()
    assert (err.value.code, err.value.message) == ("record_incomplete",
                                                   "falta o registro da mão 1")
