"""Issue 30, "texts that read as bugs say why": a tranca red 3's draw (decision D1, when
the player could not otherwise end the turn) says so; ``regras`` shows no internal
value (``vulnerable_at=None``); a refused ``l`` in a closed-pile variant shows how to
justify the pick-up, in the terminal's commands and in the chat's buttons (RULES A10)."""

from __future__ import annotations

from typing import Any

from test_console import scripted
from test_console_input import answers
from test_narration import (
    ANA,
    CHAT,
    button,
    hand_of,
    press_cards,
    rig,
    service,
    stock_order,
    swap_in,
    table_of,
)

from adapters.console.commands import CHAT as TERMINAL
from bot.effects import Reply
from bot.i18n import Translator
from bot.info import rules_for
from bot.model import decode, encode

STUCK = "baixou o 3♦ e comprou outra por não ter como terminar a vez"


async def test_a_tranca_red_three_draw_says_the_player_could_not_end_the_turn() -> None:
    """RULES A32: no replacement; D1: Ana, her side's morto taken, holds 3♦ alone, draws
    5♥, lays the 3 and, with one card left and no clean canastra to go out with, draws
    10♥ to end her turn."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    def change(deal: dict[str, Any]) -> None:
        swap_in(deal, 0, ["3d"], hand_size=1)
        deal["stock"].extend(deal["mortos"][0])  # the side's morto is taken
        deal["mortos"][0], deal["morto_taken"][0] = [], True
        stock_order(deal, ["5h", "10h"])
        deal.update(turn=0, phase="draw")
    await rig(store, change)
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♦")
    effects = await svc.press(ANA, button(ana, "Baixar o 3"))
    assert table_of(effects).lines[-1] == f"Ana comprou do monte, {STUCK}."
    assert hand_of(effects, ANA).lines[1] == (
        "Você comprou o 5♥, baixou o 3♦ e comprou o 10♥ por não ter como terminar a vez.")
    english = await svc.set_language(CHAT, ANA, "en")
    assert table_of(english).lines[-1] == (
        "Ana drew from the stock, laid the 3♦ and drew another, having no other way to end "
        "the turn.")


def test_regras_shows_an_option_switched_off_as_typed_and_says_what_it_means() -> None:
    text = rules_for("buraco vulnerable_at=0", None, 90, Translator("pt"), "cli")
    assert "None" not in text
    lines = text.splitlines()
    assert "Sem vulnerabilidade: a primeira baixada da mão não tem mínimo" in lines
    assert lines[-1] == "Nesta mesa: vulnerable_at=none"
    plain = rules_for("buraco", None, 90, Translator("pt"), "cli")
    assert "Sem vulnerabilidade" not in plain and "Lado com 750 pontos ou mais" in plain


async def open_pile_turn(svc: object, store: object, preset: str) -> None:
    """Ana to draw, with one card (9♥) on the pile."""
    def change(deal: dict[str, object]) -> None:
        stock_order(deal, ["9h"])  # type: ignore[arg-type]
        deal["pile"] = [deal["stock"].pop(0)]  # type: ignore[attr-defined]
        deal.update(turn=0, phase="draw")
    await rig(store, change)


async def test_a_refused_pick_up_in_the_chat_says_how_to_justify_it() -> None:
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.add_ai(CHAT, ANA, "normal")
    await svc.start(CHAT, ANA)
    await open_pile_turn(svc, store, "tranca")
    ana = hand_of(await svc.show_hand(CHAT, ANA), ANA)
    assert await svc.press(ANA, button(ana, "Pegar o lixo")) == [Reply(player=ANA, text=(
        "Para pegar o lixo, baixe a carta de cima num jogo. Para justificar: marque na sua "
        "mão as cartas que formam jogo com o topo e use Pegar o lixo, ou use Lixo → N para "
        "pôr o topo no seu jogo N."))]


async def test_a_refused_l_in_the_terminal_says_how_to_justify_it() -> None:
    game, out = scripted(["l", "q", "s"], width=200)
    assert await game.setup("tranca", 2)
    store = game.service.store
    gid = await store.chat_game(TERMINAL.key)
    version, raw = await store.load_game(gid)
    stored = decode(raw)
    stock_order(stored.match["deal"], ["9h"])
    stored.match["deal"]["pile"] = [stored.match["deal"]["stock"].pop(0)]
    stored.match["deal"].update(turn=0, phase="draw")
    stored.__dict__.pop("_match", None)
    assert await store.save_game(gid, version, encode(stored), 3600)
    await game.play()
    assert answers(out.getvalue())[0] == (
        "Para pegar o lixo, baixe a carta de cima num jogo. Para justificar: l 4 5 (o topo "
        "com as cartas 4 e 5 da sua mão) ou lj 2 (o topo no seu jogo 2).")
