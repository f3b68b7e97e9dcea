"""Turns through the engine: button versions, selection, refusals, concurrency,
idempotency (issue 4 "Turns", "Concurrency", "Idempotency")."""

from __future__ import annotations

import asyncio
from typing import Any

from test_service_support import (
    ANA,
    BIA,
    CAIO,
    CHAT,
    Backend,
    FakeClock,
    button,
    game_of,
    kinds,
    make_service,
    texts,
)

from bot.effects import HandView, Reply, View, pack
from bot.model import encode
from bot.service import Service

STALE = "Esse botão é antigo: use a mão mais recente (/mao)."


def refused_as_old(effects: list[Any], player: Any) -> Any:
    """A press on an outdated hand: the person's current hand (bot.turns.check_seat:
    a hand left behind catches up), then :data:`STALE`. Returns that hand's view."""
    assert kinds(effects) == ["hand", "reply"]
    assert effects[0].player == player and effects[1] == Reply(player=player, text=STALE)
    return effects[0].view


def hand_of(effects: list[Any], player: Any) -> View:
    found = [e for e in effects if isinstance(e, HandView) and e.player.key == player.key]
    assert len(found) == 1, kinds(effects)
    return found[0].view


def cards(view: View) -> list[str]:
    return [c.text for c in view.cards]


def idx(view: View, *names: str) -> list[int]:
    """Indices of the named cards in a hand view (first unused copy of each)."""
    out: list[int] = []
    for name in names:
        out.append(next(c.index for c in view.cards if c.text == name and c.index not in out))
    return out


async def two_player_buraco(svc: Service) -> tuple[str, View, View]:
    """Ana (seat 0) vs Bia, seeded deck: returns game id and both hand views."""
    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    return effects[0].game_id, hand_of(effects, ANA), hand_of(effects, BIA)


async def select(svc: Service, player: Any, gid: str, view: View, *names: str) -> View:
    hand = view
    for i in idx(view, *names):
        hand = hand_of(await svc.press(player, pack(gid, view.version, "t", i)), player)
    return hand


async def test_seeded_deal_and_views(svc: Service) -> None:
    _gid, ana, bia = await two_player_buraco(svc)
    assert cards(ana) == ["5♣", "3♦", "10♦", "Q♦", "Q♦", "A♥", "5♥", "8♥", "9♥", "6♠", "K♠"]
    assert cards(bia) == ["A♣", "A♣", "2♣", "7♣", "J♣", "2♦", "5♦", "7♦", "K♦", "7♥", "4♠"]
    assert ana.title == "Sua mão (11 cartas)"
    assert ana.lines == ["Mesa: Grupo do Buraco", "Sua vez: compre do monte."]
    assert bia.lines == ["Mesa: Grupo do Buraco", "Aguarde a sua vez."]
    assert [b.label for b in ana.buttons[-1]] == ["Comprar do monte"]
    # Bia's buttons are only her own cards, by index: no action buttons, no card codes.
    assert {b.data.split("|")[2] for row in bia.buttons for b in row} == {"t"}
    for view in (ana, bia):
        for row in view.buttons:
            for b in row:
                assert len(b.data.encode()) <= 64
                assert b.data.split("|")[3].isdigit() or b.data.split("|")[3] == ""


async def test_draw_then_the_same_button_again_is_stale(svc: Service, store: Any) -> None:
    _gid, ana, _bia = await two_player_buraco(svc)
    draw = button(ana, "Comprar do monte")
    effects = await svc.press(ANA, draw)
    assert kinds(effects) == ["table", "hand"]
    assert effects[0].view.lines[-2:] == ["Vez de Ana.", "Ana comprou do monte."]
    assert "Monte: 81" in effects[0].view.lines[-3]
    hand = hand_of(effects, ANA)
    assert "J♥" in cards(hand) and len(hand.cards) == 12
    assert hand.lines[-1] == "Sua vez: baixe jogos e descarte uma carta."
    assert [[b.label for b in r] for r in hand.buttons[2:]] == [
        ["💡 Dica"], ["Baixar", "Separar"], ["Descartar", "Abrir o lixo e comprar outra"]]
    version, _g = await game_of(store)
    assert refused_as_old(await svc.press(ANA, draw), ANA) == hand
    assert (await game_of(store))[0] == version


