"""Bounded memos of pure functions of the rules (issue 13).

Laying out a meld, or asking whether a card extends one, depends only on the cards and
the :class:`~engine.rules.Rules`; random play, the AI's rollouts and replays ask the same
questions again and again. :class:`RulesMemo` keeps one dict of answers per rules.
Memos stay small (a few thousand answers for a few rules, cleared when full), as many
small objects lengthen Python's full garbage collections.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from engine.rules import Rules

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
