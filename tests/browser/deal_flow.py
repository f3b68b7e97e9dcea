"""The scripted deal of :mod:`deal_script` played on the web table: Ana (seat 0) by taps
on her page, Bia (seat 1) by a chat player (the emulator's buttons, or the service's
buttons in process); each of Bia's moves is timed until Ana's page shows it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

import chromium
import deal_script as script
import web_page as web
from tg_emulator import wait_for

REFUSED_MELD = "Um jogo precisa de pelo menos 3 cartas."  # the chat's own reason
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "web-table.png"


class ChatSide(Protocol):
    """A person playing with chat buttons."""

    def press(self, label: str, wait: bool = True) -> float:
        """Press the hand button ``label``; returns ``time.monotonic()`` just before."""

    def pick(self, codes: list[str]) -> None:
        """Toggle each card of ``codes``."""

    def settle(self) -> None:
        """Wait until the person's hand shows the last press's answer."""


def stock_is(n: int) -> tuple[str, int]:
    """Predicate: ``#stock`` shows ``n``."""
    return ("n => document.getElementById('stock').dataset.count === String(n)", n)


def melds_are(side: int, n: int) -> tuple[str, list[int]]:
    """Predicate: side ``side`` shows ``n`` melds."""
    return ("([s, n]) => document.querySelectorAll(`.meld[data-side='${s}']`).length === n",
            [side, n])


def pile_top_is(code: str | None) -> tuple[str, str | None]:
    """Predicate: the pile's top card is ``code`` (None: the pile is empty)."""
    return ("""c => { const cards = document.querySelectorAll('#pile .card');
                      if (c === null) return cards.length === 0;
                      return cards.length > 0 && cards[cards.length - 1].dataset.code === c; }""",
            code)


class Watch:
    """Ana's page watching Bia's chat moves: each move's delay until the page shows it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.delays: list[tuple[str, float]] = []

    def move(self, bia: ChatSide, label: str, shows: tuple[str, Any]) -> None:
        """Bia presses ``label``; wait until Ana's page satisfies ``shows``."""
        start = bia.press(label, wait=False)
        self.delays.append((label, web.seen_after(self.page, start, *shows)))
        bia.settle()

    def assert_within(self, limit_s: float) -> None:
        """Print every delay; AssertionError unless all five moves showed within
        ``limit_s`` seconds."""
        print("Bia's moves on Ana's page after (s):",
              [(label, round(d, 3)) for label, d in self.delays])
        slow = [(label, round(d, 3)) for label, d in self.delays if d > limit_s]
        assert len(self.delays) == 5 and slow == [], slow


def wait_score(page: Any, totals: list[int]) -> None:
    """Wait until ``#score`` shows both sides' ``totals``."""
    page.wait_for_function(
        "([a, b]) => { const n = (document.getElementById('score').textContent"
        ".replace(/\\u2212/g, '-').match(/-?\\d+/g) || []);"
        " return n.includes(a) && n.includes(b); }",
        arg=[str(totals[0]), str(totals[1])], timeout=5_000)


def play(ana_page: Any, bia: ChatSide, watch: Watch, shots: tuple[Any, Any] | None = None,
         shot_name: str = "web-table") -> None:
    """The five turns of :mod:`deal_script`; with ``shots`` (a phone page and a desktop
    page), screenshots of both at Ana's last turn (``<shot_name>-360x640.png``,
    ``-1280x800.png``; the desktop one to ``docs/img/web-table.png`` when
    ``UPDATE_DOCS_SHOT=1``)."""

    # Ana, turn 1: draws 7♥; a meld that is none is refused with its reason, nothing moves
    web.action(ana_page, "c")
    web.tap_cards(ana_page, ["Kc", "Qc"])
    shown = web.version(ana_page)
    web.action(ana_page, "m")
    assert web.toast(ana_page) == REFUSED_MELD
    assert web.version(ana_page) == shown and web.melds(ana_page, 0) == 0
    web.tap_cards(ana_page, ["Kc", "Qc"])
    assert web.selected_codes(ana_page) == []
    web.tap_cards(ana_page, ["4h", "5h", "6h", "7h"])
    web.action(ana_page, "m")
    web.tap_cards(ana_page, ["7c", "7d", "7s"])
    web.action(ana_page, "m")
    web.tap_cards(ana_page, ["Kc"])
    web.action(ana_page, "d")
    assert web.melds(ana_page, 0) == 2

    # Bia, turn 1, with chat buttons: each move on Ana's page within a second
    watch.move(bia, "Comprar do monte", stock_is(58))
    bia.pick(["9s", "10s", "Js"])
    watch.move(bia, "Baixar", melds_are(1, 1))
    bia.pick(["4c"])
    watch.move(bia, "Descartar", pile_top_is("4c"))

    # Ana, turn 2: draws 8♥ and adds it by tapping her run, lays 9♦ 10♦ J♦, goes out
    wait_for(lambda: "c" in web.actions(ana_page) or None, what="Ana's turn")
    web.action(ana_page, "c")
    web.tap_cards(ana_page, ["8h"])
    web.tap_meld(ana_page, 0, 0)
    web.tap_cards(ana_page, ["9d", "10d", "Jd"])
    web.action(ana_page, "m")
    web.tap_cards(ana_page, ["Qc"])
    web.action(ana_page, "d")
    assert web.hand_codes(ana_page) == []

    # Bia, turn 2: takes the whole pile, discards 3♦
    watch.move(bia, "Pegar o lixo", pile_top_is(None))
    bia.pick(["3d"])
    watch.move(bia, "Descartar", pile_top_is("3d"))

    # Ana, turn 3: the morto is her hand; she draws A♥ and goes out again
    wait_for(lambda: "c" in web.actions(ana_page) or None, what="Ana's third turn")
    assert sorted(web.hand_codes(ana_page)) == sorted(script.ANA_MORTO)
    web.action(ana_page, "c")
    if shots is not None:
        shots[0].wait_for_timeout(700)  # the flying cards have landed
        chromium.screenshot(shots[0], f"{shot_name}-360x640")
        desktop = chromium.screenshot(shots[1], f"{shot_name}-1280x800")
        if os.environ.get("UPDATE_DOCS_SHOT") == "1":  # the README's picture, on purpose
            DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
            DOCS_SHOT.write_bytes(desktop.read_bytes())
    for meld in (["3s", "4s", "5s", "6s"], ["8c", "9c", "10c"], ["Jh", "Qh", "Kh", "Ah"]):
        web.tap_cards(ana_page, meld)
        web.action(ana_page, "m")
    web.tap_cards(ana_page, ["5d"])
    web.action(ana_page, "d")