async def test_who_may_press(svc: Service) -> None:
    gid, _ana, bia = await two_player_buraco(svc)
    assert await svc.press(BIA, pack(gid, bia.version, "c")) == [
        Reply(player=BIA, text="Não é a sua vez.")]
    assert await svc.press(CAIO, pack(gid, 1, "c")) == [
        Reply(player=CAIO, text="Você não está nesta partida.")]
    assert await svc.press(ANA, "garbage") == [Reply(player=ANA, text="Botão desconhecido.")]
    assert await svc.press(ANA, pack("nosuchgm", 1, "c")) == [
        Reply(player=ANA, text="Este jogo não existe mais.")]


async def test_one_card_picked_before_the_draw_or_off_turn_gets_no_discard_hint(
        svc: Service) -> None:
    """RULES §2: a turn starts with the draw, so "(descartar ou juntar a um jogo)" after
    one picked card is only said in the play phase of one's own turn (a trial saw it
    before the draw, when neither was allowed)."""
    gid, ana, bia = await two_player_buraco(svc)
    first = ana.cards[0].text
    picked = await select(svc, ANA, gid, ana, first)
    assert picked.lines[1] == f"Selecionadas: {first}"
    assert picked.lines[-1] == "Sua vez: compre do monte."  # the pile is empty
    other = bia.cards[0].text
    waiting = await select(svc, BIA, gid, bia, other)
    assert waiting.lines[1:3] == [f"Selecionadas: {other}", "Aguarde a sua vez."]


async def test_toggle_discard_and_the_turn_passes(svc: Service) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    assert texts(await svc.press(ANA, button(ana, "Descartar"))) == ["Selecione a carta primeiro."]
    picked = await select(svc, ANA, gid, ana, "J♥")
    assert picked.lines[1] == "Selecionadas: J♥ (descartar ou juntar a um jogo)"
    assert [c.selected for c in picked.cards].count(True) == 1
    assert "[•J♥]" in [b.label for row in picked.buttons for b in row]  # drawn, selected
    effects = await svc.press(ANA, button(picked, "Descartar"))
    assert kinds(effects) == ["table", "hand", "hand", "turn"]
    table = effects[0].view
    assert table.lines[-3:] == ["Lixo: J♥ · Monte: 81", "Vez de Bia.",
                                "Ana comprou do monte e descartou J♥."]
    assert "J♥" not in cards(hand_of(effects, ANA))
    bia = hand_of(effects, BIA)
    assert [b.label for b in bia.buttons[-1]] == ["Comprar do monte", "Pegar o lixo"]
    assert bia.lines[-1] == "Sua vez: compre do monte ou pegue o lixo."  # a pile to take now
    assert effects[3].player == BIA and effects[3].text == "Sua vez em Grupo do Buraco."
    # the same discard button again: stale, nothing changes
    assert refused_as_old(await svc.press(ANA, button(picked, "Descartar")),
                          ANA) == hand_of(effects, ANA)


async def test_illegal_meld_gets_the_engine_reason_and_changes_nothing(
        svc: Service, store: Any) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    picked = await select(svc, ANA, gid, ana, "5♣", "10♦", "K♠")
    assert picked.lines[1] == "Selecionadas: 5♣ 10♦ K♠ (não formam um jogo novo)"
    version, _g = await game_of(store)
    assert await svc.press(ANA, button(picked, "Baixar")) == [
        Reply(player=ANA, text="Uma sequência precisa ser toda do mesmo naipe.")]
    assert (await game_of(store))[0] == version


