"""The service's bridge to the engine: rules, the match kept in a game, seat views.

Everything the service reads from or asks of ``engine`` goes through here, so the
rest of ``bot/`` does not depend on the engine's module layout. The parsed
``engine.match.Match`` is cached on the game object for one request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from functools import lru_cache
from typing import Any, TypedDict

from bot.effects import pack
from bot.i18n import N_, Translator
from bot.model import CorruptGame, Game
from bot.outcome import Phrase, Phrases, Reason, Refusal, echo
from engine.cards import Card
from engine.errors import IllegalAction
from engine.match import Match
from engine.melds import RUN, Meld, canastra_bonus, make_meld
from engine.rules import Rules, make_rules, preset_name, preset_options, stored_options
from engine.runs import card_at
from engine.scoring import melded_points as engine_melded
from engine.state import DealState
from engine.view import SeatView, legal_moves, view_for


def preset_key(name: str) -> str:
    """Canonical preset name, or :class:`Refusal` with the engine's reason."""
    try:
        return preset_name(name)
    except IllegalAction as err:
        raise refusal(err) from None


OPTION_NAMES: dict[str, str] = {
    "target": N_("target, a meta de pontos"),
    "jokers": N_("jokers, os curingas"),
    "first_player_second_card": N_("first_player_second_card, a segunda carta do primeiro"),
    "morto_requires": N_("morto_requires, o que pegar o morto exige"),
    "end_requires": N_("end_requires, o que a batida exige"),
    "second_morto_direct_only": N_("second_morto_direct_only, o segundo morto só direto"),
    "relancinho_bonus": N_("relancinho_bonus, o bônus do relancinho"),
    "vulnerable_at": N_("vulnerable_at, os pontos da vulnerabilidade"),
    "single_card_pile_rule": N_("single_card_pile_rule, o lixo de uma carta só"),
    "reuse_pile_once": N_("reuse_pile_once, o lixo volta ao monte uma vez"),
    "dollar_per_canastra": N_("dollar_per_canastra, os Dólares por canastra"),
}
"""Each option a group may set (engine ``OVERRIDABLE``) as typed, then in the players'
words: a refusal names the option so (issue 12 item 6)."""


OPTION_LIST: tuple[str, ...] = (
    N_("target (meta de pontos)"),
    N_("jokers (curingas)"),
    N_("first_player_second_card (segunda carta do primeiro)"),
    N_("morto_requires (o que pegar o morto exige)"),
    N_("end_requires (o que a batida exige)"),
    N_("second_morto_direct_only (segundo morto só direto)"),
    N_("relancinho_bonus (bônus do relancinho)"),
    N_("vulnerable_at (pontos da vulnerabilidade)"),
    N_("single_card_pile_rule (lixo de uma carta só)"),
    N_("reuse_pile_once (lixo volta ao monte uma vez)"),
    N_("dollar_per_canastra (Dólares por canastra)"),
    N_("timer ou tempo (segundos por jogada)"),
    N_("shuffle ou sortear (sortear as duplas)"),
)
"""Every option ``/novojogo`` takes, as typed (the engine's keys, which stored games and
records use; the table's own ``timer``/``shuffle`` also by their pt-BR names), each with
its players' name: the refusal of an unknown option and ``/regras`` list them so."""


def options_for(preset: str) -> tuple[str, ...]:
    """The entries of :data:`OPTION_LIST` a table of ``preset`` (canonical name) takes:
    an engine option is left out when the preset refuses every value but its own
    (``dollar_per_canastra`` without Dólares, RULES A4; ``jokers`` outside the buraco
    family; ``morto_requires`` and ``second_morto_direct_only`` without a morto, A1;
    ``reuse_pile_once`` where the black 3 blocks the pile), and one the engine keeps to
    some presets (:func:`engine.rules.preset_options`: the relancinho, vulnerability and
    one-card-pile rules outside the buraco family, A21-A23; the first player's second
    card in tranca and justificado, A9). ``/regras`` lists these."""
    return tuple(item for item in OPTION_LIST
                 if item.split(" ")[0] not in _refused_options(preset))


