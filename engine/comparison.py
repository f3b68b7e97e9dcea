"""Rules for comparison with other Buraco programs: the game another program plays, as
one of our :class:`~engine.rules.Rules` (docs/RULES.md "Options for comparison with
BotRafa"; issue 37). Not a table preset: a group cannot open these games; the benches
of ``bench/`` use them so a match against another program is played on its rules.

``RM``: the game ``BotRafa`` (rafaelmuylaert/buraco, MIT, commit 1e89683) was trained
on, ``buraco-server/bots/BotRafa.meta.json`` "rules" read with
``GameEngines/Buraco.js``:

* closed pile (``discard: true``): the top card is melded at once with >= 2 hand cards
  or onto one of the side's melds, there with any hand cards besides, and the rest goes
  to the hand (``movePickUpDiscard``, Buraco.js:888, melding with ``moveMeld``); the
  setup turns the stock's top card up as the first pile card (Buraco.js:1217
  ``firstDiscard``), and nobody takes a second card;
* sets ("runners") only of aces and kings (``runners: [1, 13]``, Buraco.js:730
  ``isRunnerAllowed``), any number of naturals (two decks: up to 8) plus one wild;
* no jokers (``noJokers: true``); hand cards count A 15, 8-K 10, 3-7 5, 2 = 10
  (``cardPointValues``, Buraco.js:796), but a 2 on the table counts 20
  (``SEQ_POINTS_NEW`` and the wild terms of ``calculateMeldPoints``, Buraco.js:37, 759);
* canastras: dirty 100, clean 200, and a clean run of 13 cards (A..K or 2..A) 200 + 500,
  of 14 (A..A) 200 + 1,000 (``largeCanasta``, Buraco.js:789-790);
* a run's wild is not tied to its slot: an extension re-lays the run from all its
  cards (``cardsToSeqSlots`` merges the old meld with the new cards and puts the wild in
  the one gap, Buraco.js:606), our ``legacy_relayout``;
* going out to end the deal needs a clean canastra (``cleanCanastaToWin``,
  Buraco.js:860 ``mortoSafe``, 984 ``checkGameOver``); taking the morto needs none;
* batida 100 (``endGameBonus``), morto not taken -100 (``mortoPenalty``); no
  relancinho, no vulnerability; one deal (the trainer scores single deals,
  BotEngines/worker.js ``runMatch``); 4 players in two pairs (``numPlayers`` unset:
  ``runMatch`` plays 4).
"""

from __future__ import annotations

from typing import Final

from engine.rules import PRESETS, Requirement, Rules, SpecialCanastra

RM_THIRTEEN: Final = SpecialCanastra(
    key="rm_13", label="limpa de 13 cartas", length=13, lows=(1, 2), bonus=700
)
"""A clean 13-card run, A..K or 2..A: clean 200 + ``largeCanasta`` 500 (Buraco.js:789)."""
RM_FOURTEEN: Final = SpecialCanastra(
    key="rm_14", label="limpa de 14 cartas, A–A", length=14, bonus=1200
)
"""A clean A..A: clean 200 + ``largeCanasta`` 1,000 (Buraco.js:790)."""


def _rm() -> Rules:
    data = PRESETS["buraco_morto"].model_dump()
    data.update(
        preset="rm",
        players_allowed=(2, 4),
        default_players=4,
        target=None,
        jokers_option=False,
        set_ranks=(1, 13),
        set_max=9,
        first_player_second_card=False,
        pile_starts_with_card=True,
        pile_open=False,
        pickup_justified=True,
        pickup_extend_with_hand=True,
        single_card_pile_rule=False,
        end_requires=Requirement.CLEAN_CANASTRA,
        melded_two_points=20,
        special_canastras=(RM_FOURTEEN, RM_THIRTEEN),
        batida_bonus=100,
        relancinho_bonus=0,
        vulnerable_at=None,
        legacy_relayout=True,
    )
    return Rules.model_validate(data)


RM: Final[Rules] = _rm()
"""BotRafa's game (see the module's docstring), for ``bench/vs_rm.py``."""

COMPARISONS: Final[dict[str, Rules]] = {"rm": RM}
"""Comparison rule sets by name."""
