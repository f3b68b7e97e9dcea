"""The season's texts (issue 29): ``/ranking`` of a period, ``/ranking geral`` and
``/perfil``, in the chat's language (pt-BR msgids, bot/locale)."""

from __future__ import annotations

from bot import views
from bot.i18n import N_, Translator
from bot.season.achievements import ACHIEVEMENTS
from bot.season.ports import Standing
from bot.season.rating import Rating

TITLES = {"week": N_("Ranking do grupo — esta semana"),
          "month": N_("Ranking do grupo — este mês"),
          "year": N_("Ranking do grupo — este ano"),
          "all": N_("Ranking do grupo — desde sempre")}
SOLO_TITLES = {"week": N_("Ranking do terminal — esta semana"),
               "month": N_("Ranking do terminal — este mês"),
               "year": N_("Ranking do terminal — este ano"),
               "all": N_("Ranking do terminal — desde sempre")}
"""The titles in the terminal (``bot.views.SOLO_PLATFORMS``), where there is no group: its
one person's matches against the robots, counted as a group's are (issue 30)."""
CANASTRA_TEXTS = {"limpa": N_("limpas {n}"), "suja": N_("sujas {n}"), "mil": N_("de mil {n}"),
                  "altaneira": N_("Altaneira {n}"), "real": N_("reais {n}")}


def rating_text(text: str | None, _: Translator) -> str:
    """``"1069 (provisório)"`` or ``"1380"`` for a stored rating; a new person's 1000."""
    got = Rating.parse(text)
    if got.provisional:
        return _("{n} (provisório)", n=got.shown)
    return str(got.shown)


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` in whole percent (0 for nothing played)."""
    return round(100 * part / whole) if whole else 0


def standings_text(kind: str, rows: list[Standing], _: Translator, solo: bool = False) -> str:
    """``/ranking <period>``: one line per person, best first (``solo``: the terminal's
    title, :data:`SOLO_TITLES`)."""
    lines = [_((SOLO_TITLES if solo else TITLES)[kind])]
    if not rows:
        lines.append(_("Ninguém terminou uma partida neste período."))
    for i, row in enumerate(rows, 1):
        lines.append(_("{i}. {name}: {wins} em {matches} ({pct}%), pontos {p}, "
                       "rating {rating}", i=i, name=row.name,
                       wins=_.n("{n} vitória", "{n} vitórias", row.wins),
                       matches=_.n("{n} partida", "{n} partidas", row.matches),
                       pct=percent(row.wins, row.matches), p=row.points,
                       rating=rating_text(row.rating, _)))
    return "\n".join(lines)


def platform_text(rows: list[tuple[str, str]], _: Translator) -> str:
    """``/ranking geral``: ``(name, rating text)`` best first."""
    lines = [_("Ranking geral (todos os grupos; só quem joga aqui e escolheu aparecer "
               "com /perfil publico)")]
    if not rows:
        lines.append(_("Ninguém deste grupo escolheu aparecer no ranking geral."))
    for i, (name, text) in enumerate(rows, 1):
        lines.append(_("{i}. {name}: rating {rating}, partidas {m}", i=i, name=name,
                       rating=rating_text(text, _), m=Rating.parse(text).n))
    return "\n".join(lines)


def profile_text(name: str, fields: dict[str, str], trend: list[int], rating: str | None,
                 public: str | None, _: Translator, solo: bool = False) -> str:
    """``/perfil``: the person's counters in the group (docs/season.md "Profile");
    ``solo``: in the terminal, "Seu perfil no terminal", without the lines of the
    ranking across groups (a terminal is no group, issue 30)."""
    n = {k: int(v) for k, v in fields.items() if k != "name" and v.lstrip("-").isdigit()}
    matches, wins = n.get("matches", 0), n.get("wins", 0)
    lines = [_("Seu perfil no terminal") if solo else _("Perfil de {name} neste grupo",
                                                          name=name),
             _("Rating: {rating}", rating=rating_text(rating, _))]
    if len(trend) > 1:
        lines.append(_("Tendência: {values}", values=" → ".join(str(v) for v in
                                                               reversed(trend[:5]))))
    lines.append(_("Partidas {m}, vitórias {w} ({pct}%)", m=matches, w=wins,
                   pct=percent(wins, matches)))
    variants = sorted(k.split(":", 1)[1] for k in n if k.startswith("matches:"))
    if variants:
        lines.append(_("Por variante: {list}", list=", ".join(
            f"{views.PRESET_TITLES.get(v, v)} {n.get('wins:' + v, 0)}/{n['matches:' + v]} "
            f"({percent(n.get('wins:' + v, 0), n['matches:' + v])}%)" for v in variants)))
    if "best_deal" in n:
        lines.append(_("Melhor mão: {n} pontos", n=n["best_deal"]))
    kinds = [_(msgid, n=n["canastras:" + k]) for k, msgid in CANASTRA_TEXTS.items()
             if n.get("canastras:" + k)]
    lines.append(_("Canastras: {list}", list=", ".join(kinds) if kinds else "0"))
    lines.append(_("Batidas: {n}", n=n.get("batidas", 0)))
    lines.append(_("Vitórias seguidas: {n} (recorde {best})", n=n.get("streak", 0),
                   best=n.get("streak_best", 0)))
    earned = [_(a.title) for a in ACHIEVEMENTS if f"a:{a.id}" in fields]
    lines.append(_("Conquistas: {list}", list=", ".join(earned) if earned else "—"))
    if not solo:  # the terminal is no group: nothing across groups to appear in
        lines.append(_("Fora do ranking geral (/perfil publico para aparecer).")
                     if public is None else
                     _("No ranking geral: {rating}", rating=rating_text(public, _)))
    return "\n".join(lines)
