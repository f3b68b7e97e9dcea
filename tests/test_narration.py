"""Issue 14 part 2, "every player knows what just happened, on every platform": the
table's narration tells every move since the previous edit, a justified pick-up names
its meld, a player's own moves and drawn card are said in their hand, the table says
"Sua vez." on the terminal, Dólares and each side's melded points are shown, and the
going-out rule of the variant is where a player looks for it (``/regras``, ``?``).

Each view is checked as the service builds it and as each platform shows it: Telegram
(HTML text and keyboard), Discord (embed and components) and the terminal (rich panels).
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable
from typing import Any

from console_support import typed_game
from rich.console import Console
from test_service_support import ANA, BIA, CHAT, FakeClock, button, game_of, make_service

from adapters.console import render as console_render
from adapters.console.app import ConsoleGame, help_text
from adapters.delivery.text import redden
from adapters.discord import render as discord_render
from adapters.telegram import render as telegram_render
from bot.effects import HandView, View
from bot.i18n import Translator
from bot.memstore import MemoryStore
from bot.model import encode
from bot.service import Service
from engine.actions import Action
from engine.cards import Card
from engine.rules import make_rules

PT = Translator("pt")


# -- platforms ---------------------------------------------------------------------
def telegram_text(view: View) -> str:
    """What Telegram shows: the HTML text, then the keyboard's labels."""
    labels = [b.label for row in view.buttons for b in row]
    return telegram_render.view_html(view) + "\n" + "\n".join(redden(x) for x in labels)


def discord_text(view: View, hand: bool) -> str:
    """What Discord shows: the embed, then every component label and option."""
    msg = (discord_render.hand_message(view, "g", PT) if hand
           else discord_render.table_message(view))
    parts = [msg.title, msg.description]
    for row in msg.rows:
        items = row if isinstance(row, list) else [row]
        for item in items:
            parts.append(getattr(item, "label", "") or "")
            parts += [o.label for o in getattr(item, "options", [])]
    return "\n".join(parts)


def terminal_text(view: View, hand: bool) -> str:
    """What the terminal prints: the table or hand panel (wide, so nothing wraps)."""
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None)
    if hand:
        console_render.show_hand(console, view, PT)
    else:
        console_render.show_table(console, view)
    return out.getvalue()


def shown_everywhere(view: View, text: str, hand: bool = False) -> None:
    """``text`` is shown as is by the service and on Telegram, Discord and the terminal."""
    assert text in view.lines or any(c.text == text for c in view.cards) or text in [
        b.label for row in view.buttons for b in row], (text, view.lines)
    assert html.escape(redden(text)) in telegram_text(view)
    assert redden(text) in discord_text(view, hand)
    assert text in terminal_text(view, hand)


# -- games set up to the move under test ------------------------------------------
class Script:
    """An AI chooser that plays the given moves in order (then the fallback)."""

    def __init__(self) -> None:
        self.moves: list[Callable[[int], Action]] = []

    def __call__(self, view: Any, level: str) -> Action | None:
        return self.moves.pop(0)(view.seat) if self.moves else None


def service(script: Script | None = None) -> tuple[Service, MemoryStore, FakeClock]:
    clock = FakeClock()
    store = MemoryStore(clock)
    return make_service(store, clock, chooser=script), store, clock


def swap_in(deal: dict[str, Any], seat: int, codes: list[str], hand_size: int | None = None
            ) -> None:
    """Give ``seat`` exactly ``codes`` (and, with ``hand_size`` None, keep the other
    cards): each card comes from the stock, a morto or another hand, whose place gets a
    card of this hand (no card appears or vanishes)."""
    hand: list[str] = deal["hands"][seat]
    pools = [deal["stock"], *deal["mortos"],
             *[h for k, h in enumerate(deal["hands"]) if k != seat]]
    for code in codes:
        if code in hand:
            continue
        pool = next(p for p in pools if code in p)
        out = next(c for c in hand if c not in codes)
        hand[hand.index(out)] = code
        pool[pool.index(code)] = out
    if hand_size is not None:
        extra = [c for c in hand if c not in codes]
        deal["hands"][seat] = list(codes)
        deal["stock"].extend(extra)


