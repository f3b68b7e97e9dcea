"""Turn use cases: a seat's button press becomes an engine action, then effects.

Hand buttons carry the seat's version (``Seat.ver``); it changes whenever that seat's
hand, turn or phase changes, so a repeated press or a press on an old message is
refused and changes nothing (DESIGN example 7). Card selection is held per seat in the
game (``Seat.sel`` / ``Seat.groups``), so button payloads stay short.

Every press is idempotent (issue 12 item 2): a card button says its result (``t`` k
selects card k, ``u`` k unselects it), so a double tap or a re-sent callback finds the
card already so and gets a toast; "Separar", "+N" while groups are set aside and
"Limpar" advance ``Seat.ver`` themselves, so their second delivery is an old button.
"""

from __future__ import annotations

from typing import Any

from bot import hands, narration, play, results, staged, views
from bot.buttons import UNKNOWN
from bot.effects import Effect, Reply, number
from bot.i18n import N_, Translator
from bot.model import Game, Group
from bot.outcome import Outcome, Refusal
from engine.actions import Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.melds import Meld, extend_meld, make_meld
from engine.rules import RedThree
from engine.state import DRAW, PLAY
from engine.turns import check_phase
from engine.view import threes_to_lay

ENGINE_CODES = frozenset({"c", "p", "m", "d", "r", "3", "e", "w", "ew", "pw"})
PLAY_CODES = frozenset({"m", "d", "3", "e", "w", "ew"})
"""Engine codes of a turn's play phase: before the draw they are refused as such."""


def check_seat(game: Game, seat: int | None, version: int) -> int:
    """The presser's seat when the game is in play and the button current; else Refusal."""
    if seat is None:
        raise Refusal(N_("Você não está nesta partida."))
    if game.status == "between":
        raise Refusal(N_("A mão terminou: espere a próxima."))
    if game.status == "lobby":
        raise Refusal(N_("A partida ainda não começou."))
    if game.status != "playing":
        raise Refusal(N_("Esta partida terminou."))
    if version != game.seats[seat].ver:
        # the hand as it stands goes with the refusal: a hand message left behind (a
        # worker killed between a move's save and its delivery, an edit lost) catches up
        # at the person's next press on it, instead of answering "antigo" to every press
        # until the turn times out (a trial)
        raise Refusal(N_("Esse botão é antigo: use a mão mais recente (/mao)."),
                      also=lambda: hands.hand_effects(game, [seat]))
    return seat


def press(game: Game, seat: int, code: str, arg: str, now: float) -> Outcome:
    """Do what hand button ``code`` (with ``arg``) asks, for ``seat``."""
    s = game.seats[seat]
    was_away, resumes = s.away, game.paused()
    s.away, s.misses = False, 0
    s.seen = now  # the hand is open (bot.model.hand_open): its turns are not pinged
    if was_away and play.deal_of(game).turn == seat:
        game.turn_since = now  # back in the middle of their turn: a full timer again
    if resumes:
        game.step_at = now  # a waiting table resumes: the robots' pace starts now
    if code == "t":
        _select(game, seat, arg)
    elif code == "u":
        _unselect(game, seat, arg)
    elif code == "z":
        if not (s.sel or s.groups):
            return Outcome(changed=False)  # nothing to clear (the terminal clears first)
        s.clear_pick()
        s.ver += 1
    elif code == "g":
        _stage(game, seat, None)
    elif code == "e" and s.groups:
        _stage(game, seat, _meld(game, seat, arg))
    elif code == "ew" and s.groups:  # "+N: 2♣(4)" with groups set aside: one more group
        which, slot = _wild_arg(arg)
        _stage(game, seat, _meld(game, seat, which), slot)
    elif code == "gw":  # the place of a group's wild (issue 30)
        staged.choose(game, seat, _index(arg))
    elif code in ENGINE_CODES:
        if play.deal_of(game).turn != seat:
            raise Refusal(N_("Não é a sua vez."))
        kept = _kept_pick(game, seat, code)
        out = apply_action(game, seat, build_action(game, seat, code, arg), now, human=True)
        _repick(game, seat, kept)
        out.effects[:0] = _back(game, seat, was_away)
        return out
    else:
        raise Refusal(UNKNOWN)
    game.touched = now
    return Outcome(_back(game, seat, was_away), render=lambda: _pick_views(game, seat, was_away))


