"""Issue 30: the end of a deal shows every seat's leftover cards beside the totals
(RULES C14: the cards left in hand count against their side; the deal is over, nothing
is hidden any more), in the chat's deal result and in the terminal; never during play
(DESIGN "Hidden information has one gate")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_console import play_seeded_duel
from test_service_match import play_deal
from test_service_support import ANA, CHAT, game_of

from bot import play
from bot.service import Service
from engine.rules import make_rules
from engine.state import deal_cards
from engine.view import hands_at_end

LEFT = re.compile(r"Na (?:mão de [^:\n]+|sua mão): ")


def test_hands_at_end_refuses_a_deal_in_play() -> None:
    """The engine lays hands open only once the deal is over."""
    state = deal_cards(make_rules("buraco"), 2)
    with pytest.raises(ValueError, match="hidden"):
        hands_at_end(state)


async def test_the_deal_result_shows_each_seats_leftovers_only_at_the_end(
        svc: Service, store: Any) -> None:
    """Four seats (two pairs, RULES §1): no group message before the deal's result
    names a hand; the result lists every seat left holding cards, under its side's
    total, exactly as the deal left them."""
    await svc.new_game(CHAT, ANA, "buraco")
    for _ in range(3):
        await svc.add_ai(CHAT, ANA, "")
    await svc.start(CHAT, ANA)
    gid = (await game_of(store))[1].id
    effects = await play_deal(svc, store)
    group = [e.text if e.kind == "say" else "\n".join(e.view.lines)
             for e in effects if e.kind in ("say", "table")]
    end = next(k for k, text in enumerate(group) if text.startswith("Fim da mão 1."))
    assert not any(LEFT.search(text) for text in group[:end])  # never during play
    assert not any(LEFT.search(text) for text in group[end + 1:])
    result = group[end].splitlines()
    game = (await game_of(store, gid=gid))[1]
    state = play.deal_of(game)
    names = ["Ana", "Robô 2", "Robô 3", "Robô 4"]
    left = hands_at_end(state)
    wanted = {f"  Na mão de {names[seat]}: {play.show(left[seat])}"
              for seat in range(4) if left[seat]}
    assert {line for line in result if LEFT.search(line)} == wanted
    assert wanted  # somebody held cards at the end
    for side, team in enumerate(state.teams):  # each under its side's total
        head = next(k for k, line in enumerate(result)
                    if line.startswith(f"Dupla {side + 1} ("))
        block = result[head + 1:head + 1 + sum(bool(left[s]) for s in team)]
        assert set(block) == {f"  Na mão de {names[s]}: {play.show(left[s])}"
                              for s in team if left[s]}


async def test_the_terminal_deal_result_shows_both_hands_after_fim_da_mao() -> None:
    """The terminal says "Na sua mão" for the person's own leftovers, names the robot's,
    and only after a deal's result."""
    text = await play_seeded_duel()
    first_end = text.index("Fim da mão 1.")
    assert not LEFT.search(text[:first_end])
    assert text[first_end:].startswith(  # the robot went out: nothing left in its hand
        "Fim da mão 1.\nVocê: jogos 0, cartas na mão -90 = -90\n"
        "  Na sua mão: 8♣ 5♠ 6♠ 7♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠\nRobô 2: jogos 710, ")
    # every deal's result names the seats that held cards, never between the results
    # and the next deal's hands in play
    ends = [m.start() for m in re.finditer("Fim da mão", text)]
    for start, stop in zip(ends, [*ends[1:], len(text)], strict=True):
        result = text[start:].split("Placar:")[0]
        assert LEFT.search(result)
        assert not LEFT.search(text[start + len(result):stop])
