"""Skill ratings with openskill's Plackett-Luce model (issue 29 "Ratings").

A rating is ``(mu, sigma, n)``: openskill's mean and uncertainty, and how many matches
it counted. One match updates every person of every side at once, sides of 1, 2 or 3
people; the sides are ranked by the match result (the winner first, the others by
their totals).

Choices (docs/season.md):

* Robots are **fixed-strength opponents or partners**: each level has a fixed rating
  (:data:`ROBOT`), it takes part in the model's update like a person, and its own new
  rating is thrown away. So a person who only plays against robots gets a rating, and
  beating ``dificil`` is worth more than beating ``facil``.
* A person who left mid-match and was still away at its end (the robot played for
  them) gets :data:`AWAY_WEIGHT` of the change openskill computes (mean and variance
  alike); one who came back before the end counts fully.
* Shown as one number, :func:`shown`: ``1000 + 20 * (mu - 3 sigma)`` (openskill's
  ordinal, the conservative estimate, scaled: a new person shows 1000), marked
  provisional until :data:`SETTLED` matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
ROBOT: dict[str, tuple[float, float]] = {"facil": (18.0, 1.0), "normal": (24.0, 1.0),
                                         "dificil": (30.0, 1.0)}
"""The fixed rating ``(mu, sigma)`` of a robot of each level (bot.model.AI_LEVELS)."""
AWAY_WEIGHT = 0.5
"""Share of the change a person gets who was away at the match's end."""
SETTLED = 10
"""Matches after which a rating is no longer shown as provisional."""
SCALE, BASE = 20.0, 1000.0


@dataclass(frozen=True, slots=True)
class Rating:
    """openskill's ``mu`` and ``sigma`` and ``n``, the matches counted."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    n: int = 0

    def text(self) -> str:
        """Stored form ``"<mu> <sigma> <n>"`` (floats in full: a rebuild reproduces it)."""
        return f"{self.mu!r} {self.sigma!r} {self.n}"

    @classmethod
    def parse(cls, text: str | None) -> Rating:
        """The stored form back; None or a damaged text is a new rating."""
        try:
            mu, sigma, n = (text or "").split()
            return cls(float(mu), float(sigma), int(n))
        except ValueError:
            return cls()

    @property
    def shown(self) -> int:
        """The number people see (:func:`shown`)."""
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """True until :data:`SETTLED` matches were counted."""
        return self.n < SETTLED


def shown(mu: float, sigma: float) -> int:
    """``round(1000 + 20 * (mu - 3 sigma))``: 1000 for a new person."""
    return round(BASE + SCALE * (mu - 3.0 * sigma))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat in the update: a person (``key``) with ``weight``, or a robot (``robot``
    level, ``key`` None)."""

    key: str | None
    weight: float = 1.0
    robot: str | None = None


def rate(sides: list[list[Entrant]], ranks: list[int],
         ratings: dict[str, Rating]) -> dict[str, Rating]:
    """The new rating of every person of ``sides`` after one match.

    ``ranks[side]``: 0 for the winner, higher for worse (equal for a tie);
    ``ratings``: the current rating of each person (missing: a new one). Robots take part
    at their fixed :data:`ROBOT` strength and are left out of the result. Raises
    ``ValueError`` for fewer than two sides."""
    if len(sides) < 2:
        raise ValueError("a rating needs two sides")
    teams = [[_model_rating(e, ratings) for e in side] for side in sides]
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    out: dict[str, Rating] = {}
    for side, after in zip(sides, new, strict=True):
        for entrant, rated in zip(side, after, strict=True):
            if entrant.key is None:
                continue
            old = ratings.get(entrant.key, Rating())
            w = entrant.weight
            var = old.sigma ** 2 + w * (rated.sigma ** 2 - old.sigma ** 2)
            out[entrant.key] = Rating(old.mu + w * (rated.mu - old.mu), var ** 0.5, old.n + 1)
    return out


def _model_rating(entrant: Entrant, ratings: dict[str, Rating]) -> PlackettLuceRating:
    if entrant.key is None:
        mu, sigma = ROBOT.get(entrant.robot or "normal", ROBOT["normal"])
        return MODEL.rating(mu=mu, sigma=sigma)
    got = ratings.get(entrant.key, Rating())
    return MODEL.rating(mu=got.mu, sigma=got.sigma)