async def test_meld_take_pile_and_set_aside(svc: Service) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, "J♥")
    effects = await svc.press(ANA, button(ana, "Descartar"))
    bia = hand_of(effects, BIA)
    effects = await svc.press(BIA, button(bia, "Pegar o lixo"))
    assert effects[0].view.lines[-1] == (
        "Ana comprou do monte e descartou J♥. Bia pegou o lixo (1 carta).")
    bia = hand_of(effects, BIA)
    assert "J♥" in cards(bia) and len(bia.cards) == 12
    bia = await select(svc, BIA, gid, bia, "7♣", "7♦", "7♥")
    assert bia.lines[1] == "Selecionadas: 7♣ 7♦ 7♥ (formam um jogo)"
    bia = hand_of(await svc.press(BIA, button(bia, "Separar")), BIA)
    assert bia.lines[1] == "Separado 1: 7♣ 7♦ 7♥ (jogo novo)"
    assert [c.group for c in bia.cards if c.text.startswith("7")] == [1, 1, 1]
    effects = await svc.press(BIA, button(bia, "Baixar"))
    table = effects[0].view
    assert table.lines[:4] == ["Ana: 0 pts · nesta mão: 0 em jogos", "  (sem jogos)",
                               "Bia: 0 pts · nesta mão: 15 em jogos", "  1) 7♣ 7♦ 7♥"]
    assert table.lines[-1] == ("Ana comprou do monte e descartou J♥. "
                               "Bia pegou o lixo (1 carta) e baixou 7♣ 7♦ 7♥.")
    bia = hand_of(effects, BIA)
    assert len(bia.cards) == 9
    assert [b.label for b in bia.buttons[-2]] == ["+1"]


async def test_duplicate_update_changes_nothing(svc: Service, store: Any) -> None:
    _gid, ana, _bia = await two_player_buraco(svc)
    first = await svc.press(ANA, button(ana, "Comprar do monte"), update="tg:u:77")
    assert kinds(first) == ["table", "hand"]
    version, _g = await game_of(store)
    assert await svc.press(ANA, button(ana, "Comprar do monte"), update="tg:u:77") == []
    assert await svc.join(CHAT, CAIO, update="tg:u:77") == []
    assert (await game_of(store))[0] == version


async def test_two_workers_press_the_same_button_one_wins(
        backend: Backend, clock: FakeClock) -> None:
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    _gid, ana, _bia = await two_player_buraco(w1)
    draw = button(ana, "Comprar do monte")
    a, b = await asyncio.gather(w1.press(ANA, draw), w2.press(ANA, draw))
    results = sorted([kinds(a), kinds(b)])
    assert results == [["hand", "reply"], ["table", "hand"]]
    won, lost = (a, b) if kinds(a) == ["table", "hand"] else (b, a)
    assert refused_as_old(lost, ANA) == hand_of(won, ANA)
    _v, game = await game_of(backend.make())
    from bot import play

    assert len(play.deal_of(game).hands[0]) == 12


class RacingStore:
    """Wraps a store: before Ana's first save, another worker saves a toggle by Bia."""

    def __init__(self, inner: Any, other: Service, gid: str, bia_view: View) -> None:
        self.inner, self.other, self.gid, self.bia = inner, other, gid, bia_view
        self.raced = False
        self.saves = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_game(self, game_id: str, expected: int, state: str, ttl_s: int,
                        *args: Any, **kw: Any) -> bool:
        self.saves += 1
        if not self.raced:
            self.raced = True
            await self.other.press(BIA, pack(self.gid, self.bia.version, "t", 0))
        return bool(await self.inner.save_game(game_id, expected, state, ttl_s, *args, **kw))


async def test_lost_race_reloads_and_reverifies(backend: Backend, clock: FakeClock) -> None:
    plain = make_service(backend.make(), clock)
    gid, ana, bia = await two_player_buraco(plain)
    racing = RacingStore(backend.make(), make_service(backend.make(), clock), gid, bia)
    worker = make_service(racing, clock)
    effects = await worker.press(ANA, button(ana, "Comprar do monte"))
    assert kinds(effects) == ["table", "hand"]
    assert racing.saves == 2  # first save lost to Bia's toggle, second after reloading
    _v, game = await game_of(backend.make())
    assert game.seats[1].sel == [0]  # Bia's toggle survived
    assert game.seats[0].ver == 2


