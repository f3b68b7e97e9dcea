"""Every press is idempotent (issue 12 item 2): a double tap or a callback re-sent with
a new update id applies once, and the second delivery gets a polite toast and changes
nothing. Card buttons say their result (select / unselect card k); "Separar" and
"Limpar" advance the hand's version; "Sortear duplas" says the value it sets, "Próxima
mão" the deal it deals; the lobby's "Robô" adds a robot to the next free seat, once per
press (issue 30: the press's own key makes a redelivery a no-op)."""

from __future__ import annotations

from typing import Any

import pytest
from test_service_support import ANA, BIA, CHAT, CHAT2, EVA, button, game_of, only, texts
from test_service_turns import hand_of, idx, refused_as_old, select, two_player_buraco

from bot.effects import Reply, pack, unpack
from bot.service import Service


def code_of(data: str) -> tuple[str, str]:
    parts = unpack(data)
    assert parts is not None
    return parts[2], parts[3]


async def test_a_double_tapped_card_ends_selected(svc: Service, store: Any) -> None:
    _gid, ana, _bia = await two_player_buraco(svc)
    [i] = idx(ana, "Q♦")
    data = ana.buttons[0][i].data
    assert code_of(data) == ("t", str(i))  # "select card i", not "toggle"
    first = hand_of(await svc.press(ANA, data, update="tg:1:u:10"), ANA)
    assert first.cards[i].selected
    before, _g = await game_of(store)
    # the second tap (or the same callback re-sent with a new update id)
    assert await svc.press(ANA, data, update="tg:1:u:11") == [
        Reply(player=ANA, text="Essa carta já está selecionada.")]
    after, game = await game_of(store)
    assert after == before and game.seats[0].sel == [i]


async def test_a_selected_card_button_unselects_once(svc: Service, store: Any) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    [i] = idx(ana, "A♥")
    picked = hand_of(await svc.press(ANA, pack(gid, ana.version, "t", i)), ANA)
    data = picked.buttons[0][i].data
    assert code_of(data) == ("u", str(i)) and picked.buttons[0][i].label == "[A♥]"
    dropped = hand_of(await svc.press(ANA, data), ANA)
    assert not dropped.cards[i].selected and dropped.buttons[0][i].label == "A♥"
    before, _g = await game_of(store)
    assert await svc.press(ANA, data) == [
        Reply(player=ANA, text="Essa carta já não está selecionada.")]
    after, game = await game_of(store)
    assert after == before and game.seats[0].sel == []


async def test_separar_pressed_twice_sets_one_group_aside(svc: Service, store: Any) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    ana = await select(svc, ANA, gid, ana, "J♥")
    bia = hand_of(await svc.press(ANA, button(ana, "Descartar")), BIA)
    bia = hand_of(await svc.press(BIA, button(bia, "Pegar o lixo")), BIA)
    bia = await select(svc, BIA, gid, bia, "7♣", "7♦", "7♥")  # a set: it is a meld
    separar = button(bia, "Separar")
    staged = hand_of(await svc.press(BIA, separar), BIA)
    assert staged.version == bia.version + 1
    assert "Separado 1: 7♣ 7♦ 7♥ (jogo novo)" in staged.lines
    before, _g = await game_of(store)
    assert refused_as_old(await svc.press(BIA, separar), BIA) == staged
    after, game = await game_of(store)
    assert after == before and len(game.seats[1].groups) == 1 and game.seats[1].sel == []


async def test_limpar_pressed_twice_clears_once(svc: Service, store: Any) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    ana = hand_of(await svc.press(ANA, button(ana, "Comprar do monte")), ANA)
    [i] = idx(ana, "K♠")
    ana = hand_of(await svc.press(ANA, pack(gid, ana.version, "t", i)), ANA)
    limpar = button(ana, "Limpar")
    cleared = hand_of(await svc.press(ANA, limpar), ANA)
    assert not any(c.selected for c in cleared.cards)
    before, _g = await game_of(store)
    assert refused_as_old(await svc.press(ANA, limpar), ANA) == cleared
    assert (await game_of(store))[0] == before


