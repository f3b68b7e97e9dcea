"""What the end-to-end tests on ``python -m bot serve`` (serve_run.py) check and how their
people play (issue 35): the game as stored in Redis is the truth; after each version the
tests read it and check what every place, hand, web page and log line shows against it.

Places are the chats where the table is shown: Telegram chats (a group, or a person's
private chat) and the Discord channel. A face once shown to everyone (discarded, melded,
taken from the open pile) may be named anywhere afterwards; any other face only to the
person who held it.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from bot_run import wait_for
from dc_play import can_draw, hand, pick, press, until_changed
from fake_discord import FakeDiscord
from fake_model import Message, Person
from serve_run import WebPage, link_token
from tg_emulator import BotMessage, Emulator
from tg_emulator import Person as TgPerson

from adapters.storage.keys import StoreKeys
from bot import play as game_play
from bot import views
from bot.model import Game, decode
from engine.cards import Card

PUBLIC_CODES = {"j", "lv", "ai", "ar", "sh", "v", "s", "x", "h", "n", "ph"}
"""Codes a table button may carry: none names a card."""
FACE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♠♥♦♣]|🃏")
SUITS = "♠♥♦♣🃏"
CODE = re.compile(r"\b(?:10|[2-9AJQKT])[cdhs]\b|\bJK\b")
"""A card's code (``10h``, ``Qs``, ``JK``) standing alone: no log line has one."""
DEAL_END = re.compile(r"^Fim da mão 1\.$", re.M)
TITLE = "Buraco Bossa Nova"


# ---- the truth ---------------------------------------------------------------------------
@dataclass
class Truth:
    """The game as stored, at one version."""

    version: int
    game: Game

    @property
    def deal(self) -> Any:
        return game_play.deal_of(self.game)

    def seat_of(self, key: str) -> int:
        seat = next(i for i, s in enumerate(self.game.seats)
                    if s.player is not None and s.player.key == key)
        return seat

    def hand(self, seat: int) -> list[str]:
        return [c.code for c in self.deal.hands[seat]]

    def public(self) -> set[str]:
        """Faces anyone may see: the discard pile, the melds on the table and the cards
        each seat took from the open pile (everyone saw them: ``DealState.seen``)."""
        cards = list(self.deal.pile) + [c for side in self.deal.melds for m in side
                                        for c in m.cards] + [
            c for taken in self.deal.seen for c in taken]
        return {str(c) for c in cards}

    def table_text(self) -> str:
        view = views.table_effect(self.game).view
        return plain("\n".join([view.title, *view.lines]))


def read_truth(client: redis.Redis, prefix: str, gid: str) -> Truth:
    version, state = client.hmget(StoreKeys(prefix).state(gid), ["v", "s"])
    assert version is not None and state is not None
    return Truth(int(version), decode(str(state), gid))


def plain(text: str) -> str:
    """A table's words as read: no Telegram HTML, no Discord markdown escapes, no emoji
    variation selector."""
    text = html.unescape(re.sub(r"</?[a-z]+>", "", text))
    return re.sub(r"\\(.)", r"\1", text).replace("\ufe0f", "").strip()


def faces(text: str) -> set[str]:
    return set(FACE.findall(text.replace("\ufe0f", "")))


# ---- the people --------------------------------------------------------------------------
@dataclass
class Seats:
    """Who is who: Telegram people, Discord people, their pages."""

    emu: Emulator
    fake: FakeDiscord
    tg: dict[str, TgPerson]
    dc: dict[str, Person]
    web: str
    places: dict[str, int]
    """The Telegram chats showing the table, by name (groups, private chats)."""
    pages: dict[str, WebPage] = field(default_factory=dict)

    def key(self, name: str) -> str:
        if name in self.tg:
            return f"tg:{self.tg[name].user_id}"
        return f"dc:{self.dc[name].user_id}"


def tg_hand(emu: Emulator, person: TgPerson) -> BotMessage | None:
    """The person's hand message in their private chat (the newest), if any."""
    found = [m for m in emu.messages(person.user_id) if m.text.startswith("<b>Sua mão")]
    return found[-1] if found else None


def tg_table(emu: Emulator, chat_id: int) -> BotMessage | None:
    """The table message in a Telegram chat, if any."""
    found = [m for m in emu.messages(chat_id) if m.text.startswith(f"<b>{TITLE}")]
    return found[0] if found else None


def dc_table(fake: FakeDiscord) -> Message | None:
    """The table message in the Discord channel, if any."""
    found = [m for m in fake.channel_messages()
             if m.embeds and str(m.embeds[0].get("title", "")).startswith(TITLE)]
    return found[0] if found else None


