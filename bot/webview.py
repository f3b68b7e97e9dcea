"""The web table's data (issue 27, docs/web.md "The view"): one seat's view of a game as
plain JSON-ready dicts, for the page to draw.

Every card it names comes from the engine's one gate, ``view_for(state, seat)``
(:func:`bot.play.view_of`): the seat's own hand (through :func:`bot.hands.hand_view`,
itself built on ``view_for``), the melds, the discard pile as the rules show it, the laid
3s; everything else is counts. A spectator (a person not seated) gets the public part
of seat 0's view and no hand. The texts (labels, lines, narration) are those the chats
show, in the game's language.
"""

from __future__ import annotations

import functools
from typing import Any

from bot import fairness, hands, lobby, play, results, views
from bot.effects import unpack
from bot.i18n import N_, Translator
from bot.model import Game
from engine.cards import Card
from engine.melds import RUN, Meld, canastra_bonus, canastra_label
from engine.scoring import melded_points
from engine.view import SeatView

JOKER_RANK_TEXT = "🃏"
PAGE_TEXTS = {
    "hand": N_("Sua mão"), "stock": N_("Monte"), "pile": N_("Lixo"),
    "mortos": N_("Mortos na mesa"), "sort_suit": N_("Ordenar por naipe"),
    "sort_rank": N_("Ordenar por valor"), "offline": N_("Sem conexão: reconectando…"),
    "spectator": N_("Você está assistindo: não está sentado nesta mesa."),
    "no_melds": N_("(sem jogos)"), "empty_pile": N_("Lixo vazio"),
    "blocked": N_("lixo trancado"), "points": N_("pts"),
    "gone": N_("Este jogo não existe mais."),
    "closed": N_("Esta partida foi encerrada."), "cards": N_("cartas"),
    "robot": N_("robô"), "away": N_("ausente"), "log": N_("Lances"),
    "four_colour": N_("Baralho de quatro cores"), "deal_end": N_("Resultado da mão"),
    "deal": N_("Mão"), "total": N_("Total"),
    "lobby": N_("Lugares"), "you": N_("você"),
    "suit_h": N_("copas"), "suit_d": N_("ouros"), "suit_c": N_("paus"),
    "suit_s": N_("espadas"), "rank_A": N_("Ás"), "rank_J": N_("Valete"),
    "rank_Q": N_("Dama"), "rank_K": N_("Rei"), "joker": N_("Curinga"),
    "card_name": N_("{rank} de {suit}"), "stands_for": N_("no lugar do {rank}"),
}
"""The page's own words (its buttons and headings), sent translated with each view."""
OPEN_TABLE = N_("Abrir a mesa")
"""The label of the chat buttons that open the web table."""
REFUSALS = {
    "bad_request": N_("Abra a mesa pelo botão do jogo, no Telegram ou no Discord."),
    "forged": N_("Este link não é válido: abra a mesa pelo botão do jogo."),
    "expired": N_("Este link expirou: abra a mesa de novo pelo botão do jogo."),
    "used": N_("Este link já foi usado: abra a mesa de novo pelo botão do jogo (/mao)."),
    "no_game": N_("Este jogo não existe mais."),
    "too_large": N_("Pedido grande demais: abra a mesa pelo botão do jogo."),
}
"""Why the page was refused (docs/web.md ``error`` codes), told on the page; nothing
of the game is sent with it."""


@functools.lru_cache(maxsize=16)
def _page_texts(lang: str) -> dict[str, str]:
    """:data:`PAGE_TEXTS` in ``lang`` (translated once per language: every view of every
    page carries them). Read only: the views share the one dict."""
    _ = Translator(lang)
    return {k: _(v) for k, v in PAGE_TEXTS.items()}


def card_json(card: Card) -> dict[str, Any]:
    """``{"code": "10h", "text": "10♥", "rank": "10", "suit": "♥", "red": true}``
    (the joker: rank ``🃏``, suit ``""``)."""
    text = play.text_of(card)
    if card.is_joker:
        return {"code": card.code, "text": text, "rank": JOKER_RANK_TEXT, "suit": "",
                "red": False}
    return {"code": card.code, "text": text, "rank": text[:-1], "suit": text[-1],
            "red": card.is_red}


def _meld_json(meld: Meld, index: int, view: SeatView, _: Translator) -> dict[str, Any]:
    kind = None
    label = None
    if meld.is_canastra:
        kind = "limpa" if meld.is_clean_canastra else "suja"
        named = canastra_label(meld, view.rules)
        label = _(views.CANASTRA_LABELS[named]) if named in views.CANASTRA_LABELS else named
    cards = [card_json(c) for c in meld.cards]
    if meld.kind == RUN and meld.wild_at >= 0:  # the rank it stands for, as the chat's "2♥(7)"
        cards[meld.wild_at]["stands"] = play.rank_text(meld.wild_slot)
    return {"index": index, "cards": cards, "canastra": kind, "canastra_label": label}


