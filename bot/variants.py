"""The variants a table can play, as people choose them: the default table, each
variant's name and its one-line description (issue 30). One place for the chat lobby
(:func:`bot.views.lobby_view`, the variant buttons) and the terminal's first screen
(:mod:`adapters.console`), so both say the same.

The descriptions are pt-BR msgids (translated in ``bot/locale``) and follow
``docs/RULES.md`` §2: what ends a deal, the discard pile, the special 3s.
"""

from __future__ import annotations

from bot.i18n import N_, Translator

DEFAULT_PRESET = "bossa_nova"
"""The variant of a table opened without naming one (``/novojogo``, ``make play``,
``python -m bot play``): RULES A0, Bossa Nova, "a modalidade mais jogada atualmente"
(seed 001), where a canastra is needed to end the deal."""

ORDER: tuple[str, ...] = ("bossa_nova", "buraco_morto", "buraco", "tranca", "justificado",
                          "altaneira")
"""Every preset (``engine.rules.PRESETS``), the default first: the order the lobby's
buttons and the terminal's list show them in. A lobby button carries a variant's index
here (``v|<index>``), so new variants go at the end."""

TITLES: dict[str, str] = {"buraco": "Buraco", "buraco_morto": "Buraco com Morto",
                          "bossa_nova": "Buraco Bossa Nova", "justificado": "Justificado",
                          "tranca": "Tranca", "altaneira": "Biriba com Tranca de Altaneira"}
"""A preset's name on the table's title and in ``/regras`` (proper names: not translated)."""

BUTTON_LABELS: dict[str, str] = {**TITLES, "bossa_nova": "Bossa Nova",
                                 "altaneira": "Altaneira"}
"""A preset's name on a lobby button (short)."""

DESCRIPTIONS: dict[str, str] = {
    "bossa_nova": N_("Buraco Bossa Nova: com morto; para encerrar a mão o lado precisa de "
                     "uma canastra. A mais jogada."),
    "buraco_morto": N_("Buraco com Morto: quem bate primeiro pega o morto; encerra a mão "
                       "sem precisar de canastra."),
    "buraco": N_("Buraco: sem morto; a mão acaba quando alguém bate, sem precisar de "
                 "canastra."),
    "tranca": N_("Tranca: o lixo fechado só se pega justificando o topo; 3 vermelho vale "
                 "100, 3 preto tranca o lixo; bater exige canastra limpa."),
    "justificado": N_("Justificado: só sequências; o lixo se pega justificando o topo; "
                      "bater exige canastra limpa; A a A limpa vale 1.000."),
    "altaneira": N_("Biriba com Tranca de Altaneira: duplas, só sequências, até 5.000; "
                    "Dólar (3 vermelho) e Tranca (3 preto, que mata o lixo)."),
}
"""One line per preset saying what sets it apart (RULES §2); pt-BR msgids."""


def describe(preset: str, _: Translator) -> str:
    """The one-line description of ``preset`` (canonical name) in the language of ``_``;
    ``KeyError`` for an unknown preset."""
    return _(DESCRIPTIONS[preset])


def index_of(preset: str) -> int:
    """The index of ``preset`` in :data:`ORDER` (what a lobby button carries);
    ``ValueError`` for an unknown preset."""
    return ORDER.index(preset)
