"""Settings from the environment (pydantic-settings); ``Settings()`` reads them.

Names are the environment variables themselves (case-insensitive); a ``.env`` file in
the working directory is read too. None is required for terminal play. A bad value is
refused at start-up with one line naming the variable and what it accepts
(:func:`settings_error`); the ranges are in docs/operator.md "Settings" and
``.env.example``.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, get_args, get_origin
from urllib.parse import urlparse

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import N_, Translator
from bot.outcome import echo

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
RedisMode = Literal["single", "cluster", "sentinel"]
_UNITS = {"turn_timer_s", "ai_pace_s", "telegram_poll_interval", "invite_ttl_s",
          "queue_ttl_s"}  # in seconds
_MODELS: dict[str, type[BaseSettings]] = {}
"""Adapters' own settings models by class name (:func:`described`), whose fields'
ranges the refusal lines tell as they do :class:`Settings`'."""


M = TypeVar("M", bound=type[BaseSettings])


def described(model: M) -> M:
    """Class decorator: :func:`settings_error` describes ``model``'s fields (an adapter's
    own settings, e.g. ``TelegramTuning``) from their bounds, as it does
    :class:`Settings`' ("use um número de 0 a 10 (segundos)")."""
    _MODELS[model.__name__] = model
    return model


class Settings(BaseSettings):
    """Process settings. ``redis_url`` None runs on the embedded fakeredis store.

    ``turn_timer_s`` 10 to 86,400 s (the default turn time; a group's ``timer=`` option
    takes 15 to 3,600), ``ai_pace_s`` 0 to 60 s, ``webhook_port`` 1 to 65,535,
    ``log_level`` one of DEBUG, INFO, WARNING, ERROR, CRITICAL.

    Redis (issue 28, docs/deploy.md): ``redis_mode`` ``single`` (one Redis at
    ``redis_url``), ``cluster`` (``redis_url`` names any node of a Redis Cluster) or
    ``sentinel`` (``redis_sentinels`` ``host:port,host:port,...`` and
    ``redis_sentinel_master``; the password, user, TLS and db of ``redis_url`` when given,
    else ``redis_password`` / ``redis_db``); ``redis_timer_sets`` 1 to 1,024 sorted sets
    of deadlines (raise it on a running deployment, never lower it)."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    redis_url: str | None = None
    redis_mode: RedisMode = "single"
    redis_sentinels: str | None = Field(default=None, validate_default=True)
    redis_sentinel_master: str | None = Field(default=None, validate_default=True)
    redis_sentinel_password: str | None = None
    """The sentinels' own password (``requirepass`` of the sentinel processes), if any."""
    redis_password: str | None = None
    redis_db: int | None = Field(default=None, ge=0, le=1_000_000)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Port of the operator's endpoints (adapters/ops: ``/metrics``, ``/health/live``,
    ``/health/ready``); unset: none served."""
    redis_timer_sets: int = Field(default=1, ge=1, le=1024)
    """How many sorted sets hold the games' deadlines (adapters/storage/timers.py): 1 is
    the one ``<prefix>:timers`` key; more cut them by slot range, so on a cluster each
    game's deadline sits on its own node (issue 36: a multiple of the primaries)."""
    redis_prefix: str = Field(default="buraco", pattern=r"^[A-Za-z0-9_.-]{1,40}$")
    """First part of every key (several bots, or test runs, can share one Redis)."""
    telegram_token: str | None = None
    discord_token: str | None = None
    telegram_base_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/\S*)?$")
    webhook_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/\S*)?$")
    """Telegram posts updates only to an ``https://`` address; a Bot API server of one's
    own (``telegram_base_url``, run with ``--local``) to ``http://`` too."""
    webhook_secret: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,256}$")
    """What the Bot API accepts as ``secret_token``: 1 to 256 of ``A-Z a-z 0-9 _ -``."""
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    docs_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/\S*)?$")
    """Address of the published ``docs/`` folder: ``/ajuda`` links the player's guide
    there (``<docs_url>/guia.md``); unset, it names ``docs/guia.md``."""
    web_port: int | None = Field(default=None, ge=1, le=65535)
    """Port of the web table (adapters/web, docs/web.md); unset: no web table, and the
    chat views carry no link to it."""
    web_listen: str = "0.0.0.0"
    web_public_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/\S*)?$",
                                       validate_default=True)
    """The page's public address (HTTPS in front of ``web_port``), to build the links."""
    web_secret: str | None = Field(default=None, min_length=16)
    """Key of the web table's signed links and sessions (the same in every worker);
    unset: derived from the bot tokens."""
    telegram_webapp: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    """Short name of the Mini App registered with @BotFather (``/newapp``): the links
    become ``https://t.me/<bot>/<app>?startapp=<game>``."""
    telegram_main_app: bool = False
    """The bot's main Mini App (@BotFather: "Bot Settings" > "Configure Mini App") opens
    the web table: without ``telegram_webapp``, the links become
    ``https://t.me/<bot>?startapp=...`` (issue 35: ``/convidar``'s Mini App link)."""
    discord_client_id: str | None = Field(default=None, pattern=r"^[0-9]{5,20}$")
    """The Discord application's id (Developer Portal, "OAuth2"): with
    ``discord_client_secret``, the web table runs as a Discord Activity (docs/web.md)."""
    discord_client_secret: str | None = Field(default=None, min_length=8)
    """The application's OAuth2 client secret: exchanges an Activity's authorization
    code for the person's identity (never logged)."""
    discord_activity: bool = False
    """The application has Activities enabled (Developer Portal, "Activities"): "Abrir a
    mesa" launches the Activity in the channel (else it is the signed link)."""
    turn_timer_s: int = Field(default=90, ge=10, le=86_400)
    ai_pace_s: float = Field(default=1.0, ge=0, le=60, allow_inf_nan=False)
    invite_ttl_s: int = Field(default=1800, ge=60, le=86_400)
    """Seconds a ``/convidar`` code seats someone (issue 35, bot/invites.py)."""
    queue_ttl_s: int = Field(default=600, ge=60, le=3_600)
    """Seconds a ``/procurar`` entry waits for a table before it expires, with a message
    (issue 35, bot/matchmaking.py)."""
    log_level: LogLevel = "INFO"
    state_codec: Literal["z1", "z2", "z3"] = "z3"
    """How game states are written (bot.model.encode, :data:`bot.model.DEFAULT_CODEC`):
    ``z3`` by default (issue 13, Zstandard: its compression 2-3x cheaper to write and read
    than ``z2``'s, 20% smaller), which the release before this one reads too, so a rolling
    deploy from it never meets a state an old worker cannot read; ``z2`` for a rolling
    deploy from a release that reads no ``z3`` (its start-up line lists no forms); ``z1``
    for one from a release older than ``z2`` (docs/deploy.md "Rolling
    deploys"). Every form is read either way."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("webhook_url", "webhook_secret", "telegram_base_url", "redis_url",
                     "docs_url", "web_port", "web_public_url", "web_secret",
                     "telegram_webapp", "discord_client_id", "discord_client_secret",
                     mode="before")
    @classmethod
    def _unset_when_empty(cls, value: Any) -> Any:
        """``WEBHOOK_URL=`` (as a copied ``.env.example`` leaves it) means unset."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("state_codec", "redis_mode", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("telegram_base_url", "webhook_url", "docs_url", "web_public_url")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        return checked_address(value)

    @field_validator("webhook_url")
    @classmethod
    def _https_for_telegram(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value and value.startswith("http://") and not info.data.get("telegram_base_url"):
            raise PydanticCustomError("https_only", "https only")
        return value

    @field_validator("web_public_url")
    @classmethod
    def _web_needs_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("web_port") and not value:
            raise _redis_error(N_("com WEB_PORT, defina WEB_PUBLIC_URL, o endereço público "
                                  "da mesa (ex.: https://mesa.example.org/)"))
        return value

    @field_validator("redis_mode")
    @classmethod
    def _mode_needs(cls, value: str, info: ValidationInfo) -> str:
        if value == "cluster" and not info.data.get("redis_url"):
            raise _redis_error(N_("com cluster, defina REDIS_URL com o endereço de um nó "
                                  "(ex.: redis://10.0.0.1:6379)"))
        return value

    @field_validator("redis_sentinels")
    @classmethod
    def _sentinels(cls, value: str | None, info: ValidationInfo) -> str | None:
        sentinel = info.data.get("redis_mode") == "sentinel"
        if not value or not value.strip():
            if sentinel:
                raise _redis_error(N_("com REDIS_MODE=sentinel, use host:porta,host:porta "
                                      "(ex.: 10.0.0.1:26379,10.0.0.2:26379)"))
            return None
        if not sentinel:
            raise _redis_error(N_("vale só com REDIS_MODE=sentinel"))
        try:
            sentinel_addresses(value)
        except ValueError:
            raise _redis_error(N_("use host:porta,host:porta (ex.: "
                                  "10.0.0.1:26379,10.0.0.2:26379)")) from None
        return value

    @field_validator("redis_sentinel_master")
    @classmethod
    def _master(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("redis_mode") == "sentinel" and not (value and value.strip()):
            raise _redis_error(N_("com REDIS_MODE=sentinel, diga o nome do primário que "
                                  "os sentinelas vigiam (ex.: mymaster)"))
        return value.strip() if value else None


def checked_address(value: str | None) -> str | None:
    """``value`` (an ``http(s)://`` setting the field's pattern let through) when it names
    a host and, if any, a port of 1 to 65,535; else raises ``PydanticCustomError``
    (``https://:80/``, ``https://h:99999/``, ``https://h:-1/`` passed the pattern and
    failed only when used, issue 30 operator trial O4)."""
    if value:
        try:
            url = urlparse(value)
            port = url.port
        except ValueError:
            raise PydanticCustomError("bad_address", "bad address") from None
        if not url.hostname or port == 0:
            raise PydanticCustomError("bad_address", "bad address")
    return value


def sentinel_addresses(text: str) -> list[tuple[str, int]]:
    """``"h1:26379, h2:26379"`` as ``[("h1", 26379), ("h2", 26379)]`` (a bracketed IPv6
    host ``[::1]:26379`` too). Raises ValueError for an empty entry, a missing host or a
    port that is not 1 to 65,535."""
    out: list[tuple[str, int]] = []
    for part in text.split(","):
        host, sep, port = part.strip().rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"not host:port: {part!r}")
        out.append((host, int(port)))
    return out


def _redis_error(text: str) -> PydanticCustomError:
    """A Redis setting's refusal: ``text`` (a pt-BR msgid) says what it needs."""
    return PydanticCustomError("redis_setting", "{text}", {"text": text})


def settings_error(err: ValidationError, _: Translator | None = None) -> str:
    """One line for the operator (in the language of ``_``, pt-BR by default, like the
    other start-up errors): each bad variable, the value given and what it accepts, e.g.
    ``"TURN_TIMER_S inválido ('5'): use um número inteiro de 10 a 86400 (segundos)."``"""
    _ = _ or Translator()
    fields = _MODELS.get(err.title, Settings).model_fields
    return " ".join(_one(e, _, fields) for e in err.errors())


SECRET = {"webhook_secret", "webhook_url", "telegram_token", "discord_token", "redis_url",
          "redis_password", "redis_sentinel_password", "web_secret", "discord_client_secret"}
"""Settings whose value is never echoed in a line (it is, or may hold, a secret: a
webhook URL's path often carries one)."""


def _one(error: Any, _: Translator, fields: dict[str, Any]) -> str:
    name = str(error["loc"][0]) if error["loc"] else "?"
    field = fields.get(name)
    given = error.get("input")
    if error.get("type") == "redis_setting":
        shown = f" ({echo(given)!r})" if isinstance(given, str) and name != "redis_url" else ""
        return _("{name} inválido{shown}: {accepts}.", name=name.upper(), shown=shown,
                 accepts=_(error["ctx"]["text"]))
    shown = "" if name in SECRET else f" ({echo(given)!r})" if isinstance(given, str) else (
        f" ({given!r})" if isinstance(given, int | float) else "")
    return _("{name} inválido{shown}: {accepts}.", name=name.upper(), shown=shown,
             accepts=_by_name(name, _) or (_accepts(name, field, _) if field is not None
                                           else _kind(error, _)))


def _by_name(name: str, _: Translator) -> str | None:
    """What an address or text setting accepts (of this model or an adapter's)."""
    if name == "webhook_url":
        return _("use um endereço https:// (ex.: https://bot.example.org/tg)")
    if name == "webhook_secret":
        return _("use de 1 a 256 letras, algarismos, '_' ou '-'")
    if name in ("telegram_base_url", "discord_api_base", "docs_url", "web_public_url"):
        return _("use um endereço http:// ou https://")
    if name == "web_secret":
        return _("use ao menos 16 caracteres")
    if name == "telegram_webapp":
        return _("use o nome curto do Mini App no @BotFather (3 a 30 letras, algarismos "
                 "ou '_')")
    return None


def _kind(error: Any, _: Translator) -> str:
    """What a setting of another model (an adapter's, e.g. ``TELEGRAM_POLL_INTERVAL``)
    accepts, from the kind of error."""
    kind = str(error.get("type", ""))
    if kind.startswith("int_"):
        return _("use um número inteiro")
    if kind.startswith("float_"):
        return _("use um número")
    return _("valor não aceito")


def _accepts(name: str, field: Any, _: Translator) -> str:
    if name == "log_level":
        return _("use DEBUG, INFO, WARNING, ERROR ou CRITICAL")
    if name == "redis_prefix":
        return _("use de 1 a 40 letras, algarismos, '_', '.' ou '-'")
    if get_origin(field.annotation) is Literal:  # STATE_CODEC: "use z1 / z2"
        return _("use {choices}", choices=" / ".join(map(str, get_args(field.annotation))))
    bounds = {type(m).__name__: m for m in field.metadata}
    low, high = getattr(bounds.get("Ge"), "ge", None), getattr(bounds.get("Le"), "le", None)
    whole = field.annotation in (int, int | None)  # METRICS_PORT, REDIS_DB: optional
    if low is None or high is None:
        return _("use um número inteiro") if whole else _("use um número")
    span = {"low": _number(low), "high": _number(high)}
    if name in _UNITS:
        return (_("use um número inteiro de {low} a {high} (segundos)", **span) if whole
                else _("use um número de {low} a {high} (segundos)", **span))
    return (_("use um número inteiro de {low} a {high}", **span) if whole
            else _("use um número de {low} a {high}", **span))


def _number(bound: float) -> str:
    """A bound as a person writes it: ``1000000``, ``0.5`` (never ``1e+06``)."""
    return str(bound) if isinstance(bound, int) else f"{bound:g}"
