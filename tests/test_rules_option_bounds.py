"""Hostile options (issue 12 item 6): every option of the rules model has bounds from the
rule books (RULES §2: targets 1,500 to 5,000, bounded at 20 times that; bonuses up to
1,000, RULES A21, A22), numbers are ASCII digits only, and every refusal is whole
sentences in the chat's language, naming the option as typed and in the players' words."""

from __future__ import annotations

import pytest
from test_service_support import ANA, CHAT, game_of, texts

from bot.effects import Reply
from bot.service import Service
from engine import IllegalAction, make_rules
from engine.rules import MAX_BONUS, MAX_TARGET, Rules


@pytest.mark.parametrize(("options", "message"), [
    ({"target": "99999999999999999999999"}, "opção inválida (target): o máximo é 100000"),
    ({"target": "9" * 5000}, "opção inválida (target): o máximo é 100000"),
    ({"target": "50"}, "opção inválida (target): o mínimo é 100"),
    ({"target": "²"}, "opção inválida (target): use um número inteiro"),
    ({"target": "٣٠٠٠"}, "opção inválida (target): use um número inteiro"),
    ({"target": "1_000"}, "opção inválida (target): use um número inteiro"),
    ({"target": "3000.0"}, "opção inválida (target): use um número inteiro"),
    ({"vulnerable_at": "-1"}, "opção inválida (vulnerable_at): o mínimo é 1"),
    ({"relancinho_bonus": str(-10**20)}, "opção inválida (relancinho_bonus): o mínimo é 0"),
    ({"relancinho_bonus": "1001000"}, "opção inválida (relancinho_bonus): o máximo é 5000"),
    ({"end_requires": "talvez"},
     "opção inválida (end_requires): use none / any_canastra / clean_canastra"),
    ({"morto_requires": "any_canastra"},
     "opção inválida (morto_requires): só vale em variantes com morto"),
])
def test_out_of_bounds_or_non_ascii_options_are_refused(options: dict[str, str],
                                                        message: str) -> None:
    with pytest.raises(IllegalAction) as err:
        make_rules("buraco", options)
    assert (err.value.code, err.value.message) == ("bad_option", message)


def test_reusing_the_pile_is_refused_where_a_black_three_blocks_it() -> None:
    with pytest.raises(IllegalAction) as err:
        make_rules("tranca", {"reuse_pile_once": "sim"})
    assert err.value.message == (
        "opção inválida (reuse_pile_once): não combina com o 3 preto que tranca o lixo")


def test_the_bounds_admit_every_preset_and_the_books_values() -> None:
    assert make_rules("altaneira").target == 5000 <= MAX_TARGET
    assert make_rules("buraco", {"target": "100000"}).target == 100_000
    assert make_rules("buraco", {"target": " 0003000 "}).target == 3000
    assert make_rules("buraco", {"relancinho_bonus": "0"}).relancinho_bonus == 0
    assert max(c.bonus for r in (make_rules(p) for p in ("justificado", "altaneira"))
               for c in r.special_canastras) == 1000 <= MAX_BONUS


