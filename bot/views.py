"""Views: the lobby/table message of a chat, and the effects of a move or a closing.

Only public facts go into a table view (melds, the pile as the rules show it, counts);
the private hand of a seat is :mod:`bot.hands`. All text is translated into the game's
language.
"""

from __future__ import annotations

from typing import Any

from bot import fairness, hands, narration, phrases, play, variants
from bot.effects import (
    Closed,
    Effect,
    PingsOver,
    Say,
    TableView,
    Tell,
    TurnPing,
    View,
)
from bot.i18n import N_, Translator
from bot.model import Game, hand_open
from engine.rules import RedThree

LEVEL_NAMES = {"facil": N_("fácil"), "normal": N_("normal"), "dificil": N_("difícil")}
CANASTRA_LABELS = {"limpa": N_("limpa"), "suja": N_("suja"),
                   "de mil, A–A limpa": N_("de mil, A–A limpa"),
                   "Altaneira, A–K limpa": N_("Altaneira, A–K limpa"),
                   "Real, A–A limpa em ♥/♦": N_("Real, A–A limpa em ♥/♦")}
"""Canastra kinds as the engine names them (``engine.melds.canastra_label``, the special
ones of RULES C7 with their labels) -> the msgid that shows them in a chat's language."""
PRESET_TITLES = variants.TITLES
SOLO_PLATFORMS = frozenset({"cli"})
"""Platforms whose table is seen by the one person playing (the terminal)."""


def seat_name(game: Game, seat: int, _: Translator) -> str:
    """Display name of ``seat``: the person's name or ``"Robô N"``; on a one-person
    table (the terminal) the person is ``"Você"``, in the chat's language now."""
    return _name(game, seat, _, you_seat(game))


def seat_names(game: Game, _: Translator) -> list[str]:
    """:func:`seat_name` of every seat, in seat order."""
    you = you_seat(game)
    return [_name(game, k, _, you) for k in range(len(game.seats))]


def _name(game: Game, seat: int, _: Translator, you: int | None) -> str:
    player = game.seats[seat].player
    if player is None:
        return _("Robô {n}", n=game.robot_number(seat))
    return _("Você") if seat == you else player.name


def side_label(game: Game, side: int, team: list[int], _: Translator,
               seats: list[str] | None = None) -> str:
    """``"Dupla 1 (Ana, Robô 3)"``, ``"Time 1 (...)"`` for three, or the lone player's
    name; ``seats``: every seat's :func:`seat_name`, when the caller has them already."""
    names = ", ".join(seats[s] if seats is not None else seat_name(game, s, _) for s in team)
    if len(team) == 1:
        return names
    if len(team) == 2:
        return _("Dupla {n} ({names})", n=side + 1, names=names)
    return _("Time {n} ({names})", n=side + 1, names=names)


def game_title(game: Game, _: Translator) -> str:
    """``"Buraco · até 1500 pontos"`` / ``"Tranca · uma mão"``."""
    rules = play.rules_of(game)
    name = PRESET_TITLES.get(game.preset, game.preset)
    if rules.target is None:
        return _("{name} · uma mão", name=name)
    return _("{name} · até {target} pontos", name=name, target=rules.target)


def table_effect(game: Game, opens_deal: bool = False) -> TableView:
    """The chat's table message for the game's current status; ``opens_deal``: the table
    of a deal just dealt, shown at once and before any hand of the deal (its commitment,
    issue 35: :attr:`TableView.opens_deal`)."""
    _ = Translator(game.lang)
    lobby = game.status == "lobby"
    view = lobby_view(game, _) if lobby else table_view(game, _)
    return TableView(chat=game.chat, game_id=game.id, view=view, prompt=lobby or opens_deal,
                     opens_deal=opens_deal)


def at_once(effects: list[Effect]) -> list[Effect]:
    """``effects`` with their table shown at once (:attr:`TableView.prompt`): the table
    that replaces the lobby at the start, so its buttons give way to "Minha mão" as soon
    as "Iniciar" is pressed (issue 30)."""
    return [e.model_copy(update={"prompt": True}) if isinstance(e, TableView) else e
            for e in effects]


