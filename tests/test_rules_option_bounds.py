# ruff: noqa: F811  (pytest fixtures imported from test_service_support)
"""Hostile options (issue 12 item 6): every option of the rules model has bounds from the
rule books (RULES §2: targets 1,500 to 5,000, bounded at 20 times that; bonuses up to
1,000, RULES A21, A22), numbers are ASCII digits only, and every refusal is whole
sentences in the chat's language, naming the option as typed and in the players' words."""

from __future__ import annotations

import pytest
from test_service_support import ANA, CHAT, backend, clock, store, svc  # noqa: F401

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
    listed = ("dollar_per_canastra, end_requires, first_player_second_card, jokers, "
              "morto_requires, relancinho_bonus, reuse_pile_once, second_morto_direct_only, "
              "single_card_pile_rule, target, vulnerable_at")
    assert await svc.new_game(CHAT, ANA, "buraco default_players=4") == [Reply(
        player=ANA, text=f"Opção desconhecida ou fixa nesta variante: 'default_players' "
                         f"(opções: {listed}).")]
    assert await svc.store.chat_game(CHAT.key) is None
