"""``/replay``: the chat's last finished match, step by step, from its stored record
(issue 29 "Spectators").

A step is a position ``(deal, move)``: move 0 is the deal as dealt, move ``m`` the
position after the deal's ``m``-th action (docs/record-format.md). Each step is shown
as a spectator saw the table at that moment: the table view of :mod:`bot.views` (the
sides' melds, the pile, the stock, the hand sizes, the scores) with the move that led
there narrated by :mod:`bot.narration`, built over a stand-in :class:`bot.model.Game`
made from the record; no hand is shown during a deal. A deal's last step adds the
deal's result as the group got it (:func:`bot.results.breakdown_text`, with the
leftovers the deal's end laid open).

Cost: a deal is replayed from its own deck (every deal of a record carries its deck,
first seat and scores), never from the start of the match, and once per worker: its
positions every :data:`EVERY` moves are kept (:data:`KEPT_DEALS` deals, by game and
deal), so a step costs at most ``EVERY`` engine moves on top of drawing the view.
The service runs it in a worker thread.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Any

from bot import narration, play, results, views
from bot.effects import ChatRef, PlayerRef, View, pack
from bot.i18n import N_, Translator
from bot.model import Game, Seat
from engine.actions import Action
from engine.cards import Card
from engine.deal import apply
from engine.errors import IllegalAction
from engine.match import LEGACY_FORMATS, RECORD_FORMAT, SEEDED_FORMAT, Match
from engine.rules import DealerRotation, RedThree, Rules, make_rules, stored_options
from engine.scoring import score_deal
from engine.state import DealState, deal_cards

CODE = "rp"
"""The button code of a replay step (payload ``<game>|<serial>|rp|<deal>.<move>``)."""
ARG = re.compile(r"([0-9]{1,3})\.([0-9]{1,5})")
"""A step's argument: the deal's and the move's indexes, from 0 (never a card)."""
EVERY = 16
"""Positions kept per deal: one every this many moves."""
KEPT_DEALS = 16
"""Deals whose positions a worker keeps (least recently shown dropped first)."""
KEPT_TAPES = 8
"""Parsed records a worker keeps."""
SETTING = "replay"
"""The chat setting holding the serial of its newest replay message: a button of an
older one is stale."""
ROBOT_NAME = re.compile(r"Robô ([0-9]{1,3})")
"""A robot's name as records keep it (:meth:`bot.model.Game.name_of`): shown in the
chat's language (``"Robot 2"``)."""

NO_MATCH = N_("Ainda não há partida terminada neste grupo.")
UNREADABLE = N_("O registro da última partida não pode ser lido: não há replay dela.")
STALE = N_("Este replay foi substituído: use /replay de novo.")
HEADER = N_("Replay · mão {deal} de {deals} · jogada {move} de {moves}")
HEADER_START = N_("Replay · mão {deal} de {deals} · início")
DEALT = N_("Mão {n} distribuída.")


