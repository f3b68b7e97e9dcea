"""The engine's refusal reasons reach people in their chat's language: every
``IllegalAction`` template of ``engine/*.py`` is a msgid of the ``engine`` catalogs
(``bot/locale/engine.pot``, ``en``/``it`` ``engine.po``), translated with the same
placeholders, and the service shows it translated (pt-BR unchanged)."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from test_service_support import ANA, BIA, CHAT, only

from bot.effects import Reply, pack
from bot.i18n import LOCALE_DIR, Translator
from bot.service import Service
from engine.errors import IllegalAction
from engine.rules import ALIASES, PRESETS

ENGINE = Path(__file__).resolve().parent.parent / "engine"
# call name -> index of its template argument: IllegalAction(code, template, **params)
# and the modules' shorthands _fail(code, template), _bad(template), _malformed(template)
TEMPLATE_ARG = {"IllegalAction": 1, "_fail": 1, "_bad": 0, "_malformed": 0}
# engine/__main__.py has its own _malformed (a CLI printer, not an IllegalAction)
NOT_ENGINE_ERRORS = {"__main__.py"}
# the calls whose template is not a literal: the shorthands themselves, Match.from_json
# passing an inner refusal on under the code bad_position, and melds' memo raising a
# remembered refusal again (issue 13)
FORWARDERS = {("actions.py", "template"), ("melds.py", "template"), ("state_json.py", "template"),
              ("jsonfields.py", "template"), ("match.py", "err.template"),
              ("melds.py", "got.template")}


def engine_calls() -> tuple[dict[str, list[str]], set[tuple[str, str]]]:
    """(template -> its ``file:line`` places, the non-literal template arguments)."""
    templates: dict[str, list[str]] = {}
    others: set[tuple[str, str]] = set()
    for path in sorted(ENGINE.glob("*.py")):
        if path.name in NOT_ENGINE_ERRORS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in TEMPLATE_ARG):
                continue
            arg = node.args[TEMPLATE_ARG[node.func.id]]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                templates.setdefault(arg.value, []).append(f"{path.name}:{node.lineno}")
            else:
                others.add((path.name, ast.unparse(arg)))
    return templates, others


def fields(text: str) -> list[str]:
    """The ``{name}`` fields of a str.format template, sorted."""
    return sorted(name for _lit, name, _spec, _conv in string.Formatter().parse(text)
                  if name is not None)


def catalog(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        return {m.id: m for m in read_po(fh) if m.id}


def test_every_template_is_a_literal_with_plain_fields() -> None:
    templates, others = engine_calls()
    assert others == FORWARDERS
    assert [place.split(":")[0] for place in templates["não é a sua vez"]] == ["deal.py"]
    assert "você não tem: {cards}" in templates
    assert "opção inválida ({where}): {reason}" in templates
    for template in templates:
        for _lit, name, spec, conv in string.Formatter().parse(template):
            if name is not None:
                # plain names only; msgid/raw would clash with Refusal(msgid, raw, **kw)
                assert name.isidentifier() and not spec and conv is None, template
                assert name not in ("msgid", "raw"), template


def test_the_template_catalog_holds_exactly_the_engine_templates() -> None:
    templates, _ = engine_calls()
    assert set(catalog(LOCALE_DIR / "engine.pot")) == set(templates)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_engine_template_is_translated_with_the_same_fields(lang: str) -> None:
    templates, _ = engine_calls()
    cat = catalog(LOCALE_DIR / lang / "LC_MESSAGES" / "engine.po")
    assert set(cat) == set(templates)
    for msgid, m in cat.items():
        assert not m.fuzzy, msgid
        assert m.string and m.string != msgid, msgid
        assert fields(m.string) == fields(msgid), msgid


def test_illegal_action_keeps_the_pt_br_message() -> None:
    err = IllegalAction("not_in_hand", "você não tem: {cards}", cards="7♥ 8♥")
    assert (err.code, err.message, str(err)) == (
        "not_in_hand", "você não tem: 7♥ 8♥", "not_in_hand: você não tem: 7♥ 8♥")
    assert (err.template, err.params) == ("você não tem: {cards}", {"cards": "7♥ 8♥"})
    # no params: the template is the message as written (braces and all)
    assert IllegalAction("x", "use {a}").message == "use {a}"


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "seu lado não tem o jogo 3"),
    ("en", "your side has no meld 3"),
    ("it", "il tuo lato non ha il gioco 3"),
])
def test_the_translator_reads_the_engine_catalog(lang: str, text: str) -> None:
    err = IllegalAction("no_such_meld", "seu lado não tem o jogo {number}", number=3)
    assert Translator(lang)(err.template).format(**err.params) == text


KNOWN = ", ".join(sorted([*PRESETS, *ALIASES]))
REFUSALS = {
    "pt": ("Variante desconhecida: 'pif' (conheço: {known}).",
           "Primeiro compre do monte ou pegue o lixo.", "O lixo está vazio.",
           "Você já comprou nesta vez."),
    "en": ("Unknown variant: 'pif' (I know: {known}).",
           "First draw from the stock or take the discard pile.", "The discard pile is empty.",
           "You have already drawn this turn."),
    "it": ("Variante sconosciuta: 'pif' (conosco: {known}).",
           "Prima pesca dal tallone o prendi gli scarti.", "Gli scarti sono vuoti.",
           "Hai già pescato in questo turno."),
}


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
async def test_a_chat_gets_engine_refusals_in_its_language(svc: Service, lang: str) -> None:
    bad_variant, must_draw, pile_empty, already_drew = REFUSALS[lang]
    await svc.set_language(CHAT, ANA, lang)
    # a lobby refusal with params (make_rules via lobby.parse_args)
    assert await svc.new_game(CHAT, ANA, "pif") == [
        Reply(player=ANA, text=bad_variant.format(known=KNOWN))]
    await svc.new_game(CHAT, ANA, "")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    gid = started[0].game_id
    ana = next(e for e in started if e.kind == "hand" and e.player == ANA).view
    ana = only(await svc.press(ANA, pack(gid, ana.version, "t", 0)), "hand").view
    # Ana's turn, moves out of order: discard before drawing, take an empty pile, draw twice
    assert await svc.press(ANA, pack(gid, ana.version, "d")) == [Reply(player=ANA, text=must_draw)]
    assert await svc.press(ANA, pack(gid, ana.version, "p")) == [
        Reply(player=ANA, text=pile_empty)]
    ana = only(await svc.press(ANA, pack(gid, ana.version, "c")), "hand").view
    assert await svc.press(ANA, pack(gid, ana.version, "c")) == [
        Reply(player=ANA, text=already_drew)]