async def test_a_worker_never_acts_on_its_stale_copy(backend: Backend, clock: FakeClock) -> None:
    w1 = make_service(backend.make(), clock)
    w2 = make_service(backend.make(), clock)
    gid, ana, _bia = await two_player_buraco(w1)
    ana = hand_of(await w1.press(ANA, button(ana, "Comprar do monte")), ANA)  # w1 caches
    await w2.press(ANA, pack(gid, ana.version, "t", 0))  # another worker saves after it
    picked = hand_of(await w1.press(ANA, pack(gid, ana.version, "t", 1)), ANA)
    assert [c.selected for c in picked.cards][:2] == [True, True]


async def test_a_refused_press_leaves_no_trace(svc: Service, store: Any,
                                               clock: FakeClock) -> None:
    gid, _a, _b = await two_player_buraco(svc)
    for _ in range(2):  # Ana misses twice: the AI keeps her seat
        clock.advance(90)
        effects = await svc.tick()
        bia = hand_of(effects, BIA)
        bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
        bia = hand_of(await svc.press(BIA, button(bia, bia.buttons[0][0].label)), BIA)
        await svc.press(BIA, button(bia, "Descartar"))
        version, game = await game_of(store)
    assert game.seats[0].away
    # a press that is refused must not bring her back (nothing of it is kept)
    refused = await svc.press(ANA, pack(gid, game.seats[0].ver, "t", 99))
    assert refused == [Reply(player=ANA, text="Botão desconhecido.")]
    after, game = await game_of(store)
    assert after == version and game.seats[0].away
    assert (await svc.tick())[0].view.lines[-1] == (
        "Ana comprou do monte e descartou 10♦. "  # less than 10 s ago (narration.RECENT_S)
        "Bia comprou do monte e descartou A♣. Ana comprou do monte.")


VULN_75 = ("Sua primeira baixada precisa de 75 pontos; se tentar com menos, ela é "
           "recusada e o mínimo nesta mão passa a 90.")


async def test_short_first_lay_down_of_a_vulnerable_side(svc: Service, store: Any) -> None:
    """RULES A22: a first lay-down under the minimum is refused, the minimum becomes 90,
    and the person is told (an alert); the cards stay in the hand. The hint said the 90
    before the try (issue 30 T2: it was a surprise), and the cards picked stay picked so
    one more card makes the try again (issue 30 O9)."""
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, "J♥")
    bia = hand_of(await svc.press(ANA, button(ana, "Descartar")), BIA)
    version, game = await game_of(store)
    assert game.match is not None
    game.match["deal"]["vuln_min"] = [0, 75]  # Bia's side reached 750 (half the target)
    assert await store.save_game(gid, version, encode(game), 3600)
    bia = hand_of(await svc.press(BIA, button(bia, "Comprar do monte")), BIA)
    assert VULN_75 in bia.lines  # before trying (D4), the 90 included (issue 30 T2)
    bia = await select(svc, BIA, gid, bia, "7♣", "7♦", "7♥")
    effects = await svc.press(BIA, button(bia, "Baixar"))
    assert effects[0] == Reply(player=BIA, alert=True, text=(
        "Baixada recusada: 15 pontos, mínimo 75. Nesta mão agora você precisa de 90."))
    assert kinds(effects) == ["reply", "table", "hand"]
    assert effects[1].view.lines[:2] == ["Ana: 0 pts · nesta mão: 0 em jogos", "  (sem jogos)"]
    bia = hand_of(effects, BIA)
    assert len(bia.cards) == 12
    # the raised minimum is said plainly now: a second short try raises nothing
    assert "Sua primeira baixada precisa de 90 pontos." in bia.lines
    assert VULN_75 not in bia.lines
    # the selection survived the refusal (O9): the same three cards, still picked
    assert [c.text for c in bia.cards if c.selected] == ["7♣", "7♦", "7♥"]
    assert "Selecionadas: 7♣ 7♦ 7♥ (formam um jogo)" in bia.lines
    _v, game = await game_of(store)
    assert game.seats[1].sel == idx(bia, "7♣", "7♦", "7♥")
    # "Limpar" is offered for it, and clears it
    bia = hand_of(await svc.press(BIA, button(bia, "Limpar")), BIA)
    assert not any(c.selected for c in bia.cards)


