"""Language: pt-BR msgids, English and Italian catalogs read with Babel, per-chat
``/idioma`` (issue 4 "Language")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po
from test_service_support import ANA, BIA, CHAT, button, kinds, only

from bot.effects import Reply, pack
from bot.i18n import LOCALE_DIR, Translator, catalog, norm_lang
from bot.outcome import Refusal
from bot.service import Service

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{[a-z_]+(?:![rs])?\}")


def code_msgids() -> set[str]:
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "n": (1, 2)}
    found: set[str] = set()
    for sub in ("bot", "adapters/console"):
        for _file, _line, msg, _comments, _ctx in extract_from_dir(
                ROOT / sub, method_map=[("**.py", "python")], keywords=keywords):
            found.add(msg if isinstance(msg, str) else msg[0])
    return found


def first(msgid: str | tuple[str, ...]) -> str:
    """The msgid (the singular of a plural entry)."""
    return msgid if isinstance(msgid, str) else msgid[0]


def po(lang: str) -> Any:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def test_template_is_up_to_date_with_the_code() -> None:
    with (LOCALE_DIR / "messages.pot").open("rb") as fh:
        pot = {first(m.id) for m in read_po(fh) if m.id}
    assert code_msgids() == pot


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = po(lang)
    ids = {first(m.id) for m in cat if m.id}
    assert ids == code_msgids()
    for m in cat:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        wanted = sorted(PLACEHOLDER.findall(first(m.id)))
        for text in [m.string] if isinstance(m.string, str) else list(m.string):
            assert text, m.id
            assert sorted(PLACEHOLDER.findall(text)) == wanted, m.id


def test_catalogs_load_from_po_without_a_build_step(tmp_path: Path, monkeypatch: Any) -> None:
    # a clean clone has no .mo: the .po is compiled in memory
    for lang in ("en", "it"):
        src = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
        dst = tmp_path / lang / "LC_MESSAGES"
        dst.mkdir(parents=True)
        (dst / "messages.po").write_bytes(src.read_bytes())
    monkeypatch.setattr("bot.i18n.LOCALE_DIR", tmp_path)
    catalog.cache_clear()
    try:
        assert Translator("en")("Não é a sua vez.") == "It is not your turn."
        assert Translator("it")("Vez de {name}.", name="Bia") == "Tocca a Bia."
        assert not list(tmp_path.rglob("*.mo"))
    finally:
        catalog.cache_clear()


def test_plural_forms() -> None:
    for lang, one, many in (("pt", "Sua mão (1 carta)", "Sua mão (11 cartas)"),
                            ("en", "Your hand (1 card)", "Your hand (11 cards)"),
                            ("it", "La tua mano (1 carta)", "La tua mano (11 carte)")):
        _ = Translator(lang)
        assert _.n("Sua mão ({n} carta)", "Sua mão ({n} cartas)", 1) == one
        assert _.n("Sua mão ({n} carta)", "Sua mão ({n} cartas)", 11) == many


def test_pt_is_the_msgid_and_unknown_languages_fall_back() -> None:
    assert Translator("pt")("Não é a sua vez.") == "Não é a sua vez."
    assert Translator("xx").lang == "pt"
    assert [norm_lang(t) for t in ("EN", "pt-BR", "italiano", "de")] == ["en", "pt", "it", None]


def test_a_locale_with_a_region_names_its_language() -> None:
    """``idioma en_US`` as ``LANG=en_US.UTF-8`` would say it; an unknown language with a
    region stays unknown."""
    assert [norm_lang(t) for t in ("en_US", "en-GB", "IT_ch", "pt_PT", "de_DE", "e_US",
                                   "enx")] == ["en", "en", "it", "pt", None, None, None]
    assert [norm_lang(t) for t in ("pt_BR.UTF-8/../../", "en_USA", "it-", "pt; DROP",
                                   "en_US x")] == [None] * 5  # nothing more than a region


async def test_idioma_switches_the_chat_and_its_table(svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "")
    listed = await svc.set_language(CHAT, ANA, "")
    assert listed == [Reply(player=ANA, text=(
        "Idiomas: pt (Português (Brasil)), en (English), it (Italiano). Use /idioma en."))]
    effects = await svc.set_language(CHAT, ANA, "en")
    assert kinds(effects) == ["reply", "table"]
    assert effects[0].text == "Group language: English."
    table = effects[1].view
    assert table.title == "Buraco Bossa Nova · to 1500 points"
    assert table.lines[:3] == [
        "Table opened by Ana.", "Buraco Bossa Nova: with a morto; a side needs a canasta to "
        "end the deal. The most played.", "Seat 1: Ana · side 1"]
    assert [b.label for b in table.buttons[0]] == ["Join", "Leave"]
    assert await store.get_setting(CHAT.key, "lang") == "en"
    assert await svc.leave(CHAT, BIA) == [Reply(player=BIA, text="You are not at the table.")]


async def test_idioma_with_an_unknown_code_says_so_and_lists_the_languages(
        svc: Service, store: Any) -> None:
    assert await svc.set_language(CHAT, ANA, "xx") == [Reply(player=ANA, text=(
        "Idioma desconhecido: xx. Idiomas: pt (Português (Brasil)), en (English), it "
        "(Italiano). Use /idioma en."))]
    await svc.set_language(CHAT, ANA, "it")
    said = await svc.set_language(CHAT, ANA, "klingon-and-more")
    assert said[0].text.startswith("Lingua sconosciuta: klingon-and-…. Lingue: ")
    assert await store.get_setting(CHAT.key, "lang") == "it"


async def test_italian_game_texts(svc: Service) -> None:
    await svc.set_language(CHAT, ANA, "it")
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    table = effects[0].view
    assert table.lines[-2:] == ["Tocca a Ana.", "La partita è iniziata."]
    gid = effects[0].game_id
    bia = next(e for e in effects if e.kind == "hand" and e.player == BIA).view
    assert bia.title == "La tua mano (11 carte)"
    assert await svc.press(BIA, pack(gid, bia.version, "c")) == [
        Reply(player=BIA, text="Non è il tuo turno.")]
    ana = next(e for e in effects if e.kind == "hand" and e.player == ANA).view
    drawn = await svc.press(ANA, pack(gid, ana.version, "c"))
    assert only(drawn, "table").view.lines[-1] == "Ana ha pescato dal tallone."


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "Esta variante joga com 2, 3, 4 ou 6 jogadores; a mesa tem 1."),
    ("en", "This variant is played by 2, 3, 4 or 6 players; the table has 1."),
    ("it", "Questa variante si gioca in 2, 3, 4 o 6; al tavolo ce ne sono 1."),
])
async def test_the_player_counts_of_a_refusal_end_with_the_language_s_or(
        svc: Service, lang: str, text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    await svc.new_game(CHAT, ANA, "buraco")
    assert await svc.start(CHAT, ANA) == [Reply(player=ANA, text=text)]


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "O lixo está vazio."), ("en", "The discard pile is empty."),
    ("it", "Gli scarti sono vuoti.")])
def test_an_engine_reason_is_told_as_a_sentence_with_its_period(lang: str, text: str) -> None:
    assert Refusal("o lixo está vazio").render(Translator(lang)) == text


def test_every_translation_ends_its_sentence_as_the_msgid_does() -> None:
    def ends(text: str) -> bool:
        return text.rstrip()[-1:] in ".!?…"

    odd = []
    for po_file in sorted([*LOCALE_DIR.glob("*/LC_MESSAGES/*.po"),
                           *(ROOT / "adapters").glob("*/locale/*/LC_MESSAGES/*.po")]):
        with po_file.open("rb") as fh:
            for m in read_po(fh):
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strs = m.string if isinstance(m.string, tuple) else (m.string,)
                if m.id and any(ends(s) != ends(ids[0]) for s in strs):
                    odd.append((po_file.name, ids[0]))
    assert odd == []


def test_italian_says_a_person_s_return_and_leaving_without_assuming_a_gender() -> None:
    """Italian participles agree with the person ("è tornato" / "è tornata"), and the bot
    does not know it: these lines use forms that fit everyone (a trial read "Bia è
    tornato in gioco.")."""
    _ = Translator("it")
    assert _("{name} voltou ao jogo.", name="Bia") == "Bia torna in gioco."
    assert _("Você já saiu: o robô joga no seu lugar. Mande /voltar para retomar.") == (
        "Hai già lasciato il tavolo: il robot gioca al tuo posto. "
        "Manda /voltar per riprenderlo.")


async def test_idioma_in_play_redraws_every_person_s_hand_in_the_new_language(
        svc: Service) -> None:
    """The table and each person's hand change language at once (a trial: the hand on
    screen stayed in the old one until pressed); the hand's buttons keep their version,
    so an old-language button still plays."""
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    before = next(e for e in started if e.kind == "hand" and e.player == ANA).view
    effects = await svc.set_language(CHAT, BIA, "en")
    assert kinds(effects) == ["reply", "table", "hand", "hand"]
    ana = next(e for e in effects if e.kind == "hand" and e.player == ANA).view
    assert (ana.title, ana.lines[-1]) == ("Your hand (11 cards)",
                                         "Your turn: draw from the stock.")
    assert ana.version == before.version
    drawn = await svc.press(ANA, button(before, "Comprar do monte"))
    assert only(drawn, "table").view.lines[-1] == "Ana drew from the stock."
