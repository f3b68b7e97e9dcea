"""The ranking periods of ``/ranking [semana|mes|ano|sempre]`` (issue 29).

A match counts in the week, month and year it ended in and in ``all``, on Brasília
time (UTC-3: Brazil has kept no daylight saving time since 2019), so a Sunday night
match counts in that week, not in Monday's UTC one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

BRASILIA = timezone(timedelta(hours=-3))
PERIOD_WORDS = {"semana": "week", "week": "week", "settimana": "week",
                "mes": "month", "mês": "month", "month": "month", "mese": "month",
                "ano": "year", "year": "year", "anno": "year",
                "sempre": "all", "all": "all", "always": "all", "tutto": "all", "": "all"}
"""Words a person may type (pt-BR, English, Italian) -> period kind."""


def periods_of(ts: float) -> list[str]:
    """The four period keys a match that ended at ``ts`` (Unix s) counts in, e.g.
    ``["w2026-49", "m2026-12", "y2026", "all"]``."""
    return [period_key(kind, ts) for kind in ("week", "month", "year", "all")]


def period_key(kind: str, ts: float) -> str:
    """The key of the period of ``kind`` (``week``/``month``/``year``/``all``) holding
    ``ts``; ``ValueError`` for another kind."""
    at = datetime.fromtimestamp(ts, UTC).astimezone(BRASILIA)
    if kind == "week":
        year, week, _day = at.isocalendar()
        return f"w{year}-{week:02d}"
    if kind == "month":
        return f"m{at.year}-{at.month:02d}"
    if kind == "year":
        return f"y{at.year}"
    if kind == "all":
        return "all"
    raise ValueError(kind)