def sent_tables(seats: Seats) -> dict[str, list[str]]:
    """Every table text the bot sent or edited into each place, in order."""
    out: dict[str, list[str]] = {}
    calls = seats.emu.calls()
    for name, chat_id in seats.places.items():
        out[name] = [plain(str(c["body"]["text"])) for c in calls
                     if c["method"] in ("sendMessage", "editMessageText")
                     and str(c["body"].get("chat_id")) == str(chat_id)
                     and str(c["body"].get("text", "")).startswith(f"<b>{TITLE}")]
    out["channel"] = []
    for call in seats.fake.calls():
        if call.route not in ("POST /channels/{c}/messages", "PATCH /channels/{c}/messages/{m}") \
                or call.ids.get("c") != str(seats.fake.channel_id) or not 200 <= call.status < 300:
            continue
        message = Message(id=0, channel_id=0, author={})
        message.apply(call.body if isinstance(call.body, dict) else {})
        if message.embeds and str(message.embeds[0].get("title", "")).startswith(TITLE):
            out["channel"].append(plain(message.text()))
    return out


def place_texts(seats: Seats) -> dict[str, str]:
    """Each place's table as it reads now."""
    out = {name: plain(t.text) if (t := tg_table(seats.emu, chat_id)) else ""
           for name, chat_id in seats.places.items()}
    table = dc_table(seats.fake)
    out["channel"] = plain(table.text()) if table else ""
    return out


# ---- the checks after every version ------------------------------------------------------
class Checker:
    """Every version's checks (module docstring); ``truths`` every version seen."""

    def __init__(self, seats: Seats, client: redis.Redis, prefix: str, gid: str,
                 logs: list[Path], tokens: list[str]) -> None:
        self.seats, self.client, self.prefix, self.gid = seats, client, prefix, gid
        self.logs, self.tokens = logs, tokens
        self.truths: dict[int, Truth] = {}
        self.held: dict[str, set[str]] = {}  # faces each person ever held
        self.public: set[str] = set()  # faces shown to everyone in this deal so far
        self.frames_checked: dict[str, int] = {}
        self.exact: dict[str, int] = {}  # web views compared with the stored hand

    def now(self) -> Truth:
        truth = read_truth(self.client, self.prefix, self.gid)
        self.truths.setdefault(truth.version, truth)
        if truth.game.match is None:  # a lobby: no hands yet
            return truth
        self.public |= truth.public()
        for name in [*self.seats.tg, *self.seats.dc]:
            seat = truth.seat_of(self.seats.key(name))
            self.held.setdefault(name, set()).update(
                str(Card.parse(c)) for c in truth.hand(seat))
        return truth

    def after(self, before: int) -> Truth:
        """Wait for a version above ``before``; then check it (:meth:`secrecy`; the
        tables are checked by :meth:`settle` and :meth:`history`)."""
        state = StoreKeys(self.prefix).state(self.gid)
        wait_for(lambda: int(self.client.hget(state, "v") or 0) > before, timeout=15,
                 what=f"a version above {before}")
        truth = self.now()
        if truth.game.status == "playing":
            self.secrecy(truth)
        return truth

    def settle(self, truth: Truth) -> None:
        """Every place shows the table of ``truth`` (the places' tables are edited at most
        every few seconds: they catch up)."""
        want = truth.table_text()
        wait_for(lambda: all(v == want for v in place_texts(self.seats).values()),
                 timeout=20, what=f"every place's table at version {truth.version}:\n"
                                  f"{want}\n{place_texts(self.seats)}")

    def history(self) -> dict[str, int]:
        """Every table text each place was ever sent is the table of a stored version,
        and each place went through them in the order of the versions (an edit may skip
        versions: the places are edited at most every few seconds). Returns how many
        table texts were checked in each place."""
        texts: dict[str, list[int]] = {}
        for version in sorted(self.truths):
            texts.setdefault(self.truths[version].table_text(), []).append(version)
        checked: dict[str, int] = {}
        for place, shown in sent_tables(self.seats).items():
            at = 0
            for text in shown:
                later = [v for v in texts.get(text, []) if v >= at]
                assert later, (f"{place} showed a table of no stored version after "
                               f"version {at}:\n{text}")
                at = later[0]
                checked[place] = checked.get(place, 0) + 1
        return checked

    def secrecy(self, truth: Truth) -> None:
        """Nothing anyone sees names a card of another seat's hand (the deal in play):
        a public place names public faces only, a person's own messages and pages also
        the faces they held."""
        public = self.public
        seats = self.seats
        owners = {p.user_id: name for name, p in seats.tg.items()}
        for chat in {*seats.places.values(), *owners}:
            name = owners.get(chat, "")
            allowed = public | self.held.get(name, set())
            for m in seats.emu.messages(chat):
                extra = faces(m.text) - allowed
                assert not extra, (name, extra, m.text)
                for b in m.buttons():
                    assert not faces(str(b.get("text", ""))) - allowed, (name, b)
                    data = str(b.get("callback_data", ""))
                    if m.text.startswith("<b>Buraco"):
                        assert not data or data.split("|")[2] in PUBLIC_CODES, data
                    assert not any(part in truth.hand(s) for s in range(4)
                                   for part in re.split(r"[|:]", data) if part), data
        channel = seats.fake.channel_messages()
        for m in channel:
            assert not faces(m.text()) - public, m.text()
            for c in m.buttons():
                assert not faces(str(c.get("label", ""))) - public, c
                cid = str(c.get("custom_id", ""))
                assert not cid.startswith("bbc:"), cid
        for name, person in seats.dc.items():
            allowed = public | self.held[name]
            for m in seats.fake.ephemerals(person):
                assert m.ephemeral_for == person.user_id
                assert not faces(m.text()) - allowed, (name, m.text())
                for c in m.buttons():
                    for o in c.get("options", []):
                        assert not faces(str(o.get("label", ""))) - allowed, (name, o)
        for name, page in seats.pages.items():
            self.page_secrecy(name, page, truth)
        for log in self.logs:
            text = log.read_text() if log.exists() else ""
            assert not any(s in text for s in SUITS), "a card in the log"
            assert not CODE.search(text), CODE.search(text)
            assert "Sua mão" not in text and not any(t in text for t in self.tokens)

    def page_secrecy(self, name: str, page: WebPage, truth: Truth) -> None:
        """Each web frame of ``name``'s page at a version V of the deal in play shows
        their hand exactly as stored at V, and names no card but theirs and the public
        ones."""
        frames = page.received()
        seat = truth.seat_of(self.seats.key(name))
        for frame in frames[self.frames_checked.get(name, 0):]:
            view = frame.get("view") if frame.get("type") == "view" else None
            if not isinstance(view, dict) or view.get("result") or view["status"] != "playing":
                continue
            assert view["seat"] == seat and not view["spectator"], (name, view["seat"])
            at = self.truths.get(int(frame["version"]))
            shown = [c["code"] for c in (view.get("hand") or {}).get("cards", [])]
            if at is not None:
                assert Counter(shown) == Counter(at.hand(seat)), (name, frame["version"])
                self.exact[name] = self.exact.get(name, 0) + 1
            extra = faces(json.dumps(frame, ensure_ascii=False)) - (
                self.public | self.held[name])
            assert not extra, (name, extra)
        self.frames_checked[name] = len(frames)


