"""Game records: parse, replay and report (issue 2 "Game records", docs/record-format.md).

A record is one JSON object::

    {"format": "buraco-record/1", "variant": preset, "options": {...},
     "players": [names in seat order],
     "deck": [...] (+ optional "first", "scores", "reshuffle") | "position": {...},
     "actions": [...]}

or, for a whole match, ``"deals": [{"first", "scores", "deck", "reshuffle"?, "actions"}]``
instead of ``deck``/``actions``. :func:`replay` never lets an exception escape: a
malformed record or an illegal action becomes part of the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.cards import Card, CardParseError
from engine.deal import apply
from engine.errors import IllegalAction
from engine.match import RECORD_FORMAT, Match
from engine.rules import Rules, make_rules
from engine.scoring import score_deal
from engine.state import DealState, deal_cards


class MalformedRecord(Exception):
    """The record cannot be read; ``str(err)`` is the clear reason (pt-BR)."""


@dataclass(slots=True)
class ReplayResult:
    """Outcome of a replay. ``error``: None or ``{"action", "code", "message"}`` (the
    index counts actions across deals); ``state``: the final deal."""

    ok: bool
    error: dict[str, Any] | None
    state: DealState
    match_scores: list[int]

    def to_json(self) -> dict[str, Any]:
        """The object ``python -m engine replay`` prints."""
        over = self.state.over
        score = score_deal(self.state) if over else None
        return {
            "ok": self.ok,
            "error": self.error,
            "deal_over": over,
            "deal_scores": score.totals if score else None,
            "match_scores": self.match_scores,
            "breakdown": score.breakdown if score else None,
            "position": self.state.to_json(),
        }


def _need(record: dict[str, Any], key: str, kind: type) -> Any:
    if key not in record:
        raise MalformedRecord(f"o registro não tem o campo obrigatório {key!r}")
    value = record[key]
    if not isinstance(value, kind):
        raise MalformedRecord(f"o campo {key!r} tem o tipo errado")
    return value


def _rules_of(record: Any) -> tuple[Rules, list[str]]:
    if not isinstance(record, dict):
        raise MalformedRecord("o registro precisa ser um objeto JSON")
    if record.get("format") != RECORD_FORMAT:
        raise MalformedRecord(
            f"formato desconhecido: {record.get('format')!r} (esperado {RECORD_FORMAT!r})"
        )
    variant = _need(record, "variant", str)
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise MalformedRecord("'options' precisa ser um objeto")
    players = _need(record, "players", list)
    if not all(isinstance(p, str) for p in players):
        raise MalformedRecord("'players' precisa ser uma lista de nomes")
    try:
        rules = make_rules(variant, options)
        rules.teams(len(players))
    except IllegalAction as err:
        raise MalformedRecord(err.message) from None
    return rules, players


def _actions(raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise MalformedRecord("'actions' precisa ser uma lista")
    return raw


def _deck(raw: Any) -> list[Card]:
    if not isinstance(raw, list):
        raise MalformedRecord("'deck' precisa ser uma lista de cartas")
    try:
        return [Card.parse(c) for c in raw]
    except CardParseError as err:
        raise MalformedRecord(f"baralho inválido: {err}") from None


def replay(record: Any) -> ReplayResult:
    """Replay ``record``; raises only :class:`MalformedRecord` (unreadable record).
    An illegal action stops the replay and is reported in the result."""
    rules, players = _rules_of(record)
    if "deals" in record:
        return _replay_match(rules, players, record)
    actions = _actions(record.get("actions", []))
    try:
        if "position" in record:
            state = DealState.from_json(rules, record["position"])
        elif "deck" in record:
            first = record.get("first", 0)
            scores = record.get("scores")
            if not isinstance(first, int) or not 0 <= first < len(players):
                raise MalformedRecord("'first' precisa ser um assento da mesa")
            state = deal_cards(
                rules, len(players), _deck(record["deck"]), first, scores, record.get("reshuffle")
            )
        else:
            raise MalformedRecord("o registro precisa de 'deck', 'position' ou 'deals'")
    except IllegalAction as err:
        raise MalformedRecord(err.message) from None
    except (TypeError, ValueError) as err:
        raise MalformedRecord(f"início inválido: {err}") from None
    before = list(state.scores)
    error = _run(state, actions, 0, lambda a: apply(state, a))
    final = (
        [b + t for b, t in zip(before, score_deal(state).totals, strict=True)]
        if state.over
        else before
    )
    return ReplayResult(error is None, error, state, final)


def _run(state: DealState, actions: list[Any], offset: int, step: Any) -> dict[str, Any] | None:
    for i, raw in enumerate(actions):
        try:
            step(Action.from_json(raw))
        except IllegalAction as err:
            return {"action": offset + i, "code": err.code, "message": err.message}
    return None


def _replay_match(rules: Rules, players: list[str], record: dict[str, Any]) -> ReplayResult:
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise MalformedRecord("'deals' precisa ser uma lista não vazia")
    match = Match.new(rules, players)
    offset = 0
    error: dict[str, Any] | None = None
    for k, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise MalformedRecord(f"a mão {k + 1} precisa ser um objeto")
        try:
            match.dealer = (int(deal.get("first", 0)) - 1) % len(players)
            match.start_deal(_deck(deal.get("deck")), deal.get("reshuffle"))
        except IllegalAction as err:
            raise MalformedRecord(f"mão {k + 1}: {err.message}") from None
        actions = _actions(deal.get("actions", []))
        error = _run(match.deal_state, actions, offset, match.act)
        offset += len(actions)
        if error is not None or k == len(deals) - 1:
            break
        if not match.deal_state.over:
            raise MalformedRecord(f"a mão {k + 1} não terminou, mas há outra depois dela")
    return ReplayResult(error is None, error, match.deal_state, list(match.scores))