async def test_vulnerable_hint_without_the_raise_when_the_options_raise_nothing(
        svc: Service, store: Any) -> None:
    """RULES A22: the hint names a raise only where a short try raises the minimum; a
    table not vulnerable has no hint at all (tranca has no vulnerability, §2 "extras")."""
    gid, ana, _bia = await two_player_buraco(svc)
    assert not any("primeira baixada" in line for line in ana.lines)
    version, game = await game_of(store)
    game.match["deal"]["vuln_min"] = [90, 0]  # as after a refused try
    assert await store.save_game(gid, version, encode(game), 3600)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    assert "Sua primeira baixada precisa de 90 pontos." in ana.lines


async def test_closed_pile_is_taken_with_the_selection_that_justifies_it(svc: Service) -> None:
    """Tranca (RULES A10, A32): Ana lays her red 3 and discards 8♦; Bia may take the
    pile only by melding the top card with hand cards she selected (7♦ and the 2♦)."""
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    gid, ana = effects[0].game_id, hand_of(effects, ANA)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    # the turn line says the red 3 comes first (A32; a trial found it silent)
    assert ana.lines[-1] == "Sua vez: baixe o 3 vermelho, depois jogos e um descarte."
    # one card picked: no "(descartar ou juntar a um jogo)" while the 3 comes first (a
    # trial: the hint offered a discard that was refused)
    eight = await select(svc, ANA, gid, ana, "8♦")
    assert eight.lines[1] == "Selecionadas: 8♦"
    dropped = next(b.data for row in eight.buttons for b in row if b.label.startswith("["))
    ana = hand_of(await svc.press(ANA, dropped), ANA)  # dropped again
    assert ana.lines[1] != "Selecionadas: 8♦"
    ana = await select(svc, ANA, gid, ana, "3♦")
    laid = await svc.press(ANA, button(ana, "Baixar o 3"))
    assert laid[0].view.lines[1:3] == ["  (sem jogos)", "  3 vermelhos baixados: 3♦"]
    assert hand_of(laid, ANA).lines[-1] == "Sua vez: baixe jogos e descarte uma carta."
    ana = await select(svc, ANA, gid, hand_of(laid, ANA), "8♦")
    effects = await svc.press(ANA, button(ana, "Descartar"))
    assert "Lixo: 8♦ (1 carta) · Monte: 59 · Mortos na mesa: 2" in effects[0].view.lines
    bia = hand_of(effects, BIA)
    assert await svc.press(BIA, button(bia, "Pegar o lixo")) == [Reply(
        player=BIA, text="Para pegar o lixo, baixe a carta de cima num jogo. Para justificar: "
        "marque na sua mão as cartas que formam jogo com o topo e use Pegar o lixo, ou use "
        "Lixo → N para pôr o topo no seu jogo N.")]  # how to justify (issue 30)
    bia = await select(svc, BIA, gid, bia, "7♦", "2♦")
    effects = await svc.press(BIA, button(bia, "Pegar o lixo"))
    assert effects[0].view.lines[3:6] == [  # the 2♦ stands for the 9♦ (issue 30)
        "Bia: 0 pts · nesta mão: 30 em jogos", "  1) 7♦ 8♦ 2♦(9)",
        "Cartas na mão: Ana 10 · Bia 9"]
    assert effects[0].view.lines[-1] == (  # RULES A10: the pick-up names the meld it made,
        "Ana comprou do monte, baixou o 3♦ e descartou 8♦. "  # its wild marked as on the
        "Bia pegou o lixo (1 carta) baixando 7♦ 8♦ 2♦(9).")  # table (issue 30)


