"""bench/vs_rm.py's translation to and from BotRafa's game state (bench/rm_view.py,
issue 37), without Node or RM's code: the JSON the subprocess gets holds no hidden
card (another seat's hand, the stock, a morto), and RM's moves become ours."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from rules_support import cards, position

from engine import Action, DealState
from engine.cards import Card, full_deck
from engine.comparison import RM
from engine.deal import apply, new_deal
from engine.melds import make_meld
from engine.simulate import random_action

sys.path.append(str(Path(__file__).resolve().parent.parent / "bench"))
from rm_view import (
    HIDDEN,
    BadMove,
    our_actions,
    our_card,
    rm_card,
    rm_meld,
    rm_table,
    rm_view,
)


def _mid_deal(seed: int, actions: int = 60) -> DealState:
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    state = new_deal(RM, 4, deck=deck)
    rng = random.Random(seed)
    for _ in range(actions):
        apply(state, random_action(state, rng))
    return state


def _ids(obj: object) -> list[int]:
    """Every card id RM could read in the view: hand counts, pile, melds' cards."""
    g = obj if isinstance(obj, dict) else {}
    out: list[int] = []
    for flat in g["cards"].values():
        out += [i for i, n in enumerate(flat) for _ in range(n)]
    return out + list(g["discardPile"])


def test_card_ids_follow_rm_suits() -> None:
    """RM ids: (suit - 1) * 13 + rank - 1, suits 1 ♠, 2 ♥, 3 ♣, 4 ♦ (Buraco.js:143)."""
    assert [rm_card(Card.parse(c)) for c in ("As", "Ks", "Ah", "2c", "10d", "Kd")] == [
        0, 12, 13, 27, 48, 51]
    faces = {c for c in full_deck()}
    assert {our_card(rm_card(c)) for c in faces} == faces
    with pytest.raises(BadMove):
        our_card(HIDDEN)


def test_melds_in_rm_slots() -> None:
    """Runs: [A-low, A-high, natural 2, 3..K, foreign wild suit, same-suit 2 as wild];
    sets: [rank, ♠, ♥, ♣, ♦ counts, wild suit] (Buraco.js:193)."""
    run = make_meld(cards("Ah 2h 3h 4h"), RM)
    assert rm_meld(run) == [1, 0, 1, 1, 1] + [0] * 9 + [0, 0]
    wild = make_meld(cards("9s 10s 2d Qs"), RM)
    assert rm_meld(wild) == [0] * 9 + [1, 1, 0, 1, 0, 4, 0]
    own = make_meld(cards("Js Qs 2s"), RM)
    assert rm_meld(own) == [0] * 11 + [1, 1, 0, 0, 1]
    aces = make_meld(cards("As Ah Ah 2c"), RM)
    assert rm_meld(aces) == [1, 1, 2, 0, 0, 3]
    table, where = rm_table([own, aces, wild])
    assert table == [{"1": [rm_meld(own), rm_meld(wild)]}, [rm_meld(aces)]]
    assert (where.seq, where.runners) == ({(1, 0): 0, (1, 1): 2}, {0: 1})


@pytest.mark.parametrize("seed", range(6))
def test_view_holds_no_hidden_card(seed: int) -> None:
    """The JSON sent to RM names only the seat's own hand and the pile (public: each
    card was discarded face up); the stock and mortos are placeholders, other hands
    are absent."""
    state = _mid_deal(seed)
    seat = state.turn
    g, _ = rm_view(state, seat)
    assert list(g["cards"]) == [str(seat)]
    assert set(g["deck"]) <= {HIDDEN} and all(set(m) <= {HIDDEN} for m in g["pots"])
    assert len(g["deck"]) == len(state.stock)
    public = sorted(rm_card(c) for c in [*state.hands[seat], *state.pile])
    assert sorted(_ids(g)) == public
    others = [c for s in range(4) if s != seat for c in state.hands[s]]
    hidden = [*others, *state.stock, *(c for m in state.mortos for c in m)]
    assert g["handSizes"] == {str(s): len(state.hands[s]) + len(state.pending_morto[s])
                              for s in range(4)}
    assert hidden  # the test means something: there are hidden cards to leak


@pytest.mark.parametrize("seed", range(4))
def test_view_is_the_same_whatever_the_hidden_cards(seed: int) -> None:
    """Two states that differ only in hidden cards (another seat's hand, the stock,
    the mortos shuffled among themselves) give the same JSON to RM."""
    state = _mid_deal(seed)
    seat = state.turn
    other = state.clone()
    pool = [c for s in range(4) if s != seat for c in other.hands[s]]
    pool += other.stock + [c for m in other.mortos for c in m]
    random.Random(seed + 100).shuffle(pool)
    for s in range(4):
        if s != seat:
            n = len(other.hands[s])
            other.hands[s], pool = pool[:n], pool[n:]
    n = len(other.stock)
    other.stock, pool = pool[:n], pool[n:]
    for k, m in enumerate(other.mortos):
        other.mortos[k], pool = pool[:len(m)], pool[len(m):]
    assert other.hands[(seat + 1) % 4] != state.hands[(seat + 1) % 4]
    assert json.dumps(rm_view(state, seat)[0]) == json.dumps(rm_view(other, seat)[0])


