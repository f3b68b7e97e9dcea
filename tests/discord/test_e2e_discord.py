"""End to end: the real bot process (``python -m bot discord``, unmodified) against the local
fake Discord (``fake_discord``); simulated people in a guild channel play a whole deal
through interactions only, pressing what the bot's components offer.

Needs a Redis the game outlives the process in (the restart): the one at ``REDIS_URL``
(skipped when it is unset, as every test that needs a real Redis), under this run's own
``REDIS_PREFIX``; its keys are deleted afterwards. The final table may wait up to a
minute: table edits of a channel are limited to one per 3 s and 20 per 61 s
(docs/discord.md).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bot_run import redis_url, run_bot, synced_fake, wait_for
from dc_play import (
    HAND_TITLE,
    action_calls,
    answered,
    can_draw,
    card_options,
    custom_ids,
    hand,
    most_in_a_minute,
    my_hand,
    option_values,
    pick,
    play_deal,
    play_turn,
    press,
    scene,
    table,
    table_edit_times,
    tables,
    until_changed,
)
from fake_discord import FakeDiscord
from fake_model import Person, snowflake

TOKEN = "e2e-discord-bot-token"
REDIS = redis_url()
TABLE_CODES = {"j", "lv", "ai", "ar", "sh", "v", "s", "x", "h", "n"}
CARD_TEXT = re.compile(r"^(10|[2-9JQKA])[♠♥♦♣]\ufe0f?$|^🃏$")

pytestmark = pytest.mark.skipif(REDIS is None, reason="needs the Redis at REDIS_URL (unset or "
                                "not answering)")


@pytest.fixture
def people() -> list[Person]:
    """Ana, Bia and Caio with fresh ids (this run's keys never meet another run's)."""
    return [Person(snowflake(), name) for name in ("Ana", "Bia", "Caio")]


@pytest.fixture
def fake(people: list[Person], tmp_path: Path) -> Iterator[FakeDiscord]:
    """The fake with the bot's commands synced by ``--sync``; the run's keys deleted after."""
    assert REDIS is not None
    with synced_fake(TOKEN, people, tmp_path, REDIS) as server:
        yield server


def lobby(fake: FakeDiscord, ana: Person, bia: Person, robots: int = 1) -> int:
    """Ana opens a table with /novojogo, Bia joins with "Entrar", Ana adds ``robots`` AI
    seats with "Robô" and starts; returns the table message id."""
    opened = answered(fake, fake.slash(ana, "novojogo", variante="buraco"))
    assert opened.answer_type == 4
    first = table(fake)
    assert first.text().startswith("Buraco · até 1500 pontos\nMesa aberta por Ana.")
    press(fake, bia, first, "Entrar")
    for _ in range(robots):
        press(fake, ana, table(fake), "Robô")
    press(fake, ana, table(fake), "Iniciar")
    started = wait_for(lambda: (lambda t: t if t.labels() == ["Minha mão"] else None)(
        table(fake)), what="the table of the game")
    assert started.id == first.id
    return first.id


def assert_hands_private(fake: FakeDiscord, people: list[Person]) -> None:
    """Every hand went out ephemeral (flag 64) to its owner only; no channel route ever
    carried a hand or a card select; every custom_id is a table code or a hand index,
    never a card; no person's hand (its cards in order) is in any public text."""
    hands = [m for p in people for m in fake.ephemerals(p) if m.text().startswith(HAND_TITLE)]
    assert hands, "no hand was ever shown"
    dms = {str(channel) for channel in fake.dms.values()}
    for message in list(fake.messages.values()):
        if HAND_TITLE in message.text() and str(message.channel_id) not in dms:
            assert message.flags & 64 and message.ephemeral_for is not None, message.text()
    public_texts: list[str] = []
    for call in fake.calls():
        if call.ids.get("c") in dms:
            continue  # a DM is as private as an ephemeral message
        ids = custom_ids(call.body)
        for cid in ids:
            assert len(cid) <= 100
            payload = cid.split(":", 1)[1].split("|")
            assert not any(CARD_TEXT.match(part) for part in payload), cid
        for value in option_values(call.body):
            _game, _ver, code, arg = value.split("|")
            assert (arg.isdigit() if code == "t" else not CARD_TEXT.match(arg)), value
        if call.route.startswith(("POST /channels", "PATCH /channels")):
            body = call.body or {}
            text = str(body.get("content") or "") + " ".join(
                str(e.get("title", "")) + str(e.get("description", ""))
                for e in body.get("embeds") or [])
            if "Fim da mão" not in text:  # a deal's result lists the leftovers (issue 30)
                public_texts.append(text)
            assert HAND_TITLE not in text
            assert all(cid.startswith("bb:") and cid.split("|")[2] in TABLE_CODES
                       for cid in ids), ids
    for message in hands:
        cards = " ".join(str(o["label"]) for _s, o in card_options(message))
        assert cards and all(cards not in text for text in public_texts)


