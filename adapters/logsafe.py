"""Logs never hold a token or a hidden card, at any level (GUIDE "Standards", issue 12
item 7).

:func:`install` wraps the logging record factory (so it holds for every handler, also
those a platform library adds itself, e.g. discord.py's ``client.run`` handler):

- every configured secret (bot tokens, the webhook secret, the Redis password) is
  replaced by ``<secret>`` in the message, the traceback and the stack of every record,
  as written and URL-quoted (python-telegram-bot puts the token in its API URL, which
  httpx logs at INFO and shows in connection errors); so is each Discord interaction
  token in a webhook or interaction URL, which no configuration names;
- DEBUG records of the platform libraries (:data:`PLATFORM_LOGGERS`) keep only short
  plain arguments (method names, URLs of ids, numbers): a request's parameters or an
  answer (``sendMessage`` text, a Discord message payload, a gateway event) becomes
  ``<hidden>``, since private hand messages are among them.

Used by every platform through the composition root (``bot/__main__.py``).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import quote

PLATFORM_LOGGERS = ("telegram", "httpx", "httpcore", "discord", "aiohttp", "websockets")
"""Loggers (and their children) of the chat platforms' libraries and their HTTP stacks."""
HIDDEN = "<hidden>"
SECRET = "<secret>"
MIN_SECRET = 6
"""Shorter values are not treated as secrets (they would blank ordinary words)."""
_PLAIN = re.compile(r"[A-Za-z0-9_.:/?&=%@+-]{0,120}")
_URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/[0-9]+/)[A-Za-z0-9_.~%-]+")
"""A Discord interaction or webhook token in an API path (``/webhooks/<app>/<token>``,
``/interactions/<id>/<token>/callback``): discord.py logs these URLs at DEBUG, and a
token answers or edits the person's ephemeral hand for 15 minutes."""
_lock = threading.Lock()
_installed: list[Redactor] = []


class Redactor:
    """Cleans log records: ``secrets`` out of all of them, payloads out of the platform
    libraries' DEBUG records (module docstring)."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        found = {s for s in secrets if s and len(s) >= MIN_SECRET}
        found |= {quote(s, safe="") for s in found}
        self.secrets = sorted(found, key=len, reverse=True)

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by ``<secret>``."""
        for secret in self.secrets:
            text = text.replace(secret, SECRET)
        return _URL_TOKEN.sub(rf"\1{SECRET}", text)

    def clean(self, record: logging.LogRecord) -> logging.LogRecord:
        """Rewrite ``record`` in place (message rendered, then redacted) and return it."""
        if record.levelno < logging.INFO and is_platform(record.name) and record.args:
            record.args = _plain_args(record.args)
        record.template = record.msg  # what adapters.logcalm groups repeats by
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # arguments that do not fit the format
            message = str(record.msg)
        record.msg, record.args = self.redact(message), ()
        if record.exc_info:
            record.error = record.exc_info[1]  # its type, for adapters.logcalm
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
            record.exc_info = None  # the traceback is in exc_text, secrets out
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return record


def is_platform(name: str) -> bool:
    """True for a platform library's logger (``"telegram.ext.Updater"``, ``"httpx"``)."""
    return any(name == p or name.startswith(p + ".") for p in PLATFORM_LOGGERS)


def _plain(value: Any) -> Any:
    """``value`` itself when it is a plain number or a short plain word, else hidden.
    Only the exact number types pass: a subclass such as the engine's ``Card`` (a
    ``float`` underneath, issue 13) is hidden like any other object."""
    if type(value) in (bool, int, float):
        return value
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return value
    return HIDDEN


def _plain_args(args: Any) -> Any:
    if isinstance(args, Mapping):
        return {k: _plain(v) for k, v in args.items()}
    if isinstance(args, tuple):
        return tuple(_plain(a) for a in args)
    return _plain(args)


def install(secrets: Iterable[str | None]) -> Redactor:
    """Clean every log record from now on (module docstring), and the traceback of an
    exception nobody caught (``sys.excepthook``, ``threading.excepthook``: an unforeseen
    start-up error is printed with its traceback, whose text may quote a token, issue
    38); calling it again replaces the secrets. Returns the :class:`Redactor` in use."""
    redactor = Redactor(secrets)
    with _lock:
        if not _installed:
            logging.setLogRecordFactory(_factory(logging.getLogRecordFactory()))
            _hooks[:] = [sys.excepthook, threading.excepthook]
            sys.excepthook, threading.excepthook = _excepthook, _thread_excepthook
        _installed[:] = [redactor]
    return redactor


def uninstall() -> None:
    """Stop cleaning records and tracebacks (tests)."""
    with _lock:
        factory = logging.getLogRecordFactory()
        original = getattr(factory, "original", None)
        if _installed and original is not None:
            logging.setLogRecordFactory(original)
        if _hooks:
            sys.excepthook, threading.excepthook = _hooks
            _hooks.clear()
        _installed.clear()


def redact(text: str) -> str:
    """``text`` with the installed secrets replaced by ``<secret>`` (as it is when
    nothing is installed): for what is printed rather than logged, such as the one line
    a failed start ends with, which quotes a library's error (issue 38)."""
    return _installed[0].redact(text) if _installed else text


_hooks: list[Any] = []


def _excepthook(kind: type[BaseException], err: BaseException, tb: TracebackType | None) -> None:
    sys.stderr.write(redact("".join(traceback.format_exception(kind, err, tb))))


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    text = "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
    sys.stderr.write(redact(f"Exception in thread {name}:\n{text}"))


def _factory(original: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = original(*args, **kwargs)
        return _installed[0].clean(record) if _installed else record

    make.original = original  # type: ignore[attr-defined]
    return make


def secrets_of(*values: str | None, redis_url: str | None = None) -> list[str]:
    """The secrets to redact: the given values and the password of ``redis_url``."""
    out = [v for v in values if v]
    if redis_url:
        from urllib.parse import urlsplit

        password = urlsplit(redis_url).password
        if password:
            out.append(password)
    return out