async def test_robo_pressed_twice_in_a_row_adds_two_robots(svc: Service, store: Any) -> None:
    """Issue 30: the group's lobby may not show the first robot yet when the second press
    comes; each press (its own update key) adds a robot to the next free seat."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    robot = button(table, "Robô")
    assert code_of(robot) == ("ai", "")  # "a robot to the next free seat"
    only(await svc.press(ANA, robot, update="tg:1:q:20"), "table")
    added = only(await svc.press(ANA, robot, update="tg:1:q:21"), "table").view
    assert "Lugar 2: Robô 2 (normal) · lado 2" in added.lines
    assert "Lugar 3: Robô 3 (normal) · lado 3" in added.lines
    _v, game = await game_of(store)
    assert [s.ai for s in game.seats] == [None, "normal", "normal"]
    assert button(added, "Robô") == robot  # the button stays what it was


async def test_one_robot_press_delivered_twice_adds_one_robot(svc: Service, store: Any) -> None:
    """A real double tap: the same press (the same update key) delivered again applies
    once and changes nothing more."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    robot = button(table, "Robô")
    only(await svc.press(ANA, robot, update="tg:1:q:20"), "table")
    before, game = await game_of(store)
    assert await svc.press(ANA, robot, update="tg:1:q:20") == []
    after, _g = await game_of(store)
    assert after == before and [s.ai for s in game.seats] == [None, "normal"]


async def test_robo_on_a_full_table_says_it_is_full(svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "tranca"), "table").view
    robot = button(table, "Robô")
    for k in range(3):
        only(await svc.press(ANA, robot, update=f"tg:1:q:{k}"), "table")
    before, _g = await game_of(store)
    assert await svc.press(ANA, robot, update="tg:1:q:9") == [
        Reply(player=ANA, text="A mesa está cheia.")]
    assert (await game_of(store))[0] == before


async def test_a_robot_button_on_a_table_someone_joined_since_still_adds_the_robot(
        svc: Service, store: Any) -> None:
    """The group's table is edited at most every 3 s: Ana may press "Robô" on a table
    that does not show Bia yet. The press still means "one robot", so it is applied."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    await svc.join(CHAT, BIA)
    added = only(await svc.press(ANA, button(table, "Robô")), "table").view
    assert "Lugar 3: Robô 3 (normal) · lado 3" in added.lines
    _v, game = await game_of(store)
    assert [s.player.name if s.player else s.ai for s in game.seats] == ["Ana", "Bia", "normal"]


async def test_an_old_lobby_button_without_its_number_is_refused(
        svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    gid = unpack(button(table, "Robô"))[0]  # type: ignore[index]
    before, _g = await game_of(store)
    for old in (pack(gid, 0, "ai", "normal"), pack(gid, 0, "sh"), pack(gid, 0, "sh", "²")):
        assert await svc.press(ANA, old) == [
            Reply(player=ANA, text="Esse botão é antigo: use a mesa mais recente.")]
    assert (await game_of(store))[0] == before


async def test_sortear_duplas_pressed_twice_switches_once(svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    switch = button(table, "Sortear duplas")
    assert code_of(switch) == ("sh", "1")  # "switch it on"
    on = only(await svc.press(ANA, switch), "table").view
    assert "Sortear duplas: sim" in on.lines
    assert await svc.press(ANA, switch) == [
        Reply(player=ANA, text="O sorteio das duplas já está ligado.")]
    assert (await game_of(store))[1].shuffle is True
    off = only(await svc.press(ANA, button(on, "Sortear duplas")), "table").view
    assert "Sortear duplas: não" in off.lines
    assert await svc.press(ANA, button(on, "Sortear duplas")) == [
        Reply(player=ANA, text="O sorteio das duplas já está desligado.")]


async def test_join_start_and_cancel_pressed_twice_apply_once(
        svc: Service, store: Any) -> None:
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    await svc.press(BIA, button(table, "Entrar"))
    assert await svc.press(BIA, button(table, "Entrar")) == [
        Reply(player=BIA, text="Você já está na mesa.")]
    started = await svc.press(ANA, button(table, "Iniciar"))
    assert started[0].view.lines[-1] == "A partida começou."
    assert await svc.press(ANA, button(table, "Iniciar")) == [
        Reply(player=ANA, text="A partida já começou.")]
    cancelled = await svc.cancel(CHAT, ANA)
    assert texts(cancelled) == ["Jogo cancelado por Ana."]
    version, _g = await game_of(store, gid=started[0].game_id)
    assert await svc.press(ANA, button(table, "Cancelar")) == [
        Reply(player=ANA, text="Esta partida terminou.")]
    assert (await game_of(store, gid=started[0].game_id))[0] == version


async def test_lobby_buttons_pressed_after_the_start_change_nothing(
        svc: Service, store: Any) -> None:
    """A trial: the lobby's "Sair" pressed mid-game seated the robot in Bia's place and
    its "Cancelar" ended the match. The table replaced the lobby at the start, so every
    lobby button is an old one then: refused, the game unchanged (/sair and /cancelar
    remain the way to leave or end a running game)."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    await svc.press(BIA, button(table, "Entrar"))
    started = await svc.press(ANA, button(table, "Iniciar"))
    gid = started[0].game_id
    before, _g = await game_of(store, gid=gid)
    for who, label in [(BIA, "Sair"), (ANA, "Cancelar"), (ANA, "Robô"),
                       (ANA, "Sortear duplas"), (EVA, "Entrar"), (BIA, "Cancelar")]:
        assert await svc.press(who, button(table, label)) == [
            Reply(player=who, text="A partida já começou.")], label
    after, game = await game_of(store, gid=gid)
    assert after == before and game.status == "playing"
    assert [s.away for s in game.seats] == [False, False]


