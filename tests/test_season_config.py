"""/config: a group's saved house rules (issue 29): the default variant and its options
for /novojogo, the turn timer, the language, who may open tables."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, BIA, CHAT, game_of

from bot.effects import Reply
from bot.service import Service


def said(effects: list[Any]) -> str:
    (reply,) = [e for e in effects if isinstance(e, Reply)]
    return str(reply.text)


async def test_config_shows_the_defaults_and_only_admins_change_it(svc: Service) -> None:
    assert said(await svc.config(CHAT, BIA)) == (
        "Configuração do grupo:\n"
        "Variante padrão: a padrão do bot\n"
        "Tempo de jogada: 90 s\n"
        "Idioma: Português (Brasil)\n"
        "Quem abre mesas: todos\n"
        "Dicas (/dica, /revisao) nas mesas novas: ligadas\n"
        "Admins mudam com /config variante|tempo|idioma|mesas|dicas ...")
    assert said(await svc.config(CHAT, BIA, "tempo 60")) == (
        "Só os admins do grupo mudam a configuração.")
    assert said(await svc.config(CHAT, BIA, "cor azul", is_admin=True)) == (
        "Não conheço a configuração cor: use variante, tempo, idioma, mesas ou dicas.")


async def test_the_saved_variant_and_timer_open_the_next_table(svc: Service, store: Any) -> None:
    shown = said(await svc.config(CHAT, ANA, "variante tranca target=3000", is_admin=True))
    assert shown.splitlines()[1] == "Variante padrão: Tranca (tranca target=3000)"
    assert said(await svc.config(CHAT, ANA, "tempo 60", is_admin=True)).splitlines()[2] == (
        "Tempo de jogada: 60 s")
    await svc.new_game(CHAT, BIA)
    _v, game = await game_of(store)
    assert (game.preset, game.options, game.timer_s) == ("tranca", {"target": "3000"}, 60)
    await svc.cancel(CHAT, BIA)
    await svc.new_game(CHAT, BIA, "target=2000")  # typed options go with the saved variant
    _v, game = await game_of(store)
    assert (game.preset, game.options) == ("tranca", {"target": "2000"})
    await svc.cancel(CHAT, BIA)
    await svc.new_game(CHAT, BIA, "altaneira")  # a typed variant is taken as typed
    _v, game = await game_of(store)
    assert (game.preset, game.options) == ("altaneira", {})


async def test_bad_settings_are_refused_and_change_nothing(svc: Service) -> None:
    assert said(await svc.config(CHAT, ANA, "tempo 5", is_admin=True)) == (
        "Tempo de jogada inválido: use de 15 a 3600 segundos.")
    assert said(await svc.config(CHAT, ANA, "mesas alguns", is_admin=True)) == (
        "Quem abre mesas: use todos ou admins.")
    assert said(await svc.config(CHAT, ANA, "idioma xx", is_admin=True)) == (
        "Idioma desconhecido: use pt, en ou it.")
    assert said(await svc.config(CHAT, ANA, "variante pife", is_admin=True)) == (
        "Variante desconhecida: 'pife' (conheço: altaneira, biriba, biriba_tranca, bossa_nova, "
        "buraco, buraco_morto, justificado, stbl, tranca).")
    assert said(await svc.config(CHAT, ANA)).splitlines()[1:4] == [
        "Variante padrão: a padrão do bot", "Tempo de jogada: 90 s",
        "Idioma: Português (Brasil)"]


async def test_only_admins_open_tables_when_the_group_says_so(svc: Service, store: Any) -> None:
    await svc.config(CHAT, ANA, "mesas admins", is_admin=True)
    assert await svc.needs_admin_to_open(CHAT)
    assert said(await svc.new_game(CHAT, BIA, "tranca")) == (
        "Neste grupo só os admins abrem mesas (/config mesas).")
    assert await store.chat_game(CHAT.key) is None
    await svc.new_game(CHAT, BIA, "tranca", is_admin=True)
    assert (await game_of(store))[1].preset == "tranca"


async def test_config_idioma_answers_in_the_new_language(svc: Service) -> None:
    assert said(await svc.config(CHAT, ANA, "idioma en", is_admin=True)).splitlines()[:4] == [
        "Group settings:", "Default variant: the bot's default", "Turn timer: 90 s",
        "Language: English"]