def lobby_view(game: Game, _: Translator, offer: bool = True) -> View:
    """Seats, teams, options and the lobby buttons; the variant played and the others,
    each with its one-line description and a button that switches to it (issue 30);
    without ``offer`` (a closed lobby) the variant played only."""
    rules = play.rules_of(game)
    lines = [_("Mesa aberta por {name}.", name=game.creator.name),
             variants.describe(game.preset, _)]
    n = len(game.seats)
    # teams as they will be once the table has a valid count (RULES §1, seat order)
    target = min([k for k in rules.players_allowed if k >= n] or [max(rules.players_allowed)])
    teams = rules.teams(target)
    for i, seat in enumerate(game.seats):
        team = next((k for k, t in enumerate(teams) if i in t), len(teams))
        label = seat_name(game, i, _)
        if seat.ai:
            label += f" ({_(LEVEL_NAMES[seat.ai])})"
        lines.append(_("Lugar {n}: {name} · lado {side}", n=i + 1, name=label, side=team + 1))
    allowed = ", ".join(str(k) for k in rules.players_allowed)
    lines.append(_("Jogadores: {allowed} · tempo por jogada: {timer} s",
                   allowed=allowed, timer=game.timer_s))
    lines.append(_("Sortear duplas: sim") if game.shuffle else _("Sortear duplas: não"))
    others = [p for p in variants.ORDER if p != game.preset] if offer else []
    if others:
        lines.append(_("Outras variantes (um toque de quem abriu a mesa):"))
        lines += ["• " + variants.describe(p, _) for p in others]
    b = play.button_maker(game)
    # "Robô" adds a robot to the next free seat: each press is applied once by its press
    # id (issue 30), so pressing it twice before the lobby is redrawn adds two; the
    # shuffle switch says its result (issue 12 item 2), on or off
    # "Tirar Robô N" names the robot it takes off (the last one), so a second press of
    # it finds that robot gone and changes nothing (issue 30)
    robot = last_robot(game)
    remove = [b(N_("Tirar {name}"), "ar", robot, name=_("Robô {n}", n=robot))] \
        if robot is not None else []
    buttons = [[b(N_("Entrar"), "j"), b(N_("Sair"), "lv")],
               [b(N_("Robô"), "ai"), *remove,
                b(N_("Sortear duplas"), "sh", int(not game.shuffle))],
               [b(N_("Iniciar"), "s"), b(N_("Cancelar"), "x")]]
    # "v" names the variant it sets (bot.variants.ORDER): a second press finds it set
    picks = [b("", "v", variants.index_of(p), text=variants.BUTTON_LABELS[p]) for p in others]
    buttons += [row for row in (picks[:3], picks[3:]) if row]
    return View.model_validate({"title": game_title(game, _), "lines": lines,
                                "buttons": buttons})


def last_robot(game: Game) -> int | None:
    """The number in the name of the robot the lobby's "Tirar robô" takes off: the last
    AI seat (the last one added, unless seats moved); None without robots."""
    return next((game.robot_number(i) for i in reversed(range(len(game.seats)))
                 if game.seats[i].is_ai), None)


