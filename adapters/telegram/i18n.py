"""The Telegram adapter's own texts (deep-link notices, command descriptions), translated
with gettext catalogs read by Babel, like ``bot.i18n`` but in the ``telegram`` domain:
``adapters/telegram/locale/<lang>/LC_MESSAGES/telegram.po``, falling back to the shared
``chat`` domain (:mod:`adapters.delivery.i18n`: command descriptions). Messages in code
are pt-BR.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

from adapters.delivery import i18n as shared
from bot.i18n import DEFAULT_LANG, LANGS, N_, Translator, load_domain

LOCALE_DIR = Path(__file__).parent / "locale"

__all__ = ["LOCALE_DIR", "N_", "Texts", "catalog"]


@lru_cache(maxsize=8)
def catalog(lang: str) -> gettext.NullTranslations:
    """Translations of the adapter's texts for ``lang``, then of the texts the chat
    adapters share (``chat`` domain); pt-BR (and unknown codes) as is."""
    if lang == DEFAULT_LANG or lang not in LANGS:
        return gettext.NullTranslations()
    cat = load_domain(LOCALE_DIR, lang, "telegram")
    cat.add_fallback(shared.catalog(lang))
    return cat


class Texts(Translator):
    """``_("Oi, {name}", name=...)``: translate a pt-BR msgid into ``lang``, then format."""

    def __init__(self, lang: str = DEFAULT_LANG) -> None:
        super().__init__(lang, catalog)