# ---- turns ------------------------------------------------------------------------------
HAND_S = 15.0


def tg_card_label(message: BotMessage) -> str:
    """The first card button of a Telegram hand."""
    return next(str(b["text"]) for b in message.buttons()
                if str(b.get("callback_data", "")).split("|")[2:3] == ["t"])


def tg_turn(seats: Seats, ck: Checker, name: str, truth: Truth) -> Truth:
    """``name`` (Telegram) draws from the stock, picks their first card and discards it,
    by the buttons of their private hand; every version checked."""
    emu, person = seats.emu, seats.tg[name]

    def step(label: str | None, truth: Truth, ready: str) -> Truth:
        shown = wait_for(lambda: (lambda m: m if m is not None and m.button(ready)
                                  else None)(tg_hand(emu, person)), timeout=HAND_S,
                         what=f"{ready} on {name}'s hand")
        emu.press(person, shown, label or tg_card_label(shown))
        return ck.after(truth.version)

    truth = step("Comprar do monte", truth, "Comprar do monte")
    truth = step(None, truth, "Descartar")
    wait_for(lambda: (lambda m: m if m is not None and "Selecionadas:" in m.text else None)(
        tg_hand(emu, person)), timeout=HAND_S, what=f"{name}'s pick")
    return step("Descartar", truth, "Descartar")