class BadRecord(Exception):
    """The record cannot be replayed; ``str(err)`` is the kind of damage only (never
    its content, which holds every card)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a record: ``first`` seat, ``scores`` before it (per side), ``deck``
    (top first), altaneira's ``reshuffle`` (empty: none) and its ``actions``."""

    first: int
    scores: tuple[int, ...]
    deck: tuple[Card, ...]
    reshuffle: tuple[int, ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Tape:
    """A record read for replaying: its ``rules``, the ``players``' names in seat order,
    the ``variant`` and stored ``options`` as written, and its ``deals``."""

    rules: Rules
    players: tuple[str, ...]
    variant: str
    options: dict[str, Any]
    deals: tuple[Deal, ...]

    def moves(self, deal: int) -> int:
        """How many actions deal ``deal`` has (its last step's index)."""
        return len(self.deals[deal].actions)

    def last(self) -> tuple[int, int]:
        """The match's last step."""
        return len(self.deals) - 1, self.moves(len(self.deals) - 1)

    def holds(self, deal: int, move: int) -> bool:
        """Whether ``(deal, move)`` is a step of this record."""
        return 0 <= deal < len(self.deals) and 0 <= move <= self.moves(deal)


def parse_arg(arg: str) -> tuple[int, int] | None:
    """``(deal, move)`` of a button's argument ``"2.17"``, or None when it has not that
    shape (ASCII digits only)."""
    found = ARG.fullmatch(arg)
    return (int(found[1]), int(found[2])) if found else None


def read(text: str) -> Tape:
    """The record ``text`` (docs/record-format.md, one deal or ``deals``) as a
    :class:`Tape`; :class:`BadRecord` when it is no such record."""
    try:
        record = json.loads(text)
        if not isinstance(record, dict):
            raise TypeError("not an object")
        legacy = record.get("format") in LEGACY_FORMATS
        if record.get("format") not in (RECORD_FORMAT, SEEDED_FORMAT) and not legacy:
            raise ValueError("format")
        variant, options = str(record["variant"]), dict(record.get("options") or {})
        rules = make_rules(variant, stored_options(options), stored=True)
        if legacy:
            rules = rules.model_copy(update={"legacy_relayout": True})
        players = tuple(str(p) for p in record["players"])
        sides = len(rules.teams(len(players)))
        raw = record.get("deals", [record])
        deals = tuple(_deal(d, len(players), sides) for d in raw)
    except (IllegalAction, KeyError, TypeError, ValueError, AttributeError) as err:
        raise BadRecord(type(err).__name__) from None
    if not deals:
        raise BadRecord("no deals")
    if not _in_deal_order(rules, len(players), deals):
        raise BadRecord("deal order")
    return Tape(rules, players, variant, options, deals)


def _in_deal_order(rules: Rules, players: int, deals: tuple[Deal, ...]) -> bool:
    """Whether the deals start at the seats the rules give where that needs no replay:
    the first at seat 0 (docs/rules-decisions.md D13), then, where the next seat deals
    (RULES C15), each at the seat after the previous one's first (issue 38: the engine's
    replay checks it; altaneira's dealer depends on who went out, which only a replay of
    the deal before says: ``engine.record.replay`` checks that)."""
    if len(deals) < 2:  # a one-deal record may start anywhere (a position, docs)
        return True
    if rules.dealer_rotation != DealerRotation.NEXT_SEAT:
        return deals[0].first == 0
    return all(d.first == k % players for k, d in enumerate(deals))


def _deal(raw: dict[str, Any], players: int, sides: int) -> Deal:
    first = int(raw.get("first", 0))
    scores = tuple(int(s) for s in raw.get("scores") or [0] * sides)
    if not 0 <= first < players or len(scores) != sides:
        raise ValueError("first or scores")
    return Deal(first, scores, tuple(Card.parse(c) for c in raw["deck"]),
                tuple(int(i) for i in raw.get("reshuffle") or []),
                tuple(Action.from_json(a) for a in raw.get("actions", [])))


_tapes: OrderedDict[tuple[str, str], Tape] = OrderedDict()
_frames: OrderedDict[tuple[str, str, int], list[DealState]] = OrderedDict()
_lock = Lock()


def tape_of(gid: str, text: str) -> tuple[str, Tape]:
    """``(digest, tape)`` of game ``gid``'s record ``text``, read once per worker (by
    the text's digest: a record written again is read again). :class:`BadRecord`."""
    digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    with _lock:
        tape = _tapes.get((gid, digest))
        if tape is not None:
            _tapes.move_to_end((gid, digest))
            return digest, tape
    tape = read(text)
    with _lock:
        _tapes[(gid, digest)] = tape
        while len(_tapes) > KEPT_TAPES:
            _tapes.popitem(last=False)
    return digest, tape


def frames(key: tuple[str, str], tape: Tape, deal: int) -> list[DealState]:
    """The positions of deal ``deal`` every :data:`EVERY` moves (index ``k``: after
    ``k * EVERY`` moves), replayed once per worker and game (``key``: game id and
    record digest). :class:`BadRecord` when a move is illegal, or a deal that is not the
    last does not end."""
    cache_key = (*key, deal)
    with _lock:
        kept = _frames.get(cache_key)
        if kept is not None:
            _frames.move_to_end(cache_key)
            return kept
    d = tape.deals[deal]
    try:
        state = deal_cards(tape.rules, len(tape.players), d.deck, d.first, list(d.scores),
                           list(d.reshuffle) or None)
        kept = [state.clone()]
        for n, action in enumerate(d.actions, start=1):
            apply(state, action)
            if n % EVERY == 0:
                kept.append(state.clone())
    except IllegalAction as err:
        raise BadRecord(err.code) from None
    if deal < len(tape.deals) - 1 and not state.over:
        raise BadRecord("deal not over")
    with _lock:
        _frames[cache_key] = kept
        while len(_frames) > KEPT_DEALS:
            _frames.popitem(last=False)
    return kept


def position(key: tuple[str, str], tape: Tape, deal: int,
             move: int) -> tuple[DealState, list[Any], int]:
    """The position after ``move`` moves of ``deal``, the engine events of the move that
    led there (none at move 0) and the deal's ``turn_count`` when it was made."""
    kept = frames(key, tape, deal)
    actions = tape.deals[deal].actions
    if move == 0:
        return kept[0].clone(), [], 0
    start = (move - 1) // EVERY * EVERY
    state = kept[start // EVERY].clone()
    for action in actions[start:move - 1]:
        apply(state, action)
    turn = state.turn_count
    return state, apply(state, actions[move - 1]), turn


def stand_in(gid: str, chat: ChatRef, lang: str, tape: Tape) -> Game:
    """A :class:`Game` holding what the record tells (its variant, options and seats,
    robots by their names), for :mod:`bot.views` to draw; never stored."""
    seats = []
    for k, name in enumerate(tape.players):
        robot = ROBOT_NAME.fullmatch(name)
        seats.append(Seat(ai="normal", robot=int(robot[1])) if robot else Seat(
            player=PlayerRef(platform=chat.platform, user_id=f"seat{k}", name=name)))
    creator = PlayerRef(platform=chat.platform, user_id="replay", name=tape.players[0])
    return Game(id=gid, chat=chat, creator=creator, lang=lang, preset=tape.rules.preset,
                options=tape.options, seats=seats, created=0.0, touched=0.0,
                status="playing")


def step_view(gid: str, serial: int, chat: ChatRef, lang: str, key: tuple[str, str],
              tape: Tape, deal: int, move: int) -> View:
    """The replay message at step ``(deal, move)`` (module docstring), its buttons
    carrying ``serial``. :class:`BadRecord` when the record cannot be replayed."""
    _ = Translator(lang)
    state, events, turn = position(key, tape, deal, move)
    game = stand_in(gid, chat, lang, tape)
    d = tape.deals[deal]
    match = Match(rules=tape.rules, players=list(tape.players), scores=list(d.scores),
                  dealer=(d.first - 1) % len(tape.players), deal=state)
    game.deals = [[b - a for a, b in zip(x.scores, y.scores, strict=True)]
                  for x, y in zip(tape.deals[:deal], tape.deals[1:deal + 1], strict=True)]
    score = score_deal(state) if state.over else None
    if score is not None:  # the deal's end: counted as the table counted it then
        match.scores = [s + t for s, t in zip(d.scores, score.totals, strict=True)]
        game.deals.append(list(score.totals))
        game.status = "between"
    play.store_match(game, match)
    if move == 0:
        game.last = [(DEALT, {"n": deal + 1})]
    else:
        _narrate(game, state, events, turn, tape.deals[deal].actions[move - 1])
    table = views.table_view(game, _)
    head = (_(HEADER_START, deal=deal + 1, deals=len(tape.deals)) if move == 0 else
            _(HEADER, deal=deal + 1, deals=len(tape.deals), move=move,
              moves=tape.moves(deal)))
    lines = [head, *table.lines]
    if score is not None:
        lines += ["", results.breakdown_text(game, score, _)]
        game.winner = winner(tape, match.scores) if deal == len(tape.deals) - 1 else None
        if game.winner is not None:
            lines.append(results.winner_text(game, _))
    return View.model_validate({"title": table.title, "lines": lines,
                                "buttons": buttons(gid, serial, tape, deal, move, _)})


def _narrate(game: Game, state: DealState, events: list[Any], turn: int,
             action: Action) -> None:
    """The move's words, as the table said them when it was played (bot.turns)."""
    stuck = state.rules.red_three == RedThree.LAY_ALONE
    said = []
    for ev in events:
        melds = state.melds[state.side_of[ev.seat]] if ev.seat >= 0 else []
        entry = narration.describe(ev, turn, melds, action.with_ is not None, 0.0, stuck)
        if entry is not None:
            said.append(entry)
    game.last = said


def winner(tape: Tape, totals: list[int]) -> int | None:
    """The side that won with match ``totals`` after the record's last deal: the one
    side on top once the target is reached (a one-deal game: at once; RULES §2 "match
    end"); None when no side is alone on top (a tie the engine breaks by its own rules,
    or a match cancelled before its end: nothing is said)."""
    target = tape.rules.target
    top = max(totals)
    if (target is not None and top < target) or totals.count(top) != 1:
        return None
    return totals.index(top)


STEPS = ((N_("⏮ Início"), "first"), (N_("◀ Mão"), "deal-"), (N_("Mão ▶"), "deal+"),
         (N_("Fim ⏭"), "last"), (N_("◀ Jogada"), "move-"), (N_("Jogada ▶"), "move+"))
"""The replay's buttons (label, where it goes), in two rows: deals, then moves."""


def target(tape: Tape, deal: int, move: int, where: str) -> tuple[int, int]:
    """The step button ``where`` (:data:`STEPS`) leads to from ``(deal, move)``: a move
    before the deal's first goes to the previous deal's last, one after its last to
    the next deal's start."""
    if where == "first":
        return 0, 0
    if where == "last":
        return tape.last()
    if where == "deal-":
        return (deal - 1, 0) if deal else (deal, move)
    if where == "deal+":
        return (deal + 1, 0) if deal + 1 < len(tape.deals) else (deal, move)
    if where == "move-":
        return (deal, move - 1) if move else ((deal - 1, tape.moves(deal - 1)) if deal
                                              else (0, 0))
    if move < tape.moves(deal):
        return deal, move + 1
    return (deal + 1, 0) if deal + 1 < len(tape.deals) else (deal, move)


def buttons(gid: str, serial: int, tape: Tape, deal: int, move: int,
            _: Translator) -> list[list[dict[str, str]]]:
    """The step buttons that lead somewhere else, deals first, then moves; each payload
    holds the game id, ``serial`` and the step (:func:`bot.effects.pack`). Two buttons
    never lead to the same step (Discord refuses a custom_id twice on one message): a
    move button is kept before a deal button that would repeat it."""
    taken = {(deal, move)}
    made: dict[int, dict[str, str]] = {}
    for k in (4, 5, 0, 1, 2, 3):  # the moves' row first: it is the one always wanted
        label, where = STEPS[k]
        to = target(tape, deal, move, where)
        if to not in taken:
            taken.add(to)
            made[k] = {"label": _(label), "data": pack(gid, serial, CODE, f"{to[0]}.{to[1]}")}
    rows = [[made[k] for k in range(4) if k in made], [made[k] for k in (4, 5) if k in made]]
    return [row for row in rows if row]
