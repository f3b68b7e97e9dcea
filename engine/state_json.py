"""Reading a deal state back from its JSON form (:meth:`engine.state.DealState.from_json`),
every field checked: a stored game or a record ``position`` that is damaged or forged is
refused with one clear reason, never half-read (guide: "a corrupt record ... changes
nothing")."""

from __future__ import annotations

from typing import Any

from engine import jsonfields
from engine.cards import BY_CODE, Card, CardParseError, copies_allowed
from engine.errors import IllegalAction
from engine.jsonfields import per as _per
from engine.melds import meld_from_table
from engine.rules import Rules
from engine.state import DRAW, OVER, PLAY, DealState, sides_of, vuln_default


def read_deal(cls: type[DealState], rules: Rules, data: Any) -> DealState:
    """``cls`` rebuilt from ``data`` (:meth:`DealState.to_json`'s form or a record
    ``position``) under ``rules``; ``IllegalAction("bad_position")`` with the reason for
    anything malformed (see :meth:`DealState.from_json`)."""
    try:
        return _from_json(cls, rules, data)
    except IllegalAction as err:
        if err.code == "bad_position":
            raise
        raise _bad("posição inválida: {reason}", reason=err.message) from None
    except CardParseError as err:
        raise _bad("posição inválida: {reason}", reason=str(err)) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        # a shape the readers below do not check yet: still one clear line
        raise _bad("posição inválida: {reason}", reason=type(err).__name__) from None


def _bad(template: str, **params: str | int) -> IllegalAction:
    """``IllegalAction("bad_position")``; ``template`` is the whole pt-BR msgid."""
    return IllegalAction("bad_position", template, **params)


def _cards(value: Any) -> list[Card]:
    """The cards of a stored list: one dict lookup for each of the engine's own codes
    (a deal holds 108 cards, read at every press a worker did not save last, issue 13),
    :meth:`Card.parse` (and its ``CardParseError``) for anything else."""
    if not isinstance(value, list):
        raise _bad("posição inválida: esperava uma lista de cartas")
    out: list[Card] = []
    for item in value:
        card = BY_CODE.get(item) if isinstance(item, str) else None
        out.append(card if card is not None else Card.parse(item))
    return out


def _ints(value: Any, n: int, what: str, minimum: int | None) -> list[int]:
    items = _per(value, n, what)
    if not all(
        isinstance(x, int) and not isinstance(x, bool) and (minimum is None or x >= minimum)
        for x in items
    ):
        raise _bad(
            "posição inválida: '{what}' precisa ter {count} números inteiros válidos",
            what=what,
            count=n,
        )
    return list(items)


def _from_json(cls: type[DealState], rules: Rules, d: Any) -> DealState:
    if not isinstance(d, dict):
        raise _bad("posição inválida: a posição precisa ser um objeto")
    if not isinstance(d.get("hands"), list) or not d["hands"]:
        raise _bad("posição inválida: 'hands' precisa ser uma lista com a mão de cada assento")
    if "melds" not in d:
        raise _bad("posição inválida: falta o campo '{what}'", what="melds")
    hands = [_cards(h) for h in d["hands"]]
    n = len(hands)
    teams = rules.teams(n)
    sides = len(teams)
    side_of = sides_of(teams, n)
    melds = [  # each meld as laid, slot by slot (RULES C10)
        [meld_from_table(_cards(m), rules) for m in side]
        for side in _per(d["melds"], sides, "melds")
    ]
    mortos_raw = d.get("mortos", [[] for _ in range(sides)])
    state = cls(
        rules=rules,
        n_players=n,
        teams=teams,
        side_of=side_of,
        hands=hands,
        melds=melds,
        pile=_cards(d.get("pile", [])),
        stock=list(reversed(_cards(d.get("stock", [])))),
        mortos=[_cards(m) for m in _per(mortos_raw, sides, "mortos")],
        first=jsonfields.integer(d, "first", 0),
        turn=jsonfields.integer(d, "turn"),
        phase=str(d.get("phase", DRAW)),
        scores=_ints(d.get("scores", [0] * sides), sides, "scores", None),
        laid_threes=[
            _cards(t) for t in _per(d.get("laid_threes", [[]] * sides), sides, "laid_threes")
        ],
        killed=_cards(d.get("killed", [])),
        pile_reused=jsonfields.flag(d, "pile_reused"),
        pile_blocked=jsonfields.flag(d, "pile_blocked"),
        reshuffle=jsonfields.integers(d.get("reshuffle", []), "reshuffle"),
        turn_count=jsonfields.integer(d, "turn_count", 1),
        went_out=jsonfields.integer(d, "went_out", -1),
        redraw_ok=jsonfields.flag(d, "redraw_ok"),
        laid_this_turn=jsonfields.flag(d, "laid_this_turn"),
        from_pile=_cards(d.get("from_pile", [])),
    )
    state.pending_morto = [
        _cards(p) for p in _per(d.get("pending_morto", [[]] * n), n, "pending_morto")
    ]
    default_taken = [not m and rules.morto for m in state.mortos]
    state.morto_taken = jsonfields.flags(d.get("morto_taken", default_taken), sides, "morto_taken")
    state.has_laid = jsonfields.flags(
        d.get("has_laid", [bool(melds[side_of[s]]) for s in range(n)]), n, "has_laid")
    state.vuln_min = _ints(d.get("vuln_min", vuln_default(rules, state)), n, "vuln_min", 0)
    state.relancinhos = _ints(d.get("relancinhos", [0] * sides), sides, "relancinhos", 0)
    state.pile_dollars = [
        _cards(p) for p in _per(d.get("pile_dollars", [[]] * n), n, "pile_dollars")
    ]
    state.seen = [_cards(p) for p in _per(d.get("seen", [[]] * n), n, "seen")]
    state.laid_before_turn = jsonfields.flag(d, "laid_before_turn", state.has_laid[state.turn % n])
    state.drawn_more = _cards(d.get("drawn_more", []))
    for name in ("taken_top", "drawn"):
        if d.get(name):
            if not isinstance(d[name], str):
                raise _bad("posição inválida: '{what}' precisa ser uma carta", what=name)
            setattr(state, name, Card.parse(d[name]))
    _check_position(state)
    return state




def _check_position(state: DealState) -> None:
    if state.phase not in (DRAW, PLAY, OVER):
        raise _bad(
            "posição inválida: fase desconhecida {phase} (use 'draw' ou 'play')",
            phase=repr(state.phase),
        )
    if not 0 <= state.turn < state.n_players or not 0 <= state.first < state.n_players:
        raise _bad("posição inválida: 'turn' precisa ser um assento da mesa")
    if not state.rules.morto and any(state.mortos):
        raise _bad("posição inválida: esta variante não tem morto")
    if state.reshuffle and not state.rules.reuse_pile_once:
        raise _bad("posição inválida: 'reshuffle' só existe quando o lixo volta ao monte")
    for card, count in state.all_cards().items():
        if count > copies_allowed(card, state.rules.jokers):
            raise _bad(
                "posição inválida: a carta {card} aparece {count} vezes; os baralhos têm {copies}",
                card=str(card),
                count=count,
                copies=copies_allowed(card, state.rules.jokers),
            )
