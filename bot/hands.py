"""The private hand of a seat: its cards as toggle buttons, what is picked, the lines
of its turn and the buttons valid now (docs/service-api.md).

Built from the engine's ``view_for(state, seat)`` only (DESIGN "What the people see"),
so nothing another seat hides can reach it; all text is in the game's language. The
group's table message is :mod:`bot.views`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot import coach, narration, play, staged
from bot.effects import CardFace, ChatRef, Effect, HandView, View, pack
from bot.i18n import N_, Translator
from bot.model import Game
from engine.errors import IllegalAction
from engine.melds import extend_meld, make_meld
from engine.pile import top_two_allowed
from engine.rules import RedThree
from engine.view import can_take_pile, threes_to_lay
from engine.wilds import extension_wild_choices, wild_choices

CARDS_PER_ROW = 6
DRAWN_MARK = "•"
"""Marks the cards drawn from the stock this turn in their drawer's hand (``•7♦``): the
draw and any red-3 replacement (RULES A4, D1)."""


def _draw_line(view: Any, _: Translator) -> str:
    """What a turn starts with: the stock, or the stock or the pile when the pile may be
    taken (engine ``can_take_pile``: none at a deal's first turn or after a killed pile,
    RULES A6; not while a black 3 blocks it, A33, nor in the one-card case, A23)."""
    if can_take_pile(view):
        return _("Sua vez: compre do monte ou pegue o lixo.")
    return _("Sua vez: compre do monte.")


def _play_line(view: Any, _: Translator) -> str:
    """What the rest of a turn asks: in tranca a red 3 in the hand is laid first (RULES
    A32: a discard is refused until then; a trial found the line silent about it)."""
    if _red_three_first(view):
        return _("Sua vez: baixe o 3 vermelho, depois jogos e um descarte.")
    return _("Sua vez: baixe jogos e descarte uma carta.")


def _may_discard(view: Any, seat: int) -> bool:
    """Whether ``seat`` may discard now, so a picked card's hint may say so: in the play
    phase of its own turn (RULES §2; trials saw the hint before the draw and while
    waiting), with no tranca red 3 left to lay first (A32)."""
    return view.turn == seat and view.phase == "play" and not _red_three_first(view)


def _red_three_first(view: Any) -> bool:
    """Whether a tranca red 3 in the hand must be laid before anything is discarded
    (RULES A32)."""
    return bool(view.rules.red_three == RedThree.LAY_ALONE and threes_to_lay(view))


def hand_effect(game: Game, seat: int) -> HandView | None:
    """The private hand of ``seat`` (None for an AI seat)."""
    player = game.seats[seat].player
    if player is None or game.match is None:
        return None
    _ = Translator(game.lang)
    return HandView(chat=game.notices_of(seat), game_id=game.id, player=player, seat=seat,
                    view=hand_view(game, seat, _))


def hand_effects(game: Game, seats: Iterable[int]) -> list[Effect]:
    """:func:`hand_effect` of each of ``seats`` in that order, the AI seats left out."""
    return [h for seat in seats if (h := hand_effect(game, seat)) is not None]


def hand_view(game: Game, seat: int, _: Translator) -> View:
    """Cards as toggles, what is picked, and the buttons valid now (docs/service-api.md).

    The cards and their buttons go to pydantic as plain dicts and are validated in one
    call with the view (issue 13: a third of the time of building each model apart)."""
    s = game.seats[seat]
    view = play.view_of(game, seat)
    grouped = {i: g + 1 for g, grp in enumerate(s.groups) for i in grp.cards}
    drawn = set() if narration.took_morto_in(game, seat, view.turn_count) else _drawn_at(
        view.hand, [view.drawn, *view.drawn_more])
    faces: list[dict[str, Any]] = [
        {"index": i, "code": c.code, "text": play.text_of(c), "red": c.is_red,
         "selected": i in s.sel, "group": grouped.get(i, 0), "drawn": i in drawn}
        for i, c in enumerate(view.hand)]
    b = play.button_maker(game, s.ver)
    rows: list[list[Any]] = []
    if faces:  # the longest card payload checked once (pack), the others made alike
        pack(game.id, s.ver, "t", len(faces) - 1)
    head = f"{game.id}|{s.ver}|"
    for start in range(0, len(faces), CARDS_PER_ROW):
        rows.append([{"label": _face_label(f), "data": head + (
            "u|" if f["selected"] or f["group"] else "t|") + str(f["index"])}
            for f in faces[start:start + CARDS_PER_ROW]])
    place = game.place_of(seat)  # issue 35: the person's own place, never another's id
    lines = [_("Mesa: {title}", title=place_title(game, place, _))]
    lines += _pick_lines(game, seat, view, _)
    own = narration.own_line(game, seat, _, view.drawn, view.turn_count, view.drawn_more)
    if own:
        lines.append(own)
    my_turn = game.status == "playing" and view.turn == seat
    if my_turn and coach.enabled(game):  # issue 37: the strong robot's move, for this
        rows.append([b(coach.BUTTON, coach.CODE)])  # person only, above the moves
    if my_turn:
        rows += _fitting(play.action_buttons(game, seat, view, b), view)
        if s.sel:
            rows += _wild_rows([view.hand[i] for i in s.sel], view, b, _)
        rows += staged.rows(game, seat, b, _)  # each group set aside: its wild's place
        lines.append(_draw_line(view, _) if view.phase == "draw" else _play_line(view, _))
    elif game.status in ("between", "over") and game.deals and coach.enabled(game):
        n = len(game.deals)  # issue 37: the deal just played, reviewed privately
        rows.append([b(coach.REVIEW_BUTTON, coach.REVIEW_CODE, n, n=n)])
    elif game.status == "playing":
        # not "Vez de X.": a hand is sent again when its own turn comes, not at every
        # turn, so a name here went stale (a trial, four players)
        lines.append(_("Aguarde a sua vez."))
    if (s.sel or s.groups) and not any(_code(x) == "z" for row in rows for x in row):
        rows.append([b(N_("Limpar"), "z")])  # whatever the phase (issue 30 O7)
    if game.status == "playing" and view.vuln_min:  # RULES A22, shown before trying (D4)
        lines.append(_vuln_line(view, _))
    if view.pending_morto:  # RULES C12: taken by discard, played from the next turn
        lines.append(_("O morto ({n} cartas) entra na sua mão na sua próxima vez.",
                       n=view.pending_morto))
    if s.away:  # nobody playing: the robots wait too (views.paused, issue 30)
        lines.append(_("Ninguém está jogando: a partida espera. Mande /voltar para retomar.")
                     if game.paused() else
                     _("O robô está jogando por você. Mande /voltar para retomar."))
    title = _.n("Sua mão ({n} carta)", "Sua mão ({n} cartas)", len(view.hand))
    return View.model_validate({"title": title, "lines": lines, "buttons": rows,
                                "cards": [_face(f) for f in faces], "version": s.ver})


_FACES: dict[tuple[Any, ...], CardFace] = {}
FACES_KEPT = 8192
"""Card faces :func:`_face` keeps (emptied when full)."""


def _face(face: dict[str, Any]) -> CardFace:
    """The (immutable) :class:`CardFace` of ``face``, made once per distinct face: a hand
    shows the same faces view after view, and a model instance in the view is taken as
    it is where a dict is validated field by field (issue 36: a third of the view's
    validation)."""
    key = (face["index"], face["code"], face["text"], face["red"], face["selected"],
           face["group"], face["drawn"])
    made = _FACES.get(key)
    if made is None:
        if len(_FACES) >= FACES_KEPT:
            _FACES.clear()
        made = _FACES[key] = CardFace.model_validate(face)
    return made


def _vuln_line(view: Any, _: Translator) -> str:
    """The minimum of the seat's first lay-down of the deal (RULES A22, buraco family:
    the side has reached ``vulnerable_at``), said before any try (D4). While a short try
    would still raise it (``vulnerable_min_after_fail`` above the minimum now), the line
    says so: a trial met the 90 only in the refusal ("Nesta mão agora você precisa de
    90.") and read it as a penalty nobody had announced (issue 30, T2)."""
    after = view.rules.vulnerable_min_after_fail
    if after > view.vuln_min:
        return _("Sua primeira baixada precisa de {points} pontos; se tentar com menos, "
                 "ela é recusada e o mínimo nesta mão passa a {after}.",
                 points=view.vuln_min, after=after)
    return _("Sua primeira baixada precisa de {points} pontos.", points=view.vuln_min)


def _code(button: play.ButtonData) -> str:
    """A button's action code (its payload's third field, :func:`bot.effects.pack`)."""
    return button["data"].split("|")[2]


def _drawn_at(hand: list[Any], drawn: list[Any]) -> set[int]:
    """Indexes in ``hand`` of the cards ``drawn`` from the stock this turn (None for no
    card), one index per card even when both decks' copies are in the hand (the last
    copies: drawn cards are appended)."""
    out: set[int] = set()
    for card in drawn:
        if card is None:
            continue
        at = next((i for i in reversed(range(len(hand))) if hand[i] == card and i not in out),
                  -1)
        if at >= 0:
            out.add(at)
    return out


def _fitting(rows: list[list[play.ButtonData]], view: Any) -> list[list[play.ButtonData]]:
    """Drop the "Lixo → N" buttons (justified pick-up onto meld N, RULES A10) whose meld
    the pile's top card does not fit (engine ``extend_meld`` refuses it) or may not join
    (a 2 that could only be its wild, RULES A11: engine ``top_two_allowed``)."""
    own = view.melds[view.side]

    def fits(button: play.ButtonData) -> bool:
        _gid, _ver, code, arg = button["data"].split("|")[:4]
        if code != "p" or not arg or not view.pile:
            return True
        top = view.pile[-1]
        try:
            laid = own[int(arg)]
            made = extend_meld(laid, [top], view.rules)
        except (IllegalAction, IndexError):
            return False
        return top_two_allowed(laid, made, top, view.rules)

    kept = [[b for b in row if fits(b)] for row in rows]
    return [row for row in kept if row]


def _wild_rows(picked: list[Any], view: Any, b: play.ButtonMaker,
               _: Translator) -> list[list[play.ButtonData]]:
    """Where the picked cards' wild could stand in two places (issue 30, engine
    ``wilds``: RULES C4, D11, D20), one button per place: ``Baixar 2♦(A) 2♦ 3♦`` (``w``,
    the slot) for a new meld, ``+1: 2♣(4)`` (``ew``, 100 · meld + slot) for one of the
    side's runs; before the draw, ``Pegar o lixo: 2♣(4) 5♥ 6♥`` (``pw``, the slot) for
    the new meld that justifies a closed pile's pick-up (RULES A10). The plain
    "Baixar", "+N" and "Pegar o lixo" keep the default place."""
    rules, rows = view.rules, []
    if view.phase != "play":
        top = view.pile[-1:] if rules.pickup_justified and can_take_pile(view) else []
        places = wild_choices([*top, *picked], rules) if top else []
        if len(places) > 1:
            rows.append([b("", "pw", slot, text=_("Pegar o lixo: {cards}", cards=play.show_meld(
                make_meld([*top, *picked], rules, slot)))) for slot in places])
        return rows
    places = wild_choices(picked, rules)
    if len(places) > 1:
        rows.append([b("", "w", slot, text=_("Baixar {cards}", cards=play.show_meld(
            make_meld(picked, rules, slot)))) for slot in places])
    for k, meld in enumerate(view.melds[view.side]):
        places = extension_wild_choices(meld, picked, rules)
        if len(places) > 1:
            grown = [extend_meld(meld, picked, rules, slot) for slot in places]
            rows.append([b("", "ew", 100 * k + slot, text=f"+{k + 1}: " + play.text_of(
                run.cards[run.wild_at]) + f"({play.rank_text(slot)})")
                for slot, run in zip(places, grown, strict=True)])
    return rows


def _face_label(face: dict[str, Any]) -> str:
    """A card button's label: ``"2:7♥"`` set aside in group 2, ``"[7♥]"`` selected,
    :data:`DRAWN_MARK` before the card drawn from the stock this turn."""
    text = DRAWN_MARK + face["text"] if face["drawn"] else str(face["text"])
    if face["group"]:
        return f"{face['group']}:{text}"
    return f"[{text}]" if face["selected"] else text


def _pick_lines(game: Game, seat: int, view: Any, _: Translator) -> list[str]:
    s = game.seats[seat]
    lines = []
    for g, grp in enumerate(s.groups):
        cards = play.show(view.hand[i] for i in grp.cards)
        if grp.onto is None:
            lines.append(_("Separado {n}: {cards} (jogo novo)", n=g + 1, cards=cards))
        else:
            lines.append(_("Separado {n}: {cards} (no jogo {m})", n=g + 1, cards=cards,
                           m=grp.onto + 1))
    if s.sel:
        picked = [view.hand[i] for i in s.sel]
        line = _("Selecionadas: {cards}", cards=play.show(picked))
        if len(picked) == 1 and _may_discard(view, seat):
            line += " " + _("(descartar ou juntar a um jogo)")
        elif len(picked) >= 3:
            line += " " + (_("(formam um jogo)") if play.forms_meld(picked, view.rules)
                           else _("(não formam um jogo novo)"))
        lines.append(line)
    return lines


def place_title(game: Game, place: ChatRef, _: Translator) -> str:
    """How the table is named to a person whose place is ``place`` (the hand's "Mesa:"
    line, the turn ping): the place's title; a private chat has none, so the game's own
    chat's title, else "Mesa de <who opened it>" (a table the queue formed, issue 35),
    never an id or a code; an untitled chat of a group's game keeps its id as before."""
    if place.title:
        return place.title
    if game.chat.title:
        return game.chat.title
    if place.key == game.chat.key and not game.matched:
        return game.chat.chat_id
    return _("Mesa de {name}", name=game.creator.name)