async def test_a_lobby_button_with_a_version_no_lobby_shows_is_unknown(
        svc: Service, store: Any) -> None:
    """Lobby and table buttons carry version 0 (a trial: "<id>|99|s|" was taken as
    "Iniciar")."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    await svc.press(BIA, button(table, "Entrar"))
    before, _g = await game_of(store)
    gid = table.buttons[0][0].data.split("|")[0]
    for code in ("s", "x", "j", "lv"):
        assert await svc.press(ANA, pack(gid, 99, code)) == [
            Reply(player=ANA, text="Botão desconhecido.")], code
    assert (await game_of(store))[0] == before


async def test_an_admin_of_another_group_cannot_cancel_this_groups_game(
        svc: Service, store: Any) -> None:
    """Admin rights count in the game's own chat only: a press of this lobby's
    "Cancelar" coming from another group, by that group's admin, closes nothing."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    before, _g = await game_of(store)
    assert await svc.press(EVA, button(table, "Cancelar"), is_admin=True, chat=CHAT2) == [
        Reply(player=EVA, text="Só quem abriu a mesa ou um admin do grupo pode cancelar.")]
    # nor from a private chat (the adapter names no chat there): a fresh trial
    assert await svc.press(EVA, button(table, "Cancelar"), is_admin=True) == [
        Reply(player=EVA, text="Só quem abriu a mesa ou um admin do grupo pode cancelar.")]
    after, game = await game_of(store)
    assert after == before and game.status == "lobby"
    cancelled = await svc.press(EVA, button(table, "Cancelar"), is_admin=True, chat=CHAT)
    assert texts(cancelled) == ["Jogo cancelado por Eva."]


async def test_every_button_payload_is_short_and_says_its_result(svc: Service) -> None:
    """Telegram callback data <= 64 bytes, Discord custom_id <= 100 characters; the card
    buttons carry an index, never a card."""
    table = only(await svc.new_game(CHAT, ANA, "buraco"), "table").view
    await svc.join(CHAT, BIA)
    effects = await svc.start(CHAT, ANA)
    views = [table] + [e.view for e in effects if e.kind in ("table", "hand")]
    for view in views:
        for row in view.buttons:
            for b in row:
                assert len(b.data.encode()) <= 64 and len(b.data) <= 100, b.data
                code, arg = code_of(b.data)
                assert not any(suit in b.data for suit in "♣♦♥♠🃏"), b.data
                if code in ("t", "u"):
                    assert arg.isascii() and arg.isdigit()
                    assert b.label.strip("[]") == view.cards[int(arg)].text


async def test_leaving_a_running_game_hands_the_seat_to_the_ai_until_entrar(
        svc: Service, store: Any) -> None:
    """Issue 12 item 4: /sair during a game; the table says so; /entrar brings her back."""
    _gid, _ana, _bia = await two_player_buraco(svc)
    left = await svc.leave(CHAT, ANA)
    assert texts(left)[0] == (
        "Ana saiu da mesa: o robô joga no lugar até Ana mandar /voltar ou /entrar.")
    assert "O robô está jogando por você. Mande /voltar para retomar." in hand_of(
        left, ANA).lines
    _v, game = await game_of(store)
    assert game.seats[0].away and game.seats[0].player == ANA
    assert await svc.leave(CHAT, ANA) == [Reply(player=ANA, text=(
        "Você já saiu: o robô joga no seu lugar. Mande /voltar para retomar."))]
    # it was her turn: the AI plays it at its pace
    moved = await svc.tick()
    assert next(e for e in moved if e.kind == "table").view.lines[-1] == "Ana comprou do monte."
    back = await svc.join(CHAT, ANA)
    assert texts(back)[0] == "Ana voltou ao jogo."
    _v, game = await game_of(store)
    assert not game.seats[0].away
    assert await svc.join(CHAT, ANA) == [Reply(player=ANA, text="A partida já começou.")]


PAUSED = ("Ninguém está jogando agora: a partida espera até alguém mandar /voltar "
          "(sem ninguém, fecha em 24 h).")


