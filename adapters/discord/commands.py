"""Slash commands: the same names and meanings as on Telegram
(:data:`adapters.delivery.commands.COMMANDS`), descriptions localized through an
``app_commands.Translator`` fed from the gettext catalogs (pt-BR is the source text, so
``pt-BR`` needs no catalog; ``en-US``/``en-GB`` read the English one, ``it`` the Italian).
Variant and level are ``choices``, so Discord shows a list.

Every option is taken as the text it carries (``str``), never as a
``app_commands.Choice``: a value outside the choices (a client with an older list of
commands, a hand-made request) reaches the service as a typed Telegram argument does and
gets its answer ("Variante desconhecida: …", "Nível desconhecido…", "Idioma
desconhecido…"), instead of discord.py's ``TransformerError`` before the call (issue 30).
``/mao`` with a mode other than ``dm`` shows the hand here, as ``/mao xyz`` does on
Telegram.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from adapters.delivery.commands import COMMANDS
from adapters.delivery.i18n import N_, Texts
from engine.rules import PRESETS

DESCRIPTIONS = dict(COMMANDS)
LOCALES = {discord.Locale.american_english: "en", discord.Locale.british_english: "en",
           discord.Locale.italian: "it"}
VARIANTS = [app_commands.Choice(name=name, value=name) for name in PRESETS]
LEVELS = [app_commands.Choice(name=name, value=name) for name in ("facil", "normal", "dificil")]
LANGUAGES = [app_commands.Choice(name=name, value=code) for code, name in
             (("pt", "Português (Brasil)"), ("en", "English"), ("it", "Italiano"))]
MODES = [app_commands.Choice(name="dm", value="dm")]
OPTIONS_HELP = N_("Opções, ex.: target=3000 jokers=true")
VARIANT_HELP = N_("Variante do jogo")
LEVEL_HELP = N_("Nível do robô")
MODE_HELP = N_("dm: receber a mão por mensagem direta")
LANG_HELP = N_("Idioma do grupo")
PERIODS = [app_commands.Choice(name=name, value=name)
           for name in ("semana", "mes", "ano", "sempre", "geral")]
VISIBILITY = [app_commands.Choice(name=name, value=name) for name in ("publico", "privado")]
SETTINGS = [app_commands.Choice(name=name, value=name)
            for name in ("variante", "tempo", "idioma", "mesas", "dicas")]
SETTING_HELP = N_("O que mudar (só admins)")
VALUE_HELP = N_("O novo valor, ex.: tranca target=3000, 60, en, admins, off")
PERIOD_HELP = N_("Período do ranking")
PERSON_HELP = N_("De quem é o perfil")
VISIBILITY_HELP = N_("publico: aparecer no ranking geral; privado: sair dele")
SIZES = [app_commands.Choice(name=n, value=n) for n in ("2", "4")]
SIZE_HELP = N_("Mesa de 2 ou de 4")
ROBOTS_HELP = N_("Robôs completam a mesa depois de tantos minutos (1 a 10)")
NAME_HELP = N_("O nome de alguém desta mesa")
CODE_HELP = N_("Código de um convite (/convidar), para entrar na mesa de outro grupo")
WITHDRAW_HELP = N_("Código do convite a retirar (todos: escreva todos)")
TOURNAMENT_HELP = N_("todos|mata duplas|individual variante alvo=N wo=minutos; ou tabela, "
                     "cancelar")
GAME_HELP = N_("O código do jogo (do arquivo de /exportar); sem ele, a última partida")


class GettextTranslator(app_commands.Translator):
    """discord.py's translator over the project's gettext catalogs (``chat`` domain)."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The translation of ``string`` for ``locale``, or None (Discord shows pt-BR)."""
        lang = LOCALES.get(locale)
        if lang is None:
            return None
        text = Texts(lang)(string.message)
        return text if text != string.message else None


class Commands(Protocol):
    """What the commands call on the client (:class:`adapters.discord.app.BuracoClient`)."""

    async def command(self, interaction: discord.Interaction[Any], name: str,
                      args: str = "", dm: bool = False) -> None:
        """Run command ``name`` with ``args`` for the interaction."""
        ...


def _d(name: str) -> locale_str:
    return locale_str(DESCRIPTIONS[name])


