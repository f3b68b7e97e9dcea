"""The language of the command-line tools (``python -m engine``, ``python -m bot``): one
language per locale, read the way gettext reads it (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``), pt-BR unless it names en or it.

Used only by the command lines (it reads catalog files): the engine's own messages are
pt-BR msgids translated by the ``cli`` domain of ``engine/locale``; argparse's words
("usage:", "error:", "invalid choice") by its ``argparse`` domain. Update::

    pybabel extract --no-wrap -k IllegalAction:2 -k n:1,2 -k MalformedRecord:1 \
        -o engine/locale/cli.pot engine/__main__.py engine/ai/selfplay.py engine/record.py
    pybabel update --no-wrap -D cli -i engine/locale/cli.pot -d engine/locale
"""

from __future__ import annotations

import argparse
import gettext
import io
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from engine.errors import IllegalAction

SAMPLE = "♣♦♥♠·•…—→×−çãéôà"
"""Characters the tools print (suits, separators, accents of pt-BR and it)."""

LOCALE_DIR = Path(__file__).parent / "locale"
# The translations of the engine's refusal reasons (domain ``engine``) live with the
# bot's catalogs, which show them in chats; the command lines read the same files.
REASONS_DIR = Path(__file__).resolve().parents[1] / "bot" / "locale"
LANGS = ("pt", "en", "it")
LOCALES = {"pt": "pt_BR", "en": "en", "it": "it"}  # Babel's locale for numbers


def env_lang(environ: Mapping[str, str]) -> str:
    """``pt``, ``en`` or ``it`` for the first set of ``LANGUAGE`` (its first entry),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``en_US.UTF-8`` -> ``en``; ``pt`` for anything
    else (``C``, ``POSIX``, ``de_DE``) and when none is set."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").split(":")[0]
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGS else "pt"
    return "pt"


@lru_cache(maxsize=16)
def catalog(lang: str, domain: str, where: Path = LOCALE_DIR) -> gettext.NullTranslations:
    """``<where>/<lang>/LC_MESSAGES/<domain>.po`` (``engine/locale`` by default) compiled
    in memory; no translation (the msgids) when the file is missing."""
    po = where / lang / "LC_MESSAGES" / f"{domain}.po"
    if not po.exists():
        return gettext.NullTranslations()
    return compile_po(po, lang)


def compile_po(po: Path, lang: str) -> gettext.GNUTranslations:
    """The catalog ``po`` (a ``.po`` file of language ``lang``) compiled in memory with
    Babel, so a clean clone needs no build step. Raises ``OSError`` when it is missing."""
    with po.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    buf = BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class Words:
    """``_("uso: {x}", x=...)``: a pt-BR msgid of the engine's command lines in ``lang``."""

    def __init__(self, lang: str = "pt") -> None:
        self.lang = lang if lang in LANGS else "pt"
        self._cat = catalog(self.lang, "cli")

    def __call__(self, msgid: str, **kw: Any) -> str:
        text = self._cat.gettext(msgid)
        return text.format(**kw) if kw else text

    def n(self, singular: str, plural: str, count: int, **kw: Any) -> str:
        """The plural form for ``count`` (also available as ``{n}``), then formatted."""
        return self._cat.ngettext(singular, plural, count).format(n=count, **kw)

    def num(self, value: float, digits: int = 1, sign: bool = False) -> str:
        """``value`` with ``digits`` decimals as this language writes it (``34,5`` in pt-BR
        and it, ``34.5`` in en); ``sign``: always with ``+`` or ``-``."""
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        if sign:
            pattern = f"+{pattern};-{pattern}"
        return format_decimal(value, pattern, locale=LOCALES[self.lang])

    def pct(self, share: float) -> str:
        """``share`` (0 to 1) as a percentage with one decimal: ``81,2%`` (pt-BR, it),
        ``81.2%`` (en)."""
        return format_percent(share, "#,##0.0%", locale=LOCALES[self.lang])

    def record(self, template: str, params: Mapping[str, str],
               cause: IllegalAction | None = None) -> str:
        """A malformed record's reason (``MalformedRecord``'s ``template``, ``params``
        and ``cause``) in this language; the engine's refusal it wraps is ``{reason}``."""
        extra = {"reason": self.reason(cause)} if cause is not None else {}
        return self._cat.gettext(template).format(**params, **extra)

    def reason(self, err: IllegalAction) -> str:
        """The engine's refusal ``err`` in this language (its pt-BR ``message`` for pt or
        a template without translation)."""
        text = catalog(self.lang, "engine", REASONS_DIR).gettext(err.template)
        if text == err.template:  # one of the command line's own (selfplay's options)
            text = self._cat.gettext(err.template)
        return text.format(**err.params) if err.params else text


@contextmanager
def argparse_language(lang: str) -> Iterator[None]:
    """Inside the block argparse's own words are in ``lang`` (its module-level ``_`` and
    ``ngettext``, through which it reads every message, point at the ``argparse``
    catalog)."""
    cat = catalog(lang, "argparse")
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = cat.gettext, cat.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def tolerant_output() -> None:
    """Let ``sys.stdout`` and ``sys.stderr`` print what their encoding cannot encode as
    replacement characters (``?``) instead of ending in ``UnicodeEncodeError``, and
    ``sys.stdin`` read what it cannot decode as ``"\ufffd"`` instead of ending in
    ``UnicodeDecodeError`` (a typed ``é`` or a pasted ``4♣``): a terminal in ASCII or
    Latin-1 (``PYTHONIOENCODING=ascii``) then reads ``Comandos: c = comprar do monte ?
    l = ...``. Streams that encode :data:`SAMPLE` are left as they are."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):
            continue  # replaced by a caller (a test's capture): theirs to decide
        try:
            SAMPLE.encode(stream.encoding)
        except (UnicodeEncodeError, LookupError):
            stream.reconfigure(errors="replace")
