"""Preset phrases between strangers (issue 35, "Between strangers"; DESIGN "A Mini App that
feels native": no text inputs, preset phrases instead).

A table shown in more than one chat, or formed by the queue, seats people who share no
chat: nothing they type is relayed to one another. Instead the table offers a few preset
phrases as buttons ("Boa!", "Obrigado", "Vamos lá", "Desculpe", "Bom jogo"); a person at
the table presses one and the table (in every place, and the web page through the same
view) shows it beside their display name, the only thing of theirs that crosses over.
The last :data:`SHOWN` phrases are kept in the game (:attr:`bot.model.Game.said`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.buttons import UNKNOWN
from bot.i18n import N_, Translator
from bot.model import Game
from bot.outcome import Outcome, Refusal

PHRASES = (N_("Boa!"), N_("Obrigado"), N_("Vamos lá"), N_("Desculpe"), N_("Bom jogo"))
"""The phrases, by the index a button carries (code ``ph``)."""
CODE = "ph"
SHOWN = 3
"""Phrases the table shows at most (the newest last)."""
GAP_S = 5.0
"""Seconds a person waits between two phrases (a table is not a chat)."""
TOO_SOON = N_("Uma frase a cada 5 segundos.")


def offered(game: Game) -> bool:
    """Whether the table offers phrases: it is shown in more than one chat, or the queue
    formed it (its people may share no chat)."""
    return bool(game.places) or game.matched


def say(game: Game, seat: int | None, index: int, now: float) -> Outcome:
    """The person of ``seat`` says phrase ``index``: kept in the game, shown on the table.
    Refused: someone not seated ("Você não está nesta partida."), an index no button
    carries or a table that offers none ("Botão desconhecido."), a second phrase within
    :data:`GAP_S`."""
    if not 0 <= index < len(PHRASES) or not offered(game) or game.status == "over":
        raise Refusal(UNKNOWN)
    if seat is None or game.seats[seat].player is None:
        raise Refusal(N_("Você não está nesta partida."))
    if any(s == seat and now - at < GAP_S for s, _i, at in game.said):
        raise Refusal(TOO_SOON)
    from bot import views  # views shows the phrases (lines, rows): imported when used

    game.said = [*game.said, (seat, index, now)][-SHOWN:]
    game.touched = now
    return Outcome([views.table_effect(game)])


def lines(game: Game, _: Translator) -> list[str]:
    """``"💬 Ana: Boa!"`` for each phrase kept, oldest first."""
    return [f"💬 {game.name_of(seat)}: {_(PHRASES[index])}"
            for seat, index, _at in game.said if seat < len(game.seats)]


def rows(b: Callable[..., Any]) -> list[list[Any]]:
    """The phrase buttons, two rows (three and two: a phone's width), each made by the
    table's button maker ``b(label, code, arg)``."""
    made = [b(text, CODE, i) for i, text in enumerate(PHRASES)]
    return [made[:3], made[3:]]