def dc_hand_with(seats: Seats, person: Person, label: str) -> Message:
    """``person``'s ephemeral hand once it offers ``label`` (they press "Minha mão" on the
    channel's table when it does not after a few seconds, as after the turn ping)."""
    fake = seats.fake
    try:
        return wait_for(lambda: (lambda h: h if h is not None and h.button(label) else None)(
            hand(fake, person)), timeout=2, what=f"{label} on {person.name}'s hand")
    except AssertionError:
        table = dc_table(fake)
        assert table is not None
        press(fake, person, table, "Minha mão")
        return wait_for(lambda: (lambda h: h if h is not None and h.button(label) else None)(
            hand(fake, person)), timeout=HAND_S, what=f"{label} on {person.name}'s hand")


def dc_turn(seats: Seats, ck: Checker, name: str, truth: Truth) -> Truth:
    """``name`` (Discord) plays the same turn with their ephemeral hand's components."""
    fake, person = seats.fake, seats.dc[name]
    current = dc_hand_with(seats, person, "Comprar do monte")
    assert can_draw(current)
    press(fake, person, current, "Comprar do monte")
    truth = ck.after(truth.version)
    current = until_changed(fake, person, current)
    pick(fake, person, current, 0)
    truth = ck.after(truth.version)
    current = until_changed(fake, person, current)
    assert "Selecionadas:" in current.text(), current.text()
    press(fake, person, current, "Descartar")
    return ck.after(truth.version)


def web_turn(seats: Seats, ck: Checker, name: str, truth: Truth) -> Truth:
    """``name`` plays the same turn on the web table: each press is a payload of the
    page's current view, sent on its WebSocket."""
    page = seats.pages[name]

    def act(pick_data: Any, truth: Truth) -> Truth:
        view = wait_for(lambda: (lambda v: v if v is not None and page.version() >= truth.version
                                 and pick_data(v) else None)(page.view()), timeout=HAND_S,
                        what=f"{name}'s page at version {truth.version}")
        answer = page.answered(page.press(pick_data(view)))
        assert answer["type"] == "done", answer
        return ck.after(truth.version)

    def action(label: str) -> Any:
        return lambda v: next((a["data"] for a in (v.get("hand") or {}).get("actions", [])
                               if a["label"] == label), None)

    truth = act(action("Comprar do monte"), truth)
    truth = act(lambda v: (v.get("hand") or {}).get("cards", [{}])[0].get("data")
                if action("Descartar")(v) else None, truth)
    return act(action("Descartar"), truth)


def open_page(seats: Seats, name: str) -> WebPage:
    """``name`` opens the web table from the signed link of their hand's "Abrir a mesa"."""
    if name in seats.tg:
        shown = wait_for(lambda: tg_hand(seats.emu, seats.tg[name]), timeout=HAND_S,
                         what=f"{name}'s hand")
        button = shown.button("Abrir a mesa")
        assert button is not None, shown.buttons()
        url = str(button["url"])
    else:
        shown = dc_hand_with(seats, seats.dc[name], "Abrir a mesa")
        button = shown.button("Abrir a mesa")
        assert button is not None
        url = str(button["url"])
    assert url.startswith(seats.web + "/#t="), url
    page = WebPage(seats.web, link_token(url))
    wait_for(lambda: page.view(), timeout=HAND_S, what=f"{name}'s page")
    return page


def play(seats: Seats, ck: Checker, truth: Truth, turns: int | None) -> Truth:
    """People's turns until ``turns`` were played (None: until the deal ends); those with
    a web page (``seats.pages``) play every other turn of theirs on it. A robot's turn is
    waited for (its versions checked as they come)."""
    played = 0
    names = {truth.seat_of(seats.key(n)): n for n in (*seats.tg, *seats.dc)}
    web_next = dict.fromkeys(seats.pages, True)
    while truth.game.status == "playing" and (turns is None or played < turns):
        name = names.get(truth.deal.turn)
        if name is None:
            truth = ck.after(truth.version)
            continue
        if web_next.get(name):
            truth = web_turn(seats, ck, name, truth)
        elif name in seats.tg:
            truth = tg_turn(seats, ck, name, truth)
        else:
            truth = dc_turn(seats, ck, name, truth)
        if name in web_next:
            web_next[name] = not web_next[name]
        played += 1
    return truth


def deal_results(seats: Seats) -> dict[str, str]:
    """The deal's result as each place shows it."""
    out: dict[str, str] = {}
    for name, chat_id in seats.places.items():
        out[name] = wait_for(lambda c=chat_id: next(
            (plain(m.text) for m in seats.emu.messages(c) if DEAL_END.search(m.text)),
            None), what=f"the result in {name}")
    out["channel"] = wait_for(lambda: next(
        (plain(m.text()) for m in seats.fake.channel_messages() if DEAL_END.search(m.text())),
        None), what="the result in the channel")
    return out
