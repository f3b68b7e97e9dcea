"""The web table's secrecy (issue 27 "Done when"): every frame and body the server sends
to the pages of a whole deal (a seated person, and a spectator) is read, and none shows
a card of another seat's hand (partner included), of the stock or of a morto: each card
a frame names is in the person's own hand or lies face up at that version, and a card
named in its words was face up at some point of the deal or in the person's hand."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Any

from test_service_support import ANA, BIA, CHAT, Backend, FakeClock, make_service
from test_web_server import Rig

from bot import play
from bot.effects import pack
from bot.model import Game, decode
from bot.webview import web_view
from engine.view import hands_at_end

FACE = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♥♦♠♣])|🃏")


class Recording:
    """The store, with every state a won save wrote kept by version."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.states: dict[int, str] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_game(self, game_id: str, expected: int, state: str, ttl_s: int,
                        *args: Any, **kw: Any) -> bool:
        done = bool(await self.inner.save_game(game_id, expected, state, ttl_s, *args, **kw))
        if done:
            self.states[expected + 1] = state
        return done


def cards_in(node: Any) -> Counter[str]:
    """Codes of the card objects anywhere in a frame (the pile's ``top`` repeats the last
    of its ``cards`` when the pile is open: counted once)."""
    out: Counter[str] = Counter()
    if isinstance(node, dict) and "top" in node and "cards" in node and node["cards"]:
        node = {k: v for k, v in node.items() if k != "top"}
    if isinstance(node, dict):
        if isinstance(node.get("code"), str) and "text" in node:
            out[node["code"]] += 1
        for value in node.values():
            out += cards_in(value)
    elif isinstance(node, list):
        for value in node:
            out += cards_in(value)
    return out


def faces_in(node: Any) -> set[str]:
    """Card faces named in a frame's words (lines, narration, labels)."""
    if isinstance(node, str):
        return {m.group(0) for m in FACE.finditer(node)}
    if isinstance(node, dict):
        return set().union(*(faces_in(v) for k, v in node.items() if k != "text"))
    if isinstance(node, list):
        return set().union(*(faces_in(v) for v in node))
    return set()


def face_up(game: Game) -> Counter[str]:
    """Every card face up at this state; once the deal is over, every player's leftover
    cards too (engine ``hands_at_end``: the deal's result shows them, as the chat's)."""
    deal = play.deal_of(game)
    shown = [*deal.pile, *deal.killed, *(c for t in deal.laid_threes for c in t)]
    shown += [c for side in deal.melds for m in side for c in m.cards]
    if deal.over:
        shown += [c for hand in hands_at_end(deal) for c in hand]
    return Counter(c.code for c in shown)


class Checker:
    """Checks frames of one person (``seat`` None: a spectator) against the states."""

    def __init__(self, states: dict[int, str], seat: int | None) -> None:
        self.states, self.seat = states, seat

    def problems(self, frames: list[dict[str, Any]]) -> list[str]:
        out: list[str] = []
        ever: set[str] = set()
        for version in sorted(self.states):
            game = decode(self.states[version])
            if game.match is None:
                continue
            own = Counter(c.code for c in play.deal_of(game).hands[self.seat]) if (
                self.seat is not None) else Counter()
            allowed = face_up(game) + own
            ever |= {str(c) for c in play.deal_of(game).pile} | {
                str(c) for side in play.deal_of(game).melds for m in side for c in m.cards}
            ever |= {str(c) for c in play.deal_of(game).hands[self.seat]} if (
                self.seat is not None) else set()
            if play.deal_of(game).over:
                ever |= {str(c) for hand in hands_at_end(play.deal_of(game)) for c in hand}
            for f in frames:
                if f.get("version") != version:
                    continue
                extra = cards_in(f) - allowed
                if extra:
                    out.append(f"v{version}: cards {sorted(extra)}")
                if faces_in(f) - ever:
                    out.append(f"v{version}: words name {sorted(faces_in(f) - ever)}")
        return out


async def drain(ws: Any, into: list[dict[str, Any]]) -> None:
    while True:
        msg = await ws.receive()
        if msg.type != 1:  # TEXT
            return
        into.append(json.loads(msg.data))


async def shown(frames: list[dict[str, Any]], version: int) -> dict[str, Any]:
    """The first view frame at ``version`` or later (waiting up to 3 s)."""
    for _ in range(300):
        for f in frames:
            if f["type"] == "view" and f["version"] >= version:
                return f["view"]  # type: ignore[no-any-return]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no view at version {version}")


async def test_no_frame_of_a_whole_deal_shows_a_hidden_card(backend: Backend,
                                                           clock: FakeClock) -> None:
    rig = Rig(backend, clock)
    rig.store = Recording(rig.store)
    rig.svc = make_service(rig.store, clock, chooser=None)
    await rig.start()
    try:
        svc = rig.svc
        await svc.new_game(CHAT, ANA, "buraco_morto")
        await svc.add_ai(CHAT, ANA)
        await svc.join(CHAT, BIA)  # seat 2: Ana's partner
        await svc.add_ai(CHAT, ANA)
        await svc.start(CHAT, ANA)
        gid = str(await rig.store.chat_game(CHAT.key))
        ana_frames: list[dict[str, Any]] = []
        spy_frames: list[dict[str, Any]] = []
        _s, body = await rig.session(1, gid)
        bodies = [json.dumps(body)]
        ana = await rig.socket(body["session"])
        _s, spy_body = await rig.session(9, gid)
        bodies.append(json.dumps(spy_body))
        spy = await rig.socket(spy_body["session"])
        readers = [asyncio.ensure_future(drain(ana, ana_frames)),
                   asyncio.ensure_future(drain(spy, spy_frames))]
        ident = 0
        for _step in range(3000):
            version, text = await rig.store.load_game(gid)
            game = decode(text)
            if game.status != "playing":
                break
            turn = play.deal_of(game).turn
            seat = game.seats[turn]
            if turn == 0:
                view = await shown(ana_frames, version)
                acts = {a["code"]: a["data"] for a in view["hand"]["actions"]}
                ident += 1
                if "c" in acts:
                    data = acts["c"]
                elif view["hand"]["cards"] and not view["hand"]["cards"][0]["selected"]:
                    data = view["hand"]["cards"][0]["data"]
                else:
                    data = acts["d"]
                await ana.send_json({"type": "press", "id": ident, "data": data})
                await shown(ana_frames, version + 1)
            elif turn == 2 and not seat.away:
                sel = game.seats[2].sel
                code, arg = ("c", "") if play.deal_of(game).phase == "draw" else (
                    ("t", "0") if not sel else ("d", ""))
                await svc.press(BIA, pack(gid, game.seats[2].ver, code, arg))
            else:
                clock.advance(1.0)
                await svc.tick()
        assert game.status in ("between", "over"), "the deal did not end"
        await asyncio.sleep(0.3)
        for task in readers:
            task.cancel()
        states = rig.store.states
        assert len(ana_frames) > 20 and len(spy_frames) > 20
        assert Checker(states, 0).problems(ana_frames) == []
        assert Checker(states, None).problems(spy_frames) == []
        assert all(not FACE.search(b) for b in bodies)
        # the checker sees a leak: Bia's own view shown to Ana would be one
        last = max(v for v in states if decode(states[v]).match is not None
                   and not play.deal_of(decode(states[v])).over)  # hands still hidden
        leak = {"type": "view", "version": last, "view": web_view(decode(states[last]), 2)}
        assert Checker(states, 0).problems([leak]) != []
    finally:
        await rig.close()
