"""``/config``: a group's saved house rules (issue 29 "Each group's settings"): the
default variant and its options for ``/novojogo``, the turn timer, the language, and who
may open tables. Kept in the chat's settings hash (``GameStore.set_setting``) under
``table``, ``timer``, ``lang`` and ``starters``; without them ``/novojogo`` opens the
bot's default table (RULES A0) with the service's turn timer, and anyone may open one.

Reading them is anyone's; changing them is a chat admin's (the adapter says who is).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import lobby, views
from bot.effects import ChatRef, Effect, PlayerRef, Reply
from bot.i18n import LANGS, N_, Translator, norm_lang
from bot.outcome import Refusal, echo
from bot.ports import GameStore
from bot.runner import UPDATE_TTL_S, GameRunner

WORDS = {"variante": "table", "variant": "table", "jogo": "table", "tempo": "timer",
         "timer": "timer", "idioma": "lang", "language": "lang", "lingua": "lang",
         "mesas": "starters", "tables": "starters", "tavoli": "starters",
         "dicas": "coach", "hints": "coach", "suggerimenti": "coach"}
"""``/config <word> ...`` (pt-BR, English, Italian) -> the setting it changes."""
STARTERS = {"todos": "all", "all": "all", "tutti": "all", "admins": "admins",
            "admin": "admins"}
SWITCH = {"on": "on", "sim": "on", "ligado": "on", "ligar": "on", "yes": "on", "si": "on",
          "sì": "on", "off": "off", "nao": "off", "não": "off", "desligado": "off",
          "desligar": "off", "no": "off"}
"""``/config dicas <word>`` (pt-BR, English, Italian) -> ``on`` or ``off`` (issue 37)."""
ADMINS_ONLY = N_("Neste grupo só os admins abrem mesas (/config mesas).")


@dataclass(frozen=True, slots=True)
class House:
    """A group's saved settings: ``table`` the default ``/novojogo`` arguments ("" the
    bot's default), ``timer`` seconds (None the service's), ``admins_only``."""

    table: str = ""
    timer: int | None = None
    admins_only: bool = False
    coach: bool = True
    """``/config dicas`` (issue 37): tables opened here have ``/dica`` and ``/revisao``
    (on unless the group turned them off; never at a table the queue formed)."""


async def house_of(store: GameStore, chat_key: str) -> House:
    """The group's saved settings (unset or unreadable ones: the defaults)."""
    table = await store.get_setting(chat_key, "table") or ""
    timer = await store.get_setting(chat_key, "timer")
    starters = await store.get_setting(chat_key, "starters")
    coach = await store.get_setting(chat_key, "coach")
    return House(table, int(timer) if timer and timer.isdigit() else None,
                 starters == "admins", coach != "off")


def table_args(house: House, args: str) -> str:
    """The ``/novojogo`` arguments to open: the saved table when none are typed; typed
    options alone (``target=2000``) go with the saved variant; a typed variant is taken
    as typed."""
    if not args.strip():
        return house.table
    first = house.table.split()[0] if house.table.split() else ""
    if "=" in args.split()[0] and first and "=" not in first:
        return f"{first} {args}"
    return args


class ConfigCalls(GameRunner):
    """``/config`` (see the module docstring); ``turn_timer_s`` is the service's."""

    turn_timer_s: int

    async def config(self, chat: ChatRef, user: PlayerRef, args: str = "",
                     is_admin: bool = False, *, update: str | None = None) -> list[Effect]:
        """``/config``: the group's settings; ``/config variante tranca target=3000``,
        ``/config tempo 60``, ``/config idioma en``, ``/config mesas admins|todos``
        change one (a chat admin only; ``/config variante`` alone goes back to the bot's
        default). Bad input is refused naming it, and nothing changes."""
        if not await self._fresh(update, chat):
            return []
        lang = await self._lang(chat)
        _ = Translator(lang)
        word, _sep, rest = args.strip().partition(" ")
        if not word:
            return [Reply(player=user, text=await self._shown(chat, _))]
        name = WORDS.get(word.lower())
        if name is None:
            return [Reply(player=user, text=_(
                "Não conheço a configuração {word}: use variante, tempo, idioma, mesas ou "
                "dicas.",
                word=echo(word)))]
        if not is_admin:
            return [Reply(player=user, text=_("Só os admins do grupo mudam a configuração."))]
        try:
            value = self._checked(name, rest.strip())
        except Refusal as err:
            return [Reply(player=user, text=err.render(_))]
        await self.store.set_setting(chat.key, name, value)
        if update is not None:
            await self.store.first_seen(update, UPDATE_TTL_S, chat.key)
        return [Reply(player=user, text=await self._shown(
            chat, Translator(value if name == "lang" else lang)))]

    def _checked(self, name: str, value: str) -> str:
        """The value to store for setting ``name``; :class:`Refusal` when it is bad."""
        if name == "table":
            if value:
                lobby.parse_args(value, self.turn_timer_s)  # refuses as /novojogo would
            return value
        if name == "timer":
            if not value.isdigit() or not lobby.MIN_TIMER_S <= int(value) <= lobby.MAX_TIMER_S:
                raise Refusal(N_("Tempo de jogada inválido: use de 15 a 3600 segundos."))
            return str(int(value))
        if name == "lang":
            code = norm_lang(value) if value else None
            if code is None:
                raise Refusal(N_("Idioma desconhecido: use pt, en ou it."))
            return code
        if name == "coach":
            switch = SWITCH.get(value.lower())
            if switch is None:
                raise Refusal(N_("Dicas: use on ou off."))
            return switch
        starters = STARTERS.get(value.lower())
        if starters is None:
            raise Refusal(N_("Quem abre mesas: use todos ou admins."))
        return starters

    async def _shown(self, chat: ChatRef, _: Translator) -> str:
        house = await house_of(self.store, chat.key)
        lang = await self._lang(chat)
        table = house.table or _("a padrão do bot")
        preset = lobby.parse_args(house.table, self.turn_timer_s)[0] if house.table else ""
        return "\n".join([
            _("Configuração do grupo:"),
            _("Variante padrão: {table}", table=(
                f"{views.PRESET_TITLES.get(preset, preset)} ({house.table})" if preset
                else table)),
            _("Tempo de jogada: {n} s", n=house.timer or self.turn_timer_s),
            _("Idioma: {lang}", lang=LANGS.get(lang, lang)),
            _("Quem abre mesas: {who}", who=_("admins") if house.admins_only else _("todos")),
            _("Dicas (/dica, /revisao) nas mesas novas: {state}",
              state=_("ligadas") if house.coach else _("desligadas")),
            _("Admins mudam com /config variante|tempo|idioma|mesas|dicas ..."),
        ])

    async def needs_admin_to_open(self, chat: ChatRef) -> bool:
        """Whether ``/novojogo`` in ``chat`` turns on the person being a chat admin (the
        group chose ``/config mesas admins``), so the adapter asks its platform only
        then."""
        return (await house_of(self.store, chat.key)).admins_only