def stock_order(deal: dict[str, Any], codes: list[str]) -> None:
    """The stock's top cards become ``codes`` (top first), swapped in from anywhere."""
    stock: list[str] = deal["stock"]
    pools = [*deal["mortos"], *deal["hands"]]
    for i, code in enumerate(codes):
        if stock[i] == code:
            continue
        if code in stock[i + 1:]:
            j = stock.index(code, i + 1)
            stock[i], stock[j] = stock[j], stock[i]
            continue
        pool = next(p for p in pools if code in p)
        pool[pool.index(code)], stock[i] = stock[i], code


async def rig(store: Any, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the stored deal of CHAT's game (a test sets up exact hands)."""
    version, game = await game_of(store)
    change(game.match["deal"])
    game.__dict__.pop("_match", None)
    assert await store.save_game(game.id, version, encode(game), 3600)


def hand_of(effects: list[Any], player: Any) -> View:
    found = [e.view for e in effects if isinstance(e, HandView) and e.player.key == player.key]
    assert len(found) == 1
    return found[0]


def table_of(effects: list[Any]) -> View:
    return [e.view for e in effects if e.kind == "table"][-1]


async def press_cards(svc: Service, view: View, player: Any, *names: str) -> View:
    """Select the named cards of ``view`` (first unused copy of each)."""
    picked: list[int] = []
    for name in names:
        picked.append(next(c.index for c in view.cards
                           if c.text == name and c.index not in picked))
    for i in picked:
        view = hand_of(await svc.press(player, button_t(view, i)), player)
    return view


def button_t(view: View, index: int) -> str:
    return next(b.data for row in view.buttons for b in row
                if b.data.split("|")[2] == "t" and b.data.split("|")[3] == str(index))


def meld(*codes: str) -> Callable[[int], Action]:
    return lambda seat: Action.lay_down(seat, melds=[[Card.parse(c) for c in codes]])


def discard(code: str) -> Callable[[int], Action]:
    return lambda seat: Action.discard(seat, Card.parse(code))


# -- item 1: every move since the previous edit ------------------------------------
async def test_a_robots_whole_turn_is_told_in_the_one_edit_that_shows_it() -> None:
    """The delivery layer keeps only the newest table of a few seconds (coalescing):
    that table tells the robot's draw, meld and discard, and Ana's turn before it."""
    script = Script()
    svc, store, _clock = service(script)
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["Kd"]), swap_in(d, 1, ["6c", "7c", "8c", "9h"]),
                                stock_order(d, ["4s", "Qs"])))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "K♦")
    await svc.press(ANA, button(ana, "Descartar"))
    script.moves = [lambda seat: Action.draw(seat), meld("6c", "7c", "8c"), discard("9h")]
    tables = [table_of(await svc.tick()) for _move in range(3)]
    said = ("Ana comprou do monte e descartou K♦. "
            "Robô 2 comprou do monte, baixou 6♣ 7♣ 8♣ e descartou 9♥.")
    assert tables[-1].lines[-1] == said
    shown_everywhere(tables[-1], said)
    # item 6: each side's points melded in this deal beside the match score (RULES C14)
    assert tables[-1].lines[:3] == ["Ana: 0 pts · nesta mão: 0 em jogos", "  (sem jogos)",
                                    "Robô 2: 0 pts · nesta mão: 20 em jogos"]
    shown_everywhere(tables[-1], "Robô 2: 0 pts · nesta mão: 20 em jogos")


