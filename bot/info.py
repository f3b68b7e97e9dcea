"""Read-mostly use cases: the hand on demand, ``/placar``, ``/voltar``, ``/idioma``,
``/ajuda``, ``/regras``, and the record kept when a game ends."""

from __future__ import annotations

import json
from typing import Any

from bot import hands, play, views
from bot.effects import ChatRef, PlayerRef
from bot.i18n import LANGS, N_, Translator
from bot.lobby import come_back, parse_args, rules_of
from bot.model import Game
from bot.outcome import TYPED_ECHO, Outcome, Refusal, echo
from engine.rules import (
    PRESETS,
    BlackThree,
    CardPoints,
    RedThree,
    Requirement,
    Rules,
    options_of,
)

__all__ = ["come_back", "going_out_rule", "guide_link", "hand_outcome", "help_text", "languages",
           "move_chat", "record_filename", "record_of", "relabel", "rules_for",
           "rules_summary", "rules_text", "scoreboard_text"]


def hand_outcome(game: Game, user: PlayerRef) -> Outcome:
    """The person's hand view (nothing is saved: a view is no press, and showing it never
    changes the game, bad-input tests hold it so); :class:`Refusal` for a person not
    seated, a match not started, or a game that is over (cancelled or finished: its hand
    would offer buttons that can only be refused)."""
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal(N_("Você não está nesta partida."))
    if game.status == "over":
        raise Refusal(N_("Esta partida terminou."))
    if game.match is None:
        raise Refusal(N_("A partida ainda não começou."))
    return Outcome(hands.hand_effects(game, [seat]), changed=False)


def move_chat(game: Game, chat: ChatRef) -> Outcome:
    """The game now lives in ``chat`` (a migrated group); redraw its table there."""
    game.chat = chat
    return Outcome([views.table_effect(game)])


def languages(_: Translator, typed: str,
              use: str = N_("Idiomas: {choices}. Use /idioma en.")) -> str:
    """The languages to choose from (msgid ``use``), after "Idioma desconhecido: xx."
    when ``typed`` is not blank (it names no language: printable characters shown, cut
    after 12): the chat's ``/idioma xx`` and the terminal's ``idioma xx`` say the same."""
    text = _(use, choices=", ".join(f"{k} ({v})" for k, v in LANGS.items()))
    shown = echo(typed.strip(), TYPED_ECHO)
    if not shown:
        return text
    return _("Idioma desconhecido: {lang}.", lang=shown) + " " + text


def relabel(game: Game, lang: str) -> Outcome:
    """Switch the game's language and redraw its table and, in play, each person's hand
    (a trial found the hand on screen left in the old language until pressed). The
    versions stay: a button of the hand in the old language still works."""
    game.lang = lang
    people = hands.hand_effects(game, range(len(game.seats)))
    return Outcome([views.table_effect(game), *people])


def scoreboard_text(game: Game | None, rows: list[tuple[str, str, int, int, int]],
                    _: Translator, you: str | None = None) -> str:
    """``/placar``: the (current or last) match deal by deal with totals, then the
    chat's ranking (matches, wins, points). ``you``: the key of the one person of a
    one-person chat (the terminal): its ranking is not a group's, and it names that
    person ``"Você"`` in the chat's language."""
    lines: list[str] = []
    if game is not None and game.match is not None:
        state = play.deal_of(game)
        sides = [views.side_label(game, k, t, _) for k, t in enumerate(state.teams)]
        lines.append(_("Partida: {sides}", sides=" × ".join(sides)))
        for n, totals in enumerate(game.deals, start=1):
            lines.append(_("Mão {n}: {scores}", n=n, scores=" × ".join(map(str, totals))))
        totals = [sum(d[k] for d in game.deals) for k in range(len(sides))]
        lines.append(_("Total: {scores}", scores=" × ".join(map(str, totals))))
        if game.status == "over":
            lines += _standings(sides, totals, _)
    lines.append(_("Ranking do grupo:") if you is None else _("Ranking:"))
    if not rows:
        lines.append(_("(nenhuma partida terminada ainda)"))
    for k, (key, name, matches, wins, points) in enumerate(rows, start=1):
        name = _("Você") if key == you else name
        lines.append(_("{k}. {name}: partidas {matches}, vitórias {wins}, pontos {points}",
                       k=k, name=name, wins=wins, matches=matches, points=points))
    return "\n".join(lines)