@lru_cache(maxsize=16)
def _refused_options(preset: str) -> frozenset[str]:
    base = make_rules(preset)
    refused = set(OPTION_NAMES) - preset_options(preset)  # RULES A9, A21-A23
    for key in OPTION_NAMES:
        value = getattr(base, key)
        if isinstance(value, bool):
            probes: list[Any] = [not value]
        elif isinstance(value, Enum):
            probes = [m.value for m in type(value) if m != value]
        else:
            continue  # numbers: every preset takes them
        if not any(_takes(preset, key, probe) for probe in probes):
            refused.add(key)
    return frozenset(refused)


def _takes(preset: str, key: str, value: Any) -> bool:
    try:
        make_rules(preset, {key: value})
    except IllegalAction:
        return False
    return True


def refusal(err: IllegalAction, preset: str | None = None) -> Refusal:
    """The engine's reason as a :class:`Refusal` the service translates into the chat's
    language: the pt-BR template is the msgid (catalog ``engine.po``), params its values;
    an option it names is shown in the players' words (:data:`OPTION_NAMES`), an unknown
    one is refused with the options ``preset`` takes (:func:`options_for`; all of
    :data:`OPTION_LIST` without a preset), and the name it repeats is cut short
    (:func:`bot.outcome.echo`); a reason about one meld of several laid at once names it
    ("7♣ 8♣ 10♣: as cartas não formam uma sequência.", engine ``IllegalAction.cards``)."""
    params: dict[str, Any] = dict(err.params)
    where = params.get("where")
    if isinstance(where, str) and where in OPTION_NAMES:
        params["where"] = Phrase(OPTION_NAMES[where])
    if err.code == "unknown_option":
        params["key"] = _echo_quoted(str(params.get("key", "")))
        params["options"] = Phrases(_taken(preset))
    if err.code == "unknown_preset":
        params["name"] = _echo_quoted(str(params.get("name", "")))
    if err.cards:
        return Refusal(N_("{cards}: {reason}"), None, cards=" ".join(err.cards),
                       reason=Reason(err.template, **params))
    return Refusal(err.template, None, **params)


def _echo_quoted(text: str) -> str:
    """An engine parameter written as ``repr(name)`` cut short inside its quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[0] + echo(text[1:-1]) + text[0]
    return echo(text)


def _taken(preset: str | None) -> tuple[str, ...]:
    """The options a table of ``preset`` (any alias) takes; all of them without one."""
    try:
        return options_for(preset_name(preset)) if preset else OPTION_LIST
    except IllegalAction:
        return OPTION_LIST


@lru_cache(maxsize=256)
def _rules(preset: str, options: tuple[tuple[str, str], ...]) -> Rules:
    return make_rules(preset, stored_options(dict(options)), stored=True)


def rules_of(game: Game) -> Rules:
    """The game's rules (validated when the lobby opened)."""
    return _rules(game.preset, tuple(sorted((k, str(v)) for k, v in game.options.items())))


DeckFn = Callable[[Rules], list[Card]]
"""Gives the deck of the next deal (top first); tests inject one, production shuffles."""


def new_match(rules: Rules, names: list[str], deck_fn: DeckFn | None = None) -> dict[str, Any]:
    """JSON of a new match with its first deal dealt (``deck_fn`` or SystemRandom)."""
    match = Match.new(rules, names)
    match.start_deal(deck_fn(rules) if deck_fn else None)
    return match.to_json()