Pick = tuple[list[Card], list[tuple[list[Card], int | None, int]]]
"""A seat's selection and groups set aside as cards (``Group.cards`` as cards, its
``onto`` and ``wild``): what :func:`_repick` picks again in a changed hand."""


def _kept_pick(game: Game, seat: int, code: str) -> Pick | None:
    """The seat's picked cards when ``code`` is "Pegar o lixo" of an open pile (RULES
    §2 "discard pile", buraco family: taken whole, no justification), which uses none of
    them: they stay picked once the pile's cards join the hand (issue 30 O7: a card
    tapped while waiting made "Pegar o lixo" refused with "Neste jogo o lixo é aberto").
    None for every other press (it uses the selection, or changes nothing it names)."""
    s = game.seats[seat]
    if code != "p" or not (s.sel or s.groups) or play.deal_of(game).rules.pickup_justified:
        return None
    hand = _hand(game, seat)
    return (_cards(hand, s.sel),
            [(_cards(hand, g.cards), g.onto, g.wild) for g in s.groups])


def _repick(game: Game, seat: int, kept: Pick | None) -> None:
    """Pick ``kept`` again in the seat's hand as it is now (sorted afresh: each card
    at its new index; of two copies of a card, the first not yet taken)."""
    if kept is None:
        return
    hand = _hand(game, seat)
    used: set[int] = set()

    def where(cards: list[Card]) -> list[int]:
        out = []
        for card in cards:
            i = next(k for k, c in enumerate(hand) if c == card and k not in used)
            used.add(i)
            out.append(i)
        return sorted(out)

    s = game.seats[seat]
    s.groups = [Group(cards=where(cards), onto=onto, wild=wild)
                for cards, onto, wild in kept[1]]
    s.sel = where(kept[0])


def _back(game: Game, seat: int, was_away: bool) -> list[Effect]:
    """The group is told that a person away (after /sair or two timeouts) took their
    seat back by pressing their hand, as ``/voltar`` tells it (a trial: the group heard
    "Ana saiu da mesa", then saw her play, never told she was back)."""
    if not was_away:
        return []
    return [views.came_back(game, views.seat_name(game, seat, Translator(game.lang)))]


def _pick_views(game: Game, seat: int, was_away: bool) -> list[Effect]:
    """After a pick: the seat's hand, after the table when the seat was away (its
    "robot plays for" mark goes)."""
    effects: list[Effect] = [views.table_effect(game)] if was_away else []
    return effects + hands.hand_effects(game, [seat])


def _index(arg: str) -> int:
    """A card or meld index of a payload (ASCII digits only, :func:`bot.effects.number`)."""
    value = number(arg)
    if value is None:
        raise Refusal(UNKNOWN)
    return value


def _card(game: Game, seat: int, arg: str) -> int:
    """A card index of the seat's hand. The hand keeps its size while a version stands
    (every draw, meld and discard makes a new one), so a current button past its end was
    never shown: it is no button of ours."""
    i = _index(arg)
    if i >= len(play.deal_of(game).hands[seat]):  # the seat's view shows the hand sorted
        raise Refusal(UNKNOWN)
    return i


