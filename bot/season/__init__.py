"""A group's season (issue 29): ratings, rankings by period, profiles and achievements.

Everything here is counted once per finished match, in the same idempotent follow-up
that counts the chat's ranking (:func:`bot.upkeep.close_out`), from facts derived from
the stored game and its record (:mod:`bot.season.facts`). Storage is behind
:class:`bot.season.ports.SeasonStore` (Redis: ``adapters/storage/season.py``).
"""
