"""The command line's parser (``python -m bot``, :mod:`bot.__main__`): its commands and
options, their checks and the settings each command reads, in the operator's language."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from bot.i18n import DEFAULT_LANG, Translator, norm_lang
from bot.model import norm_level
from bot.outcome import MAX_ECHO, echo
from bot.startup import (
    Words,
)
from bot.variants import DEFAULT_PRESET

MAX_PAUSE_S = 60.0


def _variant(text: str) -> str:
    """``--variant``: a non-empty preset name (and options)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(Words._("diga a variante, ex.: --variant tranca"))
    return text


def engine_kind() -> str:
    """Which rules engine runs (issue 13), for the servers' start-up log line."""
    import engine

    return "compiled (mypyc, .native/)" if engine.NATIVE else "pure Python"


def _pause(text: str) -> float:
    """``--pause``: seconds between AI moves, 0 to 60."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            Words._("número de segundos inválido: {text}", text=repr(echo(text)))) from None
    if not 0 <= value <= MAX_PAUSE_S:
        raise argparse.ArgumentTypeError(Words._("use de 0 a {max} segundos",
                                                  max=f"{MAX_PAUSE_S:g}"))
    return value


def _players(text: str) -> int:
    """``--players``: a whole number; whether the variant plays with that many is the
    game's own check ("Esta variante joga com ... a mesa tem N."), which repeats it, so
    one longer than :data:`bot.outcome.MAX_ECHO` digits is refused here, echoed cut."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or len(str(value)) > MAX_ECHO:
        raise argparse.ArgumentTypeError(
            Words._("número de jogadores inválido: {text}", text=repr(echo(text))))
    return value


def _levels(text: str) -> list[str]:
    """``--robos``: AI levels, one for every robot or one per robot seat
    (``facil``, ``normal``, ``dificil``; accents and English accepted)."""
    parts = [part.strip() for part in text.split(",")]
    levels = [norm_level(part) if part else None for part in parts]
    if any(lv is None for lv in levels):
        raise argparse.ArgumentTypeError(Words._(
            "nível inválido: {text} (use facil, normal ou dificil, ex.: --robos dificil "
            "ou --robos facil,dificil)", text=repr(echo(text))))
    return [lv for lv in levels if lv is not None]


def _language(text: str) -> str:
    """``--idioma``: pt, en or it (``pt-BR``, ``english`` ... accepted)."""
    code = norm_lang(text)
    if code is None:
        raise argparse.ArgumentTypeError(Words._("idioma inválido: {text} (use pt, en ou it)",
                                                  text=repr(echo(text))))
    return code


OPTIONAL_SETTINGS = {
    "telegram": ("WEBHOOK_URL", "WEBHOOK_SECRET", "WEBHOOK_PORT", "TELEGRAM_BASE_URL",
                 "TELEGRAM_POLL_INTERVAL"),
    "discord": ("DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS", "DISCORD_API_BASE"),
    "serve": ("WEBHOOK_URL", "TELEGRAM_POLL_INTERVAL", "DISCORD_SHARD_COUNT"),
}
"""Each chat command's own optional settings named in its ``--help`` (the shared ones,
:data:`SHARED_SETTINGS`, follow); every one is in ``.env.example`` and docs/operator.md."""

SHARED_SETTINGS = ("WEB_PORT", "WEB_PUBLIC_URL", "METRICS_PORT", "TURN_TIMER_S", "AI_PACE_S",
                   "DOCS_URL", "LOG_LEVEL")


def _settings_help(_: Translator, command: str) -> dict[str, Any]:
    """``add_parser`` keywords giving ``command`` (telegram, discord, serve) a ``--help``
    that says where the settings come from (the environment or ``.env``, the model
    ``.env.example``, docs/operator.md), which are required and which matter most, in
    the operator's language (issue 38: the help named no setting)."""
    required = {
        "telegram": _("Obrigatória: TELEGRAM_TOKEN (o token que o @BotFather dá)."),
        "discord": _("Obrigatória: DISCORD_TOKEN (o token da página \"Bot\" do Developer "
                     "Portal)."),
        "serve": _("Obrigatória: TELEGRAM_TOKEN e/ou DISCORD_TOKEN (roda cada plataforma "
                   "com token)."),
    }[command]
    paragraphs = [
        _("Configuração: variáveis de ambiente, ou um arquivo .env no diretório de onde o "
          "bot parte (o ambiente vence). O modelo .env.example, na raiz do repositório, "
          "traz todas, com faixa e padrão; docs/operator.md (\"Settings\") explica cada "
          "uma."),
        required,
        _("Recomendada: REDIS_URL (ex.: redis://127.0.0.1:6379/0), onde ficam os jogos; "
          "sem ela, um armazenamento embutido que perde tudo quando o processo para."),
        _("Opcionais: {names}.", names=", ".join((*OPTIONAL_SETTINGS[command],
                                                  *SHARED_SETTINGS))),
    ]
    text = "\n\n".join(textwrap.fill(p, 79) for p in paragraphs)
    return {"epilog": text, "formatter_class": argparse.RawDescriptionHelpFormatter}


def build_parser(_: Translator | None = None) -> argparse.ArgumentParser:
    """The command line, its help in the language of ``_`` (pt-BR by default)."""
    _ = _ or Translator(DEFAULT_LANG)
    parser = argparse.ArgumentParser(prog="python -m bot",
                                     description=_("Bot de Buraco (Telegram, Discord, terminal)"))
    sub = parser.add_subparsers(dest="command", required=True, metavar=_("COMANDO"),
                                title=_("comandos"))
    play = sub.add_parser("play", help=_("jogar no terminal contra robôs"))
    play.add_argument("--variant", default=DEFAULT_PRESET, type=_variant, metavar=_("VARIANTE"),
                      help=_("bossa_nova (padrão), buraco_morto, buraco, tranca, justificado, "
                             "altaneira (e opções, ex.: 'tranca target=3000')"))
    play.add_argument("--players", type=_players, default=None, metavar="N",
                      help=_("número de lugares (os que a variante aceita: 2, 3, 4 ou 6)"))
    play.add_argument("--robos", "--robots", dest="levels", type=_levels, default=["normal"],
                      metavar=_("NIVEIS"),
                      help=_("nível dos robôs: facil, normal ou dificil; um para todos ou um "
                             "por robô, separados por vírgula (padrão: normal)"))
    play.add_argument("--pause", type=_pause, default=0.6, metavar="S",
                      help=_("segundos entre jogadas dos robôs (0 a 60)"))
    play.add_argument("--idioma", "--language", dest="lang", type=_language, default=None,
                      metavar=_("IDIOMA"),
                      help=_("pt, en ou it (padrão: o da variável LANG, senão pt)"))
    sub.add_parser("telegram", help=_("rodar o bot do Telegram"),
                   **_settings_help(_, "telegram"))
    dc = sub.add_parser("discord", help=_("rodar o bot do Discord"),
                        **_settings_help(_, "discord"))
    dc.add_argument("--sync", action="store_true",
                    help=_("registrar os comandos de barra e sair (só quando mudarem)"))
    dc.add_argument("--guild", type=int, default=None, metavar="ID",
                    help=_("com --sync: registrar só neste servidor (ID), na hora"))
    sub.add_parser("serve", help=_("rodar todas as plataformas com token definido"),
                   **_settings_help(_, "serve"))
    sub.add_parser("ratings-rebuild",
                   help=_("recalcular os ratings a partir das partidas guardadas"))
    return parser
