"""A deal the stock ended says so (issue 38; RULES A26: no stock, no morto to turn, no
pile to reuse ends the deal without a batida): "O monte acabou: ninguém bateu." on the
deal's result in the chat (the terminal prints the same text) and in the table's
narration (the group's table, the terminal's, the web table's), in every variant and
language."""

from __future__ import annotations

from typing import Any

import pytest
from test_narration import (
    ANA,
    CHAT,
    button,
    hand_of,
    press_cards,
    rig,
    service,
    stock_order,
    table_of,
)
from test_service_support import game_of

from bot import play, webview
from bot.effects import Say
from bot.i18n import Translator
from bot.results import breakdown_text
from engine.rules import PRESETS

SAID = {"pt": "O monte acabou: ninguém bateu.", "en": "The stock ran out: nobody went out.",
        "it": "Il tallone è finito: nessuno ha chiuso."}


def last_card(deal: dict[str, Any]) -> None:
    """The stock is one card and nothing can refill it: the mortos and the rest of the
    stock go to the killed pile, and a pile that could be reused once is spent."""
    stock_order(deal, [deal["stock"][0]])
    deal["killed"] = [*deal.get("killed", []), *deal["stock"][1:],
                      *(c for m in deal["mortos"] for c in m)]
    deal["stock"] = deal["stock"][:1]
    deal["mortos"] = [[] for _m in deal["mortos"]]
    deal["pile_reused"] = True
    hand, killed = deal["hands"][0], deal["killed"]
    for i, code in enumerate(hand):  # no red 3 to lay first (RULES A4, A32)
        if code[:2] in ("3h", "3d"):
            j = next(k for k, c in enumerate(killed) if c[0] in "456789")
            hand[i], killed[j] = killed[j], hand[i]
    deal.update(turn=0, phase="draw")


async def stock_out(preset: str, lang: str) -> tuple[list[Any], Any]:
    """Ana and robots play ``preset`` in ``lang``; Ana draws the stock's last card and
    discards: the discard's effects and the stored game."""
    svc, store, _clock = service()
    await svc.set_language(CHAT, ANA, lang)
    await svc.new_game(CHAT, ANA, preset)
    for _robot in range(min(PRESETS[preset].players_allowed) - 1):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    gid = (await game_of(store))[1].id
    await rig(store, last_card)
    _ = Translator(lang)
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), _("Comprar do monte"))),
                  ANA)
    plain = next(c.text for c in ana.cards if c.text[0] in "456789JQK")  # no 3, no wild
    ana = await press_cards(svc, ana, ANA, plain)
    effects = await svc.press(ANA, button(ana, _("Descartar")))
    return effects, (await game_of(store, gid=gid))[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_a26_a_deal_the_stock_ended_says_so_on_its_result(preset: str) -> None:
    effects, game = await stock_out(preset, "pt")
    assert game.status in ("between", "over") and play.deal_of(game).went_out == -1
    result = next(e.text for e in effects if isinstance(e, Say)
                  and e.text.startswith("Fim da mão 1."))
    assert result.splitlines()[:2] == ["Fim da mão 1.", SAID["pt"]]
    assert table_of(effects).lines[-1].endswith(SAID["pt"])
    assert webview.web_view(game, 0)["narration"].endswith(SAID["pt"])
    assert webview.web_view(game, None)["narration"].endswith(SAID["pt"])


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_stock_running_out_is_said_in_the_chats_language(lang: str) -> None:
    effects, _game = await stock_out("tranca", lang)
    result = next(e.text for e in effects if isinstance(e, Say) and SAID[lang] in e.text)
    assert result.splitlines()[1] == SAID[lang]
    assert table_of(effects).lines[-1].endswith(SAID[lang])


async def test_a_deal_someone_went_out_of_says_nothing_of_the_stock() -> None:
    """The line is the stock's alone: the same result with a seat that went out has
    none."""
    _effects, game = await stock_out("tranca", "pt")
    play.deal_of(game).went_out = 1
    text = breakdown_text(game, play.match_of(game).results[-1], Translator("pt"))
    assert text.splitlines()[0] == "Fim da mão 1." and SAID["pt"] not in text


async def test_a26_the_terminal_says_the_stock_ran_out_once() -> None:
    """In the terminal the deal's result says it, and the table after it does not say it
    again (the person's discard ends the deal)."""
    from console_support import typed_game
    from test_service_support import SeededDecks

    from adapters.console.app import CHAT as TERMINAL
    from bot.model import encode

    game, out = typed_game(["c", "d 5", "", "q", "s"], SeededDecks(), 100)
    assert await game.setup("buraco", 2)
    store = game.service.store
    version, stored = await game_of(store, TERMINAL)
    last_card(stored.match["deal"])
    stored.__dict__.pop("_match", None)
    assert await store.save_game(stored.id, version, encode(stored), 3600)
    await game.play()
    text = out.getvalue()
    assert text.count(SAID["pt"]) == 1
    assert text.index("Fim da mão 1.\n" + SAID["pt"] + "\n") < text.index("Placar: ")
