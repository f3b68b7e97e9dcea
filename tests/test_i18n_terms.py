"""One card-game term per thing in each catalog (fresh-user trial): Italian speaks
Italian Burraco ("tallone" the stock, "scarti" the discard pile, "gioco" a meld,
"burraco" pulito/sporco a canasta, "pozzetto" the morto, "punti" in full); English says
"stock", "discard pile", "meld", "clean/dirty canasta", "morto"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import Translator
from bot.info import rules_summary
from bot.results import threes_msgid
from engine.rules import make_rules

ROOT = Path(__file__).resolve().parent.parent


def msgstrs(lang: str) -> list[tuple[str, str]]:
    """(msgid, translation) of every catalog of ``lang``, plural forms included."""
    found: list[tuple[str, str]] = []
    for po in sorted(po for top in ("bot", "engine", "adapters")
                     for po in (ROOT / top).glob(f"**/locale/{lang}/LC_MESSAGES/*.po")):
        if po.name == "argparse.po":
            continue
        with po.open("rb") as fh:
            for m in read_po(fh, locale=lang):
                if m.id:
                    mid = m.id if isinstance(m.id, str) else m.id[0]
                    texts = [m.string] if isinstance(m.string, str) else list(m.string)
                    found += [(mid, text) for text in texts]
    return found


@pytest.mark.parametrize(("lang", "banned"), [
    ("it", re.compile(r"\bcombinazion|\bcanast|\bpozzo\b|\bpti\b|(?<![_{])\bmorto\b(?![_}])"
                      r"|in questo gioco|\b[Mm]orti\b")),
    ("en", re.compile(r"(?<!discard )(?<!Discard )\b[Pp]ile\b|\bcanasta (clean|dirty)"
                      r"|\bpts\b(?! ·)|\b[Mm]ortos\b")),
])
def test_each_thing_has_one_name(lang: str, banned: re.Pattern[str]) -> None:
    assert [(mid, text) for mid, text in msgstrs(lang) if banned.search(text)] == []


def test_italian_mazzo_is_only_the_deck() -> None:
    # the stock is "tallone"; "mazzo" stays only where the pt-BR says "baralho" (the deck)
    assert all("baralho" in mid or mid == "jokers (curingas)"
               for mid, text in msgstrs("it") if "mazzo" in text)


@pytest.mark.parametrize(("lang", "texts"), [
    ("it", ["Pesca dal tallone", "c = pesca dal tallone", "Tallone: 40", "giochi 2",
            "burraco pulito 200", "burraco sporco 100", "pozzetto non preso -100",
            "Ana: 120 punti · questa mano: 80 nei giochi",
            "Ana: 120 punti · questa mano: 80 nei giochi + 300 di burraco",
            "e 2 4 5 = aggiungi le carte 4 5 al gioco 2", "(nessun gioco)"]),
    ("en", ["Draw from the stock", "c = draw from the stock", "Stock: 40", "melds 2",
            "clean canasta 200", "dirty canasta 100", "morto not taken -100",
            "Ana: 120 pts · this deal: 80 in melds",
            "Ana: 120 pts · this deal: 80 in melds + 300 for canastas",
            "e 2 4 5 = add cards 4 5 to meld 2",
            "(no melds)"]),
])
def test_actions_help_table_and_score_use_the_same_words(lang: str, texts: list[str]) -> None:
    _ = Translator(lang)
    assert [_("Comprar do monte"), _("c = comprar do monte"), _("Monte: {n}", n=40),
            _("jogos {n}", n=2), _("canastra {label} {n}", label=_("limpa"), n=200),
            _("canastra {label} {n}", label=_("suja"), n=100), _("morto não pego {n}", n=-100),
            _("{side}: {points} pts · nesta mão: {melded} em jogos", side="Ana",
              points=120, melded=80),
            _("{side}: {points} pts · nesta mão: {melded} em jogos + {bonus} de canastras",
              side="Ana", points=120, melded=80, bonus=300),
            _("e 2 4 5 = juntar as cartas 4 5 ao jogo 2"), _("(sem jogos)")] == texts


def test_the_morto_count_on_the_table_uses_each_catalog_s_term() -> None:
    assert [Translator(lang)("Mortos na mesa: {n}", n=2) for lang in ("pt", "en", "it")] == [
        "Mortos na mesa: 2", "Morto hands on the table: 2", "Pozzetti sul tavolo: 2"]


@pytest.mark.parametrize(("lang", "red_threes", "dollars"), [
    ("pt", "3 vermelhos 200", "Dólares 200"),
    ("en", "red 3s 200", "Dollars 200"),
    ("it", "3 rossi 200", "Dollari 200"),
])
def test_the_deal_result_names_red_threes_so_they_do_not_read_as_one_number(
        lang: str, red_threes: str, dollars: str) -> None:
    _ = Translator(lang)
    assert _(threes_msgid(make_rules("buraco")), n=200) == red_threes
    assert _(threes_msgid(make_rules("tranca")), n=200) == red_threes
    assert _(threes_msgid(make_rules("altaneira")), n=200) == dollars


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_dollar_keeps_its_portuguese_name_only_as_a_gloss(lang: str) -> None:
    # "the Dollars (Dólares, red 3s)", never "Dólar (red 3)" beside "Dollars 200"
    assert [mid for mid, text in msgstrs(lang) if "Dólar" in text.replace("(Dólares", "")] == []


def test_italian_names_the_altaneira_dollar_dollaro_and_the_dollars_dollari() -> None:
    it = Translator("it")
    regole = rules_summary("altaneira", it).splitlines()[-2]
    assert regole.startswith("Dollaro (3 rosso): +100 ciascuno con un burraco, −100 senza")
    assert it(threes_msgid(make_rules("altaneira")), n=200) == "Dollari 200"
    assert it("Dólares: {cards}", cards="3♥ 3♦") == "Dollari: 3♥ 3♦"
