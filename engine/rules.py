"""Variant rules as data: one pydantic model, six named presets, validated overrides.

Every difference between the games of ``RULES.md`` §2 is a field of :class:`Rules`;
code reads the field, never the preset name (DESIGN "Three rings"). A group may
override fields when it opens a table (``target=3000``, ``jokers=true``);
:func:`make_rules` refuses unknown or contradictory options with a pt-BR reason.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from engine.errors import IllegalAction
from engine.options import FAMILY_ONLY, OVERRIDABLE, coerce, option_error
from engine.options import RETIRED_OPTIONS as RETIRED_OPTIONS  # re-exported
from engine.options import stored_options as stored_options  # re-exported

MAX_TARGET = 100_000
"""Highest match target: 20 times the books' largest (RULES §2 "target": 1,500 to 5,000),
room for a marathon (the archive tests play one), never a number that overflows."""
MAX_BONUS = 5_000
"""Highest bonus or penalty a rule may set (the books' largest is 1,000, RULES C7)."""


class Requirement(StrEnum):
    """What a side must have melded for a going-out (RULES §2 "going out", C13)."""

    NONE = "none"
    ANY_CANASTRA = "any_canastra"
    CLEAN_CANASTRA = "clean_canastra"


class RedThree(StrEnum):
    """How red 3s play (RULES §2 "3s")."""

    ORDINARY = "ordinary"
    LAY_ALONE = "lay_alone"  # tranca, RULES A32: laid alone for ±100, never discarded
    DOLLAR = "dollar"  # altaneira, RULES A4/A5: laid for ±100 with a replacement, or natural 3


class BlackThree(StrEnum):
    """How black 3s play (RULES §2 "3s")."""

    ORDINARY = "ordinary"
    BLOCKS_PILE = "blocks_pile"  # tranca, RULES A33
    KILLS_PILE = "kills_pile"  # altaneira, RULES A6


class CardPoints(StrEnum):
    """Card value tables (RULES §2 "card points")."""

    CLASSIC = "classic"  # joker 10, 2 = 10, 3-7 = 5, 8-K = 10, A = 15
    FLAT_10 = "flat_10"  # every card 10 (tranca, altaneira A8)


class Tiebreak(StrEnum):
    """Match tie-breaks (RULES §2 last row)."""

    TOTAL = "total"  # higher total, else one more deal
    ALTANEIRA = "altaneira"  # total, batidas, best deal ended (A7), one more deal


class DealerRotation(StrEnum):
    """Who deals next (RULES C15)."""

    NEXT_SEAT = "next_seat"
    WENT_OUT_OR_FEWEST = "went_out_or_fewest"  # altaneira, seed 000 §8.5


class SpecialCanastra(BaseModel):
    """A named clean run canastra with its own bonus (RULES C7, A12, §2 "canastra").

    ``length`` 13 means A..K with the ace low; 14 means A..A. ``suits`` are suit numbers
    (0 clubs, 1 diamonds, 2 hearts, 3 spades) that qualify.
    """

    model_config = ConfigDict(frozen=True)
    key: str
    label: str
    length: int = Field(ge=13, le=14)
    suits: tuple[int, ...] = (0, 1, 2, 3)
    bonus: int = Field(ge=0, le=MAX_BONUS)
    lows: tuple[int, ...] = (1,)
    """Lowest slots that qualify: ``(1,)`` is the books' ace-low form; the comparison
    rules of :mod:`engine.comparison` take ``(1, 2)`` (a 13-card 2..A counts too)."""


DE_MIL = SpecialCanastra(key="de_mil", label="de mil, A–A limpa", length=14, bonus=1000)
ALTANEIRA = SpecialCanastra(key="altaneira", label="Altaneira, A–K limpa", length=13, bonus=500)
REAL = SpecialCanastra(
    key="real", label="Real, A–A limpa em ♥/♦", length=14, suits=(1, 2), bonus=1000
)


class Rules(BaseModel):
    """Every parameter of RULES.md §2 for one game. Immutable; build with :func:`make_rules`.

    Field groups follow the rows of the RULES §2 table; each field's comment names its row.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: str = "buraco"
    # §1 players, teams and target
    players_allowed: tuple[int, ...] = (2, 3, 4, 6)
    default_players: int = Field(default=4, ge=2, le=6)
    target: int | None = Field(default=1500, ge=100, le=MAX_TARGET)  # None: one deal (A35)
    # decks / deal
    jokers: bool = False  # buraco family option
    jokers_option: bool = True  # whether a group may switch jokers on (RULES §2 "decks")
    hand_size: int = Field(default=11, ge=1, le=15)
    morto: bool = False  # one morto of hand_size cards per side
    # melds
    sets_allowed: bool = True
    set_ranks: tuple[int, ...] = ()  # ranks a set may have; () = any (engine.comparison)
    set_max: int = Field(default=8, ge=3, le=9)  # RULES §2 "set size": 8, tranca 8 + 1 wild
    ace_low: bool = True
    ace_high: bool = True
    natural_two: bool = True  # RULES C5; tranca: every 2 is a wild (issue 3, seed 002)
    run_lowest: int = Field(default=1, ge=1, le=4)  # lowest run slot (1 = low ace)
    # 3s (RULES §2 "3s", A4-A6, A32, A33)
    red_three: RedThree = RedThree.ORDINARY
    black_three: BlackThree = BlackThree.ORDINARY
    three_bonus: int = Field(default=100, ge=0, le=MAX_BONUS)
    # first player's first turn (A9)
    first_player_second_card: bool = True
    pile_starts_with_card: bool = False  # the stock's top card starts the pile (comparison)
    # discard pile (A10, A11, A23, A38)
    pile_open: bool = True
    pickup_justified: bool = False
    pickup_extend_with_hand: bool = False  # top + hand cards onto a meld (comparison)
    justify_wild_same_suit: bool = False
    single_card_pile_rule: bool = True
    # going out (A1, A16, A17, C13)
    morto_requires: Requirement = Requirement.NONE
    end_requires: Requirement = Requirement.NONE
    second_morto_direct_only: bool = False
    # scoring (C14)
    card_points: CardPoints = CardPoints.CLASSIC
    melded_two_points: int | None = Field(default=None, ge=0, le=MAX_BONUS)  # a melded 2
    clean_bonus: int = Field(default=200, ge=0, le=MAX_BONUS)
    dirty_bonus: int = Field(default=100, ge=0, le=MAX_BONUS)
    special_canastras: tuple[SpecialCanastra, ...] = ()
    batida_bonus: int = Field(default=50, ge=0, le=MAX_BONUS)
    morto_penalty: int = Field(default=100, ge=0, le=MAX_BONUS)
    relancinho_bonus: int = Field(default=100, ge=0, le=MAX_BONUS)  # A21; 0 switches it off
    vulnerable_at: int | None = Field(default=750, ge=1, le=MAX_TARGET)  # A22; None: off
    vulnerable_min: int = Field(default=75, ge=0, le=MAX_BONUS)
    vulnerable_min_after_fail: int = Field(default=90, ge=0, le=MAX_BONUS)
    no_canastra_negative: bool = False  # seed 000 §9.5
    # A4 option: each Dólar +100 per canastra of the side (seed 000 §5.3 read literally)
    dollar_per_canastra: bool = False
    # stock exhaustion (A26)
    reuse_pile_once: bool = False
    # match
    tiebreak: Tiebreak = Tiebreak.TOTAL
    dealer_rotation: DealerRotation = DealerRotation.NEXT_SEAT
    # records of buraco-record/1 only (engine/record.py): melds re-laid from their cards
    # after every extension, as the engine did before issue 14; never a table option
    legacy_relayout: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        if not self.ace_low and not self.ace_high:
            raise ValueError("o ás precisa valer baixo ou alto (ace_low ou ace_high)")
        if self.ace_low != (self.run_lowest == 1):
            raise ValueError("run_lowest=1 exatamente quando o ás vale baixo")
        if self.default_players not in self.players_allowed:
            allowed = ", ".join(str(n) for n in self.players_allowed)
            raise PydanticCustomError("rules_players", "{allowed}", {"allowed": allowed})
        if any(n not in (2, 3, 4, 6) for n in self.players_allowed):
            raise ValueError("players_allowed aceita só 2, 3, 4 ou 6 jogadores")
        if any(not 1 <= r <= 13 for r in self.set_ranks):
            raise ValueError("set_ranks aceita só valores de 1 a 13")
        if self.justify_wild_same_suit and not self.pickup_justified:
            raise ValueError("justify_wild_same_suit exige pickup_justified")
        if self.second_morto_direct_only and not self.morto:
            raise PydanticCustomError("rules_morto", "{option}",
                                      {"option": "second_morto_direct_only"})
        if self.morto_requires != Requirement.NONE and not self.morto:
            raise PydanticCustomError("rules_morto", "{option}", {"option": "morto_requires"})
        if self.dollar_per_canastra and self.red_three != RedThree.DOLLAR:
            raise PydanticCustomError("rules_dollar", "dollar_per_canastra", {})
        if self.reuse_pile_once and self.black_three == BlackThree.BLOCKS_PILE:
            raise PydanticCustomError("rules_blocked_pile", "reuse_pile_once", {})
        for n in self.players_allowed:
            sides = 2 if n in (4, 6) else n
            if self.hand_size * (n + (sides if self.morto else 0)) > 100:
                raise ValueError(f"cartas insuficientes para {n} jogadores")
        return self

    # Derived facts, read where they matter -------------------------------------
    @property
    def red_three_meldable(self) -> bool:
        """Red 3s may sit in melds (ordinary, or as the natural 3 of a Dólar's suit, A5)."""
        return self.red_three != RedThree.LAY_ALONE

    @property
    def black_three_meldable(self) -> bool:
        """Black 3s may sit in melds only when ordinary (A6, A33)."""
        return self.black_three == BlackThree.ORDINARY

    @property
    def one_deal(self) -> bool:
        """True when one deal decides the game (A35)."""
        return self.target is None

    def teams(self, players: int) -> list[list[int]]:
        """Seats of each side (RULES §1): 4 -> [[0,2],[1,3]], 6 -> [[0,2,4],[1,3,5]], else alone.

        Raises ``IllegalAction("bad_players")`` when the preset does not allow ``players``.
        """
        if players not in self.players_allowed:
            *head, last = (str(n) for n in self.players_allowed)
            if not head:
                raise IllegalAction(
                    "bad_players", "{preset} aceita {allowed} jogadores, não {players}",
                    preset=self.preset, allowed=last, players=players,
                )
            raise IllegalAction(
                "bad_players", "{preset} aceita {allowed} ou {last} jogadores, não {players}",
                preset=self.preset, allowed=", ".join(head), last=last, players=players,
            )
        if players in (4, 6):
            return [list(range(0, players, 2)), list(range(1, players, 2))]
        return [[s] for s in range(players)]


_BURACO = Rules()
PRESETS: dict[str, Rules] = {
    "buraco": _BURACO,
    "buraco_morto": _BURACO.model_copy(
        update={"preset": "buraco_morto", "players_allowed": (2, 3, 4), "morto": True}
    ),
    "bossa_nova": _BURACO.model_copy(
        update={
            "preset": "bossa_nova",
            "players_allowed": (2, 3, 4),
            "morto": True,
            "end_requires": Requirement.ANY_CANASTRA,
        }
    ),
    "justificado": _BURACO.model_copy(
        update={
            "preset": "justificado",
            "players_allowed": (2, 4),
            "default_players": 2,
            "target": None,
            "morto": True,
            "jokers_option": False,
            "sets_allowed": False,
            "first_player_second_card": False,
            "pile_open": False,
            "pickup_justified": True,
            "single_card_pile_rule": False,
            "end_requires": Requirement.CLEAN_CANASTRA,
            "special_canastras": (DE_MIL,),
            "batida_bonus": 100,
            "relancinho_bonus": 0,
            "vulnerable_at": None,
        }
    ),
    "tranca": _BURACO.model_copy(
        update={
            "preset": "tranca",
            "players_allowed": (2, 4),
            "default_players": 2,
            "target": None,
            "morto": True,
            "jokers_option": False,
            "set_max": 9,  # RULES §2 "set size": no maximum (8 naturals + 1 wild)
            "ace_low": False,
            # 3s never meld and every 2 is wild, so runs start at 4 (seed 002 "Gioco")
            "natural_two": False,
            "run_lowest": 4,
            "red_three": RedThree.LAY_ALONE,
            "black_three": BlackThree.BLOCKS_PILE,
            "first_player_second_card": False,
            "pile_open": False,
            "pickup_justified": True,
            "single_card_pile_rule": False,
            "end_requires": Requirement.CLEAN_CANASTRA,
            "card_points": CardPoints.FLAT_10,
            "batida_bonus": 100,
            "relancinho_bonus": 0,
            "vulnerable_at": None,
        }
    ),
    "altaneira": _BURACO.model_copy(
        update={
            "preset": "altaneira",
            "players_allowed": (4,),
            "default_players": 4,
            "target": 5000,
            "morto": True,
            "jokers_option": False,
            "sets_allowed": False,
            "red_three": RedThree.DOLLAR,
            "black_three": BlackThree.KILLS_PILE,
            "pile_open": False,
            "pickup_justified": True,
            "justify_wild_same_suit": True,
            "single_card_pile_rule": False,
            "end_requires": Requirement.ANY_CANASTRA,
            "second_morto_direct_only": True,
            "card_points": CardPoints.FLAT_10,
            "special_canastras": (REAL, ALTANEIRA),
            "batida_bonus": 100,
            "relancinho_bonus": 0,
            "vulnerable_at": None,
            "no_canastra_negative": True,
            "reuse_pile_once": True,
            "tiebreak": Tiebreak.ALTANEIRA,
            "dealer_rotation": DealerRotation.WENT_OUT_OR_FEWEST,
        }
    ),
}
ALIASES: dict[str, str] = {
    "biriba": "buraco_morto",
    "stbl": "justificado",
    "biriba_tranca": "altaneira",
}


def preset_options(preset: str) -> frozenset[str]:
    """The :data:`OVERRIDABLE` options a new table of ``preset`` (canonical name) may set;
    raises ``KeyError`` for an unknown preset."""
    if preset not in PRESETS:
        raise KeyError(preset)
    return frozenset(k for k in OVERRIDABLE if preset in FAMILY_ONLY.get(k, PRESETS.keys()))


def preset_name(name: str) -> str:
    """Canonical preset for ``name`` or an alias; raises ``IllegalAction("unknown_preset")``."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        known = ", ".join(sorted([*PRESETS, *ALIASES]))
        raise IllegalAction(
            "unknown_preset",
            "variante desconhecida: {name} (conheço: {known})",
            name=repr(name),
            known=known,
        )
    return key


def make_rules(preset: str = "buraco", options: dict[str, Any] | None = None, *,
               stored: bool = False) -> Rules:
    """The rules of ``preset`` (or an alias) with validated ``options`` applied.

    ``options`` values may be typed or text (``{"target": "3000", "jokers": "true"}``);
    ``target`` accepts ``0``/``"none"`` for one deal. A new table takes the options of
    :func:`preset_options` only; ``stored`` (a game or record read back) takes any of
    :data:`OVERRIDABLE`, so a game opened before a family limit keeps its rules. Raises
    ``IllegalAction`` with code ``unknown_preset``, ``unknown_option`` or ``bad_option``
    and a pt-BR reason.
    """
    name = preset_name(preset)
    base = PRESETS[name]
    if not options:
        return base
    allowed = OVERRIDABLE if stored else preset_options(name)
    for key in options:
        if key not in allowed:
            raise IllegalAction(
                "unknown_option",
                "opção desconhecida ou fixa nesta variante: {key} (opções: {options})",
                key=repr(key),
                options=", ".join(sorted(allowed)),
            )
    data = base.model_dump()
    data.update({k: coerce(k, v) for k, v in options.items()})
    if data.get("jokers") and not base.jokers_option:
        raise IllegalAction("bad_option", "jokers só existem na família buraco")
    try:
        rules = Rules.model_validate(data)
    except ValidationError as err:
        raise option_error(err, Rules) from None
    # RULES A22: vulnerability starts at half the target (750 of 1,500)
    if rules.target and base.vulnerable_at is not None and "vulnerable_at" not in options:
        rules = rules.model_copy(update={"vulnerable_at": rules.target // 2})
    return rules


def options_of(rules: Rules) -> dict[str, Any]:
    """The overrides that turn ``rules.preset`` into ``rules`` (for records), JSON-ready."""
    base = PRESETS[rules.preset].model_dump(mode="json")
    mine = rules.model_dump(mode="json")
    return {k: mine[k] for k in sorted(OVERRIDABLE) if mine[k] != base[k]}