def test_every_number_field_of_the_rules_model_has_both_bounds() -> None:
    unbounded = []
    for name, field in Rules.model_fields.items():
        if field.annotation not in (int, int | None):
            continue
        kinds = {type(m).__name__ for m in field.metadata}
        if not {"Ge", "Le"} <= kinds:
            unbounded.append(name)
    assert unbounded == []


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "Opção inválida (target, a meta de pontos): o máximo é 100000."),
    ("en", "Invalid option (target, the points to win): the maximum is 100000."),
    ("it", "Opzione non valida (target, i punti per vincere): il massimo è 100000."),
])
async def test_a_refused_option_is_named_in_the_players_words(svc: Service, lang: str,
                                                              text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    assert await svc.new_game(CHAT, ANA, "buraco target=99999999999999999999999") == [
        Reply(player=ANA, text=text)]


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "Opção inválida (end_requires, o que a batida exige): "
           "use none / any_canastra / clean_canastra."),
    ("en", "Invalid option (end_requires, what going out needs): "
           "use none / any_canastra / clean_canastra."),
])
async def test_a_word_option_lists_its_words_without_english_prose(
        svc: Service, lang: str, text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    assert await svc.new_game(CHAT, ANA, "buraco end_requires=x") == [
        Reply(player=ANA, text=text)]


async def test_a_non_ascii_timer_is_refused_politely(svc: Service) -> None:
    for value in ("²", "٣٠", "-30", "1_000", "9" * 40):
        assert await svc.new_game(CHAT, ANA, f"buraco timer={value}") == [Reply(
            player=ANA, text="Tempo de jogada inválido: use timer=15 a timer=3600 (segundos).")]
    assert await svc.new_game(CHAT, ANA, "buraco shuffle=talvez") == [Reply(
        player=ANA, text="Sortear duplas: use shuffle=sim ou shuffle=não.")]


@pytest.mark.parametrize(("args", "key"), [
    ("buraco target=3000 target=2000", "target"),
    ("buraco target=3000 TARGET=3000", "target"),
    ("tranca timer=60 tempo=90", "tempo"),
    ("buraco sortear=sim shuffle=não", "shuffle"),
    ("buraco tempo=5 timer=5", "timer"),  # the repeat first, before the bad value
    ("tranca target=x xyz=1 target=2", "target"),
])
async def test_an_option_given_twice_is_refused_naming_it(svc: Service,
                                                         args: str, key: str) -> None:
    assert await svc.new_game(CHAT, ANA, args) == [Reply(
        player=ANA, text=f"Opção repetida: {key}. Dê cada opção uma vez só.")]
    assert await svc.store.chat_game(CHAT.key) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Option given twice: target. Give each option only once."),
    ("it", "Opzione ripetuta: target. Indica ogni opzione una volta sola."),
])
async def test_an_option_given_twice_is_refused_in_the_chat_language(
        svc: Service, lang: str, text: str) -> None:
    await svc.set_language(CHAT, ANA, lang)
    assert await svc.new_game(CHAT, ANA, "buraco target=3000 target=2000") == [
        Reply(player=ANA, text=text)]


async def test_default_players_is_no_table_option_and_is_not_listed(svc: Service) -> None:
    assert await svc.new_game(CHAT, ANA, "tranca default_players=4") == [Reply(
        player=ANA, text=f"Opção desconhecida ou fixa nesta variante: 'default_players' "
                         f"(opções: {TRANCA_LISTED['pt']}).")]
    assert await svc.store.chat_game(CHAT.key) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Unknown option, or fixed in this variant: 'meta' (options: {listed})."),
    ("it", "Opzione sconosciuta o fissa in questa variante: 'meta' (opzioni: {listed})."),
])
async def test_an_unknown_option_lists_the_options_this_variant_takes_in_the_players_words(
        svc: Service, lang: str, text: str) -> None:
    """The options a tranca table takes (as /regras lists them), not those it refuses
    (jokers, reuse_pile_once, dollar_per_canastra)."""
    await svc.set_language(CHAT, ANA, lang)
    assert await svc.new_game(CHAT, ANA, "tranca meta=3000") == [
        Reply(player=ANA, text=text.format(listed=TRANCA_LISTED[lang]))]


async def test_an_unknown_option_of_buraco_leaves_out_the_morto_options(svc: Service) -> None:
    (reply,) = await svc.new_game(CHAT, ANA, "buraco foo=1")
    assert isinstance(reply, Reply) and "jokers (curingas)" in reply.text
    assert "morto_requires" not in reply.text and "dollar_per_canastra" not in reply.text


@pytest.mark.parametrize("args", ["x" * 5000, "buraco " + "y" * 5000 + "=1",
                                  "buraco target=1 " + "z" * 5000,
                                  "buraco " + "w" * 5000 + "=1 " + "w" * 5000 + "=2"])
async def test_a_long_name_is_repeated_cut_to_24_characters(svc: Service, args: str) -> None:
    (reply,) = await svc.new_game(CHAT, ANA, args)
    assert isinstance(reply, Reply)
    letter = args.split()[-1][0]
    assert letter * 24 + "…" in reply.text and letter * 25 not in reply.text
    assert len(reply.text) < 1200


