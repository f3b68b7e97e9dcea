"""What a person does on the web table page, by the ids and attributes of docs/web.md
("Page element ids and attributes"): open it (Telegram launch data or a signed link),
tap cards, action buttons and melds, and read what it shows.

Every tap waits until the page shows a newer version than before (the server's answer to
the press), or a reply in ``#toast``, so the next tap carries the current version, as a
person's next tap would.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import tg_initdata

ANSWER_MS = 5_000  # how long a tap's answer may take (the 1 s rule is measured apart)


def telegram_url(base: str, bot_token: str, user: dict[str, Any], game: str | None, *,
                 start_param: bool = True, auth_date: int | None = None,
                 data: str | None = None) -> str:
    """The page's address as Telegram opens a Mini App: ``base`` (``WEB_PUBLIC_URL``)
    with ``?game=`` and the signed launch data in the fragment. ``start_param``: the
    game rides in the signed ``start_param`` (direct link ``startapp=``) too; ``data``
    replaces the launch data (a forgery)."""
    launch = data if data is not None else tg_initdata.init_data(
        bot_token, user, game if start_param else None, auth_date=auth_date)
    query = f"?game={quote(game)}" if game else ""
    return f"{base.rstrip('/')}/{query}#{tg_initdata.fragment(launch)}"


def state(page: Any) -> str:
    """``body[data-state]``: ``live``, ``offline`` or ``refused`` (or '')."""
    return str(page.get_attribute("body", "data-state") or "")


def version(page: Any) -> int:
    """``body[data-version]``, the game version the page shows (0 before any)."""
    return int(page.get_attribute("body", "data-version") or 0)


def wait_live(page: Any, timeout_ms: int = 15_000) -> None:
    """Wait until the page holds a live connection and shows a view."""
    page.wait_for_selector("body[data-state=live]", timeout=timeout_ms)
    page.wait_for_function("Number(document.body.dataset.version || 0) > 0",
                           timeout=timeout_ms)


def wait_version_above(page: Any, seen: int, timeout_ms: int = ANSWER_MS) -> int:
    """Wait until the page shows a version above ``seen``; returns it."""
    page.wait_for_function(f"Number(document.body.dataset.version || 0) > {seen}",
                           timeout=timeout_ms)
    return version(page)


def toast(page: Any) -> str:
    """The text of ``#toast`` (the last refusal's reason; it stays in the element after
    the toast hides), stripped."""
    return str(page.text_content("#toast") or "").strip()


def _answered(page: Any, before: int, toast_before: str) -> None:
    page.wait_for_function(
        """([v, t]) => { const said = document.getElementById('toast').textContent.trim();
                         return Number(document.body.dataset.version || 0) > v
                                || (said !== '' && said !== t); }""",
        arg=[before, toast_before], timeout=ANSWER_MS)


def tap(page: Any, selector: str) -> None:
    """Tap ``selector`` and wait for the server's answer (a new version or a reply)."""
    before, said = version(page), toast(page)
    page.click(selector)
    _answered(page, before, said)


def card(code: str) -> str:
    """Selector of the hand card with engine code ``code`` (``10h``)."""
    return f'#hand .card[data-code="{code}"]'


def tap_cards(page: Any, codes: list[str]) -> None:
    """Tap each card of ``codes`` in the hand (select, or unselect a selected one)."""
    for code in codes:
        tap(page, card(code))


def action(page: Any, code: str, arg: str = "") -> None:
    """Tap the action button ``code`` (``c`` draw, ``m`` lay, ``d`` discard, ...)."""
    tap(page, f'#actions button[data-action="{code}"][data-arg="{arg}"]')


def tap_meld(page: Any, side: int, index: int) -> None:
    """Tap meld ``index`` of side ``side`` (adds the selected cards to it)."""
    tap(page, f'.meld[data-side="{side}"][data-meld="{index}"]')


def hand_codes(page: Any) -> list[str]:
    """Codes of the hand's cards as the page shows them."""
    return [str(c) for c in page.eval_on_selector_all(
        "#hand .card", "cards => cards.map(c => c.dataset.code)")]


def selected_codes(page: Any) -> list[str]:
    """Codes of the hand's selected cards."""
    return [str(c) for c in page.eval_on_selector_all(
        "#hand .card.selected", "cards => cards.map(c => c.dataset.code)")]


