"""Every text the chat adapters show has its English and Italian translation with the same
placeholders: the shared ``chat`` domain (adapters/delivery/locale: command descriptions,
Discord notices) and, for Telegram, its own domain falling back to ``chat``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from adapters.delivery import i18n as shared
from adapters.telegram import i18n as telegram

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def msgids(*subdirs: str) -> set[str]:
    found: set[str] = set()
    for sub in subdirs:
        for _f, _l, msg, _c, _x in extract_from_dir(
                ROOT / sub, method_map=[("**.py", "python")], keywords={"N_": None, "_": None}):
            found.add(msg if isinstance(msg, str) else msg[0])
    return found


def catalog_ids(path: Path, lang: str) -> dict[str, str]:
    with path.open("rb") as fh:
        return {str(m.id): str(m.string) for m in read_po(fh, locale=lang) if m.id}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_chat_domain_translates_every_shared_and_discord_text(lang: str) -> None:
    po = catalog_ids(shared.LOCALE_DIR / lang / "LC_MESSAGES" / "chat.po", lang)
    assert set(po) == msgids("adapters/delivery", "adapters/discord")
    for msgid, text in po.items():
        assert text and sorted(PLACEHOLDER.findall(text)) == sorted(
            PLACEHOLDER.findall(msgid)), msgid


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_telegram_text_is_translated_in_its_domain_or_the_shared_one(lang: str) -> None:
    own = catalog_ids(telegram.LOCALE_DIR / lang / "LC_MESSAGES" / "telegram.po", lang)
    chat = catalog_ids(shared.LOCALE_DIR / lang / "LC_MESSAGES" / "chat.po", lang)
    assert msgids("adapters/telegram") <= set(own) | set(chat)
    assert telegram.Texts(lang)("Começar a partida") == chat["Começar a partida"]
