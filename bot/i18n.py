"""Translations: gettext catalogs read with Babel (pt-BR msgids; English, Italian).

Catalogs live in ``bot/locale/<lang>/LC_MESSAGES/messages.po``. A compiled ``.mo`` next
to the ``.po`` is used when it is up to date; otherwise the ``.po`` is compiled in memory
with ``babel.messages.mofile``, so a clean clone needs no build step. Messages in code
are the pt-BR text, written ``_("...")`` (extract with ``pybabel extract -k N_``).

The engine's refusal reasons (``IllegalAction.template``, pt-BR with ``{name}``
placeholders) have their own domain, ``engine.po`` next to ``messages.po``, consulted when
``messages`` lacks a msgid; ``tests/test_i18n_engine_messages.py`` checks it. Update::

    pybabel extract --no-default-keywords -k IllegalAction:2 -k _fail:2 -k _bad \
        -k _malformed -o bot/locale/engine.pot engine/[a-z]*.py
    pybabel update -D engine -i bot/locale/engine.pot -d bot/locale
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.cli_i18n import argparse_language, compile_po, env_lang

__all__ = ["DEFAULT_LANG", "LANGS", "N_", "Translator", "argparse_language", "catalog",
           "env_lang", "load_domain", "norm_lang"]

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANG = "pt"
LANGS: dict[str, str] = {"pt": "Português (Brasil)", "en": "English", "it": "Italiano"}
_ALIASES = {"pt-br": "pt", "pt_br": "pt", "br": "pt", "portugues": "pt", "português": "pt",
            "english": "en", "ingles": "en", "inglês": "en", "italiano": "it", "italian": "it"}


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it now."""
    return msgid


_REGION = re.compile(r"([a-z]{2})[-_](?:[a-z]{2}|[0-9]{3})")
"""A language with its region, ``en_US``, ``it-CH``, ``es-419``: nothing more."""


def norm_lang(text: str) -> str | None:
    """The language code for ``text`` (``"EN"``, ``"pt-BR"``, ``"en_US"``, ``"it-CH"``,
    ``"italiano"``), or None. A locale's region is dropped (``en_US`` is ``en``)."""
    key = text.strip().lower()
    key = _ALIASES.get(key, key)
    region = _REGION.fullmatch(key)
    if key not in LANGS and region is not None:
        key = region.group(1)
    return key if key in LANGS else None


@lru_cache(maxsize=8)
def catalog(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (pt: identity). Unknown codes fall back to pt-BR.
    The ``messages`` domain first, then ``engine`` (the engine's refusal reasons)."""
    if lang == DEFAULT_LANG or lang not in LANGS:
        return gettext.NullTranslations()
    cat = load_domain(LOCALE_DIR, lang, "messages")
    if (LOCALE_DIR / lang / "LC_MESSAGES" / "engine.po").exists():
        cat.add_fallback(load_domain(LOCALE_DIR, lang, "engine"))
    return cat


def load_domain(locale_dir: Path, lang: str, domain: str) -> gettext.GNUTranslations:
    """One catalog ``<locale_dir>/<lang>/LC_MESSAGES/<domain>``: the compiled ``.mo``
    when up to date, else the ``.po`` compiled now with Babel (so a clean clone needs no
    build step). Raises ``OSError`` when the ``.po`` is missing."""
    po = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    return compile_po(po, lang)


class Translator:
    """``_("Vez de {name}", name=...)``: translate a pt-BR msgid, then ``str.format``.
    ``catalogs`` gives the translations of a language (default: the service's)."""

    def __init__(self, lang: str = DEFAULT_LANG,
                 catalogs: Callable[[str], gettext.NullTranslations] | None = None) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self._cat = (catalogs or catalog)(self.lang)

    def __call__(self, msgid: str, **kw: Any) -> str:
        text = self._cat.gettext(msgid)
        return text.format(**kw) if kw else text

    def p(self, context: str, msgid: str, **kw: Any) -> str:
        """``msgid`` translated in gettext ``context`` (``msgctxt``), then formatted; pt-BR
        (no catalog) gives ``msgid`` itself."""
        text = self._cat.pgettext(context, msgid)
        return text.format(**kw) if kw else text

    def n(self, singular: str, plural: str, count: int, **kw: Any) -> str:
        """Plural form for ``count`` (``count`` is also available as ``{n}``)."""
        return self._cat.ngettext(singular, plural, count).format(n=count, **kw)

