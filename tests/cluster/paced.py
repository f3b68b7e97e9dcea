"""Paced games for the failover isolation tests (issue 36): every press and every timer
step timed, so a test can tell, game by game, how long the system kept it waiting.

:class:`PacedTable` is the reliability suite's :class:`harness.Table` (no chaos) whose
person thinks :data:`THINK_S` before each press (a modest press rate for 100 games on
2 cores) and records each press: its button, update key, when it was sent and when it
was answered. :func:`pauses` reads the workers' move log (``<P>:moves``, written by
``worker.py --product-ticks``) and the presses into :class:`Pause` intervals, the
stretches in which a game waited on the system and on nothing else:

* a press, from its sending to its answer (what the person waits);
* a timer step (a robot's move) whose previous save left a robot's move due at once
  (the worker logs who is owed the next move with each save), from that save to its
  own: the gap between two applied moves where the next was the system's to make
  (robots think for 0 s here). A step after a save that left the turn to the person is
  their turn timer firing: the person's own pace, not a pause, and not counted.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

from harness import Cluster, Table

THINK_S = (1.0, 3.0)
"""Seconds the person thinks before each press (uniform in this range)."""


@dataclass
class Press:
    """One press of a person: its game, button code, update key, and the wall-clock
    (``time.time()``) seconds it was sent and answered."""

    gid: str
    code: str
    update: str
    began: float
    ended: float = 0.0


@dataclass
class Pause:
    """An interval in which game ``gid`` waited on the system (``kind``: ``press`` or
    ``step``), wall-clock seconds."""

    gid: str
    kind: str
    began: float
    ended: float

    @property
    def seconds(self) -> float:
        return self.ended - self.began

    def overlaps(self, start: float, end: float) -> bool:
        return self.began <= end and self.ended >= start


@dataclass
class Log:
    """What every paced table of one test pressed; ``gate`` open lets them press."""

    presses: list[Press] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    in_flight: int = 0


class PacedTable(Table):
    """A :class:`harness.Table` without chaos that thinks before each press and logs it
    (see the module docstring)."""

    def __init__(self, cluster: Cluster, k: int, log: Log) -> None:
        super().__init__(cluster, k, random.Random(k), chaos=False)
        self.log = log
        self.last_update = ""

    def request(self, call: str, **kw: Any) -> dict[str, Any]:
        req = super().request(call, **kw)
        self.last_update = str(req["update"])
        return req

    async def press(self, data: str) -> dict[str, Any] | None:
        await asyncio.sleep(random.uniform(*THINK_S))
        await self.log.gate.wait()
        one = Press(self.gid, data.split("|")[2], "", time.time())
        self.log.in_flight += 1
        try:
            reply = await super().press(data)
        finally:
            self.log.in_flight -= 1
        one.ended, one.update = time.time(), self.last_update
        self.log.presses.append(one)
        return reply

    async def refresh(self) -> None:
        await self.log.gate.wait()
        self.log.in_flight += 1
        try:
            await super().refresh()
        finally:
            self.log.in_flight -= 1


def pauses(moves: list[str], log: Log) -> list[Pause]:
    """The presses of ``log`` and the system's timer steps of the move log ``moves``
    (lines ``"<game> <version> <time> <update or -> <r or p>"``) as :class:`Pause`
    intervals: a timer step counts when the save before it left a robot's move due
    (``r``)."""
    out = [Pause(p.gid, "press", p.began, p.ended) for p in log.presses]
    by_game: dict[str, list[tuple[int, float, str, str]]] = {}
    for line in moves:
        gid, version, when, update, owed = line.split()
        by_game.setdefault(gid, []).append((int(version), float(when), update, owed))
    for gid, saves in by_game.items():
        saves.sort()
        for (_v0, t0, _u0, owed), (_v1, t1, update, _o1) in itertools.pairwise(saves):
            if update == "-" and owed == "r":
                out.append(Pause(gid, "step", t0, t1))
    return out


def longest(found: list[Pause], games: set[str], start: float, end: float) -> Pause | None:
    """The longest pause of ``games`` that overlaps ``[start, end]`` (None: none)."""
    inside = [p for p in found if p.gid in games and p.overlaps(start, end)]
    return max(inside, key=lambda p: p.seconds, default=None)
