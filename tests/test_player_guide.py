"""Issue 30 "A group, in a chat": a short player's guide in docs/ (pt-BR first, en, it)
with pictures of a real table on each platform, linked from /ajuda in the chat's
language (``DOCS_URL``) and from the README."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_service_support import ANA, CHAT, make_service, only

from bot.info import GUIDES, guide_link
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("lang", "link"), [
    ("pt", "Guia do jogador, com imagens: https://example.org/buraco/docs/guia.md"),
    ("en", "Player's guide, with pictures: https://example.org/buraco/docs/guide.en.md"),
    ("it", "Guida del giocatore, con immagini: https://example.org/buraco/docs/guida.it.md"),
])
async def test_ajuda_ends_with_the_link_to_the_guide_in_the_chat_s_language(
        lang: str, link: str, store: Any, clock: Any) -> None:
    svc = make_service(store, clock, docs_url="https://example.org/buraco/docs/")
    await svc.set_language(CHAT, ANA, lang)
    text = only(await svc.help(CHAT, ANA), "reply").text
    assert text.splitlines()[-1] == link


async def test_without_docs_url_ajuda_names_the_guide_in_the_bot_s_code(
        store: Any, clock: Any) -> None:
    text = only(await make_service(store, clock).help(CHAT, ANA), "reply").text
    assert text.splitlines()[-1] == "Guia do jogador, com imagens: docs/guia.md"


def test_docs_url_is_a_setting_of_an_http_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCS_URL", "https://example.org/docs")
    assert Settings(_env_file=None).docs_url == "https://example.org/docs"
    assert guide_link(None, "xx") == "docs/guia.md"


def test_each_guide_exists_covers_the_first_hour_and_shows_both_platforms() -> None:
    """Open a table, join, add robots, start, the hand on each platform (Telegram's
    private chat, Discord's "Minha mão" and /mao dm), a turn, leaving and coming back,
    the timer; each picture it shows is in docs/img/."""
    for lang, name in GUIDES.items():
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        for must in ("/novojogo", "/entrar", "/robo", "/iniciar", "/mao dm", "/sair",
                     "/voltar", "/ajuda", "timer="):
            assert must in text, (lang, must)
        images = re.findall(r"!\[[^\]]*\]\((img/[\w.-]+\.png)\)", text)
        assert {"img/telegram-table.png", "img/telegram-hand.png", "img/discord-table.png",
                "img/discord-hand.png"} <= set(images), (lang, images)
        assert all((ROOT / "docs" / image).is_file() for image in images), lang
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"docs/{name}" in readme for name in GUIDES.values())


def test_the_guides_number_their_sections_once_each_and_alike() -> None:
    """The three guides number every ``##`` section 1, 2, 3, ... (a tester found two
    "## 7." and the sections after 8 unnumbered, issue 35), the same sections in each."""
    counts = []
    for name in GUIDES.values():
        heads = re.findall(r"^## (.*)$", (ROOT / "docs" / name).read_text(), re.M)
        assert [h.split(". ", 1)[0] for h in heads] == [str(k) for k in
                                                        range(1, len(heads) + 1)], name
        counts.append(len(heads))
    assert len(set(counts)) == 1 and counts[0] >= 11


def test_the_readme_names_the_commands_beyond_one_group_with_the_guides() -> None:
    readme = (ROOT / "README.md").read_text()
    for command in ("/procurar", "/convidar", "/entrar <código>", "/verificar"):
        line = next(line for line in readme.splitlines() if line.startswith(f"- `{command}"))
        assert "guide section" in readme[readme.index(line):].split("\n- ")[0], command