def test_rm_moves_become_our_actions() -> None:
    """``rm_bot.mjs`` move lines -> our actions (targets through the index map)."""
    state = DealState.from_json(RM, position(
        ["8d 3c 4c Ks", "5s", "6s", "7s"],
        melds=[["Js Qs 2s", "As Ah 2c", "4d 5d 6d 7d"], []], pile="Jc 9d",
        stock="Qc Qs", mortos=["", ""], turn=0, phase="draw"))
    _, tables = rm_view(state, 0)
    where = tables[0]
    c = Card.parse
    assert our_actions(state, 0, {"kind": "draw"}, where) == [Action.draw(0)]
    assert our_actions(state, 0, {"kind": "discard", "card": 51}, where) == [
        Action.discard(0, c("Kd"))]
    assert our_actions(state, 0, {"kind": "meld", "cards": {"26": 1, "28": 2}}, where) == [
        Action.lay_down(0, [[c("Ac"), c("3c"), c("3c")]])]
    assert our_actions(state, 0, {"kind": "append", "cards": {"12": 1},
                                  "target": {"type": "seq", "suit": 4, "index": 0}},
                       where) == [Action.extend(0, 2, [c("Ks")])]
    assert our_actions(state, 0, {"kind": "append", "cards": {"0": 1},
                                  "target": {"type": "runner", "index": 0}},
                       where) == [Action.extend(0, 1, [c("As")])]
    assert our_actions(state, 0, {"kind": "pickup", "cards": {"46": 1},
                                  "target": {"type": "append", "meldTarget": {
                                      "type": "seq", "suit": 4, "index": 0}}}, where) == [
        Action.take_pile(0, with_=[c("8d")], meld=2)]
    assert our_actions(state, 0, {"kind": "pickup", "cards": {},
                                  "target": {"type": "append", "meldTarget": {
                                      "type": "seq", "suit": 4, "index": 0}}}, where) == [
        Action.take_pile(0, meld=2)]
    assert our_actions(state, 0, {"kind": "pickup", "cards": {"46": 1, "45": 1},
                                  "target": {"type": "new"}}, where) == [
        Action.take_pile(0, with_=[c("8d"), c("7d")])]


@pytest.mark.parametrize("move", [
    {"kind": "fly"},
    {"kind": "discard", "card": 52},
    {"kind": "meld", "cards": [1, 2, 3]},
    {"kind": "meld", "cards": {"1": 3}},
    {"kind": "append", "cards": {"1": 1}, "target": {"type": "seq", "suit": 2, "index": 9}},
    {"kind": "append", "cards": {"1": 1}, "target": {"type": "runner", "index": 5}},
])
def test_malformed_rm_moves_are_refused(move: dict[str, object]) -> None:
    """A move naming no card, count, meld or kind raises ``BadMove`` (the bench counts
    it and answers "no"; nothing is applied)."""
    state = _mid_deal(1, 10)
    _, tables = rm_view(state, state.turn)
    with pytest.raises(BadMove):
        our_actions(state, state.turn, move, tables[state.side_of[state.turn]])


class _ScriptedRm:
    """A stand-in for the Node subprocess (``rm_link.RmBot``): at each RM turn it sends
    the moves of ``script`` (a bad card, a move our engine refuses, a draw...) and then
    "done", or fails as a dead subprocess would."""

    def __init__(self, script: list[dict[str, object]], fail: bool = False) -> None:
        self.script, self.fail = script, fail
        self.queue: list[dict[str, object]] = []
        self.turns = self.restarts = 0
        self.sent: list[dict[str, object]] = []

    def send(self, obj: dict[str, object]) -> None:
        self.sent.append(obj)
        if obj.get("op") == "turn":
            self.turns += 1
            self.queue = [{"op": "move", **m} for m in self.script]
            self.queue.append({"op": "done", "self_refused": 1, "ms": 0.5, "error": None})

    def recv(self) -> dict[str, object]:
        if self.fail:
            from rm_link import RmFailure
            raise RmFailure("RM subprocess exited")
        return self.queue.pop(0)

    def restart(self) -> None:
        self.restarts += 1


def _referee_deal(bot: _ScriptedRm) -> tuple[DealState, object]:
    import vs_rm
    deck = full_deck()
    random.Random(5).shuffle(deck)
    state = new_deal(RM, 4, deck=deck)
    tally = vs_rm.Tally()
    vs_rm.Referee(state, 1, "facil", None, bot, tally, random.Random(5)).play()  # type: ignore[arg-type]
    return state, tally


def test_refused_and_malformed_rm_moves_never_stop_a_deal() -> None:
    """bench/vs_rm.py's fallback: RM's bad or refused moves are answered "no" and
    counted by reason, the turn RM leaves open is finished by ``facil``, and the deal
    ends with a score."""
    bot = _ScriptedRm([{"kind": "discard", "card": 99}, {"kind": "draw"},
                       {"kind": "draw"}, {"kind": "fly"}])
    state, tally = _referee_deal(bot)
    assert state.over and bot.turns > 5
    refused = tally.rm_refused  # type: ignore[attr-defined]
    assert refused["bad_move: no card 99"] == bot.turns
    assert refused["bad_move: unknown move 'fly'"] == bot.turns
    assert refused["draw: already_drew"] == bot.turns  # the second draw of each turn
    assert tally.rm_moves == bot.turns  # type: ignore[attr-defined]  # the first draws
    assert tally.fallback_turns == bot.turns  # type: ignore[attr-defined]
    answers = [m for m in bot.sent if "ok" in m]
    assert [m["ok"] for m in answers[:4]] == [False, True, False, False]
    turns = [m for m in bot.sent if m.get("op") == "turn"]
    assert all(list(m["state"]["cards"]) == [m["seat"]] for m in turns)  # type: ignore[index]


def test_a_dead_rm_subprocess_is_restarted_and_counted() -> None:
    """A subprocess that exits (``RmFailure``) is restarted at each RM turn, the turn
    played by ``facil``: the run goes on and reports the failures."""
    bot = _ScriptedRm([], fail=True)
    state, tally = _referee_deal(bot)
    assert state.over
    assert tally.rm_failures == bot.turns == bot.restarts  # type: ignore[attr-defined]
    assert tally.fallback_turns == bot.turns  # type: ignore[attr-defined]
