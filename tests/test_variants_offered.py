"""Issue 30: the default table is Bossa Nova (RULES A0), and the lobby (chat) and the
first screen (terminal) offer the other variants in one tap or one word, each with its
one-line description (bot/variants.py)."""

from __future__ import annotations

from typing import Any

from pty_support import Terminal
from test_service_support import ANA, BIA, CHAT, button, game_of, only, texts

from bot import variants
from bot.effects import pack
from bot.i18n import Translator
from bot.service import Service
from engine.rules import PRESETS


def test_every_variant_is_offered_once_with_a_description_in_each_language() -> None:
    assert sorted(variants.ORDER) == sorted(PRESETS)
    assert variants.ORDER[0] == variants.DEFAULT_PRESET == "bossa_nova"  # RULES A0
    for lang in ("en", "it"):
        _ = Translator(lang)
        for preset in variants.ORDER:
            assert variants.describe(preset, _) != variants.DESCRIPTIONS[preset], (lang, preset)
    assert variants.describe("buraco_morto", Translator("pt")) == (
        "Buraco com Morto: quem bate primeiro pega o morto; encerra a mão sem precisar de "
        "canastra.")  # RULES A17: no canastra needed, unlike Bossa Nova (A16)
    assert variants.describe("tranca", Translator("en")) == (
        "Tranca: the closed discard pile is taken only by justifying its top card; a red 3 "
        "is worth 100, a black 3 locks the discard pile; going out needs a clean canasta.")


async def test_a_variant_button_switches_the_lobby_and_a_second_press_changes_nothing(
        svc: Service, store: Any) -> None:
    lobby = only(await svc.new_game(CHAT, ANA, "target=3000"), "table").view
    assert lobby.title == "Buraco Bossa Nova · até 3000 pontos"
    press = button(lobby, "Tranca")
    assert press.endswith("|0|v|3")
    switched = only(await svc.press(ANA, press), "table").view
    assert switched.title == "Tranca · até 3000 pontos"  # the options stay
    assert switched.lines[1] == variants.DESCRIPTIONS["tranca"]
    assert "• " + variants.DESCRIPTIONS["bossa_nova"] in switched.lines
    assert "Tranca" not in [b.label for row in switched.buttons for b in row]
    assert [b.label for b in switched.buttons[3]] == ["Bossa Nova", "Buraco com Morto", "Buraco"]
    version, game = await game_of(store)
    assert (game.preset, game.options) == ("tranca", {"target": "3000"})
    assert texts(await svc.press(ANA, press)) == ["A mesa já joga Tranca."]  # a double tap
    assert (await game_of(store))[0] == version


async def test_only_the_creator_switches_and_only_before_the_start(
        svc: Service, store: Any) -> None:
    lobby = only(await svc.new_game(CHAT, ANA, ""), "table").view
    gid = lobby.buttons[0][0].data.split("|")[0]
    await svc.join(CHAT, BIA)
    assert texts(await svc.press(BIA, button(lobby, "Tranca"))) == [
        "Só quem abriu a mesa pode mudar isso."]
    assert texts(await svc.press(ANA, pack(gid, 0, "v", 99))) == ["Botão desconhecido."]
    assert texts(await svc.press(ANA, pack(gid, 1, "v", 3))) == ["Botão desconhecido."]
    assert texts(await svc.press(ANA, pack(gid, 0, "v", "x"))) == [
        "Esse botão é antigo: use a mesa mais recente."]  # as every lobby button
    await svc.start(CHAT, ANA)
    assert texts(await svc.press(ANA, button(lobby, "Tranca"))) == ["A partida já começou."]
    assert (await game_of(store))[1].preset == "bossa_nova"


async def test_a_variant_that_cannot_seat_the_table_or_take_its_options_is_refused(
        svc: Service, store: Any) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    for _i in range(4):
        lobby = only(await svc.add_ai(CHAT, ANA, "facil"), "table").view
    assert texts(await svc.press(ANA, button(lobby, "Altaneira"))) == [
        "Esta variante joga com 4 jogadores; a mesa tem 5."]
    await svc.cancel(CHAT, ANA)
    lobby = only(await svc.new_game(CHAT, ANA, "buraco jokers=true"), "table").view
    assert texts(await svc.press(ANA, button(lobby, "Tranca"))) == [
        "Jokers só existem na família buraco."]  # the engine's reason
    assert (await game_of(store))[1].preset == "buraco"


def test_the_terminal_plays_bossa_nova_and_one_word_starts_another_variant() -> None:
    """``python -m bot play`` without ``--variant`` (RULES A0): the first screen names
    Bossa Nova and lists the others with their descriptions; ``tranca`` at the first
    prompt starts a Tranca at once; once a move was played another variant asks first."""
    term = Terminal.bot_play("--robos", "facil")
    first = term.expect("Sua mão")
    first = first[first.index(variants.DESCRIPTIONS["bossa_nova"]):]  # past a stale-build line
    assert first.startswith(variants.DESCRIPTIONS["bossa_nova"] + "\n"
                            "Outras variantes: digite o nome para jogar uma delas.\n"
                            "  buraco_morto  Buraco com Morto: quem bate")
    assert "  tranca        Tranca: o lixo fechado" in first
    assert "Buraco Bossa Nova · até 1500 pontos" in first
    assert "Você 11 · Robô 2 11 · Robô 3 11 · Robô 4 11" in first
    term.expect("> ")
    term.type("tranca")
    second = term.expect("Sua mão")
    assert "  bossa_nova    Buraco Bossa Nova: com morto" in second
    # the table's four seats and robots stay (issue 30 T5: it became a 2-player Tranca)
    assert "Tranca · uma mão" in second
    assert "Cartas na mão: Você 11 · Robô 2 11 · Robô 3 11 · Robô 4 11" in second
    term.expect("> ")
    term.type("c")
    term.expect("> ")
    term.type("biriba")
    term.expect("Começar uma partida de Buraco com Morto (4 jogadores: você e 3 robôs; até "
                "1500 pontos)? Esta acaba aqui. (s/n) ")
    term.type("n")
    assert term.expect("> ").strip().endswith("A partida continua.")
    term.type("q")
    term.expect("(s/n)")
    term.type("s")
    assert term.close() == 0
