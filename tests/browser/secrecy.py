"""The secrecy check of the browser tests (issue 27): what one seat's page received
during a deal, against what that seat could ever see (:class:`deal_script.Replay`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from deal_script import Replay

from engine.cards import Card


def assert_secret(wire: Any, seat: int, replay: Replay, min_views: int = 10) -> None:
    """Nothing ``seat``'s page received names a card it never saw, nor more copies of a
    card than it ever saw at once; every view is its own seat's.

    What it saw is taken at the time: a frame from the first view showing the deal's
    result (``result`` lines, the leftover hands laid open, as the chat does) until the
    next view without one, and an HTTP body holding such a view, are checked against
    what the seat sees once the deal is over (``replay.hidden_at_end``); everything
    else against what it saw while the deal was in play (``replay.hidden_from``), so
    another seat's hand on the page before the deal's end fails."""
    views = 0
    at_end = False
    for _url, frame in wire.frames:
        message = _json(frame)
        view = message.get("view") if message.get("type") == "view" else None
        if isinstance(view, dict):
            at_end = bool(view.get("result"))
            assert not at_end or view.get("status") != "playing", view.get("status")
        _assert_names_none(frame, replay.hidden_at_end[seat] if at_end
                           else replay.hidden_from[seat])
        if not isinstance(view, dict):
            continue
        views += 1
        assert view.get("seat") == seat and not view.get("spectator")
        pile = dict(view.get("pile") or {})
        if pile.get("cards"):
            pile.pop("top", None)  # the open pile's top is its last card, shown twice
        seen = (replay.seen_at_end if at_end else replay.seen)[seat]
        counts = Counter(c["code"] for c in _cards({**view, "pile": pile}))
        for code, n in counts.items():
            assert n <= seen[code], (code, n, seen[code])
    for _url, body in wire.bodies:
        shown = _json(body).get("view")
        ended = isinstance(shown, dict) and bool(shown.get("result"))
        _assert_names_none(body, replay.hidden_at_end[seat] if ended
                           else replay.hidden_from[seat])
    assert views >= min_views, f"only {views} views reached seat {seat}"


def _assert_names_none(text: str, hidden: set[str]) -> None:
    for code in hidden:
        assert not names_a_card(text, code), (code, text[:300])


def _json(text: str) -> dict[str, Any]:
    """``text`` read as a JSON object, else ``{}``."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def names_a_card(text: str, code: str) -> bool:
    """Whether ``text`` (a frame or body; JSON is read, so escaped text counts) holds
    the card ``code`` as its code (a whole string) or its face (``10♥``)."""
    face = str(Card.parse(code))
    return any(_names_in(s, code, face) for s in _strings(text))


def _strings(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return [text]
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                found.append(str(key))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(data)
    return found


def _names_in(text: str, code: str, face: str) -> bool:
    """Whether ``text`` is the card code or holds the card's face (``10♥``)."""
    if text == code:
        return True
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(face)}", text) is not None


def _cards(node: Any) -> list[dict[str, Any]]:
    """Every card object (a dict with ``code`` and ``suit``) anywhere in a view."""
    if isinstance(node, dict):
        if "code" in node and "suit" in node:
            return [node]
        return [c for value in node.values() for c in _cards(value)]
    if isinstance(node, list):
        return [c for value in node for c in _cards(value)]
    return []