def test_the_option_list_names_every_option_a_table_takes() -> None:
    from bot.lobby import SERVICE_OPTIONS
    from bot.play import OPTION_LIST
    from engine.rules import OVERRIDABLE

    typed = {word for item in OPTION_LIST for word in item.split(" (")[0].split(" ou ")}
    assert typed == set(OVERRIDABLE) | SERVICE_OPTIONS


@pytest.mark.parametrize("lang", ["pt", "en", "it"])
def test_regras_lists_the_options_in_the_players_words(lang: str) -> None:
    from bot.i18n import Translator
    from bot.info import rules_summary

    line = {"pt": "Opções da mesa (/novojogo tranca opção=valor): ",
            "en": "Table options (/novojogo tranca option=value): ",
            "it": "Opzioni del tavolo (/novojogo tranca opzione=valore): "}[lang]
    assert line + TRANCA_LISTED[lang] in rules_summary("tranca", Translator(lang)).splitlines()


TRANCA_LISTED = {
    "pt": "target (meta de pontos), morto_requires (o que pegar o morto exige), "
          "end_requires (o que a batida exige), second_morto_direct_only (segundo morto "
          "só direto), timer ou tempo (segundos por jogada), shuffle ou sortear (sortear "
          "as duplas)",
    "en": "target (points to win), morto_requires (what taking the morto needs), "
          "end_requires (what going out needs), second_morto_direct_only (second morto "
          "only directly), timer or tempo (seconds per move), shuffle or sortear (draw "
          "the partners)",
    "it": "target (punti per vincere), morto_requires (cosa serve per prendere il "
          "pozzetto), end_requires (cosa serve per chiudere), second_morto_direct_only "
          "(secondo pozzetto solo diretto), timer o tempo (secondi per mossa), shuffle o "
          "sortear (sorteggiare le coppie)",
}
"""/regras tranca: no jokers (buraco family only), no reuse_pile_once (the black 3 blocks
the pile), no dollar_per_canastra (no Dólares, RULES A4); no first_player_second_card
(A9), relancinho_bonus (A21), vulnerable_at (A22) or single_card_pile_rule (A23), which
are the buraco family's."""


BURACO_FAMILY_ONLY = {"relancinho_bonus", "vulnerable_at", "single_card_pile_rule"}
"""RULES A21, A22, A23: the buraco family's rules, no option of a closed-pile game."""


@pytest.mark.parametrize(("preset", "left_out"), [
    ("buraco", {"dollar_per_canastra", "morto_requires", "second_morto_direct_only"}),
    ("buraco_morto", {"dollar_per_canastra"}),
    ("bossa_nova", {"dollar_per_canastra"}),
    ("justificado", {"dollar_per_canastra", "jokers", *BURACO_FAMILY_ONLY,
                     "first_player_second_card"}),
    ("tranca", {"dollar_per_canastra", "jokers", "reuse_pile_once", *BURACO_FAMILY_ONLY,
                "first_player_second_card"}),
    ("altaneira", {"jokers", *BURACO_FAMILY_ONLY}),
])
def test_regras_leaves_out_the_options_the_variant_refuses(
        preset: str, left_out: set[str]) -> None:
    from bot.play import OPTION_LIST, options_for

    listed = options_for(preset)
    assert {item.split(" ")[0] for item in OPTION_LIST if item not in listed} == left_out


async def test_italian_players_may_write_si_with_its_accent(svc: Service) -> None:
    """The Italian refusal says "usa sortear=sì o sortear=no": "sì" is taken as "sim"."""
    await svc.set_language(CHAT, ANA, "it")
    assert texts(await svc.new_game(CHAT, ANA, "buraco sortear=talvez")) == [
        "Sorteggio delle coppie: usa sortear=sì o sortear=no."]
    await svc.new_game(CHAT, ANA, "buraco sortear=sì")
    _version, game = await game_of(svc.store)
    assert game.shuffle is True
