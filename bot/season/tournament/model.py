"""The stored tournament of a group (issue 29): one JSON record per group, written
whole with compare-and-set (``SeasonStore.save_tournament``). Pure data."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.effects import ChatRef, PlayerRef

WO_DEFAULT_S = 300
"""Seconds a called side has to show (``wo=`` option, 1 to 60 minutes)."""


class Side(BaseModel):
    """One side: one person (individual) or two (duplas), in sign-up order."""

    people: list[PlayerRef]


class Match(BaseModel):
    """One pairing: sides ``a`` and ``b`` (indexes of :attr:`Tournament.sides`; ``b``
    None: a knockout bye, ``a`` goes through) of round ``round`` (1-based). ``game``:
    the game played for it, once everyone showed; ``score``: the match points of a and
    b; ``winner``: the side that won (None while not played); ``absent``: the sides
    that did not show (a walkover; both: a double W.O.)."""

    round: int
    a: int
    b: int | None
    game: str | None = None
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    absent: list[int] = Field(default_factory=list)

    @property
    def done(self) -> bool:
        """Whether the match has its result."""
        return self.winner is not None or self.b is None

    @property
    def wo(self) -> bool:
        """Whether the match was decided by a walkover."""
        return bool(self.absent)


class Tournament(BaseModel):
    """A group's tournament: ``status`` ``signup`` -> ``running`` -> ``over``
    (``cancelled`` when ended early). ``knockout`` False: round robin. ``pairs``: sides
    of two. ``preset`` and ``args`` (``target=1000``) are each match's table; ``wo_s``
    the seconds a called side has to show. ``current``: the index of the match being
    called or played; ``present`` the people who showed for it, ``due`` when its
    walkover falls (:func:`bot.season.tournament.followup.rearm` sets its timer again
    from it when lost). ``posted``: whether the current call was shown to the group (a
    call's save leaves it False, a second compare-and-set after its effects are built
    makes it True; a tick of the tournament's timer that finds it False shows the call
    and moves ``due`` to a full :attr:`wo_s` from then, so nobody loses by W.O. to a
    call never shown). ``counted``: the game ids whose results were counted (once each);
    ``champion`` the winning side."""

    id: str
    chat: ChatRef
    creator: PlayerRef
    lang: str = "pt"
    knockout: bool = False
    pairs: bool = False
    preset: str = "tranca"
    args: str = ""
    wo_s: int = WO_DEFAULT_S
    status: Literal["signup", "running", "over", "cancelled"] = "signup"
    people: list[PlayerRef] = Field(default_factory=list)
    sides: list[Side] = Field(default_factory=list)
    matches: list[Match] = Field(default_factory=list)
    current: int | None = None
    present: list[str] = Field(default_factory=list)
    due: float | None = None
    posted: bool = True
    counted: list[str] = Field(default_factory=list)
    champion: int | None = None

    @property
    def live(self) -> bool:
        """Whether the tournament is still open (sign-up or running)."""
        return self.status in ("signup", "running")

    def side_of(self, key: str) -> int | None:
        """The side of person ``key``, or None."""
        for i, side in enumerate(self.sides):
            if any(p.key == key for p in side.people):
                return i
        return None

    def rounds(self) -> int:
        """The highest round number paired so far (0 before the start)."""
        return max((m.round for m in self.matches), default=0)