def match_of(game: Game) -> Match:
    """The game's match object (parsed once per request and cached on the game);
    :class:`bot.model.CorruptGame` when the stored match cannot be read."""
    cached: Match | None = game.__dict__.get("_match")
    if cached is not None and game.__dict__.get("_match_src") is game.match:
        return cached
    if game.match is None:
        raise Refusal(N_("A partida ainda não começou."))
    try:
        match = Match.from_json(game.match)
    except IllegalAction as err:  # engine code only: its reason may quote hidden cards
        raise CorruptGame(err.code) from None
    object.__setattr__(game, "_match", match)
    object.__setattr__(game, "_match_src", game.match)
    return match


def store_match(game: Game, match: Match) -> None:
    """Write ``match`` back into the game (after the engine changed it)."""
    game.match = match.to_json()
    object.__setattr__(game, "_match", match)
    object.__setattr__(game, "_match_src", game.match)


def deal_of(game: Game) -> DealState:
    """The current deal (the last one once the match is over)."""
    return match_of(game).deal_state


def match_scores(game: Game) -> list[int]:
    """Match score per side (sum of finished deals)."""
    return list(match_of(game).scores)


def melded_points(state: DealState) -> list[tuple[int, int]]:
    """Per side, what its melds of this deal are worth now, as the deal's result will
    split it: ``(the "jogos" term, canastra bonuses)`` (RULES C14, its first two terms;
    engine ``melded_points``: negative in altaneira while the side has no canastra, seed
    000 §9.5; laid 3s not counted)."""
    rules = state.rules
    return [(engine_melded(melds, rules),
             sum(canastra_bonus(m, rules) for m in melds if m.is_canastra))
            for melds in state.melds]


def view_of(game: Game, seat: int) -> SeatView:
    """What ``seat`` may know now (the engine's one gate for hidden information)."""
    return view_for(deal_of(game), seat)


_TEXTS: dict[Card, str] = {}
"""Display text of each card, made once (cards are interned: at most 53 entries)."""


def text_of(card: Card) -> str:
    """``str(card)`` (``"7♥"``), remembered: the table view alone shows some 40 cards."""
    text = _TEXTS.get(card)
    if text is None:
        text = _TEXTS[card] = str(card)
    return text


def show(cards: Iterable[Card]) -> str:
    """Cards for display: ``"7♥ 8♥ 🃏"``."""
    return " ".join([text_of(c) for c in cards])


_SHOWN: dict[tuple[tuple[Card, ...], int], str] = {}
SHOWN_KEPT = 4096
"""Meld texts :func:`show_meld` remembers at most (then it starts again)."""


def show_meld(meld: Meld) -> str:
    """A meld for display, its cards in table order, a run's wild followed by the rank
    it stands for where that is not obvious (issue 30): ``"4♠ 2♣(5) 6♠"``,
    ``"5♥ 6♥ 7♥ 2♣(8)"`` (RULES C4: a wild may sit at either end). A set's wild stands
    for the set's rank and a natural 2 in its own slot (C5) is no wild: shown plain.
    Remembered: the table view shows every meld at every move, and most did not change
    (issue 13)."""
    wild_at = meld.wild_at if meld.kind == RUN else -1
    key = (meld.cards, wild_at)
    text = _SHOWN.get(key)
    if text is None:
        if len(_SHOWN) >= SHOWN_KEPT:
            _SHOWN.clear()
        faces = [text_of(c) for c in meld.cards]
        if wild_at >= 0:
            faces[wild_at] += f"({rank_text(meld.wild_slot)})"
        text = _SHOWN[key] = " ".join(faces)
    return text


def rank_text(slot: int) -> str:
    """The rank a run's slot stands for, as cards show it: ``"5"``, ``"10"``, ``"A"``
    (slots 1 and 14, RULES §2 "ace")."""
    return text_of(card_at(slot, 0))[:-1]


def forms_meld(cards: list[Card], rules: Rules) -> bool:
    """True when ``cards`` alone make a legal new meld (engine ``make_meld``)."""
    try:
        make_meld(cards, rules)
    except IllegalAction:
        return False
    return True


