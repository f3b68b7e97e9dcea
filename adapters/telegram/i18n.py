"""The Telegram adapter's own texts (deep-link notices, command descriptions), translated
with gettext catalogs read by Babel, like ``bot.i18n`` but in the ``telegram`` domain:
``adapters/telegram/locale/<lang>/LC_MESSAGES/telegram.po``. Messages in code are pt-BR.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n import DEFAULT_LANG, LANGS, N_

LOCALE_DIR = Path(__file__).parent / "locale"

__all__ = ["LOCALE_DIR", "N_", "Texts", "catalog"]


@lru_cache(maxsize=8)
def catalog(lang: str) -> gettext.NullTranslations:
    """Translations of the adapter's texts for ``lang``; pt-BR (and unknown codes) as is."""
    if lang == DEFAULT_LANG or lang not in LANGS:
        return gettext.NullTranslations()
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "telegram.po"
    with po.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    buf = BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class Texts:
    """``_("Oi, {name}", name=...)``: translate a pt-BR msgid into ``lang``, then format."""

    def __init__(self, lang: str = DEFAULT_LANG) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self._cat = catalog(self.lang)

    def __call__(self, msgid: str, **kw: Any) -> str:
        text = self._cat.gettext(msgid)
        return text.format(**kw) if kw else text
