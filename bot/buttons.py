"""What a button payload may say: the action codes the service makes and the argument
each one takes (DESIGN "One button press"). A payload outside this table (an unknown
code, an argument where none belongs, a word where a number belongs) is no button of
ours: it gets "Botão desconhecido." and changes nothing. Ranges that depend on the game
(a card index past the hand, a meld that does not exist, a robot count or a deal number
no table ever showed) are checked by the use cases, with the same answer.
"""

from __future__ import annotations

import re

from bot.effects import number
from bot.i18n import N_

UNKNOWN = N_("Botão desconhecido.")
"""The answer to a payload that no button of the service carries."""
NO_ARG = frozenset({"c", "m", "d", "3", "r", "z", "g", "h", "j", "lv", "s", "x", "qx",
                    "dc"})
"""Codes whose buttons carry no argument (``dc``: the hand's "Dica", issue 37)."""
INDEXED = frozenset({"t", "u", "e", "w", "ew", "pw", "gw"})
"""Codes whose argument is a card or meld index, or a wild's slot (``w``, ``pw``; ``ew``:
100 · meld + slot; ``gw``: 100 · a group's first card + slot, issue 30)."""
MAYBE_INDEXED = frozenset({"p"})
"""Codes with an optional meld index ("Pegar o lixo", "Lixo → N")."""
NUMBERED = frozenset({"ai", "ar", "sh", "v", "n", "ph", "rv"})
"""Codes whose argument is a number checked by the use case (an old button of an
earlier format, without it, is refused there as old). "Robô" (``ai``) carries none now
(the next free seat); the robot count an older lobby's carried is still taken. "Tirar
Robô N" (``ar``) carries the number in the robot's name (issue 30); a preset phrase
(``ph``) its index (issue 35, bot/phrases.py); "Revisão da mão N" (``rv``) the deal's
number (issue 37, bot/coach.py)."""
STEPPED = frozenset({"rp"})
"""Codes whose argument is a step ``<deal>.<move>`` (``/replay``, :mod:`bot.replay`; the
payload's version slot carries the chat's replay serial)."""
CODES = NO_ARG | INDEXED | MAYBE_INDEXED | NUMBERED | STEPPED
_STEP = re.compile(r"[0-9]{1,3}\.[0-9]{1,5}")
ADMIN_CODES = frozenset({"x", "ar"})
"""Lobby buttons a chat admin may press though not the table's creator ("Cancelar",
"Tirar robô"): the adapters find out whether the person is an admin for these only."""


def is_ours(code: str, arg: str) -> bool:
    """Whether ``code`` is a button code of the service and ``arg`` has its shape."""
    if code in NO_ARG:
        return arg == ""
    if code in INDEXED:
        return number(arg) is not None
    if code in STEPPED:
        return _STEP.fullmatch(arg) is not None
    if code in MAYBE_INDEXED:
        return arg == "" or number(arg) is not None
    return code in NUMBERED