def assert_answers_in_time(fake: FakeDiscord) -> None:
    """Every interaction got its first callback within Discord's 3 s."""
    inters = fake.all_interactions()
    late = [(i.id, i.latency) for i in inters if i.latency is None or i.latency >= 3.0]
    assert late == [] and fake.late == [], late


def measure(fake: FakeDiscord, table_id: int) -> dict[str, Any]:
    """REST calls per interaction (all, and per route) and the most table edits in any
    minute, start-up and command sync left out."""
    calls = action_calls(fake)
    actions = len(fake.all_interactions())
    edits = table_edit_times(fake, table_id)
    routes = Counter(c.route for c in calls)
    return {"interactions": actions, "rest_calls": len(calls),
            "calls_per_action": round(len(calls) / actions, 2),
            "per_route": {r: round(n / actions, 2) for r, n in routes.most_common()},
            "table_edits": len(edits), "most_table_edits_in_a_minute": most_in_a_minute(edits)}


def toggle_twice(fake: FakeDiscord, person: Person, message: Any) -> None:
    """``person`` picks their first card on ``message`` and drops it again: both presses
    answered by editing that same ephemeral message (type 7)."""
    picked = pick(fake, person, message, 0)
    shown = until_changed(fake, person, message)
    assert picked.answer_type in (6, 7) and shown.id == message.id
    assert "Selecionadas:" in shown.text()
    pick(fake, person, shown, 0)
    back = until_changed(fake, person, shown)
    assert "Selecionadas:" not in back.text()


def side_totals(result: str) -> list[int]:
    """``= N`` of each side's line in a deal result."""
    return [int(n) for n in re.findall(r"= (-?\d+)$", result, re.M)]


