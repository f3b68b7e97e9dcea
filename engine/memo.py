"""Bounded memos of pure functions of the rules (issue 13).

Laying out a meld, or asking whether a card extends one, depends only on the cards and
the :class:`~engine.rules.Rules`; random play, the AI's rollouts and replays ask the same
questions again and again. :class:`RulesMemo` keeps one dict of answers per rules.
Memos stay small (a few thousand answers for a few rules, cleared when full), as many
small objects lengthen Python's full garbage collections.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

from engine.rules import BlackThree, RedThree, Rules

K = TypeVar("K")
V = TypeVar("V")


class RulesMemo(Generic[K, V]):
    """Per-rules dicts of answers: :meth:`of` gives the dict for ``rules``, and
    :meth:`put` stores in it (clearing it when it holds ``size`` answers)."""

    __slots__ = ("_by_rules", "_last", "rules_kept", "size")

    def __init__(self, size: int, rules_kept: int = 8) -> None:
        self.size = size
        self.rules_kept = rules_kept
        self._by_rules: dict[Rules, dict[K, V]] = {}
        self._last: tuple[Rules | None, dict[K, V]] = (None, {})

    def of(self, rules: Rules) -> dict[K, V]:
        """The answers for ``rules`` (the last rules asked about are found by identity:
        hashing a ``Rules`` is Python code)."""
        last, memo = self._last
        if last is rules:
            return memo
        found = self._by_rules.get(rules)
        if found is None:
            if len(self._by_rules) >= self.rules_kept:
                self._by_rules.clear()
            found = self._by_rules[rules] = {}
        self._last = (rules, found)
        return found

    def put(self, memo: dict[K, V], key: K, value: V) -> V:
        """Store ``value`` under ``key`` in ``memo`` (one of :meth:`of`'s dicts); returns it."""
        if len(memo) >= self.size:
            memo.clear()
        memo[key] = value
        return value


class RuleFacts:
    """The rule fields the engine's per-move code reads, copied into a plain class: a
    field read on the pydantic :class:`~engine.rules.Rules` goes through pydantic's
    ``__getattr__`` hook (a few hundred instructions compiled; issue 13). Get one with
    :func:`facts`; the fields mean what the same-named ``Rules`` fields mean, and
    ``red_lay_alone`` / ``red_ordinary`` / ``black_blocks`` / ``black_kills`` say
    ``red_three == LAY_ALONE`` / ``ORDINARY``, ``black_three == BLOCKS_PILE`` /
    ``KILLS_PILE`` (RULES A32, A33, A6), and
    ``threes_meldable`` that every 3 may sit in a meld (``red_three_meldable and
    black_three_meldable``), ``set_rank_bits`` has bit r set for each rank r of
    ``set_ranks`` (0: any rank)."""

    __slots__ = ("ace_high", "ace_low", "black_blocks", "black_kills",
                 "first_player_second_card", "legacy_relayout", "natural_two",
                 "pickup_justified", "red_lay_alone", "red_ordinary", "rules",
                 "run_lowest", "set_max", "set_rank_bits", "set_ranks", "sets_allowed",
                 "threes_meldable")

    def __init__(self, rules: Rules) -> None:
        self.rules: Final = rules
        self.sets_allowed: Final[bool] = rules.sets_allowed
        self.set_max: Final[int] = rules.set_max
        self.set_ranks: Final[tuple[int, ...]] = rules.set_ranks
        self.set_rank_bits: Final[int] = sum(1 << r for r in set(rules.set_ranks))
        self.run_lowest: Final[int] = rules.run_lowest
        self.ace_low: Final[bool] = rules.ace_low
        self.ace_high: Final[bool] = rules.ace_high
        self.natural_two: Final[bool] = rules.natural_two
        self.legacy_relayout: Final[bool] = rules.legacy_relayout
        self.first_player_second_card: Final[bool] = rules.first_player_second_card
        self.red_lay_alone: Final[bool] = rules.red_three == RedThree.LAY_ALONE
        self.red_ordinary: Final[bool] = rules.red_three == RedThree.ORDINARY
        self.pickup_justified: Final[bool] = rules.pickup_justified
        self.black_blocks: Final[bool] = rules.black_three == BlackThree.BLOCKS_PILE
        self.black_kills: Final[bool] = rules.black_three == BlackThree.KILLS_PILE
        self.threes_meldable: Final[bool] = rules.red_three_meldable and rules.black_three_meldable


class _Known:
    """The facts of the last rules asked about, and of a few before (by ``id``, the
    rules kept alongside in the facts)."""

    __slots__ = ("by_id", "last")

    def __init__(self) -> None:
        self.last: RuleFacts | None = None
        self.by_id: dict[int, RuleFacts] = {}


_KNOWN: Final = _Known()


def facts(rules: Rules) -> RuleFacts:
    """The :class:`RuleFacts` of ``rules`` (rules are immutable: computed once each)."""
    last = _KNOWN.last
    if last is not None and last.rules is rules:
        return last
    got = _KNOWN.by_id.get(id(rules))
    if got is None or got.rules is not rules:
        if len(_KNOWN.by_id) >= 64:
            _KNOWN.by_id.clear()
        got = _KNOWN.by_id[id(rules)] = RuleFacts(rules)
    _KNOWN.last = got
    return got