def act(game: Game, action: Any) -> list[Any]:
    """Apply ``action`` to the match (verify then apply); returns the engine events.

    Raises :class:`Refusal` with the engine's reason (:func:`refusal`) when the move is illegal.
    """
    match = match_of(game)
    try:
        events = match.act(action)
    except IllegalAction as err:
        if err.code == "justify_needed":  # RULES A10: say how, in the platform's terms
            how = JUSTIFY_HOW.get(game.chat.platform, JUSTIFY_HOW[""])
            raise Refusal(how, None, reason=Reason(err.template, **err.params)) from None
        raise refusal(err) from None
    store_match(game, match)
    return list(events)


JUSTIFY_HOW = {
    "cli": N_("{reason}. Para justificar: l 4 5 (o topo com as cartas 4 e 5 da sua mão) "
              "ou lj 2 (o topo no seu jogo 2)."),
    "": N_("{reason}. Para justificar: marque na sua mão as cartas que formam jogo com o "
           "topo e use Pegar o lixo, ou use Lixo → N para pôr o topo no seu jogo N."),
}
"""A pick-up of a closed pile refused for want of a justification (RULES A10, engine
``justify_needed``), with how to give one: the terminal's typed commands, or the chat's
hand buttons (a trial read the bare reason as a dead end)."""


class ButtonData(TypedDict):
    """A button as :class:`bot.effects.View` validates it into a ``Button``: the views
    build buttons as plain dicts, validated with their view in one call (issue 13: a
    model per button cost more than the whole view's validation)."""

    label: str
    data: str


ButtonMaker = Callable[..., ButtonData]
"""``make(label, code, arg="", *, text=None, **kw)``: a button of one game's views
(:func:`button_maker`)."""


def button_maker(game: Game, version: int = 0) -> ButtonMaker:
    """Makes the buttons of ``game``'s views (:class:`ButtonData`) whose payloads carry
    ``version``: ``label`` translated into the game's language with ``kw`` (or ``text``
    as given), the payload of ``code`` and ``arg`` (:func:`bot.effects.pack`, which
    raises ``ValueError`` over 64 bytes)."""
    _ = Translator(game.lang)

    def make(label: str, code: str, arg: str | int = "", *, text: str | None = None,
             **kw: Any) -> ButtonData:
        shown = text if text is not None else _(label, **kw)
        return {"label": shown, "data": pack(game.id, version, code, arg)}

    return make


def action_buttons(game: Game, seat: int, view: SeatView,
                   b: ButtonMaker) -> list[list[ButtonData]]:
    """The action buttons of the seat whose turn it is (engine ``legal_moves``); meld and
    discard buttons are always shown in the play phase and explain themselves when
    pressed with no selection."""
    s = game.seats[seat]
    _ = Translator(game.lang)
    moves = legal_moves(view)
    own = view.melds[view.side]
    if view.phase == "draw":
        row = [b(N_("Comprar do monte"), "c")] if moves.can_draw else []
        if moves.can_take_pile:
            row.append(b(N_("Pegar o lixo"), "p"))
        rows = [row]
        if moves.can_take_pile and moves.pile_needs_justification and own:
            rows.append([b("", "p", k, text=_("Lixo → {n}", n=k + 1)) for k in range(len(own))])
        return [r for r in rows if r]
    rows = [[b(N_("Baixar"), "m"), b(N_("Separar"), "g")]]
    ext = [b("", "e", k, text=f"+{k + 1}") for k in range(len(own))]
    rows += [ext[i:i + 6] for i in range(0, len(ext), 6)]
    last = [b(N_("Descartar"), "d")]
    if moves.threes_to_lay:
        last.append(b(N_("Baixar o 3"), "3"))
    if s.sel or s.groups:
        last.append(b(N_("Limpar"), "z"))
    if moves.can_redraw:
        last.append(b(N_("Abrir o lixo e comprar outra"), "r"))
    rows.append(last)
    return rows