def _sides(game: Game, view: SeatView, seat: int | None, names: list[str],
           _: Translator) -> list[dict[str, Any]]:
    scores = play.match_scores(game)
    rules = view.rules
    out = []
    for side, team in enumerate(view.teams):
        melds = view.melds[side]
        out.append({
            "side": side, "label": views.side_label(game, side, team, _, names),
            "score": scores[side], "melded": melded_points(melds, rules),
            "bonus": sum(canastra_bonus(m, rules) for m in melds if m.is_canastra),
            "melds": [_meld_json(m, k, view, _) for k, m in enumerate(melds)],
            "threes": [card_json(c) for c in view.laid_threes[side]],
            "mine": seat is not None and side == view.side})
    return out


def _table(game: Game, view: SeatView, seat: int | None, _: Translator) -> dict[str, Any]:
    """The public part of ``view``: what the group's table shows, as data."""
    names = views.seat_names(game, _)
    playing = game.status == "playing"
    pile = view.pile
    turn = ""
    if playing:
        turn = (_("Sua vez.") if view.turn == seat
                else _("Vez de {name}.", name=names[view.turn]))
        if views.paused(game):
            turn += " " + _(views.PAUSED_LINE)
    return {
        "sides": _sides(game, view, seat, names, _),
        "players": [{"seat": k, "name": names[k], "cards": n,
                     "side": next(i for i, t in enumerate(view.teams) if k in t),
                     "turn": playing and k == view.turn, "you": k == seat,
                     "robot": game.seats[k].is_ai, "away": game.seats[k].away}
                    for k, n in enumerate(view.hand_counts)],
        "pile": {"top": card_json(pile[-1]) if pile else None, "size": view.pile_size,
                 "cards": [card_json(c) for c in pile] if view.rules.pile_open else [],
                 "blocked": view.pile_blocked},
        "stock": view.stock_size,
        "mortos": sum(view.mortos_left) if view.rules.morto else None,
        "turn": turn, "my_turn": playing and seat is not None and view.turn == seat,
        "deadline": (game.turn_since + game.timer_s
                     if playing and not game.seats[view.turn].robot_plays else None),
        "narration": views.last_text(game, _) if game.last else "",
        "shuffle": fairness.table_line(game, _) or "",
    }


def _hand(game: Game, seat: int, _: Translator) -> dict[str, Any]:
    """The seat's hand (:func:`bot.hands.hand_view`): cards with their toggle payload,
    lines, and the action buttons (code, arg, label, payload)."""
    shown = hands.hand_view(game, seat, _)
    toggles: dict[int, str] = {}
    actions = []
    for row in shown.buttons:
        for b in row:
            parts = unpack(b.data)
            if parts is None:
                continue
            code, arg = parts[2], parts[3]
            if code in ("t", "u"):
                toggles[int(arg)] = b.data
            else:
                actions.append({"code": code, "arg": arg, "label": _action_label(
                    code, arg, b.label, _), "data": b.data})
    if game.status == "over":  # a closed or finished game: nothing left to press
        toggles, actions = {}, []
    cards = []
    for face in shown.cards:
        card: dict[str, Any] = {"code": face.code, "text": face.text, "red": face.red}
        card.update(_rank_suit(face.text), index=face.index, selected=face.selected,
                    group=face.group, drawn=face.drawn, data=toggles.get(face.index))
        cards.append(card)
    # the first line names the chat ("Mesa: Grupo do Buraco"): the page is that table
    return {"title": shown.title, "cards": cards, "lines": shown.lines[1:],
            "actions": actions, "version": shown.version}


def _action_label(code: str, arg: str, label: str, _: Translator) -> str:
    """A hand button's label on the page: the chat's own, except the cryptic "+N" of
    adding the selection to meld N, which says what it does ("Juntar ao jogo 2";
    ``ew``, the wild's place too: "Juntar ao jogo 2: 2♣(4)")."""
    if code == "e" and arg.isdigit():
        return _("Juntar ao jogo {n}", n=int(arg) + 1)
    if code == "ew" and ": " in label:
        return _("Juntar ao jogo {n}", n=label.split(":")[0].lstrip("+")) + ": " + \
            label.split(": ", 1)[1]
    return label


