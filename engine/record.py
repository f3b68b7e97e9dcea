"""Game records: parse, replay and report (issue 2 "Game records", docs/record-format.md).

A record is one JSON object::

    {"format": "buraco-record/3", "variant": preset, "options": {...},
     "players": [names in seat order],
     "deck": [...] (+ optional "first", "scores", "reshuffle",
                    "shuffle"/"commitment"/"seed") | "position": {...},
     "actions": [...]}

or, for a whole match, ``"deals": [{"first", "scores", "deck", "reshuffle"?, "actions"}]``
instead of ``deck``/``actions``. :func:`replay` never lets an exception escape: a
malformed record or an illegal action becomes part of the result. A
``buraco-record/1`` record (written before laid melds kept their layout, RULES C10)
replays as the engine that wrote it played: melds re-laid after every extension.
``buraco-record/3`` is ``/2`` whose seeded deals carry ``shuffle``, ``commitment`` and
``seed`` (issue 35): checked for shape here, against the deck by :mod:`engine.deal_check`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.cards import Card, CardParseError
from engine.deal import apply
from engine.errors import IllegalAction
from engine.fairdeal import SCHEME, is_hex64
from engine.match import LEGACY_FORMATS, RECORD_FORMAT, SEED_KEYS, SEEDED_FORMAT, Match
from engine.rules import Rules, make_rules, stored_options
from engine.scoring import score_deal
from engine.state import DealState, deal_cards


class MalformedRecord(Exception):
    """The record cannot be read; ``str(err)`` is the clear reason (pt-BR).

    ``template`` is that reason with ``{name}`` fields and ``params`` their values (the
    command line translates it, catalog ``engine/locale/*/cli.po``); ``cause`` the
    engine's refusal it wraps, shown as ``{reason}``."""

    def __init__(self, template: str, cause: IllegalAction | None = None,
                 **params: str) -> None:
        self.template, self.cause, self.params = template, cause, params
        reason = {"reason": cause.message} if cause is not None else {}
        super().__init__(template.format(**params, **reason))


@dataclass(slots=True)
class ReplayResult:
    """Outcome of a replay. ``error``: None or ``{"action", "code", "message"}`` (the
    index counts actions across deals); ``state``: the final deal; ``refusal``: the
    engine's refusal behind ``error`` (for the command line to translate)."""

    ok: bool
    error: dict[str, Any] | None
    state: DealState
    match_scores: list[int]
    refusal: IllegalAction | None = None

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
        raise MalformedRecord("o registro não tem o campo obrigatório {key}", key=repr(key))
    value = record[key]
    if not isinstance(value, kind):
        raise MalformedRecord("o campo {key} tem o tipo errado", key=repr(key))
    return value


TOP_LEVEL = {
    "format",
    "variant",
    "options",
    "players",
    "deck",
    "first",
    "scores",
    "reshuffle",
    "position",
    "actions",
    "deals",
    *SEED_KEYS,
}
DEAL_LEVEL = {"first", "scores", "deck", "reshuffle", "actions", *SEED_KEYS}


def _rules_of(record: Any) -> tuple[Rules, list[str]]:
    if not isinstance(record, dict):
        raise MalformedRecord("o registro precisa ser um objeto JSON")
    unknown = set(record) - TOP_LEVEL
    if unknown:
        raise MalformedRecord("campos desconhecidos no registro: {keys}",
                              keys=", ".join(sorted(unknown)))
    legacy = record.get("format") in LEGACY_FORMATS
    if record.get("format") not in (RECORD_FORMAT, SEEDED_FORMAT) and not legacy:
        raise MalformedRecord("formato desconhecido: {given} (esperado {wanted})",
                              given=repr(record.get("format")), wanted=repr(SEEDED_FORMAT))
    if record.get("format") != SEEDED_FORMAT:
        for deal in [record, *(d for d in record.get("deals") or [] if isinstance(d, dict))]:
            if set(deal) & set(SEED_KEYS):
                raise MalformedRecord("'seed' e 'commitment' só existem no formato {wanted}",
                                      wanted=repr(SEEDED_FORMAT))
    variant = _need(record, "variant", str)
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise MalformedRecord("'options' precisa ser um objeto")
    players = _need(record, "players", list)
    if not all(isinstance(p, str) for p in players):
        raise MalformedRecord("'players' precisa ser uma lista de nomes")
    try:
        rules = make_rules(variant, stored_options(options), stored=True)
        rules.teams(len(players))
    except IllegalAction as err:
        raise MalformedRecord("{reason}", err) from None
    if legacy:
        rules = rules.model_copy(update={"legacy_relayout": True})
    return rules, players


def _actions(raw: Any, offset: int = 0) -> list[Action]:
    """Parse every action up front: a malformed one makes the record malformed."""
    if not isinstance(raw, list):
        raise MalformedRecord("'actions' precisa ser uma lista")
    parsed = []
    for i, item in enumerate(raw):
        try:
            parsed.append(Action.from_json(item))
        except IllegalAction as err:
            raise MalformedRecord("ação {n}: {reason}", err, n=str(offset + i)) from None
    return parsed


def _seeded(deal: dict[str, Any]) -> None:
    """A deal's ``shuffle``, ``commitment`` and ``seed`` (buraco-record/3): all three
    or none, the scheme known, 64 lowercase hex digits each. Whether they match the
    deck is :mod:`engine.deal_check`'s question, not the replay's."""
    present = [k for k in SEED_KEYS if k in deal]
    if not present:
        return
    if len(present) != len(SEED_KEYS):
        raise MalformedRecord("uma mão com semente leva 'shuffle', 'commitment' e 'seed'")
    if deal["shuffle"] != SCHEME:
        raise MalformedRecord("embaralhamento desconhecido: {given} (esperado {wanted})",
                              given=repr(deal["shuffle"])[:40], wanted=repr(SCHEME))
    if not is_hex64(deal["seed"]) or not is_hex64(deal["commitment"]):
        raise MalformedRecord("'seed' e 'commitment' precisam ter 64 dígitos hexadecimais")


def _start(
    record: dict[str, Any], players: int, sides: int, rules: Rules
) -> tuple[int, list[int] | None]:
    first = record.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise MalformedRecord("'first' precisa ser um assento da mesa")
    scores = record.get("scores")
    if scores is not None and (
        not isinstance(scores, list)
        or len(scores) != sides
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores)
    ):
        raise MalformedRecord("'scores' precisa ter {n} números inteiros", n=str(sides))
    _seeded(record)
    reshuffle = record.get("reshuffle")
    if reshuffle and not rules.reuse_pile_once:
        raise MalformedRecord("'reshuffle' só existe quando o lixo volta ao monte (altaneira)")
    if reshuffle is not None and (
        not isinstance(reshuffle, list)
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in reshuffle)
        or sorted(reshuffle) != list(range(len(reshuffle)))
    ):
        raise MalformedRecord("'reshuffle' precisa ser uma permutação de 0..n-1")
    return first, scores


def _deck(raw: Any) -> list[Card]:
    if not isinstance(raw, list):
        raise MalformedRecord("'deck' precisa ser uma lista de cartas")
    cards = []
    for item in raw:
        try:
            cards.append(Card.parse(item))
        except CardParseError:
            raise MalformedRecord("baralho inválido: {card} não é uma carta",
                                  card=repr(item)) from None
    return cards


def replay(record: Any) -> ReplayResult:
    """Replay ``record``; raises only :class:`MalformedRecord` (unreadable record).
    An illegal action stops the replay and is reported in the result."""
    rules, players = _rules_of(record)
    if "deals" in record:
        return _replay_match(rules, players, record)
    actions = _actions(record.get("actions", []))
    sides = len(rules.teams(len(players)))
    if "position" in record and "deck" in record:
        raise MalformedRecord("o registro leva 'deck' ou 'position', não os dois")
    if "position" in record and set(record) & set(SEED_KEYS):
        raise MalformedRecord("uma posição não tem semente: 'seed' vai com 'deck'")
    try:
        if "position" in record:
            state = DealState.from_json(rules, record["position"])
            if state.n_players != len(players):
                raise MalformedRecord("a posição e 'players' têm números de jogadores diferentes")
        elif "deck" in record:
            first, scores = _start(record, len(players), sides, rules)
            deck = _deck(record["deck"])
            state = deal_cards(rules, len(players), deck, first, scores, record.get("reshuffle"))
        else:
            raise MalformedRecord("o registro precisa de 'deck', 'position' ou 'deals'")
    except IllegalAction as err:
        raise MalformedRecord("{reason}", err) from None
    before = list(state.scores)
    error, refusal = _run(actions, 0, lambda a: apply(state, a))
    final = before
    if state.over:
        final = [b + t for b, t in zip(before, score_deal(state).totals, strict=True)]
    return ReplayResult(error is None, error, state, final, refusal)


def _run(actions: list[Action], offset: int,
         step: Any) -> tuple[dict[str, Any] | None, IllegalAction | None]:
    for i, action in enumerate(actions):
        try:
            step(action)
        except IllegalAction as err:
            return {"action": offset + i, "code": err.code, "message": err.message}, err
    return None, None


def _check_deal_start(match: Match, k: int, first: int | None, scores: list[int] | None) -> None:
    """Deal ``k`` (0-based) of a match record against the match replayed so far: its
    ``first`` (when given; omitted, the deal starts where the rules say) must be the
    seat after the dealer the rules chose (RULES C15: the next seat; altaneira: after
    who went out or held fewest cards, seed 000 §8.5; the first deal: seat 0, D13), and
    its ``scores`` (when given) the match's scores before it. Raises
    :class:`MalformedRecord` otherwise (issue 38: a deal 2 starting at the same seat
    again replayed, and one without ``first`` started at seat 0)."""
    seat = (match.dealer + 1) % match.n_players
    if first is not None and first != seat:
        raise MalformedRecord("mão {n}: começa no assento {first}, mas pelas regras começa "
                              "no assento {seat}", n=str(k + 1), first=str(first), seat=str(seat))
    if scores is not None and scores != match.scores:
        raise MalformedRecord("mão {n}: o placar antes dela é {scores}, mas as mãos anteriores "
                              "dão {total}", n=str(k + 1), scores=_dashed(scores),
                              total=_dashed(match.scores))


def _dashed(scores: list[int]) -> str:
    """``[195, -15]`` -> ``195 x -15``, a placar as the messages show it."""
    return " x ".join(str(v) for v in scores)


def _replay_match(rules: Rules, players: list[str], record: dict[str, Any]) -> ReplayResult:
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise MalformedRecord("'deals' precisa ser uma lista não vazia")
    if set(record) & {"deck", "position", "actions"}:
        raise MalformedRecord("um registro com 'deals' não leva 'deck', 'position' nem 'actions'")
    match = Match.new(rules, players)
    sides = len(match.scores)
    parsed = []
    for k, deal in enumerate(deals):
        if not isinstance(deal, dict) or set(deal) - DEAL_LEVEL:
            raise MalformedRecord("a mão {n} precisa ser um objeto com {keys}", n=str(k + 1),
                                  keys=str(sorted(DEAL_LEVEL)))
        seat, scores = _start(deal, len(players), sides, rules)
        parsed.append(
            (
                seat if "first" in deal else None,
                scores,
                _deck(deal.get("deck")),
                deal.get("reshuffle"),
                _actions(deal.get("actions", [])),
            )
        )
    offset = 0
    error: dict[str, Any] | None = None
    refusal: IllegalAction | None = None
    for k, (first, scores, deck, reshuffle, actions) in enumerate(parsed):
        if k and not match.deal_state.over:
            raise MalformedRecord("a mão {n} não terminou, mas há outra depois dela", n=str(k))
        _check_deal_start(match, k, first, scores)
        try:
            match.start_deal(deck, reshuffle)
        except IllegalAction as err:
            raise MalformedRecord("mão {n}: {reason}", err, n=str(k + 1)) from None
        error, refusal = _run(actions, offset, match.act)
        offset += len(actions)
        if error is not None:
            break
    return ReplayResult(error is None, error, match.deal_state, list(match.scores), refusal)