def table_view(game: Game, _: Translator) -> View:
    """The table during and after play: match scores with each side's melded points of
    this deal, melds, laid 3s, pile, stock, whose turn, and the narration of the last moves."""
    state = play.deal_of(game)
    rules = play.rules_of(game)
    scores = play.match_scores(game)
    lines: list[str] = []
    melded = play.melded_points(state)
    you = you_seat(game)
    names = seat_names(game, _)
    for side, team in enumerate(state.teams):
        cards, bonus = melded[side]
        label = side_label(game, side, team, _, names)
        if bonus:  # the same two terms as the deal's result ("jogos 600, canastra limpa 200")
            lines.append(_("{side}: {points} pts · nesta mão: {melded} em jogos + {bonus} "
                           "de canastras", side=label, points=scores[side], melded=cards,
                           bonus=bonus))
        else:
            lines.append(_("{side}: {points} pts · nesta mão: {melded} em jogos",
                           side=label, points=scores[side], melded=cards))
        melds = state.melds[side]
        if not melds:
            lines.append("  " + _("(sem jogos)"))
        for k, meld in enumerate(melds):
            lines.append(f"  {k + 1}) {play.show_meld(meld)}{_canastra(meld, _)}")
        if state.laid_threes[side]:
            lines.append("  " + _threes_line(rules, play.show(state.laid_threes[side]), _))
    counts = " · ".join(_hand_count(names[k], len(h), len(state.pending_morto[k]), _)
                        for k, h in enumerate(state.hands))
    lines.append(_("Cartas na mão: {counts}", counts=counts))
    lines.append(_pile_line(state, rules, _))
    # issue 35: the commitment, then the seed
    shuffle = fairness.table_line(game, _, game.chat.platform in SOLO_PLATFORMS)
    if shuffle is not None:
        lines.append(shuffle)
    if game.status == "playing":
        turn = (_("Sua vez.") if state.turn == you
                else _("Vez de {name}.", name=names[state.turn]))
        lines.append(turn + " " + _(PAUSED_LINE) if paused(game) else turn)
    if game.last:
        lines.append(narration.last_text(game, _, names, you))
    lines += phrases.lines(game, _)  # issue 35: what strangers said, by preset phrase
    b = play.button_maker(game)
    if game.status == "playing":
        buttons = [[b(N_("Minha mão"), "h")]]
    elif game.status == "between":
        # "n" names the deal it deals, so a second delivery is refused (issue 12 item 2)
        buttons = [[b(N_("Próxima mão"), "n", len(game.deals) + 1), b(N_("Minha mão"), "h")]]
    else:
        buttons = []
    if buttons and phrases.offered(game):
        buttons += phrases.rows(b)
    return View.model_validate({"title": game_title(game, _), "lines": lines,
                                "buttons": buttons})


def you_seat(game: Game) -> int | None:
    """The seat of the person a one-person table is shown to (the terminal, platform
    ``cli``: its table speaks to that person, "Sua vez."), else None (a group's table)."""
    if game.chat.platform not in SOLO_PLATFORMS:
        return None
    people = game.humans()
    return people[0][0] if len(people) == 1 else None


def last_text(game: Game, _: Translator) -> str:
    """The table's narration: every move of the last turn and of the turn in play
    (:func:`bot.narration.last_text`), names resolved now in the chat's language."""
    return narration.last_text(game, _, seat_names(game, _), you_seat(game))


def _threes_line(rules: Any, cards: str, _: Translator) -> str:
    """Laid red 3s: ``"Dólares: 3♥ 3♦"`` (altaneira, RULES A4), ``"3 vermelhos baixados: 3♦"``
    (tranca, RULES A32)."""
    if rules.red_three == RedThree.DOLLAR:
        return _("Dólares: {cards}", cards=cards)
    return _("3 vermelhos baixados: {cards}", cards=cards)


def _canastra(meld: Any, _: Translator) -> str:
    if not meld.is_canastra:
        return ""
    label = CANASTRA_LABELS.get(meld.canastra)
    return " · " + _("canastra {label}", label=_(label) if label else meld.label)


def _hand_count(name: str, held: int, pending: int, _: Translator) -> str:
    """``"Ana 11"``; a seat that took its morto by discard and holds it for its next turn
    (RULES C12) shows it beside the hand, ``"Ana 0 (+11 do morto)"``, so an empty hand
    does not read as a deal about to end."""
    if pending:
        return _("{name} {n} (+{morto} do morto)", name=name, n=held, morto=pending)
    return f"{name} {held}"


def _pile_line(state: Any, rules: Any, _: Translator) -> str:
    if not state.pile:
        pile = _("Lixo vazio")
    elif rules.pile_open:
        pile = _("Lixo: {cards}", cards=play.show(state.pile))
    else:
        pile = _.n("Lixo: {card} ({n} carta)", "Lixo: {card} ({n} cartas)", len(state.pile),
                   card=str(state.pile[-1]))
    parts = [pile, _("Monte: {n}", n=len(state.stock))]
    if rules.morto:
        parts.append(_("Mortos na mesa: {n}", n=sum(1 for m in state.mortos if m)))
    if state.pile_blocked:
        parts.append(_("lixo trancado"))
    return " · ".join(parts)


