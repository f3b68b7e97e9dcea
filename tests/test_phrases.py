"""Preset phrases between strangers (issue 35, bot/phrases.py): a table shown in several
places offers "Boa!", "Obrigado", "Vamos lá", "Desculpe", "Bom jogo" as buttons; a
person seated presses one and every place's table shows it by their name; nothing else
they could type crosses over."""

from __future__ import annotations

from typing import Any

from test_places import DC, ZE, invited
from test_service_support import ANA, CAIO, CHAT, FakeClock, button

from bot.effects import pack
from bot.service import Service

PHRASE_ROWS = [["Boa!", "Obrigado", "Vamos lá"], ["Desculpe", "Bom jogo"]]


async def started(svc: Service) -> str:
    code = await invited(svc)
    await svc.join_code(DC, ZE, code)
    effects = await svc.start(CHAT, ANA)
    return str(effects[0].game_id)


def rows(view: Any) -> list[list[str]]:
    return [[b.label for b in row] for row in view.buttons]


async def test_a_table_in_two_places_offers_the_phrases(svc: Service) -> None:
    gid = await started(svc)
    (table,) = [e for e in await svc.table_of(gid) if e.chat == DC]
    assert rows(table.view) == [["Minha mão"], *PHRASE_ROWS]
    assert button(table.view, "Boa!") == f"{gid}|0|ph|0"


async def test_a_phrase_pressed_shows_on_the_table_of_every_place(svc: Service,
                                                                  clock: FakeClock) -> None:
    gid = await started(svc)
    effects = await svc.press(ZE, pack(gid, 0, "ph", 0), chat=DC)
    assert sorted(e.chat.key for e in effects if e.kind == "table") == ["dc:900", "tg:-100"]
    assert all(e.view.lines[-1] == "💬 Zé: Boa!" for e in effects if e.kind == "table")
    clock.advance(5)
    effects = await svc.press(ANA, pack(gid, 0, "ph", 4), chat=CHAT)
    assert effects[0].view.lines[-2:] == ["💬 Zé: Boa!", "💬 Ana: Bom jogo"]


async def test_phrases_are_refused_too_soon_to_strangers_and_forged(svc: Service) -> None:
    gid = await started(svc)
    await svc.press(ZE, pack(gid, 0, "ph", 1), chat=DC)
    said = [(await svc.press(p, pack(gid, 0, "ph", i)))[0].text
            for p, i in ((ZE, 2), (CAIO, 0), (ANA, 5))]
    assert said == ["Uma frase a cada 5 segundos.", "Você não está nesta partida.",
                    "Botão desconhecido."]


async def test_a_table_in_one_group_offers_none(svc: Service) -> None:
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA)
    assert rows(effects[0].view) == [["Minha mão"]]
    said = await svc.press(ANA, pack(effects[0].game_id, 0, "ph", 0))
    assert said[0].text == "Botão desconhecido."


async def test_the_phrases_read_in_the_table_s_language(svc: Service) -> None:
    await svc.set_language(CHAT, ANA, "en")
    gid = await started(svc)
    effects = await svc.press(ZE, pack(gid, 0, "ph", 0), chat=DC)
    assert effects[0].view.lines[-1] == "💬 Zé: Nice!"
    assert rows(effects[0].view)[1:] == [["Nice!", "Thanks", "Let's go"],
                                         ["Sorry", "Good game"]]
