"""What simulated people see and do on the fake Discord during a game of the bot: find the
table and each person's hand, press what the bot shows (buttons and card selects), play a
turn (draw from the stock, pick one card, discard), and measure the bot's REST traffic.
"""

from __future__ import annotations

import re
import time
from typing import Any

from bot_run import wait_for
from fake_discord import FakeDiscord
from fake_model import Interaction, Message, Person, flat_components

TABLE_TITLE = re.compile(r"^Buraco (Bossa Nova )?· ")  # a chosen variant or the default
HAND_TITLE = "Sua mão"
DEAL_END = re.compile(r"^Fim da mão 1\.$", re.M)
ANSWER_S = 5.0  # how long a test waits for an answer (the 3 s rule is asserted apart)


def title(message: Message) -> str:
    """The first embed's title, or ''."""
    return str(message.embeds[0].get("title", "")) if message.embeds else ""


def table(fake: FakeDiscord) -> Message:
    """The channel's table message (waits for it to exist)."""
    return wait_for(lambda: next((m for m in fake.channel_messages()
                                  if TABLE_TITLE.search(title(m))), None), what="the table")


def tables(fake: FakeDiscord) -> list[Message]:
    """Every table message in the channel."""
    return [m for m in fake.channel_messages() if TABLE_TITLE.search(title(m))]


def hand(fake: FakeDiscord, person: Person) -> Message | None:
    """The person's newest ephemeral hand message, if any."""
    found = [m for m in fake.ephemerals(person) if title(m).startswith(HAND_TITLE)]
    return found[-1] if found else None


def answered(fake: FakeDiscord, inter: Interaction) -> Interaction:
    """Wait for the bot's first callback to ``inter``; the answered interaction."""
    return wait_for(lambda: (lambda i: i if i.answer_type is not None else None)(
        fake.interaction(inter)), timeout=ANSWER_S, what=f"an answer to {inter.id}")


def press(fake: FakeDiscord, person: Person, message: Message, label: str) -> Interaction:
    """``person`` presses the button ``label`` under ``message``; waits for the answer."""
    return answered(fake, fake.press_label(person, message, label))


def my_hand(fake: FakeDiscord, person: Person, on: Message | None = None) -> Message:
    """``person`` presses "Minha mão" on the table message ``on`` (default :func:`table`);
    their new hand, an ephemeral message (flag 64) for them only."""
    before = hand(fake, person)
    inter = press(fake, person, on or table(fake), "Minha mão")
    got = wait_for(lambda: (lambda h: h if h is not None and (before is None or h.id != before.id)
                            else None)(hand(fake, person)), what=f"{person.name}'s hand")
    assert inter.answer_type == 4 and got.flags == 64 and got.ephemeral_for == person.user_id
    return got


def deal_result(fake: FakeDiscord) -> str | None:
    """The channel message announcing the end of deal 1, once it exists."""
    return next((m.text() for m in fake.channel_messages() if DEAL_END.search(m.text())),
                None)


def card_options(message: Message) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(select, option)`` for every card offered by the hand's card selects, in order."""
    return [(c, o) for c in message.buttons()
            if c.get("type") == 3 and str(c.get("custom_id", "")).startswith("bbc:")
            for o in c.get("options", [])]


def pick(fake: FakeDiscord, person: Person, message: Message, position: int) -> Interaction:
    """Toggle the card at ``position`` (0-based, among the selects' options) by choosing it
    in its select, keeping that select's other choices as shown; waits for the answer."""
    select, option = card_options(message)[position]
    chosen = [o["value"] for o in select["options"] if o.get("default")]
    chosen = [v for v in chosen if v != option["value"]] if option.get("default") else (
        [*chosen, option["value"]])
    return answered(fake, fake.press(person, message, str(select["custom_id"]), chosen))


def until_changed(fake: FakeDiscord, person: Person, before: Message) -> Message:
    """Wait until the person's hand differs from ``before``."""
    return wait_for(lambda: (lambda h: h if h is not None and (h.id, h.embeds, h.components)
                             != (before.id, before.embeds, before.components) else None)(
        hand(fake, person)), timeout=ANSWER_S, what=f"{person.name}'s hand to change")


def can_draw(message: Message | None) -> bool:
    """The hand shows "Comprar do monte" (its owner's turn, draw phase)."""
    return message is not None and message.button("Comprar do monte") is not None