async def test_a_morto_taken_by_discard_shows_beside_the_empty_hand(
        svc: Service, store: Any) -> None:
    """RULES C12: a morto taken by discard waits for its taker's next turn; the table
    shows it beside the hand ("Bia 0 (+11 do morto)") and Bia's hand says when it comes,
    so an empty hand does not read as a deal about to end."""
    await svc.new_game(CHAT, ANA, "tranca")
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    gid, ana = effects[0].game_id, hand_of(effects, ANA)
    version, game = await game_of(store)
    assert game.match is not None
    deal = game.match["deal"]
    morto = deal["mortos"][1]
    assert len(morto) == 11
    deal["mortos"][1], deal["pending_morto"] = [], [[], morto]
    deal["stock"] += deal["hands"][1]  # Bia's hand emptied, its cards kept in the deck
    deal["hands"][1] = []
    assert await store.save_game(gid, version, encode(game), 3600)
    effects = await svc.press(ANA, button(ana, "Comprar do monte"))
    assert "Cartas na mão: Ana 12 · Bia 0 (+11 do morto)" in effects[0].view.lines
    shown = await svc.show_hand(CHAT, BIA)
    assert "O morto (11 cartas) entra na sua mão na sua próxima vez." in hand_of(
        shown, BIA).lines


async def test_the_table_splits_a_sides_points_into_melds_and_canastras_as_the_result_does(
        svc: Service, store: Any) -> None:
    """RULES C14: a deal's result lists "jogos" (card points) and each canastra's bonus
    apart; the table's running figure uses the same split, so "em jogos" means the same
    number on both (a clean canastra of 7♥ to K♥: 5 + 6 x 10 card points, 200 bonus)."""
    from bot import play, views
    from bot.i18n import Translator
    from engine.cards import parse_cards
    from engine.melds import make_meld

    await two_player_buraco(svc)
    _version, game = await game_of(store)
    match = play.match_of(game)
    state = match.deal_state
    rules = state.rules
    state.melds[0] = [make_meld(parse_cards("7h 8h 9h 10h Jh Qh Kh"), rules)]
    state.melds[1] = [make_meld(parse_cards("5c 5d 5s"), rules)]
    play.store_match(game, match)
    lines = views.table_view(game, Translator("pt")).lines
    assert lines[:4] == ["Ana: 0 pts · nesta mão: 65 em jogos + 200 de canastras",
                         "  1) 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ · canastra limpa",
                         "Bia: 0 pts · nesta mão: 15 em jogos", "  1) 5♣ 5♦ 5♠"]
    assert views.table_view(game, Translator("en")).lines[0] == (
        "Ana: 0 pts · this deal: 65 in melds + 200 for canastas")


async def test_separar_refuses_a_group_that_is_no_meld_with_the_lay_downs_reason(
        svc: Service, store: Any) -> None:
    """RULES C9 / "melds" row: "Separar" sets cards aside as a new meld for "Baixar"; a
    group the lay-down would refuse is refused at once with the same reason, naming the
    cards, and nothing is set aside (a fresh-user trial saw "(jogo novo)" on 8♣ 3♦ 7♦)."""
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    two = ana.cards[0].text, ana.cards[1].text
    picked = await select(svc, ANA, gid, ana, *two)
    version, _game = await game_of(store)
    assert texts(await svc.press(ANA, button(picked, "Separar"))) == [
        f"{two[0]} {two[1]}: um jogo precisa de pelo menos 3 cartas."]
    after, game = await game_of(store)
    assert after == version and game.seats[0].groups == [] and len(game.seats[0].sel) == 2


def test_the_tables_melds_figure_is_negative_in_altaneira_without_a_canastra() -> None:
    """Seed 000 §9.5 (RULES "extras" row, altaneira A8: every card 10): a side with no
    canastra counts its melded cards negative, so the table's "em jogos" shows what the
    deal's "jogos" will (a trial saw "90 em jogos" above a result of "jogos -90")."""
    from bot import play
    from engine.cards import parse_cards
    from engine.melds import make_meld
    from engine.rules import make_rules
    from engine.state import deal_cards

    rules = make_rules("altaneira")
    state = deal_cards(rules, 4)
    state.melds[0] = [make_meld(parse_cards("7h 8h 9h"), rules)]
    state.melds[1] = [make_meld(parse_cards("4c 5c 6c 7c 8c 9c 10c"), rules)]
    assert play.melded_points(state) == [(-30, 0), (70, 200)]
