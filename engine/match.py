"""A match: deals until a side wins (RULES §2 "target", "match end, ties"; C15).

The match keeps each deal's log (deck, first seat, actions) so the whole game can be
exported as a record (docs/record-format.md) and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine import jsonfields
from engine.actions import Action
from engine.cards import Card, codes
from engine.deal import apply
from engine.errors import IllegalAction
from engine.fairdeal import SCHEME, commitment, deck_from_seed, new_seed, reshuffle_from_seed
from engine.rules import DealerRotation, Rules, Tiebreak, make_rules, options_of, stored_options
from engine.scoring import DealScore, score_deal
from engine.state import DealState, Event, deal_cards

RECORD_FORMAT = "buraco-record/2"
"""Records written since issue 14: laid melds keep their layout (RULES C10)."""
SEEDED_FORMAT = "buraco-record/3"
"""Records whose deals carry their ``seed`` and ``commitment`` (issue 35, verifiable
deals, engine/fairdeal.py): otherwise read as :data:`RECORD_FORMAT`."""
LEGACY_FORMATS = frozenset({"buraco-record/1"})
"""Older records, replayed with ``Rules.legacy_relayout`` (melds re-laid from their cards
after every extension, as the engine that wrote them did)."""


@dataclass(slots=True)
class DealLog:
    """One deal as recorded: ``first`` seat, ``scores`` (match totals per side before
    the deal), ``deck`` (top first), ``reshuffle`` (A26 pile order, may be empty),
    ``actions`` (record JSON), ``result`` once the deal is over, and ``seed`` (64 hex
    digits) when the deck and reshuffle were derived from one (engine/fairdeal.py;
    secret until the deal is over: kept only in the stored game)."""

    first: int
    scores: list[int]
    deck: list[str]
    reshuffle: list[int]
    actions: list[dict[str, Any]] = field(default_factory=list)
    result: DealScore | None = None
    archived: bool = False
    seed: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Record form of the deal (``result`` omitted: replay recomputes it); a seeded
        deal adds ``shuffle`` (the scheme), ``commitment`` and ``seed``."""
        out: dict[str, Any] = {
            "first": self.first,
            "scores": self.scores,
            "deck": self.deck,
            "actions": self.actions,
        }
        if self.reshuffle:
            out["reshuffle"] = self.reshuffle
        if self.seed is not None:
            out.update(shuffle=SCHEME, commitment=commitment(self.seed), seed=self.seed)
        return out