async def test_moves_older_than_the_last_turn_stay_while_recent() -> None:
    """Two robots after Ana: the table made after the second robot's draw still tells
    Ana's discard (less than 10 s ago), so nobody misses a move between two edits."""
    svc, store, clock = service()
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "normal")
    await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["Kd"]), stock_order(d, ["4s", "Qs", "5h"])))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "K♦")
    await svc.press(ANA, button(ana, "Descartar"))
    tables = [table_of(await svc.tick()) for _move in range(3)]
    # Ana's turn is older than the last one, but less than 10 s old (narration.RECENT_S)
    assert tables[-1].lines[-1] == ("Ana comprou do monte e descartou K♦. Robô 2 comprou do "
                                    "monte e descartou A♣. Robô 3 comprou do monte.")
    clock.advance(30)  # long after: the last turn (Robô 3's) and the turn in play (Ana's)
    assert table_of(await svc.tick()).lines[-1] == "Robô 3 comprou do monte e descartou A♣."


# -- item 2: a justified pick-up names its meld (RULES A10, A38) -------------------
async def test_a_justified_pick_up_onto_a_meld_says_which_meld_it_extended() -> None:
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "justificado")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)

    def setup(d: dict[str, Any]) -> None:
        swap_in(d, 0, ["10d"])
        for code in ("7d", "8d", "9d"):  # Bia's side already has 7♦ 8♦ 9♦ on the table
            pool = next(p for p in [d["stock"], *d["mortos"], d["hands"][0]] if code in p)
            pool.remove(code)
        d["melds"][1] = [["7d", "8d", "9d"]]
        d["has_laid"] = [False, True]
        stock_order(d, ["4s"])
    await rig(store, setup)
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "10♦")
    bia = hand_of(await svc.press(ANA, button(ana, "Descartar")), BIA)
    effects = await svc.press(BIA, button(bia, "Lixo → 1"))
    said = ("Ana comprou do monte e descartou 10♦. "
            "Bia pegou o lixo (1 carta) juntando 10♦ ao jogo 1.")
    assert table_of(effects).lines[-1] == said
    shown_everywhere(table_of(effects), said)
    own = "Você pegou o lixo (1 carta) juntando 10♦ ao jogo 1."
    shown_everywhere(hand_of(effects, BIA), own, hand=True)
    assert Translator("en")("pegou o lixo ({count}) juntando {card} ao jogo {meld}",
                            count="1 card", card="10♦", meld=1) == (
        "took the discard pile (1 card) adding 10♦ to meld 1")


