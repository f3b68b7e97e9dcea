"""Options a group sets when it opens a table (``/novojogo buraco target=3000``): text
values read for the rules model, and pydantic's complaints turned into pt-BR reasons
(``IllegalAction("bad_option")``, catalog ``bot/locale/*/engine.po``; issue 12 item 6)."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.errors import IllegalAction

_INTEGER = re.compile(r"-?[0-9]+")


def option_error(err: ValidationError, model: type[BaseModel]) -> IllegalAction:
    """A pt-BR reason for the first problem pydantic found validating ``model`` (the
    rules) with a group's options: the option as the group typed it (``where``) and what
    it accepts (bounds, words, numbers). The codes ``rules_*`` are the rules model's own
    consistency errors (``PydanticCustomError``)."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"][:1]) or "opções"
    kind = first["type"]
    ctx = first.get("ctx") or {}
    if kind == "rules_players":
        return IllegalAction(
            "bad_option", "opção inválida ({where}): esta variante joga com {allowed} jogadores",
            where="default_players", allowed=str(ctx["allowed"]),
        )
    if kind == "rules_morto":
        return IllegalAction(
            "bad_option", "opção inválida ({where}): só vale em variantes com morto",
            where=str(ctx["option"]),
        )
    if kind == "rules_dollar":
        return IllegalAction(
            "bad_option", "opção inválida ({where}): só vale em variantes com Dólares",
            where="dollar_per_canastra",
        )
    if kind == "rules_blocked_pile":
        return IllegalAction(
            "bad_option",
            "opção inválida ({where}): não combina com o 3 preto que tranca o lixo",
            where="reuse_pile_once",
        )
    if kind.startswith("int_"):
        return _not_integer(where)
    if kind.startswith("bool_"):
        return IllegalAction(
            "bad_option", "opção inválida ({where}): use true ou false", where=where
        )
    if kind == "enum":
        field = model.model_fields.get(where)
        kinds = field.annotation if field is not None else None
        words = [m.value for m in kinds] if isinstance(kinds, type) and issubclass(
            kinds, Enum) else []
        return IllegalAction(
            "bad_option", "opção inválida ({where}): use {choices}",
            where=where, choices=" / ".join(words),
        )
    if kind in ("greater_than_equal", "greater_than"):
        limit = str(ctx.get("ge", ctx.get("gt")))
        return IllegalAction(
            "bad_option", "opção inválida ({where}): o mínimo é {limit}", where=where, limit=limit
        )
    if kind in ("less_than_equal", "less_than"):
        limit = str(ctx.get("le", ctx.get("lt")))
        return IllegalAction(
            "bad_option", "opção inválida ({where}): o máximo é {limit}", where=where, limit=limit
        )
    reason = str(ctx.get("error", first["msg"]))  # the validators' own reasons are pt-BR
    return IllegalAction(
        "bad_option", "opção inválida ({where}): {reason}", where=where, reason=reason
    )


def _not_integer(where: str) -> IllegalAction:
    return IllegalAction(
        "bad_option", "opção inválida ({where}): use um número inteiro", where=where
    )


_INT_FIELDS = frozenset({"target", "relancinho_bonus", "vulnerable_at"})


def coerce(key: str, value: Any) -> Any:
    """A group's option value as the rules model reads it: ``"none"`` / ``0`` targets
    and vulnerabilities switch off, numbers are ASCII digits only (refused with
    ``IllegalAction("bad_option")`` otherwise), yes/no words become booleans."""
    if key == "target" and (value in (0, None) or str(value).lower() in ("0", "none", "")):
        return None
    if key == "vulnerable_at" and str(value).lower() in ("0", "none", "off", "false"):
        return None
    if key in _INT_FIELDS and isinstance(value, str):
        # ASCII digits only (not "²", "٣", "1_000", "3000.0"); a very long number is
        # cut to 10 digits (its sign kept) so the bounds refuse it, int() never sees it
        text = value.strip()
        if not _INTEGER.fullmatch(text):
            raise _not_integer(key)
        sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
        return int(sign + (digits.lstrip("0") or "0")[:10])
    if isinstance(value, str) and value.lower() in ("true", "sim", "on", "yes"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "nao", "não", "off", "no"):
        return False
    return value


# Options a group may set when opening a table. Structural fields (melds, 3s, pile)
# stay with the preset: changing them would make another game; internal ones
# (default_players: how many seats the terminal and self-play fill) are no game rule.
OVERRIDABLE: frozenset[str] = frozenset(
    {
        "target",
        "jokers",
        "first_player_second_card",
        "morto_requires",
        "end_requires",
        "second_morto_direct_only",
        "relancinho_bonus",
        "vulnerable_at",
        "single_card_pile_rule",
        "reuse_pile_once",
        "dollar_per_canastra",
    }
)


BURACO_FAMILY: frozenset[str] = frozenset({"buraco", "buraco_morto", "bossa_nova"})
FAMILY_ONLY: dict[str, frozenset[str]] = {
    "relancinho_bonus": BURACO_FAMILY,  # RULES A21, §2 "extras"
    "vulnerable_at": BURACO_FAMILY,  # RULES A22
    "single_card_pile_rule": BURACO_FAMILY,  # RULES A23
    "first_player_second_card": BURACO_FAMILY | {"altaneira"},  # RULES A9, seed 000 §10.1
}
"""Options that belong to some presets only: a closed-pile game (tranca, justificado,
altaneira) has no relancinho, vulnerability or one-card-pile rule, and only the buraco
family and altaneira give the first player a second card."""


RETIRED_OPTIONS: frozenset[str] = frozenset({"default_players"})
"""Options a table could once set and no longer can: a stored game or record that has
one is read without it (:func:`stored_options`)."""


def stored_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` of a stored game or record without the :data:`RETIRED_OPTIONS`."""
    return {k: v for k, v in (options or {}).items() if k not in RETIRED_OPTIONS}