def _wild_arg(arg: str) -> tuple[str, int]:
    """``ew``'s argument, ``100·meld + slot`` (docs/service-api.md "Button payload"):
    the meld index (as a payload argument) and the wild's chosen slot."""
    value = _index(arg)
    return str(value // 100), value % 100


def _meld(game: Game, seat: int, arg: str) -> int:
    """A meld index of the seat's side ("+N", "Lixo → N"): melds are never taken back
    in a deal, so one past the last was never offered."""
    i = _index(arg)
    state = play.deal_of(game)
    if i >= len(state.melds[state.side_of[seat]]):
        raise Refusal(UNKNOWN)
    return i


def _select(game: Game, seat: int, arg: str) -> None:
    """``t`` k: card k joins the selection (already picked: a toast, nothing changes)."""
    s = game.seats[seat]
    i = _card(game, seat, arg)
    if i in s.sel or any(i in g.cards for g in s.groups):
        raise Refusal(N_("Essa carta já está selecionada."))
    s.sel = sorted([*s.sel, i])


def _unselect(game: Game, seat: int, arg: str) -> None:
    """``u`` k: card k leaves the selection; a group it was set aside in goes back to
    the selection without it (not picked: a toast, nothing changes)."""
    s = game.seats[seat]
    i = _card(game, seat, arg)
    for g in list(s.groups):
        if i in g.cards:
            s.groups.remove(g)
            s.sel = sorted({*s.sel, *g.cards})
    if i not in s.sel:
        raise Refusal(N_("Essa carta já não está selecionada."))
    s.sel.remove(i)


def _stage(game: Game, seat: int, onto: int | None, wild: int = 0) -> None:
    """``g`` / ``e`` with groups: the selection is set aside as a new meld (``onto`` None)
    or for meld ``onto`` (``ew``: its new wild in slot ``wild``), to be laid with the
    others by "Baixar". A group the lay-down would refuse is refused now, with the same
    reason (RULES C9, "melds" row: its shape), so "Separar" never says yes to what
    "Baixar" will say no to."""
    s = game.seats[seat]
    if not s.sel:
        raise Refusal(N_("Selecione as cartas primeiro."))
    hand = _hand(game, seat)
    _check_group(game, seat, hand, _cards(hand, s.sel), onto)
    s.groups.append(Group(cards=list(s.sel), onto=onto, wild=wild))
    s.sel = []
    s.ver += 1  # the message that offered this button is now old: a second press is refused


def _check_group(game: Game, seat: int, hand: list[Card], cards: list[Card],
                 onto: int | None) -> None:
    """:class:`Refusal` with the engine's reason when ``cards`` make no meld of their own
    (``onto`` None) or do not fit meld ``onto`` as the groups already set aside for it
    (indexes into ``hand``, :func:`_hand`) leave it (engine ``make_meld`` /
    ``extend_meld``, the lay-down's own checks); the reason names the group's cards."""
    state = play.deal_of(game)
    rules = state.rules
    try:
        if onto is None:
            make_meld(cards, rules)
            return
        meld: Meld = state.melds[state.side_of[seat]][onto]
        for group in game.seats[seat].groups:
            if group.onto == onto:
                meld = extend_meld(meld, _cards(hand, group.cards), rules, group.wild)
        extend_meld(meld, cards, rules)
    except IllegalAction as err:
        err.cards = tuple(play.text_of(c) for c in cards)  # "5♣ 10♦: ..." as "Baixar" names
        raise play.refusal(err) from None  # one meld of several


def _hand(game: Game, seat: int) -> list[Card]:
    """The seat's hand as its view shows it (sorted): what card indexes point into."""
    return play.view_of(game, seat).hand


def _cards(hand: list[Card], idx: list[int]) -> list[Card]:
    return [hand[i] for i in idx]


def build_action(game: Game, seat: int, code: str, arg: str) -> Action:
    """The engine action for a hand button (uses the seat's selection)."""
    if code == "c":
        return Action.draw(seat)
    if code == "r":
        return Action.redraw(seat)
    state = play.deal_of(game)
    if state.phase == DRAW and code in PLAY_CODES:
        # the turn's order first (a trial: "Descartar" before the draw, nothing picked,
        # said "Selecione a carta primeiro."), as the engine says it (RULES §2); a meld
        # never offered is still no button of ours
        if code in ("e", "ew"):
            _meld(game, seat, _wild_arg(arg)[0] if code == "ew" else arg)
        try:
            check_phase(state, PLAY)
        except IllegalAction as err:
            raise play.refusal(err) from None
    s = game.seats[seat]
    if code == "3" and not s.sel:  # "Baixar o 3" lays the red 3 in hand (A4, A32)
        threes = threes_to_lay(play.view_of(game, seat))
        if threes:
            return Action.lay_three(seat, threes[0])
    hand = _hand(game, seat) if s.sel or s.groups else []  # the view, once
    sel = _cards(hand, s.sel)
    if code == "p":
        if arg:
            return Action.take_pile(seat, meld=_meld(game, seat, arg))
        if not state.rules.pickup_justified:  # an open pile: the picked cards justify
            return Action.take_pile(seat)  # nothing and stay picked (_kept_pick, O7)
        return Action.take_pile(seat, with_=sel or None)
    if code == "pw":  # the justifying meld's wild in a chosen slot (issue 30)
        if not sel:
            raise Refusal(N_("Selecione as cartas primeiro."))
        return Action.take_pile(seat, with_=sel, wild=_index(arg))
    if code in ("e", "ew"):
        which, slot = _wild_arg(arg) if code == "ew" else (arg, 0)
        meld = _meld(game, seat, which)
        if not sel:
            raise Refusal(N_("Selecione as cartas primeiro."))
        return Action.extend(seat, meld, sel, slot)
    if code in ("m", "w"):
        new = [_cards(hand, g.cards) for g in s.groups if g.onto is None]
        ext = [(g.onto, _cards(hand, g.cards)) for g in s.groups if g.onto is not None]
        if sel:
            new.append(sel)
        if not new and not ext:
            raise Refusal(N_("Selecione as cartas primeiro."))
        if code == "w" and not sel:
            raise Refusal(N_("Selecione as cartas primeiro."))
        # every group's chosen place, and the selection's ("w": a place button)
        wilds = staged.wilds(s.groups, (_index(arg) if code == "w" else 0) if sel else None)
        return Action.lay_down(seat, melds=new, extend=ext, wilds=wilds)
    if not sel:  # a trial: "Descartar" with nothing picked said "Selecione uma carta só."
        raise Refusal(N_("Selecione a carta primeiro."))
    if len(sel) != 1:
        raise Refusal(N_("Selecione uma carta só."))
    return Action.discard(seat, sel[0]) if code == "d" else Action.lay_three(seat, sel[0])


def apply_action(game: Game, seat: int, action: Action, now: float, human: bool,
                 auto: bool = False) -> Outcome:
    """Apply ``action`` through the engine and return the effects of the new position;
    ``auto``: the move is made for a person whose timer ran out (bot.timers), and their
    hand says so (:func:`bot.narration.own_line`, issue 30 O8)."""
    before, turn = play.deal_of(game).turn, play.deal_of(game).turn_count
    events = play.act(game, action)
    s = game.seats[seat]
    s.ver += 1
    if not _refused_short(events):  # RULES A22: a refused lay-down leaves the hand as it
        s.clear_pick()  # was, so the cards picked stay picked: one more card, try again
    game.step_at = now
    if human:
        game.touched = now
    extra: list[Effect] = []
    _narrate(game, events, turn, action.with_ is not None, now, seat if auto else -1)
    for ev in events:
        if ev.kind == "lay_down_short" and s.player is not None:
            _ = Translator(game.lang)
            extra.append(Reply(player=s.player, alert=True, text=_(
                N_("Baixada recusada: {points} pontos, mínimo {needed}. "
                   "Nesta mão agora você precisa de {now_needed}."), **ev.public)))
    state = play.deal_of(game)
    if state.over:
        return results.deal_over(game, now, extra)
    changed = {seat}
    if state.turn != before:
        game.turn_since = now
        game.seats[state.turn].ver += 1
        changed.add(state.turn)
    ping = state.turn != before
    return Outcome(extra, render=lambda: views.after_move_effects(game, changed, ping))


def _refused_short(events: list[Any]) -> bool:
    """Whether ``events`` are only a first lay-down refused under the vulnerable side's
    minimum (RULES A22, engine ``lay_down_short``): the hand and the melds are as they
    were, so the selection and the groups set aside still name the same cards (issue 30,
    a trial: the selection vanished and the person had to pick every card again)."""
    return bool(events) and all(ev.kind == "lay_down_short" for ev in events)


def _narrate(game: Game, events: list[Any], turn: int, new_meld: bool, now: float,
             auto: int = -1) -> None:
    """Add the moves of ``events`` (made in turn ``turn`` at ``now``) to the table's
    narration, which keeps the last two turns and the last seconds (:mod:`bot.narration`);
    the moves of seat ``auto`` are marked as made for it at a timeout (``auto``)."""
    state = play.deal_of(game)
    stuck = state.rules.red_three == RedThree.LAY_ALONE  # tranca: a draw is D1's
    said = []
    for ev in events:
        side_melds = state.melds[state.side_of[ev.seat]] if ev.seat >= 0 else []
        entry = narration.describe(ev, turn, side_melds, new_meld, now, stuck)
        if entry is not None:
            if auto >= 0 and ev.seat == auto:
                entry[1]["auto"] = 1
            said.append(entry)
    if said:
        game.last = narration.recent(game.last + said, state.turn_count, now)