# -- items 3, 4, 5: own moves in the hand, the drawn card, Dólares ------------------
async def test_own_discard_of_a_tranca_is_confirmed_in_the_hand() -> None:
    """Altaneira (RULES A6): Ana's 3♣ kills the pile; her hand says so, as the table
    says it of everyone. Her laid Dólar shows as "Dólares" (RULES A4)."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "altaneira")
    for _robot in range(3):
        await svc.add_ai(CHAT, ANA, "normal")
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["3c", "3h"]), stock_order(d, ["4s", "Qs"]),
                                d.update(turn=0, phase="draw")))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "3♥")
    laid = await svc.press(ANA, button(ana, "Baixar o 3"))
    shown_everywhere(table_of(laid), "  Dólares: 3♥")
    ana = await press_cards(svc, hand_of(laid, ANA), ANA, "3♣")
    effects = await svc.press(ANA, button(ana, "Descartar"))
    own = "Você comprou do monte, baixou o 3♥ e comprou outra, descartou 3♣ e trancou o lixo."
    assert hand_of(effects, ANA).lines[1] == own
    shown_everywhere(hand_of(effects, ANA), own, hand=True)
    assert table_of(effects).lines[-1] == (
        "Ana comprou do monte, baixou o 3♥ e comprou outra, descartou 3♣ e trancou o lixo.")


async def test_the_drawn_card_is_named_and_marked_only_in_the_drawers_hand() -> None:
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: stock_order(d, ["7d"]))
    effects = await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte"))
    ana = hand_of(effects, ANA)
    assert ana.lines[1] == "Você comprou o 7♦."
    assert [c.text for c in ana.cards if c.drawn] == ["7♦"]
    shown_everywhere(ana, "Você comprou o 7♦.", hand=True)
    shown_everywhere(ana, "•7♦", hand=True)  # the button / option / numbered card
    # the group learns only that she drew: no hidden card on the table
    table = table_of(effects)
    assert table.lines[-1] == "Ana comprou do monte."
    assert "Lixo vazio · Monte: 81" in table.lines  # no meld, no pile: 7♦ is named nowhere
    assert "7♦" not in telegram_text(table) + discord_text(table, False)
    assert "7♦" not in terminal_text(table, False)


async def test_the_drawn_card_is_marked_after_a_morto_taken_by_discard() -> None:
    """RULES C12: the morto taken by a discard joins the hand at the next turn, which
    starts with a draw; the drawn card is named and marked among the morto's cards."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "buraco_morto")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)
    await rig(store, lambda d: (swap_in(d, 0, ["5c", "6c", "9h"], hand_size=3),
                                stock_order(d, ["7c", "4s", "Jh"])))
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "5♣", "6♣", "7♣")
    ana = hand_of(await svc.press(ANA, button(ana, "Baixar")), ANA)
    ana = await press_cards(svc, ana, ANA, "9♥")
    effects = await svc.press(ANA, button(ana, "Descartar"))
    assert table_of(effects).lines[-1] == (
        "Ana comprou do monte, baixou 5♣ 6♣ 7♣, descartou 9♥ e pegou o morto.")
    bia = hand_of(effects, BIA)
    bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
    bia = await press_cards(svc, bia, BIA, "4♠")
    effects = await svc.press(BIA, button(bia, "Descartar"))
    ana = hand_of(await svc.press(ANA, button(hand_of(effects, ANA), "Comprar do monte")), ANA)
    assert len(ana.cards) == 12 and "Você comprou o J♥." in ana.lines
    assert [c.text for c in ana.cards if c.drawn] == ["J♥"]
    shown_everywhere(ana, "Você comprou o J♥.", hand=True)


async def test_a_morto_taken_by_melding_the_last_cards_has_no_card_marked_as_drawn() -> None:
    """RULES C11: a direct going-out takes the morto and the turn goes on without a
    draw; the morto's 7♣ is not the 7♣ she drew (that one is in the meld)."""
    svc, store, _clock = service()
    await svc.new_game(CHAT, ANA, "buraco_morto")
    await svc.join(CHAT, BIA)
    started = await svc.start(CHAT, ANA)

    def setup(d: dict[str, Any]) -> None:
        swap_in(d, 0, ["5c", "6c"], hand_size=2)
        stock_order(d, ["7c"])
        where = next(p for p in [d["stock"][1:], *d["hands"]] if "7c" in p)
        if where is not d["hands"][0] and "7c" not in d["mortos"][0]:
            pool = d["stock"] if where is not d["hands"][1] else d["hands"][1]
            k = pool.index("7c", 1 if pool is d["stock"] else 0)
            pool[k], d["mortos"][0][0] = d["mortos"][0][0], "7c"
    await rig(store, setup)
    ana = hand_of(await svc.press(ANA, button(hand_of(started, ANA), "Comprar do monte")), ANA)
    ana = await press_cards(svc, ana, ANA, "5♣", "6♣", "7♣")
    effects = await svc.press(ANA, button(ana, "Baixar"))
    ana = hand_of(effects, ANA)
    assert len(ana.cards) == 11 and "7♣" in [c.text for c in ana.cards]
    assert not any(c.drawn for c in ana.cards)
    own = "Você comprou o 7♣, baixou 5♣ 6♣ 7♣ e pegou o morto."
    assert own in ana.lines
    shown_everywhere(ana, own, hand=True)
    assert table_of(effects).lines[-1] == "Ana comprou do monte, baixou 5♣ 6♣ 7♣ e pegou o morto."


# -- item 5: "Sua vez." on the terminal ---------------------------------------------
def scripted(lines: list[str]) -> tuple[ConsoleGame, io.StringIO]:
    from test_service_support import SeededDecks
    return typed_game(lines, SeededDecks(), echo=False)