async def test_the_last_person_to_leave_is_told_the_game_waits_not_that_a_robot_plays(
        svc: Service, store: Any, clock: Any) -> None:
    """Issue 30: /sair said "the robot plays for you" to the last person at the table,
    whose game then paused (robots do not play a table nobody plays, bot/timers.py). The
    group, the hands and a second /sair say what happens: a robot while someone still
    plays; once nobody does, the game waits for /voltar and closes after 24 h."""
    _gid, _ana, _bia = await two_player_buraco(svc)
    first = await svc.leave(CHAT, ANA)
    assert texts(first)[0] == (
        "Ana saiu da mesa: o robô joga no lugar até Ana mandar /voltar ou /entrar.")
    last = await svc.leave(CHAT, BIA)
    assert texts(last) == ["Bia saiu da mesa. " + PAUSED]
    waits = "Ninguém está jogando: a partida espera. Mande /voltar para retomar."
    assert hand_of(last, ANA).lines[-1] == waits  # Ana's hand no longer says "the robot"
    assert hand_of(last, BIA).lines[-1] == waits
    assert await svc.leave(CHAT, BIA) == [Reply(player=BIA, text=(
        "Você já saiu e ninguém está jogando: a partida espera. Mande /voltar para "
        "retomar."))]
    version, _game = await game_of(store)
    clock.advance(3600)
    assert await svc.tick() == [] and (await game_of(store))[0] == version  # it waits
    back = await svc.come_back(CHAT, BIA)
    assert texts(back)[0] == "Bia voltou ao jogo."
    assert hand_of(back, BIA).lines[-1] != waits


def test_ajuda_says_what_leaving_mid_game_does_in_each_language() -> None:
    """Issue 30: /ajuda promised "the robot plays for you" whatever the table; the guides
    (docs/guia.md section 5) say the table pauses when nobody is left. The line agrees."""
    from bot.i18n import Translator
    from bot.info import help_text

    lines = {lang: help_text(Translator(lang)).splitlines()[2] for lang in ("pt", "en", "it")}
    assert lines == {
        "pt": "/entrar, /sair — entrar ou sair da mesa (saindo no meio, um robô joga por "
              "você enquanto alguém joga; sem ninguém, a mesa espera um /voltar e fecha em "
              "24 h)",
        "en": "/entrar, /sair — join or leave the table (leaving mid-game, a robot plays "
              "for you while someone is playing; with nobody, the table waits for a /voltar "
              "and closes in 24 h)",
        "it": "/entrar, /sair — entra o esci dal tavolo (se esci durante la partita, un "
              "robot gioca per te finché qualcuno gioca; senza nessuno, il tavolo aspetta "
              "un /voltar e si chiude in 24 h)"}


async def test_a_person_away_who_presses_their_hand_is_back_and_the_group_is_told(
        svc: Service, store: Any) -> None:
    """A trial: after /sair (or two timeouts) a press on the hand takes the seat back, as
    the hand's buttons offer, but the group, told "Bia saiu da mesa", never heard she
    was back. It hears it as /voltar tells it: on a pick and on a move alike."""
    gid, _ana, _bia = await two_player_buraco(svc)
    left = await svc.leave(CHAT, BIA)
    hand = hand_of(left, BIA)
    picked = await svc.press(BIA, pack(gid, hand.version, "t", 0))
    assert [e.kind for e in picked] == ["say", "table", "hand"]
    assert texts(picked)[0] == "Bia voltou ao jogo."
    assert not (await game_of(store))[1].seats[1].away
    again = await svc.press(BIA, pack(gid, hand_of(picked, BIA).version, "t", 1))
    assert [e.kind for e in again] == ["hand"]  # told once
    await svc.leave(CHAT, ANA)  # her turn: a press of "Comprar do monte" brings her back
    ana = hand_of(await svc.show_hand(CHAT, ANA), ANA)
    drew = await svc.press(ANA, button(ana, "Comprar do monte"))
    assert texts(drew)[0] == "Ana voltou ao jogo."
    assert drew[1].kind == "table" and drew[1].view.lines[-1] == "Ana comprou do monte."


async def test_leaving_a_running_game_and_voltar(svc: Service, store: Any) -> None:
    await two_player_buraco(svc)
    await svc.leave(CHAT, BIA)
    assert texts(await svc.come_back(CHAT, BIA))[0] == "Bia voltou ao jogo."
    assert await svc.leave(CHAT, EVA) == [Reply(player=EVA, text="Você não está nesta partida.")]