def closing_effects(game: Game, why: str, tell: bool, **kw: Any) -> list[Effect]:
    """Group notice, a private word to each person when ``tell``, and ``Closed`` with
    the final table (:func:`final_view`)."""
    _ = Translator(game.lang)
    text = _(why, **kw)
    out: list[Effect] = [Say(chat=game.chat, text=text)]
    if tell:
        out += [Tell(player=p, chat=game.place_of(s), text=text) for s, p in game.humans()]
    out.append(Closed(chat=game.chat, game_id=game.id, final=final_view(game, text, _),
                      prompt=game.match is None))
    return out


def final_view(game: Game, text: str, _: Translator) -> View:
    """The table as a closing game leaves it: the lobby or the table as they stand,
    without buttons, ending with ``text`` (why it closed, already translated)."""
    shown = lobby_view(game, _, offer=False) if game.match is None else table_view(game, _)
    return View(title=shown.title, lines=[*shown.lines, text])


def after_move_effects(game: Game, seats: set[int], ping: bool,
                       opens_deal: bool = False) -> list[Effect]:
    """Table view, the hands of ``seats`` (people only), and with ``ping`` (the turn
    moved) a :class:`TurnPing` for the person to play, or :class:`PingsOver` when a
    robot or an away person plays it, or the person has the hand open (the last ping
    names a turn that has passed; :func:`bot.model.hand_open` at the turn's start,
    issue 30: someone playing is not pinged every turn, someone away still is).
    ``opens_deal``: a deal was just dealt; its table comes first and is shown before
    the hands (:func:`table_effect`)."""
    out: list[Effect] = [table_effect(game, opens_deal),
                         *hands.hand_effects(game, sorted(seats))]
    turn = play.deal_of(game).turn
    seat = game.seats[turn]
    player = seat.player
    if ping and player is not None and not seat.away and not hand_open(seat,
                                                                       game.turn_since):
        _ = Translator(game.lang)
        place = game.place_of(turn)  # issue 35: where the person joined from
        out.append(TurnPing(player=player, chat=game.notices_of(turn), game_id=game.id,
                            text=_("Sua vez em {title}.", title=hands.place_title(game, place, _))))
    elif ping:
        out.append(PingsOver(chat=game.chat, game_id=game.id))
    return out


PAUSED = N_("Ninguém está jogando agora: a partida espera até alguém mandar /voltar "
            "(sem ninguém, fecha em 24 h).")
"""Said when the last person at the table is away: the robots stop with them (a game
nobody watches does not play itself out, bot/timers.py), so the group knows why."""


PAUSED_LINE = N_("Em pausa: mande /voltar para retomar.")
"""The table's turn line goes on with this while the game waits for someone to come back
(:data:`PAUSED`): a trial found the table and hands silent about it."""


def paused(game: Game) -> bool:
    """Whether every person at ``game`` is away, so the robots wait (bot/timers.py)."""
    return game.paused()


def away_notice(game: Game, robot_plays: str, left: str, name: str) -> Say:
    """The group's line when the person ``name`` stops playing their seat (``/sair``, a
    second timeout): ``robot_plays`` (msgid with ``{name}``: "o robô joga no lugar...")
    while someone else at the table still plays; once nobody does, the robots wait with
    them (bot/timers.py), so the line is ``left`` ("{name} saiu da mesa.") and then
    :data:`PAUSED` in the same message (issue 30: /sair promised a robot to a table that
    then paused)."""
    _ = Translator(game.lang)
    if paused(game):
        return Say(chat=game.chat, text=_(left, name=name) + " " + _(PAUSED))
    return Say(chat=game.chat, text=_(robot_plays, name=name))


def came_back(game: Game, name: str) -> Say:
    """The group's "{name} voltou ao jogo." when a person away takes their seat back: by
    ``/voltar`` or ``/entrar`` (bot.lobby) or by pressing their hand (bot.turns)."""
    _ = Translator(game.lang)
    return Say(chat=game.chat, text=_("{name} voltou ao jogo.", name=name))

