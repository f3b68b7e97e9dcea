"""Secrecy (issue 12 "Reliability suite"; GUIDE "Hidden cards and tokens never appear in
group messages, button data or logs, at any log level"), across 50 games played by two
worker processes logging at DEBUG (redis-py's and asyncio's loggers included):

* no group message (table view, group notice) shows a card (on any one line) more often
  than it lay face up (melds, discard pile, laid 3s, killed piles) in one state of the
  deal up to the one that message was made from: a card in a hand, a morto or the stock
  that was never face up never shows (the table's narration, issue 14, may still name
  a discard that the next player took, or that went back into the stock: everyone saw
  it discarded);
* every button payload is ``<game>|<version>|<code>|<arg>`` with an index or a level
  as argument, never a card (a wild's place on a meld, code ``ew``, is the index
  ``100 * meld + slot``: up to 4 digits, issue 30);
* a deal's result ("Fim da mão N.") lays every seat's leftover cards open under its
  side's total (issue 30: the deal is over, nothing is hidden any more), on lines of
  their own, "  Na mão de Ana: ..."; those lines are left out of the count, the result's
  other lines are counted as any group message (tests/test_deal_leftovers.py checks the
  leftovers' exact cards and that no such line appears while a deal is in play);
* no worker log line names a card;
* ``/exportar`` before the end gives no record.

The Telegram side (the bot token and python-telegram-bot's DEBUG lines) is in
test_rel_telegram.py.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from harness import Cluster, Table
from test_rel_load import route

from bot import play
from bot.model import decode
from engine.cards import full_deck

GAMES = 50
FACE = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♥♦♠♣])|🃏")
PAYLOAD = re.compile(r"[a-z0-9]{8}\|\d+\|[a-z0-9]{1,2}\|(\d{0,4}|facil|normal|dificil)")
LEFTOVERS = re.compile(r"^  Na mão de [^:\n]+: .*$", re.MULTILINE)
SENTENCE = re.compile(r"(?<=[.!])\s+")
FACES = {str(c): c for c in full_deck(True)}
CODE_IN_LOG = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQKT])[hdsc](?![A-Za-z0-9])|[♥♦♠♣🃏]")


def faces(text: str) -> Counter[str]:
    """Each face shown, as many times as one line, or one sentence of the narration,
    shows it (the pile line and the last action may name the same discarded card; the
    narration may name it discarded, then taken and melded)."""
    out: Counter[str] = Counter()
    for line in text.splitlines():
        for part in SENTENCE.split(line):
            out |= Counter(m.group(0) for m in FACE.finditer(part))
    return out


def public_faces(state_text: str) -> Counter[str] | None:
    """Faces of the cards lying face up in a stored state (None: no deal in play)."""
    game = decode(state_text)
    if game.match is None:
        return None
    deal = play.deal_of(game)
    if deal.over:
        return None  # the deal is over: the hands are laid open for the count
    cards = [*deal.pile, *deal.killed, *(c for t in deal.laid_threes for c in t)]
    cards += [c for side in deal.melds for m in side for c in m.cards]
    return Counter(str(c) for c in cards)


def ever_public(states: dict[tuple[str, int], str]) -> dict[tuple[str, int], Counter[str]]:
    """For each stored state, each card's most copies face up at once in any state of
    the same deal up to it (None-free: a state with no deal in play maps to nothing)."""
    out: dict[tuple[str, int], Counter[str]] = {}
    seen: dict[tuple[str, int], Counter[str]] = {}
    for gid, version in sorted(states):
        text = states[(gid, version)]
        public = public_faces(text)
        if public is None:
            continue
        deal = (gid, len(decode(text).deals))
        seen[deal] = seen.get(deal, Counter()) | public
        out[(gid, version)] = seen[deal]
    return out


@pytest.fixture
async def debug_cluster(tmp_path: Path) -> Any:
    from conftest import REDIS_URL

    c = Cluster(REDIS_URL or "", tmp_path, log_level="DEBUG", history=True)
    yield c
    await c.close()


async def test_fifty_games_show_no_hidden_card_in_groups_buttons_or_debug_logs(
        debug_cluster: Cluster) -> None:
    cluster = debug_cluster
    await cluster.start(["w1", "w2"])
    tables = [Table(cluster, k, random.Random(500 + k)) for k in range(GAMES)]
    await asyncio.gather(*(t.open() for t in tables))
    route(cluster, {t.gid: t for t in tables})
    await asyncio.gather(*(t.play(time.monotonic() + 12.0) for t in tables))
    live = [t for t in tables if not await t.stored_over()]
    early = await asyncio.gather(*(cluster.deliver(t.request("export", chat=t.chat))
                                   for t in live))
    await asyncio.gather(*(t.play(time.monotonic() + 25.0) for t in tables[:15]))
    await cluster.stop()
    states = {(g, v): text for g, v, text in map(
        json.loads, await cluster.client.lrange(f"{cluster.prefix}:history", 0, -1))}
    ever = ever_public(states)
    leaks, group_texts, shown = [], 0, 0
    for batch in cluster.answers + cluster.batches:
        versions = {e["game_id"]: e["state_version"] for e in batch if e["kind"] == "table"}
        for e in batch:
            for row in e.get("view", {}).get("buttons", []):
                for b in row:
                    if not PAYLOAD.fullmatch(b["data"]):
                        leaks.append(f"button data {b['data']!r}")
            if e["kind"] not in ("table", "say"):
                continue
            text = (e["view"]["title"] + "\n" + "\n".join(e["view"]["lines"])
                    if e["kind"] == "table" else e["text"])
            if e["kind"] == "say" and text.startswith("Fim da mão "):
                text = LEFTOVERS.sub("", text)  # the ended deal's hands, laid open
            labels = [b["label"] for row in e.get("view", {}).get("buttons", []) for b in row]
            seen = faces(text + "\n" + "\n".join(labels))
            group_texts += 1
            gid = e.get("game_id") or next(iter(versions), None)
            version = e.get("state_version") or versions.get(gid or "", 0)
            if not seen:
                continue
            state = states.get((gid or "", version))
            public = public_faces(state) if state else None
            if state is None and version > 1:
                leaks.append(f"{gid} v{version}: message without its state: {text!r}")
                continue
            if public is None:
                continue
            shown += sum(seen.values())
            over = seen - (public | ever.get((gid or "", version), Counter()))
            if over:
                leaks.append(f"{gid} v{version}: {dict(over)} shown but hidden: {text!r}")
    logs = [line for line in cluster.log_text().splitlines() if CODE_IN_LOG.search(line)]
    assert group_texts > 1_000 and shown > 1_000, (group_texts, shown)
    assert leaks == []
    assert logs == []
    assert "DEBUG" in cluster.log_text()  # the workers did log at DEBUG
    assert early and all([e["kind"] for e in r["effects"]] == ["reply"] and
                         r["effects"][0]["text"] == "O registro só sai depois do fim da partida."
                         for r in early)