async def test_a_novojogo_redelivered_after_a_crash_answers_with_the_table_it_opened(
        svc: Service, store: Any, monkeypatch: Any) -> None:
    real = store.first_seen

    async def crash(update: str, ttl_s: int, scope: str = "") -> bool:
        raise ConnectionError("the worker died here")

    monkeypatch.setattr(store, "first_seen", crash)  # the crash: table made, update not marked
    with pytest.raises(ConnectionError):
        await svc.new_game(CHAT, ANA, "tranca", update="tg:u:77")
    monkeypatch.setattr(store, "first_seen", real)
    version, game = await game_of(store)
    again = await svc.new_game(CHAT, ANA, "tranca", update="tg:u:77")
    assert [(e.kind, e.game_id, e.state_version) for e in again] == [
        ("table", game.id, version)]
    assert only(again, "table").view.title == "Tranca · uma mão"
    # a new /novojogo (another update) is still told the chat has a game
    other = await svc.new_game(CHAT, BIA, "", update="tg:u:78")
    assert [e.kind for e in other] == ["reply", "table"]
    assert other[0] == Reply(player=BIA, text="Já há um jogo neste grupo: veja a mesa dele.")



async def test_an_idioma_redelivered_after_a_crash_sets_the_language(
        svc: Service, store: Any, monkeypatch: Any) -> None:
    await svc.new_game(CHAT, ANA, "")
    real = store.set_setting

    async def crash(chat_key: str, name: str, value: str) -> None:
        raise ConnectionError("the worker died here")

    monkeypatch.setattr(store, "set_setting", crash)
    with pytest.raises(ConnectionError):
        await svc.set_language(CHAT, ANA, "en", update="tg:u:301")
    monkeypatch.setattr(store, "set_setting", real)
    again = await svc.set_language(CHAT, ANA, "en", update="tg:u:301")
    assert again[0] == Reply(player=ANA, text="Group language: English.")
    assert only(again, "table").view.lines[0] == "Table opened by Ana."
    assert await svc.set_language(CHAT, ANA, "en", update="tg:u:301") == []


async def test_a_name_is_shown_without_direction_controls_line_breaks_or_no_end(
        svc: Service) -> None:
    """A trial joined as a name holding U+202E (right-to-left override) and 80 more
    characters: it turned the rest of its lobby line around and ran on. Names are shown
    without bidirectional controls or line breaks, at most 40 characters
    (bot.effects.clean_name)."""
    from bot.effects import PlayerRef

    odd = PlayerRef(platform="tg", user_id="9", name="\u202eZé\n\n  da\u2066 Silva" + "x" * 80)
    assert odd.name == "Zé da Silva" + "x" * 28 + "…"
    assert len(odd.name) == 40
    assert PlayerRef(platform="tg", user_id="9", name="\u202e\u200f ").name == "?"
    assert PlayerRef(platform="tg", user_id="9", name="Ana 👨‍👩‍👧").name == "Ana 👨‍👩‍👧"
    assert PlayerRef(platform="tg", user_id="9", name="\u200b\ufeff\u2060").name == "?"
    # the cut never splits a flag's pair of letters nor takes an accent off its letter
    assert PlayerRef(platform="tg", user_id="9", name="🇧🇷" * 25).name == "🇧🇷" * 19 + "…"
    decomposed = PlayerRef(platform="tg", user_id="9", name="e\u0301" * 30 + "Z" * 20)
    assert decomposed.name == "é" * 30 + "Z" * 9 + "…"
    await svc.new_game(CHAT, ANA, "buraco")
    table = (await svc.join(CHAT, odd))[0].view
    assert table.lines[3] == f"Lugar 2: {odd.name} · lado 2"
    assert "\u202e" not in "\n".join(table.lines)


async def test_a_chat_title_is_shown_without_direction_controls_or_line_breaks(
        svc: Service) -> None:
    """A trial's group title with U+202E and a line break put a line of its own into
    every hand ("Mesa: Grupo…" then "Linha2 …"), one that could pass for the bot's; it
    is cleaned as names are, at most 64 characters (bot.effects.MAX_TITLE)."""
    from bot.effects import ChatRef

    odd = ChatRef(platform="tg", chat_id="-300", title="Grupo\u202eolleh\nLinha2 " + "T" * 80)
    assert odd.title == "Grupoolleh Linha2 " + "T" * 45 + "…"
    assert ChatRef(platform="tg", chat_id="-300", title="\u202e").title == ""
    await svc.new_game(odd, ANA, "buraco")
    await svc.join(odd, BIA)
    hand = hand_of(await svc.start(odd, ANA), ANA)
    assert hand.lines[0] == f"Mesa: {odd.title}"