@dataclass(slots=True)
class Match:
    """A match between the sides of ``rules.teams(len(players))``.

    ``scores[side]``: match totals; ``logs``: one :class:`DealLog` per deal started;
    ``deal``: the current deal (None before the first); ``dealer``: seat that dealt the
    current deal; ``winner``: side index once ``over``.
    """

    rules: Rules
    players: list[str]
    scores: list[int]
    dealer: int
    deal: DealState | None = None
    logs: list[DealLog] = field(default_factory=list)
    batidas: list[int] = field(default_factory=list)
    best_batida: list[int | None] = field(default_factory=list)
    over: bool = False
    winner: int | None = None

    @classmethod
    def new(cls, rules: Rules, players: list[str]) -> Match:
        """A match before its first deal; seat 0 plays first (the dealer is the last seat).
        Raises ``IllegalAction("bad_players")`` for a player count the rules refuse."""
        sides = len(rules.teams(len(players)))
        return cls(
            rules=rules,
            players=list(players),
            scores=[0] * sides,
            dealer=len(players) - 1,
            batidas=[0] * sides,
            best_batida=[None] * sides,
        )

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def deal_state(self) -> DealState:
        """The current deal; raises ``IllegalAction("no_deal")`` before the first deal."""
        if self.deal is None:
            raise IllegalAction("no_deal", "não há mão em andamento")
        return self.deal

    @property
    def results(self) -> list[DealScore]:
        """Scores of the finished deals, in order."""
        return [log.result for log in self.logs if log.result is not None]

    def start_deal(
        self, deck: list[Card] | None = None, reshuffle: list[int] | None = None
    ) -> DealState:
        """Deal the next deal from ``deck`` (top first). Without one, a fresh secret seed
        (engine/fairdeal.py) gives the deck and, where the pile goes back to the stock
        (RULES A26), the reshuffle: the deal is verifiable once over (issue 35).
        Raises ``IllegalAction("match_over")`` or ``("deal_in_progress")``."""
        if self.over:
            raise IllegalAction("match_over", "a partida já terminou")
        if self.deal is not None and not self.deal.over:
            raise IllegalAction("deal_in_progress", "a mão atual ainda não terminou")
        first = (self.dealer + 1) % self.n_players
        seed = None
        if deck is None:
            seed = new_seed()
            deck = deck_from_seed(seed, self.rules.jokers)
            if self.rules.reuse_pile_once and reshuffle is None:
                reshuffle = reshuffle_from_seed(seed, len(deck))
        state = deal_cards(self.rules, self.n_players, deck, first, self.scores, reshuffle)
        full = list(reversed(state.stock))
        dealt = _dealt_order(state, full)
        self.deal = state
        self.logs.append(DealLog(first, list(self.scores), dealt, list(state.reshuffle),
                                 seed=seed))
        return state

    @property
    def commitment(self) -> str | None:
        """The current deal's commitment (SHA-256 of its seed, hex), shown before anyone
        sees a card; None for a deal dealt from a given deck or before any deal."""
        seed = self.logs[-1].seed if self.logs else None
        return commitment(seed) if seed is not None else None

    @property
    def revealed_seed(self) -> str | None:
        """The current deal's seed once the deal is over (never before: it would reveal
        every hand); None while it is in play or when it had no seed."""
        if self.deal is None or not self.deal.over or not self.logs:
            return None
        return self.logs[-1].seed

    def act(self, action: Action) -> list[Event]:
        """Apply ``action`` to the current deal; at the deal's end, score it and update
        the match (C14, C15, §2 match end). Raises ``IllegalAction`` (``no_deal`` or the
        deal's own codes) with nothing changed."""
        if self.deal is None or self.deal.over:
            raise IllegalAction("no_deal", "não há mão em andamento")
        events = apply(self.deal, action)
        self.logs[-1].actions.append(action.to_json())
        if self.deal.over:
            self._finish_deal()
        return events

    def _finish_deal(self) -> None:
        assert self.deal is not None
        result = score_deal(self.deal)
        self.logs[-1].result = result
        for side, points in enumerate(result.totals):
            self.scores[side] += points
        if self.deal.went_out >= 0:
            side = self.deal.side_of[self.deal.went_out]
            self.batidas[side] += 1
            best = self.best_batida[side]
            total = result.totals[side]
            self.best_batida[side] = total if best is None else max(best, total)
        self.dealer = self._next_dealer(self.deal)
        self.winner = self._decide_winner()
        self.over = self.winner is not None

    def _next_dealer(self, deal: DealState) -> int:
        """RULES C15: next seat; altaneira: who went out, else fewest cards (ties: first
        clockwise from the last dealer), seed 000 §8.5."""
        n = self.n_players
        if self.rules.dealer_rotation == DealerRotation.NEXT_SEAT:
            return (self.dealer + 1) % n
        if deal.went_out >= 0:
            return deal.went_out
        order = [(self.dealer + k) % n for k in range(1, n + 1)]
        return min(order, key=lambda s: len(deal.hands[s]))

    def _decide_winner(self) -> int | None:
        """RULES §2 last row: first to the target; both -> higher total; altaneira then
        more batidas, then best deal it ended (A7); still tied -> one more deal.
        One-deal games (A35) are decided by the deal's totals."""
        target = self.rules.target
        if target is not None and max(self.scores) < target:
            return None
        top = max(self.scores)
        tied = [s for s, v in enumerate(self.scores) if v == top]
        if len(tied) > 1 and self.rules.tiebreak == Tiebreak.ALTANEIRA:
            most = max(self.batidas[s] for s in tied)
            tied = [s for s in tied if self.batidas[s] == most]
            if len(tied) > 1:
                bests = {s: self.best_batida[s] for s in tied}
                top_best = (
                    max(b for b in bests.values() if b is not None)
                    if any(b is not None for b in bests.values())
                    else None
                )
                tied = [s for s in tied if bests[s] == top_best]
        return tied[0] if len(tied) == 1 else None

    # Records and storage ----------------------------------------------------------
    def record(self, earlier: dict[str, Any] | None = None) -> dict[str, Any]:
        """The match as a record (docs/record-format.md): one deal -> top-level
        ``deck``/``first``/``scores``/``actions``; several -> ``deals``.

        Deals dropped by :meth:`archive_finished` are taken from ``earlier``, a record
        of this match written before they were dropped. Raises
        ``IllegalAction("record_incomplete")`` when one is missing there."""
        out: dict[str, Any] = {
            "format": self.record_format,
            "variant": self.rules.preset,
            "options": options_of(self.rules),
            "players": list(self.players),
        }
        deals = [self._logged(i, log, earlier) for i, log in enumerate(self.logs)]
        if out["format"] == RECORD_FORMAT and any("seed" in d for d in deals):
            out["format"] = SEEDED_FORMAT
        elif out["format"] != RECORD_FORMAT:  # buraco-record/1 has no seeds
            deals = [{k: v for k, v in d.items() if k not in SEED_KEYS} for d in deals]
        if len(deals) == 1:
            out.update(deals[0])
        else:
            out["deals"] = deals
        return out

    def _logged(self, index: int, log: DealLog, earlier: dict[str, Any] | None) -> dict[str, Any]:
        if not log.archived:
            return log.to_json()
        kept = (earlier or {}).get("deals") or ([earlier] if earlier and index == 0 else [])
        if index >= len(kept) or not isinstance(kept[index], dict) or "deck" not in kept[index]:
            raise IllegalAction(
                "record_incomplete", "falta o registro da mão {number}", number=index + 1
            )
        return {
            k: kept[index][k]
            for k in ("first", "scores", "deck", "reshuffle", "actions", *SEED_KEYS)
            if k in kept[index]
        }

    def archive_finished(self) -> list[tuple[int, dict[str, Any]]]:
        """Drop the deck and actions of finished deals from this object (their results
        stay), so a stored match does not grow deal after deal. Returns ``(index, deal
        record)`` of each deal dropped: keep them in a record (``{"deals": [...]}``) and
        pass that back to :meth:`record` as ``earlier``."""
        dropped = []
        for index, log in enumerate(self.logs):
            if log.result is not None and not log.archived:
                dropped.append((index, log.to_json()))
                log.deck, log.actions, log.reshuffle, log.archived = [], [], [], True
                log.seed = None
        return dropped

    @property
    def record_format(self) -> str:
        """The record format this match is played and exported under: ``buraco-record/1``
        for a match stored before issue 14 (it finishes with melds re-laid after every
        extension, ``Rules.legacy_relayout``), else :data:`RECORD_FORMAT`."""
        return min(LEGACY_FORMATS) if self.rules.legacy_relayout else RECORD_FORMAT

    def to_json(self) -> dict[str, Any]:
        """Complete state for storage (resumable with :meth:`from_json`)."""
        return {
            "format": self.record_format,
            "variant": self.rules.preset,
            "options": _options_of(self.rules),
            "players": self.players,
            "scores": self.scores,
            "dealer": self.dealer,
            "batidas": self.batidas,
            "best_batida": self.best_batida,
            "over": self.over,
            "winner": self.winner,
            "deal": self.deal.to_json() if self.deal is not None else None,
            "logs": [self._stored_log(log) for log in self.logs],
        }

    @staticmethod
    def _stored_log(log: DealLog) -> dict[str, Any]:
        result = log.result.to_json() if log.result else None
        if log.archived:
            return {"first": log.first, "scores": log.scores, "archived": True, "result": result}
        return {**log.to_json(), "result": result}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Inverse of :meth:`to_json`; raises ``IllegalAction("bad_position")`` if corrupt.
        Data without ``format`` was stored before issue 14: that match keeps the meld
        behaviour it started with (``legacy_relayout``), so its record replays exactly."""
        try:
            if not isinstance(data, dict):
                raise TypeError("not an object")
            rules = make_rules(data["variant"], stored_options(data.get("options")), stored=True)
            if data.get("format", min(LEGACY_FORMATS)) in LEGACY_FORMATS:
                rules = rules.model_copy(update={"legacy_relayout": True})
            match = cls(
                rules=rules,
                players=list(data["players"]),
                scores=jsonfields.integers(data.get("scores"), "scores"),
                dealer=jsonfields.integer(data, "dealer"),
                batidas=jsonfields.integers(data.get("batidas"), "batidas"),
                best_batida=list(data["best_batida"]),
                over=jsonfields.flag(data, "over", None),
                winner=jsonfields.optional_integer(data, "winner"),
            )
            if data.get("deal") is not None:
                match.deal = DealState.from_json(rules, data["deal"])
            for raw in data.get("logs", []):
                res = raw.get("result")
                score = DealScore(res["totals"], res["breakdown"], res["went_out"]) if res else None
                match.logs.append(
                    DealLog(
                        raw["first"],
                        raw["scores"],
                        raw.get("deck", []),
                        raw.get("reshuffle", []),
                        raw.get("actions", []),
                        score,
                        bool(raw.get("archived", False)),
                        _seed_of(raw),
                    )
                )
            return match
        except IllegalAction as err:
            raise IllegalAction("bad_position", err.template, **err.params) from None
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise IllegalAction(  # the kind of error only: its text may quote hidden cards
                "bad_position", "estado corrompido: {error}", error=type(err).__name__
            ) from None


SEED_KEYS = ("shuffle", "commitment", "seed")
"""A seeded deal's keys in a record (docs/record-format.md "Verifiable deals")."""


def _seed_of(raw: dict[str, Any]) -> str | None:
    seed = raw.get("seed")
    if seed is None:
        return None
    if not isinstance(seed, str):
        raise TypeError("seed")
    commitment(seed)  # ValueError when malformed
    return seed


@lru_cache(maxsize=256)
def _stored_options(rules: Rules) -> dict[str, Any]:
    return options_of(rules)


def _options_of(rules: Rules) -> dict[str, Any]:
    """``options_of(rules)`` (a copy), remembered per rules: :meth:`Match.to_json` runs
    after every action the service applies, and ``options_of`` dumps two rules models,
    half of its time (issue 13). ``Rules`` is frozen, so equal rules give equal options."""
    return dict(_stored_options(rules))


def _dealt_order(state: DealState, stock_top_first: list[Card]) -> list[str]:
    """Rebuild the deck order (top first) a fresh deal was dealt from (state.deal_cards)."""
    n, hs = state.n_players, state.rules.hand_size
    deck: list[Card] = []
    for i in range(hs):
        for k in range(n):
            deck.append(state.hands[(state.first + k) % n][i])
    for morto in state.mortos:
        deck.extend(morto)
    deck.extend(stock_top_first)
    return codes(deck)
