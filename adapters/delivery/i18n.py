"""Texts the chat adapters share (command descriptions, notices of the Discord adapter and
the hand-in-private reply), in the gettext domain ``chat``:
``adapters/delivery/locale/<lang>/LC_MESSAGES/chat.po``, read with Babel like
``bot.i18n``. Messages in code are pt-BR, marked ``N_`` or ``_``. Update::

    pybabel extract --no-default-keywords -k N_ -k _ -o adapters/delivery/locale/chat.pot \
        adapters/delivery adapters/discord
    pybabel update -D chat -i adapters/delivery/locale/chat.pot -d adapters/delivery/locale
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

from bot.i18n import DEFAULT_LANG, LANGS, N_, Translator, load_domain

LOCALE_DIR = Path(__file__).parent / "locale"

__all__ = ["LOCALE_DIR", "N_", "Texts", "catalog"]


@lru_cache(maxsize=8)
def catalog(lang: str) -> gettext.NullTranslations:
    """Translations of the shared texts for ``lang``; pt-BR (and unknown codes) as is."""
    if lang == DEFAULT_LANG or lang not in LANGS:
        return gettext.NullTranslations()
    return load_domain(LOCALE_DIR, lang, "chat")


class Texts(Translator):
    """``_("Oi, {name}", name=...)``: translate a pt-BR msgid into ``lang``, then format."""

    def __init__(self, lang: str = DEFAULT_LANG) -> None:
        super().__init__(lang, catalog)
