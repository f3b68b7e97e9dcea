"""The bot's commands, the same names and meanings on every platform (Telegram
``setMyCommands``, Discord slash commands), with their pt-BR descriptions (translated in
the ``chat`` domain, :mod:`adapters.delivery.i18n`).

A description is at most :data:`DESCRIPTION_MAX` characters in every language: Discord
refuses a longer one, and with it the whole list of commands
(``tests/test_commands_listed.py``)."""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from adapters.delivery.i18n import N_
from adapters.storage.budget import unavailable
from bot.effects import ChatRef, Effect, PlayerRef

DESCRIPTION_MAX = 100
"""Discord's limit for a slash command's (and an option's) description; Telegram's is
256 (``setMyCommands``)."""
COMMANDS: list[tuple[str, str]] = [
    ("novojogo", N_("Abrir uma mesa: /novojogo [variante] [opções]")),
    ("entrar", N_("Sentar na mesa aberta, ou em outra com um convite: /entrar [código]")),
    ("sair", N_("Sair da mesa (no meio da partida, /voltar retoma o lugar)")),
    ("robo", N_("Pôr um robô na mesa: /robo [facil|normal|dificil]")),
    ("iniciar", N_("Começar a partida")),
    ("mao", N_("Receber a sua mão no privado")),
    ("placar", N_("Placar da partida e ranking do grupo")),
    ("regras", N_("Regras de uma variante: /regras [variante]")),
    ("ajuda", N_("Como jogar com o bot")),
    ("cancelar", N_("Encerrar a mesa (quem abriu ou um admin)")),
    ("voltar", N_("Retomar o seu lugar do robô")),
    ("exportar", N_("Registro da partida terminada")),
    ("idioma", N_("Idioma do grupo: /idioma [pt|en|it]")),
    ("ranking", N_("Ranking do grupo: /ranking [semana|mes|ano|sempre|geral]")),
    ("perfil", N_("Seu perfil no grupo: /perfil [@pessoa|publico|privado]")),
    ("config", N_("Configuração do grupo: /config [variante|tempo|idioma|mesas] ...")),
    ("replay", N_("Rever a última partida terminada, jogada a jogada")),
    ("dica", N_("A jogada que o robô forte faria agora e por quê (só você vê)")),
    ("revisao", N_("Suas três decisões mais caras da última mão (no privado)")),
    ("torneio", N_("Torneio: /torneio [todos|mata] [duplas|individual] [variante] · tabela · "
                   "cancelar")),
    ("convidar", N_("Convidar alguém de outro grupo ou plataforma: /convidar [retirar]")),
    ("verificar", N_("Conferir o embaralhamento da última partida: /verificar [jogo]")),
    ("procurar", N_("Achar gente para jogar: /procurar [variante] [2|4] [robos=minutos]")),
    ("sairfila", N_("Sair da fila do /procurar")),
    ("bloquear", N_("Não cair mais na mesa de alguém pela fila: /bloquear nome")),
]
HAND_IN_PRIVATE = N_("Sua mão está no privado.")
GENERIC_ERROR = N_("Algo deu errado. Confira a mesa e tente de novo.")
"""Told to a person whose command or button failed in a way nobody foresaw (an exception
out of the service or the delivery), instead of silence or "Feito.". It does not say
whether anything changed: the failure may come after the game was saved (a delivery that
failed), so the person is sent to the table, which shows what holds."""
TRY_AGAIN = N_("O servidor do jogo não respondeu a tempo e a sua jogada não foi feita. Aperte de novo daqui a alguns segundos.")  # noqa: E501
"""Told instead of :data:`GENERIC_ERROR` when the call failed because Redis stayed
unreachable past the failover budget (issue 36, :func:`failure_text`): the press was
refused before anything was saved, so the same button works when pressed again."""
Call = Callable[..., Awaitable[list[Effect]]]


def failure_text(error: BaseException | None) -> str:
    """The msgid a person is told when their call failed with ``error``:
    :data:`TRY_AGAIN` when the store was unreachable
    (:func:`adapters.storage.budget.unavailable`), else :data:`GENERIC_ERROR`."""
    return TRY_AGAIN if error is not None and unavailable(error) else GENERIC_ERROR
SIMPLE = {"entrar": "join", "sair": "leave", "iniciar": "start", "mao": "show_hand",
          "placar": "scoreboard", "voltar": "come_back", "exportar": "export",
          "replay": "replay", "dica": "hint"}


async def run_command(service: Any, name: str, chat: ChatRef, user: PlayerRef, args: str,
                      admin: bool, key: str) -> list[Effect]:
    """Call the service for command ``name`` (any of :data:`COMMANDS`; unknown names get
    the help) with its ``args`` text; ``admin``: the person may close any table; ``key``:
    the platform update's idempotency key. ``args`` is read in Unicode's composed form
    (NFC): a keyboard that sends "í" as "i" and a combining accent (a trial: ``/robo
    Difícil`` was "Nível desconhecido") types what the same letters typed composed do."""
    s, args = service, unicodedata.normalize("NFC", args)
    if name == "entrar" and args.strip():  # issue 35: a code joins its table from here
        return list(await s.join_code(chat, user, args, update=key))
    if name in ("procurar", "sairfila", "bloquear"):  # issue 35: the queue
        if name == "sairfila":
            return list(await s.unseek(chat, user, update=key))
        seek: Call = s.seek if name == "procurar" else s.block
        return list(await seek(chat, user, args, update=key))
    if name == "revisao":  # issue 37: /revisao [auto|off]
        return list(await s.review(chat, user, args, update=key))
    if name == "convidar":
        return list(await s.invite(chat, user, args, update=key))
    if name in SIMPLE:
        call: Call = getattr(s, SIMPLE[name])
        return list(await call(chat, user, update=key))
    if name == "novojogo":
        return list(await s.new_game(chat, user, args, is_admin=admin, update=key))
    if name == "torneio":  # issue 29 (bot/season/tournament/calls.py)
        return list(await s.tournament(chat, user, args, is_admin=admin, update=key))
    if name == "config":  # issue 29 (bot/season/config.py)
        return list(await s.config(chat, user, args, is_admin=admin, update=key))
    if name == "robo":
        return list(await s.add_ai(chat, user, args, update=key))
    if name == "idioma":
        return list(await s.set_language(chat, user, args, update=key))
    if name == "regras":
        return list(await s.rules_text(chat, user, args))
    if name in ("ranking", "perfil"):  # issue 29 (bot/season/calls.py)
        call = s.ranking if name == "ranking" else s.profile
        return list(await call(chat, user, args, update=key))
    if name == "cancelar":
        return list(await s.cancel(chat, user, is_admin=admin, update=key))
    if name == "verificar":  # issue 35 (bot/verify_calls.py)
        return list(await s.verify_deal(chat, user, args, update=key))
    return list(await s.help(chat, user))