def _standings(sides: list[str], totals: list[int], _: Translator) -> list[str]:
    """Every side of a finished match, best total first (ties share a place)."""
    lines = [_("Classificação da partida:")]
    ranked = sorted(zip(totals, sides, strict=True), key=lambda ts: -ts[0])
    for total, side in ranked:
        place = 1 + sum(1 for t in totals if t > total)
        lines.append(_("{k}. {side}: {n} pontos", k=place, side=side, n=total))
    return lines


def record_of(game: Game, earlier: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's record, exactly the engine's ``match.record(earlier)``
    (docs/record-format.md, replayable with ``engine.record.replay``); ``earlier`` is the
    stored record holding the deals that already left the game state."""
    return dict(play.match_of(game).record(earlier))


GUIDES = {"pt": "guia.md", "en": "guide.en.md", "it": "guida.it.md"}
"""The player's guide of each language, files of ``docs/`` (issue 30)."""


def guide_link(docs_url: str | None, lang: str) -> str:
    """Where the player's guide in ``lang`` is: ``<docs_url>/<file>`` (``DOCS_URL``, the
    address of a published ``docs/`` folder), or ``docs/<file>`` (its place in the bot's
    code) while no address is set. Unknown languages get the pt-BR guide."""
    name = GUIDES.get(lang, GUIDES["pt"])
    return f"{docs_url.rstrip('/')}/{name}" if docs_url else f"docs/{name}"


def help_text(_: Translator, guide: str | None = None) -> str:
    """``/ajuda``: the commands, and the player's guide at ``guide`` (a link or a path,
    :func:`guide_link`) when given."""
    return "\n".join([
        _("Comandos:"),
        _("/novojogo [variante] [opções] — abre uma mesa (ex.: /novojogo tranca target=3000)"),
        _("/entrar, /sair — entrar ou sair da mesa (saindo no meio, um robô joga por você "
          "enquanto alguém joga; sem ninguém, a mesa espera um /voltar e fecha em 24 h)"),
        _("/convidar [retirar código|todos] — um código para alguém de outro "
          "grupo ou plataforma sentar na mesa com /entrar código"),
        _("/procurar [variante] [2|4] [robos=minutos] — achar gente para jogar "
          "pela fila; /sairfila sai da fila"),
        _("/bloquear nome — a fila não põe mais você na mesa dessa pessoa"),
        _("/robo [facil|normal|dificil] — adiciona um robô"),
        _("/iniciar, /cancelar — começar ou cancelar"),
        _("/mao — sua mão (só você vê)"),
        _("/placar — placar da partida e ranking do grupo"),
        _("/regras [variante] — resumo das regras"),
        _("/voltar — retomar seu lugar depois de ausência"),
        _("/exportar — registro da última partida terminada"),
        _("/replay — rever a última partida terminada, mão a mão e jogada a jogada"),
        _("/dica — a jogada que o robô forte faria agora, e por quê (só você vê)"),
        _("/revisao [auto|off] — suas três decisões mais caras da última mão, em pontos "
          "(no privado); auto: a cada mão"),
        _("/verificar [jogo] — confere o embaralhamento de cada mão pela semente revelada"),
        _("/idioma [pt|en|it] — idioma do grupo"),
        _("/ranking [semana|mes|ano|sempre|geral] — ranking do grupo por período"),
        _("/perfil [@pessoa|publico|privado] — partidas, conquistas e rating"),
        _("/config — configuração do grupo (os admins mudam)"),
        _("/torneio [todos|mata] [duplas|individual] [variante] — abre um torneio no grupo; "
          "/torneio tabela mostra a classificação, /torneio cancelar o encerra"),
        *([_("Guia do jogador, com imagens: {link}", link=guide)] if guide else []),
    ])


def rules_for(args: str, table: Rules | None, default_timer: int, _: Translator,
              platform: str = "") -> str:
    """``/regras [args]``: with no ``args``, the rules of ``table`` (the chat's game, its
    options included) or those of the default table (RULES A0, ``bossa_nova``); a preset
    alone, its defaults; a preset with options (``"tranca target=3000"``), the rules a
    table opened so would play.
    :class:`Refusal` for an unknown preset or option, as ``/novojogo`` refuses them.
    ``platform``: where the options are told to go (:func:`rules_text`)."""
    if not args.strip() and table is not None:
        return rules_text(table, _, platform)
    preset, options, _timer, _shuffle = parse_args(args, default_timer)  # "": RULES A0
    return rules_text(rules_of(preset, options), _, platform)


def rules_summary(preset: str, _: Translator) -> str:
    """``/regras <preset>``: the main parameters of a preset with its default options
    (RULES §2); :class:`Refusal` for an unknown preset."""
    return rules_text(rules_of(play.preset_key(preset), {}), _)


OPTIONS_WHERE: dict[str, str] = {
    "cli": N_("Opções da mesa (--variant '{preset} opção=valor'): {options}"),
    "dc": N_("Opções da mesa (/novojogo, variante {preset}, em opcoes: opção=valor): "
             "{options}"),
}
"""How each platform takes a table's options (Discord: the ``opcoes`` field of its
``/novojogo``); any other (Telegram) types them after the variant."""
OPTIONS_TYPED = N_("Opções da mesa (/novojogo {preset} opção=valor): {options}")
TABLE_ONLY = ("timer", "shuffle")
"""Options of a group's table that the terminal has no use for (no turn timer, one
person): its ``regras`` leaves them out."""


def rules_text(rules: Rules, _: Translator, platform: str = "") -> str:
    """The main parameters of ``rules`` (RULES §2): a preset's defaults, or a table's
    rules with the options it was opened with (``/regras`` in a chat with a game);
    the options as ``platform`` takes them (:data:`OPTIONS_WHERE`; the terminal's
    without :data:`TABLE_ONLY`)."""
    lines = [views.PRESET_TITLES.get(rules.preset, rules.preset)]
    lines.append(_("Jogadores: {n}", n=", ".join(map(str, rules.players_allowed))))
    lines.append(_("Meta: {n} pontos", n=rules.target) if rules.target else _("Meta: uma mão"))
    lines.append(_("Com morto") if rules.morto else _("Sem morto"))
    lines.append(_("Lixo aberto") if rules.pile_open else _("Lixo fechado: justificar o topo"))
    lines.append(_("Sequências e trincas") if rules.sets_allowed else _("Só sequências"))
    if not rules.ace_low:  # tranca, RULES §2 "ace"
        lines.append(_("Ás só alto: Q-K-A, nunca A-2-3"))
    lines += [_(THREES[rule]) for rule in (rules.red_three, rules.black_three) if rule in THREES]
    lines += scoring_lines(rules, _)  # before the going-out lines, which end the rules
    lines.append(_("Batida: {n} pontos", n=rules.batida_bonus))
    lines.append(going_out_rule(rules, _))
    if rules.red_three == RedThree.DOLLAR:  # RULES A4 and its option (docs D22)
        lines.append(_("Dólar: +100 por canastra do lado, −100 sem canastra")
                     if rules.dollar_per_canastra else
                     _("Dólar: +100 cada com canastra, −100 sem "
                       "(opção dollar_per_canastra=true: +100 por canastra)"))
    offered = [o for o in play.options_for(rules.preset)
               if platform not in views.SOLO_PLATFORMS or o.split(" ")[0] not in TABLE_ONLY]
    lines.append(_(OPTIONS_WHERE.get(platform, OPTIONS_TYPED), preset=rules.preset,
                   options=", ".join(_(o) for o in offered)))
    chosen = options_of(rules)
    if chosen:  # where the table differs from the preset (engine options_of, RULES A22)
        lines.append(_("Nesta mesa: {options}", options=", ".join(
            f"{k}={typed_value(v)}" for k, v in chosen.items())))
    return "\n".join(lines)


def typed_value(value: Any) -> str:
    """An option's value as a person types it (``engine.options.coerce`` reads it back):
    ``true``/``false``, ``none`` for an option switched off (``vulnerable_at=none``, not
    Python's ``None``: a trial read it as a bug), else the value itself."""
    if isinstance(value, bool):
        return str(value).lower()
    return "none" if value is None else str(value)


def scoring_lines(rules: Rules, _: Translator) -> list[str]:
    """What decides a deal's score beyond the going-out (RULES C14, a trial found
    ``/regras`` silent on it): the card values (§2 "card points", A8), the canastra
    bonuses with the variant's special ones (C7, A12), an untaken morto, the relancinho
    (A21), the vulnerability (A22) and melds counted negative without a canastra (seed
    000 §9.5)."""
    if rules.card_points == CardPoints.FLAT_10:
        lines = [_("Valor das cartas: 10 cada")]
    elif rules.jokers:
        lines = [_("Valor das cartas: 3 a 7 = 5; 8 a K, 2 e curinga = 10; Ás = 15")]
    else:
        lines = [_("Valor das cartas: 3 a 7 = 5; 8 a K e 2 = 10; Ás = 15")]
    bonuses = [_("limpa {n}", n=rules.clean_bonus), _("suja {n}", n=rules.dirty_bonus)]
    bonuses += [f"{_(views.CANASTRA_LABELS.get(s.label, s.label))} {s.bonus}"
                for s in rules.special_canastras]
    lines.append(_("Canastras: {bonuses}", bonuses=" · ".join(bonuses)))
    if rules.morto and rules.morto_penalty:
        lines.append(_("Morto não pego: −{n}", n=rules.morto_penalty))
    if rules.relancinho_bonus:
        lines.append(_("Relancinho (baixar a mão toda de uma vez, sem jogos antes): +{n}",
                       n=rules.relancinho_bonus))
    if rules.vulnerable_at:
        lines.append(_("Lado com {at} pontos ou mais: a primeira baixada de cada jogador "
                       "na mão precisa de {n} pontos em cartas ({after} depois de uma "
                       "tentativa curta)",
                       at=rules.vulnerable_at, n=rules.vulnerable_min,
                       after=rules.vulnerable_min_after_fail))
    elif PRESETS[rules.preset].vulnerable_at:  # switched off at this table (RULES A22)
        lines.append(_("Sem vulnerabilidade: a primeira baixada da mão não tem mínimo"))
    if rules.no_canastra_negative:
        lines.append(_("Sem canastra, os jogos baixados contam negativo"))
    return lines


THREES: dict[str, str] = {
    RedThree.LAY_ALONE: N_("3 vermelho: baixado sozinho assim que chega, +100 com canastra, "
                           "−100 sem; nunca descartado"),
    BlackThree.BLOCKS_PILE: N_("3 preto: nunca entra em jogo; descartado, tranca o lixo "
                               "para o próximo"),
    BlackThree.KILLS_PILE: N_("3 preto (Tranca): nunca entra em jogo; descartado, tira o "
                              "lixo inteiro da mão"),
}
"""The 3s that are no ordinary card, in the players' words: tranca's red 3 (RULES A32)
and black 3 (A33), altaneira's Tranca (A6); the Dólar has its own line (A4)."""

REQUIRES: dict[str, str] = {
    Requirement.NONE: N_("não precisa de canastra"),
    Requirement.ANY_CANASTRA: N_("precisa de uma canastra (limpa ou suja)"),
    Requirement.CLEAN_CANASTRA: N_("precisa de uma canastra limpa"),
}
"""What a going-out needs (engine ``Requirement``), in the players' words."""


def going_out_rule(rules: Rules, _: Translator) -> str:
    """The rule that decides going out in ``rules`` (RULES §2 "going out", C13):
    ``"Para bater: não precisa de canastra."`` (buraco, A17); with a morto, what taking
    it and what ending the deal need (buraco_morto A17, bossa_nova A16, tranca,
    justificado, altaneira with A1's second morto), said once when they are the same
    (``"Para bater (e pegar o morto ou encerrar a mão): não precisa de canastra."``)."""
    end = _(REQUIRES[rules.end_requires])
    if not rules.morto:
        return _("Para bater: {end}.", end=end)
    if rules.morto_requires == rules.end_requires:  # one requirement: said once
        text = _("Para bater (e pegar o morto ou encerrar a mão): {end}.", end=end)
    else:
        text = _("Para bater e pegar o morto: {morto}; para bater e encerrar a mão: "
                 "{end}.", morto=_(REQUIRES[rules.morto_requires]), end=end)
    if rules.second_morto_direct_only:  # RULES A1
        text += " " + _("O segundo morto só sai numa batida sem descarte.")
    return text


def record_filename(gid: str, record: str) -> str:
    """``tranca-<id>.json``: a record's file is named after its variant (the record's
    ``variant``, docs/record-format.md; ``buraco`` when it cannot be read)."""
    try:
        variant = json.loads(record).get("variant")
    except (ValueError, AttributeError):
        variant = None
    name = variant if isinstance(variant, str) and variant.replace("_", "").isalnum() \
        else "buraco"
    return f"{name}-{gid}.json"