def test_tirar_robo_takes_the_last_robot_off_the_lobby_once_by_the_creator(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    """Issue 30: "Tirar Robô N" on Discord, mapped like every lobby button: Bia (no
    Manage Messages, not the creator) is refused in one ephemeral line; Ana's press takes
    the last robot off; the same button pressed again changes nothing."""
    ana, bia, _caio = people
    assert REDIS is not None

    def lobby_with(label: str) -> Any:
        return wait_for(lambda: (lambda t: t if label in t.labels() else None)(table(fake)),
                        what=f"a lobby with {label!r}")

    with run_bot(fake, tmp_path, REDIS) as log:
        answered(fake, fake.slash(ana, "novojogo", variante="buraco"))
        press(fake, ana, table(fake), "Robô")
        press(fake, ana, lobby_with("Tirar Robô 2"), "Robô")
        two = lobby_with("Tirar Robô 3")
        assert "Lugar 3: Robô 3 (normal)" in two.text()
        press(fake, bia, two, "Tirar Robô 3")
        assert fake.ephemerals(bia)[-1].text() == (
            "Só quem abriu a mesa ou um admin do grupo pode tirar robôs.")
        remove = two.button("Tirar Robô 3")
        assert remove is not None
        press(fake, ana, two, "Tirar Robô 3")
        one = lobby_with("Tirar Robô 2")
        assert "Lugar 2: Robô 2 (normal)" in one.text() and "Robô 3" not in one.text()
        # the same button a second time (a double tap arriving after the lobby's edit)
        again = answered(fake, fake.press(ana, two, str(remove["custom_id"]), forged=True))
        assert again.answer_type == 4
        assert fake.ephemerals(ana)[-1].text() == "Esse robô já saiu da mesa."
        assert table(fake).text() == one.text()
        assert "Traceback" not in log.read_text()


def test_two_people_and_a_robot_play_a_deal_through_interactions(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    ana, bia, caio = people
    assert REDIS is not None
    with run_bot(fake, tmp_path, REDIS, "bot1.log") as log1:
        table_id = lobby(fake, ana, bia)
        started = table(fake)
        assert "Vez de Ana." in started.text() and "Robô 3: 0 pts" in started.text()
        # identity: Caio is not at the table; his "Minha mão" is refused, to him alone
        refused = press(fake, caio, started, "Minha mão")
        assert refused.answer_type == 4
        assert [m.text() for m in fake.ephemerals(caio)] == ["Você não está nesta partida."]
        old = my_hand(fake, ana)
        new = my_hand(fake, ana)
        my_hand(fake, bia)
        # identity: Bia forges a press of Ana's "Comprar do monte" (no client could):
        # refused, Ana's hand and turn unchanged
        draw = new.button("Comprar do monte")
        assert draw is not None
        forged = answered(fake, fake.press(bia, new, str(draw["custom_id"]), forged=True))
        assert forged.answer_type == 4
        assert fake.ephemerals(bia)[-1].text() == "Não é a sua vez."
        assert fake.message(new.id).components == new.components
        assert "Monte: 71" in table(fake).text()
        # Ana plays her first turn on the newer hand; the older one is now stale
        assert play_turn(fake, ana)
        after = hand(fake, ana)
        assert after is not None and after.id == new.id
        # a press on it brings that old message up to date in place (type 7), then says
        # why nothing was done (bot.turns.check_seat)
        stale = answered(fake, fake.press_label(ana, old, "Comprar do monte"))
        assert stale.answer_type == 7
        wait_for(lambda: fake.ephemerals(ana)[-1].text() == (
            "Esse botão é antigo: use a mão mais recente (/mao)."), what="the reason")
        assert fake.message(old.id).components == after.components
        assert fake.message(new.id).components == after.components
        # 15 minutes pass: every token so far dies. Presses on the old hand still work
        # (each brings a fresh token)...
        assert fake.expire_tokens() > 0
        toggle_twice(fake, ana, after)
        # ...and when they die again, the bot's next edit of Ana's hand (at her turn)
        # is refused (401 50027); the turn ping sends her to "Minha mão" for a new one
        fake.expire_tokens()
        hands_before = len([m for m in fake.ephemerals(ana) if m.text().startswith(HAND_TITLE)])
        assert play_deal(fake, [ana, bia], max_turns=2) is None
        dead = [c for c in fake.calls() if c.route.startswith("PATCH /webhooks")
                and c.status == 401]
        assert dead, "the bot never met a dead interaction token"
        assert len([m for m in fake.ephemerals(ana)
                    if m.text().startswith(HAND_TITLE)]) == hands_before + 1
    # restart mid-deal: the new process answers the buttons the old one sent
    with run_bot(fake, tmp_path, REDIS, "bot2.log") as log2:
        current = hand(fake, ana)
        assert current is not None
        toggle_twice(fake, ana, current)
        # the gateway drops the socket (4000): the bot RESUMEs its session and goes on;
        # the next table edit meets a 429 and is retried after retry_after
        assert fake.drop_gateway(4000)
        fake.fail("PATCH /channels/{c}/messages/{m}", 429, 0, "You are being rate limited.",
                  retry_after=0.5)
        result = play_deal(fake, [ana, bia])
        assert result is not None
        totals = side_totals(result)
        assert len(totals) == 3 and f"Placar: {' × '.join(map(str, totals))}" in result
        assert "\n  Na mão de " in result  # the leftovers, the deal being over (issue 30)
        shown = [f"{name}: {total} pts" for name, total in
                 zip(("Ana", "Bia", "Robô 3"), totals, strict=True)]
        try:
            final = wait_for(lambda: (lambda t: t if all(line in t.text() for line in shown)
                                      else None)(table(fake)), timeout=70,
                             what="the table with the deal's score")
        except AssertionError as error:
            raise AssertionError(f"{error}\n{scene(fake, [ana, bia])}") from None
        # the match goes on to a next deal, unless this deal took a side to the target
        assert final.labels() == ([] if max(totals) >= 1500 else ["Próxima mão", "Minha mão"])
    sessions = sorted(fake.gateway.sessions.values(), key=lambda s: s.identified_at)
    assert fake.gateway.identifies == 2 and [s.resumes for s in sessions] == [0, 1]
    limited = [c for c in fake.calls() if c.status == 429]
    assert len(limited) == 1 and limited[0].ids.get("m") == str(table_id)
    retried = next(c for c in fake.calls() if c.time > limited[0].time
                   and c.route == limited[0].route and c.ids == limited[0].ids)
    assert retried.status == 200 and retried.time - limited[0].time >= 0.5
    assert [t.id for t in tables(fake)] == [table_id]
    assert len(fake.message(table_id).edits) >= 2  # lobby -> game -> between deals, at least
    assert_answers_in_time(fake)
    assert_hands_private(fake, people)
    assert fake.unknown_routes() == []
    figures = measure(fake, table_id)
    print("discord e2e figures:", figures)
    assert figures["most_table_edits_in_a_minute"] <= 20
    for log in (log1, log2):
        text = log.read_text()
        assert "Traceback" not in text and TOKEN not in text


def pile(fake: FakeDiscord) -> list[str]:
    """The discard pile as the table shows it (``Lixo: ...``; the table may lag 3 s)."""
    found = re.search(r"Lixo: (.+?) · Monte", table(fake).text())
    return found.group(1).split() if found else []


def test_a_hand_of_more_than_25_cards_is_fully_operable(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    # Discord: 25 options a select, 5 rows a message; RULES row "discard pile" (buraco
    # takes the whole pile) and C3 (the taken top card is not discarded this turn)
    ana, bia, _caio = people
    assert REDIS is not None
    with run_bot(fake, tmp_path, REDIS):
        lobby(fake, ana, bia, robots=0)
        my_hand(fake, bia)
        if hand(fake, ana) is None:
            my_hand(fake, ana)
        taker: Person | None = None
        deadline = time.monotonic() + 90
        while taker is None:
            assert time.monotonic() < deadline, "the pile never reached 15 cards"
            for person in (ana, bia):
                current = hand(fake, person)
                if current is not None and current.button("Pegar o lixo") and len(
                        pile(fake)) >= 15:
                    taker = person
                    break
                play_turn(fake, person)
        before = hand(fake, taker)
        assert before is not None
        top = pile(fake)[-1]
        press(fake, taker, before, "Pegar o lixo")
        big = until_changed(fake, taker, before)
        options = card_options(big)
        title_count = re.search(r"Sua mão \((\d+) cartas\)", big.text())
        assert title_count is not None
        count = int(title_count.group(1))
        assert count > 25 and len(options) == count
        selects = {s["custom_id"] for s, _o in options}
        assert len(selects) == -(-count // 25)
        assert all(len(s["options"]) <= 25 for s, _o in options)
        last = max(i for i, (_s, o) in enumerate(options) if o["label"] != top)
        chosen = str(options[last][1]["label"])
        assert last >= 25
        pick(fake, taker, big, last)
        selected = until_changed(fake, taker, big)
        assert f"Selecionadas: {chosen.replace(chr(0xFE0F), '')}" in selected.text().replace(
            chr(0xFE0F), "")
        press(fake, taker, selected, "Descartar")
        after = until_changed(fake, taker, selected)
        assert f"Sua mão ({count - 1} cartas)" in after.text()
        wait_for(lambda: pile(fake) == [chosen], timeout=10, what="the discarded card on top")
    assert_answers_in_time(fake)
    assert_hands_private(fake, people)


def test_hand_by_dm_and_closed_dms_fall_back_to_ephemeral(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    # docs/discord.md "/mao dm": the hand in a DM; 50007 (DMs closed) keeps it ephemeral
    ana, bia, _caio = people
    assert REDIS is not None
    fake.refuse_dms(bia)
    with run_bot(fake, tmp_path, REDIS):
        lobby(fake, ana, bia)
        answered(fake, fake.slash(ana, "mao", modo="dm"))
        dm = wait_for(lambda: [m for m in fake.dm_messages(ana)
                               if m.text().startswith(HAND_TITLE)], what="Ana's DM hand")
        assert len(dm) == 1 and "Sua vez: compre do monte" in dm[0].text()
        press(fake, ana, dm[0], "Comprar do monte")
        drawn = wait_for(lambda: (lambda m: m if "Sua mão (12 cartas)" in m.text() else None)(
            fake.message(dm[0].id)), what="the DM hand after the draw")
        assert drawn.id == dm[0].id
        answered(fake, fake.slash(bia, "mao", modo="dm"))
        fallback = wait_for(lambda: hand(fake, bia), what="Bia's hand, ephemeral")
        assert fallback.flags == 64
        assert "Suas DMs estão fechadas: a mão fica aqui, só para você." in fallback.text()
        assert fake.dm_messages(bia) == []
        # the hand is the command's only answer: no "Feito." first, as if the DM went out
        assert [m.text() for m in fake.ephemerals(bia) if m.text() == "Feito."] == []
        refused = [c for c in fake.calls() if c.status == 403]
        assert [c.route for c in refused] == ["POST /channels/{c}/messages"]
    assert_answers_in_time(fake)
    assert_hands_private(fake, people)


def test_cancel_right_after_a_move_leaves_the_table_saying_the_game_was_cancelled(
        fake: FakeDiscord, people: list[Person], tmp_path: Path) -> None:
    # the move's table edit waits in the 3 s coalescer when /cancelar replaces it: the
    # closing's own edit must carry the final text, not only drop the buttons
    ana, bia, _caio = people
    with run_bot(fake, tmp_path, REDIS) as log:
        table_id = lobby(fake, ana, bia, robots=0)
        for person in (ana, bia):
            my_hand(fake, person)
        mover = ana if can_draw(hand(fake, ana)) else bia
        press(fake, mover, hand(fake, mover), "Comprar do monte")
        answered(fake, fake.slash(ana, "cancelar"))
        final = wait_for(lambda: (lambda t: t if not t.labels() else None)(
            fake.messages[table_id]), what="the table without buttons")
        time.sleep(4)  # a table edit still queued would land by now
        assert fake.messages[table_id].text() == final.text()
        assert final.text().endswith("\nJogo cancelado por Ana.")
        assert "Traceback" not in log.read_text()
