"""Readers of the JSON fields of a stored position (:meth:`engine.state.DealState.from_json`):
each takes the value as JSON typed it or raises ``IllegalAction("bad_position")`` naming
the field, never coercing (``int("7")``, ``int(7.5)``, ``bool("false")`` would turn a
corrupt state into a wrong game instead of a clear refusal)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction


def _bad(template: str, **params: str | int) -> IllegalAction:
    """``IllegalAction("bad_position")``; ``template`` is the whole pt-BR msgid."""
    return IllegalAction("bad_position", template, **params)


def per(value: Any, n: int, what: str) -> list[Any]:
    """``value`` as a list of ``n`` entries (one per seat or side)."""
    if not isinstance(value, list) or len(value) != n:
        raise _bad("posição inválida: '{what}' precisa ter {count} entradas", what=what, count=n)
    return value


def integer(d: dict[str, Any], key: str, default: int | None = None) -> int:
    """Field ``key`` as a JSON integer (``default`` when absent; None: required)."""
    value = d.get(key, default)
    if value is None:
        raise _bad("posição inválida: falta o campo '{what}'", what=key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad("posição inválida: '{what}' precisa ser um número inteiro", what=key)
    return value


def flag(d: dict[str, Any], key: str, default: bool | None = False) -> bool:
    """Field ``key`` as a JSON boolean (``default`` when absent; None: required)."""
    value = d.get(key, default)
    if value is None:
        raise _bad("posição inválida: falta o campo '{what}'", what=key)
    if not isinstance(value, bool):
        raise _bad("posição inválida: '{what}' precisa ser true ou false", what=key)
    return value


def flags(value: Any, n: int, what: str) -> list[bool]:
    """``value`` as ``n`` JSON booleans."""
    items = per(value, n, what)
    if not all(isinstance(x, bool) for x in items):
        raise _bad("posição inválida: '{what}' precisa ter {count} valores true ou false",
                   what=what, count=n)
    return list(items)


def integers(value: Any, what: str) -> list[int]:
    """``value`` as a list of JSON integers of any length."""
    if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise _bad("posição inválida: '{what}' precisa ser uma lista de números inteiros",
                   what=what)
    return list(value)


def optional_integer(d: dict[str, Any], key: str) -> int | None:
    """Field ``key`` (required) as a JSON integer or null."""
    if key not in d:
        raise _bad("posição inválida: falta o campo '{what}'", what=key)
    return None if d[key] is None else integer(d, key)