def install(tree: app_commands.CommandTree[Any], bot: Commands) -> None:
    """Add every command to ``tree`` (guild-only: games live in channels)."""
    for simple in ("sair", "iniciar", "placar", "ajuda", "cancelar", "voltar",
                   "exportar", "replay", "sairfila", "dica", "revisao"):
        tree.add_command(_simple(simple, bot))

    @tree.command(name="entrar", description=_d("entrar"))
    @app_commands.guild_only()
    @app_commands.describe(codigo=locale_str(CODE_HELP))
    async def entrar(interaction: discord.Interaction[Any], codigo: str | None = None) -> None:
        await bot.command(interaction, "entrar", typed(codigo))  # issue 35: a code

    @tree.command(name="procurar", description=_d("procurar"))
    @app_commands.guild_only()
    @app_commands.describe(variante=locale_str(VARIANT_HELP), jogadores=locale_str(SIZE_HELP),
                           robos=locale_str(ROBOTS_HELP))
    @app_commands.choices(variante=VARIANTS, jogadores=SIZES)
    async def procurar(interaction: discord.Interaction[Any], variante: str | None = None,
                       jogadores: str | None = None, robos: str | None = None) -> None:
        args = " ".join(part for part in (typed(variante), typed(jogadores),
                                          f"robos={typed(robos)}" if robos else "") if part)
        await bot.command(interaction, "procurar", args)  # issue 35: the queue

    @tree.command(name="bloquear", description=_d("bloquear"))
    @app_commands.guild_only()
    @app_commands.describe(nome=locale_str(NAME_HELP))
    async def bloquear(interaction: discord.Interaction[Any], nome: str) -> None:
        await bot.command(interaction, "bloquear", typed(nome))

    @tree.command(name="convidar", description=_d("convidar"))
    @app_commands.guild_only()
    @app_commands.describe(retirar=locale_str(WITHDRAW_HELP))
    async def convidar(interaction: discord.Interaction[Any],
                       retirar: str | None = None) -> None:
        args = f"retirar {typed(retirar)}".strip() if retirar is not None else ""
        await bot.command(interaction, "convidar", args)

    @tree.command(name="novojogo", description=_d("novojogo"))
    @app_commands.guild_only()
    @app_commands.describe(variante=locale_str(VARIANT_HELP), opcoes=locale_str(OPTIONS_HELP))
    @app_commands.choices(variante=VARIANTS)
    async def novojogo(interaction: discord.Interaction[Any], variante: str | None = None,
                       opcoes: str | None = None) -> None:
        args = " ".join(part for part in (typed(variante), typed(opcoes)) if part)
        await bot.command(interaction, "novojogo", args)

    @tree.command(name="robo", description=_d("robo"))
    @app_commands.guild_only()
    @app_commands.describe(nivel=locale_str(LEVEL_HELP))
    @app_commands.choices(nivel=LEVELS)
    async def robo(interaction: discord.Interaction[Any], nivel: str | None = None) -> None:
        await bot.command(interaction, "robo", typed(nivel))

    @tree.command(name="mao", description=_d("mao"))
    @app_commands.guild_only()
    @app_commands.describe(modo=locale_str(MODE_HELP))
    @app_commands.choices(modo=MODES)
    async def mao(interaction: discord.Interaction[Any], modo: str | None = None) -> None:
        await bot.command(interaction, "mao", dm=typed(modo).lower() == "dm")

    @tree.command(name="regras", description=_d("regras"))
    @app_commands.describe(variante=locale_str(VARIANT_HELP))
    @app_commands.choices(variante=VARIANTS)
    async def regras(interaction: discord.Interaction[Any], variante: str | None = None) -> None:
        await bot.command(interaction, "regras", typed(variante))

    @tree.command(name="idioma", description=_d("idioma"))
    @app_commands.guild_only()
    @app_commands.describe(idioma=locale_str(LANG_HELP))
    @app_commands.choices(idioma=LANGUAGES)
    async def idioma(interaction: discord.Interaction[Any], idioma: str | None = None) -> None:
        await bot.command(interaction, "idioma", typed(idioma))


    _season(tree, bot)


def typed(value: object) -> str:
    """An option's value as the text a person would have typed: ``""`` when absent; a
    value of another type (an older command's integer option) as its text."""
    return "" if value is None else str(value).strip()


def _season(tree: app_commands.CommandTree[Any], bot: Commands) -> None:
    """``/ranking`` and ``/perfil`` (issue 29): the period and the visibility as choices,
    the person as a member option (sent to the service as a mention, ``<@id>``)."""

    @tree.command(name="ranking", description=_d("ranking"))
    @app_commands.guild_only()
    @app_commands.describe(periodo=locale_str(PERIOD_HELP))
    @app_commands.choices(periodo=PERIODS)
    async def ranking(interaction: discord.Interaction[Any],
                      periodo: str | None = None) -> None:
        await bot.command(interaction, "ranking", typed(periodo))

    @tree.command(name="perfil", description=_d("perfil"))
    @app_commands.guild_only()
    @app_commands.describe(pessoa=locale_str(PERSON_HELP),
                           visibilidade=locale_str(VISIBILITY_HELP))
    @app_commands.choices(visibilidade=VISIBILITY)
    async def perfil(interaction: discord.Interaction[Any], pessoa: discord.Member | None = None,
                     visibilidade: str | None = None) -> None:
        args = typed(visibilidade) or (f"<@{pessoa.id}>" if pessoa else "")
        await bot.command(interaction, "perfil", args)

    @tree.command(name="config", description=_d("config"))
    @app_commands.guild_only()
    @app_commands.describe(ajuste=locale_str(SETTING_HELP), valor=locale_str(VALUE_HELP))
    @app_commands.choices(ajuste=SETTINGS)
    async def config(interaction: discord.Interaction[Any],
                     ajuste: str | None = None, valor: str = "") -> None:
        await bot.command(interaction, "config", f"{typed(ajuste)} {valor}".strip())

    @tree.command(name="torneio", description=_d("torneio"))
    @app_commands.guild_only()
    @app_commands.describe(opcoes=locale_str(TOURNAMENT_HELP))
    async def torneio(interaction: discord.Interaction[Any], opcoes: str = "") -> None:
        await bot.command(interaction, "torneio", opcoes)

    @tree.command(name="verificar", description=_d("verificar"))
    @app_commands.guild_only()
    @app_commands.describe(jogo=locale_str(GAME_HELP))
    async def verificar(interaction: discord.Interaction[Any], jogo: str | None = None) -> None:
        await bot.command(interaction, "verificar", typed(jogo))


def _simple(name: str, bot: Commands) -> app_commands.Command[Any, Any, None]:
    async def run(interaction: discord.Interaction[Any]) -> None:
        await bot.command(interaction, name)

    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=name, description=_d(name), callback=run)
    if name != "ajuda":
        command.guild_only = True
    return command
