"""The web table's view data (issue 34): a run's wild says the rank it stands for as the
chat shows it ("2♣(6)"), the cryptic "+N" says what it does, the players say who is a
robot or away, and a closed game offers nothing to press."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, BIA, CHAT, Backend, FakeClock, make_service

from bot import play
from bot.i18n import Translator
from bot.model import decode
from bot.webview import _action_label, _meld_json, web_view
from engine.cards import Card
from engine.melds import make_meld
from engine.rules import make_rules


def test_a_run_s_wild_says_the_rank_it_stands_for_as_the_chat_does() -> None:
    rules = make_rules("buraco")
    meld = make_meld([Card.parse(c) for c in ("5h", "2c", "7h")], rules)
    view = type("View", (), {"rules": rules})()
    got = _meld_json(meld, 0, view, Translator("pt"))
    assert [(c["text"], c.get("stands")) for c in got["cards"]] == [
        ("5♥", None), ("2♣", "6"), ("7♥", None)]
    assert play.show_meld(meld) == "5♥ 2♣(6) 7♥"


def test_adding_to_a_meld_says_so_in_the_table_s_language() -> None:
    assert _action_label("e", "1", "+2", Translator("pt")) == "Juntar ao jogo 2"
    assert _action_label("e", "0", "+1", Translator("en")) == "Add to meld 1"
    assert _action_label("ew", "104", "+2: 2♣(4)", Translator("it")) == (
        "Aggiungi al gioco 2: 2♣(4)")
    assert _action_label("d", "", "Descartar", Translator("pt")) == "Descartar"


async def stored(svc: Any, gid: str) -> str:
    got = await svc.store.load_game(gid)
    assert got is not None
    return str(got[1])


async def test_robots_away_people_and_a_cancelled_game_in_the_view(
        backend: Backend, clock: FakeClock) -> None:
    svc = make_service(backend.make(), clock)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.add_ai(CHAT, ANA)
    await svc.start(CHAT, ANA)
    gid = str(await svc.store.chat_game(CHAT.key))
    await svc.leave(CHAT, BIA)  # away: a robot plays for her
    text = await stored(svc, gid)
    players = web_view(decode(text), 0)["players"]
    assert [(p["name"], p["robot"], p["away"]) for p in players] == [
        ("Ana", False, False), ("Bia", False, True), ("Robô 3", True, False)]
    await svc.cancel(CHAT, ANA)
    text = await stored(svc, gid)
    view = web_view(decode(text), 0)
    assert view["status"] == "over" and view["closed"] is True and view["winner"] == ""
    assert view["hand"]["actions"] == [] and all(c["data"] is None
                                                 for c in view["hand"]["cards"])


async def test_the_lobby_page_offers_each_person_only_the_buttons_that_work_for_them(
        backend: Backend, clock: FakeClock) -> None:
    """A guest seated by an invitation saw Entrar ("Você já está na mesa."), Iniciar,
    Cancelar (refused) and Sortear duplas, and "Outras variantes (um toque de quem abriu
    a mesa)" with no variant button (a tester, issue 35): the seated see no Entrar, the
    not seated no Sair, only the creator the creator's buttons and the other variants."""
    svc = make_service(backend.make(), clock)
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.join(CHAT, BIA)
    game = decode(await stored(svc, str(await svc.store.chat_game(CHAT.key))))
    offer = "Outras variantes (um toque de quem abriu a mesa):"

    def codes(seat: int | None) -> list[str]:
        return [a["code"] for a in web_view(game, seat)["table_actions"]]

    assert codes(0) == ["lv", "ai", "sh", "s", "x"] + ["v"] * 5  # Ana opened it
    assert offer in web_view(game, 0)["lines"]
    assert codes(1) == ["lv"]  # Bia: seated, not the creator
    assert offer not in web_view(game, 1)["lines"]
    assert not any(line.startswith("• ") for line in web_view(game, 1)["lines"])
    assert codes(None) == ["j"]  # someone not seated may only sit down
    await svc.leave(CHAT, ANA)  # Bia is alone: she opens it now, and may close it
    alone = decode(await stored(svc, game.id))
    assert [a["code"] for a in web_view(alone, 0)["table_actions"]][:5] == [
        "lv", "ai", "sh", "s", "x"]