def melds(page: Any, side: int) -> int:
    """How many melds of side ``side`` the page shows."""
    return int(page.eval_on_selector_all(f'.meld[data-side="{side}"]', "m => m.length"))


def actions(page: Any) -> list[str]:
    """The action codes offered now."""
    return [str(c) for c in page.eval_on_selector_all(
        "#actions button[data-action]", "b => b.map(x => x.dataset.action)")]


def seen_after(page: Any, start: float, predicate: str, arg: Any = None,
               timeout_ms: int = 10_000) -> float:
    """Seconds from ``start`` (``time.monotonic()`` taken just before the other person
    acted) until ``predicate`` (a JavaScript function of ``arg``) holds on the page."""
    page.wait_for_function(predicate, arg=arg, timeout=timeout_ms, polling=10)
    return time.monotonic() - start


TAP_PX = 44
"""The smallest tap target, CSS px (issue 34)."""
LAYOUT = """() => {
  const vw = window.innerWidth, vh = window.innerHeight, doc = document.scrollingElement;
  const out = {wide: doc.scrollWidth - vw, tall: doc.scrollHeight - vh, outside: [], small: [],
               overlap: [], result: null};
  // the phone's column: each shown block below the one before, none over another (the
  // turn line over the last side's "(sem jogos)", issue 38)
  const shown = [...document.querySelectorAll(
    '#top, #message, #seats, #center, #board, #log > *, #dock')].filter(
    (n) => n.getClientRects().length && n.getBoundingClientRect().height > 0);
  if (vw < 720) {
    for (let k = 1; k < shown.length; k++) {
      const a = shown[k - 1].getBoundingClientRect(), b = shown[k].getBoundingClientRect();
      if (b.top < a.bottom - 0.5)
        out.overlap.push(`${shown[k - 1].id} ${Math.round(a.bottom)} > `
                         + `${shown[k].id} ${Math.round(b.top)}`);
    }
  }
  const board = document.getElementById('board'), result = document.getElementById('result');
  if (result && !result.hidden)  // the result whole in the board's area, unscrolled
    out.result = {height: Math.round(result.getBoundingClientRect().bottom + board.scrollTop
                                     - board.getBoundingClientRect().top),
                  room: board.clientHeight};
  // a text cut at its box's right edge (a deal's seed, 64 hex digits, ran past a 360 px
  // screen: issue 35)
  out.cut = [...document.querySelectorAll('#result p, #result h2, #lines p')].filter(
    (p) => p.getClientRects().length && p.scrollWidth > p.clientWidth + 0.5).map(
    (p) => `${p.textContent.slice(0, 40)} ${p.scrollWidth}>${p.clientWidth}`);
  for (const b of document.querySelectorAll('#actions button, #hint-box button')) {
    const r = b.getBoundingClientRect();
    if (r.top < 0 || r.bottom > vh || r.left < 0 || r.right > vw)
      out.outside.push(`${b.textContent} ${Math.round(r.top)}-${Math.round(r.bottom)}`);
  }
  for (const t of document.querySelectorAll('button, .meld.can-add, [role=button]')) {
    if (!t.offsetParent) continue;
    const r = t.getBoundingClientRect();
    if (r.width < 44 || r.height < 44)
      out.small.push(`${t.id || t.dataset.code || t.textContent} ${r.width}x${r.height}`);
  }
  return out;
}"""


def assert_fits(page: Any) -> None:
    """Every action button (and the hand's "Dica") inside the viewport, nothing wider or
    taller than it, every tap target at least 44x44 CSS px; on a phone no block of the
    page's column over another (:data:`LAYOUT`), no line of the result or the lobby cut
    at its right edge; a deal's or match's result whole in view without scrolling its
    area."""
    got = page.evaluate(LAYOUT)
    assert got["outside"] == [] and got["small"] == [] and got["overlap"] == [], got
    assert got["cut"] == [], got
    assert got["wide"] <= 0 and got["tall"] <= 0, got
    if got["result"] is not None:
        assert got["result"]["height"] <= got["result"]["room"], got


def wait_version_after(page: Any, seen: int, timeout_ms: int = ANSWER_MS) -> int:
    """Wait until the page shows a version above ``seen`` (a function, not an expression:
    the page's CSP forbids eval); returns it."""
    page.wait_for_function("v => Number(document.body.dataset.version || 0) > v", arg=seen,
                           timeout=timeout_ms)
    return version(page)