def _rank_suit(text: str) -> dict[str, str]:
    if text == JOKER_RANK_TEXT:
        return {"rank": JOKER_RANK_TEXT, "suit": ""}
    return {"rank": text[:-1], "suit": text[-1]}


def _buttons(shown: Any, skip: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The pressable buttons of a chat view (``code``, ``arg``, ``label``, ``data``),
    but those whose code is in ``skip``."""
    out = []
    for row in shown.buttons:
        for b in row:
            parts = unpack(b.data)
            if parts is not None and parts[2] not in skip:
                out.append({"code": parts[2], "arg": parts[3], "label": b.label,
                            "data": b.data})
    return out


def _table_actions(game: Game, _: Translator) -> list[dict[str, Any]]:
    """The table's own buttons a seated person may press from the page (the next deal);
    "Minha mão" is the page itself."""
    return _buttons(views.table_view(game, _), frozenset({"h"}))


CREATOR_CODES = frozenset({"ai", "ar", "sh", "s", "v"})
"""Lobby buttons only the table's creator may press from the page (bot/lobby.py; a chat
admin may take a robot off, but the page knows no admin)."""


def _lobby(game: Game, seat: int | None, _: Translator) -> dict[str, Any]:
    """The lobby as data: its lines (those the group shows), the seats (name, robot,
    side once teams are known) and the lobby's buttons that work for the person at
    ``seat`` (None: not seated), as the service decides (bot/lobby.py): "Entrar" for
    someone not seated, "Sair" for someone seated, robots, the shuffle, the variants and
    "Iniciar" for the creator alone, "Cancelar" for whoever may close it (the creator,
    or the only person seated). Someone else reads the variant played only: "Outras
    variantes" goes with its buttons (a tester's invited guest saw buttons refused and
    the line without buttons, issue 35)."""
    player = game.seats[seat].player if seat is not None else None
    creator = player is not None and player.key == game.creator.key
    shown = views.lobby_view(game, _, offer=creator)
    skip = {"lv"} if player is None else {"j"}
    if not creator:
        skip |= CREATOR_CODES
    if player is None or not lobby.may_cancel(game, player):
        skip.add("x")
    return {"lines": shown.lines,
            "seats": [{"seat": k, "name": views.seat_name(game, k, _), "robot": s.is_ai}
                      for k, s in enumerate(game.seats)],
            "table_actions": _buttons(shown, frozenset(skip)) if game.status == "lobby"
            else [],
            "closed": game.status == "over"}


def _result(game: Game, _: Translator) -> dict[str, Any]:
    """The deal's end as the chat posts it (:func:`bot.results.breakdown_text`, each
    player's leftover cards included: the deal is over, nothing is hidden), the match's
    end (:func:`bot.results.winner_text`) and every deal's totals; ``closed`` when the
    game was closed before its match ended (cancelled, abandoned)."""
    match = play.match_of(game)
    out: dict[str, Any] = {"result": [], "winner": "", "deals": game.deals,
                           "closed": game.status == "over" and not match.over}
    if match.results and match.deal is not None and match.deal.over:
        out["result"] = results.breakdown_text(game, match.results[-1], _).split("\n")
    if match.over:
        out["winner"] = results.winner_text(game, _)
    return out


def web_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``game`` for ``seat`` (None: a spectator, no hand).

    Keys (docs/web.md): ``game``, ``status``, ``title``, ``lang``, ``seat``,
    ``spectator``, ``texts`` (the page's words), ``lines`` (the lobby's lines, else
    ``[]``), ``seats`` and ``table_actions`` in the lobby; once dealt the table
    (``sides``, ``players``, ``pile``, ``stock``, ``mortos``, ``turn``, ``my_turn``,
    ``deadline`` Unix s or None, ``narration``, ``shuffle``: the deal's commitment, its
    seed once over, issue 35), ``hand`` (None for a spectator or an
    AI seat), ``table_actions``, and the deal's and match's end (``result`` lines,
    ``winner``, ``deals``, ``closed``)."""
    _ = Translator(game.lang)
    out: dict[str, Any] = {
        "game": game.id, "status": game.status, "title": views.game_title(game, _),
        "lang": game.lang, "seat": seat, "spectator": seat is None,
        "texts": _page_texts(game.lang), "lines": [], "hand": None,
        "table_actions": []}
    if game.match is None:
        out.update(_lobby(game, seat, _))
        return out
    view = play.view_of(game, 0 if seat is None else seat)
    out.update(_table(game, view, seat, _))
    if game.status != "playing":
        out.update(_result(game, _))
    if seat is not None and game.seats[seat].player is not None:
        out["hand"] = _hand(game, seat, _)
        if game.status == "between":
            out["table_actions"] = _table_actions(game, _)
    return out