async def test_the_terminal_table_says_sua_vez_to_its_player() -> None:
    game, out = scripted(["q"])
    assert await game.setup("buraco", None)
    await game.play()
    text = out.getvalue()
    assert "│ Sua vez." in text and "Vez de Você" not in text


async def test_the_terminal_says_the_players_own_moves_in_the_second_person() -> None:
    game, out = scripted(["c", "d 1", "q"])
    assert await game.setup("buraco", None)
    await game.play()
    text = out.getvalue()
    # the hand panel after the draw: the drawn card at the end, marked
    assert "│ 1:6♣  2:3♦  3:4♦  4:Q♦  5:A♥  6:5♥  7:9♥  8:K♥  9:8♠  10:10♠  11:K♠  12:•8♦ " in text
    assert "│ Você comprou o 8♦." in text
    # the robots played while the person waited: each turn printed once, on its own line,
    # when it ended; the last one is in the table; the person's own turn is in the hand
    assert ("\nRobô 2 comprou do monte e descartou A♣.\n"
            "Robô 3 comprou do monte e descartou A♦.\n╭") in text
    assert "│ Robô 4 comprou do monte e descartou A♣." in text
    assert text.count("Robô 3 comprou do monte e descartou A♦.") == 1
    assert "Robô 2 comprou do monte.\n" not in text  # no growing line per move
    assert "│ Você comprou do monte e descartou 6♣." in text
    assert "\nVocê comprou do monte e descartou 6♣." not in text


# -- item 7: the going-out rule where a player looks for it (RULES §2) -------------
GOING_OUT = {
    "buraco": "Para bater: não precisa de canastra.",  # RULES A17
    "buraco_morto": "Para bater (e pegar o morto ou encerrar a mão): não precisa de "
                    "canastra.",  # RULES A17: one requirement, said once
    "bossa_nova": "Para bater e pegar o morto: não precisa de canastra; para bater e "
                  "encerrar a mão: precisa de uma canastra (limpa ou suja).",  # RULES A16
    "tranca": "Para bater e pegar o morto: não precisa de canastra; para bater e "
              "encerrar a mão: precisa de uma canastra limpa.",
    "justificado": "Para bater e pegar o morto: não precisa de canastra; para bater e "
                   "encerrar a mão: precisa de uma canastra limpa.",
    "altaneira": "Para bater e pegar o morto: não precisa de canastra; para bater e "
                 "encerrar a mão: precisa de uma canastra (limpa ou suja). O segundo morto "
                 "só sai numa batida sem descarte.",  # seed 000 §8.3, RULES A1
}


async def test_regras_states_the_going_out_rule_of_each_variant() -> None:
    svc, _store, _clock = service()
    for preset, rule in GOING_OUT.items():
        (reply,) = await svc.rules_text(CHAT, ANA, preset)
        assert rule in reply.text.splitlines(), preset
        assert html.escape(redden(rule)) in telegram_render.plain_html(reply.text)
        assert redden(rule) in discord_render.text_message(reply.text)


async def test_the_terminal_help_states_the_going_out_rule() -> None:
    for preset, rule in GOING_OUT.items():
        assert help_text(make_rules(preset, {}), PT).splitlines()[-1] == rule
    game, out = scripted(["?", "q"])
    assert await game.setup("bossa_nova", None)
    await game.play()
    assert GOING_OUT["bossa_nova"] in out.getvalue().replace("\n", " ")
    en = help_text(make_rules("buraco", {}), Translator("en")).splitlines()[-1]
    assert en == "To go out: no canasta needed."


# -- the narration's entries ---------------------------------------------------------
def narrated_game(last: list[Any]) -> Any:
    from bot.model import Game, Seat
    return Game(id="g", chat=CHAT, creator=ANA, preset="buraco", created=0, touched=0,
                seats=[Seat(player=ANA), Seat(ai="normal")], last=last)