def play_turn(fake: FakeDiscord, person: Person, choose: int = 0) -> bool:
    """If the person's hand offers the draw: draw from the stock, pick the card at
    ``choose`` and discard it, all through the hand's components. True when played."""
    current = hand(fake, person)
    if current is None or not can_draw(current):
        return False
    press(fake, person, current, "Comprar do monte")
    current = until_changed(fake, person, current)
    pick(fake, person, current, choose)
    current = until_changed(fake, person, current)
    assert "Selecionadas:" in current.text(), current.text()
    press(fake, person, current, "Descartar")
    wait_for(lambda: not (h := hand(fake, person)) or h.button("Descartar") is None
             or deal_result(fake), timeout=ANSWER_S, what=f"{person.name}'s discard")
    return True


def whose_turn(fake: FakeDiscord) -> str | None:
    """The name in the table's "Vez de X." line (the table is coalesced: it may lag)."""
    found = re.search(r"Vez de ([^.]+)\.", table(fake).text())
    return found.group(1) if found else None


def refresh_if_stuck(fake: FakeDiscord, people: list[Person], idle_since: float) -> float:
    """When nobody could play for 4 s and the table names a person whose hand shows no
    draw, that person presses "Minha mão" on the table (what they do after the turn
    ping when their hand could not be updated). Returns the new idle start."""
    if time.monotonic() - idle_since < 4:
        return idle_since
    name = whose_turn(fake)
    person = next((p for p in people if p.name == name), None)
    if person is not None and not can_draw(hand(fake, person)):
        press(fake, person, table(fake), "Minha mão")
    return time.monotonic()


def play_deal(fake: FakeDiscord, people: list[Person], limit_s: float = 150,
              max_turns: int | None = None) -> str | None:
    """Let the people play (AI seats play by themselves) until deal 1 ends (its result
    text) or the people have played ``max_turns`` turns (None)."""
    deadline = time.monotonic() + limit_s
    turns, idle = 0, time.monotonic()
    while (result := deal_result(fake)) is None:
        assert time.monotonic() < deadline, f"the deal did not end in time\n{scene(fake, people)}"
        if max_turns is not None and turns >= max_turns:
            return None
        played = False
        for person in people:
            if deal_result(fake) is None and play_turn(fake, person):
                turns, played, idle = turns + 1, True, time.monotonic()
                break
        if not played:
            idle = refresh_if_stuck(fake, people, idle)
            time.sleep(0.05)
    return result


def scene(fake: FakeDiscord, people: list[Person]) -> str:
    """The table and each person's hand as they stand (for failure messages)."""
    lines = [f"table: {table(fake).text()} {table(fake).labels()}"]
    for person in people:
        current = hand(fake, person)
        lines.append(f"{person.name}: " + (f"{current.text()} {current.labels()}"
                                           if current else "no hand"))
    lines += [f"{c.time:.2f} {c.route} {c.path} {c.status}" for c in fake.calls()[-25:]]
    return "\n".join(lines)


# ---- measures ---------------------------------------------------------------------------
SETUP_ROUTES = {"GET /users/@me", "GET /gateway/bot", "GET /gateway",
                "GET /oauth2/applications/@me", "GET /applications/@me",
                "PUT /applications/{app}/guilds/{g}/commands", "PUT /applications/{app}/commands"}


def action_calls(fake: FakeDiscord) -> list[Any]:
    """The REST calls made for the game (start-up and command sync left out)."""
    return [c for c in fake.calls() if c.route not in SETUP_ROUTES]


def table_edit_times(fake: FakeDiscord, table_id: int) -> list[float]:
    """When each PATCH of the table message reached the fake (seconds, in order)."""
    return [c.time for c in fake.calls() if c.route == "PATCH /channels/{c}/messages/{m}"
            and c.ids.get("m") == str(table_id) and c.status == 200]


def most_in_a_minute(times: list[float]) -> int:
    """The most events in any 60 s window."""
    return max((sum(1 for t in times if s <= t < s + 60) for s in times), default=0)


def custom_ids(body: Any) -> list[str]:
    """Every custom_id in a message body's components."""
    if not isinstance(body, dict):
        return []
    rows = body.get("components") or (body.get("data") or {}).get("components") or []
    return [str(c["custom_id"]) for c in flat_components(rows) if c.get("custom_id")]


def option_values(body: Any) -> list[str]:
    """Every select option value in a message body's components."""
    if not isinstance(body, dict):
        return []
    rows = body.get("components") or (body.get("data") or {}).get("components") or []
    return [str(o["value"]) for c in flat_components(rows) for o in c.get("options", [])]