def test_a_turn_is_one_sentence_and_the_reader_is_told_in_the_second_person() -> None:
    from bot import narration, views
    last = [("comprou do monte", {"seat": 0, "t": 4, "at": 0}),
            ("descartou {card}", {"seat": 0, "t": 4, "at": 0, "card": "3♣"}),
            ("trancou o lixo", {"seat": 0, "t": 4, "at": 0}),
            ("comprou do monte", {"seat": 1, "t": 5, "at": 0})]
    game = narrated_game(last)
    assert views.last_text(game, PT) == (
        "Ana comprou do monte, descartou 3♣ e trancou o lixo. Robô 2 comprou do monte.")
    assert views.last_text(game, Translator("en")) == (
        "Ana drew from the stock, discarded 3♣ and killed the discard pile. AI 2 drew from "
        "the stock.")
    mine = {lang: narration.own_line(game, 0, Translator(lang), None, 5)
            for lang in ("pt", "en", "it")}
    assert mine == {"pt": "Você comprou do monte, descartou 3♣ e trancou o lixo.",
                    "en": "You drew from the stock, discarded 3♣ and killed the discard pile.",
                    "it": "Hai pescato dal tallone, hai scartato 3♣ e hai chiuso gli scarti."}
    assert narration.own_line(game, 1, PT, Card.parse("7d"), 5) == "Você comprou o 7♦."


def test_the_narration_keeps_the_last_two_turns_and_the_last_ten_seconds() -> None:
    from bot import narration
    entries = [("A partida começou.", {}),
               ("descartou {card}", {"seat": 0, "t": 1, "at": 100, "card": "9♥"}),
               ("descartou {card}", {"seat": 1, "t": 2, "at": 105, "card": "K♦"}),
               ("comprou do monte", {"seat": 0, "t": 3, "at": 106})]
    assert narration.recent(entries, 3, 106) == entries[1:]  # 9♥ was 6 s ago
    assert narration.recent(entries, 3, 120) == entries[2:]  # now only turns 2 and 3
    many = [("comprou do monte", {"seat": 0, "t": 9, "at": 0})] * 40
    assert len(narration.recent(many, 9, 0)) == narration.MAX_ENTRIES


def test_an_entry_stored_by_an_older_version_is_still_told() -> None:
    """A game saved before the narration kept whole sentences ("{name} ...")."""
    from bot import views
    game = narrated_game([("{name} baixou {melds} e juntou {extended}.",
                           {"seat": 1, "melds": [["4♦", "5♦", "6♦"]],
                            "extend": [[3, ["Q♦"]]]})])
    assert views.last_text(game, PT) == "Robô 2 baixou 4♦ 5♦ 6♦ e juntou Q♦ ao jogo 3."


def test_a_turn_told_again_is_the_same_sentence_in_each_language_and_name() -> None:
    """Each table view tells the last turns again; a turn's sentence is kept by its
    entries (issue 36): told again it is the same text, in each language and under each
    name its own, and a turn that grows (the discard after the draw) is told anew."""
    from bot import narration, views
    last = [("comprou do monte", {"seat": 0, "t": 4, "at": 0}),
            ("comprou do monte", {"seat": 1, "t": 5, "at": 0})]
    game = narrated_game(last)
    first = views.last_text(game, PT)
    assert first == "Ana comprou do monte. Robô 2 comprou do monte."
    assert views.last_text(game, PT) == first
    assert views.last_text(game, Translator("en")) == (
        "Ana drew from the stock. AI 2 drew from the stock.")
    assert narration.last_text(game, PT, ["Bia", "Robô 2"]) == (
        "Bia comprou do monte. Robô 2 comprou do monte.")
    assert narration.last_text(game, PT, ["Ana", "Robô 2"], you=0) == (
        "Você comprou do monte. Robô 2 comprou do monte.")
    game.last.append(("descartou {card}", {"seat": 1, "t": 5, "at": 0, "card": "K♦"}))
    assert views.last_text(game, PT) == (
        "Ana comprou do monte. Robô 2 comprou do monte e descartou K♦.")
